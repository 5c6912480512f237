# collector-sync.sh — recorded synchronisation in the collector
# (docs/collector.md §4, formats/SMAIT.md §5.1): the records smait-cc's
# runtime writes for each pthread primitive and for C++'s std::thread,
# std::mutex and std::condition_variable, whether their sequence numbers are
# consistent, and the communication ciat finds when it replays them.
#
# The programs (tests/cli/collector/): handoff.c, where the main thread (the
# producer, trace 0) works for a long time, writes 1024 ints and hands them
# to 3 consumers (traces 1-3) with the primitive argv[1] names; handoff.cc,
# the same in C++; syncmisc.c, one thread's calls whose records are known
# exactly. sync.awk turns a normalized dump into thread 0's synchronisation
# records, the other threads' as "N x shape" (records without their numbers:
# which consumer comes first varies from run to run) and a consistency line
# per lock and object (every release numbered once, 1 … R; every end of a
# section the release after its own begin; every acquire of a release some
# trace holds).
collector_setup || return 0

dump() {
    smait dump --set "$1" | awk -v SYMS="$2" -v MAP="$1.map" -f "$D/hex.awk" -f "$D/normalize.awk" "$2" "$1.map" -
}
# sync PREFIX SYMS [ALL]: sync.awk on the set (ALL=1: thread 0 as a shape too).
sync() { dump "$1" "$2" | awk -v ALL="${3:-0}" -f "$D/sync.awk"; }
# figures PREFIX: ciat's communication lines for the whole run.
figures() { ciat -q "$1" >/dev/null && grep -E '^RxTxL1[0-5]:' "$1.ciat_report"; }
# run PROG MODE PREFIX: one traced run (the objects' addresses in PREFIX.syms).
run() { TRACE_FILE_NAME=$3 SMAIT_QUIET=1 "./$1" $2 > "$3.syms"; }
export -f dump sync figures run

# The checker itself: a release numbered twice (lock a: both threads end
# with release 1), an end that is not the release after its begin and the
# releases it skips (lock b), a gap and an acquire of a release no trace
# holds (object s).
printf '%s\n' "thread 0" "begin_critical lock=a+0 kind=1" "end_critical lock=a+0 seq=1 kind=1" \
    "begin_critical lock=b+0 kind=1" "end_critical lock=b+0 seq=3 kind=1" \
    "release obj=s+0 seq=1 kind=5" "release obj=s+0 seq=3 kind=5" "thread 1" \
    "begin_critical lock=a+0 kind=1" "end_critical lock=a+0 seq=1 kind=1" \
    "acquire obj=s+0 seq=4 kind=5" > bad.sync
check "sync.awk on bad numbers: INCONSISTENT, and why" awk -f "$D/sync.awk" bad.sync <<'EOF'
thread 0: begin_critical a+0 kind=1 seq=0; end_critical a+0 kind=1 seq=1; begin_critical b+0 kind=1 seq=0; end_critical b+0 kind=1 seq=3; release s+0 kind=5 seq=1; release s+0 kind=5 seq=3
1 x begin_critical a+0 kind=1; end_critical a+0 kind=1; acquire s+0 kind=5
lock a+0 kind=1: 2 sections: INCONSISTENT: release 1 twice;
lock b+0 kind=1: 1 section: INCONSISTENT: end 3 after begin 0; release 1 missing; release 2 missing;
obj s+0 kind=5: 2 releases, 1 acquire (4): INCONSISTENT: release 2 missing; acquire of release 4 that no trace holds;
--- exit 0
EOF

check "smait-cc builds handoff.c" smait-cc -O1 -pthread "$D/handoff.c" -o handoff <<'EOF'
--- exit 0
EOF
for m in barrier sem cond cbarrier rwlock spin mutex; do
    run handoff $m h-$m || echo "handoff $m: exit $?"
done

