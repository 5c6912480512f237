#!/usr/bin/env bash
# run-fuzzers.sh — `make fuzz`: replay the saved regressions, then run each
# harness for FUZZ_SECONDS, one after another.
#
#   BIN=build/bin FZ=build-fuzz FUZZ_SECONDS=60 fuzz/run-fuzzers.sh NAME...
#
# Per harness NAME (fuzz/fuzz_NAME.c, built as $FZ/fuzz_NAME):
#   $FZ/seeds/NAME     made by make-seeds.sh from the test inputs (each run)
#   $FZ/corpus/NAME    what the fuzzer found interesting; kept between runs,
#                      so long runs build on earlier ones
#   fuzz/NAME.dict     its dictionary
#   fuzz/regressions/NAME/*   inputs that once failed: each must pass now,
#                      except those named in fuzz/regressions/KNOWN (defects
#                      not fixed yet; the line says which)
# A failure prints the end of the fuzzer's log ($FZ/logs/NAME.log) and the
# saved input ($FZ/artifacts/NAME-crash-…); reproduce it with
#   FUZZ_VERBOSE=1 $FZ/fuzz_NAME $FZ/artifacts/NAME-crash-…
# Extra libFuzzer options go in FUZZ_FLAGS (e.g. FUZZ_FLAGS=-jobs=1).
# Exit status 0 when every harness ran clean.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${BIN:?set BIN to the built tools}" "${FZ:?set FZ to the fuzz build directory}"
secs=${FUZZ_SECONDS:-60}
mkdir -p "$FZ/logs" "$FZ/artifacts" "$FZ/corpus"

rm -rf "$FZ/seeds"
BIN=$BIN "$here/make-seeds.sh" "$FZ/seeds" >"$FZ/logs/seeds.log" 2>&1 || {
    echo "fuzz: making the seeds failed:"; tail -n 20 "$FZ/logs/seeds.log"; exit 1
}

# The scratch files of the harnesses (removed at the end, also after a crash).
export FUZZ_TMPDIR
FUZZ_TMPDIR=$(mktemp -d "$( [ -w /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")/dsm-fuzz-run.XXXXXX")
trap 'rm -rf "$FUZZ_TMPDIR"' EXIT

max_len() {
    case $1 in
        trace_reader|ciat_sched|cdat_sim) echo 16384 ;;
        *) echo 8192 ;;
    esac
}

failed=0
for name in "$@"; do
    exe="$FZ/fuzz_$name"
    # Regressions first: known open defects are skipped, with their reason.
    reg="$here/regressions/$name"
    if [ -d "$reg" ]; then
        for f in "$reg"/*; do
            [ -f "$f" ] || continue
            rel="$name/$(basename "$f")"
            known=$(grep -F "$rel " "$here/regressions/KNOWN" 2>/dev/null | head -n 1)
            if [ -n "$known" ]; then
                echo "fuzz $name: skipped regression $rel (known: ${known#"$rel "})"
                continue
            fi
            if ! "$exe" "$f" >"$FZ/logs/$name.regression.log" 2>&1; then
                echo "FAIL fuzz $name: regression $rel fails again:"
                grep -E 'invariant|ERROR|SUMMARY|runtime error' "$FZ/logs/$name.regression.log" | head -n 5
                failed=1
            fi
        done
    fi
    mkdir -p "$FZ/corpus/$name"
    dict=()
    [ -f "$here/$name.dict" ] && dict=("-dict=$here/$name.dict")
    # shellcheck disable=SC2086
    "$exe" -max_total_time="$secs" -timeout=30 -rss_limit_mb=2048 -max_len="$(max_len "$name")" \
        -print_final_stats=1 -artifact_prefix="$FZ/artifacts/$name-" "${dict[@]}" ${FUZZ_FLAGS:-} \
        "$FZ/corpus/$name" "$FZ/seeds/$name" >"$FZ/logs/$name.log" 2>&1
    status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$FZ/logs/$name.log" | tail -n 1)
    if [ "$status" -eq 0 ]; then
        echo "ok   fuzz $name: ${runs:-?} runs in ${secs} s, corpus $(ls "$FZ/corpus/$name" | wc -l) inputs"
    else
        echo "FAIL fuzz $name (exit $status), log $FZ/logs/$name.log:"
        grep -E 'invariant broken|ERROR:|SUMMARY:|runtime error|Test unit written' "$FZ/logs/$name.log" | head -n 8
        failed=1
    fi
done
exit $failed
