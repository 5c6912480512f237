# collector-lines.sh — attribution is exact (docs/collector.md §5): the
# source line ciat and cdat give every access is the line the compiler put
# on the instruction that made it, whatever calls sit between the accesses.
# Kernels full of them (tests/cli/collector/lines.c: mutex lock, trylock and
# unlock, condition variables, semaphores, reader-writer and spin locks, a
# barrier, malloc/realloc/free, an atomic, C library calls and a qsort
# callback; linesomp.c: the OpenMP runtime's critical sections, locks,
# barriers, tasks, a dynamic loop and a reduction; linescxx.cc: C++'s
# invokes, std::mutex, std::condition_variable, new and delete), built with
# -g at -O1 and -O2, traced.
#
# The expected lines come from the compiler, not from this file: every
# program is linked with linelog.c, which wraps the runtime's access calls
# and logs, per thread, each record with the return address of the call
# that asked for it; smait-instrument gives that call the debug location of
# the instruction it records, so addr2line on the binary (its DWARF line
# table) gives the compiler's line of every access. lines.awk then matches
# each trace to one thread's log (the same accesses in the same order, by
# unfolded address), takes the pc of each access as ciat and cdat do (the
# instruction fetched at its clock: smait schedule --fetches, the shared
# scheduler), looks it up in the map's line lines, and compares; it also
# checks every line ciat --by-code names and every data miss cdat
# --miss-trace gives a pc. With the collector before calls and fall-throughs
# were stepped over (issue 40), 350 to 500 accesses of each kernel, a third
# to a half, were reported at another line, mostly the one before theirs.
collector_setup || return 0
if ! command -v addr2line > /dev/null; then
    echo "(no addr2line (binutils): the line checks are skipped)"
    return 0
fi

syscc=cc
command -v cc > /dev/null || syscc=clang
check "linelog.c builds with the system's compiler (not instrumented)" \
    "$syscc" -O1 -c "$D/linelog.c" -o linelog.o <<'EOF'
--- exit 0
EOF
export CFG=$CLI_DIR/../../configs/4x4.ini

# lines PROGRAM: run it with its log, analyse its traces, compare (lines.awk).
lines() {
    local p=$1 map set start
    rm -rf "$p.logs" && mkdir "$p.logs" || return 1
    LINELOG_DIR=$p.logs TRACE_FILE_NAME=$p SMAIT_QUIET=1 "./$p" > /dev/null || return 1
    map=$(ls "$p".*.map) && set=${map%.map}
    start=$(nm "$p" | awk '$3 == "__executable_start" { print $1 }')
    cat "$p".logs/*.log | awk '{ print $4 }' | sort -u > "$p.calls"
    while read -r c; do printf '0x%x\n' $((c + 0x${start:-0} - 1)); done < "$p.calls" |
        addr2line -e "$p" | sed 's/ (discriminator [0-9]*)//' | paste -d' ' "$p.calls" - > "$p.a2l"
    smait schedule --fetches "$set" > "$p.sched" &&
        ciat -q --by-code=1000 "$set" &&
        cdat -q --miss-trace "$p.misses" "$set" "$CFG" || return 1
    awk -v MAP="$map" -v A2L="$p.a2l" -v SCHED="$p.sched" -v CIAT="$set.ciat_report" -v MISSES="$p.misses" \
        -f "$D/hex.awk" -f "$D/lines.awk" "$map" "$p.a2l" "$p".logs/*.log "$p.sched" "$set.ciat_report" "$p.misses"
}
export -f lines
WRAP=-Wl,--wrap=__smait_mem,--wrap=__smait_atomic_end,--wrap=__smait_relaxed_end

# RESULT THREADS: the expected output of lines for a set of THREADS traces.
result() {
    cat <<EOF
traces $1, each the log of one thread: yes
accesses checked: yes
accesses right after a call: yes
accesses with no pc: 0
access sites (pcs) the compiler gives a line, 3 in 4 at least: yes
accesses at a line other than the compiler's: 0
ciat --by-code lines checked: yes
cdat data misses checked: yes
--- exit 0
EOF
}

for opt in -O1 -O2; do
    check "lines.c $opt: smait-cc -g builds it with the log" \
        smait-cc -g $opt -pthread "$D/lines.c" linelog.o $WRAP -o lines$opt <<'EOF'
--- exit 0
EOF
    check "lines.c $opt: every access at the compiler's line of its instruction" \
        bash -c "lines lines$opt" < <(result 4)
done

for opt in -O1 -O2; do
    check "linescxx.cc $opt: smait-c++ -g builds it with the log" \
        smait-c++ -g $opt -pthread "$D/linescxx.cc" linelog.o $WRAP -o linescxx$opt <<'EOF'
--- exit 0
EOF
    check "linescxx.cc $opt: every access at the compiler's line of its instruction" \
        bash -c "lines linescxx$opt" < <(result 4)
done

if ! smait-cc -g -O1 -fopenmp "$D/linesomp.c" linelog.o $WRAP -o linesomp-O1 2> omp.build; then
    echo "(smait-cc -fopenmp cannot build here, no libomp? the OpenMP checks are skipped)"
    cat omp.build
else
    for opt in -O1 -O2; do
        check "linesomp.c $opt: smait-cc -g -fopenmp builds it with the log" \
            smait-cc -g $opt -fopenmp "$D/linesomp.c" linelog.o $WRAP -o linesomp$opt <<'EOF'
--- exit 0
EOF
        check "linesomp.c $opt: every access at the compiler's line of its instruction" \
            bash -c "lines linesomp$opt" < <(result 3)
    done
fi
