#!/usr/bin/env bash
# make bench: throughput benchmarks. Prints records/s and peak memory; asserts
# nothing about time (timing belongs here, never in tests). bench/README.md
# says what each part measures.
# Everything it prints (standard output and error, together) also goes to
# $BENCH_DIR/RESULTS.md, after a header naming the machine, the commit, the
# compiler and the parameters (bench/results-header.sh); a run that completes
# copies that file to BENCH_RESULTS (default bench/RESULTS.md: generated,
# git-ignored).
# Environment: BIN (tools), BENCH (benchmark programs), BENCH_DIR (scratch,
# default /tmp/dsmtrace-bench), BENCH_MRECORDS (size of the synthetic trace in
# millions of simple records, default 64 = 512 MB), BENCH_KERNEL_MRECORDS
# (mat_mul records per thread, millions, default 16), BENCH_FFT_MRECORDS (the
# FFT-like scaling sets' records in all, millions, default 16),
# BENCH_IRREGULAR_K (the irregular mix's data references in all, thousands,
# default 20000), BENCH_CHASE_K (pointer-chasing steps per thread, thousands,
# default 2500), BENCH_TDAT_MEVENTS (tdat's event trace, millions of events,
# default 100), BENCH_MM_N (the collector's mat_mul, default 256),
# BENCH_PROGRAM_CFLAGS (extra -D flags for bench/programs, default none).
# BENCH_QUICK=1 makes every set small (each of the above that is not set
# gets a small default) to check that the bench runs, in a minute or less:
# its figures measure little but start-up. Every trace is generated here and
# removed again.
set -euo pipefail
: "${BIN:?}" "${BENCH:?}"
if [ "${BENCH_QUICK:-}" = 1 ]; then
    : "${BENCH_MRECORDS:=1}" "${BENCH_KERNEL_MRECORDS:=1}" "${BENCH_FFT_MRECORDS:=1}" "${BENCH_IRREGULAR_K:=200}"
    : "${BENCH_CHASE_K:=50}" "${BENCH_TDAT_MEVENTS:=1}" "${BENCH_MM_N:=32}"
    : "${BENCH_PROGRAM_CFLAGS:=-DKEYS=16384 -DOPS=5000}"
fi
export BENCH_DIR=${BENCH_DIR:-/tmp/dsmtrace-bench}
export BENCH_MRECORDS=${BENCH_MRECORDS:-64} BENCH_KERNEL_MRECORDS=${BENCH_KERNEL_MRECORDS:-16}
export BENCH_FFT_MRECORDS=${BENCH_FFT_MRECORDS:-16} BENCH_IRREGULAR_K=${BENCH_IRREGULAR_K:-20000}
export BENCH_CHASE_K=${BENCH_CHASE_K:-2500} BENCH_TDAT_MEVENTS=${BENCH_TDAT_MEVENTS:-100}
export BENCH_MM_N=${BENCH_MM_N:-256} BENCH_PROGRAM_CFLAGS=${BENCH_PROGRAM_CFLAGS:-}
DIR=$BENCH_DIR
M=$BENCH_MRECORDS
mkdir -p "$DIR"

# The results file: the header, then this script run again (DSM_BENCH_TEED
# set) with its output through tee, then how it ended.
if [ -z "${DSM_BENCH_TEED:-}" ]; then
    results=$DIR/RESULTS.md
    dest=${BENCH_RESULTS:-$(cd "$(dirname "$0")" && pwd)/RESULTS.md}
    BENCH_STARTED=$(date -Iseconds) "$(dirname "$0")/results-header.sh" >"$results.tmp"
    printf '\n```text\n' >>"$results.tmp"
    set +e
    DSM_BENCH_TEED=1 "$0" "$@" 2>&1 | tee -a "$results.tmp"
    status=${PIPESTATUS[0]}
    set -e
    printf '```\n\n' >>"$results.tmp"
    if [ "$status" -eq 0 ]; then
        echo "Finished $(date -Iseconds)." >>"$results.tmp"
    else
        echo "**Incomplete:** the bench stopped with exit status $status ($(date -Iseconds))." >>"$results.tmp"
    fi
    mv "$results.tmp" "$results"
    if [ "$status" -eq 0 ] && [ "$dest" != "$results" ]; then
        cp "$results" "$dest.tmp.$$" && mv "$dest.tmp.$$" "$dest"
        echo "results: $dest (and $results)"
    else
        echo "results: $results" >&2
    fi
    exit "$status"
