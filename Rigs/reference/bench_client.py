#!/usr/bin/env python3
"""A plain RemoteTouch bench client on a different stack: Python with dbus-python (Debian's python3-dbus).

`hil bench --reference` runs it next to its own client to show what that client adds. It streams the same
cursor commands, paced the same way, into a central that `hil bench` has already connected and paired (the
pairing is per central, so the same adapter is the same phone), through BlueZ:

  dbus  GattCharacteristic1.WriteValue with type "command" (write without response), one call per command
  fd    the socket GattCharacteristic1.AcquireWrite hands out, one packet per command

It writes one line per command to --sends: the CLOCK_MONOTONIC time just before the write, in ns, a space, the
payload (the peripheral's receipts are matched to these), and prints one JSON object on standard output:
{"sent": N, "achievedHz": R, "blocked": B} (B: times the socket was full). It judges nothing: hil bench does.
Exit status 2 for bad arguments, 1 when BlueZ refuses a write (the reason on standard error).
"""
import argparse
import errno
import json
import os
import select
import sys
import time

import dbus

CHARACTERISTIC = "org.bluez.GattCharacteristic1"


def payload(index):
    """Command `index` of a stream, as hil bench sends it: a cursor move of 1 + index % 997 to the right."""
    return '{"cursorMove":{"delta":[%d,0]}}' % (1 + index % 997)


def write_packet(fd, data):
    """One packet into the acquired socket; waits for room (at most 5 s), as hil bench does. Times it was full."""
    full = 0
    while True:
        try:
            if os.write(fd, data) == len(data):
                return full
        except OSError as error:
            if error.errno not in (errno.EAGAIN, errno.EWOULDBLOCK):
                raise
        full += 1
        _, writable, _ = select.select([], [fd], [], 5.0)
        if not writable:
            raise RuntimeError("the command socket stayed full for 5 s")


def stream(characteristic, path, rate, count, sends):
    interval_ns = int(1e9 / rate)
    fd = None
    if path == "fd":
        acquired, _mtu = characteristic.AcquireWrite(dbus.Dictionary({}, signature="sv"), dbus_interface=CHARACTERISTIC)
        fd = acquired.take()
    blocked = 0
    lines = []
    origin = time.monotonic_ns()
    try:
        for index in range(count):
            due = origin + index * interval_ns
            wait = due - time.monotonic_ns()
            if wait > 0:
                time.sleep(wait / 1e9)
            text = payload(index)
            data = text.encode()
            at = time.monotonic_ns()
            if fd is not None:
                blocked += write_packet(fd, data)
            else:
                characteristic.WriteValue(dbus.Array(data, signature="y"),
                                          dbus.Dictionary({"type": "command"}, signature="sv"),
                                          dbus_interface=CHARACTERISTIC)
            lines.append("%d %s\n" % (at, text))
    finally:
        span = (time.monotonic_ns() - origin) / 1e9
        if fd is not None:
            os.close(fd)
        with open(sends, "w") as out:
            out.writelines(lines)
    return {"sent": len(lines), "achievedHz": len(lines) / span if span > 0 else 0, "blocked": blocked}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--characteristic", required=True,
                        help="the command characteristic's object path (/org/bluez/hci1/dev_…/service…/char…)")
    parser.add_argument("--write-path", choices=["dbus", "fd"], required=True)
    parser.add_argument("--rate", type=float, required=True, help="commands per second")
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--sends", required=True, help="where the send times go")
    arguments = parser.parse_args()
    if arguments.rate <= 0 or arguments.count < 1:
        parser.error("--rate and --count must be positive")
    bus = dbus.SystemBus()
    characteristic = bus.get_object("org.bluez", arguments.characteristic)
    try:
        result = stream(characteristic, arguments.write_path, arguments.rate, arguments.count, arguments.sends)
    except (dbus.exceptions.DBusException, OSError, RuntimeError) as error:
        name = error.get_dbus_name() if isinstance(error, dbus.exceptions.DBusException) else type(error).__name__
        print("bench_client: %s: %s" % (name, error), file=sys.stderr)
        return 1
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
