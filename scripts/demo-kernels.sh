#!/usr/bin/env bash
# demo-kernels.sh — trace real parallel kernels and analyse them (part of make demo).
#
#   BIN=/abs/path/to/build/bin scripts/demo-kernels.sh
#
# Builds each examples/*.c and *.cc with smait-cc (the collector,
# docs/collector.md; omp_* kernels with -fopenmp),
# runs it with TRACE_FILE_NAME=$DEMO_DIR/<kernel> (one trace per thread,
# <kernel>.P.t, and the address map <kernel>.P.map), then runs ciat
# -ciat_events, cdat on configs/4x4.ini and configs/spp1600.ini, and tdat on
# ciat's event trace, and prints a few lines of each. The kernels are built
# with -O2 but without vectorisation: ciat attributes a wide access to its
# first location only (docs/ciat-report.md, L10–L15), so vector loads would hide communication.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BIN:-$ROOT/build/bin}
DEMO_DIR=${DEMO_DIR:-$(dirname "$BIN")/demo/kernels}
KERNELS=${KERNELS:-mat_mul pipeline counter stencil false_sharing omp_heat omp_tasks atomic_flag work_queue sem_pipeline cxx_histogram hot_lock}
CFLAGS_DEMO="-O2 -g -fno-vectorize -fno-slp-vectorize -pthread"

for tool in smait-cc ciat cdat tdat; do
    [ -x "$BIN/$tool" ] || { echo "demo: $BIN/$tool not found; run 'make' first" >&2; exit 1; }
done
mkdir -p "$DEMO_DIR"
step() { printf '\n==> %s\n' "$*"; }

