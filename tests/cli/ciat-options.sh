# ciat-options.sh — every ciat option in both spellings (the report's
# -name_with_underscores and the GNU --name-with-dashes, docs/trace-sets.md §4), each with
# an effect that shows in the outputs, and invalid values (usage errors:
# exit 1, a message and the --help hint). The trace set is
# tests/cli/ciat/opt.txt; its comments derive the numbers checked here.
D=$CLI_DIR/ciat
. "$D/lib.sh"

smait asm "$D/opt.txt" opt

# same_report NAME A B: two reports are equal but for the "# command:" line.
same_report() {
    check "$1" diff <(grep -v '^# command: ' "$2") <(grep -v '^# command: ' "$3") <<'EOT'
--- exit 0
EOT
}
# show PREFIX REGEX: ciat's report lines of PREFIX matching REGEX.
show() {
    grep -E "$2" "$1.ciat_report"
}

# ---- help and version ---------------------------------------------------------------
check "--version" ciat --version <<'EOF'
ciat (dsmtrace) 0.1.0
--- exit 0
EOF
check "-h starts with the usage" bash -c 'ciat -h | head -2' <<'EOF'
Usage: ciat [options] [calls.P] trace.P
       ciat [options] [-c call_list] -t trace_list
--- exit 0
EOF
check "--help names every option in both spellings" bash -c '
    help=$(ciat --help)
    for o in -ciat_events --ciat-events -comm_matrix --comm-matrix -matrix_svg --matrix-svg -false_sharing --false-sharing \
             -line_size --line-size -false_lines --false-lines --migratory --grain -page_size --page-size -HPUX --hpux \
             -private_range --private-range -p, --parallel -gap_limit --gap-limit \
             -t, --trace-list -c, --call-list -o, --output-dir -q, --quiet \
             -byte_order --byte-order --lenient -h, --help --version; do
        grep -qe " $o" <<<"$help" || echo "missing: $o"
    done' <<'EOF'
--- exit 0
EOF

# ---- the baseline: ciat -p opt.2 ----------------------------------------------------------
ciat -p opt.2
cp opt.2.ciat_report base.report
cp opt.2.memory base.memory
check "baseline: options, instructions, RAW/RAR, calls, pages" show opt.2 '^# options|^RxTxL(06|07|10|15|2[0-2]):' <<'EOF'
# options: gap_limit 4096 parallel_start yes lenient no events no grain 4 page_size 4096
RxTxL06: instr executed 1027 fetched 1027 branches 1 calls 0 instrumented_calls 2 discontinuities 0
RxTxL07: call write count 2 time_us 25 bytes 72
RxTxL10: raw 0
RxTxL15: rar 1
RxTxL20: pages 4
RxTxL21: shared_pages 2
RxTxL22: range_shared_pages 2
--- exit 0
EOF
check_true "baseline: no event trace without -ciat_events" test ! -e opt.2.ciat_events

# The '# command:' line quotes what a shell would need quoted, so that it can
# be run again as it is: a prefix with a blank and a quote, an event file.
for i in 0 1; do cp "opt.2.$i" "it's a set.2.$i"; done
ciat -p --events "it's events" "it's a set.2"
check "# command: each argument quoted as the shell needs it" grep '^# command:' "it's a set.2.ciat_report" <<'EOF'
# command: ciat -p --events 'it'\''s events' 'it'\''s a set.2'
--- exit 0
EOF
check "# command: run again as it stands, the same report" bash -c '
    mv "it'\''s a set.2.ciat_report" first.report
    eval "$(sed -n "s/^# command: //p" first.report)" && cmp first.report "it'\''s a set.2.ciat_report" && echo same' <<'EOF'
same
--- exit 0
EOF

