# shellcheck shell=bash
# ciat-run.sh — sourced by the benchmark scripts: ciat_run LABEL SET
# [OPTION...] runs ciat once on the trace set SET (a path, its outputs beside
# it, removed afterwards) with the options given and prints its records/s
# (simple records: the set's bytes / 8), peak RSS, and RSS against the bytes
# the run touched (RxTxL23) beside the bound 4 x touched + 64 MiB; sets
# ciat_secs (wall) for the caller's ratios.
ciat_run() {
    local label=$1 set=$2
    shift 2
    local out records secs rss_kib touched
    out=$(dirname "$set")
    records=$(( $(cat "$set".[0-9]* | wc -c) / 8 ))
    /usr/bin/env time -f "%e %M" -o "$out/time.out" "$BIN/ciat" "$@" -q -o "$out" "$set"
    read -r secs rss_kib < "$out/time.out"
    ciat_secs=$secs
    touched=$(awk '$1 == "RxTxL23:" {print $3}' "$set.ciat_report")
    awk -v s="$label" -v r="$records" -v t="$secs" -v m="$rss_kib" -v b="$touched" 'BEGIN {
        bound = (4 * b + 64 * 1048576) / 1024
        if (t <= 0) t = 0.01
        printf "ciat %s: %d records in %.2f s: %.1f M records/s, peak RSS %d KiB, touched %d bytes," \
               " RSS/touched %.1f (bound 4 x touched + 64 MiB = %d KiB: %s)\n", s, r, t, r / t / 1e6, m, b,
               m * 1024 / (b > 0 ? b : 1), bound, m <= bound ? "ok" : "OVER" }'
    rm -f "$set.ciat_report" "$set.memory" "$out/time.out"
}

# ciat_workers LABEL SET [OPTION...]: ciat_run with the default workers (one
# per processor), then with --workers 1 (reading, scheduling and analysing on
# one thread), and the ratio of their times: what running the analysis beside
# the scheduler gains on SET (docs/scheduler.md §14).
ciat_workers() {
    local label=$1 set=$2 beside
    shift 2
    ciat_run "$label" "$set" "$@"
    beside=$ciat_secs
    ciat_run "$label, --workers 1" "$set" "$@" --workers 1
    awk -v l="$label" -v a="$beside" -v b="$ciat_secs" -v w="$(nproc)" 'BEGIN {
        printf "ciat %s: default (%d processors) / --workers 1: %.2fx the time\n", l, w, a / (b > 0 ? b : 0.01) }'
}
