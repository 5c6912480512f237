#!/usr/bin/env bash
# cdat throughput (make bench runs it from run-bench.sh): data references per
# second on the report's mat_mul kernel, C = A x B on 256 x 256 doubles
# (bench/gen_kernel): computed in 32 x 32 tiles (typical locality: about 5% of
# the data references miss in 64 KiB), and naive (the column walk of B misses
# on every access: about half of all data references miss; the hard case);
# peak memory, directory size, and the cost of writing the detailed trace.
# Targets (issue 5): 1x1 with a 64 KiB 2-way d-cache >= 40 M data refs/s;
# 4x4 with 16 threads >= 15 M/s; the detailed trace at most 3x slower.
# Then the irregular mix (bench/gen_irregular: private streams, a hot shared
# region, random words over 256 MiB): its data references alone
# (bench/data_refs_only: no fetches) at 1x1, beside Dinero IV on the same
# references when dineroIV is on the PATH (or DINERO names it; its binary
# input form, bench/data_refs_only --dinero) and beside a bare model of the
# same cache (bench/cache_floor: the floor), and the whole mix at 4x4 with 16
# threads beside its own floor (bench/dsm_floor); each with the directory's
# memory (CDAT_DIRECTORY_STATS): its table's bytes per line the caches hold at
# the end, and its line map's bytes per line ever requested. Targets (issue
# 15): 1x1 >= 70 M data refs/s, table <= 32 bytes per cached line; 4x4 with 16
# threads >= 30 M refs/s.
# Environment: BIN, BENCH, BENCH_DIR as run-bench.sh; DINERO: a Dinero IV
# binary to compare with (default: dineroIV on the PATH); BENCH_IRREGULAR_K:
# thousands of data references of the irregular runs (default 20000).
set -euo pipefail
: "${BIN:?}" "${BENCH:?}"
DIR=${BENCH_DIR:-/tmp/dsmtrace-bench}
CONFIGS=$(cd "$(dirname "$0")/../configs" && pwd)
mkdir -p "$DIR"
trap 'rm -f "$DIR"/cd.1.* "$DIR"/cdb.1.* "$DIR"/cd.16.* "$DIR"/cd-*.ini "$DIR/time.out" "$DIR"/ir*.1.* \
    "$DIR"/ir.16.* "$DIR/dir.out" "$DIR/ir.din" "$DIR/din.out" "$DIR/floor.out"' EXIT
MK=${BENCH_KERNEL_MRECORDS:-16}
"$BENCH/gen_kernel" "$DIR/cdb" 1 "$MK" blocked
"$BENCH/gen_kernel" "$DIR/cd" 1 "$MK"
"$BENCH/gen_kernel" "$DIR/cd" 16 $(( MK / 8 > 0 ? MK / 8 : 1 ))
cat "$DIR"/cdb.1.* "$DIR"/cd.1.* "$DIR"/cd.16.* >/dev/null

# cdat_run LABEL SET CONFIG [OPTION...]: one cdat run, its data refs/s and
# peak RSS; sets $secs (wall) and $cpu (user + system) (bench/cdat-run.sh).
# shellcheck source=cdat-run.sh
. "$(dirname "$0")/cdat-run.sh"
# shellcheck source=floor-run.sh
. "$(dirname "$0")/floor-run.sh"

