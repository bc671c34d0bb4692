#!/usr/bin/env python3
"""The rig's second phone stack: a RemoteTouch phone (BLE central) on Bumble, driven by a line protocol.

One process serves a whole run (importing Bumble takes 7-25 s in the vm guest's TCG). It owns the phone's adapter
through the kernel's HCI user channel, so bluetoothd lets go of it for the run and takes it back at `close`; the
adapter stays behind the rig's radio bridge (connection events, packet errors, interval changes, blackouts apply).

    .venv-bumble/bin/python Rigs/bumble/phone.py [--snoop FILE] [--trace]
    .venv-bumble/bin/python Rigs/bumble/phone.py --version     (prints one JSON line and exits; for checks)

Needs root (or CAP_NET_ADMIN) for the user channel: run it in the vm guest. docs/bumble-phone.md has the design,
the profile table and a worked session.

Protocol
--------
stdin: one request a line, `ID VERB ARG...`, words split on blanks. ID is any word without blanks; the reply
echoes it. Empty lines and lines starting with `#` are ignored. Requests run one at a time, in the order they came:
a client may send the next before the reply to the last, and it waits its turn.

stdout: one JSON object a line, nothing else (Bumble's own warnings come as `log` events). Every line has "t", the
time it was written: time.monotonic_ns(), CLOCK_MONOTONIC in nanoseconds, the clock of the computer's receipts and
of evdev. A reply has "id", "verb", "ok"; ok false has "error", one sentence saying what failed and what to do.
An unsolicited line has "event" instead of "id".

Verbs (-> the reply's fields when ok)
  open [hciN|TRANSPORT]     take the adapter (default hci1): power it off in bluetoothd (btmgmt, else D-Bus),
                            open Bumble's `hci-socket:N` and reset the controller. A TRANSPORT with a colon is
                            opened as given (no release).   -> adapter, transport, address, aclBuffers, aclMtu,
                            released, tOpened
  profile [NAME] [K=V...]   NAME: one of PROFILES (below); then each K=V changes one field.
                            -> profile (the name), changes (the fields that differ from its table), fields (all)
  scan [UUID] [TIMEOUT_S]   active scan until an advertisement names UUID (default: the RemoteTouch service;
                            timeout 20 s)                  -> address, addressType, rssi, name
  connect [ADDRESS [public|random]] [TIMEOUT_S]
                            connect (default: the address the last scan found; a given one is random unless
                            `public` follows it or it ends in /P; timeout 20 s) at the profile's
                            interval, then: ATT MTU exchange (mtu > 23), the connection parameter request
                            (update), EATT (eatt > 0)    -> address, handle, mtu, intervalMs, supervisionMs,
                            update (null, or what was asked and got; `error` when refused: the link keeps its
                            interval), eatt (null, or asked, offered, bearers; `error` when none opened: the phone
                            goes on over the ATT channel), tConnected
  discover                  the RemoteTouch service and its characteristics -> handles {command, status,
                            pairing, report (null when the computer serves none)}, properties
  subscribe [CHAR]          enable notifications (default status); they come as `notify` events -> char
  read CHAR [OFFSET] [long|short]
                            Read (OFFSET 0) or Read Blob (OFFSET > 0); long (default) goes on with Read Blobs
                            while a part is full (MTU-1 bytes), up to 512 bytes (the ATT limit) -> hex, length,
                            parts (the byte count of each response), mtu
  write CHAR HEX [with|without|motion|button] [bearer=K] [force]
                            one ATT write of the bytes HEX. with: Write Request (a long write, Prepare + Execute,
                            when longer than MTU-3 and the profile's long=write); without: Write Command;
                            motion, button: as the profile's `motion` / `buttons` field says (a value longer than
                            MTU-3 then goes with response, as a phone does that asks the stack for the longest
                            write without response). Default: button. bearer=K: 0 the fixed ATT channel, 1..n an
                            EATT bearer (default: the profile's `bearers`). force: send what the phone would
                            refuse (over 512 bytes; a first long write to command, below).
                            -> char, len, kind (with|without), long, bearer, mtu, tCall (the request began),
                            tAcl (the write's first ACL fragment was handed to the HCI socket: the write left the
                            phone's host), tDone (with: the answer came; without: after tAcl), queued (ACL packets
                            the controller had not completed when the write went)
  prime [command|report|all]
                            what docs/protocol.md asks before anything else on a connection: command: a short
                            write with response (`{"dragEnd":{}}`, 14 bytes: no event on a fresh connection) unless
                            the connection wrote command already; report: the neutral report without response,
                            then a read of it. Default all.  -> command, report (each: the write's stamps, or null)
  pair CODE|@FILE [TIMEOUT_S]
                            write the 6 ASCII digits to pairing with response; @FILE: wait up to TIMEOUT_S
                            (default 5) for the computer's code file to hold a code -> code, and the write's fields
  update MIN_MS MAX_MS [LATENCY] [SUPERVISION_MS]
                            LE Connection Update, and wait for its Complete -> intervalMs, latency, supervisionMs
  state                     -> open, adapter, connected, address, handle, mtu, intervalMs, latency, supervisionMs,
                            bearers, profile, changes, primed (the characteristics written on this link), pending
                            (ACL packets queued or not completed)
  disconnect [now]          waits (up to 1 s) until the controller has sent every ACL packet the host handed it
                            (the radio bridge drops what a link still holds when it ends), unless `now`; then
                            takes the link down -> reason, reasonName (null when there was no link), drainedMs
                            (how long the wait took; null when it gave up or with `now`)
  close [WAIT_S]            disconnect, reset the controller, close the HCI socket, then wait up to WAIT_S
                            (default 5) for bluetoothd to power the adapter again (powering it through D-Bus if
                            it did not) -> adapter, adapterBack; the process then exits 0.

CHAR: command, status, pairing, report, or a decimal attribute handle.

Events
  starting {pid}                  at once (before Bumble is imported)
  ready {bumble, python, importMs} Bumble imported: requests are served from now on
  notify {char, hex, bearer}      a notification (bearer 0: the fixed ATT channel, k: EATT bearer k)
  mtu {mtu}                       the ATT MTU changed (the computer's exchange or ours)
  connParams {intervalMs, latency, supervisionMs}   LE Connection (Update) Complete
  disconnected {reason, reasonName}
  bearerClosed {bearer, cid}      an EATT bearer closed
  log {level, text}               a warning from Bumble or from this program
  closed {reason}                 last line: after close, stdin's end (EOF) or SIGTERM/SIGINT; exit status 0

Errors: a request that fails is answered ok false; a refused write or read carries "attError" (the ATT error
code) and "attErrorName" when the computer answered with one, and the stamps it has. The link dropping during a
request fails the request ("the link dropped ..."). stdin's end and SIGTERM act as close without the wait:
the link is always taken down before the HCI socket closes (a link left up behind a closed user channel leaves
btvirt with a link to a host that is gone). At stdin's end the requests that came before it are still served; SIGTERM cancels the one
that runs (its reply says so) and drops the rest.

Exit status: 0 after closed; 2 bad arguments; 3 Bumble missing (`bash Rigs/setup.sh` installs it).
"""
import argparse
import asyncio
import json
import logging
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time
import traceback

