#!/usr/bin/env bash
# demo.sh — run the tools on the bundled example (make demo).
#
#   BIN=/abs/path/to/build/bin scripts/demo.sh      (from the repository root)
#
# Assembles examples/producer-consumer.txt (4 threads, SMAIT text form) into a
# binary trace set in $DEMO_DIR (default: build/demo, beside BIN), validates it
# with `smait stat`, shows thread 0 with `smait dump` and analyses the set with
# ciat, then simulates it with cdat on two machines in one pass (configs/4x4.ini,
# and a 2-node machine with oracle placement from ciat's memory file), and the
# 8 protocols of configs/4x4.ini in one pass (--sweep).
# Then the traced kernels (scripts/demo-kernels.sh): examples/*.c built with
# smait-cc, run, and analysed with ciat, cdat (two machines) and tdat.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BIN:-$ROOT/build/bin}
DEMO_DIR=${DEMO_DIR:-$(dirname "$BIN")/demo}
EXAMPLE=$ROOT/examples/producer-consumer.txt
SMAIT=$BIN/smait

[ -x "$SMAIT" ] || { echo "demo: $SMAIT not found; run 'make' first" >&2; exit 1; }

mkdir -p "$DEMO_DIR"
PREFIX=$DEMO_DIR/producer-consumer        # trace set: $PREFIX.4.0 ... $PREFIX.4.3

step() { printf '\n==> %s\n' "$*"; }

step "smait asm examples/producer-consumer.txt $PREFIX"
"$SMAIT" asm "$EXAMPLE" "$PREFIX"

step "smait stat --set $PREFIX.4"
"$SMAIT" stat --set "$PREFIX.4"

step "smait dump $PREFIX.4.0"
"$SMAIT" dump "$PREFIX.4.0"

CIAT=$BIN/ciat
step "ciat -ciat_events $PREFIX.4"
"$CIAT" -q -ciat_events "$PREFIX.4"
echo "phases and communication (docs/ciat-report.md explains every line):"
grep -E '^R(x|[0-9]+)TxL(00|10|11|12|13|14|15):' "$PREFIX.4.ciat_report"
echo "memory usage:"
grep -E '^RxTxL(20|21|23|24|25|26|30|31):' "$PREFIX.4.ciat_report"

CDAT=$BIN/cdat
cat > "$DEMO_DIR/2x2-oracle.ini" <<'INI'
; 2 nodes of 2 processors; pages placed from ciat's memory usage file
[system]
nodes = 2
procs_per_node = 2
protocol = 3
allocation = oracle
memory_usage = producer-consumer.4.memory
[output]
detailed = 1
general = 1
INI
step "cdat $PREFIX.4 configs/4x4.ini $DEMO_DIR/2x2-oracle.ini (two machines in one pass)"
"$CDAT" -q -o "$DEMO_DIR" "$PREFIX.4" "$ROOT/configs/4x4.ini" "$DEMO_DIR/2x2-oracle.ini"
echo "4x4: the summary, data and instruction misses, traffic (docs/cdat-report.md explains every line):"
grep -E '^(# summary:|RxTxL(01|02|03|10|11):)' "$PREFIX.4.4x4.cdat_report"

echo "2x2-oracle (protocol 3, oracle placement, traces):"
grep -E '^RxTxL(01|02|10|12|16):' "$PREFIX.4.2x2-oracle.cdat_report"
echo "the first transactions of its detailed trace (formats/CDAT-TRACES.md):"
head -8 "$PREFIX.4.2x2-oracle.detailed"

step "cdat --sweep system.protocol=1,...,8 $PREFIX.4 configs/4x4.ini (the 8 protocols in one pass, threads spread)"
"$CDAT" -q -o "$DEMO_DIR" --set mapping.policy=spread --sweep system.protocol=1,2,3,4,5,6,7,8 "$PREFIX.4" \
    "$ROOT/configs/4x4.ini"
for p in 1 2 3 4 5 6 7 8; do
    printf 'protocol %s: ' "$p"
    grep '^# summary: transactions' "$PREFIX.4.4x4-system.protocol$p.cdat_report" | cut -d' ' -f3-
done

# Slice mode (docs/scheduler.md §13): three processes, no threads, ordered by time stamps.
DB=$DEMO_DIR/db-processes
step "slice mode: smait asm examples/db-processes.txt; ciat -i 2; cdat -i 2 -handle_io (configs/4x4.ini)"
"$SMAIT" asm "$ROOT/examples/db-processes.txt" "$DB"
"$CIAT" -q -i 2 "$DB.3"
echo "per process (T = trace) and per processor (L09):"
grep -E '^RxT.L(10|09):' "$DB.3.ciat_report"
"$CDAT" -q -i 2 -handle_io -o "$DEMO_DIR" "$DB.3" "$ROOT/configs/4x4.ini"
echo "the I/O processor's requests (L05) and the processors' idle time while the servers wait for the disk (L14):"
grep -E '^RxT(-1L05|.L14):' "$DB.3.cdat_report"

step "files"
ls -l "$PREFIX".4.*
cat <<EOF

The hand-written trace set (one binary SMAIT trace per thread) is in
  $DEMO_DIR
made from
  $EXAMPLE
Try:
  less $PREFIX.4.ciat_report          (every line: docs/ciat-report.md)
  less $PREFIX.4.4x4.cdat_report      (every line: docs/cdat-report.md)
  less $PREFIX.4.2x2-oracle.detailed  (every transaction: docs/cdat-protocol.md)
  $SMAIT schedule $PREFIX.4           (the interleaving ciat used)
  $SMAIT schedule -i 2 $DB.3   (slice mode: processes on processors)
  $SMAIT dump --set $PREFIX.4
  $SMAIT dump --byte-order=big $PREFIX.4.1      (the wrong byte order: an error)
Formats: formats/SMAIT.md (binary), formats/SMAIT-TEXT.md (text).
EOF

BIN=$BIN DEMO_DIR=$DEMO_DIR/kernels "$ROOT/scripts/demo-kernels.sh"
