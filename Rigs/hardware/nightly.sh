#!/usr/bin/env bash
# One nightly run: the quick suite (Scenarios/) and the nightly suite (Scenarios-nightly/: the real-time waits, the
# faults, the product's own timers) in one hil run on the hardware rig, into REPORTS/<date>, compared with the
# previous night; then the ble and hid scenarios of both suites again on the Bumble phone (a second host stack,
# docs/bumble-phone.md) in two profiles, ios-like and android-like, on the vm rig (the phone needs the HCI user
# channel, which the box's unprivileged hil user lacks), into REPORTS/<date>/bumble-PROFILE; then the mutation run against the quick suite (hil mutants, docs/mutations.md: each fault of
# Mutations/faults built into the computer, into REPORTS/<date>/mutants); then the history of the nights kept in
# REPORTS, its page and summary beside the night (REPORTS/<date>/history.html and history.md, the mutation score
# night by night among them; REPORTS/latest is the newest night).
#   Rigs/hardware/nightly.sh /var/lib/hil/nightly
# Settings, from the environment:
#   HIL_HISTORY_KEEP  how many nights REPORTS keeps (default 30); hil report --keep removes older night folders
#   HIL_COMMIT        the commit hil was built from (default: the file `commit` install.sh writes beside hil)
#   HIL               the hil to run (default ./hil, where install.sh puts it)
#   HIL_MUTANTS       0 skips the mutation run (default 1: it builds each fault, so the box needs the Swift toolchain)
#   HIL_BUMBLE        0 skips the Bumble phone's runs (default 1: they need `bash Rigs/setup.sh`'s .venv-bumble)
# Exit status: hil run's when it did not pass (1: a scenario failed, 69: no usable rig, 125: the rig broke, 130: interrupted),
# the main run's first, then the Bumble phone's; else 1
# when the night regressed against the nights before it (docs/report.md, "The regression rule") or the history
# could not be written; else hil mutants' when a survivor is not argued or a fault broke (1); else 0.
set -euo pipefail
reports=${1:?usage: nightly.sh REPORTS_DIR}
keep=${HIL_HISTORY_KEEP:-30}
if ! [[ $keep =~ ^[1-9][0-9]*$ ]]; then
    echo "nightly: HIL_HISTORY_KEEP is a number of nights, 1 or more, not '$keep'" >&2
    exit 2
fi
cd "$(dirname "$0")/../.."
hil=${HIL:-./hil}
if [[ -z ${HIL_COMMIT:-} && -r commit ]]; then
    HIL_COMMIT=$(<commit)
    export HIL_COMMIT
fi
mkdir -p "$reports"
night=$(date +%Y-%m-%dT%H%M%S)
out="$reports/$night"
# A second run within the same second (by hand) gets a folder of its own.
for ((n = 2; ; n++)); do [[ -e $out ]] || break; out="$reports/$night-$n"; done
baseline=()
if [[ -e "$reports/latest/results.json" ]]; then
    baseline=(--baseline "$reports/latest/results.json")
fi
status=0
"$hil" run --rig hardware --output "$out" "${baseline[@]}" Scenarios/ Scenarios-nightly/ || status=$?
# The newest night becomes the next baseline, whatever its verdict (its report says what failed). Relative, so the
# folder can move.
ln -sfn "$(basename "$out")" "$reports/latest"
mkdir -p "$out"
phones=0
if [[ ${HIL_BUMBLE:-1} != 0 ]]; then
    for profile in ios-like android-like; do
        "$hil" run --rig vm --phone "bumble:$profile" --transport ble,hid --output "$out/bumble-$profile" \
            Scenarios/ Scenarios-nightly/ || { ((phones != 0)) || phones=$?; }
    done
fi
mutants=0
if [[ ${HIL_MUTANTS:-1} != 0 ]]; then
    "$hil" mutants run --rig hardware --output "$out/mutants" Scenarios/ || mutants=$?
fi
history=0
"$hil" report --history "$reports" --keep "$keep" --html "$out/history.html" --markdown "$out/history.md" \
    --fail-on-regression >/dev/null || history=$?
if ((status != 0)); then exit "$status"; fi
if ((phones != 0)); then exit "$phones"; fi
if ((history != 0)); then exit "$history"; fi
exit "$mutants"
