#!/usr/bin/env bash
# Fuzzes the decoders of everything that crosses the link (FuzzTargets.DecoderFuzz) with libFuzzer.
#
#   bash Fuzz/run.sh 60          fuzz for 60 seconds (CI runs 30); exit 1 on a crash
#   bash Fuzz/run.sh 3600 -runs=10000000   any further libFuzzer options follow the time
#
# HIL_FUZZ_TARGET picks the decoders each input goes through (FuzzTargets.FuzzTarget; hil-fuzz reads it once):
#   all      every decoder: BLE commands, pairing, status and the three below (the default; CI)
#   hid      HIDReport: decode/encode, the input as a stream of reports mapped by the computer (button
#            transitions), clamping, PointerInput.reports' split of a pointer input into reports
#   udp      UDPPacket: decode/encode, mapped by the computer, UDPPacket.movement's split of a movement into packets
#   control  the TCP control path: PhoneMessage.decodeFrame, ComputerMessage.decode, NetworkFrame.Reader
# One family runs far faster than all of them, so each gets its own count of executions:
#   HIL_FUZZ_TARGET=hid bash Fuzz/run.sh 3600 -runs=10000000
#
# The seed corpus is Fuzz/corpus (the golden vectors), shared by every target; what libFuzzer adds goes to
# .build-fuzz/corpus (all) or .build-fuzz/corpus-<target>, so the committed corpus only changes by hand; the
# output is in .build-fuzz/fuzz.log (all) or .build-fuzz/fuzz-<target>.log. A crash is saved as
# Fuzz/crashes/crash-<sha1>: `HIL_FUZZ_TARGET=<target> swift run hil-fuzz Fuzz/crashes/crash-<sha1>` replays
# it; add it to Fuzz/corpus and fix the decoder; `swift run hil-fuzz Fuzz/corpus` (part of the tests; `all`
# holds every target's invariants) then keeps it fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
target=${HIL_FUZZ_TARGET:-all}
case "$target" in
    all) corpus=.build-fuzz/corpus log=.build-fuzz/fuzz.log ;;
    hid | udp | control) corpus=.build-fuzz/corpus-$target log=.build-fuzz/fuzz-$target.log ;;
    *) echo "fuzz: HIL_FUZZ_TARGET=$target is not one of hid|udp|control|all" >&2; exit 64 ;;
esac
export HIL_FUZZ_TARGET=$target

echo "fuzz: building hil-fuzz with -sanitize=fuzzer,address (release, .build-fuzz)"
if ! swift build --product hil-fuzz -c release --scratch-path .build-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING > .build-fuzz.log 2>&1; then
    cat .build-fuzz.log >&2
    echo "fuzz: the build failed (log above)" >&2
    exit 1
fi
binary=.build-fuzz/release/hil-fuzz
mkdir -p "$corpus" Fuzz/crashes
echo "fuzz: target $target, $seconds s on $(ls Fuzz/corpus | wc -l) seeds"
set +e
"$binary" -max_total_time="$seconds" -max_len=1024 -timeout=5 -print_final_stats=1 \
    -artifact_prefix=Fuzz/crashes/ "$@" "$corpus" Fuzz/corpus 2>&1 | tee "$log" | grep -E "^#[0-9]+[[:space:]]+(DONE|INITED)|^Done [0-9]+ runs|stat::|ERROR|SUMMARY|Test unit written"
status=${PIPESTATUS[0]}
set -e
if [[ $status -ne 0 ]]; then
    echo "fuzz: libFuzzer exited $status: a crash or a broken invariant; see $log and Fuzz/crashes/" >&2
    exit 1
fi
echo "fuzz: target $target, no crash"
