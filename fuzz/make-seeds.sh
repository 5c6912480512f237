#!/usr/bin/env bash
# make-seeds.sh — the harnesses' starting inputs, made from the test inputs.
#
#   BIN=build/bin fuzz/make-seeds.sh OUTDIR
#
# OUTDIR/<harness>/ gets one file per seed, named by its checksum (a seed
# made twice is kept once). Sources: the text-form traces of tests/cli/**
# and examples/ (assembled with smait asm into binary traces and sets), the
# configurations of configs/ and tests/cli/**, and what ciat writes for the
# example sets (memory usage files, communication event traces), with the
# tdat event traces of tests/cli/tdat/. Each harness's input layout (flag
# bytes, separators) is described at the top of its fuzz/fuzz_NAME.c.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: BIN=build/bin fuzz/make-seeds.sh OUTDIR}
BIN=${BIN:?set BIN to the built tools}
work=$(mktemp -d "${TMPDIR:-/tmp}/dsm-seeds.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"/{trace_reader,smait_asm,cdat_config,memusage,tdat,ciat_sched,cdat_sim,ciat_merge,cdat_merge,addr_map,report_diff}
LIMIT=65536     # bytes: larger seeds only slow the fuzzers down

# seed HARNESS: stdin becomes one seed of HARNESS (unless too large).
seed() {
    cat >"$work/seed"
    local n
    n=$(wc -c <"$work/seed")
    [ "$n" -gt 0 ] && [ "$n" -le "$LIMIT" ] || return 0
    cp "$work/seed" "$out/$1/$(cksum <"$work/seed" | tr ' ' '-')"
}

# set_seed HARNESS OPTS TRACE...: the option bytes OPTS (printf escapes),
# then the traces separated by #TRACE# lines, as one seed of HARNESS.
set_seed() {
    local h=$1 opts=$2 first=1 f
    shift 2
    {
        printf "$opts"
        for f in "$@"; do
            [ $first = 1 ] || printf '#TRACE#\n'
            first=0
            cat "$f"
        done
    } | seed "$h"
}

cd "$here"
texts=$(ls tests/cli/{schedule,slice,ciat,cdat,cdat-iosim,smait,tdat}/*.txt examples/*.txt 2>/dev/null)
i=0
for txt in $texts; do
    seed smait_asm <"$txt"
    i=$((i + 1))
    d="$work/set$i"
    mkdir -p "$d"
    "$BIN/smait" asm "$txt" "$d/t" 2>/dev/null || continue
    if [ -f "$d/t" ]; then
        traces="$d/t"
    else
        first=$(ls "$d"/t.*.0 2>/dev/null | head -n 1)
        [ -n "$first" ] || continue
        p=${first%.0}
        p=${p##*.}
        traces=$(for ((k = 0; k < p; k++)); do echo "$d/t.$p.$k"; done)
    fi
    # trace reader: each trace, strict and lenient with a small buffer, and gzipped
    for f in $traces; do
        { printf '\000'; cat "$f"; } | seed trace_reader
        { printf '\014'; cat "$f"; } | seed trace_reader
        { printf '\000'; gzip -c "$f"; } | seed trace_reader
        # delta coded (formats/SMAIT.md §11.1), as the collector's compressed traces are
        cp "$f" "$work/dc" && "$BIN/smait" convert --records delta --to gzip "$work/dc" 2>/dev/null &&
            { printf '\000'; gzip -dc "$work/dc.gz"; } | seed trace_reader
        rm -f "$work/dc" "$work/dc.gz"
    done
    # ciat: the set in thread mode (strict, lenient) and in slice mode on 2
    # processors; in thread mode and in slice mode on 3, again with --workers 2
    n=$(echo "$traces" | wc -w)
    [ "$n" -le 8 ] || continue
    for opts in '\000\000' '\001\000' '\005\001' '\044\005' '\000\100' '\106\102'; do
        set_seed ciat_sched "$opts" $traces
    done
    # cdat: the set on 1x1 (protocol 1), on 2x2 with protocol 4 and small
    # 2-way caches (and in one pass with protocol 5), and on 4x2 with
    # protocol 8, an interconnect cache, first-touch placement, general and
    # detailed traces (and in one pass with protocol 1); then the same three
    # with an L2: exclusive, non-inclusive, inclusive
    for opts in '\000\000\000\000' '\223\025\000\001' '\277\126\203\001' \
                '\000\000\000\006' '\223\025\000\003' '\277\126\203\005'; do
        set_seed cdat_sim "$opts" $traces
    done
    # ciat's outputs: memory usage files and event traces for the others
    if [ "$n" -gt 1 ] && [ "$traces" != "$d/t" ] && "$BIN/ciat" -q -ciat_events -o "$d" "$d/t.$n" >/dev/null 2>&1; then
        seed memusage <"$d/t.$n.memory"
        # reports for smait diff: the same and another (with a false sharing block), text and JSON
        "$BIN/ciat" -q --json --false-sharing -o "$d" "$d/t.$n" >/dev/null 2>&1 &&
            mv "$d/t.$n.ciat_report" "$d/other" && mv "$d/t.$n.ciat_report.json" "$d/other.json"
        "$BIN/ciat" -q --json -o "$d" "$d/t.$n" >/dev/null 2>&1
        for pair in "t.$n.ciat_report other" "t.$n.ciat_report.json other.json"; do
            read -r x y <<<"$pair"
            [ -f "$d/$x" ] && [ -f "$d/$y" ] || continue
            { printf '\000'; cat "$d/$x"; printf '#REPORT#\n'; cat "$d/$y"; } | seed report_diff
            { printf '\001'; cat "$d/$x"; printf '#REPORT#\n'; cat "$d/$x"; } | seed report_diff
        done
        { printf '\000'; cat "$d/t.$n.ciat_events"; } | seed tdat
        { printf '\104'; cat "$d/t.$n.ciat_events"; } | seed tdat
    fi
    # ciat's partial results: the set in 1, 2 and 3 parts (#PART# between)
    for parts in 1 2 3; do
        ok=1
        for ((i = 0; i < parts; i++)); do
            "$BIN/ciat" -q -o "$d" --shard "$i/$parts" "$d/t.$n" >/dev/null 2>&1 || ok=0
        done
        [ "$ok" = 1 ] || continue
        for ((i = 0; i < parts; i++)); do
            [ "$i" = 0 ] || printf '#PART#\n'
            cat "$d/t.$n.ciat_partial.$i-of-$parts"
        done | seed ciat_merge
        rm -f "$d/t.$n".ciat_partial.*
    done
    # cdat's partial results: the set on 4x4 (with [timing] for 2 parts) in 1, 2 and 4 parts
    for parts in 1 2 4; do
        ok=1
        timing=()
        [ "$parts" = 2 ] && timing=(--set timing.local_memory=100 --set timing.hop=20)
        for ((i = 0; i < parts; i++)); do
            "$BIN/cdat" -q -o "$d" "${timing[@]}" --shard "$i/$parts" "$d/t.$n" configs/4x4.ini >/dev/null 2>&1 || ok=0
        done
        [ "$ok" = 1 ] || continue
        for ((i = 0; i < parts; i++)); do
            [ "$i" = 0 ] || printf '#PART#\n'
            cat "$d/t.$n.cdat_partial.$i-of-$parts"
        done | seed cdat_merge
        rm -f "$d/t.$n".cdat_partial.*
    done
done
for ini in configs/*.ini tests/cli/*/*.ini; do seed cdat_config <"$ini"; done
for map in tests/cli/*/*.map; do seed addr_map <"$map"; done
printf '# smait address map v3\ncode 0x00001000 0x00001100 main /src/prog\nline 0x00001000 0x00001010 4 prog.c\ndata 0x00002000 0x00004000 0x0000555555556000 /src/prog\nobject 0x00002000 0x00002040 table prog.c:3\nheap 0x00003000 0x00003100 2 0x00001004\n# end of address map\n' | seed addr_map
for ev in tests/cli/tdat/*.events tests/cli/tdat/*.trace; do
    { printf '\000'; cat "$ev"; } | seed tdat
    { printf '\003'; cat "$ev"; } | seed tdat
done
for h in "$out"/*/; do echo "$(basename "$h"): $(ls "$h" | wc -l) seeds"; done
