# collector-omp.sh — the OpenMP synchronisation the collector records
# (docs/collector.md §4.1): smait-cc -fopenmp builds the programs of
# tests/cli/collector/ (ompsync.c, omptasks.c, ompwarn.c, omphandoff.c), whose
# accesses are known. Checked three ways:
# * the records, named as in collector.sh (normalize.awk); release numbers
#   follow the real order of each run, so the goldens leave them out where
#   that order is decided at run time, and seqs.awk checks them instead (a
#   section ends with the number after the one it began with; a key's
#   releases are numbered 1 … n once each; every acquire names one);
# * hb.awk, which follows the recorded synchronisation with vector clocks
#   (independently of ciat's scheduler): every access to the programs'
#   named data must be ordered after the other threads' conflicting ones —
#   and, without the records under test, is not;
# * ciat's communication figures with the scheduler replaying the recorded
#   synchronisation (--sync=recorded), three runs alike.
collector_setup || return 0

# dump PREFIX SYMS: the trace set as normalized text (times dropped, names for addresses).
dump() {
    smait dump --set "$1" | awk -v SYMS="$2" -v MAP="$1.map" -f "$D/hex.awk" -f "$D/normalize.awk" "$2" "$1.map" -
}
# hb PREFIX SYMS [REGEX]: hb.awk on the set (records whose named text matches
# REGEX left out).
hb() {
    paste -d'|' <(smait dump --set "$1" | grep -Ev '^(#|byteorder|threads)|: tracing ') <(dump "$1" "$2") |
        grep -Ev "\|(${3:-^$})" | awk -f "$D/hb.awk" | sed -E 's/^(races): [0-9]+.*/\1/' | head -1
}
# syms PROGRAM SYMS NAME...: append the runtime's static NAMEs (nm) to SYMS,
# relocated like the program's first printed symbol.
syms() {
    local first base s
    first=$(awk 'NR == 1 { print $1 }' "$2")
    base=$(( $(awk -v f="$first" '$1 == f { print $2 }' "$2") - 0x$(nm "$1" | awk -v f="$first" '$3 == f { print $1 }') ))
    for s in "${@:3}"; do
        printf '%s 0x%x\n' "$s" $(( base + 0x$(nm "$1" | awk -v s="$s" '$3 == s { print $1 }') )) >> "$2"
    done
}
counts() { sed -E 's/[0-9]+ records/N records/'; }
export -f dump counts hb
export D

if ! smait-cc -O1 -fopenmp "$D/ompsync.c" -o ompsync 2>omp.build; then
    echo "(smait-cc -fopenmp cannot build here, no libomp? the OpenMP checks are skipped)"
    cat omp.build
else
# ---- ompsync.c: locks, ordered, reductions, single, copyprivate --------------
# The flush of each of the 3 threads is a fence (docs/collector.md §3), with
# nothing to record: no warning.
check "ompsync: run: 6 traces, no warning" \
    bash -c 'TRACE_FILE_NAME=os ./ompsync > os.syms 2> os.err; s=$?; counts < os.err; exit $s' <<'EOF'
smait: trace output stored in:
        file os.6.0 for thread 0
        file os.6.1 for thread 1
        file os.6.2 for thread 2
        file os.6.3 for thread 3
        file os.6.4 for thread 4
        file os.6.5 for thread 5
        address map os.6.map
smait: 6 threads, N records
--- exit 0
EOF
syms ompsync os.syms barrier_key ordered_key
dump os.6 os.syms | grep -Ev '^(branch|proc|pcall) |^(load|store) [0-9]+ \?$' > os.txt

# Region 1 (accesses to unnamed locations, the stack, left out). Each
# thread: the lock (kind 7) around counter++; the nestable lock taken twice
# and released twice is one section (only the outermost); the barrier.
# Thread 0 alone (masked): omp_test_lock succeeds, tested = counter. The
# ordered loop: thread i runs iterations i and i + 3, so its sections are
# numbers i and i + 3 of the loop's chain on ordered_key+0 (the loop's key;
# kind 9): begun after that many ends, ended with the next number; the
# loop's barrier. The reduction: libomp combines a team of 3 with an atomic
# add (atomic 4 red), then __kmpc_end_reduce's barrier and the loop's.
# The lock's numbers depend on the order the threads took it in (left out
# here, checked below).
check "ompsync: region 1: locks, nestable lock, ordered loop, reduction, barriers" \
    bash -c 'awk -v REGION=1 -f "$D/parts.awk" os.txt | sed -E "/_critical/ s/ seq=[0-9]+//"' <<'EOF'