echo "== cdat (targets: 1x1 >= 40 M data refs/s; 4x4 with 16 threads >= 15 M/s)"
for r in 1 2 3; do cdat_run "1x1 tiled mat_mul 1 thread" "$DIR/cdb.1" "$CONFIGS/1x1.ini" -p; done
echo "-- the hard case: naive mat_mul, half of the data references miss"
for r in 1 2; do cdat_run "1x1 mat_mul 1 thread" "$DIR/cd.1" "$CONFIGS/1x1.ini" -p; done
echo "-- for comparison, the same trace with a 1 MiB d-cache (B fits: under 1% of references miss)"
sed -e '/^\[dcache\]/,/^\[/s/^size = 64K/size = 1M/' "$CONFIGS/1x1.ini" > "$DIR/cd-1m.ini"
for r in 1 2; do cdat_run "1x1 (1 MiB d-cache) mat_mul 1 thread" "$DIR/cd.1" "$DIR/cd-1m.ini" -p; done
for r in 1 2; do cdat_run "4x4 mat_mul 16 threads" "$DIR/cd.16" "$CONFIGS/4x4.ini" -p; done
plain=$secs plain_cpu=$cpu
echo "-- the detailed trace (target: at most 3x slower), then with the general traces too"
echo "   (after a sync: the earlier steps' gigabytes of dirty pages would otherwise throttle"
echo "   the writes, and the wall time would measure the disk, not cdat; CPU time is shown too)"
sed -e 's/^detailed = 0/detailed = 1/' "$CONFIGS/4x4.ini" > "$DIR/cd-detailed.ini"
sync
cdat_run "4x4 16 threads, detailed trace" "$DIR/cd.16" "$DIR/cd-detailed.ini" -p
awk -v a="$secs" -v b="$plain" -v c="$cpu" -v d="$plain_cpu" \
    'BEGIN { printf "detailed trace: %.2fx the time without it (CPU time %.2fx)\n", a / b, c / d }'
du -h "$DIR"/cd.16.detailed | sed 's/^/detailed trace bytes: /'
sed -e 's/^general = 0/general = 1/' "$DIR/cd-detailed.ini" > "$DIR/cd-traces.ini"
sync
cdat_run "4x4 16 threads, detailed and general traces" "$DIR/cd.16" "$DIR/cd-traces.ini" -p
awk -v a="$secs" -v b="$plain" -v c="$cpu" -v d="$plain_cpu" \
    'BEGIN { printf "both traces: %.2fx the time without them (CPU time %.2fx)\n", a / b, c / d }'
du -ch "$DIR"/cd.16.detailed "$DIR"/cd.16.general.* | tail -1 | sed 's/^/trace bytes: /'
rm -f "$DIR"/cd.16.detailed "$DIR"/cd.16.general.* "$DIR"/cd.*.cdat_report

echo "== cdat on the irregular mix (targets: 1x1 data references alone >= 70 M data refs/s and"
echo "   directory table <= 32 bytes per cached line; 4x4 with 16 threads >= 30 M refs/s)"
IK=${BENCH_IRREGULAR_K:-20000}
"$BENCH/gen_irregular" "$DIR/irall" 1 "$IK"
"$BENCH/data_refs_only" "$DIR/irall.1.0" "$DIR/ir.1.0"
rm -f "$DIR/irall.1.0"
"$BENCH/gen_irregular" "$DIR/ir" 16 $(( IK / 16 ))
cat "$DIR"/ir.1.* "$DIR"/ir.16.* >/dev/null

# dir_stats SET: the directory's memory at the end of a run of SET (stderr of
# cdat under CDAT_DIRECTORY_STATS, in $DIR/dir.out).
dir_stats() {
    awk '/^cdat: directory:/ { printf "directory: %d lines ever requested, %d table entries, %d cached lines;" \
        " table %.1f bytes per cached line, line map %.2f bytes per line ever requested\n", $4, $6, $12,
        $8 / ($12 ? $12 : 1), $10 / ($4 ? $4 : 1) }' "$DIR/dir.out"
}
runi() {    # LABEL SET CONFIG
    CDAT_DIRECTORY_STATS=1 cdat_run "$1" "$DIR/$2" "$3" -p 2>"$DIR/dir.out"
    dir_stats
}
for r in 1 2 3; do runi "1x1 irregular data references, 1 thread" ir.1 "$CONFIGS/1x1.ini"; done
# The floor: a bare model of the same d-cache (bench/cache_floor), no protocol,
# statistics or scheduler: what simulating the cache alone costs here.
for r in 1 2 3; do
    floor_run "(bench/cache_floor) 1x1 irregular data references" "$IK"000 "data refs" \
        "$BENCH/cache_floor" "$DIR/ir.1" 64 2 64
