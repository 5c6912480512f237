# collector-atomics.sh — C11 atomics that synchronise (docs/collector.md §3,
# formats/SMAIT.md §5.1). atomics.c: a producer writes 1024 ints and hands
# them to 3 consumers with a release store of a flag, which they wait for
# with acquire loads; each consumer then adds to a seq_cst counter, to a
# counter by a compare-and-swap loop (acq_rel / relaxed) and to a relaxed
# counter; the producer makes a seq_cst fence (which has nothing to record:
# no relaxed read before it, no atomic write after it; fences that do are
# collector-fences.sh's) and reads the counters. The
# records are compared with the parts the threads' timing decides taken out
# (atomics.awk: the number of spin loads, failed compare-and-swaps, and which
# consumer got which release number — checked instead to be 1, 2, 3 with
# each acquire naming the release before its own). Then the instrumenter's
# decisions, instruction by instruction, on hand-written IR
# (atomic-cases.ll: every ordering of loads, stores, atomicrmw and cmpxchg,
# fences, syncscope("singlethread"), another address space, an atomic too
# wide for one record, calls of the atomic library). The records leave out
# the tracing record (docs/collector.md §4: its times are the run's).
collector_setup || return 0
CLANG=${SMAIT_CLANG:-$(sed -n 's/^DEFAULT_CLANG=//p' "$BIN/smait-cc")}
export D CLANG

# records PREFIX: the set's records, addresses named, no branches, through atomics.awk.
records() {
    smait dump --set "$1.4" | awk -v SYMS="$1.syms" -v MAP="$1.4.map" -f "$D/hex.awk" -f "$D/normalize.awk" \
        "$1.syms" "$1.4.map" - | grep -Ev '^(branch|proc|pcall|tracing) ' | awk -f "$D/runs.awk" -f "$D/atomics.awk"
}
export -f records

check "smait-cc builds atomics.c" smait-cc -O1 -pthread "$D/atomics.c" -o atomics <<'EOF'
--- exit 0
EOF
# No warning: the fence is recorded (it has nothing to order here).
check "run: 4 traces, no warning" \
    bash -c 'TRACE_FILE_NAME=at ./atomics > at.syms 2> at.err; s=$?; sed -E "s/[0-9]+ records/N records/" at.err; exit $s' <<'EOF'
smait: trace output stored in:
        file at.4.0 for thread 0
        file at.4.1 for thread 1
        file at.4.2 for thread 2
        file at.4.3 for thread 3
        address map at.4.map
smait: 4 threads, N records
--- exit 0
EOF
# Thread 0 (the producer): create barriers (?), the barrier with the
# consumers, 1024 stores, the release store of the flag: its access, then
# release 1 of flag (after the store, so that whoever acquires it finds the
# store replayed). The seq_cst fence makes no record: no relaxed read comes
# before it (its acquire has nothing to acquire) and no atomic write after it
# (its release, nothing to carry). Its acquire load of the flag
# sees its own release: no record. Join barriers, then the final loads: the
# seq_cst load of counter and the acquire load of cas each acquire release 3
# (the acquire before the access, so that the load is replayed after the
# release); the relaxed load nothing.
# Each consumer: its first acquire load of the flag sees 0 (no record),
# the barrier, its spin loads (taken out), the load that sees release 1 of
# the flag, preceded by acquire seq=1; its 1024 loads, its sum; a second
# acquire load of the flag, of the version it already has: no record. The
# seq_cst fetch_add of counter is an acquire of the release before it (none
# for the first) and release r; the relaxed load of cas, then the
# compare-and-swap that succeeded with the same records (a failure, relaxed,
# makes only its access); the relaxed fetch_add: its access only.
check "the records: release after the store, acquire before the load, nothing for relaxed" records at <<'EOF'
thread 0
start_trace sync=1
spawn region=1 threads=0
barrier var=? threads=2 (x3)
barrier var=ready+0 threads=4
store 4 data (x1024)
store 4 flag+0
release obj=flag+0 seq=1 kind=6
load 4 flag+0
load 8 ?
barrier var=? threads=2
load 8 ?
barrier var=? threads=2
load 8 ?
barrier var=? threads=2
join
acquire obj=counter+0 seq=3 kind=6
load 8 counter+0
acquire obj=cas+0 seq=3 kind=6
load 4 cas+0
load 4 relaxed+0
load 4 sums+0
end_trace
thread 1
start_trace sync=1
spawn region=1 threads=0
barrier var=? threads=2
load 4 flag+0
barrier var=ready+0 threads=4
acquire obj=flag+0 seq=1 kind=6
load 4 flag+0
load 4 data (x1024)
store 4 sums+0
load 4 flag+0
acquire obj=counter+0 seq=r-1 kind=6 (none when r = 1)
atomic 8 counter+0
release obj=counter+0 seq=r kind=6
load 4 cas+0
acquire obj=cas+0 seq=r-1 kind=6 (none when r = 1)
atomic 4 cas+0
release obj=cas+0 seq=r kind=6
atomic 4 relaxed+0
barrier var=? threads=2
end_trace
thread 2
start_trace sync=1
spawn region=1 threads=0
barrier var=? threads=2
load 4 flag+0
barrier var=ready+0 threads=4
acquire obj=flag+0 seq=1 kind=6
load 4 flag+0
load 4 data (x1024)
store 4 sums+4
load 4 flag+0
acquire obj=counter+0 seq=r-1 kind=6 (none when r = 1)
atomic 8 counter+0
release obj=counter+0 seq=r kind=6
load 4 cas+0
acquire obj=cas+0 seq=r-1 kind=6 (none when r = 1)
atomic 4 cas+0
release obj=cas+0 seq=r kind=6
atomic 4 relaxed+0
barrier var=? threads=2
end_trace
thread 3
start_trace sync=1
spawn region=1 threads=0
barrier var=? threads=2
load 4 flag+0
barrier var=ready+0 threads=4
acquire obj=flag+0 seq=1 kind=6
load 4 flag+0
load 4 data (x1024)
store 4 sums+8
load 4 flag+0
acquire obj=counter+0 seq=r-1 kind=6 (none when r = 1)
atomic 8 counter+0
release obj=counter+0 seq=r kind=6
load 4 cas+0
acquire obj=cas+0 seq=r-1 kind=6 (none when r = 1)
atomic 4 cas+0
release obj=cas+0 seq=r kind=6
atomic 4 relaxed+0
barrier var=? threads=2
end_trace
releases of counter+0: 1 2 3
releases of cas+0: 1 2 3
--- exit 0
EOF
check "two more runs: the same records" bash -c '
    records at > at.ref
    for r in 2 3; do
        TRACE_FILE_NAME=at$r SMAIT_QUIET=1 ./atomics > at$r.syms && records at$r | cmp -s at.ref - && echo same
    done' <<'EOF'
