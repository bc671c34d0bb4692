#!/bin/sh
# A vm guest job that tries the Bumble phone (docs/bumble-phone.md) end to end against `hil peripheral`:
#
#   hil vm exec -- sh Rigs/bumble/try-in-guest.sh
#
# It starts the computer on hci0, then one phone process (Rigs/bumble/phone.py on hci1) that plays, per profile
# (minimal, ios-like, android-like, and android-like with eattWhen=always against this one-bearer computer): scan,
# connect, discover, subscribe, a long read of pairing, pair, prime, writes with and without response (a 200-character
# `text` command among them), disconnect; then close. Each write is matched to the computer's receipt. Last, a second
# phone is killed (SIGKILL) with its link up, and the radio bridge must outlive it and bluetoothd take hci1 back.
#
# HIL (default: this checkout's debug build) is the computer; PHONE_PYTHON (default .venv-bumble's) runs the phone.
# PROFILES=0 skips the profiles, KILL_TEST=0 the last part. Prints what happened and the timings; exit status 0 when every expectation held.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
HIL=${HIL:-$root/.build/debug/hil}
PHONE_PYTHON=${PHONE_PYTHON:-$root/.venv-bumble/bin/python}
KILL_TEST=${KILL_TEST:-1}
lab=/run/bumble-try
rm -rf "$lab"; mkdir -p "$lab"
t() { cut -d' ' -f1 /proc/uptime; }
[ -x "$HIL" ] || { echo "try-in-guest: no hil at $HIL (swift build, or HIL=PATH)"; exit 2; }
[ -x "$PHONE_PYTHON" ] || { echo "try-in-guest: no $PHONE_PYTHON: run 'bash Rigs/setup.sh' on the host"; exit 2; }

echo "== $(t) start hil peripheral ($HIL)"
"$HIL" peripheral --adapter hci0 --state-dir "$lab/state" --pairing-code-file "$lab/code" \
    --receipts-log "$lab/receipts" --ready-file "$lab/ready" --lockout 10s >"$lab/peripheral.out" 2>&1 &