for k in $KERNELS; do
    extra=""
    case $k in omp_*) extra=" -fopenmp" ;; esac
    src=examples/$k.c
    [ -f "$ROOT/$src" ] || src=examples/$k.cc
    step "$k: smait-cc $CFLAGS_DEMO$extra $src; run; ciat; cdat on 4x4 and spp1600; tdat"
    "$BIN/smait-cc" $CFLAGS_DEMO $extra "$ROOT/$src" -o "$DEMO_DIR/$k"
    rm -f "$DEMO_DIR/$k".[0-9]*
    TRACE_FILE_NAME=$DEMO_DIR/$k SMAIT_QUIET=1 "$DEMO_DIR/$k"
    map=$(ls "$DEMO_DIR/$k".*.map)
    set_=${map%.map}                    # $DEMO_DIR/$k.P
    P=${set_##*.}
    echo "traces: $set_.0 ... $set_.$((P - 1)), address map $map"
    "$BIN/ciat" -q -ciat_events "$set_"
    grep -E '^RxTxL(01|06|10|11|12|14|15):' "$set_.ciat_report"
    "$BIN/cdat" -q "$set_" "$ROOT/configs/4x4.ini" "$ROOT/configs/spp1600.ini"    # both in one pass
    if [ "$k" = false_sharing ]; then      # the diagnosis: false sharing misses, the line and its fields
        mkdir -p "$DEMO_DIR/lines"
        "$BIN/ciat" -q --false-sharing -o "$DEMO_DIR/lines" "$set_"
        echo "ciat --false-sharing ($DEMO_DIR/lines):"
        grep -E '^RxT[0-9x]+L18:|^RxTxL19:' "$DEMO_DIR/lines/${set_##*/}.ciat_report" | head -8
        # where in the code and the data (the map: source lines and variables, built with -g)
        "$BIN/ciat" -q --false-sharing --by-code=2 --by-data=2 -o "$DEMO_DIR/lines" "$set_"
        echo "ciat --by-code --by-data: the false sharing comes from this source line and falls on this variable:"
        grep -E '^RxTxL5[01]: [a-z]+_false_sharing ' "$DEMO_DIR/lines/${set_##*/}.ciat_report"
        "$BIN/cdat" -q --miss-classes --by-code=2 --by-data=2 -o "$DEMO_DIR/lines" "$set_" "$ROOT/configs/4x4.ini"
        echo "cdat --miss-classes --by-code --by-data (4x4): why the misses happen, and where:"
        grep -E '^RxTxL17:|^RxTxL2[01]: [a-z]+_(misses|false_sharing) ' "$DEMO_DIR/lines/${set_##*/}.cdat_report"
    fi
    if [ "$k" = false_sharing ] || [ "$k" = counter ]; then   # the annotated source view (docs/annotate.md)
        mkdir -p "$DEMO_DIR/lines"
        "$BIN/ciat" -q --false-sharing --annotate -o "$DEMO_DIR/lines" "$set_" 2>/dev/null
        echo "ciat --annotate ($DEMO_DIR/lines/${set_##*/}.ciat_annotated): the hottest source lines:"
        sed -n '/^-- source lines/,/^$/p' "$DEMO_DIR/lines/${set_##*/}.ciat_annotated" | sed -n '2,5p'
    fi
    if [ "$k" = hot_lock ]; then   # where the time goes: the locks (docs/ciat-report.md, L52-L55, L59-L63)
        mkdir -p "$DEMO_DIR/lines"
        "$BIN/ciat" -q --locks=3 --critical-path=1 --sync=simulated --timeline "$DEMO_DIR/lines/hot_lock.svg" \
            -o "$DEMO_DIR/lines" "$set_" 2>/dev/null
        echo "ciat --locks=3 --sync=simulated: the locks with the most wait (name, acquisitions, waits, hand-offs, wait and hold cycles):"
        awk '$1 == "RxTxL52:" { for (i = 3; i < NF; i += 2) f[$i] = $(i + 1)
                 printf "  %d. %s (%s) acquisitions %s waits %s handoffs %s wait_cycles %s hold_cycles %s\n", f["rank"],
                        f["name"], f["where"], f["acquisitions"], f["waits"], f["handoffs"], f["wait_cycles"], f["hold_cycles"] }' \
            "$DEMO_DIR/lines/${set_##*/}.ciat_report" | sed 's|(/[^)]*/|(|'
        echo "ciat --locks: the source lines that take each lock most (L61), and which lock follows which (L62):"
        grep -E '^RxTxL6[12]:' "$DEMO_DIR/lines/${set_##*/}.ciat_report" | sed 's|where /[^ ]*/|where |'
        echo "ciat --critical-path: the longest chain of hand-overs, the lock and the source line it runs through (L59, L60, L63):"
        grep -E '^RxTxL59:|^RxTxL60: critical_path_top rank 1 by object|^RxTxL63: critical_path_site rank 1 ' \
            "$DEMO_DIR/lines/${set_##*/}.ciat_report" | sed 's|where /[^ ]*/|where |'
        echo "ciat --timeline: each thread busy or waiting for the lock, and its hand-offs: $DEMO_DIR/lines/hot_lock.svg"
    fi
    for cfg in 4x4 spp1600; do
        echo "cdat $cfg: $(grep -E '^RxTxL01:' "$set_.$cfg.cdat_report")"
    done
    if grep -qv '^#' "$set_.ciat_events"; then
        "$BIN/tdat" -classes 4 "$set_.ciat_events" "$set_.time" 1000 "$P" > "$set_.freq"
        echo "tdat (bins of 1000 clocks): $(grep -E '^(events|bins|avg_rate|max_rate) ' "$set_.freq" | tr '\n' ' ')"
    else
        echo "tdat: no communication events to bin"
    fi
done

cat <<EOF

The traced kernels are in
  $DEMO_DIR
Per kernel K with P threads: K.P.0 ... (traces), K.P.map (address map),
K.P.ciat_report, K.P.4x4.cdat_report, K.P.spp1600.cdat_report,
K.P.ciat_events, and tdat's K.P.time and K.P.freq.
Where to look:
  counter        RAW = the increments: each reads the last thread's value (migratory data)
  false_sharing  ciat: (almost) no communication, no location is shared;
                 ciat --false-sharing: false sharing misses >> true sharing ones,
                 and L19 names the line and the 8 bytes each thread touched;
                 --by-code/--by-data (L50/L51 in ciat, L20/L21 in cdat) name
                 the increment in worker() and the struct array counters[];
                 cdat: misses, the four counters share one cache line
                 (--miss-classes, L17: nearly all false sharing)
  mat_mul        raw_degree 4:... (B is read by all four workers)
  stencil        RAW at the block edges, sweep after sweep
  pipeline       RAW degree 1: every item goes from the producer to the consumer
  omp_heat       the stencil in OpenMP: phases per parallel region, RAW at the
                 block edges and on the residual summed in a critical section
  omp_tasks      a merge sort with OpenMP tasks: the sorted halves go to the
                 thread that merges them (RAW); the task and taskwait records
                 order each merge after its sorts (docs/collector.md §4.1)
  atomic_flag    a release/acquire flag hands 1024 values to 3 consumers: the
                 trace's acquire/release records order the reads after the writes
  work_queue     tasks handed to workers through a condition variable: every
                 element of A read once (RAW degree 1), x by each worker that
                 took a task (degree up to 4: which worker took which task is
                 the run's, recorded in the traces and replayed)
  sem_pipeline   three stages joined by semaphores: RAW 1040 (512 samples,
                 two hops, and the 16 bins main reads), WAR 1008 (a ring slot
                 written again after the next stage read it: 504 per ring)
  cxx_histogram  C++: std::thread, std::mutex and a std::condition_variable
                 barrier; the shared bins migrate (RAW and WAW), then every
                 thread reads them (RAW degree 4); WAW 8192 more: the 4096
                 doubles the main thread zeroed and the workers fill (two
                 4-byte locations each)
  hot_lock       ciat --locks: totals_lock, taken by every worker for every
                 item, ranks first (nearly every acquisition waits and hands
                 the lock over); the cold bucket locks never wait;
                 --critical-path: parallelism about 1.5 of 4 workers, the
                 chain almost all through totals_lock; --timeline draws it
                 (lines/hot_lock.svg)
The traces record every synchronisation with the order it really had
(docs/collector.md section 4.2), and ciat and cdat replay it. They also say
how long the threads waited for a processor: with more threads than free
processors the warnings above say the lock order is partly this machine's
time-slicing; --sync=handovers replays the hand-overs and orders the plain
locks by the pseudo clock (docs/scheduler.md sections 6.1-6.2).
How the collector works and what its traces hold: docs/collector.md.
EOF
