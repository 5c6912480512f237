# shellcheck shell=bash
# cdat-run.sh — sourced by the benchmark scripts: cdat_run LABEL SET CONFIG
# [OPTION...] runs cdat once on the trace set SET (a path, its outputs beside
# it) with the machine CONFIG and the options given, and prints its data
# references/s and records/s (simple records: the set's bytes / 8), peak RSS
# and the lines its directory knew at the end. Sets secs (wall) and cpu
# (user + system) for the caller's ratios.
cdat_run() {
    local label=$1 set=$2 cfg=$3
    shift 3
    local out user sys rss_kib refs records lines
    out=$(dirname "$set")
    /usr/bin/env time -f "%e %M %U %S" -o "$out/time.out" "$BIN/cdat" "$@" -q -o "$out" "$set" "$cfg"
    read -r secs rss_kib user sys < <(tail -1 "$out/time.out")
    # shellcheck disable=SC2034  # cpu, like secs, is the caller's
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')
    refs=$(awk '$1 == "RxTxL01:" { print $4 }' "$set.cdat_report")
    records=$(( $(cat "$set".[0-9]* | wc -c) / 8 ))
    lines=$(awk '/^# directory: lines/ { print $4 }' "$set.cdat_report")
    awk -v l="$label" -v d="$refs" -v r="$records" -v t="$secs" -v m="$rss_kib" -v n="$lines" 'BEGIN {
        if (t <= 0) t = 0.01
        printf "cdat %s: %d data refs (%d records) in %.2f s: %.1f M data refs/s, %.1f M records/s,"  \
               " peak RSS %d KiB, directory %d lines\n", l, d, r, t, d / t / 1e6, r / t / 1e6, m, n }'
}

# cdat_shards LABEL SET CONFIG N [OPTION...]: the run in N parts (--shard I/N,
# each on one thread) against the whole run on one thread (docs/sharding.md
# §9): the parts one after another, each part's time, CPU (user + system) and
# peak RSS; their CPU in all against the whole run's; the largest part's peak
# RSS against the whole run's / N + 16 MiB; the merge's time; and whether the
# merged report is the whole run's (it must be: "same").
cdat_shards() {
    local label=$1 set=$2 cfg=$3 n=$4 out i secs rss_kib user sys whole_secs whole_rss whole_cpu sum=0 max=0
    local merge same
    shift 4
    out=$(dirname "$set")
    /usr/bin/env time -f "%e %M %U %S" -o "$out/time.out" "$BIN/cdat" "$@" --workers 1 -q -o "$out" "$set" "$cfg"
    read -r whole_secs whole_rss user sys < <(tail -1 "$out/time.out")
    whole_cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')
    mv "$set.cdat_report" "$set.whole_report"
    for ((i = 0; i < n; i++)); do
        /usr/bin/env time -f "%e %M %U %S" -o "$out/time.out" "$BIN/cdat" "$@" --workers 1 -q -o "$out" \
            --shard "$i/$n" "$set" "$cfg"
        read -r secs rss_kib user sys < <(tail -1 "$out/time.out")
        sum=$(awk -v a="$sum" -v u="$user" -v s="$sys" 'BEGIN { print a + u + s }')
        [ "$rss_kib" -gt "$max" ] && max=$rss_kib
        awk -v l="$label" -v i="$i" -v n="$n" -v t="$secs" -v u="$user" -v s="$sys" -v m="$rss_kib" 'BEGIN {
            printf "cdat %s, part %d/%d: %.2f s, CPU %.2f s, peak RSS %d KiB\n", l, i, n, t, u + s, m }'
    done
    /usr/bin/env time -f "%e %M" -o "$out/time.out" "$BIN/cdat" --merge "$set".cdat_partial.*-of-"$n"
    read -r merge _ < <(tail -1 "$out/time.out")
    # the report's command lines differ by --shard only: none in the merged one
    same=$(cmp -s "$set.whole_report" "$set.cdat_report" && echo same || echo DIFFERS)
    awk -v l="$label" -v n="$n" -v w="$whole_secs" -v wc="$whole_cpu" -v wr="$whole_rss" -v s="$sum" -v m="$max" \
        -v g="$merge" -v same="$same" 'BEGIN {
        bound = wr / n + 16384
        printf "cdat %s, %d parts: whole run %.2f s, CPU %.2f s, %d KiB (one thread); parts one after another" \
               " CPU %.2f s in all (%.2fx the whole), largest part %d KiB (whole / %d + 16 MiB = %d KiB: %s);" \
               " merge %.2f s; the merged report: %s\n", l, n, w, wc, wr, s, s / (wc > 0 ? wc : 0.01), m, n, bound,
               m <= bound ? "ok" : "OVER", g, same }'
    rm -f "$set".cdat_partial.* "$set.cdat_report" "$set.whole_report" "$out/time.out"
}
