#!/usr/bin/env bash
# cdat with several machines in one pass (make bench runs it from
# run-bench.sh): the same trace set simulated on 2 and on 8 machines, once as
# separate runs and once in one pass (cdat trace.P cfg1 cfg2 …, --sweep), wall
# time of each (best of 3), and the ratio one pass / separate runs.
# Targets (issue 17): 2 machines in one pass <= 0.65x the time of two separate
# runs, 8 <= 0.4x of eight, on a 2-processor computer. The pass reads and
# schedules the traces once and simulates each machine on its own thread while
# processors are free, so the ratio depends on the processors left idle by
# everything else on the computer.
# Environment: BIN, BENCH, BENCH_DIR as run-bench.sh.
set -euo pipefail
: "${BIN:?}" "${BENCH:?}"
DIR=${BENCH_DIR:-/tmp/dsmtrace-bench}
CONFIGS=$(cd "$(dirname "$0")/../configs" && pwd)
mkdir -p "$DIR"
trap 'rm -f "$DIR"/cm.4.*' EXIT
MK=${BENCH_KERNEL_MRECORDS:-16}
"$BENCH/gen_kernel" "$DIR/cm" 4 $(( MK / 2 > 0 ? MK / 2 : 1 )) blocked
cat "$DIR"/cm.4.* >/dev/null

# best CMD...: the best wall time of 3 runs (bash's time: CMD may be a function), in $best.
best() {
    local r secs TIMEFORMAT=%R
    best=
    for r in 1 2 3; do
        secs=$({ time "$@" >/dev/null; } 2>&1)
        best=$(awk -v a="$secs" -v b="${best:-1e30}" 'BEGIN { print a < b ? a : b }')
    done
}

separate() {    # PROTOCOL...
    local p
    for p in "$@"; do
        "$BIN/cdat" -p -q -o "$DIR" --name "p$p" --set system.protocol="$p" "$DIR/cm.4" "$CONFIGS/4x4.ini"
    done
}

echo "== cdat, several machines in one pass (targets: 2 machines <= 0.65x two runs, 8 <= 0.4x eight)"
for set in "1,2" "1,2,3,4,5,6,7,8"; do
    n=$(( $(tr -cd , <<<"$set" | wc -c) + 1 ))
    best separate ${set//,/ }
    sep=$best
    best "$BIN/cdat" -p -q -o "$DIR" --sweep system.protocol="$set" "$DIR/cm.4" "$CONFIGS/4x4.ini"
    one=$best
    awk -v n="$n" -v s="$sep" -v o="$one" 'BEGIN {
        printf "cdat %d machines (4x4, protocols 1..%d, 4 threads): %d separate runs %.2f s, one pass %.2f s: %.2fx\n",
               n, n, n, s, o, o / s }'
done