thread 0
spawn region=1 threads=3
begin_critical lock=lock+0 kind=7
load 4 counter+0
store 4 counter+0
end_critical lock=lock+0 kind=7
begin_critical lock=nest+0 kind=7
load 4 nested+0
store 4 nested+0
end_critical lock=nest+0 kind=7
barrier var=barrier_key+0 threads=3
begin_critical lock=lock+0 kind=7
load 4 counter+0
store 4 tested+0
end_critical lock=lock+0 kind=7
begin_order lock=ordered_key+0 kind=9
load 4 pos+0
store 4 pos+0
store 4 order+0
end_order lock=ordered_key+0 seq=1 kind=9
begin_order lock=ordered_key+0 seq=3 kind=9
load 4 pos+0
store 4 pos+0
store 4 order+12
end_order lock=ordered_key+0 seq=4 kind=9
barrier var=barrier_key+0 threads=3
atomic 4 red+0
barrier var=barrier_key+0 threads=3
barrier var=barrier_key+0 threads=3
thread 1
spawn region=1 threads=3
begin_critical lock=lock+0 kind=7
load 4 counter+0
store 4 counter+0
end_critical lock=lock+0 kind=7
begin_critical lock=nest+0 kind=7
load 4 nested+0
store 4 nested+0
end_critical lock=nest+0 kind=7
barrier var=barrier_key+0 threads=3
begin_order lock=ordered_key+0 seq=1 kind=9
load 4 pos+0
store 4 pos+0
store 4 order+4
end_order lock=ordered_key+0 seq=2 kind=9
begin_order lock=ordered_key+0 seq=4 kind=9
load 4 pos+0
store 4 pos+0
store 4 order+16
end_order lock=ordered_key+0 seq=5 kind=9
barrier var=barrier_key+0 threads=3
atomic 4 red+0
barrier var=barrier_key+0 threads=3
barrier var=barrier_key+0 threads=3
thread 2
spawn region=1 threads=3
begin_critical lock=lock+0 kind=7
load 4 counter+0
store 4 counter+0
end_critical lock=lock+0 kind=7
begin_critical lock=nest+0 kind=7
load 4 nested+0
store 4 nested+0
end_critical lock=nest+0 kind=7
barrier var=barrier_key+0 threads=3
begin_order lock=ordered_key+0 seq=2 kind=9
load 4 pos+0
store 4 pos+0
store 4 order+8
end_order lock=ordered_key+0 seq=3 kind=9
begin_order lock=ordered_key+0 seq=5 kind=9
load 4 pos+0
store 4 pos+0
store 4 order+20
end_order lock=ordered_key+0 seq=6 kind=9
barrier var=barrier_key+0 threads=3
atomic 4 red+0
barrier var=barrier_key+0 threads=3
barrier var=barrier_key+0 threads=3
--- exit 0
EOF
# The lock: 3 sections and the test's, 4 releases; the nestable lock: 3;
# the ordered chain: 6.
check "ompsync: release numbers: the locks' sections and the ordered chain" \
    bash -c 'smait dump --set os.6 | awk -f "$D/seqs.awk"' <<'EOF'
critical: 2 keys, 7 releases, numbered in order
ordered: 1 keys, 6 releases, numbered in order
--- exit 0
EOF
# counter, nested, tested, order[0..5], pos, red, red6, red1, once,
# once_nowait, copied[0..2]: 18 locations.
check "ompsync: the recorded synchronisation orders every access to the named data" \
    hb os.6 os.syms <<'EOF'
ordered: 18 named locations, no races
--- exit 0
EOF
check "ompsync: without the lock and ordered sections, counter, nested and order race" \
    hb os.6 os.syms '(begin|end)_(critical|order)' <<'EOF'