done
awk '{ print "floor misses:           " $4 }' "$DIR/floor.out"
awk '$1 == "RxTxL01:" { print "cdat data misses:       " $9 }' "$DIR/ir.1.cdat_report"
DINERO=${DINERO:-$(command -v dineroIV || true)}
if [ -n "$DINERO" ]; then
    # The same references in Dinero IV's binary input form (bench/data_refs_only
    # --dinero), the same cache; Dinero IV reads them from standard input.
    "$BENCH/data_refs_only" --dinero "$DIR/ir.1.0" "$DIR/ir.din"
    for r in 1 2 3; do
        /usr/bin/env time -f "%e %M" -o "$DIR/time.out" "$DINERO" -l1-dsize 64k -l1-dassoc 2 -l1-dbsize 64 \
            -l1-drepl l -l1-dfetch d -l1-dwalloc a -l1-dwback a -informat b <"$DIR/ir.din" >"$DIR/din.out"
        read -r dsecs drss <"$DIR/time.out"
        awk -v t="$dsecs" -v m="$drss" -v d="$IK" 'BEGIN { printf "dineroIV 1x1 irregular data references: %.2f s, " \
            "%.1f M data refs/s, peak RSS %d KiB\n", t, d * 1000 / t / 1e6, m }'
    done
    # It must agree with cdat on the misses (a check on the comparison, not only a figure).
    awk '$1 == "Demand" && $2 == "Misses" { print "dineroIV demand misses: " $3 }' "$DIR/din.out"
else
    echo "(dineroIV is not on the PATH and DINERO is not set: no Dinero IV comparison)"
fi
for r in 1 2; do runi "4x4 irregular mix, 16 threads" ir.16 "$CONFIGS/4x4.ini"; done
# Against one thread (--workers 1): what the simulation beside the scheduler
# gains (docs/scheduler.md §14).
beside=$secs
cdat_run "4x4 irregular mix, 16 threads, --workers 1" "$DIR/ir.16" "$CONFIGS/4x4.ini" -p --workers 1
awk -v a="$beside" -v b="$secs" -v w="$(nproc)" 'BEGIN {
    printf "cdat 4x4 irregular mix, 16 threads: default (%d processors) / --workers 1: %.2fx the time\n", w, a / (b > 0 ? b : 0.01) }'
# --jobs 2 and 4 (docs/sharding.md §8): the machine in parts, each beside the
# scheduler, against the default run above (CPU and peak RSS beside).
for n in 2 4; do
    whole=$beside
    cdat_run "4x4 irregular mix, 16 threads, --jobs $n" "$DIR/ir.16" "$CONFIGS/4x4.ini" -p --jobs "$n"
    awk -v n="$n" -v a="$secs" -v b="$whole" -v c="$cpu" -v w="$(nproc)" 'BEGIN {
        printf "cdat 4x4 irregular mix, 16 threads: --jobs %d / default on %d processors: %.2fx the time" \
               " (%.2f s of CPU)\n", n, w, a / (b > 0 ? b : 0.01), c }'
done
# --shard 2 and 4 (docs/sharding.md §9): the parts as processes one after
# another, each part's CPU and peak RSS against the whole run's.
for n in 2 4; do cdat_shards "4x4 irregular mix, 16 threads" "$DIR/ir.16" "$CONFIGS/4x4.ini" "$n" -p; done
# Its floor: the data side of 16 processors' d-caches and a full-map
# directory (bench/dsm_floor): no fetches, protocol variants or statistics.
for r in 1 2; do
    floor_run "(bench/dsm_floor) 4x4 irregular mix, data side, 16 threads" "$IK"000 "data refs" \
        "$BENCH/dsm_floor" "$DIR/ir.16"