same
same
--- exit 0
EOF
# The calls take no instruction slot: every access is still one instruction
# at the next slot of the synthetic code.
check "ciat: the branch stream is consistent (fetched = executed, no discontinuities)" bash -c '
    ciat -q at.4 && awk "\$1 == \"RxTxL06:\" { print (\$4 == \$6 && \$4 > 0) ? \"consistent\" : \"NOT\", \"discontinuities\", \$NF }" at.4.ciat_report' <<'EOF'
consistent discontinuities 0
--- exit 0
EOF
# Level 1 (call records only): the synchronisation is still recorded. Per
# thread: thread 0 1 release (flag), 2 acquires (counter, cas);
# the consumers 3 acquires of flag, 2 each of counter and cas (every
# consumer but the first), 6 releases.
check "level 1: the acquires and releases, no memory records" bash -c '
    SMAIT_LEVEL=1 smait-cc -O1 -pthread "$D/atomics.c" -o atomics1 && TRACE_FILE_NAME=l1 SMAIT_QUIET=1 ./atomics1 >/dev/null &&
    smait dump --set l1.4 | awk "\$1 ~ /^thread\$/ { t = \$2 } \$2 ~ /^(acquire|release|unmodelled|load|store|atomic)\$/ { n[(t > 0 ? \"consumers\" : \"thread 0\") \" \" \$2]++ }
        END { for (k in n) print k, n[k] }" | sort' <<'EOF'
consumers acquire 7
consumers release 6
thread 0 acquire 2
thread 0 release 1
--- exit 0
EOF

# ircalls LEVEL FILE.ll: what smait-instrument adds, decoded (ircalls.awk).
ircalls() {
    "$CLANG" -c -emit-llvm "$D/$2" -o in.bc && smait-instrument --level="$1" in.bc out.bc &&
        "$CLANG" -S -emit-llvm out.bc -o - | awk -f "$D/ircalls.awk"
}
export -f ircalls
# Brackets: __smait_atomic_begin before, __smait_atomic_end after, with the
# access record and a mode (acq: acquire when it succeeded; acq_fail:
# acquire when a cmpxchg failed; rel: release when it succeeded; ok: it
# succeeded; reads, writes: what it does to its object, which decides what a
# fence makes of it): loads acquire/seq_cst acq, stores release/seq_cst rel,
# RMWs by their ordering; a cmpxchg passes its outcome (ok ? mode with ok :
# mode): acq_rel/monotonic acquires and releases only when it succeeded,
# monotonic/acquire acquires only when it failed. Monotonic (relaxed)
# atomics: a load makes one call, __smait_relaxed_end, before it (the access
# record; the runtime notes the object for the next acquire fence); an
# atomic that writes, __smait_relaxed_begin before it (it takes the lock
# when the thread has made a release fence) and __smait_relaxed_end after
# it with what begin returned (begin |) and the outcome. Plain records,
# nothing more: unordered (LLVM's, which cannot synchronise) and
# syncscope("singlethread") (ordered against its own thread's signal
# handlers only). A fence (not singlethread) is followed by __smait_fence,
# acquire, release or both (acq_rel, seq_cst). An acquire in another address
# space (not plain memory), an atomic wider than 64 bytes (no one record:
# 8-byte pieces) and calls of the atomic library with an ordering other than
# relaxed count as unmodelled orderings; a relaxed atomic in another address
# space is nothing (the runtime does not see it; neither does a relaxed call
# of the atomic library). A 16-byte atomic is one record.
check "IR: the calls around each atomic (level 2)" ircalls 2 atomic-cases.ll <<'EOF'
load_monotonic
  relaxed_end load 4 mode ok,reads
  | %v = load atomic i32, i32* %p monotonic, align 4
