#!/usr/bin/env bash
# demo.sh — run the tools on the bundled example (make demo).
#
#   BIN=/abs/path/to/build/bin scripts/demo.sh      (from the repository root)
#
# Assembles examples/producer-consumer.txt (4 threads, SMAIT text form) into a
# binary trace set in $DEMO_DIR (default: build/demo, beside BIN), validates it
# with `smait stat` and shows thread 0 with `smait dump`.
# ciat, cdat and tdat runs will be added here as the tools arrive.
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

step "files"
ls -l "$PREFIX".4.*
cat <<EOF

The demo trace set (one binary SMAIT trace per thread) is in
  $DEMO_DIR
made from
  $EXAMPLE
Try:
  $SMAIT dump --set $PREFIX.4
  $SMAIT dump --byte-order=big $PREFIX.4.1      (the wrong byte order: an error)
Formats: formats/SMAIT.md (binary), formats/SMAIT-TEXT.md (text).
EOF