fi
trap 'rm -f "$DIR"/le.bin "$DIR"/be.bin "$DIR"/le.bin.gz' EXIT

echo "== trace reader: plain scan of a ${M}M-record trace in the page cache"
"$BENCH/bench_reader" gen "$DIR/le.bin" "$M"
"$BENCH/bench_reader" gen "$DIR/be.bin" "$M" big
cat "$DIR/le.bin" "$DIR/be.bin" >/dev/null   # warm the page cache
for run in 1 2 3; do "$BENCH/bench_reader" scan "$DIR/le.bin" | grep '^scan ('; done
echo "-- big-endian (byte swap on read)"
"$BENCH/bench_reader" scan "$DIR/be.bin" | grep '^scan ('
echo "-- gzip (bounded by zlib's inflate)"
gzip -1 -c "$DIR/le.bin" > "$DIR/le.bin.gz"
"$BENCH/bench_reader" scan "$DIR/le.bin.gz" | grep '^scan (next)'
echo "-- smait stat (full validation and per-kind counts)"
/usr/bin/env time -f "smait stat: %e s, peak RSS %M KiB" "$BIN/smait" stat "$DIR/le.bin" >/dev/null

# ---- scheduler and ciat on mat_mul-like trace sets (typical locality) ----
MK=$BENCH_KERNEL_MRECORDS               # million records per thread, 4 threads
"$BENCH/gen_kernel" "$DIR/mm" 4 "$MK"
"$BENCH/gen_kernel" "$DIR/mm" 64 $(( MK / 16 > 0 ? MK / 16 : 1 ))
trap 'rm -f "$DIR"/le.bin "$DIR"/be.bin "$DIR"/le.bin.gz "$DIR"/mm.4.* "$DIR"/mm.64.*' EXIT
cat "$DIR"/mm.4.* "$DIR"/mm.64.* >/dev/null
echo "== scheduler only (no tool attached), -p"
for set in mm.4 mm.64; do "$BENCH/bench_sched" "$DIR/$set"; done

# ciat_run LABEL SET [OPTION...]: one ciat run, its records/s, peak RSS and
# RSS against the bytes it touched beside the bound (bench/ciat-run.sh).
# shellcheck source=ciat-run.sh
. "$(dirname "$0")/ciat-run.sh"
# shellcheck source=floor-run.sh
. "$(dirname "$0")/floor-run.sh"

echo "== ciat (targets: >= 50 M records/s on mat_mul (4 threads) and on the irregular mix,"
echo "   >= 40 M at 64 threads, >= 25 M at 256; peak RSS <= 4 x touched bytes + 64 MiB)"
for set in mm.4 mm.64; do
    for run in 1 2; do ciat_run "mat_mul $set" "$DIR/$set" -p; done
done
echo "-- the analysis beside the scheduler against one thread (--workers 1; docs/scheduler.md §14)"
ciat_workers "mat_mul mm.4" "$DIR/mm.4" -p
echo "-- irregular footprint (bench/gen_irregular)"
"$BENCH/gen_irregular" "$DIR/irr" 4 $(( BENCH_IRREGULAR_K / 4 > 0 ? BENCH_IRREGULAR_K / 4 : 1 ))
trap 'rm -f "$DIR"/le.bin "$DIR"/be.bin "$DIR"/le.bin.gz "$DIR"/mm.4.* "$DIR"/mm.64.* "$DIR"/irr.* "$DIR"/irh.* "$DIR"/chase.* "$DIR"/fft.*' EXIT
for run in 1 2; do ciat_run "irregular irr.4" "$DIR/irr.4" -p; done
ciat_workers "irregular irr.4" "$DIR/irr.4" -p
for n in 2 4; do ciat_shards "irregular irr.4" "$DIR/irr.4" "$n" -p; done
# The floor: ciat's communication analysis alone, last writer and readers per
# word in dense pages (bench/ciat_floor; no strings, usage or instruction stream).
irr_records=$(( $(cat "$DIR"/irr.4.[0-9]* | wc -c) / 8 ))
for run in 1 2; do
    floor_run "(bench/ciat_floor) irregular irr.4" "$irr_records" records "$BENCH/ciat_floor" "$DIR/irr.4"
