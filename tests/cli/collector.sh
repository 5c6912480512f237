# collector.sh — the trace collector (docs/collector.md): smait-cc builds
# tests/cli/collector/toy.c and kinds.c, whose every access is known; their
# traces must hold exactly the expected records, and ciat must find the
# expected communication. Data addresses are compared by name: the programs
# print where their objects are, and normalize.awk maps each folded trace
# address back through the address map the runtime wrote (so the map is
# checked too). Branch records depend on the compiler's block layout and are
# checked for consistency (no discontinuity), not value by value.
collector_setup || return 0

# dump PREFIX SYMS: the trace set as normalized text (times dropped, names for addresses).
dump() {
    smait dump --set "$1" | awk -v SYMS="$2" -v MAP="$1.map" -f "$D/hex.awk" -f "$D/normalize.awk" "$2" "$1.map" -
}
counts() { sed -E 's/[0-9]+ records/N records/'; }
export -f dump counts
export D

check "smait-cc builds the toy program" smait-cc -O1 -pthread "$D/toy.c" -o toy <<'EOF'
--- exit 0
EOF
check "run: 3 traces and the map (stderr), the program's own output and status" \
    bash -c 'TRACE_FILE_NAME=toy ./toy > toy.syms 2> toy.err; s=$?; counts < toy.err; wc -l < toy.syms; exit $s' <<'EOF'
smait: trace output stored in:
        file toy.3.0 for thread 0
        file toy.3.1 for thread 1
        file toy.3.2 for thread 2
        address map toy.3.map
smait: 3 threads, N records
3
--- exit 0
EOF
# The runtime's barrier keys (g_keys[slot] = {start, end}, 16 bytes a slot)
# are named through the symbol table: load base = printed a - nm's a.
base=$(( $(awk '$1 == "a" { print $2 }' toy.syms) - 0x$(nm toy | awk '$3 == "a" { print $1 }') ))
printf 'g_keys 0x%x\n' $(( base + 0x$(nm toy | awk '$3 == "g_keys" { print $1 }') )) >> toy.syms

# Thread 0 creates readers 1 and 2 (region 1: spawn, then a create barrier
# g_keys+16*slot with each), writes a[0..15], meets them at the barrier of 3,
# joins them (join barriers g_keys+16*slot+8, loading t[i] from its stack:
# "?"), ends the region (join) and reads both sums. Each reader: spawn, its
# create barrier, the barrier of 3, 16 loads, its sum, its join barrier.
check "the toy's records (memory and calls; no branches)" \
    bash -c 'dump toy.3 toy.syms | grep -Ev "^(branch|proc|pcall) "' <<'EOF'
thread 0
start_trace sync=1
spawn region=1 threads=0
barrier var=g_keys+16 threads=2
barrier var=g_keys+32 threads=2
store 4 a+0
store 4 a+4
store 4 a+8
store 4 a+12
store 4 a+16
store 4 a+20
store 4 a+24
store 4 a+28
store 4 a+32
store 4 a+36
store 4 a+40
store 4 a+44
store 4 a+48
store 4 a+52
store 4 a+56
store 4 a+60
barrier var=bar+0 threads=3
load 8 ?
barrier var=g_keys+24 threads=2
load 8 ?
barrier var=g_keys+40 threads=2
join
load 4 sum+0
load 4 sum+4
end_trace
thread 1
start_trace sync=1
spawn region=1 threads=0
barrier var=g_keys+16 threads=2
barrier var=bar+0 threads=3
load 4 a+0
load 4 a+4
load 4 a+8
load 4 a+12
load 4 a+16
load 4 a+20
load 4 a+24
load 4 a+28
load 4 a+32
load 4 a+36
load 4 a+40
load 4 a+44
load 4 a+48
load 4 a+52
load 4 a+56
load 4 a+60
store 4 sum+0
barrier var=g_keys+24 threads=2
end_trace
thread 2
start_trace sync=1
spawn region=1 threads=0
barrier var=g_keys+32 threads=2
barrier var=bar+0 threads=3
load 4 a+0
load 4 a+4
load 4 a+8
load 4 a+12
load 4 a+16
load 4 a+20
load 4 a+24
load 4 a+28
load 4 a+32
load 4 a+36
load 4 a+40
load 4 a+44
load 4 a+48
load 4 a+52
load 4 a+56
load 4 a+60
store 4 sum+4
barrier var=g_keys+40 threads=2
end_trace
--- exit 0
EOF
check "procedure starts: main (thread 0) and reader (threads 1, 2), no calls between instrumented functions" \
    bash -c 'dump toy.3 toy.syms | grep -E "^(thread|proc|pcall) "' <<'EOF'