# ---- the records of each primitive ------------------------------------------
# pthread_barrier_wait is a barrier record (03), as before: no numbered records.
check "barrier: no numbered records" sync h-barrier.4 h-barrier.syms <<'EOF'
thread 0: (none)
3 x (none)
--- exit 0
EOF
# sem_post is a release of the semaphore numbered before the real post; the
# m-th successful wait acquires post m - 0 (initial value 0): the consumers
# take posts 1, 2 and 3, in whatever order they woke.
check "semaphore: 3 posts, each wait acquires its own" sync h-sem.4 h-sem.syms <<'EOF'
thread 0: release sem+0 kind=5 seq=1; release sem+0 kind=5 seq=2; release sem+0 kind=5 seq=3
3 x acquire sem+0 kind=5
obj sem+0 kind=5: 3 releases, 3 acquires (1 2 3), consistent
--- exit 0
EOF
# Each consumer locks m, posts reg, finds the flag 0 and waits: its wait ends
# m's section (releases 1-3 of m, one per consumer). The producer waits for
# the three posts (acquires reg 1, 2, 3), locks m after all three waits
# (seq 3), sets the flag, broadcasts (release 1 of cv) and unlocks (release
# 4). Each consumer wakes with the first broadcast after its wait began
# (acquire cv 1), locks m again after the releases before it (4, 5, 6 in
# turn; wake=1, not shown by sync.awk) and unlocks: 7 sections in all.
check "condition variable + flag: end/begin around each wait, the broadcast a release, the wake-ups its acquires" \
    sync h-cond.4 h-cond.syms <<'EOF'
thread 0: acquire reg+0 kind=5 seq=1; acquire reg+0 kind=5 seq=2; acquire reg+0 kind=5 seq=3; begin_critical m+0 kind=1 seq=3; release cv+0 kind=4 seq=1; end_critical m+0 kind=1 seq=4
3 x begin_critical m+0 kind=1; release reg+0 kind=5; end_critical m+0 kind=1; acquire cv+0 kind=4; begin_critical m+0 kind=1; end_critical m+0 kind=1
obj reg+0 kind=5: 3 releases, 3 acquires (1 2 3), consistent
lock m+0 kind=1: 7 sections, consistent
obj cv+0 kind=4: 1 release, 3 acquires, consistent
--- exit 0
EOF
# The barrier built from cb.m and cb.c (cb+40): the last of the 4 to arrive
# broadcasts; the 3 others wait and wake with the broadcast. Which thread is
# last depends on the timing, so all 4 threads are shapes here.
check "condvar-built barrier: 3 waiters and the last one's broadcast" \
    sync h-cbarrier.4 h-cbarrier.syms 1 <<'EOF'
1 x begin_critical cb+0 kind=1; release cb+40 kind=4; end_critical cb+0 kind=1
3 x begin_critical cb+0 kind=1; end_critical cb+0 kind=1; acquire cb+40 kind=4; begin_critical cb+0 kind=1; end_critical cb+0 kind=1
lock cb+0 kind=1: 7 sections, consistent
obj cb+40 kind=4: 1 release, 3 acquires, consistent
--- exit 0
EOF
# The producer write-locks rw before it creates the consumers (acquire of
# release 0: nothing before it) and unlocks after writing (release 1); each
# reader acquires what was released when it got the lock (1, or more when
# another reader had let go already) and releases.
check "reader-writer lock: the writer's release, then the readers'" sync h-rwlock.4 h-rwlock.syms <<'EOF'
thread 0: acquire rw+0 kind=3 seq=0; release rw+0 kind=3 seq=1
3 x acquire rw+0 kind=3; release rw+0 kind=3
obj rw+0 kind=3: 4 releases, 4 acquires, consistent
--- exit 0
EOF
check "spin lock: critical sections of kind 2" sync h-spin.4 h-spin.syms <<'EOF'
thread 0: begin_critical spin+0 kind=2 seq=0; end_critical spin+0 kind=2 seq=1
3 x begin_critical spin+0 kind=2; end_critical spin+0 kind=2
lock spin+0 kind=2: 4 sections, consistent
--- exit 0
EOF
check "mutex: critical sections of kind 1, each after the unlock before it" sync h-mutex.4 h-mutex.syms <<'EOF'
thread 0: begin_critical m+0 kind=1 seq=0; end_critical m+0 kind=1 seq=1
3 x begin_critical m+0 kind=1; end_critical m+0 kind=1
lock m+0 kind=1: 4 sections, consistent
--- exit 0
EOF