SERVICE_UUID = '12345678-1234-1234-1234-123456789ABC'
CHARACTERISTIC_UUIDS = {
    'command': '12345678-1234-1234-1234-123456789ABD',
    'status': '12345678-1234-1234-1234-123456789ABE',
    'pairing': '12345678-1234-1234-1234-123456789ABF',
    'report': '12345678-1234-1234-1234-123456789AC0',
}
SERVER_SUPPORTED_FEATURES = 0x2B3A     # GATT service; bit 0: EATT supported
ATT_MAX_VALUE = 512                    # Core 5.3, Vol 3, Part F, 3.2.9
PRIME_COMMAND = b'{"dragEnd":{}}'      # 14 bytes; emits nothing when no drag is held (docs/protocol.md)
NEUTRAL_REPORT = bytes(6)

# Every field, its default and how it is read. docs/bumble-phone.md has the table with reasons.
DEFAULTS = {
    'mtu': 517,            # the ATT MTU the phone asks (23..517); 23: no exchange from the phone, and 23 answered
    'eatt': 0,             # EATT bearers to open after connecting (0: off)
    'eattWhen': 'offered', # offered: only when the computer's Server Supported Features has EATT; always: try anyway
    'eattTimeoutMs': 5000, # give up the EATT connection after this (it hangs against a one-bearer computer)
    'interval': '15',      # LE Create Connection's interval, ms: 'I' or 'MIN-MAX'
    'supervisionMs': 2000,
    'update': 'none',      # the connection parameter request after connecting: 'none' or 'MIN-MAX' ms
    'motion': 'without',   # how a `motion` write goes
    'buttons': 'with',     # how a `button` write goes (presses, releases, taps, keys, text, modes)
    'long': 'write',       # a value longer than MTU-3 written with response: write (Prepare + Execute) or refuse
    'queue': 0,            # writes without response wait while this many ACL packets are not completed (0: no limit)
    'bearers': 'spread',   # with EATT open: spread (round robin over every bearer) or fixed (the ATT channel only)
    'writeTimeoutMs': 10000,
}
PROFILES = {
    # The rig's BlueZ phone's style on another stack: BlueZ asks 517, button changes with response, motion without.
    'bluez-like': {},
    # The oldest phone the doc serves: no MTU exchange, no EATT, every write with response (long writes).
    'minimal': {'mtu': 23, 'motion': 'with', 'buttons': 'with'},
    # CoreBluetooth: MTU 185, no EATT, writes without response through a flow-controlled queue, and the
    # connection parameters Apple's accessory guidelines allow (min 15 ms, max at least min + 15 ms).
    'ios-like': {'mtu': 185, 'motion': 'without', 'buttons': 'without', 'queue': 6, 'update': '15-30'},
    # Android: MTU 517, EATT when the computer offers it, button writes with response.
    'android-like': {'mtu': 517, 'eatt': 3, 'eattWhen': 'offered', 'motion': 'without', 'buttons': 'with'},
}
# Fields fixed when the link is made: a profile cannot change them while connected.
CONNECT_FIELDS = {'mtu', 'eatt', 'eattWhen', 'eattTimeoutMs', 'interval', 'supervisionMs', 'update'}


class Refusal(Exception):
    """A request that cannot be done: the message says what failed and what to do. `extra` goes into the reply."""

    def __init__(self, message, **extra):
        super().__init__(message)
        self.extra = extra


def milliseconds_range(text, field):
    """'15' -> (15, 15); '15-30' -> (15, 30); ms within the LE range 7.5..4000."""
    parts = text.split('-')
    try:
        low, high = (float(parts[0]), float(parts[-1])) if len(parts) in (1, 2) else (None, None)
    except ValueError:
        low = high = None
    if low is None or not (7.5 <= low <= high <= 4000):
        raise Refusal(f'{field}={text}: give MS or MIN-MAX in milliseconds, 7.5 to 4000, MIN <= MAX')
    return low, high


def check_field(key, value):
    """The field's value from its text, or a Refusal naming the field and its values."""
    def integer(low, high):
        try:
            number = int(value)
        except ValueError:
            number = None
        if number is None or not low <= number <= high:
            raise Refusal(f'{key}={value}: give a whole number from {low} to {high}')
        return number

    def choice(*names):
        if value not in names:
            raise Refusal(f'{key}={value}: one of {", ".join(names)}')
        return value

    if key not in DEFAULTS:
        raise Refusal(f'unknown profile field {key!r}: the fields are {", ".join(DEFAULTS)}')
    if key == 'mtu':
        return integer(23, 517)
    if key == 'eatt':
        return integer(0, 5)
    if key == 'eattWhen':
        return choice('offered', 'always')
    if key in ('eattTimeoutMs', 'writeTimeoutMs'):
        return integer(100, 60000)
    if key == 'interval':
        milliseconds_range(value, key)
        return value
    if key == 'supervisionMs':
        return integer(100, 32000)
    if key == 'update':
        if value != 'none':
            milliseconds_range(value, key)
        return value
    if key in ('motion', 'buttons'):
        return choice('with', 'without')
    if key == 'long':
        return choice('write', 'refuse')
    if key == 'queue':
        return integer(0, 64)
    if key == 'bearers':
        return choice('spread', 'fixed')
    raise AssertionError(key)


def describe(address):
    """An address as the replies give it: without Bumble's '/P', and its type beside it."""
    return {'address': address.to_string(False), 'addressType': 'public' if address.is_public else 'random'}


class Output:
    """stdout, one JSON object a line. A reader that went away ends the run (as stdin's end does)."""

    def __init__(self):
        self.gone = False
        self.on_gone = None

    def line(self, **fields):
        fields['t'] = time.monotonic_ns()
        if self.gone:
            return
        try:
            sys.stdout.write(json.dumps(fields, separators=(',', ':')) + '\n')
            sys.stdout.flush()
        except (BrokenPipeError, OSError):
            self.gone = True
            if self.on_gone:
                self.on_gone()


OUT = Output()


class EventLog(logging.Handler):
    """Bumble's warnings (and worse) as `log` events, so the phone's last lines reach whoever drives it."""

    ANSI = re.compile(r'\x1b\[[0-9;]*m')

    def emit(self, record):
        try:
            text = self.ANSI.sub('', f'{record.name}: {record.getMessage()}')
            OUT.line(event='log', level=record.levelname.lower(), text=text)
        except Exception:  # noqa: BLE001 - a log line must never take the phone down
            pass


