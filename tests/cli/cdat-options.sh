# cdat-options.sh — every cdat option in both spellings (the report's
# single-dash -name_with_underscores and GNU --name-with-dashes, docs/trace-sets.md §4),
# each with an effect that shows in the outputs; the [output] switches of
# the configuration; every shipped configs/*.ini on a small trace set; and
# invalid option values (usage errors: exit 1, a message, the --help hint,
# nothing written). The trace set is tests/cli/cdat-io/opt.txt; its comments
# derive the numbers checked here.
D=$CLI_DIR/cdat-io
. "$D/lib.sh"
CONFIGS=$CLI_DIR/../../configs

smait asm "$D/opt.txt" opt
printf '[system]\nnodes = 2\nbanks_per_node = 2\n[output]\ngeneral = 1\ndetailed = 1\n' >opt.ini

# keep DIR PREFIX: copy the report and traces of PREFIX into DIR (created).
keep() {
    mkdir -p "$1"
    cp "$2".cdat_report "$2".general.* "$2".detailed "$1"/
}
# same_traces NAME DIR PREFIX: PREFIX's general and detailed traces equal
# those kept in DIR.
same_traces() {
    local f
    for f in general.0 general.1 detailed; do
        check_same "$1: the same .$f" "$2/${3##*/}.$f" "$3.$f"
    done
}

# ---- help and version ---------------------------------------------------------------
check "--version" cdat --version <<'EOF'
cdat (dsmtrace) 0.1.0
--- exit 0
EOF
check "-h starts with the usage" bash -c 'cdat -h | head -2' <<'EOF'
Usage: cdat [options] [calls.P] trace.P cfg_file [cfg_file ...]
       cdat [options] [-c call_list] -t trace_list cfg_file [cfg_file ...]
--- exit 0
EOF
check "--help names every option in both spellings" bash -c '
    help=$(cdat --help)
    for o in -t, --trace-list -c, --call-list -o, --output-dir -p, --parallel \
             --gap-limit -gap_limit --byte-order -byte_order --lenient -q, --quiet \
             -z, --compress --gzip --hpux -HPUX --private-range -private_range -h, --help --version; do
        grep -qe " $o" <<<"$help" || echo "missing: $o"
    done' <<'EOF'
--- exit 0
EOF

# ---- the baseline: cdat -p opt.2 opt.ini -------------------------------------------------
cdat -p opt.2 opt.ini
keep base opt.2
check "baseline: the outputs" cdat_outputs . opt.2 <<'EOF'
opt.2.cdat_report
opt.2.general.0
opt.2.general.1
opt.2.detailed
--- exit 0
EOF
check "baseline: options, counts, placement" rpt opt.2 '^# options|^RxT.L0[13]:|^RxT1L02:|^RxTxL16:' <<'EOF'
# options: gap_limit 4096 parallel_start yes lenient no compress no general yes detailed yes
RxT0L01: data refs 3 hits 1 33.33% misses 2 66.67% upgrades 0 0.00%
RxT0L03: instr refs 18 hits 16 88.89% misses 2 11.11% upgrades 0 0.00%
RxT1L01: data refs 2 hits 0 0.00% misses 2 100.00% upgrades 0 0.00%
RxT1L02: data_miss_src local 0 0.00% remote 2 100.00% local_memory 0 0.00% local_cache 0 0.00% remote_memory 2 100.00% remote_cache 0 0.00%
RxT1L03: instr refs 2 hits 1 50.00% misses 1 50.00% upgrades 0 0.00%
RxTxL01: data refs 5 hits 1 20.00% misses 4 80.00% upgrades 0 0.00%
RxTxL03: instr refs 20 hits 17 85.00% misses 3 15.00% upgrades 0 0.00%
RxTxL16: placement node 0 pages 2
RxTxL16: placement node 1 pages 3
--- exit 0
EOF
# general trace: clock addr code proc node bank hnode status s0 s1 -1.
check "baseline: T1's general trace (home node 0 for 0x40000000, 0x40002000)" cat opt.2.general.1 <<'EOF'
0 0 91 0 1 0 0 0 -1
1 12288 01 0 1 0 1 1 0 0 -1
1 1073741824 02 0 1 0 0 1 0 0 -1
2 1073750016 02 0 1 0 0 1 0 0 -1
2 0 92 0 1 0 0 0 -1
--- exit 0
EOF