load_unordered
  mem load 4
  | %v = load atomic i32, i32* %p unordered, align 4
load_acquire
  atomic_begin
  | %v = load atomic i32, i32* %p acquire, align 4
  atomic_end load 4 mode acq,ok,reads
load_seq_cst
  atomic_begin
  | %v = load atomic i32, i32* %p seq_cst, align 4
  atomic_end load 4 mode acq,ok,reads
store_monotonic
  relaxed_begin
  | store atomic i32 1, i32* %p monotonic, align 4
  relaxed_end store 4 mode begin | ok,writes
store_release
  atomic_begin
  | store atomic i32 1, i32* %p release, align 4
  atomic_end store 4 mode rel,ok,writes
store_seq_cst
  atomic_begin
  | store atomic i64 1, i64* %p seq_cst, align 8
  atomic_end store 8 mode rel,ok,writes
rmw_monotonic
  relaxed_begin
  | %v = atomicrmw add i32* %p, i32 1 monotonic, align 4
  relaxed_end atomic 4 mode begin | ok,reads,writes
rmw_acquire
  atomic_begin
  | %v = atomicrmw add i32* %p, i32 1 acquire, align 4
  atomic_end atomic 4 mode acq,ok,reads,writes
rmw_release
  atomic_begin
  | %v = atomicrmw xchg i32* %p, i32 1 release, align 4
  atomic_end atomic 4 mode rel,ok,reads,writes
rmw_acq_rel
  atomic_begin
  | %v = atomicrmw add i32* %p, i32 1 acq_rel, align 4
  atomic_end atomic 4 mode acq,rel,ok,reads,writes
rmw_seq_cst_float
  atomic_begin
  | %v = atomicrmw fadd float* %p, float 1.000000e+00 seq_cst, align 4
  atomic_end atomic 4 fp mode acq,rel,ok,reads,writes
rmw_singlethread
  mem atomic 4
  | %v = atomicrmw add i32* %p, i32 1 syncscope("singlethread") seq_cst, align 4
rmw_16_bytes
  atomic_begin
  | %v = atomicrmw add i128* %p, i128 1 seq_cst, align 16
  atomic_end atomic 16 mode acq,rel,ok,reads,writes
cmpxchg_acq_rel_monotonic
  atomic_begin
  | %r = cmpxchg i32* %p, i32 0, i32 1 acq_rel monotonic, align 4
  atomic_end atomic 4 mode ok ? acq,rel,ok,reads,writes : acq,rel,reads,writes
cmpxchg_seq_cst_seq_cst
  atomic_begin
  | %r = cmpxchg i32* %p, i32 0, i32 1 seq_cst seq_cst, align 4
  atomic_end atomic 4 mode ok ? acq,acq_fail,rel,ok,reads,writes : acq,acq_fail,rel,reads,writes
cmpxchg_release_monotonic
  atomic_begin
  | %r = cmpxchg i32* %p, i32 0, i32 1 release monotonic, align 4
  atomic_end atomic 4 mode ok ? rel,ok,reads,writes : rel,reads,writes
cmpxchg_monotonic_acquire
  atomic_begin
  | %r = cmpxchg i32* %p, i32 0, i32 1 monotonic acquire, align 4
  atomic_end atomic 4 mode ok ? acq_fail,ok,reads,writes : acq_fail,reads,writes
cmpxchg_monotonic_monotonic
  relaxed_begin
  | %r = cmpxchg weak i32* %p, i32 0, i32 1 monotonic monotonic, align 4
  relaxed_end atomic 4 mode begin | ok ? ok,reads,writes : reads,writes
fence_seq_cst
  | fence seq_cst
  fence acquire,release
fence_acquire
  | fence acquire
  fence acquire
fence_release
  | fence release
  fence release
