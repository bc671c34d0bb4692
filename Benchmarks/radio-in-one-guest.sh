#!/usr/bin/env bash
# The radio model's table (issue 36) in ONE vm guest: `hil bench` over ble and hid with each radio in turn, round
# after round, so every radio shares the guest's noise. The radios, by name:
#
#   immediate   plain `btvirt -L -l2`: btvirt hands ACL data over at once (the rig's "immediate" model)
#   bridged     `btvirt -L -s` and a `hil radio --interval-ms 0` per controller: the bridge in place, delivering at
#               once (the bridge's own cost is bridged − immediate)
#   7.5, 15, 30 … `btvirt -L -s` and `hil radio --interval-ms I`, bluetoothd's [LE] Min/MaxConnectionInterval = I:
#               connection events
#   NAME-att    any of those with EATT off (bluetoothd's [GATT] Channels = 1, as the rig's main.conf has it since
#               the computer's ordering guarantee, docs/protocol.md "Order"): ATT on its fixed channel, so no L2CAP
#               credits to wait for (BlueZ's EATT channels start with 3, and under the model the peer returns each
#               at its next event: Rigs/README.md, "The radio model")
#   NAME-eatt   any of those with EATT on (Channels = 3, bluetoothd's own default): what the rig ran before
#
#   bash Benchmarks/radio-in-one-guest.sh                      # immediate bridged 7.5 15 30, 3 rounds
#   RADIOS="immediate 15" ROUNDS=1 CAPTURE=1 bash Benchmarks/radio-in-one-guest.sh
#
# Environment: RADIOS, ROUNDS (3), ARGS (the bench's options: "--transport ble,hid --count 1000 --no-find-max"),
# CAPTURE=1 (btmon -w of each bench, beside its output), HIL (the hil to run: a copy of .build/debug/hil, so a
# rebuild on the host cannot change it under the guest), OUT (default a temporary folder).
# Between benches the job stops bluetoothd, the bridges and btvirt and starts the next radio's; the guest itself was
# booted with the radio model so that it has /dev/vhci's users and the rig's main.conf in /run/hil-bluetooth.
# Prints each bench's "link p50" and "p99" rows, then per radio the medians over the rounds and the rise over
# immediate (python3 Benchmarks/radio-table.py OUT/guest prints the table again; each bench's files are there too).
source "$(dirname "$0")/lib/in-guest.sh"
root=$BENCH_ROOT
out=$(bench_folder radio-one-guest)
hil=$(bench_hil "$out" debug)
radios=${RADIOS:-immediate bridged 7.5 15 30}
for radio in $radios; do
    case ${radio%-*att} in
        immediate|bridged) ;;
        *) python3 -c "import sys; u = float(sys.argv[1]) / 1.25; sys.exit(0 if 6 <= u <= 3200 and u == int(u) else 1)" "${radio%-*att}" \
            || { echo "radio-in-one-guest: radio '$radio' is not immediate, bridged or an interval (7.5 to 4000 ms in steps of 1.25), with an optional -att or -eatt" >&2; exit 64; } ;;
    esac
done
# A copy of the rig files whose vm rig boots with the radio model, so the guest has the rig's bluetoothd main.conf.
rigs=$out/rigs
rm -rf "$rigs" && cp -r "$root/Rigs" "$rigs"
python3 - "$rigs/vm.json" <<'PY'
import json, sys
rig = json.load(open(sys.argv[1]))
rig["radio"] = {"model": "connectionEvents", "intervalMs": 15}
json.dump(rig, open(sys.argv[1], "w"), indent=2)
PY
sed -e "s|@ROOT@|$root|g" -e "s|@HIL@|$hil|g" -e "s|@RADIOS@|$radios|g" \
    -e "s|@ROUNDS@|${ROUNDS:-3}|g" -e "s|@CAPTURE@|${CAPTURE:-0}|g" \
    -e "s|@ARGS@|${ARGS:---transport ble,hid --count 1000 --no-find-max}|g" \
    "$root/Benchmarks/radio-job.sh" >"$out/job.sh"
bench_run "$out" 90m "$out/job.sh" --rigs "$rigs"
python3 "$root/Benchmarks/radio-table.py" "$out/guest"