thread 0
proc C
thread 1
proc C
thread 2
proc C
--- exit 0
EOF

# ciat: phase 1 is thread 0 up to its spawn; phase 2 the region; phase 3
# thread 0 after the last join. Each of the 16 words of a is written by
# thread 0 and read by both readers: 32 RAW accesses, and the 16 write
# instances each have 2 consumers (S[2] = 16, counted when the analysis ends,
# in its last phase). Thread 0's loads of sum[0] and sum[1] in phase 3 are 2
# RAW accesses with one consumer each (1:2). Nothing else is shared: no WAR,
# WAW or RAR. Σ k·S[k] = 2·16 + 1·2 = 34 = RAW.
check "ciat: phases and communication" bash -c '
    ciat -q toy.3 && grep -E "^R[0-9x]TxL(00|1[0-5]):" toy.3.ciat_report | sed -E "s/ start [0-9]+ end [0-9]+//"' <<'EOF'
R1TxL00: phase kind serial by start threads 1
R1TxL10: raw 0
R1TxL11: raw_degree
R1TxL12: war 0
R1TxL13: war_degree
R1TxL14: waw 0
R1TxL15: rar 0
R2TxL00: phase kind parallel by spawn threads 3
R2TxL10: raw 32
R2TxL11: raw_degree
R2TxL12: war 0
R2TxL13: war_degree
R2TxL14: waw 0
R2TxL15: rar 0
R3TxL00: phase kind serial by join threads 1
R3TxL10: raw 2
R3TxL11: raw_degree 1:2 2:16
R3TxL12: war 0
R3TxL13: war_degree
R3TxL14: waw 0
R3TxL15: rar 0
RxTxL00: phase kind all phases 3 threads 3
RxTxL10: raw 34
RxTxL11: raw_degree 1:2 2:16
RxTxL12: war 0
RxTxL13: war_degree
RxTxL14: waw 0
RxTxL15: rar 0
--- exit 0
EOF
# Every access is one instruction at the next synthetic code address and
# every taken branch starts after the instructions before it: ciat fetches
# every executed instruction and finds no discontinuity.
check "ciat: the branch stream is consistent (fetched = executed, no discontinuities)" \
    awk '$1 == "RxTxL06:" { print ($4 == $6 && $4 > 0) ? "consistent" : "NOT", "discontinuities", $NF }' toy.3.ciat_report <<'EOF'
consistent discontinuities 0
--- exit 0
EOF
check "the map: synthetic code of the runtime and of toy.c's functions" \
    bash -c 'grep "^code" toy.3.map | sed "s|$1/||"' _ "$D" <<'EOF'
code 0x00001000 0x00001010 memcpy (runtime)
code 0x00001010 0x00001020 memmove (runtime)
code 0x00001020 0x00001030 memset (runtime)
code 0x00010000 0x00010040 main toy.c
code 0x00010040 0x00010060 reader toy.c
--- exit 0
EOF
check_true "the map: data pages keep their page offset (a's folded address ends like its own)" bash -c '
    a=$(awk "\$1 == \"a\" { print \$2 }" toy.syms)
    smait dump toy.3.0 | grep -m1 "store 4" | grep -q "${a: -3}\$"'
if grep -q 'cannot turn address randomisation off' toy.err; then
    echo "(address randomisation is on here: the same-addresses checks are skipped)"