# ---- -ciat_events / --ciat-events -----------------------------------------------------------
ciat -p -ciat_events opt.2
check "-ciat_events writes <prefix>.ciat_events" cat opt.2.ciat_events <<'EOF'
# ciat communication events of opt.2
# fields: clock event thread degree
# clock = the thread's pseudo clock after the access; event RAW WAR WAW RAR; degree = invalidation degree for WAR, 1 for WAW, 0 for RAW and RAR
2 RAR 1 0
--- exit 0
EOF
check "-ciat_events: the header says events yes" show opt.2 '^# options' <<'EOF'
# options: gap_limit 4096 parallel_start yes lenient no events yes grain 4 page_size 4096
--- exit 0
EOF
check "-ciat_events: the rest of the report is unchanged" diff <(grep -v '^# \(command\|options\)' base.report) <(grep -v '^# \(command\|options\)' opt.2.ciat_report) <<'EOF'
--- exit 0
EOF
mv opt.2.ciat_events events.expected
cp opt.2.ciat_report events.report
ciat -p --ciat-events opt.2
check_same "--ciat-events: the same event trace" events.expected opt.2.ciat_events
same_report "--ciat-events: the same report" events.report opt.2.ciat_report
rm opt.2.ciat_events
ciat -p opt.2
check_true "a later run without it writes no event trace" test ! -e opt.2.ciat_events

# ---- -comm_matrix / --comm-matrix ----------------------------------------------------------
# opt.txt has one RAR and no RAW or WAR: every comm and inval line is empty.
ciat -p -comm_matrix opt.2
check "-comm_matrix: a header line and L16/L17 lines, empty here" show opt.2 '^# comm_matrix|^R.T.L1[67]:' <<'EOF'
# comm_matrix: yes
R1T0L16: comm
R1T0L17: inval
R1T1L16: comm
R1T1L17: inval
R1TxL16: comm
R1TxL17: inval
RxT0L16: comm
RxT0L17: inval
RxT1L16: comm
RxT1L17: inval
RxTxL16: comm
RxTxL17: inval
--- exit 0
EOF
check "-comm_matrix: the rest of the report is unchanged" diff <(grep -v '^# \(command\|comm_matrix\)' base.report) <(grep -v -e '^# \(command\|comm_matrix\)' -e '^R.T.L1[67]:' opt.2.ciat_report) <<'EOF'
--- exit 0
EOF
cp opt.2.ciat_report matrix.report
ciat -p --comm-matrix opt.2
same_report "--comm-matrix: the same report" matrix.report opt.2.ciat_report

# ---- -false_sharing / --false-sharing, -line_size, -false_lines ------------------------------
# opt.txt: T0 stores 0x1000 and loads 0x40000000, T1 loads 0x1004 and
# 0x40000000: each thread's first access to each of two lines, 2 cold misses
# each, nothing else (at 4-byte lines too). At 4-byte lines 0x1000 and 0x1004
# are private lines (one access each) and 0x40000000 is read-only shared.
ciat -p -false_sharing opt.2
check "-false_sharing: a header line and L18 lines" show opt.2 '^# false_sharing|^RxT.L1[89]:' <<'EOF'
# false_sharing: line_size 64 false_lines 10 migratory 50
RxT0L18: line 64 cold 2 true_sharing 0 false_sharing 0 upgrades 0
RxT1L18: line 64 cold 2 true_sharing 0 false_sharing 0 upgrades 0
RxTxL18: line 64 cold 4 true_sharing 0 false_sharing 0 upgrades 0
--- exit 0
EOF
check "-false_sharing: the rest of the report is unchanged" diff <(grep -v '^# \(command\|false_sharing\)' base.report) <(grep -v -e '^# \(command\|false_sharing\)' -e '^R.T.L1[89]:' -e '^RxTxL4[0-4]:' opt.2.ciat_report) <<'EOF'
--- exit 0
EOF
cp opt.2.ciat_report fs.report
for spelling in "--false-sharing" "--line-size=64" "-line_size 64" "--false-sharing --false-lines 10"; do
    # shellcheck disable=SC2086
    ciat -p $spelling opt.2
    same_report "$spelling: the same report" fs.report opt.2.ciat_report
done
ciat -p --line-size=4 --false-lines=0 opt.2
check "--line-size=4 --false-lines=0: 4-byte lines, patterns" show opt.2 '^# false_sharing|^RxTxL(1[89]|4[0-4]):' <<'EOF'
# false_sharing: line_size 4 false_lines 0 migratory 50
RxTxL18: line 4 cold 4 true_sharing 0 false_sharing 0 upgrades 0
RxTxL40: private lines 2 bytes 8 accesses 2
RxTxL41: read_only_shared lines 1 bytes 4 accesses 2
RxTxL42: migratory lines 0 bytes 0 accesses 0
RxTxL43: producer_consumer lines 0 bytes 0 accesses 0
RxTxL44: other_shared lines 0 bytes 0 accesses 0
--- exit 0
EOF