# ---- what ciat finds ---------------------------------------------------------
# Replayed in the order it happened, every version has the data flow of the
# pthread_barrier one: the 1024 ints written once by the producer and read by
# each of the 3 consumers (RAW 3072, S[3] += 1024), the mode string's
# pointer main sets before the threads start and each consumer reads (8
# bytes: two 4-byte locations, docs/ciat-report.md "Wide accesses"; RAW 6,
# S[3] += 2), the 3 results the producer reads after the joins (RAW 3, S[1]
# += 3): RAW 3081, nothing else. (Before the replay followed the records, the consumers
# ran ahead of the producer: RAW 6, WAR 1024, RAR 2048 for sem and rwlock.)
for m in barrier sem rwlock spin mutex; do
check "ciat on $m: the barrier version's figures" figures h-$m.4 <<'EOF'
RxTxL10: raw 3081
RxTxL11: raw_degree 1:3 3:1026
RxTxL12: war 0
RxTxL13: war_degree
RxTxL14: waw 0
RxTxL15: rar 0
--- exit 0
EOF
done
# The flag adds its own communication: each consumer reads it once before
# it is set (the first reader finds a value nobody wrote: nothing; the
# other two: RAR 2), the producer's store invalidates the 3 readers (WAR 1,
# degree 3), and each consumer reads the 1 (RAW 3, S[3] += 1).
check "ciat on cond: the barrier version's figures + the flag's" figures h-cond.4 <<'EOF'
RxTxL10: raw 3084
RxTxL11: raw_degree 1:3 3:1027
RxTxL12: war 1
RxTxL13: war_degree 3:1
RxTxL14: waw 0
RxTxL15: rar 2
--- exit 0
EOF
# The barrier's variables add theirs, the same whichever thread comes last:
# cb.count is read and written by each arrival in turn (the 2nd, 3rd and
# 4th read the previous one's value and overwrite it: RAW 3, WAW 3, S[1] +=
# 3); cb.cycle is read by all 4 (never written before: RAR 3 after the
# first), written by the last (WAR 1, degree 3) and read again by the 3
# others after their wake-up (RAW 3, S[3] += 1).
check "ciat on cbarrier: the barrier version's figures + the barrier variables'" figures h-cbarrier.4 <<'EOF'
RxTxL10: raw 3087
RxTxL11: raw_degree 1:6 3:1027
RxTxL12: war 1
RxTxL13: war_degree 3:1
RxTxL14: waw 3
RxTxL15: rar 3
--- exit 0
EOF
# Two more traced runs of each: the same figures (the threads' real order
# differs from run to run; the data flow does not).
check "ciat: three traced runs give the same figures, for each primitive" bash -c '
    for m in barrier sem cond cbarrier rwlock spin mutex; do
        figures h-$m.4 > h-$m.fig
        for r in 2 3; do
            run handoff $m h$r-$m && figures h$r-$m.4 | cmp -s h-$m.fig - || echo "$m: run $r differs"
        done
    done; echo done' <<'EOF'
done
--- exit 0
EOF
# On one processor in turns (--turns, docs/scheduler.md §14) the threads run
# in another order again, one at a time, and the replay still follows the
# recorded synchronisation: the same figures, RAR included, for each turn
# (1 instruction, 50, and the producer's whole work in one turn).
check "ciat --turns 1, 50 and 1000000: the same figures, for each primitive" bash -c '
    for m in barrier sem cond cbarrier rwlock spin mutex; do
        for v in 1 50 1000000; do
            ciat -q --turns $v h-$m.4 >/dev/null && grep "^# turns: .* turn_length $v\$" h-$m.4.ciat_report >/dev/null &&
                grep -E "^RxTxL1[0-5]:" h-$m.4.ciat_report | cmp -s h-$m.fig - || echo "$m: turns $v differ"
        done
    done; echo done' <<'EOF'
done
--- exit 0
EOF

# ---- one thread's calls, exactly -------------------------------------------
# A recursive mutex locked 3 times is one section (its outermost lock and
# unlock); a trylock that finds the mutex busy records nothing; a timedlock
# and a cond_timedwait that time out are counted (the wait still ends and
# begins the mutex's section: it lets the mutex go and takes it back, the
# begin marked wake=1 as after every wait; no wake-up); an unlock that fails (EPERM: not the owner) records nothing; a
# signal nobody waits for is still a release. Semaphore of value 2: the
# first two waits take the initial tokens (no acquire), a failed trywait
# and a timed-out timedwait record nothing (the latter is counted), the
# post is release 1, the third wait acquires it. rwlock: a read lock and
# its unlock, a failed trywrlock (nothing), a timed-out timedwrlock
# (counted), a write lock and its unlock. Spin: trylock, a failed trylock,
# unlock. pthread_once: the thread that runs the routine writes its release
# and, having it, acquires nothing on its second call. A raw futex wait
# records nothing; a wake of a word no recorded atomic released is counted.
# Then a timer's thread (the C library starts it: untraced) posts `late`:
# the main thread's wait acquires nothing, and the post is counted. The
# counts are written before end_trace: what=1 futex 1, what=2 timeout 4.
check "smait-cc builds syncmisc.c" smait-cc -O1 -pthread "$D/syncmisc.c" -o syncmisc <<'EOF'
--- exit 0
EOF
check "syncmisc: the records, and the summary's warnings" bash -c '
    TRACE_FILE_NAME=sm ./syncmisc > sm.syms 2> sm.err; s=$?
    dump sm.1 sm.syms | grep -vE "^(load|store|atomic|branch|proc|pcall) "; grep warning sm.err; exit $s' <<'EOF'