races
--- exit 0
EOF
# Regions 2-4: which thread runs the single is decided at run time, so the
# parts are sorted (and copied[i] is copied+4i). The single's thread stores
# once, all meet at its barrier; single nowait: no barrier; copyprivate: the
# single's thread sets v (a stack variable) and publishes its address, a
# barrier, the two others copy it (clang's copy function: two pointers
# loaded, v loaded and stored), a second barrier; then every thread stores
# the value in copied[i].
check "ompsync: regions 2-4: single and its barrier, single nowait, copyprivate's two barriers" \
    bash -c 'dump os.6 os.syms | grep -Ev "^(branch|proc|pcall) " > os.all
        for r in 2 3 4; do awk -v REGION=$r -v ONELINE=1 -f "$D/parts.awk" os.all |
            sed -E "s/copied\+[0-9]+/copied+4i/" | sort; done' <<'EOF'
spawn region=2 threads=3; load 4 ?; barrier var=barrier_key+0 threads=3
spawn region=2 threads=3; load 4 ?; barrier var=barrier_key+0 threads=3
spawn region=2 threads=3; load 4 ?; store 4 once+0; barrier var=barrier_key+0 threads=3
spawn region=3 threads=3; load 4 ?
spawn region=3 threads=3; load 4 ?
spawn region=3 threads=3; load 4 ?; store 4 once_nowait+0
spawn region=4 threads=3; store 4 ?; load 4 ?; store 4 ?; store 8 ?; barrier var=barrier_key+0 threads=3; barrier var=barrier_key+0 threads=3; load 4 ?; store 4 copied+4i
spawn region=4 threads=3; store 4 ?; load 4 ?; store 8 ?; barrier var=barrier_key+0 threads=3; load 8 ?; load 8 ?; load 4 ?; store 4 ?; barrier var=barrier_key+0 threads=3; load 4 ?; store 4 copied+4i
spawn region=4 threads=3; store 4 ?; load 4 ?; store 8 ?; barrier var=barrier_key+0 threads=3; load 8 ?; load 8 ?; load 4 ?; store 4 ?; barrier var=barrier_key+0 threads=3; load 4 ?; store 4 copied+4i
--- exit 0
EOF
# Region 5, 6 threads: libomp would take its tree method for a team of more
# than 4 (the threads' partial results combined inside its barrier, every
# thread but the first leaving without __kmpc_end_reduce); the runtime
# keeps it to the atomic method, so all 6 parts are alike: the atomic add,
# the reduction's barrier, the loop's barrier.
check "ompsync: region 5: a reduction in a team of 6, the same records in every part" \
    bash -c 'awk -v REGION=5 -v ONELINE=1 -f "$D/parts.awk" os.txt | sort | uniq -c' <<'EOF'
      6 spawn region=5 threads=6; atomic 4 red6+0; barrier var=barrier_key+0 threads=6; barrier var=barrier_key+0 threads=6
--- exit 0
EOF
# Region 6, a team of one: libomp lets the thread combine alone, under no
# lock (__kmpc_reduce returns 1 as for its lock): no critical section, a
# plain load and store of red1, the two barriers of a team of 1.
check "ompsync: region 6: a reduction in a team of one is no critical section" \
    bash -c 'awk -v REGION=6 -f "$D/parts.awk" os.txt' <<'EOF'
thread 0
spawn region=6 threads=1
load 4 red1+0
store 4 red1+0
barrier var=barrier_key+0 threads=1
barrier var=barrier_key+0 threads=1
--- exit 0
EOF
# With KMP_FORCE_REDUCTION=critical libomp combines under the reduction's
# lock (clang's .gomp_critical_user_.reduction.var): a critical section
# (kind 8) with a plain load and store of red6, then the two barriers.
syms ompsync os.syms .gomp_critical_user_.reduction.var
check "ompsync: KMP_FORCE_REDUCTION=critical: the reduction is a critical section on its lock" \
    bash -c 'KMP_FORCE_REDUCTION=critical TRACE_FILE_NAME=osc SMAIT_QUIET=1 ./ompsync > /dev/null 2>&1 &&
        dump osc.6 os.syms | grep -Ev "^(branch|proc|pcall) |^(load|store) [0-9]+ \?$" |
        awk -v REGION=5 -v ONELINE=1 -f "$D/parts.awk" | sed -E "s/ seq=[0-9]+//g" | sort | uniq -c' <<'EOF'
      6 spawn region=5 threads=6; begin_critical lock=.gomp_critical_user_.reduction.var+0 kind=8; load 4 red6+0; store 4 red6+0; end_critical lock=.gomp_critical_user_.reduction.var+0 kind=8; barrier var=barrier_key+0 threads=6; barrier var=barrier_key+0 threads=6