computer=$!
i=0; while [ ! -s "$lab/ready" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$lab/ready" ] || { echo "try-in-guest: hil peripheral not ready in 30 s:"; tail -n 20 "$lab/peripheral.out"; exit 1; }
echo "== $(t) computer ready: $(cat "$lab/ready")"
# As hil run does (Sources/Rig/ConnectionUpdate.swift): the computer's kernel refuses a phone's connection update above
# its own maximum, which the rig's bluetoothd set to the rig's interval; give it back the kernel's 70 ms (0x0038).
btmgmt --index 0 set-sysconfig -v 0018:2:3800 >/dev/null 2>&1 || echo "   (btmgmt set-sysconfig failed: the ios-like update may be refused)"

cat >"$lab/driver.py" <<'EOF'
import json, os, queue, statistics, subprocess, sys, threading, time

phone_python, phone, lab, receipts_path = sys.argv[1:5]
start = time.monotonic_ns()
ms = lambda t: round((t - start) / 1e6, 1)
child = subprocess.Popen([phone_python, phone], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=open(os.path.join(lab, 'phone.err'), 'w'), text=True, bufsize=1)
lines = queue.Queue()


def read_phone():
    for raw in child.stdout:
        try:
            lines.put(json.loads(raw))
        except ValueError:
            lines.put({'event': 'not JSON', 'text': raw.rstrip(), 't': time.monotonic_ns()})
    lines.put(None)


threading.Thread(target=read_phone, daemon=True).start()
log = open(os.path.join(lab, 'phone.jsonl'), 'w')
failures, sent, counter = [], [], [0]


def next_line(timeout):
    line = lines.get(timeout=timeout)
    if line is None:
        raise SystemExit(f'the phone exited ({child.wait()}); its stderr: ' + open(os.path.join(lab, 'phone.err')).read()[-2000:])
    log.write(json.dumps(line) + '\n')
    return line


def call(text, expect=True, timeout=60, show=None):
    counter[0] += 1
    rid = str(counter[0])
    child.stdin.write(f'{rid} {text}\n'); child.stdin.flush()
    while True:
        line = next_line(timeout)
        if line.get('id') == rid:
            break
        if line.get('event') not in ('notify',):
            print(f'   {ms(line["t"]):>9} event {json.dumps({k: v for k, v in line.items() if k != "t"})[:200]}')
    keys = show or [k for k in line if k not in ('id', 't', 'verb', 'ok', 'fields', 'handles', 'properties')]
    brief = {k: line[k] for k in keys if k in line}
    verdict = 'ok' if line['ok'] else 'REFUSED'
    print(f'   {ms(line["t"]):>9} {text[:60]:<60} {verdict} {json.dumps(brief)[:300]}')
    if line['ok'] != expect:
        failures.append(f'{text[:60]}: expected ok={expect}, got {line.get("error") or "ok"}')
    return line


def write(char, payload, kind, expect=True, what=''):
    data = payload if isinstance(payload, bytes) else payload.encode()
    reply = call(f'write {char} {data.hex()} {kind}', expect, show=['kind', 'long', 'len', 'mtu', 'bearer', 'queued', 'error'])
    if reply['ok'] and char == 'command':
        sent.append((profile_name, data, reply, what))
    if reply['ok']:
        print(f'             {what or char}: tAcl {(reply["tAcl"] - reply["tCall"]) / 1e6:.2f} ms after tCall, '
              f'done {(reply["tDone"] - reply["tCall"]) / 1e6:.1f} ms after')
    return reply


ready = next_line(120)
while ready.get('event') != 'ready':
    ready = next_line(120)
print(f'== phone ready {ms(ready["t"])} ms after spawn: bumble {ready["bumble"]}, python {ready["python"]}, import {ready["importMs"]} ms')
call('open hci1')
text200 = json.dumps({'text': {'string': 'x' * 200}}, separators=(',', ':'))
profile_name = None
for profile in ('minimal', 'ios-like', 'android-like', 'android-like eattWhen=always'):
    profile_name = profile
    print(f'== profile {profile}')
    fields = call(f'profile {profile}', show=['profile', 'changes'])['fields']
    mtu = fields['mtu']
    t0 = time.monotonic_ns()
    call('scan')
    connected = call('connect', show=['mtu', 'intervalMs', 'update', 'eatt'])
    if connected['ok'] and connected['mtu'] != mtu:
        failures.append(f'{profile}: ATT MTU {connected["mtu"]}, the profile asks {mtu}')
    call('discover', show=['handles'])
    call('subscribe')
    first = call('read pairing', show=['parts', 'length', 'mtu'])
    value = bytes.fromhex(first.get('hex', ''))
    try:
        print(f'             pairing read: {json.loads(value)}')
    except ValueError:
        failures.append(f'{profile}: the pairing read is not JSON: {value[:80]!r}')
    call('read pairing 22 short', show=['parts', 'length'])
    call('read pairing 500 short', expect=False, show=['attError', 'attErrorName'])
    call(f'pair @{lab}/code 5', show=['code', 'kind', 'long'])
    call('prime', show=['command', 'report'])
    print(f'             connected, discovered, paired and primed in {(time.monotonic_ns() - t0) / 1e6:.0f} ms')
    if profile.endswith('always'):
        write('command', '{"cursorMove":{"delta":[3,-3]}}', 'motion', what='cursorMove')
        call('disconnect')
        continue
    write('command', '{"cursorMove":{"delta":[12,-7]}}', 'motion', what='cursorMove (motion)')
    write('command', '{"cursorMove":{"delta":[5,5]}}', 'without', expect=mtu - 3 >= 30, what='cursorMove (without)')
    write('command', '{"cursorMove":{"delta":[-4,2]}}', 'with', what='cursorMove (with)')
    write('command', '{"tap":{"type":"single"}}', 'button', what='tap (button)')
    write('report', bytes.fromhex('000a00fbff00'), 'motion', what='report motion')
    write('report', bytes.fromhex('010000000000'), 'button', what='report press')
    write('report', bytes.fromhex('000000000000'), 'button', what='report release')
    write('command', text200, 'with', what='text 200 (with)')
    write('command', text200, 'without', expect=mtu - 3 >= len(text200), what='text 200 (without)')
    call('state', show=['mtu', 'intervalMs', 'bearers', 'primed', 'pending'])
    call('disconnect')
print('== close')
t_close = time.monotonic_ns()
closed = call('close 8', show=['adapter', 'adapterBack'])
print(f'             close took {(closed["t"] - t_close) / 1e6:.0f} ms')
while True:
    try:
        line = next_line(20)
    except (queue.Empty, SystemExit):
        break
    if line.get('event') == 'closed':
        break
print(f'   phone exit status {child.wait(20)}')
if not closed.get('adapterBack'):
    failures.append('bluetoothd did not take hci1 back after close')

time.sleep(0.6)          # the receipts are flushed every 250 ms
receipts = []
for raw in open(receipts_path, 'rb'):
    parts = raw.rstrip(b'\n').split(b' ', 2)
    if len(parts) == 3:
        receipts.append((int(parts[0]), parts[1], parts[2]))
print('== writes of command against the computer\'s receipts (tAcl -> received)')
by_profile = {}
for profile, data, reply, what in sent:
    match = next((r for r in receipts if r[2] == data and r[0] >= reply['tCall'] - 1_000_000), None)
    if match is None:
        failures.append(f'{profile}: {what}: no receipt of the {len(data)} bytes written')
        continue
    if match[1] == b'-' and not data.startswith(b'{"dragEnd"'):
        failures.append(f'{profile}: {what}: the computer refused it')
    by_profile.setdefault(profile, []).append((match[0] - reply['tAcl']) / 1e6)
    if data.startswith(b'{"text"'):
        print(f'   {profile}: {what}: {len(data)} bytes arrived whole ({"refused" if match[1] == b"-" else "typed"}), '
              f'{(match[0] - reply["tAcl"]) / 1e6:.1f} ms after tAcl')
for profile, xs in by_profile.items():
    print(f'   {profile}: {len(xs)} matched; tAcl -> received p50 {statistics.median(xs):.1f} ms, max {max(xs):.1f} ms')
garbage = [r for r in receipts if r[1] == b'-' and not r[2].startswith(b'{')]
if garbage:
    failures.append(f'the computer received {len(garbage)} write(s) that are not what was written: {garbage[0][2][:40]!r}')
print('== RESULT: ' + ('every expectation held' if not failures else f'{len(failures)} failed:\n   ' + '\n   '.join(failures)))
sys.exit(1 if failures else 0)
EOF

status=0
if [ "${PROFILES:-1}" = 1 ]; then
    echo "== $(t) phone: $PHONE_PYTHON Rigs/bumble/phone.py"
    /usr/bin/python3 "$lab/driver.py" "$PHONE_PYTHON" "$root/Rigs/bumble/phone.py" "$lab" "$lab/receipts"
    status=$?
    echo "== $(t) driver exit $status"
fi

if [ "$KILL_TEST" = 1 ]; then
    echo "== $(t) a phone killed with its link up (SIGKILL): the radio bridge must outlive it"
    mkfifo "$lab/in"
    "$PHONE_PYTHON" "$root/Rigs/bumble/phone.py" <"$lab/in" >"$lab/killed.jsonl" 2>"$lab/killed.err" &
    victim=$!
    exec 3>"$lab/in"
    # The kernel closes the controller when the user channel's owner dies, and bluetoothd powers it again (with a
    # reset, after which btvirt has no link to it) some 0.3-1.3 s later: only what comes in between meets ENXIO. So
    # the phone subscribes, and is killed just before the computer's next status notification (every 2 s).
    printf '1 open hci1\n2 scan\n3 connect\n4 discover\n5 subscribe\n' >&3
    i=0; while ! grep -q '"event":"notify"' "$lab/killed.jsonl" 2>/dev/null && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
    grep '"id":"[35]"' "$lab/killed.jsonl" | cut -c1-120
    sleep 1.85
    kill -9 $victim; exec 3>&-
    echo "   $(t) killed 1.85 s after a status notification, with the link up"
    powered() {
        dbus-send --system --print-reply=literal --dest=org.bluez /org/bluez/hci1 \
            org.freedesktop.DBus.Properties.Get string:org.bluez.Adapter1 string:Powered 2>/dev/null | awk '{print $NF}'
    }
    i=0; while [ "$(powered)" != true ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    echo "   $(t) hci1 powered in bluetoothd again: $(powered)"
    sleep 2
    echo "   the radio bridges' lines:"
    grep -h 'host is gone\|takes packets again' /run/hil-logs/radio-*.log 2>/dev/null | cut -c1-220
    bridges=$(pgrep -f 'hil radio' | wc -l)
    echo "   radio bridges alive: $bridges"
    [ "$(powered)" = true ] && [ "$bridges" -ge 2 ] || status=1
fi

kill $computer 2>/dev/null; wait $computer 2>/dev/null
echo "== computer log (refusals and connections)"
grep -v 'PAIRING CODE' "$lab/state/peripheral.log" 2>/dev/null | grep -i 'refused\|central\|acquired\|stopped' | cut -c1-220
for f in /run/hil-logs/radio-*.log; do
    [ -f "$f" ] && { echo "== $f (last lines)"; grep -v '^$' "$f" | grep -v 'LE ACL buffers' | tail -n 6 | cut -c1-200; }
done
[ -n "${HIL_SHARE:-}" ] && mkdir -p "$HIL_SHARE/results" && cp "$lab"/*.jsonl "$lab"/*.err "$lab/receipts" \
    "$lab/state/peripheral.log" "$HIL_SHARE/results/" 2>/dev/null
echo "== $(t) exit $status"
exit $status