start_trace sync=1
begin_critical lock=rec+0 kind=1
end_critical lock=rec+0 seq=1 kind=1
begin_critical lock=plain+0 kind=1
end_critical lock=plain+0 seq=1 kind=1
begin_critical lock=plain+0 seq=1 kind=1 wake=1
end_critical lock=plain+0 seq=2 kind=1
release obj=cv+0 seq=1 kind=4
release obj=sem+0 seq=1 kind=5
acquire obj=sem+0 seq=1 kind=5
acquire obj=rw+0 seq=0 kind=3
release obj=rw+0 seq=1 kind=3
acquire obj=rw+0 seq=1 kind=3
release obj=rw+0 seq=2 kind=3
begin_critical lock=spin+0 kind=2
end_critical lock=spin+0 seq=1 kind=2
release obj=once+0 seq=1 kind=11
unmodelled what=1 count=1
unmodelled what=2 count=4
end_trace
smait: warning: 1 raw futex system calls: the analysis may not replay their order
smait: warning: 4 timed waits that timed out: the analysis may not replay their order
smait: warning: 1 synchronisations by untraced threads: the analysis may not replay their order
--- exit 0
EOF
check "the warnings are printed with SMAIT_QUIET=1 too" bash -c '
    TRACE_FILE_NAME=sm2 SMAIT_QUIET=1 ./syncmisc 2>&1 >/dev/null | grep -c "^smait: warning: "' <<'EOF'
3
--- exit 0
EOF

# ---- C++ ----------------------------------------------------------------------
# The main thread holds m while it starts the 3 threads (begin, seq 0), then
# waits on cv_reg (its section ends: release 1 of m). Each consumer locks m
# (after the releases before it), increments nreg (the third also notifies
# cv_reg: release 1, inside libstdc++), and waits on cv (end: releases 2, 3,
# 4). The main thread wakes with cv_reg's release (acquire 1) and m after
# the three waits (seq 4), unlocks (5), locks again to set the flag (seq 5)
# and unlocks (6), then notifies all (release 1 of cv, after the unlock);
# each consumer wakes (acquire cv 1), takes m (6, 7, 8 in turn) and lets it
# go. The mutex calls come from this program's code (std::mutex is inline),
# the wait and notifications from libstdc++'s.
check "smait-cc builds handoff.cc with clang++ (a .cc source; C++ runtime linked)" \
    smait-cc -O1 -pthread "$D/handoff.cc" -o handoffxx <<'EOF'
--- exit 0
EOF
run handoffxx "" hx || echo "handoffxx: exit $?"
check "C++: std::thread, std::mutex and std::condition_variable, recorded" sync hx.4 hx.syms <<'EOF'
thread 0: begin_critical m+0 kind=1 seq=0; end_critical m+0 kind=1 seq=1; acquire cv_reg+0 kind=4 seq=1; begin_critical m+0 kind=1 seq=4; end_critical m+0 kind=1 seq=5; begin_critical m+0 kind=1 seq=5; end_critical m+0 kind=1 seq=6; release cv+0 kind=4 seq=1
1 x begin_critical m+0 kind=1; release cv_reg+0 kind=4; end_critical m+0 kind=1; acquire cv+0 kind=4; begin_critical m+0 kind=1; end_critical m+0 kind=1
2 x begin_critical m+0 kind=1; end_critical m+0 kind=1; acquire cv+0 kind=4; begin_critical m+0 kind=1; end_critical m+0 kind=1
lock m+0 kind=1: 9 sections, consistent
obj cv_reg+0 kind=4: 1 release, 1 acquire, consistent
obj cv+0 kind=4: 1 release, 3 acquires, consistent
--- exit 0
EOF
check "C++: std::thread's threads are traces 1-3, created and joined (the two-thread barriers)" bash -c '
    smait dump --set hx.4 | grep -cE ": (spawn|barrier var=0x[0-9a-f]+ threads=2|join) "' <<'EOF'
