#!/usr/bin/env bash
# Before/after of `hil bench` in ONE vm guest (issue 39): the builds given take turns, round after round, so they
# share the guest's noise; compare them within this run, by their medians, never with another day's.
#
#   bash Benchmarks/bench-in-one-guest.sh before=/tmp/hil-old after=.build/release/hil
#   ROUNDS=3 ARGS="--transport ble,hid,tcp,udp --count 500 --no-find-max" bash Benchmarks/bench-in-one-guest.sh …
#
# Each NAME=PATH is a hil binary (copy a build aside before rebuilding: the guest reads the host's files). Prints,
# per build and round, the console's p50 and "peripheral p50" rows (the computer's handling: received → uinput
# write returned), then the median of each over the rounds. Those rows are kept in $OUT/rounds.txt (default a
# temporary folder); each bench's own files are written in the guest and go with it.
source "$(dirname "$0")/lib/in-guest.sh"
root=$BENCH_ROOT
[[ $# -ge 1 ]] || { echo "usage: bash Benchmarks/bench-in-one-guest.sh NAME=PATH [NAME=PATH…]" >&2; exit 64; }
for pair in "$@"; do
    [[ $pair == *=* && -x ${pair#*=} ]] || { echo "bench-in-one-guest: '$pair' is not NAME=PATH of an executable hil" >&2; exit 64; }
done
out=$(bench_folder bench-one-guest)
job=$out/job.sh
cat >"$job" <<JOB
#!/bin/sh
cd "$root"
for round in \$(seq ${ROUNDS:-3}); do
  for pair in $*; do
    name=\${pair%%=*}; bin=\${pair#*=}
    \$bin bench ${ARGS:---transport ble,hid,tcp,udp --count 500 --no-find-max} --output "$out/\$name-\$round" >"$out/\$name-\$round.txt" 2>&1 || { echo "\$name round \$round failed:"; tail -n 20 "$out/\$name-\$round.txt"; exit 1; }
    echo "\$name \$round \$(grep -E '^(p50 ms|peripheral p50 ms)' "$out/\$name-\$round.txt" | tr -s ' ' | tr '\n' '|')"
  done
done
JOB
bench_run "$out" 60m "$job"
echo "medians over the rounds (columns as in hil bench's table; the rounds in $out/rounds.txt):"
python3 - "$out/rounds.txt" "$root/Benchmarks/lib" <<'PY'
import sys, collections
sys.path.insert(0, sys.argv[2])
from medians import columns
rows = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    parts = line.strip().split(' ', 2)
    if len(parts) < 3 or '|' not in parts[2]:
        continue
    for field in parts[2].split('|'):
        words = field.split()
        if not words:
            continue
        label = 'handling p50' if words[0] == 'peripheral' else 'p50'
        values = [float(w) for w in words if w.replace('.', '', 1).isdigit()]
        rows[parts[0]][label].append(values)
for name, labels in rows.items():
    for label, runs in labels.items():
        medians = columns(runs)
        print(f"{name:10} {label:13} " + "  ".join(f"{m:6.2f}" for m in medians))
PY
