#!/usr/bin/env bash
# run-collector-bench.sh — the collector's overhead (issue 8 targets: writing
# traces <= 30x the uninstrumented run, TRACE_FILE_TYPE=suppressed <= 10x)
# and the trace-volume targets of issue 16: zstd traces <= 0.25x the bytes of
# plain ones, compressed tracing <= 1.3x the time of normal, ciat on zstd
# traces >= 0.8x the records/s of plain traces in the page cache, and
# TRACE_FILE_TYPE=to_ciat within 1.5x of tracing to files plus ciat.
# Called by bench/run-bench.sh (make bench); times only, asserts nothing:
# each target line prints the measured figure beside the target.
# examples/mat_mul.c with N = BENCH_MM_N (default 256: 4 workers, about 42 M
# simple records, 340 MB of trace), built with the same clang and flags once
# plain and once with smait-cc, and once with one worker (compressed / normal
# with a core to spare for compressing); best of 3 runs each.
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
declare -A secs size
for type in suppressed normal compressed; do
    t=$(best "$type" "$DIR/traced")
    bytes=$( (cat "$DIR"/mm.[0-9]* 2>/dev/null || true) | wc -c)
    secs[$type]=$t
    size[$type]=$bytes
    awk -v ty="$type" -v t="$t" -v n="$native" -v r="$records" -v b="$bytes" 'BEGIN {
        target = ty == "suppressed" ? "<= 10x" : ty == "normal" ? "<= 30x" : "no target"
        printf "%-10s %.3f s: %.1fx native (%s), %.0f M records/s, %.0f MB written\n",
               ty, t, t / (n > 0 ? n : 0.001), target, r / (t > 0 ? t : 0.001) / 1e6, b / 1e6 }'
done

# The same kernel with one worker, so that a core is left for compressing:
# compressed / normal with the compression in the program's thread
# (SMAIT_COMPRESSOR=inline) and in a thread of the trace's own (thread).
"$BIN/smait-cc" $FLAGS -DNTHREADS=1 "$ROOT/examples/mat_mul.c" -o "$DIR/traced1"
n1=$(best normal "$DIR/traced1")
c1i=$(SMAIT_COMPRESSOR=inline best compressed "$DIR/traced1")
c1t=$(SMAIT_COMPRESSOR=thread best compressed "$DIR/traced1")
awk -v n="$n1" -v i="$c1i" -v t="$c1t" 'BEGIN {
    printf "one worker: compressed / normal %.2f compressing inline, %.2f in its own thread (%.3f s, %.3f s; normal %.3f s)\n",
           i / n, t / n, i, t, n }'

# time CMD...: the smallest elapsed time of 3 runs of CMD, in seconds.
best_cmd() {
    local b="" t t0 t1
    for run in 1 2 3; do
        t0=$(date +%s%N)
        "$@" >/dev/null 2>&1
        t1=$(date +%s%N)
        t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')
        b=$(awk -v a="$t" -v b="$b" 'BEGIN { print (b == "" || a < b) ? a : b }')
    done
    echo "$b"
}

echo "== trace volume and on-the-fly analysis (issue 16 targets), the same program"
# One set of each: plain (normal) and zstd (compressed), from the same build.
rm -f "$DIR"/mm.* && TRACE_FILE_NAME="$DIR/mm" SMAIT_QUIET=1 "$DIR/traced" >/dev/null
mkdir -p "$DIR/z" "$DIR/out"
rm -f "$DIR"/z/zz.* && TRACE_FILE_TYPE=compressed TRACE_FILE_NAME="$DIR/z/zz" SMAIT_QUIET=1 "$DIR/traced" >/dev/null
P=$(ls "$DIR"/mm.*.map | sed -E 's/.*\.([0-9]+)\.map$/\1/')
plain_bytes=$(cat "$DIR"/mm.$P.[0-9]* | wc -c)
zstd_bytes=$(cat "$DIR"/z/zz.$P.[0-9]* | wc -c)
awk -v z="$zstd_bytes" -v p="$plain_bytes" 'BEGIN {
    printf "zstd bytes / plain bytes:           %.5f (target <= 0.25): %d / %d\n", z / p, z, p }'
awk -v c="${secs[compressed]}" -v n="${secs[normal]}" 'BEGIN {
    printf "compressed / normal tracing time:   %.2f (target <= 1.3): %.3f s / %.3f s\n", c / n, c, n }'
cat "$DIR"/mm.$P.[0-9]* > /dev/null           # plain traces in the page cache
t_plain=$(best_cmd "$BIN/ciat" -q -o "$DIR/out" "$DIR/mm.$P")
t_zstd=$(best_cmd "$BIN/ciat" -q -o "$DIR/out" "$DIR/z/zz.$P")
awk -v z="$t_zstd" -v p="$t_plain" -v r="$records" 'BEGIN {
    printf "ciat zstd / plain records/s:        %.2f (target >= 0.8): %.1f M/s / %.1f M/s\n",
           p / z, r / z / 1e6, r / p / 1e6 }'
files() { rm -f "$DIR"/mm.*; TRACE_FILE_NAME="$DIR/mm" SMAIT_QUIET=1 "$DIR/traced" && "$BIN/ciat" -q "$DIR/mm.$P"; }
fly() { rm -f "$DIR"/mm.*; TRACE_FILE_TYPE=to_ciat TRACE_FILE_NAME="$DIR/mm" SMAIT_QUIET=1 SMAIT_SPILL_DIR="$DIR" "$DIR/traced"; }
flyz() { rm -f "$DIR"/mm.*; TRACE_FILE_TYPE=to_ciat SMAIT_SPILL=normal TRACE_FILE_NAME="$DIR/mm" SMAIT_QUIET=1 SMAIT_SPILL_DIR="$DIR" "$DIR/traced"; }
t_files=$(best_cmd files)
t_fly=$(best_cmd fly)
t_flyz=$(best_cmd flyz)
awk -v f="$t_fly" -v z="$t_flyz" -v t="$t_files" 'BEGIN {
    printf "to_ciat / (trace files + ciat):     %.2f (target <= 1.5; zstd spill, the default): %.3f s / %.3f s\n", f / t, f, t
    printf "  with SMAIT_SPILL=normal:          %.2f: %.3f s\n", z / t, z }'