# ---- -grain / --grain ------------------------------------------------------------------------
# opt.txt: T0 stores 0x1000, then T1 loads 0x1004: one location at grain 8.
for spelling in "-grain 8" "--grain=8" "--grain 8"; do
    # shellcheck disable=SC2086
    ciat -p $spelling opt.2
    check "$spelling: 0x1000 and 0x1004 are one location: RAW 1" show opt.2 '^# options|^RxTxL1[01]:' <<'EOF'
# options: gap_limit 4096 parallel_start yes lenient no events no grain 8 page_size 4096
RxTxL10: raw 1
RxTxL11: raw_degree 1:1
--- exit 0
EOF
done
# grain 1: every byte is a location, and an access is one of every byte it
# covers (docs/ciat-report.md, "Wide accesses"): 0x1004-0x1007 (T0's fetch
# of its second instruction, T1's load) and 0x40000000-0x40000003 (both
# loads) are shared: 8 bytes.
ciat -p -grain 1 opt.2
check "-grain 1 (the smallest): RAW 0, shared bytes of 1-byte locations" show opt.2 '^# options|^RxTxL(10|26):' <<'EOF'
# options: gap_limit 4096 parallel_start yes lenient no events no grain 1 page_size 4096
RxTxL10: raw 0
RxTxL26: shared_bytes 8
--- exit 0
EOF
# grain 64: 0x1000-0x103f (T0's store and fetches, T1's load) and
# 0x40000000-0x4000003f (both loads) are shared: 64 + 4 touched bytes.
ciat -p --grain=64 opt.2
check "--grain=64 (the largest): shared bytes of 64-byte locations" show opt.2 '^# options|^RxTxL(10|26):' <<'EOF'
# options: gap_limit 4096 parallel_start yes lenient no events no grain 64 page_size 4096
RxTxL10: raw 1
RxTxL26: shared_bytes 68
--- exit 0
EOF

# ---- -page_size / --page-size ---------------------------------------------------------------
ciat -p -page_size 8192 opt.2
check "-page_size 8192: pages of 8 KiB" bash -c 'grep -E "^RxTxL2[0-2]:" opt.2.ciat_report; cat opt.2.memory' <<'EOF'
RxTxL20: pages 3
RxTxL21: shared_pages 3
RxTxL22: range_shared_pages 3
# dsmtrace memory usage
# page_size 8192
# fields: page touched_bytes code_bytes shared_bytes data_accesses code_accesses shared_data_accesses shared_code_accesses owner
0 4096 4096 4 2 1024 1 1 -1
1 12 12 0 0 3 0 0 -1
131072 4 0 4 2 0 2 0 -1
--- exit 0
EOF
cp opt.2.ciat_report ps.report
cp opt.2.memory ps.memory
for spelling in "--page-size=8192" "--page-size 8192"; do
    # shellcheck disable=SC2086
    ciat -p $spelling opt.2
    same_report "$spelling: the same report" ps.report opt.2.ciat_report
    check_same "$spelling: the same memory file" ps.memory opt.2.memory
done
ciat -p -page_size 64 opt.2
check "-page_size 64 (the smallest): 67 pages" bash -c 'grep -E "^RxTxL20:" opt.2.ciat_report && sed -n "2p;4,5p" opt.2.memory' <<'EOF'
RxTxL20: pages 67
# page_size 64
64 64 64 4 2 16 1 1 -1
65 64 64 0 0 16 0 0 0
--- exit 0
EOF

# ---- -HPUX / --hpux --------------------------------------------------------------------------
# Pages 1, 2 and 3 lie outside 0x40000000-0x7fffffff: range-shared; page
# 262144 is in the private range but shared anyway.
ciat -p -HPUX opt.2
check "-HPUX: every page outside the private range is range-shared" \
    show opt.2 '^# (options|private)|^RxTxL(2[12]|28|33|37):' <<'EOF'
