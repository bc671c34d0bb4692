#!/usr/bin/env bash
# One nightly run: the quick suite (Scenarios/) and the nightly suite (Scenarios-nightly/: the real-time waits, the
# faults, the product's own timers) in one hil run on the hardware rig, into REPORTS/<date>, compared with the
# previous run.
#   Rigs/hardware/nightly.sh /var/lib/hil/nightly
set -euo pipefail
reports=${1:?usage: nightly.sh REPORTS_DIR}
cd "$(dirname "$0")/../.."
mkdir -p "$reports"
out="$reports/$(date +%Y-%m-%dT%H%M)"
baseline=()
if [[ -e "$reports/latest/results.json" ]]; then
    baseline=(--baseline "$reports/latest/results.json")
fi
status=0
./hil run --rig hardware --output "$out" "${baseline[@]}" Scenarios/ Scenarios-nightly/ || status=$?
# The newest run becomes the next baseline, whatever its verdict (its report says what failed).
ln -sfn "$out" "$reports/latest"
exit $status
