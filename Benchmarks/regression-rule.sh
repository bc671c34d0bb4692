#!/usr/bin/env bash
# The regression rule on this machine's vm rig (docs/report.md, "The regression rule"): RUNS runs of one build,
# each judged against the runs before it as a night is, flag nothing; then one run whose computer waits 5 ms before
# each uinput write (the fault Mutations/faults/timing-every-command-5ms-late.patch, run as `hil run --computer`) is
# flagged.
#
#   swift run -c release hil mutants run --only timing-every-command-5ms-late Scenarios/cursor   # builds the mutant
#   bash Benchmarks/regression-rule.sh .build/release/hil .build-mutants/bin/timing-every-command-5ms-late/hil [OUT]
#
# RUNS (default 10) and SUITE (default Scenarios/) from the environment. Each run is `hil run --output
# OUT/nights/NN SUITE` in a guest of its own, as a night is; after each, `hil report --history OUT/nights
# --fail-on-regression` judges the newest. Prints a line per run and the count; exits 1 when an unchanged run was
# flagged or the injected one was not. The guest reads the host's files, but not its /tmp and /run.
set -euo pipefail
unchanged=${1:?usage: regression-rule.sh UNCHANGED_HIL INJECTED_HIL [OUT]}
injected=${2:?usage: regression-rule.sh UNCHANGED_HIL INJECTED_HIL [OUT]}
out=${3:-$(mktemp -d /tmp/regression-rule.XXXXXX)}
runs=${RUNS:-10}
suite=${SUITE:-Scenarios/}
for bin in "$unchanged" "$injected"; do
    [[ -x $bin ]] || { echo "regression-rule: $bin is not an executable hil" >&2; exit 64; }
done
cd "$(dirname "$0")/.."
mkdir -p "$out/nights"
flagged=0
night() { # NAME COMPUTER: one run with that computer under test, then the history's verdict on it
    local name=$1 computer=$2 status=0 verdict=0
    "$unchanged" run -q --computer "$(realpath "$computer")" --output "$out/nights/$name" "$suite" >"$out/$name.log" 2>&1 || status=$?
    "$unchanged" report --history "$out/nights" --markdown "$out/$name-history.md" --fail-on-regression >/dev/null 2>&1 || verdict=$?
    echo "$name: hil run exit $status, $(grep -m1 -E 'regressed|not compared|nothing' "$out/$name-history.md" | cut -c1-160); history exit $verdict"
    return $verdict
}
for ((i = 1; i <= runs; i++)); do
    night "$(printf 'unchanged-%02d' "$i")" "$unchanged" || flagged=$((flagged + 1))
done
injected_flagged=0
night "$(printf 'zz-injected-5ms')" "$injected" || injected_flagged=1
echo "unchanged runs flagged: $flagged of $runs; the 5 ms build flagged: $([[ $injected_flagged == 1 ]] && echo yes || echo no); in $out"
[[ $flagged == 0 && $injected_flagged == 1 ]]
