# shellcheck shell=bash
# floor-run.sh — sourced by the benchmark scripts: floor_run LABEL COUNT UNIT
# PROGRAM [ARG...] runs one floor model (bench/cache_floor, ciat_floor,
# dsm_floor: bare models of the tools' innermost work) once and prints its
# time, COUNT UNIT per second and peak RSS; the model's own line (its counts)
# is left in $DIR/floor.out.
floor_run() {
    local label=$1 count=$2 unit=$3 secs rss_kib
    shift 3
    /usr/bin/env time -f "%e %M" -o "$DIR/time.out" "$@" >"$DIR/floor.out"
    read -r secs rss_kib < <(tail -1 "$DIR/time.out")
    awk -v l="$label" -v c="$count" -v u="$unit" -v t="$secs" -v m="$rss_kib" 'BEGIN {
        if (t <= 0) t = 0.01
        printf "floor %s: %.2f s, %.1f M %s/s, peak RSS %d KiB\n", l, t, c / t / 1e6, u, m }'
}
