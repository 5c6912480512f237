# tracing.sh — the conditions a trace was taken under (tracing records,
# formats/SMAIT.md §5.2; common/tracing_conditions.h): the report header's
# "# tracing:" line, and the warning (header and standard error) that the
# recorded lock order is partly the tracing machine's time-slicing
# (docs/scheduler.md §6.1), with the figures derived by hand in
# tests/cli/tracing/locks.txt; when it is not given; the text form; and a
# program traced by smait-cc under taskset on one processor.
CLI_TRACING_WARNING=keep        # this file tests the warning itself
D=$CLI_DIR/tracing
W='the traces were taken on 2 processors for 3 threads, which waited 19.23% of the time they were ready to run for a processor (trace 1: 40.00%): the recorded order of their 3 lock acquisitions is then partly the tracing machine'"'"'s time-slicing, not the program'"'"'s; trace on at least as many free processors as threads, or compare with --sync=simulated (docs/scheduler.md §6.1)'
T='processors 2 online 4 traces 3 ran_us 2100 waited_us 500 waited 19.23% most trace 1 40.00%'

smait asm "$D/locks.txt" lk
check "ciat: the figures, and the warning on standard error" ciat lk.3 <<EOF
--- stderr
ciat: warning: $W
--- exit 0
EOF
check "ciat: the header's tracing line and warning, after the sync line" \
    grep -E '^# (sync|tracing|warning):' lk.3.ciat_report <<EOF
# sync: recorded
# tracing: $T
# warning: $W
--- exit 0
EOF
check "cdat: the same" bash -c 'cdat lk.3 "$SRC/configs/4x4.ini" && grep -E "^# (tracing|warning):" lk.3.cdat_report' <<EOF
# tracing: $T
# warning: $W
--- stderr
cdat: warning: $W
--- exit 0
EOF
check "smait schedule: the warning on standard error" bash -c 'smait schedule lk.3 >/dev/null' <<EOF
--- stderr
smait: warning: $W
--- exit 0
EOF
check "--sync=simulated: the figures, no warning (the replay does not follow the recorded order)" \
    bash -c 'ciat --sync=simulated lk.3 && grep -E "^# (tracing|warning):" lk.3.ciat_report' <<EOF
# tracing: $T
--- exit 0
EOF

# Below the threshold: T1 waited 10 us, T2 0: 10 / 2110 = 0.47% < 5%.
sed 's/waited_us=400/waited_us=10/; s/ran_us=500 waited_us=100/ran_us=500 waited_us=0/' "$D/locks.txt" >low.txt
smait asm low.txt low
check "waits under 5%: the figures, no warning" bash -c 'ciat low.3 && grep -E "^# (tracing|warning):" low.3.ciat_report' <<'EOF'
# tracing: processors 2 online 4 traces 3 ran_us 2100 waited_us 10 waited 0.47% most trace 1 1.64%
--- exit 0
EOF
# Without locks: the order of the other hand-overs is the program's.
grep -v _critical "$D/locks.txt" >nolocks.txt
smait asm nolocks.txt nl
check "no lock acquisitions: no warning" bash -c 'ciat nl.3 && grep -cE "^# warning:" nl.3.ciat_report' <<'EOF'
0
--- exit 1
EOF
# A machine without scheduler statistics: times unknown, no warning.
sed -E 's/ran_us=[0-9]+ waited_us=[0-9]+/ran_us=4294967295 waited_us=4294967295/' "$D/locks.txt" >unknown.txt
smait asm unknown.txt un
check "times unknown: said so, no warning" bash -c 'ciat un.3 && grep -E "^# (tracing|warning):" un.3.ciat_report' <<'EOF'
# tracing: processors 2 online 4 traces 3 times unknown (the tracing machine gave no scheduler statistics)
--- exit 0
EOF
# Traces without the record (older traces): no line at all.
grep -v '^tracing ' "$D/locks.txt" >old.txt
smait asm old.txt old
check "no tracing records: no tracing line, no warning" bash -c 'ciat old.3 && grep -cE "^# (tracing|warning):" old.3.ciat_report' <<'EOF'
0
--- exit 1
EOF
check "the text form: dump and assemble give the same bytes" bash -c '
    smait dump --set lk.3 > lk.txt && smait asm lk.txt again && for i in 0 1 2; do cmp lk.3.$i again.3.$i || exit 1; done
    smait dump lk.3.1 | grep tracing' <<'EOF'
26: tracing cpus=4 allowed=2 ran_us=600 waited_us=400
--- exit 0
EOF
check "smait stat counts it as a call" bash -c 'smait stat lk.3.1 | grep -E "^(call [0-9]+|call tracing [0-9]+|valid .*)$"' <<'EOF'
call 6
call tracing 1
valid yes
--- exit 0
EOF

# A program traced by smait-cc on one processor (taskset -c 0): every trace
# says allowed=1; its four workers, ready to run all the time, wait for the
# one processor most of it; ciat warns. (The share itself is the machine's.)
collector_setup || return 0
check "busylock: smait-cc builds it; traced under taskset -c 0" bash -c '
    smait-cc -O1 -pthread "$D/../collector/busylock.c" -o busylock &&
    TRACE_FILE_NAME=bl SMAIT_QUIET=1 taskset -c 0 ./busylock' <<'EOF'
done
--- exit 0
EOF
check "busylock: every trace has its tracing record, allowed=1, with times" bash -c '
    for i in 0 1 2 3 4; do smait dump bl.5.$i | grep -E ": tracing " | sed -E "s/^[0-9]+: //; s/cpus=[0-9]+/cpus=N/; s/_us=[0-9]+/_us=T/g; s/ @.*//"; done' <<'EOF'
tracing cpus=N allowed=1 ran_us=T waited_us=T
tracing cpus=N allowed=1 ran_us=T waited_us=T
tracing cpus=N allowed=1 ran_us=T waited_us=T
tracing cpus=N allowed=1 ran_us=T waited_us=T
tracing cpus=N allowed=1 ran_us=T waited_us=T
--- exit 0
EOF
check "busylock on one processor: ciat warns, naming the 4000 lock acquisitions" bash -c '
    ciat -q bl.5 2>&1 | sed -E "s/[0-9]+\.[0-9]+%/P%/g; s/trace [0-9]:/trace N:/"
    awk "\$2 == \"tracing:\" { print (\$14 + 0 >= 5 ? \"waited 5% or more\" : \"waited less: \" \$14) }" bl.5.ciat_report' <<'EOF'
ciat: warning: the traces were taken on 1 processor for 5 threads, which waited P% of the time they were ready to run for a processor (trace N: P%): the recorded order of their 4000 lock acquisitions is then partly the tracing machine's time-slicing, not the program's; trace on at least as many free processors as threads, or compare with --sync=simulated (docs/scheduler.md §6.1)
waited 5% or more
--- exit 0
EOF
