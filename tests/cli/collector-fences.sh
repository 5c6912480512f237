# collector-fences.sh — C11 fences (docs/collector.md §3, "Fences"): a
# release fence makes the thread's later relaxed writes releases, an acquire
# fence acquires what the thread read relaxed before it, and the replay
# follows C11's fence rules ([atomics.fences]).
#
# fences.c: a producer (trace 0) hands 1024 ints to 3 consumers (traces
# 1-3) through a flag, the way argv[1] says: barrier (the twin: the same
# accesses, handed over by pthread_barrier_wait), fence (a release fence and
# a relaxed store; relaxed spin loads and an acquire fence), fence-load (a
# release fence; acquire loads), store-fence (a release store; an acquire
# fence), seq_cst (both fences seq_cst), rmw (a release fence and a relaxed
# fetch_add). fencemisc.c: one thread at a time, each case whose records are
# known exactly. fences.awk makes the records compact: an acquire joined with
# the access after it, a release with the access before it, runs counted,
# the consumers' spin loads (their number is timing) left out.
collector_setup || return 0

# records PREFIX THREADS: the set's records, addresses named, through fences.awk.
records() {
    smait dump --set "$1.$2" | awk -v SYMS="$1.syms" -v MAP="$1.$2.map" -f "$D/hex.awk" -f "$D/normalize.awk" \
        "$1.syms" "$1.$2.map" - | grep -Ev '^(branch|proc|pcall|tracing) ' | awk -f "$D/runs.awk" -f "$D/fences.awk"
}
# figures PREFIX: ciat's communication lines for the whole run.
figures() { ciat -q "$1" >/dev/null && grep -E '^RxTxL1[0-5]:' "$1.ciat_report"; }
# run PROG MODE PREFIX: one traced run (the objects' addresses in PREFIX.syms).
run() { TRACE_FILE_NAME=$3 SMAIT_QUIET=1 "./$1" $2 > "$3.syms"; }
export -f records figures run

check "smait-cc builds fences.c" smait-cc -O1 -pthread "$D/fences.c" -o fences <<'EOF'
--- exit 0
EOF
# No warning in any mode (SMAIT_QUIET=1 prints the warnings only): every
# fence is recorded.
check "six ways to hand the data over, no warning" bash -c '
    for m in barrier fence fence-load store-fence seq_cst rmw; do run fences $m f-$m || echo "$m: exit $?"; done' <<'EOF'
--- exit 0
EOF

# ---- the records -------------------------------------------------------------
# The producer: its long computation (work, left out), the 1024 stores; the
# release fence makes no record of its own; the relaxed store of the flag
# after it is numbered: its access, then release 1 of the flag (as a release
# store: whoever acquires it finds the stores before the fence replayed).
# Each consumer: its load of the flag before the barrier (0), the barrier,
# its spin loads (left out), the last of them — the one that saw 1 — with
# the acquire fence's acquire of release 1 moved before it (an acquire
# load's place: the replay puts the load that saw the flag after the
# store), its 1024 loads, its result. No unmodelled record.
check "fence: the relaxed store a release, the acquire fence's acquire before the load that saw it" \
    records f-fence 4 <<'EOF'
thread 0
start_trace sync=1
load 8 ?
store 4 kind+0 (x2)
load 4 kind+0
spawn region=1 threads=0
barrier var=? threads=2 (x3)
barrier var=ready+0 threads=4
store 4 data (x1024)
load 4 kind+0
store 4 flag+0; release obj=flag+0 seq=1 kind=6
load 8 ?
barrier var=? threads=2
load 8 ?
barrier var=? threads=2
load 8 ?
barrier var=? threads=2
join
load 4 result+0 (x2)
load 4 result+4
load 4 result+8
end_trace
thread 1
start_trace sync=1
spawn region=1 threads=0
barrier var=? threads=2
load 4 kind+0
load 4 flag+0
barrier var=ready+0 threads=4
acquire obj=flag+0 seq=1 kind=6; load 4 flag+0
load 4 data (x1024)
store 4 result+0
barrier var=? threads=2
end_trace
thread 2
start_trace sync=1
spawn region=1 threads=0
barrier var=? threads=2
load 4 kind+0
load 4 flag+0
barrier var=ready+0 threads=4
acquire obj=flag+0 seq=1 kind=6; load 4 flag+0
load 4 data (x1024)
store 4 result+4
barrier var=? threads=2
end_trace
thread 3
start_trace sync=1
spawn region=1 threads=0
barrier var=? threads=2
load 4 kind+0
load 4 flag+0
barrier var=ready+0 threads=4
acquire obj=flag+0 seq=1 kind=6; load 4 flag+0
load 4 data (x1024)
store 4 result+8
barrier var=? threads=2
end_trace
--- exit 0
EOF
# A release fence with an acquire load, a release store with an acquire
# fence, seq_cst fences: each pair of C11's rules gives the records of the
# release store and acquire load that atomics.c hands its flag over with.
check "fence-load, store-fence, seq_cst: the same records as fence" bash -c '
    records f-fence 4 > ref
    for m in fence-load store-fence seq_cst; do records f-$m 4 | cmp -s ref - && echo "$m same"; done' <<'EOF'
