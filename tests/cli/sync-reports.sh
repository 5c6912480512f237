# sync-reports.sh — recorded synchronisation in ciat's and cdat's reports
# (docs/scheduler.md §6.1): the "# sync:" header line says which rule was
# used, each cause of unmodelled synchronisation gives one warning on
# standard error and one "# warning:" header line, and --sync=recorded on
# traces that do not record their synchronisation is refused with nothing
# written. The scheduling itself is tested by tests/cli/schedule.sh.
#
# tests/cli/schedule/sync-ready.txt: 2 threads; trace 0 begins with
# start_trace sync=1; unmodelled records: futex 3 (T0) + 2 (T1), and
# what=9 (a cause the format does not name) 1 (T1).
smait asm "$CLI_DIR/schedule/sync-ready.txt" ready
smait asm "$CLI_DIR/schedule/critical.txt" old         # no start_trace: simulated
printf '[system]\nnodes = 1\nprocs_per_node = 4\n[output]\ngeneral = 0\ndetailed = 0\n' >m.ini

warn_futex='unmodelled futex: 5 in traces 0,1 (raw futex system calls): not replayed, so the interleaving may differ from the real run there'
warn_unknown='unmodelled unknown: 1 in trace 1 (unmodelled records of causes the format does not name): not replayed, so the interleaving may differ from the real run there'

check "ciat: one warning per cause on stderr" ciat -p ready.2 <<EOF
--- stderr
ciat: warning: $warn_futex
ciat: warning: $warn_unknown
--- exit 0
EOF
check "ciat: the sync line and the warnings in the report header" grep -E '^# (scheduler|sync|warning):' ready.2.ciat_report <<EOF
# scheduler: deadlocks_released 0 bad_unlocks 0 unprocessed_records 0
# sync: recorded
# warning: $warn_futex
# warning: $warn_unknown
--- exit 0
EOF
check "cdat: one warning per cause on stderr" cdat -p ready.2 m.ini <<EOF
--- stderr
cdat: warning: $warn_futex
cdat: warning: $warn_unknown
--- exit 0
EOF
check "cdat: the sync line and the warnings in the report header" grep -E '^# (scheduler|sync|warning|directory):' ready.2.cdat_report <<EOF
# scheduler: deadlocks_released 0 bad_unlocks 0 unprocessed_records 0
# sync: recorded
# warning: $warn_futex
# warning: $warn_unknown
# directory: lines 2
--- exit 0
EOF
check "--sync=simulated: said in the header; the warnings stay" bash -c \
    'ciat -p --sync=simulated ready.2 2>/dev/null && grep -E "^# (sync|warning):" ready.2.ciat_report' <<EOF
# sync: simulated (--sync=simulated)
# warning: $warn_futex
# warning: $warn_unknown
--- exit 0
EOF
check "slice mode: the edges are not replayed; the warnings stay" bash -c \
    'ciat -i 1 ready.2 2>/dev/null && grep -E "^# (sync|warning):" ready.2.ciat_report' <<EOF
# sync: simulated (slice mode: recorded synchronisation is not replayed)
# warning: $warn_futex
# warning: $warn_unknown
--- exit 0
EOF
check "traces without the flag: simulated, no warning" bash -c \
    'ciat -p old.4 && cdat -p old.4 m.ini && grep -h "^# sync:" old.4.ciat_report old.4.cdat_report' <<'EOF'
# sync: simulated (the traces do not record their synchronisation)
# sync: simulated (the traces do not record their synchronisation)
--- exit 0
EOF
rm -f old.4.ciat_report old.4.memory old.4.cdat_report
check "ciat --sync=recorded on traces without the flag: exit 2" ciat -p --sync=recorded old.4 <<'EOF'
--- stderr
ciat: old.4.0: --sync=recorded, but the traces do not record their synchronisation (trace 0 does not begin with start_trace sync=1)
--- exit 2
EOF
check "cdat --sync=recorded on traces without the flag: exit 2" cdat -p --sync=recorded old.4 m.ini <<'EOF'
--- stderr
cdat: old.4.0: --sync=recorded, but the traces do not record their synchronisation (trace 0 does not begin with start_trace sync=1)
--- exit 2
EOF
check_true "... and nothing written" test ! -e old.4.ciat_report -a ! -e old.4.memory -a ! -e old.4.cdat_report
check "--help names --sync (ciat, cdat, smait schedule)" bash -c \
    'for t in ciat cdat "smait schedule"; do $t --help | grep -c -- "--sync MODE"; done' <<'EOF'
1
1
1
--- exit 0
EOF
