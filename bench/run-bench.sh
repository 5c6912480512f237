#!/usr/bin/env bash
# make bench: throughput benchmarks. Prints records/s and peak memory; asserts
# nothing about time (timing belongs here, never in tests).
# Environment: BIN (tools), BENCH (benchmark programs), BENCH_DIR (scratch,
# default /tmp/dsmtrace-bench), BENCH_MRECORDS (size of the synthetic trace in
# millions of simple records, default 64 = 512 MB).
set -euo pipefail
: "${BIN:?}" "${BENCH:?}"
DIR=${BENCH_DIR:-/tmp/dsmtrace-bench}
M=${BENCH_MRECORDS:-64}
mkdir -p "$DIR"
trap 'rm -f "$DIR"/le.bin "$DIR"/be.bin "$DIR"/le.bin.gz' EXIT

echo "== trace reader: plain scan of a ${M}M-record trace in the page cache"
"$BENCH/bench_reader" gen "$DIR/le.bin" "$M"
"$BENCH/bench_reader" gen "$DIR/be.bin" "$M" big
cat "$DIR/le.bin" "$DIR/be.bin" >/dev/null   # warm the page cache
for run in 1 2 3; do "$BENCH/bench_reader" scan "$DIR/le.bin" | grep '^scan ('; done
echo "-- big-endian (byte swap on read)"
"$BENCH/bench_reader" scan "$DIR/be.bin" | grep '^scan ('
echo "-- gzip (bounded by zlib's inflate)"
gzip -1 -c "$DIR/le.bin" > "$DIR/le.bin.gz"
"$BENCH/bench_reader" scan "$DIR/le.bin.gz" | grep '^scan (next)'
echo "-- smait stat (full validation and per-kind counts)"
/usr/bin/env time -f "smait stat: %e s, peak RSS %M KiB" "$BIN/smait" stat "$DIR/le.bin" >/dev/null