fence-load same
store-fence same
seq_cst same
--- exit 0
EOF
# rmw: the relaxed fetch_add after the fence is the release (atomic 4).
check "rmw: the relaxed fetch_add is the release" bash -c 'records f-rmw 4 | grep "flag+0.*; "' <<'EOF'
atomic 4 flag+0; release obj=flag+0 seq=1 kind=6
acquire obj=flag+0 seq=1 kind=6; load 4 flag+0
acquire obj=flag+0 seq=1 kind=6; load 4 flag+0
acquire obj=flag+0 seq=1 kind=6; load 4 flag+0
--- exit 0
EOF

# ---- what ciat finds ---------------------------------------------------------
# The twin's figures, by hand. kind: written by the producer before the
# threads start, read by each consumer: RAW 3, S[3] += 1. The flag: each
# consumer reads it before the barrier ready, before the producer stores it
# (it was never written: the first reader counts nothing, the other two RAR
# 2); the producer's store finds the 3 readers (WAR 1, degree 3); each
# consumer reads the 1 after the barrier done (RAW 3, S[3] += 1). data:
# written by the producer, read by the 3 consumers (RAW 3072, S[3] += 1024).
# result[i]: written by consumer i, read by the producer after the joins
# (RAW 3, S[1] += 3). RAW 3 + 3 + 3072 + 3 = 3081; raw_degree 1:3
# 3:1026; WAR 1 (3:1); WAW 0; RAR 2. The fence hand-overs replay the same:
# each consumer's load that saw the flag after the producer's store, the
# spin loads before it (however many: a thread's own loads of a location it
# has read count once) before it, the data after it.
for m in barrier fence fence-load store-fence seq_cst; do
check "ciat on $m: the barrier twin's figures" figures f-$m.4 <<'EOF'
RxTxL10: raw 3081
RxTxL11: raw_degree 1:3 3:1026
RxTxL12: war 1
RxTxL13: war_degree 3:1
RxTxL14: waw 0
RxTxL15: rar 2
--- exit 0
EOF
done
# rmw: the fetch_add is a load then a store by the producer (docs/ciat-report.md
# L10-L15): its load of the never-written flag after the 3 consumers' is one
# more RAR (3); the rest as above.
check "ciat on rmw: the twin's figures and the fetch_add's load (RAR 3)" figures f-rmw.4 <<'EOF'
RxTxL10: raw 3081
RxTxL11: raw_degree 1:3 3:1026
RxTxL12: war 1
RxTxL13: war_degree 3:1
RxTxL14: waw 0
RxTxL15: rar 3
--- exit 0
EOF
check "fence: three runs, the same records and figures" bash -c '
    records f-fence 4 > ref && figures f-fence.4 > ref.fig
    for r in 2 3; do
        run fences fence f$r && records f$r 4 | cmp -s ref - && figures f$r.4 | cmp -s ref.fig - && echo same
    done' <<'EOF'
same
same
--- exit 0
EOF
# Level 1: no access records; the acquires are written at the fences.
check "level 1: the release and the 3 acquires, no memory records" bash -c '
    SMAIT_LEVEL=1 smait-cc -O1 -pthread "$D/fences.c" -o fences1 && run fences1 fence l1 &&
    smait dump --set l1.4 | awk "\$1 ~ /^thread\$/ { t = \$2 } \$2 ~ /^(acquire|release|unmodelled|load|store|atomic)\$/ { n[(t > 0 ? \"consumers\" : \"thread 0\") \" \" \$2]++ }
        END { for (k in n) print k, n[k] }" | sort' <<'EOF'
consumers acquire 3
thread 0 release 1
--- exit 0
EOF

