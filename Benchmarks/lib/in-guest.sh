# The one way Benchmarks/ runs a job in the rig's guest; sourced by each wrapper:
#
#   source "$(dirname "$0")/lib/in-guest.sh"
#   out=$(bench_folder radio-loss)           # $OUT (created), or a new /tmp/radio-loss.XXXXXX
#   hil=$(bench_hil "$out" release)          # $HIL, or a copy of .build/release/hil (or debug) in $out
#   bench_run "$out" 90m "$out/job.sh" [--rigs DIR]   # one guest boot: the job's output in $out/rounds.txt,
#                                                     # what it leaves in $HIL_SHARE/results in $out/guest
#
# The copy matters: the guest reads the host's files, so a rebuild on the host while a job runs would change the
# binary under it. The guest is started with the debug build's `hil rig exec` (--rig auto: the vm guest here), which
# brings the rig up, runs `sh JOB` there and copies $HIL_SHARE/results back; its exit status is the job's.
set -euo pipefail
BENCH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# The run's folder: $OUT, made if missing, or a new temporary one named after the benchmark.
bench_folder() {
    local out=${OUT:-$(mktemp -d "/tmp/$1.XXXXXX")}
    mkdir -p "$out"
    echo "$out"
}

# The hil the job runs: $HIL when set (it must be executable), else a copy of the given build (debug or release)
# in the run's folder.
bench_hil() {
    local out=$1 build=$2
    if [[ -n ${HIL:-} ]]; then
        [[ -x $HIL ]] || { echo "${0##*/}: HIL=$HIL is no executable" >&2; return 64; }
        echo "$HIL"
        return
    fi
    [[ -x $BENCH_ROOT/.build/$build/hil ]] || {
        echo "${0##*/}: no .build/$build/hil: run swift build$([[ $build == release ]] && echo " -c release") --product hil, or set HIL" >&2
        return 64
    }
    cp "$BENCH_ROOT/.build/$build/hil" "$out/hil"
    echo "$out/hil"
}

# Runs `sh JOB` in one guest boot, at most TIMEOUT (hil's duration: 90m), with more of hil rig exec's options;
# prints and keeps the job's output ($out/rounds.txt); the job's $HIL_SHARE/results come back as $out/guest.
bench_run() {
    local out=$1 timeout=$2 job=$3
    shift 3
    [[ -x $BENCH_ROOT/.build/debug/hil ]] || { echo "${0##*/}: no .build/debug/hil to start the rig: run swift build" >&2; return 64; }
    "$BENCH_ROOT/.build/debug/hil" rig exec --timeout "$timeout" --output "$out/guest" "$@" -- sh "$job" | tee "$out/rounds.txt"
}
