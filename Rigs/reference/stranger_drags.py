#!/usr/bin/env python3
"""Drags from a phone written from docs/protocol.md alone: Python, dbus-python, BlueZ's D-Bus API, no hil code.

It is the client an outsider writes (as bleak does, every write is GattCharacteristic1.WriteValue, "type"
"request" or "command"), and the rig test StrangerPhoneOnRig runs it against a real `hil peripheral` to check the
computer keeps the order of its writes. On the central adapter it finds the RemoteTouch service by its UUID,
connects, pairs with the code the computer shows (read from the pairing code file, as a person reads the screen),
then does --drags drags, each exactly as the doc says:

  hid  press  01 00 00 00 00 00 with response; N moves 01 dx 00 00 00 00 without response; release
       00 00 00 00 00 00 with response (after the doc's priming: one neutral report without response, one read)
  ble  {"dragStart":{}} with response; N {"dragMove":{"delta":[dx,0]}} without response; {"dragEnd":{}} with
       response

N is 3 to 10 and dx 1 to 9, drawn from --seed; every write awaits BlueZ's answer before the next. It prints one JSON
object: {"drags": D, "moves": M, "dx": total, "seconds": S}, which the test compares with the evdev events. Exit
status 1 when BlueZ refuses a call (its error name on standard error), 2 for bad arguments.
"""
import argparse
import json
import random
import sys
import time

import dbus

BLUEZ = "org.bluez"
SERVICE = "12345678-1234-1234-1234-123456789abc"
COMMAND = "12345678-1234-1234-1234-123456789abd"
PAIRING = "12345678-1234-1234-1234-123456789abf"
REPORT = "12345678-1234-1234-1234-123456789ac0"
CHARACTERISTIC = "org.bluez.GattCharacteristic1"
PROPERTIES = "org.freedesktop.DBus.Properties"


def objects(bus):
    manager = dbus.Interface(bus.get_object(BLUEZ, "/"), "org.freedesktop.DBus.ObjectManager")
    return manager.GetManagedObjects()


def wait_for(what, seconds, probe):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = probe()
        if found:
            return found
        time.sleep(0.1)
    raise RuntimeError("%s: not within %d s" % (what, seconds))


def find_device(bus, adapter_path):
    """A device under the adapter that advertises the RemoteTouch service."""
    for path, interfaces in objects(bus).items():
        device = interfaces.get("org.bluez.Device1")
        if device and path.startswith(adapter_path + "/") and SERVICE in [str(u).lower() for u in device.get("UUIDs", [])]:
            return path
    return None


def characteristics(bus, device_path):
    found = {}
    for path, interfaces in objects(bus).items():
        chrc = interfaces.get(CHARACTERISTIC)
        if chrc and path.startswith(device_path + "/"):
            found[str(chrc["UUID"]).lower()] = bus.get_object(BLUEZ, path)
    return found


def connect(bus, adapter_name):
    adapter_path = "/org/bluez/" + adapter_name
    adapter = dbus.Interface(bus.get_object(BLUEZ, adapter_path), "org.bluez.Adapter1")
    adapter.SetDiscoveryFilter(dbus.Dictionary({"UUIDs": dbus.Array([SERVICE], signature="s"), "Transport": "le"},
                                               signature="sv"))
    adapter.StartDiscovery()
    try:
        device_path = wait_for("a device advertising %s" % SERVICE, 30, lambda: find_device(bus, adapter_path))
    finally:
        adapter.StopDiscovery()
    device = bus.get_object(BLUEZ, device_path)
    dbus.Interface(device, "org.bluez.Device1").Connect(timeout=60)
    props = dbus.Interface(device, PROPERTIES)
    wait_for("services resolved", 30, lambda: bool(props.Get("org.bluez.Device1", "ServicesResolved")))
    return wait_for("the RemoteTouch characteristics", 10,
                    lambda: (lambda c: c if COMMAND in c and PAIRING in c else None)(characteristics(bus, device_path)))


def write(chrc, data, response):
    chrc.WriteValue(dbus.Array(bytes(data), signature="y"),
                    dbus.Dictionary({"type": "request" if response else "command"}, signature="sv"),
                    dbus_interface=CHARACTERISTIC)


def read(chrc):
    return bytes(chrc.ReadValue(dbus.Dictionary({}, signature="sv"), dbus_interface=CHARACTERISTIC))


def pair(chrcs, code_file):
    """Pairing as the doc's "Pairing" says: read (the computer shows a code), write the six digits, read again."""
    read(chrcs[PAIRING])
    code = open(code_file).read().strip()
    write(chrcs[PAIRING], code.encode(), True)
    state = json.loads(read(chrcs[PAIRING]))
    if state.get("state") != "paired":
        raise RuntimeError("pairing with %s gave %s" % (code, state))


def drags(chrcs, transport, count, seed):
    draw = random.Random(seed)
    moves = total = 0
    if transport == "hid":
        report = chrcs[REPORT]
        write(report, [0, 0, 0, 0, 0, 0], False)  # priming: a neutral report, then a read (docs/protocol.md)
        read(report)
        press, release = (report, [1, 0, 0, 0, 0, 0]), (report, [0, 0, 0, 0, 0, 0])
        move = lambda dx: (report, [1, dx, 0, 0, 0, 0])
    else:
        command = chrcs[COMMAND]
        press, release = (command, b'{"dragStart":{}}'), (command, b'{"dragEnd":{}}')
        move = lambda dx: (command, b'{"dragMove":{"delta":[%d,0]}}' % dx)
    for _ in range(count):
        write(*press, True)
        for _ in range(draw.randint(3, 10)):
            dx = draw.randint(1, 9)
            write(*move(dx), False)
            moves += 1
            total += dx
        write(*release, True)
    return {"drags": count, "moves": moves, "dx": total}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adapter", default="hci1", help="the phone's adapter (default hci1)")
    parser.add_argument("--transport", choices=["hid", "ble"], required=True)
    parser.add_argument("--drags", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--code-file", required=True, help="hil peripheral's --pairing-code-file")
    arguments = parser.parse_args()
    if arguments.drags < 1:
        parser.error("--drags must be at least 1")
    bus = dbus.SystemBus()
    start = time.monotonic()
    try:
        chrcs = connect(bus, arguments.adapter)
        pair(chrcs, arguments.code_file)
        result = drags(chrcs, arguments.transport, arguments.drags, arguments.seed)
    except dbus.exceptions.DBusException as error:
        print("stranger_drags: %s: %s" % (error.get_dbus_name(), error.get_dbus_message()), file=sys.stderr)
        return 1
    except (OSError, RuntimeError, ValueError, KeyError) as error:
        print("stranger_drags: %s: %s" % (type(error).__name__, error), file=sys.stderr)
        return 1
    result["seconds"] = round(time.monotonic() - start, 1)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
