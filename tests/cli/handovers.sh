# handovers.sh — --sync=handovers (docs/scheduler.md §6.2): recorded
# hand-overs kept, plain locks handed over by the pseudo clock. The
# hand-written set tests/cli/handovers/locks.txt (every figure derived
# there), the errors, and a lock kernel traced on one and on two processors:
# its one mutex is plain, so its figures are those of --sync=simulated and do
# not depend on the processors it was traced on.
D=$CLI_DIR/handovers
smait asm "$D/locks.txt" lk

# figures MODE: the # sync: line and the non-zero RAW and WAW lines.
figures() {
    ciat --sync="$1" lk.3 && grep -E '^# sync:' lk.3.ciat_report &&
        grep -E '^RxT[0-9]+L1[04]:' lk.3.ciat_report | grep -v ' 0$'
}
export -f figures
check "recorded: P to T2 first (T1's WAW), H to T1 first (T2's RAW)" figures recorded <<'EOF'
# sync: recorded
RxT1L14: waw 1
RxT2L10: raw 1
--- exit 0
EOF
check "handovers: P (plain) by the clock, T1 first (T2's WAW); H recorded (T2's RAW); 1 of 2 locks plain" \
    figures handovers <<'EOF'
# sync: handovers (plain locks by the pseudo clock: 1 of 2)
RxT2L10: raw 1
RxT2L14: waw 1
--- exit 0
EOF
check "smait schedule --sync=handovers: T1 takes P at clock 0, T2 at 3 after T1's release" bash -c '
    smait schedule --sync=handovers lk.3 | grep -E "^# sync|_critical lock=0x00009000"' <<'EOF'
# sync: handovers (plain locks by the pseudo clock: 1 of 2)
0 T1 12: begin_critical lock=0x00009000 seq=1 kind=1
1 T1 19: end_critical lock=0x00009000 seq=2 kind=1
3 T2 15: begin_critical lock=0x00009000 kind=1
4 T2 22: end_critical lock=0x00009000 seq=1 kind=1
--- exit 0
EOF

# Errors: traces that do not record their synchronisation; slice mode;
# standard input (the traces are read twice).
grep -v '^start_trace' "$D/locks.txt" >plain.txt
smait asm plain.txt pl
check_status "traces without sync=1: exit 2" 2 'pl\.3\.0: --sync=handovers, but the traces do not record their synchronisation' \
    ciat --sync=handovers pl.3
check "slice mode: a usage error" ciat --sync=handovers -i 2 lk.3 <<'EOF'
--- stderr
ciat: --sync=handovers is for thread mode; slice mode (-i) orders processes by their time stamps and does not replay recorded synchronisation
ciat: try 'ciat --help'
--- exit 1
EOF
echo - >stdin.list
STDIN=lk.3.1 check "standard input: a usage error" ciat --sync=handovers -o . -t stdin.list <<'EOF'
--- stderr
ciat: --sync=handovers reads every trace twice (once to find the plain locks): not from standard input
ciat: try 'ciat --help'
--- exit 1
EOF

collector_setup || return 0
smait-cc -O1 -pthread "$D/../collector/busylock.c" -o busylock
for c in 0 0,1; do TRACE_FILE_NAME="b${c/,/}" SMAIT_QUIET=1 taskset -c "$c" ./busylock >/dev/null; done
# lines TRACES MODE: L08, L10-L15 of the run's Rx block.
lines() { ciat -q --sync="$2" "$1" 2>/dev/null && grep -E '^RxT[0-9x]+L(08|1[0-5]):' "$1.ciat_report"; }
export -f lines
lines b0.5 handovers >h0
lines b01.5 handovers >h01
lines b0.5 simulated >s0
check_same "busylock: handovers on one processor = on two" h0 h01
check_same "busylock: handovers = simulated (its one mutex is plain)" s0 h0
check "busylock: its mutex is plain; RAW = the 7998 hand-overs of the counter" bash -c '
    ciat -q --sync=handovers b0.5 2>/dev/null; grep "^# sync" b0.5.ciat_report; grep -E "^RxTxL10:" h0' <<'EOF'
# sync: handovers (plain locks by the pseudo clock: 1 of 1)
RxTxL10: raw 7998
--- exit 0
EOF