def run_tool(argv, timeout=5.0):
    """(exit status, output) of a short tool run; status None when it is not installed or timed out."""
    if not shutil.which(argv[0]):
        return None, f'{argv[0]} is not installed'
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f'{" ".join(argv)} did not finish within {timeout:g} s'
    return done.returncode, (done.stdout + done.stderr).strip()


def adapter_powered(name):
    """True/False as bluetoothd reports Adapter1.Powered, None when it cannot say (no bluetoothd, no adapter)."""
    status, text = run_tool(['dbus-send', '--system', '--print-reply=literal', '--reply-timeout=2000',
                             '--dest=org.bluez', f'/org/bluez/{name}', 'org.freedesktop.DBus.Properties.Get',
                             'string:org.bluez.Adapter1', 'string:Powered'], timeout=3)
    if status != 0:
        return None
    return text.split()[-1] == 'true' if text else None


def set_powered(name, on):
    return run_tool(['dbus-send', '--system', '--print-reply', '--reply-timeout=5000', '--dest=org.bluez',
                     f'/org/bluez/{name}', 'org.freedesktop.DBus.Properties.Set', 'string:org.bluez.Adapter1',
                     'string:Powered', f'variant:boolean:{"true" if on else "false"}'], timeout=6)


class Phone:
    def __init__(self, options, bumble):
        self.options = options
        self.b = bumble                       # the Bumble modules, imported once
        self.profile_name = 'bluez-like'
        self.fields = dict(DEFAULTS)
        self.adapter = None                   # 'hci1', or None for a transport given as such
        self.transport_spec = None
        self.transport = None
        self.device = None
        self.found = None                     # the Address the last scan found
        self.reset_link()

    def reset_link(self):
        self.conn = None
        self.peer = None
        self.chars = {}                       # name -> CharacteristicProxy
        self.eatt = []                        # EATT gatt clients, bearer k = eatt[k-1]
        self.next_bearer = 0
        self.written = set()                  # characteristics written on this link (for the priming guard)
        self.pending_acl = []                 # [(cid, opcode, handle, future)] waiting for their first fragment
        self.link_lost = None

    # ---- stamps: the first ACL fragment of each ATT write, as the host hands it to the HCI socket

    def watch_sink(self, sink):
        original = sink.on_packet

        def on_packet(packet):
            now = time.monotonic_ns()
            if self.pending_acl and len(packet) >= 12 and packet[0] == 0x02:
                flags = struct.unpack_from('<H', packet, 1)[0] >> 12 & 0x3
                if flags in (0x0, 0x2):                               # the start of an L2CAP PDU
                    cid = struct.unpack_from('<H', packet, 7)[0]
                    body = packet[9:] if cid == 0x0004 else packet[11:]  # a K-frame starts with its SDU length
                    if len(body) >= 3:
                        opcode, handle = body[0], struct.unpack_from('<H', body, 1)[0]
                        for index, (want_cid, want_opcode, want_handle, future) in enumerate(self.pending_acl):
                            if (want_cid, want_opcode, want_handle) == (cid, opcode, handle):
                                del self.pending_acl[index]
                                if not future.done():
                                    future.set_result(now)
                                break
            return original(packet)
        sink.on_packet = on_packet

    # ---- open, profile, scan, connect

    async def open(self, args):
        if self.device is not None:
            raise Refusal(f'the phone has {self.adapter or self.transport_spec} open already: one open per process')
        target = args[0] if args else self.options.adapter
        released = None
        if ':' in target:
            spec = target
        elif target.startswith('hci') and target[3:].isdigit():
            self.adapter = target
            spec = f'hci-socket:{target[3:]}'
            released = self.release(target)
        else:
            raise Refusal(f'open {target}: give an adapter (hci1) or a Bumble transport (hci-socket:1, tcp-client:HOST:PORT)')
        self.transport_spec = spec
        transport = None
        for attempt in range(20):
            try:
                transport = await self.b.open_transport(spec)
                break
            except OSError as error:
                if error.errno == 16 and attempt < 19:        # EBUSY: bluetoothd has not let go yet
                    await asyncio.sleep(0.1)
                    continue
                hint = {16: f'bluetoothd still holds {target}: check `btmgmt --index {target[3:]} info` and that no other '
                            'program has its user channel',
                        1: 'the HCI user channel needs root (CAP_NET_ADMIN): run it in the vm guest (hil vm exec)',
                        13: 'the HCI user channel needs root (CAP_NET_ADMIN): run it in the vm guest (hil vm exec)',
                        19: f'there is no {target}: list the adapters with `btmgmt info`',
                        97: 'this kernel has no Bluetooth sockets: run it in the vm guest (hil vm exec)'}.get(
                            error.errno, 'see the error')
                raise Refusal(f'cannot open {spec}: {error.strerror or error} ({hint})') from error
        self.transport = transport
        self.watch_sink(transport.sink)
        config = self.b.DeviceConfiguration()
        config.name = 'RemoteTouch phone (Bumble)'
        self.device = self.b.Device.from_config_with_hci(config, transport.source, transport.sink)
        self.device.gatt_server.max_mtu = self.fields['mtu']
        if self.options.snoop:
            from bumble.snoop import BtSnooper
            self.device.host.snooper = BtSnooper(open(self.options.snoop, 'wb'))
        try:
            await asyncio.wait_for(self.device.power_on(), 10)
        except Exception as error:
            await self.close_transport()
            raise Refusal(f'the controller behind {spec} did not come up ({type(error).__name__}: {error}): '
                          'is the radio bridge running (radio-K.log)?') from error
        queue = self.device.host.le_acl_packet_queue or self.device.host.acl_packet_queue
        return {'adapter': self.adapter, 'transport': spec, 'address': self.device.public_address.to_string(False),
                'aclBuffers': queue.max_in_flight if queue else None,
                'aclMtu': queue.max_packet_size if queue else None, 'released': released,
                'tOpened': time.monotonic_ns()}

    def release(self, adapter):
        """Powers the adapter off in bluetoothd, so the kernel lets the user channel bind; says how."""
        status, text = run_tool(['btmgmt', '--index', adapter[3:], 'power', 'off'])
        if status == 0:
            return 'btmgmt power off'
        status2, text2 = set_powered(adapter, False)
        if status2 == 0:
            return 'D-Bus Adapter1.Powered=false'
        OUT.line(event='log', level='warning', text=f'could not power {adapter} off (btmgmt: {text}; D-Bus: {text2}); '
                                                       'binding anyway')
        return None

    def profile(self, args):
        base, fields = self.profile_name, dict(self.fields)
        words = list(args)
        if words and '=' not in words[0]:
            base = words.pop(0)
            if base not in PROFILES:
                raise Refusal(f'unknown profile {base!r}: one of {", ".join(PROFILES)} (docs/bumble-phone.md)')
            fields = dict(DEFAULTS, **PROFILES[base])
        for word in words:
            if '=' not in word:
                raise Refusal(f'{word!r}: give profile fields as KEY=VALUE')
            key, value = word.split('=', 1)
            fields[key] = check_field(key, value)
        if self.conn is not None:
            changed = sorted(k for k in CONNECT_FIELDS if fields[k] != self.fields[k])
            if changed:
                raise Refusal(f'{", ".join(changed)} apply when the link is made: disconnect first, or keep them')
        self.fields, self.profile_name = fields, base
        if self.device is not None:
            self.device.gatt_server.max_mtu = fields['mtu']
        return {'profile': base, 'changes': self.changes(), 'fields': fields}

    def changes(self):
        """The fields that differ from the named profile's table."""
        table = dict(DEFAULTS, **PROFILES[self.profile_name])
        return {k: v for k, v in self.fields.items() if table[k] != v}

    def need_device(self):
        if self.device is None:
            raise Refusal('the adapter is not open: send `open` first')

    def need_link(self, discovered=True):
        self.need_device()
        if self.conn is None:
            raise Refusal('not connected: scan and connect first')
        if discovered and not self.chars:
            raise Refusal('the RemoteTouch characteristics are not known yet: send `discover` first')

    async def scan(self, args):
        self.need_device()
        if self.conn is not None:
            raise Refusal('connected already: disconnect before scanning')
        uuid, timeout = SERVICE_UUID, 20.0
        for word in args:
            try:
                timeout = float(word)
            except ValueError:
                uuid = word
        try:
            needle = self.b.UUID(uuid).to_bytes(force_128=True)
        except Exception as error:
            raise Refusal(f'{uuid!r} is not a UUID') from error
        found = asyncio.get_running_loop().create_future()

        def on_advertisement(advertisement):
            # Active scanning: Bumble merges the scan response into `data`; data_bytes is the last report alone.
            if not found.done() and needle in bytes(advertisement.data) + bytes(advertisement.data_bytes):
                found.set_result(advertisement)
        self.device.on('advertisement', on_advertisement)
        try:
            await self.device.start_scanning(active=True, filter_duplicates=True)
            advertisement = await asyncio.wait_for(found, timeout)
        except asyncio.TimeoutError as error:
            raise Refusal(f'no advertisement of {uuid} within {timeout:g} s: is `hil peripheral` running and '
                          'registered (its log says "advertising as")?') from error
        finally:
            self.device.remove_listener('advertisement', on_advertisement)
            if self.device.is_scanning:
                await self.device.stop_scanning()
        self.found = advertisement.address
        name = None
        try:
            name = advertisement.data.get(self.b.AdvertisingData.COMPLETE_LOCAL_NAME)
            name = name.decode() if isinstance(name, bytes) else name
        except Exception:  # noqa: BLE001 - the name is only for the reader
            pass
        return {**describe(advertisement.address), 'rssi': advertisement.rssi, 'name': name}

    async def connect(self, args):
        self.need_device()
        if self.conn is not None:
            raise Refusal(f'connected to {self.conn.peer_address} already: disconnect first')
        address, kind, timeout = None, None, 20.0
        for word in args:
            if word in ('public', 'random'):
                kind = word
                continue
            try:
                timeout = float(word)
            except ValueError:
                address = word
        if address:
            try:
                target = self.b.hci.Address(address + ('/P' if kind == 'public' and not address.endswith('/P') else ''))
            except Exception as error:
                raise Refusal(f'{address!r} is not a Bluetooth address (AA:BB:CC:DD:EE:FF/P for a public one)') from error
        elif self.found is not None:
            target = self.found
        else:
            raise Refusal('no address: scan first, or give it (connect AA:BB:CC:DD:EE:FF/P)')
        low, high = milliseconds_range(self.fields['interval'], 'interval')
        preferences = {self.b.hci.HCI_LE_1M_PHY: self.b.ConnectionParametersPreferences(
            connection_interval_min=low, connection_interval_max=high, max_latency=0,
            supervision_timeout=self.fields['supervisionMs'])}
        self.device.gatt_server.max_mtu = self.fields['mtu']
        try:
            conn = await self.device.connect(target, connection_parameters_preferences=preferences,
                                             own_address_type=self.b.hci.OwnAddressType.PUBLIC, timeout=timeout)
        except Exception as error:
            raise Refusal(f'could not connect to {target} within {timeout:g} s ({type(error).__name__}: {error}): '
                          'is the computer advertising, and the radio bridge up?') from error
        t_connected = time.monotonic_ns()
        self.reset_link()
        self.conn = conn
        self.link_lost = asyncio.get_running_loop().create_future()
        conn.on('disconnection', self.on_disconnection)
        conn.on('connection_att_mtu_update', lambda: OUT.line(event='mtu', mtu=conn.att_mtu))
        conn.on('connection_parameters_update', lambda: OUT.line(event='connParams', **self.parameters()))
        self.peer = self.b.Peer(conn)
        result = {**describe(conn.peer_address), 'handle': conn.handle, 'tConnected': t_connected}
        if self.fields['mtu'] > 23:
            try:
                await self.during_link(self.peer.request_mtu(self.fields['mtu']), 10, 'the ATT MTU exchange')
            except Refusal as refusal:
                OUT.line(event='log', level='warning', text=str(refusal))
        result['update'] = await self.connect_update() if self.fields['update'] != 'none' else None
        result['eatt'] = await self.open_eatt() if self.fields['eatt'] else None
        result.update(mtu=conn.att_mtu, **self.parameters())
        return result

    def parameters(self):
        p = self.conn.parameters if self.conn is not None else None
        if p is None:
            return {'intervalMs': None, 'latency': None, 'supervisionMs': None}
        return {'intervalMs': p.connection_interval, 'latency': p.peripheral_latency,
                'supervisionMs': p.supervision_timeout}

    async def request_update(self, low=None, high=None, latency=0, supervision=None):
        """LE Connection Update (the central's own request), waiting for its Complete."""
        if low is None:
            low, high = milliseconds_range(self.fields['update'], 'update')
        supervision = supervision or self.fields['supervisionMs']
        done = asyncio.get_running_loop().create_future()
        ok = lambda: done.done() or done.set_result(None)                         # noqa: E731
        failed = lambda error: done.done() or done.set_result(error)              # noqa: E731
        conn = self.conn
        conn.once('connection_parameters_update', ok)
        conn.once('connection_parameters_update_failure', failed)
        t_asked = time.monotonic_ns()
        hint = ('; the link keeps its interval (the computer\'s kernel refuses a maximum above its own: the rig raises '
                'it with `btmgmt set-sysconfig`, as hil run does)')
        try:
            try:
                await self.during_link(conn.update_parameters(low, high, latency, supervision), 5, 'the connection update')
            except self.b.hci.HCI_Error as error:
                raise Refusal(f'the connection update {low:g}-{high:g} ms was refused: '
                              f'{self.b.hci.HCI_Constant.error_name(error.error_code)}' + hint) from error
            error = await self.during_link(done, 5, 'the connection update')
            if error is not None:
                raise Refusal(f'the connection update {low:g}-{high:g} ms was refused: '
                              f'{self.b.hci.HCI_Constant.error_name(error)}' + hint)
        finally:
            for name, listener in (('connection_parameters_update', ok), ('connection_parameters_update_failure', failed)):
                try:
                    conn.remove_listener(name, listener)
                except Exception:  # noqa: BLE001 - once() listeners that ran are gone already
                    pass
        return {'askedMs': [low, high], 'tAsked': t_asked, 'tUpdated': time.monotonic_ns(), **self.parameters()}

    async def connect_update(self):
        """The profile's parameter request after connecting: a refusal is the reply's, not the connection's."""
        try:
            return await self.request_update()
        except Refusal as refusal:
            low, high = milliseconds_range(self.fields['update'], 'update')
            OUT.line(event='log', level='warning', text=str(refusal))
            return {'askedMs': [low, high], 'error': str(refusal)}

    async def open_eatt(self):
        """EATT bearers when the profile wants them (and the computer offers them, unless eattWhen=always)."""
        wanted, offered = self.fields['eatt'], None
        try:
            values = await self.during_link(self.peer.read_characteristics_by_uuid(
                self.b.UUID.from_16_bits(SERVER_SUPPORTED_FEATURES)), 10, 'reading Server Supported Features')
            offered = bool(values and len(values[0]) > 0 and values[0][0] & 0x01)
        except Exception as error:  # noqa: BLE001 - no such characteristic: EATT not offered
            OUT.line(event='log', level='info', text=f'Server Supported Features not read: {error}')
            offered = False
        result = {'asked': wanted, 'when': self.fields['eattWhen'], 'offered': offered, 'bearers': []}
        if not offered and self.fields['eattWhen'] == 'offered':
            return result
        timeout = self.fields['eattTimeoutMs'] / 1000
        try:
            clients = await self.during_link(self.b.Client.connect_eatt(self.conn, count=wanted), timeout,
                                             'the EATT connection')
        except Refusal as refusal:
            dropped = 'dropped' in str(refusal)
            result['error'] = str(refusal) if dropped else (
                f'no EATT bearer within {timeout:g} s: a computer with one ATT bearer rejects or ignores the L2CAP '
                'request (bluetoothd [GATT] Channels = 1, or its kernel\'s enable_ecred = N); the phone goes on with '
                'the fixed ATT channel')
            return result
        except Exception as error:  # noqa: BLE001 - refused by the computer: one bearer it is
            result['error'] = f'EATT refused: {type(error).__name__}: {error}; the phone goes on with the fixed ATT channel'
            return result
        clients = clients if isinstance(clients, list) else [clients]
        for number, client in enumerate(clients, start=1):
            # Bumble starts an EATT client at MTU 23; an EATT bearer's ATT_MTU is its L2CAP channel's MTU.
            client.mtu = min(client.bearer.mtu, client.bearer.peer_mtu, self.fields['mtu'])
            client.bearer.on('close', lambda number=number, cid=client.bearer.source_cid:
                             OUT.line(event='bearerClosed', bearer=number, cid=cid))
            self.eatt.append(client)
        result['bearers'] = [{'bearer': n, 'cid': c.bearer.source_cid, 'peerCid': c.bearer.destination_cid,
                              'mtu': c.mtu} for n, c in enumerate(self.eatt, start=1)]
        return result

    def on_disconnection(self, reason):
        OUT.line(event='disconnected', reason=reason, reasonName=self.b.hci.HCI_Constant.error_name(reason))
        if self.link_lost is not None and not self.link_lost.done():
            self.link_lost.set_result(reason)
        for _, _, _, future in self.pending_acl:
            if not future.done():
                future.cancel()
        self.conn = None
        self.peer = None
        self.eatt = []
        self.chars = {}
        self.pending_acl = []

    async def during_link(self, awaitable, timeout, what):
        """Awaits `awaitable` for at most `timeout` s; fails when the link drops first."""
        task = asyncio.ensure_future(awaitable)
        lost = self.link_lost
        waiters = {task} | ({lost} if lost is not None else set())
        done, _ = await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            return task.result()
        task.cancel()
        if lost is not None and lost in done:
            reason = lost.result()
            raise Refusal(f'the link dropped during {what} (reason 0x{reason:02x} '
                          f'{self.b.hci.HCI_Constant.error_name(reason)}): connect again')
        raise Refusal(f'no answer to {what} within {timeout:g} s: the link may be stalled (a blackout?) or the '
                      'computer stuck; see its log')

    # ---- GATT

    async def discover(self, args):
        self.need_link(discovered=False)
        service_uuid = self.b.UUID(SERVICE_UUID)
        await self.during_link(self.peer.discover_services([service_uuid]), 20, 'service discovery')
        services = self.peer.get_services_by_uuid(service_uuid)
        if not services:
            raise Refusal(f'the computer serves no RemoteTouch service ({SERVICE_UUID}): is it `hil peripheral`?')
        await self.during_link(services[0].discover_characteristics(), 20, 'characteristic discovery')
        wanted = {self.b.UUID(uuid): name for name, uuid in CHARACTERISTIC_UUIDS.items()}
        properties = {}
        for characteristic in services[0].characteristics:
            name = wanted.get(characteristic.uuid)
            if name:
                self.chars[name] = characteristic
                properties[name] = str(characteristic.properties)
        missing = [n for n in ('command', 'status', 'pairing') if n not in self.chars]
        if missing:
            self.chars = {}
            raise Refusal(f'the RemoteTouch service lacks {", ".join(missing)}: not a computer of docs/protocol.md')
        return {'handles': {n: (self.chars[n].handle if n in self.chars else None) for n in CHARACTERISTIC_UUIDS},
                'properties': properties}

    def handle_of(self, char):
        if char.isdigit():
            return int(char), char
        if char not in CHARACTERISTIC_UUIDS:
            raise Refusal(f'unknown characteristic {char!r}: command, status, pairing, report or a handle')
        if char not in self.chars:
            raise Refusal(f'the computer serves no {char} characteristic')
        return self.chars[char].handle, char

    def notifier(self, name, bearer):
        return lambda value: OUT.line(event='notify', char=name, hex=bytes(value).hex(), bearer=bearer)

    async def subscribe(self, args):
        self.need_link()
        char = args[0] if args else 'status'
        handle, name = self.handle_of(char)
        if name not in self.chars:
            raise Refusal('subscribe takes a characteristic by name (status)')
        await self.during_link(self.peer.subscribe(self.chars[name], self.notifier(name, 0)), 10, f'subscribing to {name}')
        # The computer may notify on any bearer: every EATT client hands its notifications on too.
        for number, client in enumerate(self.eatt, start=1):
            client.notification_subscribers.setdefault(handle, set()).add(self.notifier(name, number))
        return {'char': name}

    def client(self, bearer):
        if bearer == 0:
            return self.peer.gatt_client
        if not 1 <= bearer <= len(self.eatt):
            raise Refusal(f'bearer={bearer}: this link has {len(self.eatt)} EATT bearer(s) (0 is the ATT channel)')
        return self.eatt[bearer - 1]

    async def read(self, args):
        self.need_link()
        if not args:
            raise Refusal('read CHAR [OFFSET] [long|short]')
        handle, name = self.handle_of(args[0])
        offset, mode = 0, 'long'
        for word in args[1:]:
            if word in ('long', 'short'):
                mode = word
            elif word.isdigit() and int(word) <= ATT_MAX_VALUE:
                offset = int(word)
            else:
                raise Refusal(f'{word!r}: read CHAR [OFFSET 0..{ATT_MAX_VALUE}] [long|short]')
        att = self.b.att
        client = self.peer.gatt_client
        value, parts = b'', []
        t_call = time.monotonic_ns()
        while True:
            request = (att.ATT_Read_Request(attribute_handle=handle) if offset + len(value) == 0 else
                       att.ATT_Read_Blob_Request(attribute_handle=handle, value_offset=offset + len(value)))
            response = await self.during_link(client.send_request(request), self.fields['writeTimeoutMs'] / 1000,
                                              f'the read of {name}')
            if response.op_code == att.Opcode.ATT_ERROR_RESPONSE:
                code = response.error_code
                raise Refusal(f'the computer answered the read of {name} at offset {offset + len(value)} with ATT error '
                              f'0x{code:02x} {self.att_error_name(code)}', attError=code,
                              attErrorName=self.att_error_name(code), hex=value.hex(), parts=parts)
            part = bytes(response.attribute_value if isinstance(request, att.ATT_Read_Request)
                         else response.part_attribute_value)
            value += part
            parts.append(len(part))
            if mode == 'short' or len(part) < client.mtu - 1:
                break
            if offset + len(value) > ATT_MAX_VALUE:
                raise Refusal(f'the value of {name} went on past {ATT_MAX_VALUE} bytes (the ATT limit) over '
                              f'{len(parts)} reads: the computer does not continue a Read Blob at its offset',
                              hex=value[:64].hex(), parts=parts)
        return {'char': name, 'offset': offset, 'hex': value.hex(), 'length': len(value), 'parts': parts,
                'mtu': client.mtu, 'tCall': t_call, 'tDone': time.monotonic_ns()}

    def att_error_name(self, code):
        try:
            return self.b.att.ErrorCode(code).name
        except Exception:  # noqa: BLE001
            return f'0x{code:02x}'

    def pick_bearer(self):
        if not self.eatt or self.fields['bearers'] == 'fixed':
            return 0
        bearer = self.next_bearer % (len(self.eatt) + 1)
        self.next_bearer += 1
        return bearer

    async def wait_for_room(self, deadline):
        """The flow-controlled queue: a write without response waits while `queue` ACL packets are not completed."""
        limit = self.fields['queue']
        queue = self.device.host.le_acl_packet_queue or self.device.host.acl_packet_queue
        pending = queue.pending
        while limit and queue.pending >= limit:
            flowed = asyncio.get_running_loop().create_future()
            queue.once('flow', lambda: flowed.done() or flowed.set_result(None))
            await self.during_link(flowed, max(0.001, deadline - time.monotonic()), 'room in the write queue')
        return pending

    async def write(self, args):
        self.need_link()
        if len(args) < 2:
            raise Refusal('write CHAR HEX [with|without|motion|button] [bearer=K] [force]')
        handle, name = self.handle_of(args[0])
        try:
            data = bytes.fromhex(args[1])
        except ValueError as error:
            raise Refusal(f'{args[1][:40]!r} is not hex bytes') from error
        role, bearer, force = 'button', None, False
        for word in args[2:]:
            if word in ('with', 'without', 'motion', 'button'):
                role = word
            elif word.startswith('bearer=') and word[7:].isdigit():
                bearer = int(word[7:])
            elif word == 'force':
                force = True
            else:
                raise Refusal(f'{word!r}: write CHAR HEX [with|without|motion|button] [bearer=K] [force]')
        return await self.write_value(name, handle, data, role, bearer, force)

    async def write_value(self, name, handle, data, role='button', bearer=None, force=False):
        bearer = self.pick_bearer() if bearer is None else bearer
        client = self.client(bearer)
        mtu = client.mtu
        fits = len(data) <= mtu - 3
        kind = role if role in ('with', 'without') else self.fields['motion' if role == 'motion' else 'buttons']
        if kind == 'without' and not fits and role not in ('with', 'without') and self.fields['long'] == 'write':
            kind = 'with'          # the longest write without response is MTU-3: a phone writes it with response
        if len(data) > ATT_MAX_VALUE and not force:
            raise Refusal(f'{len(data)} bytes: a value is at most {ATT_MAX_VALUE} (ATT), and the computer refuses '
                          'longer ones; add force to send it anyway')
        if kind == 'without' and not fits:
            raise Refusal(f'a write without response of {len(data)} bytes does not fit the ATT MTU {mtu} (at most '
                          f'{mtu - 3}; BlueZ would cut it): write it with response, which sends a long write')
        if kind == 'with' and not fits and self.fields['long'] == 'refuse':
            raise Refusal(f'{len(data)} bytes do not fit the ATT MTU {mtu} (at most {mtu - 3}) and this profile '
                          'refuses long writes (long=refuse)')
        if name == 'command' and not fits and 'command' not in self.written and not force:
            raise Refusal('the first write of a connection to command is a long write, which bluetoothd 5.66 '
                          'forwards as freed memory: send `prime` first (docs/protocol.md, "Priming"), or add force')
        long_write = kind == 'with' and not fits
        cid = 0x0004 if bearer == 0 else client.bearer.destination_cid
        opcode = 0x52 if kind == 'without' else (0x16 if long_write else 0x12)
        deadline = time.monotonic() + self.fields['writeTimeoutMs'] / 1000
        t_call = time.monotonic_ns()
        queued = await self.wait_for_room(deadline) if kind == 'without' else None
        sent = asyncio.get_running_loop().create_future()
        self.pending_acl.append((cid, opcode, handle, sent))
        self.written.add(name)
        stamps = {'char': name, 'len': len(data), 'kind': kind, 'long': long_write, 'bearer': bearer, 'mtu': mtu,
                  'tCall': t_call, 'queued': queued}
        try:
            await self.during_link(client.write_value(handle, data, with_response=kind == 'with'),
                                   max(0.001, deadline - time.monotonic()), f'the write to {name}')
            if kind == 'without':
                await self.during_link(asyncio.shield(sent), max(0.001, deadline - time.monotonic()),
                                       f'the write to {name} leaving the host')
        except self.b.att.ATT_Error as error:
            code = error.error_code
            raise Refusal(f'the computer answered the write to {name} with ATT error 0x{code:02x} '
                          f'{self.att_error_name(code)}' + self.error_hint(name, code), attError=code,
                          attErrorName=self.att_error_name(code),
                          **self.sent_stamps(stamps, sent)) from error
        except Refusal as refusal:
            refusal.extra.update(self.sent_stamps(stamps, sent))
            raise
        finally:
            if not sent.done():
                self.pending_acl = [p for p in self.pending_acl if p[3] is not sent]
        return self.sent_stamps(stamps, sent)

    @staticmethod
    def sent_stamps(stamps, sent):
        t_acl = sent.result() if sent.done() and not sent.cancelled() else None
        return dict(stamps, tAcl=t_acl, tDone=time.monotonic_ns())

    @staticmethod
    def error_hint(name, code):
        if code == 0x08:
            return ': pair first (read pairing, then pair CODE)' if name != 'pairing' else \
                ': a wrong, expired or missing code, or pairing is locked out (the status notification says which)'
        if code == 0x0D:
            return ': the value is not 6 ASCII digits' if name == 'pairing' else ''
        if code == 0x80:
            return ': the computer refused the command (its status notification and log say why)'
        return ''

    async def prime(self, args):
        self.need_link()
        which = args[0] if args else 'all'
        if which not in ('command', 'report', 'all'):
            raise Refusal(f'prime {which}: command, report or all')
        result = {'command': None, 'report': None}
        if which in ('command', 'all') and 'command' not in self.written:
            result['command'] = await self.write_value('command', self.chars['command'].handle, PRIME_COMMAND,
                                                       'with', bearer=0)
        if which in ('report', 'all') and 'report' in self.chars and 'report' not in self.written:
            write = await self.write_value('report', self.chars['report'].handle, NEUTRAL_REPORT, 'without', bearer=0)
            read = await self.read(['report', 'short'])
            result['report'] = dict(write, readHex=read['hex'], tRead=read['tDone'])
        return result

    async def pair(self, args):
        self.need_link()
        if not args:
            raise Refusal('pair CODE|@FILE [TIMEOUT_S]')
        code = args[0]
        if code.startswith('@'):
            path, timeout = code[1:], float(args[1]) if len(args) > 1 else 5.0
            deadline, code = time.monotonic() + timeout, ''
            while time.monotonic() < deadline:
                try:
                    with open(path) as file:
                        code = file.read().strip()
                except FileNotFoundError:
                    code = ''
                if code:
                    break
                await asyncio.sleep(0.02)
            if not code:
                raise Refusal(f'no code in {path} within {timeout:g} s: read the pairing characteristic first (the '
                              'computer shows a code on an unpaired read), and check --pairing-code-file')
        result = await self.write_value('pairing', self.chars['pairing'].handle, code.encode(), 'with', bearer=0)
        result['code'] = code
        return result

    async def update(self, args):
        self.need_link(discovered=False)
        if len(args) < 2:
            raise Refusal('update MIN_MS MAX_MS [LATENCY] [SUPERVISION_MS]')
        low, high = milliseconds_range(f'{args[0]}-{args[1]}', 'update')
        try:
            latency = int(args[2]) if len(args) > 2 else 0
            supervision = int(args[3]) if len(args) > 3 else None
        except ValueError as error:
            raise Refusal('update MIN_MS MAX_MS [LATENCY] [SUPERVISION_MS]: LATENCY and SUPERVISION_MS are whole '
                          'numbers') from error
        return await self.request_update(low, high, latency, supervision)

    def state(self, args):
        queue = None
        if self.device is not None:
            queue = self.device.host.le_acl_packet_queue or self.device.host.acl_packet_queue
        return {'open': self.device is not None, 'adapter': self.adapter, 'connected': self.conn is not None,
                'address': self.conn.peer_address.to_string(False) if self.conn else None,
                'handle': self.conn.handle if self.conn else None,
                'mtu': self.conn.att_mtu if self.conn else None, **self.parameters(),
                'bearers': len(self.eatt), 'profile': self.profile_name, 'changes': self.changes(),
                'primed': sorted(self.written), 'pending': queue.pending if queue else None}

    async def disconnect(self, args=()):
        """Waits (up to 1 s) until the controller has sent what the host handed it, unless `now`: the radio bridge,
        like a controller, drops what a link still held when it ends, so a write without response just before a
        disconnect would be lost."""
        if self.conn is None:
            return {'reason': None, 'reasonName': None, 'drainedMs': None}
        if args and args[0] != 'now':
            raise Refusal(f'disconnect [now]: {args[0]!r} is neither')
        lost, drained = self.link_lost, None
        if not args:
            queue = self.device.host.le_acl_packet_queue or self.device.host.acl_packet_queue
            started = time.monotonic_ns()
            try:
                await self.during_link(queue.drain(self.conn.handle), 1.0, 'the last writes leaving the controller')
                drained = round((time.monotonic_ns() - started) / 1e6, 1)
            except (Refusal, ValueError) as error:   # ValueError: Bumble knows no packets of this link
                if 'dropped' in str(error):
                    return {'reason': lost.result(), 'reasonName': self.b.hci.HCI_Constant.error_name(lost.result()),
                            'drainedMs': None}
                drained = 0.0 if isinstance(error, ValueError) else None
        try:
            await asyncio.wait_for(self.conn.disconnect(), 5)
        except Exception as error:  # noqa: BLE001 - it may have dropped by itself meanwhile
            if lost is None or not lost.done():
                raise Refusal(f'the disconnect failed ({type(error).__name__}: {error})') from error
        try:
            reason = await asyncio.wait_for(asyncio.shield(lost), 5)
        except asyncio.TimeoutError as error:
            raise Refusal('no Disconnection Complete within 5 s of the disconnect: is the radio bridge alive?') from error
        return {'reason': reason, 'reasonName': self.b.hci.HCI_Constant.error_name(reason), 'drainedMs': drained}

    # ---- close

    async def close_transport(self):
        if self.transport is not None:
            transport, self.transport = self.transport, None
            try:
                await asyncio.wait_for(transport.close(), 3)
            except Exception as error:  # noqa: BLE001
                OUT.line(event='log', level='warning', text=f'closing the HCI socket: {error!r}')

    async def close(self, wait=0.0):
        """Takes the link down first (a link left up behind a closed user channel upset the radio bridge), resets
        the controller, closes the socket; then waits for bluetoothd to take the adapter back."""
        if self.conn is not None:
            try:
                await self.disconnect()
            except Exception as error:  # noqa: BLE001
                OUT.line(event='log', level='warning', text=f'disconnect at close: {error}')
        if self.device is not None:
            try:
                await asyncio.wait_for(self.device.host.send_command(self.b.hci.HCI_Reset_Command()), 3)
            except Exception:  # noqa: BLE001 - the socket closes anyway
                pass
        await self.close_transport()
        self.device = None
        back = None
        if self.adapter and wait > 0:
            deadline = time.monotonic() + wait
            while time.monotonic() < deadline:
                back = adapter_powered(self.adapter)
                if back:
                    break
                await asyncio.sleep(0.2)
            if not back and back is not None:
                status, _ = set_powered(self.adapter, True)
                back = status == 0 and adapter_powered(self.adapter)
        return {'adapter': self.adapter, 'adapterBack': back}


