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
