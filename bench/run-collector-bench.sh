#!/usr/bin/env bash
# run-collector-bench.sh — the collector's overhead (issue 8 targets: writing
# traces <= 30x the uninstrumented run, TRACE_FILE_TYPE=suppressed <= 10x).
# Called by bench/run-bench.sh (make bench); times only, asserts nothing.
# examples/mat_mul.c with N = BENCH_MM_N (default 256: 4 workers, about 42 M
# simple records, 340 MB of trace), built with the same clang and flags once
# plain and once with smait-cc; best of 3 runs each.
set -euo pipefail
: "${BIN:?}"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=${BENCH_DIR:-/tmp/dsmtrace-bench}/collector
N=${BENCH_MM_N:-256}
CLANG=${SMAIT_CLANG:-$(sed -n 's/^DEFAULT_CLANG=//p' "$BIN/smait-cc")}
FLAGS="-O2 -pthread -DN=$N"
mkdir -p "$DIR"
trap 'rm -rf "$DIR"' EXIT

"$CLANG" $FLAGS "$ROOT/examples/mat_mul.c" -o "$DIR/native"
"$BIN/smait-cc" $FLAGS "$ROOT/examples/mat_mul.c" -o "$DIR/traced"

# best TYPE CMD...: the smallest elapsed time of 3 runs, in seconds.
best() {
    local type=$1 b="" t
    shift
    for run in 1 2 3; do
        rm -f "$DIR"/mm.*
        sync
        local t0 t1
        t0=$(date +%s%N)
        TRACE_FILE_TYPE="$type" TRACE_FILE_NAME="$DIR/mm" SMAIT_QUIET=1 "$@" >/dev/null
        t1=$(date +%s%N)
        t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')
        b=$(awk -v a="$t" -v b="$b" 'BEGIN { print (b == "" || a < b) ? a : b }')
    done
    echo "$b"
}

echo "== collector overhead: examples/mat_mul.c, N=$N, 4 workers, $FLAGS (best of 3)"
native=$(best normal "$DIR/native")
records=$(TRACE_FILE_TYPE=suppressed "$DIR/traced" 2>&1 >/dev/null | sed -n 's/.* \([0-9]*\) records.*/\1/p')
echo "native: $native s; the traced program makes $records simple records"
for type in suppressed normal compressed; do
    t=$(best "$type" "$DIR/traced")
    bytes=$( (cat "$DIR"/mm.[0-9]* 2>/dev/null || true) | wc -c)
    awk -v ty="$type" -v t="$t" -v n="$native" -v r="$records" -v b="$bytes" 'BEGIN {
        target = ty == "suppressed" ? "<= 10x" : ty == "normal" ? "<= 30x" : "no target"
        printf "%-10s %.3f s: %.1fx native (%s), %.0f M records/s, %.0f MB written\n",
               ty, t, t / (n > 0 ? n : 0.001), target, r / (t > 0 ? t : 0.001) / 1e6, b / 1e6 }'
done
