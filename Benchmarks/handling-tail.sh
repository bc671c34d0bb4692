#!/usr/bin/env bash
# Where the computer's handling tail goes (issue 39): `hil bench` in ONE vm guest with the kernel's scheduler
# tracer on (ftrace: sched_switch, hard and soft interrupts, on CLOCK_MONOTONIC, the receipts' clock), then
# Benchmarks/handling-tail.py splits every handling window (received → last uinput write returned) into the
# handling thread running, interrupts on its CPU, runnable but waiting for a CPU (preempted), and asleep.
#
#   bash Benchmarks/handling-tail.sh                              # variant "plain", 2 rounds
#   VARIANTS="plain fifo" ROUNDS=2 bash Benchmarks/handling-tail.sh
#
# Variants: plain (as shipped); fifo (every thread of the computer, `hil peripheral`, under SCHED_FIFO 10 once it
# starts: `chrt -a -f -p 10`; threads it makes later inherit it); nice (the same threads at nice -10).
# Environment: VARIANTS, ROUNDS (2), ARGS (the bench's options: "--transport ble,hid,tcp,udp --count 1000
# --no-find-max"), SYSCALLS=1 (every system call and user page fault traced too, so a slow window's running time is
# split by system call; many more events: keep the bench short, e.g. ARGS="--transport tcp,udp --count 1000
# --no-find-max"), HIL (the hil to run: default a copy of .build/release/hil, so a rebuild on the host cannot change
# it under the guest), OUT (default a temporary folder). The trace keeps every switch and interrupt in a 128 MiB ring
# a CPU (about 12 MB of text for the default bench); the job says when it overran. The function_graph tracer, which
# would name the kernel functions inside a slow call, is no option here: patching the kernel's code under TCG stalls
# the guest (soft lockups of 130 s and more).
source "$(dirname "$0")/lib/in-guest.sh"
root=$BENCH_ROOT
out=$(bench_folder handling-tail)
hil=$(bench_hil "$out" release)
variants=${VARIANTS:-plain}
for variant in $variants; do
    case $variant in plain|fifo|nice) ;; *) echo "handling-tail: variant '$variant' is not plain, fifo or nice" >&2; exit 64 ;; esac
done
sed -e "s|@ROOT@|$root|g" -e "s|@HIL@|$hil|g" -e "s|@VARIANTS@|$variants|g" -e "s|@ROUNDS@|${ROUNDS:-2}|g" \
    -e "s|@SYSCALLS@|${SYSCALLS:-0}|g" -e "s|@ARGS@|${ARGS:---transport ble,hid,tcp,udp --count 1000 --no-find-max}|g" \
    "$root/Benchmarks/handling-tail-job.sh" >"$out/job.sh"
bench_run "$out" 60m "$out/job.sh"
for trace in "$out"/guest/*.trace; do
    name=$(basename "$trace" .trace)
    echo "== $name"
    python3 "$root/Benchmarks/handling-tail.py" --trace "$trace" --tgids "$out/guest/$name.tgids" \
        --bench-pid "$(cat "$out/guest/$name.pid")" --console "$out/guest/$name.txt" "$out/guest/$name" | tee "$out/$name.table"
done