VERBS = ('open', 'profile', 'scan', 'connect', 'discover', 'subscribe', 'read', 'write', 'prime', 'pair', 'update',
         'state', 'disconnect', 'close')


async def serve(options, bumble):
    phone = Phone(options, bumble)
    loop = asyncio.get_running_loop()
    lines = asyncio.Queue()
    stop = loop.create_future()

    def stop_with(reason):
        if not stop.done():
            stop.set_result(reason)
    for number, name in ((signal.SIGTERM, 'SIGTERM'), (signal.SIGINT, 'SIGINT')):
        loop.add_signal_handler(number, stop_with, name)
    OUT.on_gone = lambda: loop.call_soon_threadsafe(stop_with, 'stdout closed')

    def hand_over(raw):
        try:
            loop.call_soon_threadsafe(lines.put_nowait, raw)
        except RuntimeError:        # the loop closed: the phone is exiting
            pass

    def read_stdin():
        # os.read, not sys.stdin: a daemon thread blocked in a buffered reader can abort the interpreter's exit.
        pending = b''
        while True:
            try:
                chunk = os.read(0, 65536)
            except OSError:
                chunk = b''
            if not chunk:
                break
            *complete, pending = (pending + chunk).split(b'\n')
            for raw in complete:
                hand_over(raw)
        if pending:
            hand_over(pending)
        hand_over(None)             # the end: what came before it is still served
    threading.Thread(target=read_stdin, name='stdin', daemon=True).start()

    handlers = {
        'open': phone.open, 'scan': phone.scan, 'connect': phone.connect, 'discover': phone.discover,
        'subscribe': phone.subscribe, 'read': phone.read, 'write': phone.write, 'prime': phone.prime,
        'pair': phone.pair, 'update': phone.update, 'disconnect': phone.disconnect,
    }
    closed_by = None
    while closed_by is None:
        getter = asyncio.ensure_future(lines.get())
        await asyncio.wait({getter, stop}, return_when=asyncio.FIRST_COMPLETED)
        if not getter.done():
            getter.cancel()
            closed_by = stop.result()
            break
        if getter.result() is None:
            closed_by = 'stdin ended'
            break
        text = getter.result().decode(errors='replace').strip()
        if not text or text.startswith('#'):
            continue
        words = text.split()
        rid, verb, args = words[0], (words[1] if len(words) > 1 else ''), words[2:]
        reply = {'id': rid, 'verb': verb}
        try:
            if verb == 'close':
                wait = float(args[0]) if args else 5.0
                result = await phone.close(wait)
                OUT.line(**reply, ok=True, **result)
                closed_by = 'close'
                break
            if verb == 'profile':
                result = phone.profile(args)
            elif verb == 'state':
                result = phone.state(args)
            elif verb in handlers:
                task = asyncio.ensure_future(handlers[verb](args))
                await asyncio.wait({task, stop}, return_when=asyncio.FIRST_COMPLETED)
                if not task.done():
                    task.cancel()
                    raise Refusal(f'cancelled: the phone is closing ({stop.result()})')
                result = task.result()
            else:
                raise Refusal(f'unknown verb {verb!r}: one of {", ".join(VERBS)}')
            OUT.line(**reply, ok=True, **(result or {}))
        except Refusal as refusal:
            OUT.line(**reply, ok=False, error=str(refusal), **refusal.extra)
        except Exception as error:  # noqa: BLE001 - every failure is a reply
            OUT.line(**reply, ok=False, error=f'{verb} failed: {type(error).__name__}: {error} (run with --trace for '
                                             'the traceback on stderr)')
            if options.trace:
                traceback.print_exc(file=sys.stderr)
    if closed_by != 'close':
        try:
            await asyncio.wait_for(phone.close(0), 15)
        except Exception as error:  # noqa: BLE001
            OUT.line(event='log', level='error', text=f'close after {closed_by}: {error!r}')
    OUT.line(event='closed', reason=closed_by)