else
    # Another trace name and environments of 16 sizes (every size mod 16:
    # the strings above the stack once moved main's locals by 16 bytes).
    check_true "a second run writes the same records (times aside), whatever the environment's size" bash -c '
        smait dump --set toy.3 | sed -E "/: tracing /d; s/ @[0-9:]+\$//; s/#.*//" > toy.ref
        for n in $(seq 0 15); do
            PAD=$(printf "%${n}s" "") TRACE_FILE_NAME=again ./toy >/dev/null 2>&1 &&
            smait dump --set again.3 | sed -E "/: tracing /d; s/ @[0-9:]+\$//; s/#.*//" | cmp toy.ref - || exit 1
        done'
    # timing.c: workers write their stacks, thread 0 allocates a large
    # (mmap'd) and a small block after creating them. Thread timing must not
    # move any of it: runs where thread 0 sleeps after each create (each
    # worker has started before the next create), runs where it does not, on
    # one core and on all, and runs beside two busy loops. The runtime's
    # padding variable is not in the program's environment (else exit 1).
    # The runtime once malloc'd in each thread it started, so glibc made an
    # arena (an mmap) there at a moment that depended on timing, and a racing
    # thread stack went elsewhere: rarely seen by the runs, so the arenas are
    # counted too (the workers themselves never allocate: one arena).
    check "smait-cc builds timing.c" smait-cc -O1 -pthread "$D/timing.c" -o timing <<'EOF_'
--- exit 0
EOF_
    check "timing.c: the same records however its threads are timed (times aside)" bash -c '
        same() { smait dump --set tm.4 | sed -E "/: tracing /d; s/ @[0-9:]+\$//; s/#.*//" | cmp -s tm.ref - && echo same || echo DIFFERENT; }
        export TIMING_SLOW=0
        TRACE_FILE_NAME=tm SMAIT_QUIET=1 ./timing 2>tm.stats || exit 1
        echo "malloc arenas: $(grep -c "^Arena " tm.stats)"
        smait dump --set tm.4 | sed -E "/: tracing /d; s/ @[0-9:]+\$//; s/#.*//" > tm.ref
        TIMING_SLOW=1 TRACE_FILE_NAME=tm SMAIT_QUIET=1 ./timing 2>/dev/null && echo -n "slow: " && same
        if command -v taskset >/dev/null; then
            TIMING_SLOW=1 TRACE_FILE_NAME=tm SMAIT_QUIET=1 taskset -c 0 ./timing 2>/dev/null && echo -n "slow, one core: " && same
            for i in 1 2 3; do TRACE_FILE_NAME=tm SMAIT_QUIET=1 taskset -c 0 ./timing 2>/dev/null && same; done | sort | uniq -c | sed "s/^ */one core: /"
        else
            echo "slow, one core: same"; echo "one core: 3 same"
        fi
        for i in 1 2 3 4 5 6; do TRACE_FILE_NAME=tm SMAIT_QUIET=1 ./timing 2>/dev/null && same; done | sort | uniq -c | sed "s/^ */fast: /"
        (while :; do :; done) & b1=$!; (while :; do :; done) & b2=$!
        for i in 1 2 3 4 5 6; do TRACE_FILE_NAME=tm SMAIT_QUIET=1 ./timing 2>/dev/null && same; done | sort | uniq -c | sed "s/^ */loaded: /"
        kill $b1 $b2' <<'EOF_'
malloc arenas: 1
slow: same
slow, one core: same
one core: 3 same
fast: 6 same
loaded: 6 same
--- exit 0
EOF_
fi

# ---- OpenMP -----------------------------------------------------------------
# omp.c: thread 0 writes a[0..2]; a region of 3 threads (spawn threads=3;
# trace i = omp_get_thread_num()): each adds 10 to a[i], loads the OpenMP
# runtime's thread id for the barrier call (its stack: "?"), meets the
# others at the explicit barrier (one runtime key, 3 threads), adds a[(i+1)%3] to total in the
# unnamed critical (lock 0, formats/SMAIT.md §3–§8) and increments named in
# critical(other) (lock = clang's variable for it); the sections are OpenMP
# criticals (kind=8) with release numbers in the order the threads really
# took them (checked by seqs.awk, left out of the golden: they differ from
# run to run). The region's end is thread 0's join and, for threads 1 and
# 2, the end of their traces. Thread 0 then reads total and named.
# More OpenMP (locks, ordered, tasks, ...): collector-omp.sh.
if ! smait-cc -O1 -fopenmp "$D/omp.c" -o omp 2>omp.build; then
    echo "(smait-cc -fopenmp cannot build here, no libomp? the OpenMP checks are skipped)"
    cat omp.build