--- exit 0
EOF

# ---- omptasks.c: tasks, taskwait, taskgroup, depend, if(0), taskloop ---------
# Which thread runs which task is decided at run time: the traces differ
# from run to run, what they must show does not. Kind-10 releases: each of
# the 4 tasks' creation and end (8); the taskgroup's task and its child:
# creation, end (to its parent's taskwait), end (to the group) (6); the
# depend() chain: creation, end, one end per address it names (1, 2, 2
# addresses: 3 + 4 + 4); the if(0) task: none (it runs in its creator, in
# program order; it acquires dep+8 instead); the taskloop: its pattern's
# creation, and per chunk the copy's creation, end and end to clang's
# taskgroup (1 + 6 x 3). 44 in all.
smait-cc -O1 -fopenmp "$D/omptasks.c" -o omptasks
for r in 1 2 3; do TRACE_FILE_NAME=ot$r SMAIT_QUIET=1 ./omptasks > ot.syms; echo $? > ot$r.status; done
check "omptasks: three runs: exit 0, 44 releases numbered in order" bash -c '
    for r in 1 2 3; do echo "exit $(cat ot$r.status): $(smait dump --set ot$r.3 | awk -f "$D/seqs.awk" | sed -E "s/[0-9]+ keys, //")"; done' <<'EOF'
exit 0: object: 44 releases, numbered in order
exit 0: object: 44 releases, numbered in order
exit 0: object: 44 releases, numbered in order
--- exit 0
EOF
# in[4] (written before the region), out[4], grp[2], dep[4], loop[6]: 20.
check "omptasks: three runs: the recorded edges order every access to the named data" \
    bash -c 'for r in 1 2 3; do hb ot$r.3 ot.syms; done' <<'EOF'
ordered: 20 named locations, no races
ordered: 20 named locations, no races
ordered: 20 named locations, no races
--- exit 0
EOF
# (No check without the task records: a run where one thread happens to run
# every task has nothing to race on.)

# ---- ompwarn.c: what is counted, not recorded ----------------------------------
# Each thread: the region's untraced inner team (its own wait at the inner
# barrier, untraced; its flush is a fence, recorded); the thread that ran the single
# (whichever came first: thread 0 or 1, as libomp's timing decides): the
# untied task and the task reduction (omp), listed apart below. The summary
# adds the inner teams' other two threads.
smait-cc -O1 -fopenmp "$D/ompwarn.c" -o ompwarn
check "ompwarn: untraced inner teams, untied tasks and task reductions are counted" \
    bash -c 'TRACE_FILE_NAME=ow ./ompwarn 2>&1 >/dev/null | grep warning; s=$?
        smait dump --set ow.2 | grep -E "^thread |unmodelled" | sed -E "s/ @.*//; s/ +#.*//; s/^[0-9]+: //" |
            awk "/what=6/ { omp = omp \$0 \" in one thread\"; n++; next } { print } END { print omp, n }"' <<'EOF'
smait: warning: 4 synchronisations by untraced threads: the analysis may not replay their order
smait: warning: 2 OpenMP constructs not recorded: the analysis may not replay their order
thread 0
unmodelled what=5 count=1
thread 1
unmodelled what=5 count=1
unmodelled what=6 count=2 in one thread 1
--- exit 0
EOF

# ---- omphandoff.c: one producer, three consumers (the issue's pattern) -----------
# Five ways to hand the data over, three runs each.
smait-cc -O1 -fopenmp "$D/omphandoff.c" -o handoff
for m in barrier lock critical ordered tasks; do
    for r in 1 2 3; do TRACE_FILE_NAME=$m$r SMAIT_QUIET=1 ./handoff $m > ho.syms || echo "$m run $r: exit $?"; done
done
for a in data work; do       # a name every 256 bytes (normalize.awk's reach)
    d=$(awk -v a=$a '$1 == a { print $2 }' ho.syms)
    for k in $(seq 1 15); do printf '%s_%d 0x%x\n' $a "$k" $(( d + 256 * k )); done >> ho.syms
