#!/usr/bin/env python3
"""The order guarantee against an independent phone stack with EATT on (issue 52; docs/protocol.md, "Order").

Writes a scenario of N drags for the Bumble phone in the android-like profile with EATT tried always
(`run.phone`: eattWhen always, 3 bearers, writes spread over them), as a real Android phone does against a computer
that offers EATT, and a rig folder whose vm rig serves --channels ATT bearers (`gattChannels`; above 1 the guest's
kernel gets L2CAP's credit-based mode, Rigs/README.md). Each drag is a press, 3 to 10 moves and a release, with the
events it must give: the accounting oracle (docs/scenarios.md, "What every run checks") fails a move applied after
its release, anything out of order, anything held at the end.

    python3 Rigs/bumble/eatt_drags.py --drags 500 --channels 1 --out /work/eatt-1
    swift run -c release hil run --rigs /work/eatt-1/Rigs --phone bumble --transport ble,hid --capture always \\
        --output /work/eatt-1/results /work/eatt-1/scenarios
    python3 Rigs/bumble/eatt_drags.py --read /work/eatt-1/results

--read reads each scenario's HCI capture with tshark: the L2CAP credit-based connection requests and their results
(an EATT bearer set up or refused), and the phone's ATT writes by channel (CID 0x0004 is the fixed ATT bearer,
0x0040 and up are EATT's), as one JSON line per capture.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys


def drag(rng):
    moves = rng.randint(3, 10)
    dx, dy = rng.randint(10, 60) * rng.choice((-1, 1)), rng.randint(0, 30)
    return {
        "drag": {"by": [dx, dy], "holdMs": 600, "durationMs": 16 * moves},
        "expect": {"keys": ["BTN_LEFT 1", "BTN_LEFT 0"], "motion": {"REL_X": dx, "REL_Y": dy}, "nothingElse": True, "withinMs": 2000},
    }


def scenario(drags, seed):
    rng = random.Random(seed)
    steps = []
    for _ in range(drags):
        steps.append(drag(rng))
        steps.append({"wait": {"ms": 100}})
    return {
        "name": f"{drags} drags from an Android-like phone with EATT tried always",
        "description": "docs/protocol.md, \"Order\": the computer applies writes in the order the phone's stack sent them. "
                       "The Bumble phone opens 3 EATT bearers when the computer lets it and spreads its writes over them.",
        "requirements": ["iPad:drag", "phone:eatt-order"],
        "settings": {"acceleration": "none"},
        "run": {"phone": {"stack": "bumble", "profile": "android-like", "eatt": 3, "eattWhen": "always"}, "transports": ["ble", "hid"]},
        "steps": steps,
    }


def write_folder(args):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    rigs = os.path.join(args.out, "Rigs")
    if os.path.exists(rigs):
        shutil.rmtree(rigs)
    shutil.copytree(os.path.join(root, "Rigs"), rigs, ignore=shutil.ignore_patterns("__pycache__", "bumble"))
    with open(os.path.join(rigs, "vm.json")) as f:
        vm = json.load(f)
    vm["gattChannels"] = args.channels
    with open(os.path.join(rigs, "vm.json"), "w") as f:
        json.dump(vm, f, indent=2)
    # phone.py beside the rig files, as hil run --rigs looks for the Bumble phone there (its .venv-bumble a link).
    os.symlink(os.path.join(root, "Rigs", "bumble"), os.path.join(rigs, "bumble"))
    os.symlink(os.path.join(root, ".venv-bumble"), os.path.join(args.out, ".venv-bumble"))
    scenarios = os.path.join(args.out, "scenarios")
    os.makedirs(scenarios, exist_ok=True)
    with open(os.path.join(scenarios, "eatt-drags.json"), "w") as f:
        json.dump(scenario(args.drags, args.seed), f, indent=1)
    requirements = {"about": "issue 52's EATT experiment", "requirements": [
        {"id": "iPad:drag", "text": "drag"}, {"id": "phone:eatt-order", "text": "writes in order over EATT"}]}
    with open(os.path.join(scenarios, "requirements.json"), "w") as f:
        json.dump(requirements, f)
    print(json.dumps({"rigs": rigs, "scenarios": scenarios, "drags": args.drags, "gattChannels": args.channels}))


def tshark(capture, display, fields):
    # EATT's channels (PSM 0x27) carry ATT, which Wireshark 4.0 decodes only when told (docs/results-format.md).
    run = subprocess.run(["tshark", "-r", capture, "-d", "btl2cap.psm==0x27,btatt", "-Y", display, "-T", "fields"]
                         + sum((["-e", f] for f in fields), []),
                         capture_output=True, text=True, check=False)
    return [line.split("\t") for line in run.stdout.splitlines() if line.strip()]


def read(results):
    for folder in sorted(os.listdir(results)):
        capture = os.path.join(results, folder, "hci.btsnoop")
        if not os.path.exists(capture):
            continue
        # Credit Based Connection Request (0x17) and Response (0x18): one request opens up to 5 bearers.
        requests = tshark(capture, "btl2cap.cmd_code == 0x17", ["frame.number", "btl2cap.psm"])
        responses = tshark(capture, "btl2cap.cmd_code == 0x18", ["frame.number", "btl2cap.result", "btl2cap.dcid"])
        rejects = tshark(capture, "btl2cap.cmd_code == 0x01", ["frame.number"])
        # Frames on the dynamic channels (CID 0x0040 and up) that the decoder leaves as L2CAP payload: the EATT
        # bearers' traffic seen from the side that did not open them.
        dynamic = tshark(capture, "btl2cap.cid >= 0x0040 && !btatt", ["btl2cap.cid"])
        writes = tshark(capture, "btatt.opcode == 0x12 || btatt.opcode == 0x52 || btatt.opcode == 0x16",
                        ["btl2cap.cid", "btatt.opcode"])
        by_cid = {}
        for row in writes:
            cid = row[0] if row else "?"
            by_cid[cid] = by_cid.get(cid, 0) + 1
        undecoded = {}
        for row in dynamic:
            undecoded[row[0]] = undecoded.get(row[0], 0) + 1
        print(json.dumps({"scenario": folder, "ecredRequests": len(requests), "ecredResponses": responses,
                          "commandRejects": len(rejects), "writesByCid": by_cid, "otherFramesOnDynamicCids": undecoded}))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--drags", type=int, default=500)
    parser.add_argument("--channels", type=int, choices=range(1, 6), default=1)
    parser.add_argument("--seed", type=int, default=52)
    parser.add_argument("--out")
    parser.add_argument("--read", metavar="RESULTS")
    args = parser.parse_args()
    if args.read:
        read(args.read)
    elif args.out:
        write_folder(args)
    else:
        parser.error("give --out FOLDER (write the rig and scenario) or --read RESULTS (read the captures)")


if __name__ == "__main__":
    sys.exit(main())