else
check "OpenMP: run: 3 traces" bash -c 'TRACE_FILE_NAME=omp ./omp > omp.syms 2> omp.err; s=$?; counts < omp.err; exit $s' <<'EOF'
smait: trace output stored in:
        file omp.3.0 for thread 0
        file omp.3.1 for thread 1
        file omp.3.2 for thread 2
        address map omp.3.map
smait: 3 threads, N records
--- exit 0
EOF
base=$(( $(awk '$1 == "a" { print $2 }' omp.syms) - 0x$(nm omp | awk '$3 == "a" { print $1 }') ))
for s in barrier_key .gomp_critical_user_other.var; do
    printf '%s 0x%x\n' "$s" $(( base + 0x$(nm omp | awk -v s="$s" '$3 == s { print $1 }') )) >> omp.syms
done
check "OpenMP: the records of the region, the barrier and the critical sections" \
    bash -c 'dump omp.3 omp.syms | grep -Ev "^(branch|proc|pcall) " | sed -E "s/ seq=[0-9]+//"' <<'EOF'
thread 0
start_trace sync=1
store 4 a+0
store 4 a+4
store 4 a+8
spawn region=1 threads=3
load 4 a+0
store 4 a+0
load 4 ?
barrier var=barrier_key+0 threads=3
begin_critical lock=0 kind=8
load 4 a+4
load 4 total+0
store 4 total+0
end_critical lock=0 kind=8
begin_critical lock=.gomp_critical_user_other.var+0 kind=8
load 4 named+0
store 4 named+0
end_critical lock=.gomp_critical_user_other.var+0 kind=8
join
load 4 total+0
load 4 named+0
end_trace
thread 1
start_trace sync=1
spawn region=1 threads=3
load 4 a+4
store 4 a+4
load 4 ?
barrier var=barrier_key+0 threads=3
begin_critical lock=0 kind=8
load 4 a+8
load 4 total+0
store 4 total+0
end_critical lock=0 kind=8
begin_critical lock=.gomp_critical_user_other.var+0 kind=8
load 4 named+0
store 4 named+0
end_critical lock=.gomp_critical_user_other.var+0 kind=8
end_trace
thread 2
start_trace sync=1
spawn region=1 threads=3
load 4 a+8
store 4 a+8
load 4 ?
barrier var=barrier_key+0 threads=3
begin_critical lock=0 kind=8
load 4 a+0
load 4 total+0
store 4 total+0
end_critical lock=0 kind=8
begin_critical lock=.gomp_critical_user_other.var+0 kind=8
load 4 named+0
store 4 named+0
end_critical lock=.gomp_critical_user_other.var+0 kind=8
end_trace
--- exit 0
EOF
# Each of the two locks was taken 3 times: begun after r releases, ended
# with release r+1, the ends numbered 1, 2, 3.
check "OpenMP: the critical sections' release numbers follow one real order" \
    bash -c 'smait dump --set omp.3 | awk -f "$D/seqs.awk"' <<'EOF'
critical: 2 keys, 6 releases, numbered in order
--- exit 0
EOF
# ciat: serial (thread 0's stores), the region (spawn threads 3), serial
# again after the join; every trace read to its end (no warning).
check "OpenMP: ciat's phases: serial, parallel by spawn threads 3, serial by join" bash -c '
    ciat omp.3 2>&1 >/dev/null | grep -Ev "^ciat: reading|$CLI_TRACING_RE"
    grep -E "^R[0-9x]TxL00:" omp.3.ciat_report | sed -E "s/ start [0-9]+ end [0-9]+//"' <<'EOF'