# ---- case by case ------------------------------------------------------------
check "smait-cc builds fencemisc.c" smait-cc -O1 -pthread "$D/fencemisc.c" -o fencemisc <<'EOF'
--- exit 0
EOF
# The summary warns of the one fence that could not be recorded (case 4).
check "fencemisc: one unmodelled fence" bash -c 'run fencemisc "" fm' <<'EOF'
--- stderr
smait: warning: 1 acquire fences after relaxed reads the collector could not note: the analysis may not replay their order
--- exit 0
EOF
# The worker (trace 1): release stores of a and b; a relaxed store of c
# before any fence: nothing; after the release fence, the relaxed store of c
# is release 1 of c, the next one nothing (c has a release since the fence:
# whoever reads the second reads release 1 in c's count too), the relaxed
# fetch_add of d release 1 of d, the failed compare-and-swap of e nothing
# (it wrote nothing), the one that succeeded release 1 of e, the acquire
# fetch_add of a release 2 of a (after the fence every atomic write is a
# release; its acquire finds its own release 1: nothing); the plain store
# nothing; after a second release fence, c again (release 2) and the 65
# release stores of many.
# The main thread (trace 0), after the join: case 1, relaxed reads of a, b, a
# and a relaxed fetch_add of d, then an acquire fence: an acquire of each
# object's count before its last read (a: release 2, its second read); case
# 2, a read of c, then a mutex (a call record: the acquire cannot go back
# past it) and the fence: the acquire of c at the fence; case 3, reads of g
# (never released) and a (version 2 already acquired) and a seq_cst fence:
# nothing; case 4, 65 objects read before one fence: the acquires of the 64
# the runtime noted, the 65th read without, one unmodelled fence (what=3);
# case 5, a release fence then a plain store: nothing.
check "fencemisc: the records of each case" records fm 2 <<'EOF'
thread 0
start_trace sync=1
spawn region=1 threads=0
barrier var=? threads=2
load 8 ?
barrier var=? threads=2
join
load 4 a+0
acquire obj=b+0 seq=1 kind=6; load 4 b+0
acquire obj=a+0 seq=2 kind=6; load 4 a+0
acquire obj=d+0 seq=1 kind=6; atomic 4 d+0
load 4 c+0
begin_critical lock=m+0 kind=1
end_critical lock=m+0 seq=1 kind=1
acquire obj=c+0 seq=2 kind=6
load 4 g+0
load 4 a+0
acquire obj=many seq=1 kind=6; load 4 many (x64)
load 4 many
store 4 plain+0
unmodelled what=3 count=1
end_trace
thread 1
start_trace sync=1
spawn region=1 threads=0
barrier var=? threads=2
store 4 a+0; release obj=a+0 seq=1 kind=6
store 4 b+0; release obj=b+0 seq=1 kind=6
store 4 c+0
store 4 c+0; release obj=c+0 seq=1 kind=6
store 4 c+0
atomic 4 d+0; release obj=d+0 seq=1 kind=6
atomic 4 e+0
atomic 4 e+0; release obj=e+0 seq=1 kind=6
atomic 4 a+0; release obj=a+0 seq=2 kind=6
store 4 plain+0
store 4 c+0; release obj=c+0 seq=2 kind=6
store 4 many; release obj=many seq=1 kind=6 (x65)
barrier var=? threads=2
end_trace
--- exit 0
EOF
check "fencemisc: ciat warns of the fence it cannot replay" bash -c 'ciat -q fm.2 >/dev/null' <<'EOF'
--- stderr
ciat: warning: unmodelled fence: 1 in trace 0 (acquire fences after relaxed reads the collector could not note): not replayed, so the interleaving may differ from the real run there
--- exit 0
EOF

# ---- reads the runtime could not note ------------------------------------------
# fencelate.c: a constructor reads x relaxed after tracing began but before
# the module's constructor told the runtime that the program has acquire
# fences (relaxed reads are noted only then); the fence after it is counted,
# the second one (after a read that was noted) is not.
check "fencelate: a read before the program's fences were known: the next acquire fence counted" bash -c '
    smait-cc -O1 "$D/fencelate.c" -o fencelate && TRACE_FILE_NAME=fl SMAIT_QUIET=1 ./fencelate > fl.syms &&
    records fl 1' <<'EOF'
start_trace sync=1
load 4 x+0
store 4 early+0
load 4 x+0
load 4 early+0
unmodelled what=3 count=1
end_trace
--- stderr
smait: warning: 1 acquire fences after relaxed reads the collector could not note: the analysis may not replay their order
--- exit 0
EOF

# ---- the instrumenter ----------------------------------------------------------
# A module's constructor calls __smait_acquire_fences when the module has an
# acquire, acq_rel or seq_cst fence (not singlethread) or calls OpenMP's
# flush: relaxed reads are noted only in programs that have one.
CLANG=${SMAIT_CLANG:-$(sed -n 's/^DEFAULT_CLANG=//p' "$BIN/smait-cc")}
export CLANG
ir_module() {       # NAME BODY...: a module with one function
    { printf 'target triple = "x86_64-pc-linux-gnu"\ndeclare void @__kmpc_flush(i8*)\ndefine void @f() {\n'
      printf '  %s\n' "${@:2}"; printf '  ret void\n}\n'; } > "$1.ll"
}
ir_module acquire 'fence acquire'
ir_module seq_cst 'fence seq_cst'
ir_module acq_rel 'fence acq_rel'
ir_module release 'fence release'
ir_module single 'fence syncscope("singlethread") seq_cst'
ir_module flush 'call void @__kmpc_flush(i8* null)'
ir_module none 'store atomic i32 0, i32* null monotonic, align 4'
check "IR: the constructor of a module with an acquire fence or a flush says so" bash -c '
    for m in acquire seq_cst acq_rel release single flush none; do
        "$CLANG" -c -emit-llvm $m.ll -o $m.bc && smait-instrument $m.bc $m.out.bc &&
            echo "$m $("$CLANG" -S -emit-llvm $m.out.bc -o - | grep -c "call void @__smait_acquire_fences()")"
    done' <<'EOF'
acquire 1
seq_cst 1
acq_rel 1
release 0
single 0
flush 1
none 0
--- exit 0
EOF