17
--- exit 0
EOF
# The data flow is handoff.c's: data (RAW 3072, S[3] += 1024) and the results
# (RAW 3, S[1] += 3). Each thread also reads the std::thread state the main
# thread built for it (the function's 8-byte pointer, two locations, and its
# int argument: RAW 3 each, S[1] += 9).
# The flag as in handoff.c's cond (RAW 3, S[3] += 1; WAR 1 of degree 3;
# RAR 2). nreg: the main thread reads 0 first (holding m), the first
# consumer reads the 0 (RAR 1) and stores 1 (WAR 1, degree 1: the main
# thread had read it), the second and third read and overwrite (RAW 2, WAW
# 2, S[1] += 2), and the main thread reads 3 (RAW 1, S[1] += 1).
check "C++: ciat's figures" figures hx.4 <<'EOF'
RxTxL10: raw 3090
RxTxL11: raw_degree 1:15 3:1025
RxTxL12: war 2
RxTxL13: war_degree 1:1 3:1
RxTxL14: waw 2
RxTxL15: rar 3
--- exit 0
EOF
check "C++: three traced runs give the same figures" bash -c '
    figures hx.4 > hx.fig
    for r in 2 3; do run handoffxx "" hx$r && figures hx$r.4 | cmp -s hx.fig - || echo "run $r differs"; done; echo done' <<'EOF'
done
--- exit 0
EOF
# Separately compiled: the object is C++ (it uses the C++ library), so the
# link goes through clang++ too; smait-c++ (every source C++) and -x c++
# (a source whose suffix says nothing) build it as well.
check "C++: smait-cc -c, then a link of the object alone; smait-c++; -x c++" bash -c '
    smait-cc -O1 -c "$D/handoff.cc" -o hx-obj.o && smait-cc -pthread hx-obj.o -o hx-obj &&
    run hx-obj "" hxo && figures hxo.4 | cmp -s hx.fig - && echo "object link: same figures"
    cp "$D/handoff.cc" handoff.txt
    smait-c++ -O1 -pthread "$D/handoff.cc" -o hx-cxx && run hx-cxx "" hxc && echo "smait-c++: runs"
    smait-cc -O1 -pthread -x c++ handoff.txt -x none -o hx-x && run hx-x "" hxx && echo "-x c++: runs"' <<'EOF'
object link: same figures
smait-c++: runs
-x c++: runs
--- exit 0
EOF
# A function-local static: its initialisation is a one-time initialisation
# on its guard variable (release 1, kind 11, by the thread that ran it);
# std::call_once is pthread_once. (The second f()'s inline check of the
# guard is an acquire load: an atomic's record, kind 6, not checked here.)
printf '%s\n' '#include <cstdio>' '#include <mutex>' 'int calls;' 'static int f() { static int x = ++calls; return x; }' \
    'std::once_flag flag;' 'int main() { f(); f(); std::call_once(flag, [] { calls++; });' \
    '  std::call_once(flag, [] { calls++; }); std::printf("flag %p\n", (void *)&flag); return calls != 2; }' > guard.cc
check "C++: a guarded static and std::call_once" bash -c '
    smait-cc -O1 -pthread guard.cc -o guard && TRACE_FILE_NAME=g SMAIT_QUIET=1 ./guard > g.syms &&
    base=$(( $(awk "\$1 == \"flag\" { print \$2 }" g.syms) - 0x$(nm guard | awk "\$3 == \"flag\" { print \$1 }") ))
    printf "guard 0x%x\n" $(( base + 0x$(nm guard | awk "\$3 ~ /^_ZGVZ/ { print \$1 }") )) >> g.syms
    dump g.1 g.syms | grep -E "^(acquire|release|unmodelled)" | grep -v " kind=6$"' <<'EOF'
release obj=guard+0 seq=1 kind=11
release obj=flag+0 seq=1 kind=11
--- exit 0
EOF