R1TxL00: phase kind serial by start threads 1
R2TxL00: phase kind parallel by spawn threads 3
R3TxL00: phase kind serial by join threads 1
RxTxL00: phase kind all phases 3 threads 3
--- exit 0
EOF
# (release numbers aside: they are the order the threads took the locks in)
check "OpenMP: a second run writes the same records (times aside)" bash -c '
    TRACE_FILE_NAME=omp2 SMAIT_QUIET=1 ./omp >/dev/null &&
    cmp <(smait dump --set omp.3 | sed -E "/: tracing /d; s/ @[0-9:]+\$//; s/ seq=[0-9]+//; s/#.*//") \
        <(smait dump --set omp2.3 | sed -E "/: tracing /d; s/ @[0-9:]+\$//; s/ seq=[0-9]+//; s/#.*//") && echo same' <<'EOF'
same
--- exit 0
EOF
# A libomp worker maps its malloc arena as it starts (an mmap and two
# munmaps that trim it to 64 MiB); the next worker's stack, mapped by the
# creator between those munmaps, once went below the arena instead of above
# it, with the records of the variables on it (seen once in 800 runs beside
# busy loops). Delaying every thread creation and munmap as they return
# (strace's fault injection: the creator's clone3 50 ms, munmap 200 ms) puts
# the creator's next stack in that window in nearly every run before the
# fix; the records must not change. No time is measured.
if strace -f -o /dev/null -e inject=munmap:delay_exit=1 true 2>/dev/null; then
    check "OpenMP: the same records when the next worker's stack is mapped while a worker maps its arena" bash -c '
        for i in 1 2; do
            TRACE_FILE_NAME=ompd$i SMAIT_QUIET=1 strace -f -o /dev/null -e trace=clone,clone3,munmap \
                -e inject=clone:delay_exit=50000 -e inject=clone3:delay_exit=50000 -e inject=munmap:delay_exit=200000 ./omp >/dev/null &&
            cmp <(smait dump --set omp.3 | sed -E "/: tracing /d; s/ @[0-9:]+\$//; s/ seq=[0-9]+//; s/#.*//") \
                <(smait dump --set ompd$i.3 | sed -E "/: tracing /d; s/ @[0-9:]+\$//; s/ seq=[0-9]+//; s/#.*//") && echo same
        done' <<'EOF'
same
same
--- exit 0
EOF
else
    echo "(strace cannot inject delays here: the check of a worker's arena against the next stack is skipped)"
fi
# Regions of 2, 4 and 3 threads (a reduction, a single): a trace with no
# part in a region has no records for it, so ciat reads every trace to its
# end, and each region's phase has its team's size.
check "OpenMP: regions of several sizes stay in step" bash -c '
    printf "%s\n" "#include <omp.h>" "int x[8];" "int main(void)" "{" \
        "#pragma omp parallel num_threads(2)" "    x[omp_get_thread_num()] = 1;" "    int s = 0;" \
        "#pragma omp parallel for num_threads(4) reduction(+:s)" "    for (int i = 0; i < 8; i++)" "        s += x[i];" \
        "#pragma omp parallel num_threads(3)" "    {" "#pragma omp single" "        x[7] = s;" "    }" \
        "    return s != 2;" "}" > regions.c
    smait-cc -O1 -fopenmp regions.c -o regions && TRACE_FILE_NAME=rg SMAIT_QUIET=1 ./regions &&
    ciat rg.4 2>&1 >/dev/null | grep -v "^ciat: reading"
    grep -E "^R[0-9]TxL00:" rg.4.ciat_report | sed -E "s/ start [0-9]+ end [0-9]+//"' <<'EOF'
R1TxL00: phase kind serial by start threads 1
R2TxL00: phase kind parallel by spawn threads 2
R3TxL00: phase kind serial by join threads 1
R4TxL00: phase kind parallel by spawn threads 4
R5TxL00: phase kind serial by join threads 1
R6TxL00: phase kind parallel by spawn threads 3
R7TxL00: phase kind serial by join threads 1
--- exit 0
EOF
fi
check_status "smait-cc -fopenmp=libgomp: clang has no libgomp code generation" 2 \
    '^smait-cc: -fopenmp=libgomp: clang compiles OpenMP for libomp only: use -fopenmp' \
    smait-cc -fopenmp=libgomp "$D/omp.c" -o x