done
# data[1024], sums[1..3], work[1024] (thread 0's), flag (polled by lock and
# critical): 2051 or 2052 locations.
check "handoff: every way, every run: the recorded synchronisation orders every access" \
    bash -c 'for m in barrier lock critical ordered tasks; do for r in 1 2 3; do echo "$m $r: $(hb $m$r.4 ho.syms)"; done; done' <<'EOF'
barrier 1: ordered: 2051 named locations, no races
barrier 2: ordered: 2051 named locations, no races
barrier 3: ordered: 2051 named locations, no races
lock 1: ordered: 2052 named locations, no races
lock 2: ordered: 2052 named locations, no races
lock 3: ordered: 2052 named locations, no races
critical 1: ordered: 2052 named locations, no races
critical 2: ordered: 2052 named locations, no races
critical 3: ordered: 2052 named locations, no races
ordered 1: ordered: 2051 named locations, no races
ordered 2: ordered: 2051 named locations, no races
ordered 3: ordered: 2051 named locations, no races
tasks 1: ordered: 2051 named locations, no races
tasks 2: ordered: 2051 named locations, no races
tasks 3: ordered: 2051 named locations, no races
--- exit 0
EOF
check "handoff: without the records that hand the data over, it races" \
    bash -c 'echo "lock: $(hb lock1.4 ho.syms "(begin|end)_critical")"
        echo "critical: $(hb critical1.4 ho.syms "(begin|end)_critical")"
        echo "ordered: $(hb ordered1.4 ho.syms "(begin|end)_order")"' <<'EOF'
lock: races
critical: races
ordered: races
--- exit 0
EOF

# ciat's figures with the scheduler replaying the recorded synchronisation.
# barrier (the reference): RAW 3072 (each consumer reads the 1024 values
# the producer wrote) + 3 (thread 0 reads sums[1..3]) + 6 (the consumers
# load the mode string's address, captured from thread 0's stack: 8 bytes,
# two locations, docs/ciat-report.md "Wide accesses") = 3081,
# no WAR, WAW or RAR. lock and critical: the same + 3 RAW (each consumer
# reads flag = 1, written by thread 0), WAR 1 (thread 0 sets flag after
# the others' first polls), RAR 3 (flag is read unset by the threads that
# did not poll it first). ordered: 3072 + 3 (no mode string in its loop).
# tasks: which threads run the consumers is decided at run time (RAW 1024
# per consumer thread other than the producer's, and more), but no consumer
# reads before the producer's writes: WAR, WAW and RAR 0. Simulated (the
# report's rules) the same traces give, e.g. for lock, RAW 6 WAR 1025 RAR
# 2051: the consumers run ahead of the producer's long work.
figures() {
    ciat -q --sync=recorded "$1" && grep -E '^RxTxL1[0245]:' "$1.ciat_report" | sed -E 's/^RxTxL[0-9]+: //' | tr '\n' ' '
}
export -f figures
check "handoff: ciat (recorded): three runs of each way give the figures of the data they move" \
    bash -c 'for m in barrier lock critical ordered; do for r in 1 2 3; do echo "$m $r: $(figures $m$r.4)"; done; done
        for r in 1 2 3; do echo "tasks $r: $(figures tasks$r.4 | sed -E "s/^raw [0-9]+ //")"; done' <<'EOF'
barrier 1: raw 3081 war 0 waw 0 rar 0 
barrier 2: raw 3081 war 0 waw 0 rar 0 
barrier 3: raw 3081 war 0 waw 0 rar 0 
lock 1: raw 3084 war 1 waw 0 rar 3 
lock 2: raw 3084 war 1 waw 0 rar 3 
lock 3: raw 3084 war 1 waw 0 rar 3 
critical 1: raw 3084 war 1 waw 0 rar 3 
critical 2: raw 3084 war 1 waw 0 rar 3 
critical 3: raw 3084 war 1 waw 0 rar 3 
ordered 1: raw 3075 war 0 waw 0 rar 0 
ordered 2: raw 3075 war 0 waw 0 rar 0 
ordered 3: raw 3075 war 0 waw 0 rar 0 
tasks 1: war 0 waw 0 rar 0 
tasks 2: war 0 waw 0 rar 0 
tasks 3: war 0 waw 0 rar 0 
--- exit 0
EOF
fi
