# cut.sh — cut traces (formats/SMAIT.md §12 "Cut trace") and --lenient's
# warnings: at most 10 of a kind, then one summary line of counts
# (formats/SMAIT.md §13); cut address maps (formats/ADDRESS-MAP.md,
# "Versions and the end line").
#
# A trace that begins with start_trace ends with end_trace; without it, it
# is cut (a killed program, a full disk). kill.txt is the issue's case: T1
# was killed after its store, before the barrier T0 waits at. Before cut
# traces were told apart, smait stat said "valid yes" and ciat reported a
# deadlock naming T0 only. Records: start_trace 0..5, store 6 (offset 48).
cat >kill.txt <<'EOF'
threads 2
thread 0
start_trace @0:0
store 4 0x100
barrier var=0x8000 threads=2 @1:2
load 4 0x200
end_trace @3:3
thread 1
start_trace @0:0
store 4 0x200
EOF
smait asm kill.txt kill
CUT='record 6: trace is cut: no end_trace after the last record (store 4 0x00000200'
WHY='a trace that begins with start_trace ends with end_trace: was the program killed, or the disk full?'

# ---- smait -------------------------------------------------------------------------------------
check "stat: the cut trace named, with its last record and offset (exit 2)" smait stat kill.2.1 <<EOF
--- stderr
smait: kill.2.1: 48: $CUT; $WHY)
--- exit 2
EOF
check "stat of the whole trace is fine" bash -c 'smait stat kill.2.0 | tail -3' <<'EOF'
corrupt_streams 0
cut_traces 0
valid yes
--- exit 0
EOF
check "stat --lenient: the counts, cut_traces 1, valid no; one warning, the summary" smait stat --lenient kill.2.1 <<EOF
file kill.2.1
byte_order little
compressed no
simple_records 7
records 2
memory 1 load 0 store 1 atomic 0
memory_size 4:1
memory_register fixed 1 float 0 vector 0
proc_start 0
branch 0
proc_call 0
call 1
call start_trace 1
skipped_records 0
truncated_bytes 0
corrupt_streams 0
cut_traces 1
valid no
--- stderr
smait: warning: kill.2.1: 48: $CUT); the trace is read as ending there
smait: --lenient: 1 cut trace read to its last record
--- exit 2
EOF
# A plain file's last record is read when it is opened: nothing is dumped.
# Compressed (and a pipe) the end is known when the reads reach it: the
# records first, then the same message.
check "dump of a plain cut trace: the message before any record" smait dump kill.2.1 <<EOF
--- stderr
smait: kill.2.1: 48: $CUT; $WHY)
--- exit 2
EOF
gzip -n -c kill.2.1 >kill1.gz
check "dump of a gzip cut trace: the records, then the message" smait dump kill1.gz <<EOF
# smait dump of kill1.gz
byteorder little
0: start_trace
6: store 4 0x00000200
--- stderr
smait: kill1.gz: 48: $CUT; $WHY)
--- exit 2
EOF
STDIN=kill.2.1 check "a pipe: the records, then the message" bash -c 'cat | smait dump -' <<EOF
# smait dump of -
byteorder little
0: start_trace
6: store 4 0x00000200
--- stderr
smait: -: 48: $CUT; $WHY)
--- exit 2
EOF
check "dump --lenient: every record, a comment, one warning, the summary (exit 0)" smait dump --lenient kill1.gz <<EOF
# smait dump of kill1.gz
byteorder little
0: start_trace
6: store 4 0x00000200
# lenient: the trace is cut (no end_trace after its last record)
--- stderr
smait: warning: kill1.gz: 48: $CUT); the trace is read as ending there
smait: --lenient: 1 cut trace read to its last record
--- exit 0
EOF
check "schedule: the cut, not the deadlock it would cause" smait schedule -p kill.2 <<EOF
--- stderr
smait: kill.2.1: 48: $CUT; $WHY)
--- exit 2
EOF

# ---- ciat and cdat: exit 2, no outputs; --lenient goes on ------------------------------------------
cat >m.ini <<'EOF'
[system]
nodes = 2
procs_per_node = 1
EOF
check "ciat: the cut trace named (exit 2), not the deadlock" ciat -p kill.2 <<EOF
--- stderr
ciat: kill.2.1: 48: $CUT; $WHY)
--- exit 2
EOF
check_true "ciat: no report, no memory file" test ! -e kill.2.ciat_report -a ! -e kill.2.memory
check "cdat: the same" cdat -p kill.2 m.ini <<EOF
--- stderr
cdat: kill.2.1: 48: $CUT; $WHY)
--- exit 2
EOF
check_true "cdat: no report" test ! -e kill.2.cdat_report
mkdir gz && cp kill.2.0 gz/ && cp kill1.gz gz/kill.2.1.gz
check "ciat on the gzip set: the same message once the trace is read, no output" \
    bash -c 'ciat -p gz/kill.2; echo "exit $?"; ls gz' <<EOF