# ---- every kind of access ---------------------------------------------------
check "smait-cc builds kinds.c (smait_marker.h found)" smait-cc -O1 "$D/kinds.c" -o kinds <<'EOF'
--- exit 0
EOF
# With detailed tracing off, neither the store nor the branch that steps
# over the marker's call (docs/collector.md §5) is written.
check "kinds: one record per access, and the store with detailed tracing off is not written" \
    bash -c 'TRACE_FILE_NAME=k ./kinds > k.syms 2> k.err; s=$?; counts < k.err; exit $s' <<'EOF'
smait: trace output stored in:
        file k.1.0 for thread 0
        address map k.1.map
smait: 1 thread, N records (2 not written: detailed tracing off)
--- exit 0
EOF
# float: 4 bytes fp; double: 8 bytes fp; int: fixed; v4f: 16 bytes vec (size
# code 9); the atomic add: atomic, and as a seq_cst read-modify-write the
# first release of counter (no acquire: no release before it); long double: 10 bytes, as 8 + 2, fp;
# memcpy of n = 13 bytes: a call of the memcpy pseudo-procedure at 0x1000
# (load 8, store 8, branch back at 0x1008: next 0x100c) turns of 8, 4 and 1
# bytes, then the return to the call site; memset of m = 6 bytes at 0x1020
# (store, branch at 0x1024: next 0x1028), 4 + 2 bytes. The calls of
# smait_marker and printf (not instrumented) are each stepped over by a
# branch from the call to the next slot ("branch C C"), but the first one,
# with detailed tracing off.
check "kinds: sizes, register types, memcpy and memset" bash -c 'dump k.1 k.syms | grep -v "^proc"' <<'EOF'
start_trace sync=1
store 4 f+0 fp
load 4 f+0 fp
store 8 d+0 fp
load 8 d+0 fp
store 4 i+0
load 16 v+0 vec
load 16 v+0 vec
store 16 v+0 vec
atomic 4 counter+0
release obj=counter+0 seq=1 kind=6
store 8 ld+0 fp
store 2 ld+8 fp
load 8 n+0
pcall C 0x00001000
load 8 src+0
store 8 dst+0
branch 0x0000100c 0x00001000
load 4 src+8
store 4 dst+8
branch 0x0000100c 0x00001000
load 1 src+12
store 1 dst+12
branch 0x0000100c C
load 8 m+0
pcall C 0x00001020
store 4 dst+0
branch 0x00001028 0x00001020
store 2 dst+4
branch 0x00001028 C
marker cmd=1 num=1
marker cmd=2 num=2
branch C C
branch C C
end_trace
--- exit 0
EOF
# ciat's classes (docs/ciat-report.md, L01–L05; the atomic is a load and a store): 10 loads =
# byte (src+12), word (src+8, counter), long (n, m and src+0: 8 bytes
# fixed-point), float (f), double (d), other (v twice: 16 bytes); 12 stores =
# byte (dst+12), half (memset dst+4), word (i, dst+8, counter, memset dst+0),
# long (dst+0: 8 bytes fixed-point), float (f), double (d, ld+0: 8 bytes fp),
# other (v, ld+8: 2 bytes fp).
check "ciat counts the float, the double and the 8-byte integers as such" bash -c '
    ciat -q k.1 && grep -E "^RxT0L0[23]:" k.1.ciat_report' <<'EOF'
RxT0L02: loads byte 1 10.00% half 0 0.00% word 2 20.00% long 3 30.00% float 1 10.00% double 1 10.00% other 2 20.00%
RxT0L03: stores zero 0 0.00% byte 1 8.33% half 1 8.33% three 0 0.00% word 4 33.33% long 1 8.33% float 1 8.33% double 2 16.67% other 2 16.67%
--- exit 0
EOF
check "level 2: memory and call records only" bash -c '
    SMAIT_LEVEL=2 smait-cc -O1 "$1/kinds.c" -o kinds2 && TRACE_FILE_NAME=k2 SMAIT_QUIET=1 ./kinds2 >/dev/null &&
    smait stat k2.1.0 | grep -E "^(proc_start|branch|proc_call|memory) "' _ "$D" <<'EOF'
memory 21 load 9 store 11 atomic 1
proc_start 0
branch 0
proc_call 0
--- exit 0
EOF

