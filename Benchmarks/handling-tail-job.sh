#!/bin/sh
# The in-guest job of Benchmarks/handling-tail.sh (which fills in the @NAMES@): for each round and variant, one
# `hil bench` with ftrace recording the scheduler's switches and the interrupts; the trace, the tracer's tgid table
# and the bench's pid go beside the bench's output, in the share.
set -u
cd "@ROOT@"
out="$HIL_SHARE/results"; hil="@HIL@"; t=/sys/kernel/tracing
mkdir -p "$out"
say() { echo "handling-tail: $*"; }
[ -d "$t/events" ] || mount -t tracefs nodev "$t" || { say "cannot mount tracefs on $t"; exit 1; }
[ -d "$t/events/sched/sched_switch" ] || { say "this kernel has no sched_switch event in $t"; exit 1; }

trace_on() {
    echo 0 >"$t/tracing_on"
    echo mono >"$t/trace_clock"
    echo 1 >"$t/options/record-tgid"
    echo 131072 >"$t/buffer_size_kb"
    echo >"$t/trace"
    # Every switch, not only hil's: the computer's threads are named by the runtime (com.apple.root…), and who had
    # the CPU while one of ours waited is the point.
    echo 0 >"$t/events/sched/sched_switch/filter"
    events="sched/sched_switch irq/irq_handler_entry irq/irq_handler_exit irq/softirq_entry irq/softirq_exit"
    # SYSCALLS=1: every system call's entry and exit and every user page fault too (many more events: keep the
    # bench short, e.g. ARGS="--transport tcp,udp --count 1000 --no-find-max").
    [ "@SYSCALLS@" = 1 ] && events="$events raw_syscalls/sys_enter raw_syscalls/sys_exit exceptions/page_fault_user"
    for event in $events; do
        echo 1 >"$t/events/$event/enable" || { say "no event $event in $t"; exit 1; }
    done
    echo 1 >"$t/tracing_on"
}

trace_off() {
    echo 0 >"$t/tracing_on"
    cat "$t/trace" >"$1.trace"
    cat "$t/saved_tgids" >"$1.tgids"
    for cpu in "$t"/per_cpu/cpu*; do
        overrun=$(awk '/^overrun:/ { print $2 }' "$cpu/stats")
        [ "${overrun:-0}" = 0 ] || say "$(basename "$1"): $(basename "$cpu") lost $overrun events (ring overrun)"
    done
    echo 0 >"$t/events/enable"
    echo >"$t/trace"
}

# raise VARIANT BENCH-PID: once the computer the bench started is up, put all its threads under the variant's policy.
raise() {
    waited=0
    while :; do
        computer=$(pgrep -P "$2" -f " peripheral --adapter " | head -n 1)
        [ -n "$computer" ] && break
        [ "$waited" -lt 600 ] || { say "no hil peripheral under the bench within 60 s"; return; }
        sleep 0.1; waited=$((waited + 1))
    done
    case $1 in
        fifo) chrt -a -f -p 10 "$computer" >/dev/null ;;
        nice) for task in /proc/"$computer"/task/*; do renice -n -10 -p "${task##*/}" >/dev/null; done ;;
    esac
    say "$1: computer $computer raised"
}

for round in $(seq @ROUNDS@); do
    for variant in @VARIANTS@; do
        name=$variant-$round
        trace_on
        "$hil" bench @ARGS@ --output "$out/$name" >"$out/$name.txt" 2>&1 &
        bench=$!
        echo "$bench" >"$out/$name.pid"
        case $variant in fifo|nice) raise "$variant" "$bench" ;; esac
        wait "$bench"
        status=$?
        trace_off "$out/$name"
        [ "$status" = 0 ] || { say "$name: hil bench exited $status:"; tail -n 20 "$out/$name.txt"; exit 1; }
        echo "$name $(grep -E '^(p50 ms|peripheral p50 ms)' "$out/$name.txt" | tr -s ' ' | tr '\n' '|')"
    done
done