# options: gap_limit 4096 parallel_start yes lenient no events no grain 4 page_size 4096
# private_range 0x40000000:0x7fffffff
RxTxL21: shared_pages 2
RxTxL22: range_shared_pages 4
RxTxL28: range_shared_bytes 4112
RxTxL33: range_shared_data_accesses 4
RxTxL37: range_shared_code_accesses 1027
--- exit 0
EOF
check_same "-HPUX does not change the memory file" base.memory opt.2.memory
cp opt.2.ciat_report hpux.report
ciat -p --hpux opt.2
same_report "--hpux = -HPUX" hpux.report opt.2.ciat_report
ciat -p -private_range 0x40000000:0x7fffffff opt.2
same_report "-HPUX = -private_range 0x40000000:0x7fffffff" hpux.report opt.2.ciat_report

# ---- -private_range / --private-range (repeatable) -----------------------------------------------
ciat -p -private_range 0x3000:0x3fff opt.2
check "-private_range 0x3000:0x3fff: page 3 private, pages 1 2 262144 range-shared" \
    show opt.2 '^# private|^RxTxL2[12]:' <<'EOF'
# private_range 0x00003000:0x00003fff
RxTxL21: shared_pages 2
RxTxL22: range_shared_pages 3
--- exit 0
EOF
cp opt.2.ciat_report pr.report
for spelling in "--private-range=0x3000:0x3fff" "--private-range 12288:16383" "-private_range 0X3000:0x3FFF"; do
    # shellcheck disable=SC2086
    ciat -p $spelling opt.2
    same_report "$spelling: the same report" pr.report opt.2.ciat_report
done
ciat -p -private_range 0x3000:0x3fff --private-range=0x2000:0x2fff opt.2
check "two private ranges: pages 2 and 3 private" show opt.2 '^# private|^RxTxL22:' <<'EOF'
# private_range 0x00003000:0x00003fff
# private_range 0x00002000:0x00002fff
RxTxL22: range_shared_pages 2
--- exit 0
EOF