# ---- TRACE_FILE_TYPE -------------------------------------------------------------
check "compressed: a zstd file (magic 28 b5 2f fd, checksummed) with the same records" bash -c '
    TRACE_FILE_TYPE=compressed TRACE_FILE_NAME=z SMAIT_QUIET=1 ./kinds >/dev/null &&
    od -An -tx1 -N4 z.1.0 && zstd -q -t z.1.0 && zstd -l z.1.0 | grep -o XXH64 &&
    cmp <(dump z.1 k.syms) <(dump k.1 k.syms) && echo same' <<'EOF'
 28 b5 2f fd
XXH64
same
--- exit 0
EOF
# Many flushes of the thread's buffer (2^16 records) and many zstd blocks
# (128 KiB), compressed by the program's thread (inline) and by a thread of
# the trace's own (thread: the buffers handed over, the last one at exit):
# the compressed trace, decompressed, begins with the delta coding's marker
# (formats/SMAIT.md §11.1), and decoded (smait convert --records plain) it
# is byte for byte the normal trace of a
# second run of the same program, but for the clock: the time fields (f2 of
# parts 0 and 1) of start_trace, the first call record, and of end_trace, the
# last.
cat > long.c <<'EOF'
static volatile int v[4096];
int main(void)
{
    int s = 0;
    for (int r = 0; r < 100; r++)
        for (int i = 0; i < 4096; i++)
            s += v[i] + i * r;
    return s == 1;
}
EOF
# same_but_times A B: "same records" when the plain traces A and B differ at
# most in those time fields, and in the tracing record before end_trace in
# its times and its ran_us and waited_us (its third and fourth arguments:
# formats/SMAIT.md §5.2, measurements of the run).
same_but_times() {
    local n
    n=$(stat -c %s "$2")
    [ "$(stat -c %s "$1")" = "$n" ] || { echo "sizes differ"; return 1; }
    cmp -l "$1" "$2" | awk -v n="$n" '{ o = $1 - 1
        if (o >= n - 96 && o < n - 48) { r = o - (n - 96); if (!(r >= 4 && r < 8 || r >= 12 && r < 16 || r >= 36 && r < 40 || r >= 44)) bad++; next }
        r = o < 48 ? o : o - (n - 48)
        if (!(r >= 4 && r < 8 || r >= 12 && r < 16)) bad++ }
        END { print bad ? bad " bytes differ outside the times" : "same records" }'
}
export -f same_but_times
check "compressed: 800000 records, decompressed the normal trace of the same program" bash -c '
    smait-cc -O1 long.c -o long && TRACE_FILE_NAME=ln SMAIT_QUIET=1 ./long && ls ln.1.* &&
    test $(stat -c %s ln.1.0) -gt 6400000 &&
    for c in inline thread; do
        rm -f lz.* && SMAIT_COMPRESSOR=$c TRACE_FILE_TYPE=compressed TRACE_FILE_NAME=lz SMAIT_QUIET=1 ./long &&
        ls lz.1.* && zstd -q -dc lz.1.0 | head -c 8 | od -An -tx1 &&
        mv lz.1.0 lz.1.0.zst && smait convert --to plain --records plain lz.1.0.zst && mv lz.1.0 lz.plain &&
        smait dump lz.plain | sed -n "3p;\$p" | sed -E "s/^[0-9]+:/N:/; s/@.*/@T/" &&
        echo "$c: $(same_but_times lz.plain ln.1.0)" || exit 1
    done' <<'EOF'
ln.1.0
ln.1.map
lz.1.0
lz.1.map
 00 7a e1 7d 01 00 00 00
N: start_trace sync=1 @T
N: end_trace @T
inline: same records
lz.1.0
lz.1.map
 00 7a e1 7d 01 00 00 00
