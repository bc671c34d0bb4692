#!/usr/bin/env bash
# How long `hil replay` takes as scenarios grow (issue 39): for each size, a scenario from make-scenario.py, then
# the median wall time of RUNS runs (3 by default) of `hil replay -q` on it. Sizes of the mixed scenario by default
# 2000 4000 8000 46000; then one segment of 250 500 1000 steps (`--one-segment`, a step judged over all of them).
#
#   bash Benchmarks/replay-scaling.sh                        # builds and times .build/debug/hil (what the README runs)
#   bash Benchmarks/replay-scaling.sh PATH/TO/hil            # times that binary (an older commit's, a release build)
#   SIZES="2000 4000" SEGMENTS="" bash Benchmarks/replay-scaling.sh
#
# A replay that does not pass stops the script: a figure for a failed run is no figure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
hil=${1:-}
what=$hil
if [[ -z $hil ]]; then
    echo "replay-scaling: building hil (swift build --product hil, the debug build; pass a hil to time it instead)" >&2
    (cd "$root" && swift build --product hil >/dev/null)
    hil=$root/.build/debug/hil
    what="debug build of $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD || echo ' with changes')"
fi
runs=${RUNS:-3}
sizes=${SIZES-2000 4000 8000 46000}
segments=${SEGMENTS-250 500 1000}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Prints "STEPS BYTES MEDIAN MIN MAX" for the scenario written by make-scenario.py with the arguments given.
time_replay() {
    local file=$scratch/scenario.json times=() start end
    python3 "$root/Benchmarks/make-scenario.py" "$@" >"$file"
    for _ in $(seq "$runs"); do
        start=$(date +%s.%N)
        if ! "$hil" replay -q "$file" >"$scratch/out" 2>&1; then
            echo "hil replay failed on make-scenario.py $*:" >&2
            cat "$scratch/out" >&2
            exit 1
        fi
        end=$(date +%s.%N)
        times+=("$(awk -v start="$start" -v end="$end" 'BEGIN { print end - start }')")
    done
    python3 - "$root/Benchmarks/lib" "${*: -1}" "$(stat -c %s "$file")" "${times[@]}" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from medians import median
steps, size, times = int(sys.argv[2]), int(sys.argv[3]), [float(t) for t in sys.argv[4:]]
print(f"{steps:6d} {size:9d} {median(times):8.2f} {min(times):8.2f} {max(times):8.2f}")
PY
}

echo "hil replay -q: $what, $runs run(s) each, wall seconds"
echo " steps     bytes   median      min      max"
for steps in $sizes; do time_replay "$steps"; done
if [[ -n $segments ]]; then
    echo "one segment (--one-segment):"
    for steps in $segments; do time_replay --one-segment "$steps"; done
fi
