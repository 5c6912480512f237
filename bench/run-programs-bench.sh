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
# cdat on configs/4x4.ini (data references/s, peak RSS, directory lines); then
# cdat in 2 processes (--shard, docs/sharding.md §9) and in 2 parts of one
# process (--jobs 2) against the whole run, and on configs/server2s.ini (L2s
# and [timing]) against the same machine without its L2s ("a hierarchy
# costs", issue 44's target is 1.5x), with --speedup (its one-processor
# machine in turns, a second pass), and with --speedup in [timing] mode = feedback (the
# stalls move the clocks: its estimate against accounting's, and its cost).
# Times only; asserts nothing. Environment: BIN, BENCH_DIR as run-bench.sh; BENCH_PROGRAM_CFLAGS:
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
    whole=$secs
    cdat_shards "4x4 $prog" "$set_name" "$ROOT/configs/4x4.ini" 2
    cdat_run "4x4 $prog, --jobs 2" "$set_name" "$ROOT/configs/4x4.ini" --jobs 2
    awk -v l="$prog" -v a="$secs" -v b="$whole" 'BEGIN {
        printf "cdat 4x4 %s: --jobs 2 / default: %.2fx the time\n", l, a / (b > 0 ? b : 0.01) }'
    cdat_run "server2s $prog without L2s" "$set_name" "$ROOT/configs/server2s.ini" --set l2.size=0 --set timing.l2_hit=0
    flat=$secs
    cdat_run "server2s $prog" "$set_name" "$ROOT/configs/server2s.ini"
    awk -v l="$prog" -v a="$secs" -v b="$flat" 'BEGIN {
        printf "cdat server2s %s: the hierarchy %.2fx the time of its L1s alone (target <= 1.5x)\n", l, a / (b > 0 ? b : 0.01) }'
    flat=$secs
    cdat_run "server2s $prog, --speedup" "$set_name" "$ROOT/configs/server2s.ini" --speedup
    awk -v l="$prog" -v a="$secs" -v b="$flat" -v s="$(awk '/^# summary: speedup/ { print $4 }' "$set_name.cdat_report")" 'BEGIN {
        printf "cdat server2s %s: speedup %s; --speedup %.2fx the time\n", l, s, a / (b > 0 ? b : 0.01) }'
    # [timing] mode = feedback (docs/cdat-report.md, "Feedback"): the stalls
    # move the clocks; the estimate and the speedup against the accounting
    # run's, and its cost (on one thread: the simulation cannot run beside
    # the scheduler).
    acc_est=$(awk '/^# summary: estimated_time/ { print $4 }' "$set_name.cdat_report")
    flat=$secs
    cdat_run "server2s $prog, mode = feedback, --speedup" "$set_name" "$ROOT/configs/server2s.ini" --speedup \
        --set timing.mode=feedback
    awk -v l="$prog" -v a="$secs" -v b="$flat" -v e="$acc_est" \
        -v f="$(awk '/^# summary: estimated_time/ { print $4 }' "$set_name.cdat_report")" \
        -v s="$(awk '/^# summary: speedup/ { print $4 }' "$set_name.cdat_report")" 'BEGIN {
        printf "cdat server2s %s: feedback estimated_time %d (accounting %d), speedup %s; %.2fx the time of accounting (both --speedup)\n",
               l, f, e, s, a / (b > 0 ? b : 0.01) }'
    rm -f "$DIR"/t.*
done