done
# An L2 behind every processor's L1s ([l2], docs/cdat-protocol.md §9): the
# same sets with a 1 MiB 16-way L2 per processor, each policy, against the
# one-level machine run once per set just before them; then the three-level
# machine of issue 44 (target: at most 1.5x the one-level time): the
# non-inclusive L2 and a 32 MiB 16-way memory-side L3 per node ([l3], §10),
# with configs/server2s.ini's [timing], in accounting mode and then in
# feedback mode (docs/cdat-report.md, "Feedback": its cost against
# accounting's, and its estimate).
echo "== cdat with an L2 (1 MiB, 16 ways), and with an L3 (32 MiB, 16 ways) and [timing], against the one-level machine"
l2_vs_plain() {    # LABEL SET CONFIG
    cdat_run "$1, one level" "$DIR/$2" "$3" -p
    local one=$secs incl
    for incl in non_inclusive inclusive exclusive; do
        sed -e '$a[l2]' -e '$asize = 1M' -e '$aassoc = 16' -e "\$ainclusion = $incl" "$3" >"$DIR/cd-l2.ini"
        cdat_run "$1, L2 $incl" "$DIR/$2" "$DIR/cd-l2.ini" -p
        awk -v l="$1" -v i="$incl" -v a="$secs" -v b="$one" 'BEGIN {
            printf "cdat %s: with a %s L2 %.2fx the one-level time\n", l, i, a / (b > 0 ? b : 0.01) }'
    done
    sed -e '$a[l2]' -e '$asize = 1M' -e '$aassoc = 16' -e '$a[l3]' -e '$asize = 32M' -e '$aassoc = 16' \
        -e '$a[timing]' -e '$al2_hit = 14' -e '$alocal_l3 = 60' -e '$aremote_l3 = 240' -e '$alocal_memory = 300' \
        -e '$alocal_cache = 120' -e '$aremote_memory = 480' -e '$aremote_cache = 400' -e '$aupgrade = 60' \
        -e '$ahop = 20' "$3" >"$DIR/cd-l3.ini"
    cdat_run "$1, L2 non_inclusive + L3 + [timing]" "$DIR/$2" "$DIR/cd-l3.ini" -p
    awk -v l="$1" -v a="$secs" -v b="$one" 'BEGIN {
        printf "cdat %s: with an L2, an L3 and [timing] %.2fx the one-level time\n", l, a / (b > 0 ? b : 0.01) }'
    # The same machine in feedback mode (the stalls move the clocks), against
    # the accounting run: its cost, and how the estimate moves.
    local acc=$secs est
    est=$(awk '/^# summary: estimated_time/ { print $4 }' "$DIR/$2.cdat_report")
    cdat_run "$1, L2 + L3 + [timing] mode = feedback" "$DIR/$2" "$DIR/cd-l3.ini" -p --set timing.mode=feedback
    awk -v l="$1" -v a="$secs" -v b="$acc" -v e="$est" \
        -v f="$(awk '/^# summary: estimated_time/ { print $4 }' "$DIR/$2.cdat_report")" 'BEGIN {
        printf "cdat %s: feedback %.2fx the accounting time; estimated_time %d (accounting %d)\n", l,
               a / (b > 0 ? b : 0.01), f, e }'
}
"$BENCH/gen_kernel" "$DIR/cdb" 16 $(( MK / 8 > 0 ? MK / 8 : 1 )) blocked
l2_vs_plain "1x1 tiled mat_mul 1 thread" cdb.1 "$CONFIGS/1x1.ini"
l2_vs_plain "1x1 mat_mul 1 thread" cd.1 "$CONFIGS/1x1.ini"
l2_vs_plain "4x4 tiled mat_mul 16 threads" cdb.16 "$CONFIGS/4x4.ini"
l2_vs_plain "4x4 irregular mix, 16 threads" ir.16 "$CONFIGS/4x4.ini"
rm -f "$DIR"/cdb.16.* "$DIR/cd-l2.ini" "$DIR/cd-l3.ini"
rm -f "$DIR"/ir.*.cdat_report
