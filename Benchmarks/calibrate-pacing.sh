#!/usr/bin/env bash
# hil calibrate's pacing against the radio's connection events, in one vm guest: N calibrations each way, taken in
# turn, of the rig test's size (`--transport T --delays 0,20 --count 100 --rounds 1`), paced regularly
# (`--regular-pace`) and dithered (the default), then each way's spread of the p50's shift around the 20 ms injected.
#
#   bash Benchmarks/calibrate-pacing.sh [N] [TRANSPORT] [HIL]     # 20, hid, .build/release/hil (about 6 minutes)
#
# Keep the host quiet while it runs: a busy host makes the TCG guest fall behind the radio's events, and whole
# streams then come out an interval late under either pacing (docs/measurements.md, "Known delays").
source "$(dirname "$0")/lib/in-guest.sh"
root=$BENCH_ROOT
count=${1:-20} transport=${2:-hid} hil=${3:-$root/.build/release/hil}
[[ $count =~ ^[0-9]+$ && $count -ge 2 ]] || { echo "usage: bash Benchmarks/calibrate-pacing.sh [N ≥ 2] [ble|hid] [HIL]" >&2; exit 64; }
[[ $transport == ble || $transport == hid ]] || { echo "calibrate-pacing: the radio model delays ble and hid only, not $transport" >&2; exit 64; }
[[ -x $hil ]] || { echo "calibrate-pacing: no hil at $hil (swift build -c release --product hil)" >&2; exit 1; }
work=$(bench_folder calibrate-pacing)
cat >"$work/job.sh" <<JOB
#!/bin/sh
out=\$HIL_SHARE/results
mkdir -p "\$out"
for i in \$(seq $count); do
  for pace in regular dithered; do
    flag=; [ \$pace = regular ] && flag=--regular-pace
    "$hil" calibrate --transport $transport --delays 0,20 --count 100 --rounds 1 \$flag --output "/tmp/cal-\$pace-\$i" \
      >"/tmp/cal-\$pace-\$i.log" 2>&1 || { echo "calibrate \$pace \$i failed:"; tail -5 "/tmp/cal-\$pace-\$i.log"; exit 1; }
    cp "/tmp/cal-\$pace-\$i/calibrate.json" "\$out/\$pace-\$i.json"
    echo "\$pace \$i done"
  done
done
JOB
bench_run "$work" 60m "$work/job.sh"
python3 - "$work/guest" "$count" "$root/Benchmarks/lib" <<'PY'
import json, statistics, sys
sys.path.insert(0, sys.argv[3])
from medians import median
folder, count = sys.argv[1], int(sys.argv[2])
print("| pacing | median shift ms | standard deviation ms | furthest from 20 ms | beyond ±3 ms | beyond ±2 ms |")
print("|---|---:|---:|---:|---:|---:|")
for pace in ("regular", "dithered"):
    shifts = [json.load(open(f"{folder}/{pace}-{i}.json"))["rows"][1]["shiftP50Ms"] for i in range(1, count + 1)]
    off = [abs(s - 20) for s in shifts]
    print(f"| {pace} | {median(shifts):.2f} | {statistics.pstdev(shifts):.2f} | {max(off):.2f} "
          f"| {sum(o > 3 for o in off)} of {count} | {sum(o > 2 for o in off)} of {count} |")
PY
echo "calibrate.json of every run: $work/guest"