done
rm -f "$DIR"/irr.*
echo "-- the held-out irregular mix (issue 42): 8 MiB private streams (larger than the last-level"
echo "   cache), 8-byte random words over the 256 MiB region every thread reaches; 4, 64 and 256 threads,"
echo "   each with the scheduler alone (bench/bench_sched: the floor of any split) and the run in parts"
for threads in 4 64 256; do
    k=$(( BENCH_IRREGULAR_K / threads > 0 ? BENCH_IRREGULAR_K / threads : 1 ))
    "$BENCH/gen_irregular" -s 8 -w 8 "$DIR/irh" "$threads" "$k"
    "$BENCH/bench_sched" "$DIR/irh.$threads"
    ciat_workers "held-out irregular irh.$threads" "$DIR/irh.$threads" -p
    ciat_shards "held-out irregular irh.$threads" "$DIR/irh.$threads" 2 -p
    rm -f "$DIR"/irh.*
done
echo "-- pointer chasing (bench/gen_chase)"
"$BENCH/gen_chase" "$DIR/chase" 4 "$BENCH_CHASE_K"
for run in 1 2; do ciat_run "pointer chasing chase.4" "$DIR/chase.4" -p; done
rm -f "$DIR"/chase.*
echo "-- thread-count scaling: the same FFT-like work split among 1-256 threads (bench/gen_fft)"
for threads in 1 4 16 64 256; do
    "$BENCH/gen_fft" "$DIR/fft" "$threads" "$BENCH_FFT_MRECORDS"
    "$BENCH/bench_sched" "$DIR/fft.$threads"      # the scheduler alone, no tool attached
    if [ "$threads" -ge 64 ]; then
        ciat_workers "fft, $threads threads" "$DIR/fft.$threads" -p
        ciat_shards "fft, $threads threads" "$DIR/fft.$threads" 2 -p
    else
        ciat_run "fft, $threads threads" "$DIR/fft.$threads" -p
    fi
    rm -f "$DIR"/fft.*
done
echo "-- slice mode (-i): per record at most 1.5x the time of thread mode (-p) on the same records"
echo "   (the barriers are time-stamped 1 ms per row, so the processes' rows overlap in time)"
for mode in "-p" "-i 4" "-i 2" "-i 4 -a" "-i 4 -rr_interleaving"; do
    /usr/bin/env time -f "%e %M" -o "$DIR/time.out" "$BIN/ciat" $mode -q -o "$DIR" "$DIR/mm.4"
    read -r secs rss_kib < "$DIR/time.out"
    util=$(awk '$1 == "RxTxL09:" {print $8}' "$DIR/mm.4.ciat_report")
    awk -v m="$mode" -v r="$(( $(cat "$DIR"/mm.4.[0-9]* | wc -c) / 8 ))" -v t="$secs" -v k="$rss_kib" -v u="${util:--}" \
        'BEGIN { if (t <= 0) t = 0.01; printf "ciat %-22s %.2f s: %.1f M records/s, peak RSS %d KiB, utilization %s\n", m, t, r / t / 1e6, k, u }'
done
echo "-- ciat on gzip input (bounded by zlib)"
gzip -1 -k -f "$DIR"/mm.4.0 "$DIR"/mm.4.1 "$DIR"/mm.4.2 "$DIR"/mm.4.3
mkdir -p "$DIR/gz" && for t in 0 1 2 3; do mv "$DIR/mm.4.$t.gz" "$DIR/gz/mm.4.$t"; done
/usr/bin/env time -f "ciat gzip mm.4: %e s, peak RSS %M KiB" "$BIN/ciat" -p -q -o "$DIR" "$DIR/gz/mm.4"
rm -rf "$DIR/gz" "$DIR"/mm.4.ciat_report "$DIR"/mm.4.memory "$DIR"/mm.64.ciat_report "$DIR"/mm.64.memory "$DIR/time.out" \
    "$DIR/floor.out"