# ---- -p / --parallel ------------------------------------------------------------------------------
# No spawn record: without -p, one serial phase of thread 0; thread 1's 4
# records are never processed (a warning, and the count in the header).
check "without -p: thread 1 never runs" bash -c 'ciat opt.2 && grep -E "^# scheduler|^R1TxL00|^RxT1L01" opt.2.ciat_report' <<'EOF'
# scheduler: deadlocks_released 0 bad_unlocks 0 unprocessed_records 4
R1TxL00: phase kind serial by start start 0 end 1025 threads 1
RxT1L01: mem total 0 loads 0 0.00% stores 0 0.00% atomics 0 0.00%
--- stderr
ciat: warning: opt.2.1: 4 records never processed (the analysis ended before thread 1's trace did)
--- exit 0
EOF
ciat -p opt.2
check "-p: one parallel phase of both threads" show opt.2 '^# scheduler|^R1TxL00|^RxT1L01' <<'EOF'
# scheduler: deadlocks_released 0 bad_unlocks 0 unprocessed_records 0
R1TxL00: phase kind parallel by start start 0 end 1025 threads 2
RxT1L01: mem total 2 loads 2 100.00% stores 0 0.00% atomics 0 0.00%
--- exit 0
EOF
ciat --parallel opt.2
same_report "--parallel = -p" base.report opt.2.ciat_report

# ---- -gap_limit / --gap-limit ---------------------------------------------------------------------
# T0's branch has a gap of 4092 bytes: filled up to a limit of 4092, a
# discontinuity below.
ciat -p -gap_limit 4092 opt.2
check "-gap_limit 4092: the gap is filled" show opt.2 '^RxT0L06:' <<'EOF'
RxT0L06: instr executed 1025 fetched 1025 branches 1 calls 0 instrumented_calls 1 discontinuities 0
--- exit 0
EOF
for spelling in "-gap_limit 4091" "--gap-limit=4091" "--gap-limit 4091"; do
    # shellcheck disable=SC2086
    ciat -p $spelling opt.2
    check "$spelling: a discontinuity" show opt.2 '^# options|^RxT0L06:|^RxTxL00:' <<'EOF'
# options: gap_limit 4091 parallel_start yes lenient no events no grain 4 page_size 4096
RxTxL00: phase kind all phases 1 start 0 end 2 threads 2
RxT0L06: instr executed 2 fetched 2 branches 1 calls 0 instrumented_calls 1 discontinuities 1
--- exit 0
EOF
done

# ---- -t / --trace-list, -c / --call-list, calls.P ----------------------------------------------------
# List paths are relative to the list's directory; blank lines and #
# comments are ignored; the outputs are named after the list.
mkdir lists
printf '# the opt set\n\n../opt.2.0\n   ../opt.2.1   \n' >lists/set.list
check "-t list: the outputs are named after the list" bash -c 'ciat -p -t lists/set.list && ls lists && grep -v "^# summary:" lists/set.list.ciat_report | sed -n "2,5p"' <<'EOF'
set.list
set.list.ciat_report
set.list.memory
# command: ciat -p -t lists/set.list
# traces: 2 (lists/set.list)
# trace 0: lists/../opt.2.0 (little-endian)
# trace 1: lists/../opt.2.1 (little-endian)
--- exit 0
EOF
check "-t list: the same analysis as opt.2" diff <(grep -v '^# \(command\|trace\)' base.report) <(grep -v '^# \(command\|trace\)' lists/set.list.ciat_report) <<'EOF'
--- exit 0
EOF
check_same "-t list: the same memory file" base.memory lists/set.list.memory
mv lists/set.list.ciat_report list.report
rm lists/set.list.memory
ciat -p --trace-list lists/set.list
same_report "--trace-list FILE = -t" list.report lists/set.list.ciat_report
rm lists/set.list.ciat_report lists/set.list.memory
ciat -p --trace-list=lists/set.list
same_report "--trace-list=FILE = -t" list.report lists/set.list.ciat_report

# Call traces (call records only) give the call times: 100..400 and 0..1000
# instead of the detailed traces' 10..30 and 40..45. Bytes (arg2) stay the
# detailed traces'.
printf 'threads 2\nthread 0\nwrite buf=0 bytes=999 fd=0 @100:400\nthread 1\nwrite @0:1000\n' >ct.txt
smait asm ct.txt ct
cp ct.2.0 ct.2.1 lists/
printf 'ct.2.0\nct.2.1\n' >lists/calls.list
ciat -p ct.2 opt.2
check "calls.P trace.P: the call times come from the call traces" show opt.2 '^# calls|^RxT.L07:' <<'EOF'
# calls 0: ct.2.0
# calls 1: ct.2.1
RxT0L07: call write count 1 time_us 300 bytes 64
RxT1L07: call write count 1 time_us 1000 bytes 8
RxTxL07: call write count 2 time_us 1300 bytes 72
--- exit 0
EOF
for spelling in "-c lists/calls.list" "--call-list lists/calls.list" "--call-list=lists/calls.list"; do
    # shellcheck disable=SC2086
    ciat -p $spelling -t lists/set.list
    check "$spelling -t lists/set.list: the call traces' times" show lists/set.list '^# calls|^RxTxL07:' <<'EOF'
# calls 0: lists/ct.2.0
# calls 1: lists/ct.2.1
RxTxL07: call write count 2 time_us 1300 bytes 72
--- exit 0
EOF
done

# ---- -o / --output-dir ----------------------------------------------------------------------------------
rm -f opt.2.ciat_report opt.2.memory
mkdir out out2 out3
check "-o DIR: the outputs go into DIR, none beside the traces" bash -c 'ciat -p -ciat_events -o out opt.2 && ls out && ls opt.2.*' <<'EOF'
opt.2.ciat_events
opt.2.ciat_report
opt.2.memory
opt.2.0
opt.2.1
--- exit 0
EOF
same_report "-o DIR: the same report" events.report out/opt.2.ciat_report
ciat -p -ciat_events --output-dir out2 opt.2
ciat -p -ciat_events --output-dir=out3 opt.2
same_report "--output-dir DIR = -o" events.report out2/opt.2.ciat_report
same_report "--output-dir=DIR = -o" events.report out3/opt.2.ciat_report
check_same "--output-dir: the same event trace" events.expected out3/opt.2.ciat_events
check_same "--output-dir: the same memory file" base.memory out3/opt.2.memory
check "-o with -t: named after the list's base name" bash -c 'ciat -p -o out -t lists/set.list && ls out | grep set.list' <<'EOF'
set.list.ciat_report
set.list.memory
--- exit 0
EOF

# ---- --byte-order -----------------------------------------------------------------------------------------
smait --byte-order=big asm "$D/opt.txt" optbe
ciat -p optbe.2
check "a big-endian set: detected, stated in the header" show optbe.2 '^# trace ' <<'EOF'
# trace 0: optbe.2.0 (big-endian)
# trace 1: optbe.2.1 (big-endian)
--- exit 0
EOF
check "big-endian: the same analysis" diff <(grep -v '^#' base.report) <(grep -v '^#' optbe.2.ciat_report) <<'EOF'
--- exit 0
EOF
cp optbe.2.ciat_report be.report
for spelling in "--byte-order=big" "--byte-order big" "-byte_order big" "--byte-order=auto"; do
    # shellcheck disable=SC2086
    ciat -p $spelling optbe.2
    same_report "$spelling: the same report" be.report optbe.2.ciat_report
done
cp optbe.2.ciat_report be-last.report
check "--byte-order=little on big-endian traces: bad input" ciat -p --byte-order=little optbe.2 <<'EOF'
--- stderr
ciat: optbe.2.0: 24: record 3: invalid record kind: bytes 80002004 00001000 (f1 04200080 as little-endian); it is valid as big-endian: try --byte-order=big
--- exit 2
EOF
check_same "… and the earlier report is untouched" be-last.report optbe.2.ciat_report

# gzip-compressed traces (detected by their magic bytes): the same analysis.
gzip -n -c opt.2.0 >optgz.2.0
gzip -n -c optbe.2.1 >optgz.2.1
ciat -p optgz.2
check "gzip traces (one of them big-endian): stated in the header" show optgz.2 '^# trace ' <<'EOF'
# trace 0: optgz.2.0 (little-endian, gzip)
# trace 1: optgz.2.1 (big-endian, gzip)
--- exit 0
EOF
check "gzip traces: the same analysis" diff <(grep -v '^#' base.report) <(grep -v '^#' optgz.2.ciat_report) <<'EOF'
--- exit 0
EOF

# ---- --lenient ---------------------------------------------------------------------------------------------
printf 'threads 2\nthread 0\nload 4 0x100\nraw 0xffffffff 0\nload 4 0x104\nthread 1\nload 4 0x200\n' >bad.txt
smait asm bad.txt bad
check "an invalid record without --lenient: exit 2" ciat -p bad.2 <<'EOF'
--- stderr
ciat: bad.2.0: 8: record 1: invalid record kind: bytes ffffffff 00000000 (f1 ffffffff as little-endian)
--- exit 2
EOF
for spelling in "--lenient" "-lenient"; do
    check "$spelling: skipped, counted in the header, the analysis goes on" ciat -p $spelling bad.2 <<'EOF'
--- stderr
ciat: warning: bad.2.0: 8: record 1: invalid record kind: bytes ffffffff 00000000 (f1 ffffffff as little-endian); skipped
ciat: --lenient: 1 bad record skipped
--- exit 0
EOF
    check "$spelling: the header and the loads" show bad.2 '^# (options|lenient|bad_input)|^RxTxL01:' <<'EOF'
# options: gap_limit 4096 parallel_start yes lenient yes events no grain 4 page_size 4096
# lenient: trace 0: skipped_records 1 truncated_bytes 0 unpaired_calls 0 corrupt_streams 0
# bad_input: skipped_records 1 truncated_bytes 0 unpaired_calls 0 corrupt_streams 0
RxTxL01: mem total 3 loads 3 100.00% stores 0 0.00% atomics 0 0.00%
--- exit 0
EOF
done

# ---- -q / --quiet ------------------------------------------------------------------------------------------
# The meter, on a terminal (tests/cli-lib.sh).
progress_meter_checks ciat
ciat -p -q opt.2
same_report "-q changes nothing in the report" base.report opt.2.ciat_report
ciat -p --quiet opt.2
same_report "--quiet changes nothing in the report" base.report opt.2.ciat_report

# ---- invalid values: usage errors ---------------------------------------------------------------------------
# usage_error NAME MESSAGE ARGS...: exit 1, "ciat: MESSAGE", the help hint,
# and no output files.
usage_error() {
    local name=$1 msg=$2
    shift 2
    rm -f opt.2.ciat_report opt.2.memory opt.2.ciat_events
    check "$name" ciat "$@" <<EOT
--- stderr
ciat: $msg
ciat: try 'ciat --help'
--- exit 1
EOT
    no_outputs "$name: no output" . opt.2
}
usage_error "-grain 3" "-grain must be a power of two (1..64), not 3" -p -grain 3 -ciat_events opt.2
usage_error "--grain=128" "option --grain=128: 128 is out of range (1..64)" -p --grain=128 opt.2
usage_error "-grain 0" "option -grain: 0 is out of range (1..64)" -p -grain 0 opt.2
usage_error "-grain x" "option -grain: 'x' is not a non-negative integer" -p -grain x opt.2
usage_error "-line_size 48" "-line_size must be a power of two from the grain (4) to 64 x the grain (256), not 48" -p -line_size 48 opt.2
usage_error "--line-size=2 below the grain" "-line_size must be a power of two from the grain (4) to 64 x the grain (256), not 2" -p --line-size=2 opt.2
usage_error "-line_size 512 above 64 locations" "-line_size must be a power of two from the grain (4) to 64 x the grain (256), not 512" -p -line_size 512 opt.2
usage_error "--migratory 101" "option --migratory: 101 is out of range (0..100)" -p --migratory 101 opt.2
usage_error "--line-size 8192" "option --line-size: 8192 is out of range (1..4096)" -p --line-size 8192 opt.2
usage_error "-page_size 100" "-page_size must be a power of two, not 100" -p -page_size 100 opt.2
usage_error "--page-size=32" "option --page-size=32: 32 is out of range (64..2147483648)" -p --page-size=32 opt.2
usage_error "-private_range without a colon" "option -private_range: expects LO:HI (addresses, e.g. 0x40000000:0x7fffffff)" -p -private_range 0x1000 opt.2
usage_error "--private-range LO > HI" "option --private-range=0x2000:0x1000: needs LO <= HI <= 0xffffffff" -p --private-range=0x2000:0x1000 opt.2
usage_error "-private_range HI above 32 bits" "option -private_range: needs LO <= HI <= 0xffffffff" -p -private_range 0:0x100000000 opt.2
usage_error "-private_range bad LO" "option -private_range: bad LO (a 32-bit address)" -p -private_range lo:0x1000 opt.2
usage_error "-private_range bad HI" "option -private_range: bad HI (a 32-bit address)" -p -private_range 0x1000:hi opt.2
usage_error "-gap_limit -1" "option -gap_limit: '-1' is not a non-negative integer" -p -gap_limit -1 opt.2
usage_error "--byte-order=middle" "option --byte-order=middle: must be little, big or auto" -p --byte-order=middle opt.2
usage_error "--hpux=1" "option '--hpux' takes no value" -p --hpux=1 opt.2
usage_error "an unknown option" "unknown option '--bogus'" -p --bogus opt.2
usage_error "-t without a value" "option '-t' needs a value (FILE)" -t
usage_error "-o without a value" "option '-o' needs a value (DIR)" opt.2 -o
usage_error "no trace prefix" "missing the trace prefix (trace.P, or -t trace_list)" -p
usage_error "a prefix without .P, beside the set opt.2: did you mean it" "trace prefix 'opt' must end in '.P', P = the number of traces: did you mean opt.2?" -p opt
usage_error "a prefix without .P and no set of that name" "trace prefix 'nosuch' must end in '.P', P = the number of traces (1..65536), e.g. trace_level_3.4" -p nosuch
usage_error "three operands" "extra operand 'opt.2'" -p ct.2 opt.2 opt.2
usage_error "-t and a prefix" "with -t, give no trace prefix ('opt.2')" -p -t lists/set.list opt.2
usage_error "-c without -t" "-c needs -t (or give calls.P before trace.P)" -p -c lists/calls.list opt.2