# C++20's std::barrier and std::counting_semaphore are header code: atomics
# (recorded as atomics, docs/collector.md §3) and raw futex waits and wakes
# (syscall(SYS_futex), inline in the program). The waits record nothing,
# and the wakes are of words a recorded atomic released (the semaphore's
# counter; the waiter pool's version counter for the barrier's phase), so
# no futex call is counted and no warning printed.
check "C++20: std::barrier and std::counting_semaphore: built, run, no unmodelled futex" bash -c '
    smait-cc -std=c++20 -O1 -pthread "$D/handoff20.cc" -o h20 || exit 1
    for m in barrier semaphore; do
        TRACE_FILE_NAME=h20-$m SMAIT_QUIET=1 ./h20 $m 2> h20-$m.err && echo "$m: exit 0"
        cat h20-$m.err
    done' <<'EOF'
barrier: exit 0
semaphore: exit 0
--- exit 0
EOF

# The hand-over replayed: each of the 1024 ints written once and read by all
# 3 consumers (S[3] >= 1024, none read before it was written: WAR well
# below 1024). Exact figures are not checked: the objects' own atomics add
# a few RAW, WAR and WAW that depend on how the threads met (which thread's
# compare-and-swap failed and was tried again).
check "C++20: the data reach all 3 consumers after they were written" bash -c '
    for m in barrier semaphore; do
        figures h20-$m.4 | awk -v m=$m "
            /RxTxL11:/ { for (i = 3; i <= NF; i++) { split(\$i, kv, \":\"); if (kv[1] == 3) s3 = kv[2] } }
            /RxTxL12:/ { war = \$3 }
            END { print m \": \" (s3 >= 1024 ? \"S[3] >= 1024\" : \"S[3] = \" s3) \", \" (war < 16 ? \"WAR < 16\" : \"WAR \" war) }"
    done' <<'EOF'
barrier: S[3] >= 1024, WAR < 16
semaphore: S[3] >= 1024, WAR < 16
--- exit 0
EOF

# ---- what smait-cc refuses, and its help ------------------------------------------
echo 'int main(void) { return 0; }' > ok.c
printf '.globl f\nf: ret\n' > asm.s
check_status "a source smait-cc cannot instrument is refused (assembly)" 2 \
    "^smait-cc: asm.s: cannot instrument assembly sources \(only C and C\+\+\): compile it with its own compiler \(-c\) and link the object; its code runs untraced$" \
    smait-cc ok.c asm.s -o x
check_status "-x assembler is refused" 2 "^smait-cc: asm.s: cannot instrument 'assembler' \(-x assembler\) sources" \
    smait-cc -x assembler asm.s -o x
check_status "a source on standard input is refused" 2 '^smait-cc: -: cannot instrument a source on standard input' \
    smait-cc -x c - -o x
check_status "libc++ is refused" 2 '^smait-cc: -stdlib=libc\+\+: the C\+\+ library must be libstdc\+\+' \
    smait-cc -stdlib=libc++ "$D/handoff.cc" -o x
check_true "nothing was built by the refused commands" test ! -e x
check "--help: usage, sources, options and exit status (exit 0)" bash -c '
    smait-cc --help > h.txt && head -2 h.txt && grep -cE "^  (-c|-o FILE|-x LANGUAGE|-h, --help|--version|SMAIT_LEVEL)" h.txt && grep "^Exit status" h.txt
    smait-c++ -h | cmp -s h.txt - && echo "smait-c++ -h: the same"' <<'EOF'
Usage: smait-cc [options] file...
       smait-c++ [options] file...     (also smait-cxx)
6
Exit status: 0 success; 1 clang, smait-instrument's input or the link
smait-c++ -h: the same
--- exit 0
EOF
# Every variable of docs/collector.md's environment tables (build and run)
# is named in --help, so the manual page made from it has them all.
sed -n '/^| environment/,/^$/p' "$CLI_DIR/../../docs/collector.md" | grep -oE '^\| `[A-Z_]+' | cut -c4- |
    sort -u > env-vars.txt
check "--help names every environment variable docs/collector.md lists" bash -c '
    smait-cc --help > h.txt; test -s env-vars.txt || echo "no variables found in the docs"
    while read -r v; do grep -qw "$v" h.txt || echo "missing: $v"; done < env-vars.txt' <<'EOF'
--- exit 0
EOF
check "--version" bash -c 'smait-cc --version; smait-c++ --version' <<'EOF'
smait-cc (dsmtrace) 0.1.0
smait-c++ (dsmtrace) 0.1.0
--- exit 0
EOF