exit 2
kill.2.0
kill.2.1.gz
--- stderr
ciat: gz/kill.2.1.gz: 48: $CUT; $WHY)
--- exit 0
EOF
# --lenient: the cut is T1's end; T0 then waits at a barrier nobody else
# reaches, which --lenient releases (its own warning). The report says both.
check "ciat --lenient: one warning naming the trace, the analysis goes on" ciat -p --lenient kill.2 <<EOF
--- stderr
ciat: warning: kill.2.1: 48: $CUT); the trace is read as ending there
ciat: warning: inconsistent traces: deadlock in phase 1; blocked threads released
ciat: --lenient: 1 cut trace read to its last record, 1 deadlock released
--- exit 0
EOF
check "ciat --lenient: the report header counts the cut" \
    grep -E '^# (lenient|bad_input|scheduler)|^R1T[01]L01' kill.2.ciat_report <<'EOF'
# lenient: trace 1: skipped_records 0 truncated_bytes 0 unpaired_calls 0 corrupt_streams 0 cut_traces 1
# bad_input: skipped_records 0 truncated_bytes 0 unpaired_calls 0 corrupt_streams 0 cut_traces 1
# scheduler: deadlocks_released 1 bad_unlocks 0 unprocessed_records 0
R1T0L01: mem total 2 loads 1 50.00% stores 1 50.00% atomics 0 0.00%
R1T1L01: mem total 1 loads 0 0.00% stores 1 100.00% atomics 0 0.00%
--- exit 0
EOF
# tail.txt: T1 was killed after its barrier (6..11) and its last store
# (12), losing only its end: with --lenient one warning, and the figures of
# the whole run.
sed 's/^store 4 0x200$/barrier var=0x8000 threads=2 @1:2\nstore 4 0x200/' kill.txt >whole.txt
echo 'end_trace @3:3' >>whole.txt
head -n -1 whole.txt >tail.txt
smait asm whole.txt whole
smait asm tail.txt tail
check "cdat --lenient on a trace cut after its last access: one warning" cdat -p --lenient tail.2 m.ini <<EOF
--- stderr
cdat: warning: tail.2.1: 96: record 12: trace is cut: no end_trace after the last record (store 4 0x00000200); the trace is read as ending there
cdat: --lenient: 1 cut trace read to its last record
--- exit 0
EOF
cdat -p whole.2 m.ini
check "... and the figures of the whole trace (but for its end_trace)" \
    bash -c 'diff <(grep -v "^#" whole.2.cdat_report) <(grep -v "^#" tail.2.cdat_report)' <<'EOF'
--- exit 0
EOF
check "the cut trace's report says so" grep '^# bad_input' tail.2.cdat_report <<'EOF'
# bad_input: skipped_records 0 truncated_bytes 0 unpaired_calls 0 corrupt_streams 0 cut_traces 1
--- exit 0
EOF

# ---- --lenient: at most 10 warnings of a kind, then the summary -------------------------------------
# many.txt: 25 invalid records (raw 0x20000000) and 12 ends of a critical
# section never begun (bad unlocks), one thread, start_trace to end_trace.
# Records: start_trace 0..5, then load 6 + 2k and invalid 7 + 2k (k = 0..24:
# the tenth invalid one is record 25), then the ends 56 + 6k (the tenth at
# 110).
{
    echo 'start_trace @0:0'
    for i in $(seq 1 25); do echo "load 4 0x$((1000 + i))"; echo 'raw 0x20000000 0'; done
    for i in $(seq 1 12); do echo "end_critical lock=0x9000 @$i:$i"; done
    echo 'end_trace @99:99'
} >many.txt
smait asm many.txt many.1.0
check "ciat --lenient: 10 of each kind, a note each, the counts" \
    bash -c 'ciat --lenient many.1 2>&1 | sed -E "s/record [0-9]+: invalid record kind: .*; skipped/record N: invalid record kind: …; skipped/;
                                               s/^(ciat: warning: many.1.0: )[0-9]+: /\1OFFSET: /;
                                               s/record [0-9]+: thread 0 ends/record N: thread 0 ends/" | uniq -c' <<'EOF'
     10 ciat: warning: many.1.0: OFFSET: record N: invalid record kind: …; skipped
      1 ciat: warning: --lenient: more bad records skipped than the 10 shown: the rest are only counted
     10 ciat: warning: many.1.0: OFFSET: record N: thread 0 ends a critical section on lock 0x00009000 that it does not hold (not held); ignored
      1 ciat: warning: --lenient: more bad unlocks ignored than the 10 shown: the rest are only counted
      1 ciat: --lenient: 25 bad records skipped (10 shown), 12 bad unlocks ignored (10 shown)
