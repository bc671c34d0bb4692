#!/usr/bin/env bash
# The floor of the computer's handling (issue 39) in one vm guest, with the guest's other vCPU in four states:
#   alone         nothing on vCPU 1
#   spin          a busy loop on vCPU 1
#   reader        an evdev reader waiting on vCPU 1 (`cat` of the device), woken by every write, as the verifier is
#   reader+spin   the reader and the busy loop on vCPU 1 together
# Benchmarks/uinput-floor.c runs pinned to vCPU 0 and prints the p50, p99 and max of one cursor frame's write(2).
#
#   bash Benchmarks/uinput-floor.sh [COUNT]      # 2000 writes at 100 Hz each (20 s a state)
#
# Halting vCPUs (a guest booted without idle=poll) showed the reader's p99 at about 3 ms against 0.2–0.3 ms in the
# other states: waking a halted vCPU is what costs under TCG (docs/measurements.md, "The computer's handling").
set -euo pipefail
source "$(dirname "$0")/lib/in-guest.sh"
root=$BENCH_ROOT
count=${1:-2000}
[[ $count =~ ^[0-9]+$ && $count -ge 100 ]] || { echo "usage: bash Benchmarks/uinput-floor.sh [COUNT ≥ 100]" >&2; exit 64; }
work=$(bench_folder uinput-floor)
gcc -O2 -o "$work/uinput-floor" "$root/Benchmarks/uinput-floor.c"
cat >"$work/job.sh" <<JOB
#!/bin/sh
floor="$work/uinput-floor"
reader() {  # once the floor's device exists, read it on vCPU 1 until killed
  for try in \$(seq 100); do
    for e in /sys/class/input/event*; do
      grep -q "uinput floor" "\$e/device/name" 2>/dev/null && exec taskset -c 1 cat "/dev/input/\${e##*/}" >/dev/null 2>&1
    done
    sleep 0.05
  done
}
echo "kernel command line: \$(cat /proc/cmdline | grep -o 'idle=[a-z]*' || echo 'no idle=')"
for state in alone spin reader reader+spin; do
  pids=
  case \$state in *spin*) taskset -c 1 sh -c 'while :; do :; done' & pids="\$!" ;; esac
  case \$state in reader*) reader & pids="\$pids \$!" ;; esac
  printf '%-12s ' "\$state"; taskset -c 0 "\$floor" $count
  for pid in \$pids; do kill "\$pid" 2>/dev/null; done
  pkill -x cat 2>/dev/null; wait 2>/dev/null
done
JOB
bench_run "$work" 20m "$work/job.sh"