# ---- -p / --parallel ------------------------------------------------------------------------
check "without -p: thread 1 never runs" bash -c 'cdat opt.2 opt.ini && grep -E "^# scheduler|^R1TxL00|^RxT1" opt.2.cdat_report; wc -c <opt.2.general.1' <<'EOF'
# scheduler: deadlocks_released 0 bad_unlocks 0 unprocessed_records 3
R1TxL00: phase kind serial by start start 0 end 18 threads 1
0
--- stderr
cdat: warning: opt.2.1: 3 records never processed (the analysis ended before thread 1's trace did)
--- exit 0
EOF
cdat --parallel opt.2 opt.ini
same_report "--parallel = -p" base/opt.2.cdat_report opt.2.cdat_report
same_traces "--parallel" base opt.2

# ---- -gap_limit / --gap-limit ---------------------------------------------------------------
cdat -p -gap_limit 60 opt.2 opt.ini
same_report "-gap_limit 60: the 60-byte gap is filled (as by default)" base/opt.2.cdat_report opt.2.cdat_report
for spelling in "-gap_limit 59" "--gap-limit=59" "--gap-limit 59"; do
    # shellcheck disable=SC2086
    cdat -p $spelling opt.2 opt.ini
    check "$spelling: a discontinuity, no fill" rpt opt.2 '^# options|^RxT0L03:' <<'EOF'
# options: gap_limit 59 parallel_start yes lenient no compress no general yes detailed yes
RxT0L03: instr refs 3 hits 2 66.67% misses 1 33.33% upgrades 0 0.00%
--- exit 0
EOF
done
check "-gap_limit 59: line 0x1040 is never requested" grep -c ' 4160 ' opt.2.general.0 <<'EOF'
0
--- exit 1
EOF

# ---- -HPUX / --hpux, -private_range / --private-range -------------------------------------------
cdat -p -HPUX opt.2 opt.ini
check "-HPUX: the private-range pages go to T1's node 1" rpt opt.2 '^# (options|private)|^RxT1L02:|^RxTxL16:' <<'EOF'
# options: gap_limit 4096 parallel_start yes lenient no compress no general yes detailed yes
# private_range 0x40000000:0x7fffffff
RxT1L02: data_miss_src local 2 100.00% remote 0 0.00% local_memory 2 100.00% local_cache 0 0.00% remote_memory 0 0.00% remote_cache 0 0.00%
RxTxL16: placement node 0 pages 0
RxTxL16: placement node 1 pages 5
--- exit 0
EOF
check "-HPUX: T1's general trace names hnode 1" cat opt.2.general.1 <<'EOF'
0 0 91 0 1 0 0 0 -1
1 12288 01 0 1 0 1 1 0 0 -1
1 1073741824 02 0 1 0 1 1 0 0 -1
2 1073750016 02 0 1 0 1 1 0 0 -1
2 0 92 0 1 0 0 0 -1
--- exit 0
EOF
check_same "-HPUX: T0's general trace is unchanged" base/opt.2.general.0 opt.2.general.0
keep hpux opt.2
cdat -p --hpux opt.2 opt.ini
same_report "--hpux = -HPUX" hpux/opt.2.cdat_report opt.2.cdat_report
same_traces "--hpux" hpux opt.2
cdat -p -private_range 0x40000000:0x7fffffff opt.2 opt.ini
same_report "-private_range 0x40000000:0x7fffffff = -HPUX" hpux/opt.2.cdat_report opt.2.cdat_report
same_traces "-private_range 0x40000000:0x7fffffff" hpux opt.2

cdat -p -private_range 0x40002000:0x40002fff opt.2 opt.ini
check "-private_range 0x40002000:0x40002fff: page 0x40002 only" rpt opt.2 '^# private|^RxT1L02:|^RxTxL16:' <<'EOF'
# private_range 0x40002000:0x40002fff
RxT1L02: data_miss_src local 1 50.00% remote 1 50.00% local_memory 1 50.00% local_cache 0 0.00% remote_memory 1 50.00% remote_cache 0 0.00%
RxTxL16: placement node 0 pages 1
RxTxL16: placement node 1 pages 4
--- exit 0
EOF
keep pr opt.2
for spelling in "--private-range=0x40002000:0x40002fff" "--private-range 1073750016:1073754111"; do
    # shellcheck disable=SC2086
    cdat -p $spelling opt.2 opt.ini
    same_report "$spelling: the same report" pr/opt.2.cdat_report opt.2.cdat_report
    same_traces "$spelling" pr opt.2
done
cdat -p -private_range 0x40002000:0x40002fff --private-range=0x40000000:0x40000fff opt.2 opt.ini
check "two private ranges: both pages on node 1" rpt opt.2 '^# private|^RxTxL16:' <<'EOF'
# private_range 0x40002000:0x40002fff
# private_range 0x40000000:0x40000fff
RxTxL16: placement node 0 pages 0
RxTxL16: placement node 1 pages 5
--- exit 0
EOF
# first_touch puts every page on its first toucher's node anyway: -HPUX
# changes nothing but the header.
sed 's/^\[system\]$/[system]\nallocation = first_touch/' opt.ini >ft.ini
cdat -p opt.2 ft.ini
keep ft opt.2
cdat -p -HPUX opt.2 ft.ini
check "first_touch: -HPUX changes only the header" diff <(grep -v '^# \(command\|private\)' ft/opt.2.cdat_report) <(grep -v '^# \(command\|private\)' opt.2.cdat_report) <<'EOF'
--- exit 0
EOF
check "first_touch: pages 1 and 5 on node 0, 3 and both private ones on node 1" rpt opt.2 '^RxTxL16:' <<'EOF'
RxTxL16: placement node 0 pages 2
RxTxL16: placement node 1 pages 3
--- exit 0
EOF

# ---- -z / --compress (zstd), --gzip ------------------------------------------------------------
rm -f opt.2.cdat_report opt.2.general.* opt.2.detailed
cdat -p -z opt.2 opt.ini
check "-z: the general and detailed traces end in .zst, the report does not" cdat_outputs . opt.2 <<'EOF'
opt.2.cdat_report
opt.2.general.0.zst
opt.2.general.1.zst
opt.2.detailed.zst
--- exit 0
EOF
check "-z: zstd -t accepts them" zstd -q -t opt.2.general.0.zst opt.2.general.1.zst opt.2.detailed.zst <<'EOF'
--- exit 0
EOF
check "-z: the header says compress zstd" rpt opt.2 '^# options' <<'EOF'
# options: gap_limit 4096 parallel_start yes lenient no compress zstd general yes detailed yes
--- exit 0
EOF
same_report "-z: the same report" base/opt.2.cdat_report opt.2.cdat_report
for f in general.0 general.1 detailed; do
    zstd -q -d -c "opt.2.$f.zst" >"unz.$f"
    check_same "-z: .$f.zst decompresses to the plain .$f" "base/opt.2.$f" "unz.$f"
done
tdat -classes 4 base/opt.2.detailed plain.time 10 2 | grep -v '^#' >plain.freq
tdat -classes 4 opt.2.detailed.zst zst.time 10 2 | grep -v '^#' >zst.freq
check_same "-z: tdat reads the .zst detailed trace as the plain one" plain.freq zst.freq
rm -f opt.2.general.* opt.2.detailed*
cdat -p --compress opt.2 opt.ini
check "--compress = -z" bash -c 'ls opt.2.*.zst' <<'EOF'
opt.2.detailed.zst
opt.2.general.0.zst
opt.2.general.1.zst
--- exit 0
EOF
rm -f opt.2.general.* opt.2.detailed*
cdat -p --gzip opt.2 opt.ini
check "--gzip: gzip files ending in .gz that gzip -t accepts" \
    bash -c 'ls opt.2.general.* opt.2.detailed* && gzip -t opt.2.general.0.gz opt.2.general.1.gz opt.2.detailed.gz' <<'EOF'
opt.2.detailed.gz
opt.2.general.0.gz
opt.2.general.1.gz
--- exit 0
EOF
check "--gzip: the header says compress gzip" rpt opt.2 '^# options' <<'EOF'
# options: gap_limit 4096 parallel_start yes lenient no compress gzip general yes detailed yes
--- exit 0
EOF
for f in general.0 general.1 detailed; do
    gzip -dc "opt.2.$f.gz" >"unz.$f"
    check_same "--gzip: .$f.gz decompresses to the plain .$f" "base/opt.2.$f" "unz.$f"
done
mkdir gzout
cdat -p --gzip -o gzout opt.2 opt.ini
check "--gzip with -o DIR: the same files in DIR" bash -c 'ls gzout && for f in general.0 general.1 detailed; do cmp opt.2.$f.gz gzout/opt.2.$f.gz; done' <<'EOF'
opt.2.cdat_report
opt.2.detailed.gz
opt.2.general.0.gz
opt.2.general.1.gz
--- exit 0
EOF
printf '[system]\nnodes = 2\n' >quiet.ini
rm -f opt.2.cdat_report opt.2.general.* opt.2.detailed*
cdat -p -z opt.2 quiet.ini
check "-z without general or detailed traces: the report alone, not compressed" bash -c 'ls opt.2.*; head -1 opt.2.cdat_report' <<'EOF'
opt.2.0
opt.2.1
opt.2.cdat_report
# cdat (dsmtrace) 0.1.0
--- exit 0
EOF

# ---- [output] general / detailed ------------------------------------------------------------------
# outputs GENERAL DETAILED: cdat's outputs with these [output] values.
outputs() {
    rm -f opt.2.cdat_report opt.2.general.* opt.2.detailed*
    printf '[system]\nnodes = 2\nbanks_per_node = 2\n[output]\ngeneral = %s\ndetailed = %s\n' "$1" "$2" >o.ini
    cdat -p opt.2 o.ini && cdat_outputs . opt.2 && grep '^# options' opt.2.cdat_report
}
check "general = 0, detailed = 0: the report only" outputs 0 0 <<'EOF'
opt.2.cdat_report
# options: gap_limit 4096 parallel_start yes lenient no compress no general no detailed no
--- exit 0
EOF
check "general = 1, detailed = 0: a general trace per processor" outputs 1 0 <<'EOF'
opt.2.cdat_report
opt.2.general.0
opt.2.general.1
# options: gap_limit 4096 parallel_start yes lenient no compress no general yes detailed no
--- exit 0
EOF
check_same "… the same general trace as with both" base/opt.2.general.1 opt.2.general.1
check "general = 0, detailed = 1: the detailed trace" outputs 0 1 <<'EOF'
opt.2.cdat_report
opt.2.detailed
# options: gap_limit 4096 parallel_start yes lenient no compress no general no detailed yes
--- exit 0
EOF
check_same "… the same detailed trace as with both" base/opt.2.detailed opt.2.detailed
check "the traces do not change the report" diff <(grep -v '^# \(command\|options\|configuration\)' base/opt.2.cdat_report) <(grep -v '^# \(command\|options\|configuration\)' opt.2.cdat_report) <<'EOF'
--- exit 0
EOF
# Detailed trace: every transaction of every sequence, in the order of the
# interleaving: at clock 1 T0's fetch miss (read_shar 01 of 0x1000, data_shar
# 11), T0's store miss (read_priv_own 03 of 0x5000, data_priv 12), then T1's
# fetch miss (01 of 0x3000, 11).
check "detailed: the sequences of clock 1 in order" head -6 opt.2.detailed <<'EOF'
1 4096 01 0 0 0 1
1 4096 11 0 1 0 0
1 20480 03 0 0 0 1
1 20480 12 0 1 0 0
1 12288 01 0 1 0 1
1 12288 11 0 1 0 1
--- exit 0
EOF

# ---- -o / --output-dir ------------------------------------------------------------------------------
rm -f opt.2.cdat_report opt.2.general.* opt.2.detailed*
mkdir out out2 out3
check "-o DIR: the outputs go into DIR, none beside the traces" bash -c 'cdat -p -o out opt.2 opt.ini && ls out && ls opt.2.*' <<'EOF'
opt.2.cdat_report
opt.2.detailed
opt.2.general.0
opt.2.general.1
opt.2.0
opt.2.1
--- exit 0
EOF
same_report "-o DIR: the same report" base/opt.2.cdat_report out/opt.2.cdat_report
same_traces "-o DIR" base out/opt.2
cdat -p --output-dir out2 opt.2 opt.ini
cdat -p --output-dir=out3 opt.2 opt.ini
same_report "--output-dir DIR = -o" base/opt.2.cdat_report out2/opt.2.cdat_report
same_report "--output-dir=DIR = -o" base/opt.2.cdat_report out3/opt.2.cdat_report
same_traces "--output-dir=DIR" base out3/opt.2

# ---- -t / --trace-list, -c / --call-list, calls.P -----------------------------------------------------
# List paths are relative to the list's directory; the outputs are named after
# the list.
mkdir lists
printf '# the opt set\n\n../opt.2.0\n   ../opt.2.1   \n' >lists/set.list
check "-t list: the outputs are named after the list" bash -c 'cdat -p -t lists/set.list opt.ini && ls lists && grep -v "^# summary:" lists/set.list.cdat_report | sed -n "2,5p"' <<'EOF'
set.list
set.list.cdat_report
set.list.detailed
set.list.general.0
set.list.general.1
# command: cdat -p -t lists/set.list opt.ini
# traces: 2 (lists/set.list)
# trace 0: lists/../opt.2.0 (little-endian)
# trace 1: lists/../opt.2.1 (little-endian)
--- exit 0
EOF
check "-t list: the same simulation as opt.2" diff <(grep -v '^# \(command\|trace\)' base/opt.2.cdat_report) <(grep -v '^# \(command\|trace\)' lists/set.list.cdat_report) <<'EOF'
--- exit 0
EOF
for f in general.0 general.1 detailed; do
    check_same "-t list: the same .$f" "base/opt.2.$f" "lists/set.list.$f"
done
keep listed lists/set.list
rm lists/set.list.*
cdat -p --trace-list lists/set.list opt.ini
same_report "--trace-list FILE = -t" listed/set.list.cdat_report lists/set.list.cdat_report
rm lists/set.list.*
cdat -p --trace-list=lists/set.list opt.ini
same_report "--trace-list=FILE = -t" listed/set.list.cdat_report lists/set.list.cdat_report
same_traces "--trace-list=FILE" listed lists/set.list
rm lists/set.list.*
check "-o with -t: named after the list's base name" bash -c 'cdat -p -o out -t lists/set.list opt.ini && ls out | grep set.list' <<'EOF'
set.list.cdat_report
set.list.detailed
set.list.general.0
set.list.general.1
--- exit 0
EOF

# Call traces: T0's one call record (write) pairs with the call trace's.
# Their types must agree, so a call trace of another type is refused: the
# proof that cdat reads them.
printf 'threads 2\nthread 0\nwrite buf=0 bytes=999 fd=0 @100:400\nthread 1\n' >ct.txt
smait asm ct.txt ct
printf 'threads 2\nthread 0\nread buf=0 bytes=999 fd=0 @100:400\nthread 1\n' >cr.txt
smait asm cr.txt cr
cp ct.2.0 ct.2.1 cr.2.0 cr.2.1 lists/
printf 'ct.2.0\nct.2.1\n' >lists/calls.list
printf 'cr.2.0\ncr.2.1\n' >lists/reads.list
cdat -p ct.2 opt.2 opt.ini
check "calls.P trace.P: the call traces in the header, the same simulation" bash -c '
    grep "^# calls" opt.2.cdat_report
    diff <(grep -v "^# \(command\|calls\)" base/opt.2.cdat_report) <(grep -v "^# \(command\|calls\)" opt.2.cdat_report)' <<'EOF'
# calls 0: ct.2.0
# calls 1: ct.2.1
--- exit 0
EOF
check "calls.P of another call type: refused" cdat -p cr.2 opt.2 opt.ini <<'EOF'
--- stderr
cdat: opt.2.0: 40: record 5: call record 0 is of type 0x12 but call record 0 of call trace cr.2.0 (record 0) is of type 0x11
--- exit 2
EOF
for spelling in "-c lists/calls.list" "--call-list lists/calls.list" "--call-list=lists/calls.list"; do
    # shellcheck disable=SC2086
    cdat -p $spelling -t lists/set.list opt.ini
    check "$spelling -t lists/set.list: the call traces in the header" rpt lists/set.list '^# calls' <<'EOF'
# calls 0: lists/ct.2.0
# calls 1: lists/ct.2.1
--- exit 0
EOF
done
for spelling in "-c lists/reads.list" "--call-list=lists/reads.list"; do
    # shellcheck disable=SC2086
    check "$spelling (another call type): refused" cdat -p $spelling -t lists/set.list opt.ini <<'EOF'
--- stderr
cdat: lists/../opt.2.0: 40: record 5: call record 0 is of type 0x12 but call record 0 of call trace lists/cr.2.0 (record 0) is of type 0x11
--- exit 2
EOF
done

# ---- --byte-order -----------------------------------------------------------------------------------------
smait --byte-order=big asm "$D/opt.txt" optbe
cdat -p optbe.2 opt.ini
check "a big-endian set: detected, stated in the header" rpt optbe.2 '^# trace ' <<'EOF'
# trace 0: optbe.2.0 (big-endian)
# trace 1: optbe.2.1 (big-endian)
--- exit 0
EOF
check "big-endian: the same simulation" diff <(grep -v '^#' base/opt.2.cdat_report) <(grep -v '^#' optbe.2.cdat_report) <<'EOF'
--- exit 0
EOF
for f in general.0 general.1 detailed; do
    check_same "big-endian: the same .$f" "base/opt.2.$f" "optbe.2.$f"
done
keep be optbe.2
for spelling in "--byte-order=big" "--byte-order big" "-byte_order big" "--byte-order=auto"; do
    # shellcheck disable=SC2086
    cdat -p $spelling optbe.2 opt.ini
    same_report "$spelling: the same report" be/optbe.2.cdat_report optbe.2.cdat_report
done
refused "--byte-order=little on big-endian traces: bad input" cdat -p --byte-order=little optbe.2 opt.ini <<'EOF'
--- stderr
cdat: optbe.2.1: 16: record 2: invalid record kind: bytes 00000020 40002000 (f1 20000000 as little-endian); it is valid as big-endian: try --byte-order=big
--- exit 2
EOF
cdat -p --byte-order=little opt.2 opt.ini
same_report "--byte-order=little on little-endian traces: the same report" base/opt.2.cdat_report opt.2.cdat_report
# gzip-compressed traces (detected by their magic bytes): the same simulation.
gzip -n -c opt.2.0 >optgz.2.0
gzip -n -c optbe.2.1 >optgz.2.1
cdat -p optgz.2 opt.ini
check "gzip traces (one of them big-endian): stated in the header" rpt optgz.2 '^# trace ' <<'EOF'
# trace 0: optgz.2.0 (little-endian, gzip)
# trace 1: optgz.2.1 (big-endian, gzip)
--- exit 0
EOF
check "gzip traces: the same simulation" diff <(grep -v '^#' base/opt.2.cdat_report) <(grep -v '^#' optgz.2.cdat_report) <<'EOF'
--- exit 0
EOF

# ---- --lenient ---------------------------------------------------------------------------------------------
# bad.txt: opt.txt with an invalid record before T0's last load.
sed 's/^load 4 0x5000$/raw 0xffffffff 0\n&/' "$D/opt.txt" >bad.txt
smait asm bad.txt bad
refused "an invalid record without --lenient: exit 2" cdat -p bad.2 opt.ini <<'EOF'
--- stderr
cdat: bad.2.0: 32: record 4: invalid record kind: bytes ffffffff 00000000 (f1 ffffffff as little-endian)
--- exit 2
EOF
for spelling in "--lenient" "-lenient"; do
    check "$spelling: skipped, counted in the header, the simulation goes on" cdat -p $spelling bad.2 opt.ini <<'EOF'
--- stderr
cdat: warning: bad.2.0: 32: record 4: invalid record kind: bytes ffffffff 00000000 (f1 ffffffff as little-endian); skipped
cdat: --lenient: 1 bad record skipped
--- exit 0
EOF
    check "$spelling: the header, T0's data references" rpt bad.2 '^# (options|lenient|bad_input)|^RxT0L01:' <<'EOF'
# options: gap_limit 4096 parallel_start yes lenient yes compress no general yes detailed yes
# lenient: trace 0: skipped_records 1 truncated_bytes 0 unpaired_calls 0 corrupt_streams 0
# bad_input: skipped_records 1 truncated_bytes 0 unpaired_calls 0 corrupt_streams 0
RxT0L01: data refs 3 hits 1 33.33% misses 2 66.67% upgrades 0 0.00%
--- exit 0
EOF
done

# ---- -q / --quiet ------------------------------------------------------------------------------------------
# The meter, on a terminal (tests/cli-lib.sh).
progress_meter_checks cdat quiet.ini
cdat -p -q opt.2 opt.ini
same_report "-q changes nothing in the report" base/opt.2.cdat_report opt.2.cdat_report
same_traces "-q" base opt.2
cdat -p --quiet opt.2 opt.ini
same_report "--quiet changes nothing in the report" base/opt.2.cdat_report opt.2.cdat_report

# ---- the shipped configurations ------------------------------------------------------------------------------
# Random sets (tests/cli/ciat/randset.awk) with as many threads as the
# machine has processors (1x1: one), so no [mapping] is needed.
# shipped NAME THREADS SEED [OPTIONS...] (expected text on stdin): cdat with
# configs/NAME.ini (or the file NAME) runs; shown: the machine line of the header, the number
# of placement lines (one per node), of processors with report lines (every
# thread's), and whether the pages placed add up to the pages ciat's memory
# file lists for the set (rr1 and first_touch place every touched page).
shipped() {
    local name=$1 p=$2 seed=$3 cfg=$CONFIGS/$1.ini
    shift 3
    [ -f "$name" ] && cfg=$name
    rm -f rs.*
    awk -v seed="$seed" -v threads="$p" -v n=300 -f "$CLI_DIR/ciat/randset.awk" >rs.txt
    smait asm rs.txt rs
    ciat "rs.$p"
    check "${cfg#"$CONFIGS"/} ($p threads${*:+, $*})" bash -c '
        cdat "${@:3}" "rs.$1" "$2" || exit
        sed -n "s/^# machine: //p" "rs.$1.cdat_report"
        awk "/^RxTxL16: placement node/ { n++; pages += \$NF } /^RxT[0-9]+L01:/ { p++ }
             END { print n \" placement lines, \" p \" processors\"; print pages }" "rs.$1.cdat_report" >got
        head -1 got
        echo "pages placed $(tail -1 got), listed by ciat $(grep -c "^[0-9]" "rs.$1.memory")"' \
        x "$p" "$cfg" "$@"
}
shipped 1x1 1 201 <<'EOF'
nodes 1 procs_per_node 1 banks_per_node 1 line_size 64 page_size 4096
1 placement lines, 1 processors
pages placed 7, listed by ciat 7
--- exit 0
EOF
shipped spp1600 16 202 <<'EOF'
nodes 2 procs_per_node 8 banks_per_node 4 line_size 32 page_size 4096
2 placement lines, 16 processors
pages placed 22, listed by ciat 22
--- exit 0
EOF
# Fewer threads than processors: the others stay idle (no report lines).
shipped spp1600 5 203 <<'EOF'
nodes 2 procs_per_node 8 banks_per_node 4 line_size 32 page_size 4096
2 placement lines, 5 processors
pages placed 11, listed by ciat 11
--- exit 0
EOF
# More threads than processors: 1x1.ini ends with its [mapping] section;
# four threads all on processor 0.
{ cat "$CONFIGS/1x1.ini"; printf 'thread.%d = 0.0\n' 0 1 2 3; } >1x1-4.ini
shipped ./1x1-4.ini 4 206 -p <<'EOF'
nodes 1 procs_per_node 1 banks_per_node 1 line_size 64 page_size 4096
1 placement lines, 1 processors
pages placed 10, listed by ciat 10
--- exit 0
EOF
shipped 4x4 16 204 <<'EOF'
nodes 4 procs_per_node 4 banks_per_node 2 line_size 64 page_size 4096
4 placement lines, 16 processors
pages placed 22, listed by ciat 22
--- exit 0
EOF
# 4x4.ini's comment: for oracle, add memory_usage = the .memory file ciat
# wrote. Oracle placement (docs/cdat-placement.md) computed from that file independently:
# code pages replicated, a page of one thread (owner >= 0) on its node
# (owner / 4), a shared page on page mod 4.
sed 's/^allocation = first_touch.*/allocation = oracle\nmemory_usage = rs.16.memory/' "$CONFIGS/4x4.ini" >oracle.ini
check "configs/4x4.ini with oracle placement: every page where the memory file puts it" bash -c '
    cdat rs.16 oracle.ini || exit
    diff <(awk "/^[0-9]/ { if (\$3 > 0) r++; else if (\$9 >= 0) n[int(\$9 / 4)]++; else n[\$1 % 4]++ }
                END { for (i = 0; i < 4; i++) print \"RxTxL16: placement node \" i \" pages \" n[i] + 0
                      print \"RxTxL16: placement replicated pages \" r; print \"RxTxL16: placement unlisted pages 0\" }" rs.16.memory) \
         <(grep "^RxTxL16:" rs.16.cdat_report) && grep -c "^[0-9]" rs.16.memory' <<'EOF'
22
--- exit 0
EOF
shipped 32x4 128 205 <<'EOF'
nodes 32 procs_per_node 4 banks_per_node 4 line_size 64 page_size 4096
32 placement lines, 128 processors
pages placed 134, listed by ciat 134
--- exit 0
EOF

# ---- invalid values: usage errors ----------------------------------------------------------------------------
# usage_error NAME MESSAGE ARGS...: exit 1, "cdat: MESSAGE", the help hint,
# and nothing written (no report, no traces, no temporary).
usage_error() {
    local name=$1 msg=$2
    shift 2
    refused "$name" cdat "$@" <<EOT
--- stderr
cdat: $msg
cdat: try 'cdat --help'
--- exit 1
EOT
}
usage_error "--hpux=1" "option '--hpux' takes no value" -p --hpux=1 opt.2 opt.ini
usage_error "-HPUX=1" "option '-HPUX' takes no value" -p -HPUX=1 opt.2 opt.ini
usage_error "--gzip=1" "option '--gzip' takes no value" -p --gzip=1 opt.2 opt.ini
usage_error "-z with --gzip" "-z (zstd) and --gzip ask for two formats; give one" -p -z --gzip opt.2 opt.ini
usage_error "-z=1" "unknown option '-z=1'" -p -z=1 opt.2 opt.ini
usage_error "-private_range without a colon" "option -private_range: expects LO:HI (addresses, e.g. 0x40000000:0x7fffffff)" -p -private_range 0x1000 opt.2 opt.ini
usage_error "--private-range LO > HI" "option --private-range=0x2000:0x1000: needs LO <= HI <= 0xffffffff" -p --private-range=0x2000:0x1000 opt.2 opt.ini
usage_error "-private_range HI above 32 bits" "option -private_range: needs LO <= HI <= 0xffffffff" -p -private_range 0:0x100000000 opt.2 opt.ini
usage_error "-private_range bad LO" "option -private_range: bad LO (a 32-bit address)" -p -private_range lo:0x1000 opt.2 opt.ini
usage_error "-private_range bad HI" "option -private_range: bad HI (a 32-bit address)" -p -private_range 0x1000:hi opt.2 opt.ini
usage_error "-private_range without a value" "option '-private_range' needs a value (LO:HI)" opt.2 opt.ini -private_range
usage_error "-gap_limit -1" "option -gap_limit: '-1' is not a non-negative integer" -p -gap_limit -1 opt.2 opt.ini
usage_error "--gap-limit=x" "option --gap-limit=x: 'x' is not a non-negative integer" -p --gap-limit=x opt.2 opt.ini
usage_error "--byte-order=middle" "option --byte-order=middle: must be little, big or auto" -p --byte-order=middle opt.2 opt.ini
usage_error "--lenient=1" "option '--lenient' takes no value" -p --lenient=1 opt.2 opt.ini
usage_error "--quiet=yes" "option '--quiet' takes no value" -p --quiet=yes opt.2 opt.ini
usage_error "an unknown option" "unknown option '--bogus'" -p --bogus opt.2 opt.ini
usage_error "short options do not combine" "unknown option '-zq'" -p -zq opt.2 opt.ini
usage_error "-t without a value" "option '-t' needs a value (FILE)" -p -t
usage_error "-c without a value" "option '-c' needs a value (FILE)" -p -c
usage_error "-o without a value" "option '-o' needs a value (DIR)" -p opt.2 opt.ini -o
usage_error "a prefix without .P, beside the set opt.2: did you mean it" "trace prefix 'opt' must end in '.P', P = the number of traces: did you mean opt.2?" -p opt opt.ini
usage_error "-c without -t" "-c needs -t (or give calls.P before trace.P)" -p -c lists/calls.list opt.2 opt.ini
