#!/usr/bin/env bash
# Fuzzes the decoders of everything that crosses the link (FuzzTargets.DecoderFuzz) with libFuzzer.
#
#   bash Fuzz/run.sh 60          fuzz for 60 seconds (CI does this); exit 1 on a crash
#   bash Fuzz/run.sh 3600 -runs=10000000   any further libFuzzer options follow the time
#
# The seed corpus is Fuzz/corpus (the golden vectors); what libFuzzer adds goes to .build-fuzz/corpus, so the
# committed corpus only changes by hand. A crash is saved as Fuzz/crashes/crash-<sha1>: add it to Fuzz/corpus
# and fix the decoder; `swift run hil-fuzz Fuzz/corpus` (part of the tests) then keeps it fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true

echo "fuzz: building hil-fuzz with -sanitize=fuzzer,address (release, .build-fuzz)"
if ! swift build --product hil-fuzz -c release --scratch-path .build-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING > .build-fuzz.log 2>&1; then
    cat .build-fuzz.log >&2
    echo "fuzz: the build failed (log above)" >&2
    exit 1
fi
binary=.build-fuzz/release/hil-fuzz
mkdir -p .build-fuzz/corpus Fuzz/crashes
echo "fuzz: $seconds s on $(ls Fuzz/corpus | wc -l) seeds"
set +e
"$binary" -max_total_time="$seconds" -max_len=1024 -timeout=5 -print_final_stats=1 \
    -artifact_prefix=Fuzz/crashes/ "$@" .build-fuzz/corpus Fuzz/corpus 2>&1 | tee .build-fuzz/fuzz.log | grep -E "^#[0-9]+ +(DONE|INITED)|stat::|ERROR|SUMMARY|Test unit written"
status=${PIPESTATUS[0]}
set -e
if [[ $status -ne 0 ]]; then
    echo "fuzz: libFuzzer exited $status: a crash or a broken invariant; see .build-fuzz/fuzz.log and Fuzz/crashes/" >&2
    exit 1
fi
echo "fuzz: no crash"