def import_bumble():
    """Bumble's modules as one namespace (the slow part of starting)."""
    from types import SimpleNamespace
    import bumble
    from bumble import att, hci
    from bumble.core import AdvertisingData, UUID
    from bumble.device import ConnectionParametersPreferences, Device, DeviceConfiguration, Peer
    from bumble.gatt_client import Client
    from bumble.transport import open_transport
    version = getattr(bumble, '__version__', None)
    if version is None:
        from importlib.metadata import version as dist_version
        version = dist_version('bumble')
    return SimpleNamespace(att=att, hci=hci, AdvertisingData=AdvertisingData, UUID=UUID, Device=Device,
                           DeviceConfiguration=DeviceConfiguration, Peer=Peer, Client=Client,
                           ConnectionParametersPreferences=ConnectionParametersPreferences,
                           open_transport=open_transport, version=version)


def main():
    parser = argparse.ArgumentParser(description='A RemoteTouch phone on Bumble (docs/bumble-phone.md).')
    parser.add_argument('--adapter', default='hci1', help='the adapter `open` takes when given none (hci1)')
    parser.add_argument('--snoop', help="write Bumble's own btsnoop log of the phone's HCI traffic here")
    parser.add_argument('--trace', action='store_true', help='tracebacks of failed requests on stderr')
    parser.add_argument('--version', action='store_true', help='print Bumble\'s and Python\'s versions and exit')
    options = parser.parse_args()
    if not options.version:
        OUT.line(event='starting', pid=os.getpid())
    started = time.monotonic()
    try:
        bumble = import_bumble()
    except ImportError as error:
        OUT.line(event='fatal', error=f'Bumble is not importable in {sys.executable} ({error}): run `bash Rigs/setup.sh`, '
                                      'which installs it into .venv-bumble')
        sys.exit(3)
    info = {'bumble': bumble.version, 'python': sys.version.split()[0],
            'importMs': round((time.monotonic() - started) * 1000, 1)}
    if options.version:
        OUT.line(**info)
        return
    handler = EventLog(level=logging.WARNING)
    logging.getLogger().addHandler(handler)
    logging.getLogger().setLevel(logging.WARNING)
    OUT.line(event='ready', pid=os.getpid(), **info)
    asyncio.run(serve(options, bumble))


if __name__ == '__main__':
    main()
