#!/usr/bin/env bash
# The lossy radio's table (issue 46) in ONE vm guest: `hil bench` over ble and hid at the rig's 15 ms connection
# events, with the bridges' packet error rate set to each of RATES in turn (their control FIFOs' `error-rate P`),
# round after round, so every rate shares the guest's noise. Then Benchmarks/radio-loss-table.py: per rate and path
# the medians over the rounds of the link p50, p95 and p99 (handed to the link → received by the computer), beside
# the model's prediction (the lossless row plus the model's added delay at that rate), lost commands and keys held.
#
#   bash Benchmarks/radio-loss-in-one-guest.sh
#   RATES="0 0.3" ROUNDS=1 ARGS="--transport ble --rate 60 --count 300 --no-find-max" bash Benchmarks/radio-loss-in-one-guest.sh
#
# Environment: RATES ("0 0.1 0.3"), ROUNDS (3), ARGS (the bench's options: "--transport ble,hid --rate 60 --count 300
# --no-find-max"), HIL (the hil to run: a copy of .build/release/hil, so a rebuild on the host cannot change it under
# the guest), OUT (default a temporary folder).
source "$(dirname "$0")/lib/in-guest.sh"
root=$BENCH_ROOT
out=$(bench_folder radio-loss)
hil=$(bench_hil "$out" release)
rates=${RATES:-0 0.1 0.3}
for rate in $rates; do
    python3 -c "import sys; p = float(sys.argv[1]); sys.exit(0 if 0 <= p < 1 else 1)" "$rate" \
        || { echo "radio-loss-in-one-guest: rate '$rate' is no packet error rate (0 ≤ P < 1)" >&2; exit 64; }
done
cat >"$out/job.sh" <<JOB
#!/bin/sh
cd "$root"
mkdir -p "\$HIL_SHARE/results"
[ -n "\$HIL_RADIO_CONTROL" ] || { echo "radio-loss: no HIL_RADIO_CONTROL: the guest runs no radio model"; exit 1; }
for round in \$(seq ${ROUNDS:-3}); do
  for rate in $rates; do
    for control in "\$HIL_RADIO_CONTROL"/control-*; do echo "error-rate \$rate" >"\$control"; done
    "$hil" bench ${ARGS:---transport ble,hid --rate 60 --count 300 --no-find-max} --output "\$HIL_SHARE/results/\$rate-\$round" \
        >"\$HIL_SHARE/results/\$rate-\$round.txt" 2>&1 || echo "radio-loss: bench at \$rate, round \$round, exited \$?"
    echo "\$rate \$round \$(grep -E '^(p50 ms|p99 ms|lost)' "\$HIL_SHARE/results/\$rate-\$round.txt" | tr -s ' ' | tr '\\n' '|')"
  done
done
JOB
bench_run "$out" 90m "$out/job.sh"
python3 "$root/Benchmarks/radio-loss-table.py" "$out/guest"