--- exit 0
EOF
check "the first and the tenth of each are the first and tenth met" \
    bash -c 'ciat --lenient many.1 2>&1 | grep -n "many.1.0" | sed -n "1p;10p;11p;20p" | cut -d: -f1,5,6' <<'EOF'
1: 56: record 7
10: 200: record 25
12: 448: record 56
21: 880: record 110
--- exit 0
EOF
check "the report counts them all" grep -E '^# (bad_input|scheduler)' many.1.ciat_report <<'EOF'
# bad_input: skipped_records 25 truncated_bytes 0 unpaired_calls 0 corrupt_streams 0
# scheduler: deadlocks_released 0 bad_unlocks 12 unprocessed_records 0
--- exit 0
EOF
check "without --lenient: the first bad record, exit 2" ciat many.1 <<'EOF'
--- stderr
ciat: many.1.0: 56: record 7: invalid record kind: bytes 00000020 00000000 (f1 20000000 as little-endian); it is valid as big-endian: try --byte-order=big
--- exit 2
EOF

# ---- the address map: a version 3 map ends with "# end of address map" ------------------------------
# a.txt: T0 stores at 0x2000 in producer, T1 loads it in consumer (L50:
# the RAW's code, named by the map).
cat >a.txt <<'EOF'
threads 2
thread 0
start_trace
proc 0x1000
store 4 0x2000
end_trace
thread 1
start_trace
proc 0x1100
load 4 0x2000
end_trace
EOF
smait asm a.txt a
cat >a.2.map <<'EOF'
# smait address map v3
code 0x00001000 0x00001100 producer /src/prog
code 0x00001100 0x00001200 consumer /src/prog
data 0x00002000 0x00003000 0x0000555555556000 /src/prog
# end of address map
EOF
check "a version 3 map with its end line is read" bash -c 'ciat -p --by-code a.2 && grep "^# attribution" a.2.ciat_report' <<'EOF'
# attribution: map a.2.map
--- exit 0
EOF
rm -f a.2.ciat_report a.2.memory
head -n 3 a.2.map >cut.map
check "ciat: a map cut short (exit 2, FILE:LINE)" ciat -p --by-code --map cut.map a.2 <<'EOF'
--- stderr
ciat: cut.map:3: address map is cut: no '# end of address map' line after line 3 (a map of format version 3 ends with one: was the program killed while it wrote the map, or the disk full?)
--- exit 2
EOF
check_true "ciat: no report, no memory file" test ! -e a.2.ciat_report -a ! -e a.2.memory
check "cdat: the same, --lenient or not (the map is not trace data)" cdat -p --lenient --by-data --map cut.map a.2 m.ini <<'EOF'
--- stderr
cdat: cut.map:3: address map is cut: no '# end of address map' line after line 3 (a map of format version 3 ends with one: was the program killed while it wrote the map, or the disk full?)
--- exit 2
EOF
check_true "cdat: no report" test ! -e a.2.cdat_report
head -c -10 a.2.map >cut2.map
check "a map cut inside its end line" ciat -p --by-data --map cut2.map a.2 <<'EOF'
--- stderr
ciat: cut2.map:5: address map is cut: no '# end of address map' line after line 5 (a map of format version 3 ends with one: was the program killed while it wrote the map, or the disk full?)
--- exit 2
EOF
gzip -n -c cut.map >cut.map.gz
check "a compressed map: the same" ciat -p --by-code --map cut.map.gz a.2 <<'EOF'
--- stderr
ciat: cut.map.gz:3: address map is cut: no '# end of address map' line after line 3 (a map of format version 3 ends with one: was the program killed while it wrote the map, or the disk full?)
--- exit 2
EOF
{ cat a.2.map; echo 'code 0x00001200 0x00001300 late /src/prog'; } >after.map
check "a line after the end line" ciat -p --by-code --map after.map a.2 <<'EOF'
--- stderr
ciat: after.map:6: a line after the end of the map ('# end of address map' at line 5)
--- exit 2
EOF
sed '1s/v3/v4/' a.2.map >v4.map
check "a version this reader does not know" ciat -p --by-code --map v4.map a.2 <<'EOF'
--- stderr
ciat: v4.map:1: address map of format version 4: this reader knows versions 1 to 3 (formats/ADDRESS-MAP.md)
--- exit 2
EOF
# Maps of collectors before version 3 have no end line and still load.
{ echo '# smait address map v2'; sed -n '2,4p' a.2.map; } >v2.map
sed -n '2,4p' a.2.map >v1.map
check "version 2 and 1 maps (no end line) are read as before" \
    bash -c 'for m in v2 v1; do ciat -p --by-code --map $m.map a.2 && grep "L50" a.2.ciat_report; done' <<'EOF'
RxTxL50: code_raw rank 1 count 1 kind function name consumer where -
RxTxL50: code_raw rank 1 count 1 kind function name consumer where -
--- exit 0
EOF