# ---- cdat ----
"$(dirname "$0")/run-cdat-bench.sh"
"$(dirname "$0")/run-cdat-multi-bench.sh"

# ---- the trace collector (smait-cc): overhead against the plain program ----
"$(dirname "$0")/run-collector-bench.sh"

# ---- ciat and cdat on traces of programs built with the collector ----
"$(dirname "$0")/run-programs-bench.sh"

# ---- tdat on a synthetic ciat event trace ----
# Target (issue 6): 100 M events of a ~1 GB text trace in under a minute;
# memory independent of the number of events (8 bytes per bin, plus buffers).
# bench/gen_events writes ciat's format ("clock event thread degree", 8
# threads, clocks interleaved out of order): 100 M events are ~1.6 GB.
ME=$BENCH_TDAT_MEVENTS
trap 'rm -f "$DIR"/le.bin "$DIR"/be.bin "$DIR"/le.bin.gz "$DIR"/mm.4.* "$DIR"/mm.64.* "$DIR"/tdat.*' EXIT
"$BENCH/gen_events" "$DIR/tdat.events" "$ME"
head -n $(( ME * 100000 + 3 )) "$DIR/tdat.events" >"$DIR/tdat.small"    # the first tenth
gzip -1 -c "$DIR/tdat.small" >"$DIR/tdat.small.gz"
cat "$DIR/tdat.events" >/dev/null
# tdat_run LABEL FILE TDAT-ARGS...: time it, print events/s, MB/s and peak RSS.
tdat_run() {
    local label=$1 file=$2
    shift 2
    /usr/bin/env time -f "%e %M" -o "$DIR/tdat.time.out" "$BIN/tdat" "$@" >"$DIR/tdat.freq"
    read -r secs rss_kib < "$DIR/tdat.time.out"
    awk -v l="$label" -v t="$secs" -v m="$rss_kib" -v b="$(wc -c <"$file")" \
        -v e="$(awk '$1 == "events" { print $2 }' "$DIR/tdat.freq")" \
        -v k="$(awk '$1 == "#" && $2 == "lines:" { print $4 }' "$DIR/tdat.freq")" \
        -v n="$(awk '$1 == "bins" { print $2 }' "$DIR/tdat.freq")" 'BEGIN {
        if (t <= 0) t = 0.01
        printf "tdat %s: %d lines (%.0f MB), %d events kept, %d bins in %.2f s: %.1f M lines/s, %.0f MB/s," \
               " peak RSS %d KiB\n", l, k, b / 1e6, e, n, t, k / t / 1e6, b / t / 1e6, m }'
}
echo "== tdat (target: 100 M events of a ~1 GB text trace in < 60 s; RSS independent of events)"
for run in 1 2; do
    tdat_run "w 1000" "$DIR/tdat.events" "$DIR/tdat.events" "$DIR/tdat.time" 1000 8
done
tdat_run "w 1000, first tenth" "$DIR/tdat.small" "$DIR/tdat.small" "$DIR/tdat.time" 1000 8
tdat_run "w 1000, -f 2=WAR" "$DIR/tdat.events" -f 2=WAR "$DIR/tdat.events" "$DIR/tdat.time" 1000 8
tdat_run "w 1000, -c 3 (field lookup)" "$DIR/tdat.events" -c 3 "$DIR/tdat.events" "$DIR/tdat.time" 1000 8
tdat_run "w 1000, --svg" "$DIR/tdat.events" --svg "$DIR/tdat.svg" "$DIR/tdat.events" "$DIR/tdat.time" 1000 8
# 18.76 M bins, past the default limit of 2^24: raised on purpose (a bin per clock).
tdat_run "w 1 (a bin per clock: memory grows with bins)" "$DIR/tdat.events" --max-bins 33554432 "$DIR/tdat.events" "$DIR/tdat.time" 1 8
tdat_run "w 1000, first tenth, gzip" "$DIR/tdat.small.gz" "$DIR/tdat.small.gz" "$DIR/tdat.time" 1000 8
rm -f "$DIR"/tdat.*
