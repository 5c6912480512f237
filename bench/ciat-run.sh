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

# ciat_shards LABEL SET N [OPTION...]: the run in N parts (--shard I/N, each
# on one thread) against the whole run on one thread (docs/sharding.md): the
# parts one after another (each part's time and peak RSS; their CPU in all),
# then all N at once (the wall time, on this machine's processors), then the
# merge; each part's peak RSS against the whole run's / N + 16 MiB.
ciat_shards() {
    local label=$1 set=$2 n=$3 out i secs rss_kib whole_secs whole_rss sum=0 max=0 wall merge
    shift 3
    out=$(dirname "$set")
    /usr/bin/env time -f "%e %M" -o "$out/time.out" "$BIN/ciat" "$@" --workers 1 -q -o "$out" "$set"
    read -r whole_secs whole_rss < "$out/time.out"
    for ((i = 0; i < n; i++)); do
        /usr/bin/env time -f "%e %M" -o "$out/time.out" "$BIN/ciat" "$@" --workers 1 -q -o "$out" --shard "$i/$n" "$set"
        read -r secs rss_kib < "$out/time.out"
        sum=$(awk -v a="$sum" -v b="$secs" 'BEGIN { print a + b }')
        [ "$rss_kib" -gt "$max" ] && max=$rss_kib
        echo "ciat $label, part $i/$n: $secs s, peak RSS $rss_kib KiB"
    done
    local start end
    start=$(date +%s.%N)
    seq 0 $((n - 1)) | xargs -P "$n" -I{} "$BIN/ciat" "$@" --workers 1 -q -o "$out" --shard "{}/$n" "$set"
    end=$(date +%s.%N)
    wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
    /usr/bin/env time -f "%e %M" -o "$out/time.out" "$BIN/ciat" --merge "$set".ciat_partial.*-of-"$n"
    read -r merge _ < "$out/time.out"
    awk -v l="$label" -v n="$n" -v w="$whole_secs" -v wr="$whole_rss" -v s="$sum" -v m="$max" -v p="$wall" \
        -v g="$merge" -v c="$(nproc)" 'BEGIN {
        bound = wr / n + 16384
        printf "ciat %s, %d parts: whole run %.2f s %d KiB (one thread); parts one after another %.2f s in all" \
               " (%.2fx the whole), largest part %d KiB (whole / %d + 16 MiB = %d KiB: %s); all %d at once on %d" \
               " processors %.2f s (%.2fx the whole run'"'"'s speed), merge %.2f s\n", l, n, w, wr, s,
               s / (w > 0 ? w : 0.01), m, n, bound, m <= bound ? "ok" : "OVER", n, c, p, w / (p > 0 ? p : 0.01), g }'
    rm -f "$set".ciat_partial.* "$set.ciat_report" "$set.memory" "$out/time.out"
}