N: start_trace sync=1 @T
N: end_trace @T
thread: same records
--- exit 0
EOF
# The compressing thread's ring (docs/collector.md §8.1) over 500 hand-overs:
# long2 makes 16 M records; the run ends (a lost wake-up hung it) with the
# records inline compression writes.
check "compressed in its own thread: 16 M records through the ring, as inline" bash -c '
    sed "s/r < 100;/r < 2000;/" long.c > long2.c && smait-cc -O1 long2.c -o long2 &&
    for c in thread inline; do
        rm -f l2.* && SMAIT_COMPRESSOR=$c TRACE_FILE_TYPE=compressed TRACE_FILE_NAME=l2 SMAIT_QUIET=1 timeout 60 ./long2 &&
        smait stat l2.1.0 | grep -E "^(data_bytes|simple_records|memory) " > $c.stat || exit 1
    done
    cmp thread.stat inline.stat && cat thread.stat' <<'EOF'
data_bytes 131104160
simple_records 16388019
memory 8192000 load 8192000 store 0 atomic 0
--- exit 0
EOF
# A trace that cannot be written (its file is /dev/full): the error names
# it, exit 2, for each sink and compressor; the compressing thread's error
# reaches the program at its next hand-over, and nothing waits forever.
check "a full disk: a clear error, exit 2, whoever writes" bash -c '
    for how in normal:inline compressed:inline compressed:thread; do
        rm -f full.* && ln -s /dev/full full.0.partial &&
        TRACE_FILE_TYPE=${how%%:*} SMAIT_COMPRESSOR=${how#*:} TRACE_FILE_NAME=full SMAIT_QUIET=1 timeout 60 ./long
        echo "$how: exit $?"
    done 2>&1' <<'EOF'
smait: full.0.partial: cannot write trace: No space left on device
normal:inline: exit 2
smait: full.0.partial: cannot write trace: No space left on device
compressed:inline: exit 2
smait: full.0.partial: cannot write trace: No space left on device
compressed:thread: exit 2
--- exit 0
EOF
check "bad SMAIT_COMPRESSOR: exit 2, the values allowed, no file" bash -c '
    SMAIT_COMPRESSOR=threads TRACE_FILE_TYPE=compressed TRACE_FILE_NAME=bc ./long; s=$?; ls bc.* 2>/dev/null; exit $s' <<'EOF'
--- stderr
smait: SMAIT_COMPRESSOR=threads: unknown value (thread or inline)
--- exit 2
EOF
check "suppressed: no files, the same number of records made" bash -c '
    TRACE_FILE_TYPE=suppressed TRACE_FILE_NAME=s ./kinds >/dev/null 2>s.err; s=$?
    ls s.* 2>/dev/null | grep -v "^s.err$"
    n=$(sed -n "s/^smait: 1 thread, \([0-9]*\) records.*/\1/p" k.err)
    sed "s/ $n records/ SAME records/" s.err; exit $s' <<'EOF'
smait: traces suppressed: 1 thread, SAME records
--- exit 0
EOF
check "normal is the default, and named explicitly" bash -c '
    TRACE_FILE_TYPE=normal TRACE_FILE_NAME=nn SMAIT_QUIET=1 ./kinds >/dev/null && cmp <(dump nn.1 k.syms) <(dump k.1 k.syms) && echo same' <<'EOF'
same
--- exit 0
EOF
check_status "bad TRACE_FILE_TYPE: exit 2, the values allowed" 2 \
    '^smait: TRACE_FILE_TYPE=gzip: unknown trace type \(normal, compressed, suppressed, to_ciat or to_cdat\)$' \
    env TRACE_FILE_TYPE=gzip ./kinds
check_status "empty TRACE_FILE_NAME" 2 '^smait: TRACE_FILE_NAME is empty' env TRACE_FILE_NAME= ./kinds
check_status "TRACE_FILE_NAME in a missing directory: the file and the reason" 2 \
    '^smait: nodir/t\.0\.partial: cannot create trace file: No such file or directory$' \
    env TRACE_FILE_NAME=nodir/t ./kinds
check_status "smait-cc: bad SMAIT_LEVEL" 2 '^smait-cc: SMAIT_LEVEL=4: must be 1, 2 or 3$' \
    env SMAIT_LEVEL=4 smait-cc "$D/kinds.c" -o x
check_status "smait-cc: a C error is the compiler's, exit 1" 1 'error' \
    bash -c 'echo "int main(void) { return x; }" > bad.c && smait-cc bad.c -o bad 2>&1 >/dev/null | grep -m1 error >&2; exit ${PIPESTATUS[0]}'