fence_acq_rel
  | fence acq_rel
  fence acquire,release
fence_singlethread
  | fence syncscope("singlethread") seq_cst
load_monotonic_addrspace256
  | %v = load atomic i32, i32 addrspace(256)* %p monotonic, align 4
load_acquire_addrspace256
  unmodelled ordering
  | %v = load atomic i32, i32 addrspace(256)* %p acquire, align 4
load_seq_cst_128_bytes
  unmodelled ordering
  mem load 8
  mem load 8 +8
  mem load 8 +16
  mem load 8 +24
  mem load 8 +32
  mem load 8 +40
  mem load 8 +48
  mem load 8 +56
  mem load 8 +64
  mem load 8 +72
  mem load 8 +80
  mem load 8 +88
  mem load 8 +96
  mem load 8 +104
  mem load 8 +112
  mem load 8 +120
  | %v = load atomic i1024, i1024* %p seq_cst, align 128
library_load_seq_cst
  unmodelled ordering
  | call void @__atomic_load(i64 32, i8* %p, i8* %r, i32 5)
library_load_relaxed
  | call void @__atomic_load(i64 32, i8* %p, i8* %r, i32 0)
library_cas_relaxed_acquire
  unmodelled ordering
  | %ok = call i1 @__atomic_compare_exchange(i64 32, i8* %p, i8* %e, i8* %d, i32 0, i32 2)
library_is_lock_free
  | %ok = call i1 @__atomic_is_lock_free(i64 32, i8* %p)
--- exit 0
EOF
# Level 1: the same calls with no access record (no_access), no plain
# records at all.
check "IR: level 1 brackets without access records" bash -c '
    ircalls 1 atomic-cases.ll | grep -v "^  |" | awk "/^[a-z]/ { f = \$0; next } { print f \":\" \$0 }"' <<'EOF'
load_monotonic:  relaxed_end no access mode ok,no_access,reads
load_acquire:  atomic_begin
load_acquire:  atomic_end no access mode acq,ok,no_access,reads
load_seq_cst:  atomic_begin
load_seq_cst:  atomic_end no access mode acq,ok,no_access,reads
store_monotonic:  relaxed_begin
store_monotonic:  relaxed_end no access mode begin | ok,no_access,writes
store_release:  atomic_begin
store_release:  atomic_end no access mode rel,ok,no_access,writes
store_seq_cst:  atomic_begin
store_seq_cst:  atomic_end no access mode rel,ok,no_access,writes
rmw_monotonic:  relaxed_begin
rmw_monotonic:  relaxed_end no access mode begin | ok,no_access,reads,writes
rmw_acquire:  atomic_begin
rmw_acquire:  atomic_end no access mode acq,ok,no_access,reads,writes
rmw_release:  atomic_begin
rmw_release:  atomic_end no access mode rel,ok,no_access,reads,writes
rmw_acq_rel:  atomic_begin
rmw_acq_rel:  atomic_end no access mode acq,rel,ok,no_access,reads,writes
rmw_seq_cst_float:  atomic_begin
rmw_seq_cst_float:  atomic_end no access mode acq,rel,ok,no_access,reads,writes
rmw_16_bytes:  atomic_begin
rmw_16_bytes:  atomic_end no access mode acq,rel,ok,no_access,reads,writes
cmpxchg_acq_rel_monotonic:  atomic_begin
cmpxchg_acq_rel_monotonic:  atomic_end no access mode ok ? acq,rel,ok,no_access,reads,writes : acq,rel,no_access,reads,writes
cmpxchg_seq_cst_seq_cst:  atomic_begin
cmpxchg_seq_cst_seq_cst:  atomic_end no access mode ok ? acq,acq_fail,rel,ok,no_access,reads,writes : acq,acq_fail,rel,no_access,reads,writes
cmpxchg_release_monotonic:  atomic_begin
cmpxchg_release_monotonic:  atomic_end no access mode ok ? rel,ok,no_access,reads,writes : rel,no_access,reads,writes
cmpxchg_monotonic_acquire:  atomic_begin
cmpxchg_monotonic_acquire:  atomic_end no access mode ok ? acq_fail,ok,no_access,reads,writes : acq_fail,no_access,reads,writes
cmpxchg_monotonic_monotonic:  relaxed_begin
cmpxchg_monotonic_monotonic:  relaxed_end no access mode begin | ok ? ok,no_access,reads,writes : no_access,reads,writes
fence_seq_cst:  fence acquire,release
fence_acquire:  fence acquire
fence_release:  fence release
fence_acq_rel:  fence acquire,release
load_acquire_addrspace256:  unmodelled ordering
load_seq_cst_128_bytes:  unmodelled ordering
library_load_seq_cst:  unmodelled ordering
library_cas_relaxed_acquire:  unmodelled ordering
--- exit 0
EOF
