#!/usr/bin/env bash
# run-programs-bench.sh — ciat and cdat on traces of real programs built with
# our collector (make bench runs it from run-bench.sh), beside the generated
# sets: the tools' speed where the records come from compiled code (calls,
# locks, barriers, fetch runs, the heap's layout), not from a generator.
# bench/programs/kvstore.c: a hash table of 2^18 heap nodes under striped
# locks, 4 workers doing random lookups and updates (pointer chasing over
# about 16 MiB, the commercial kind of footprint); bench/programs/radix_sort.c:
# SPLASH's RADIX in small, 2^20 keys by 4 workers (histograms read by all,
# scattered writes, barriers). Each is built with smait-cc (-O2), traced to
# plain files in thread mode, then analysed twice with ciat (records/s, peak
# RSS, RSS ÷ touched bytes beside the bound 4 × touched + 64 MiB) and with
# cdat on configs/4x4.ini (data references/s, peak RSS, directory lines). Times only; asserts
# nothing. Environment: BIN, BENCH_DIR as run-bench.sh; BENCH_PROGRAM_CFLAGS:
# extra flags for both programs (e.g. -DKEYS=16384 -DOPS=5000: smaller).
set -euo pipefail
: "${BIN:?}"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${BENCH_DIR:-/tmp/dsmtrace-bench}/programs
mkdir -p "$DIR"
trap 'rm -rf "$DIR"' EXIT
# shellcheck source=ciat-run.sh
. "$(dirname "$0")/ciat-run.sh"
# shellcheck source=cdat-run.sh
. "$(dirname "$0")/cdat-run.sh"

echo "== ciat and cdat on traces of programs built with smait-cc (bench/programs)"
for prog in kvstore radix_sort; do
    # shellcheck disable=SC2086  # BENCH_PROGRAM_CFLAGS: flags, split on blanks
    "$BIN/smait-cc" -O2 -pthread ${BENCH_PROGRAM_CFLAGS:-} "$ROOT/bench/programs/$prog.c" -o "$DIR/$prog"
    TRACE_FILE_NAME="$DIR/t" SMAIT_QUIET=1 "$DIR/$prog"
    maps=("$DIR"/t.*.map)                       # one: the set's address map
    set_name=${maps[0]%.map}
    cat "$set_name".[0-9]* >/dev/null              # in the page cache
    for _ in 1 2; do ciat_run "$prog" "$set_name"; done
    ciat_shards "$prog" "$set_name" 2
    for _ in 1 2; do cdat_run "4x4 $prog" "$set_name" "$ROOT/configs/4x4.ini"; done
    rm -f "$DIR"/t.*
done
