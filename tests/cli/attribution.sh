# attribution.sh — ciat --by-code/--by-data (L50, L51), cdat --by-code/--by-data
# (L20, L21) and --miss-trace, with the address map (formats/ADDRESS-MAP.md).
#
#  * by hand (tests/cli/attribution/t.txt derives every number): RAW, WAR and
#    false sharing in ciat, misses, remote misses and false sharing misses in
#    cdat, attributed to functions and source lines, objects, heap sites,
#    mappings, unknown pcs and unmapped addresses; the same without a map
#    (addresses, data at their line); --by-code=N; the options and the map
#    in the header; the miss trace line by line;
#  * bad maps: exit 2, "FILE:LINE: reason", no output at all (report,
#    memory file, miss trace); --map of a missing file; usage errors;
#  * random sets under all 8 protocols: as many miss-trace lines as the
#    report's misses (L01 + L03), the classes those of L17/L18, and the
#    report without the options unchanged by them.
D=$CLI_DIR/attribution
R=$CLI_DIR/ciat/randset.awk

smait asm "$D/t.txt" t
cp "$D/t.2.map" t.2.map

# ---- ciat ---------------------------------------------------------------------------------------
ciat -p --false-sharing --by-code --by-data t.2
check "ciat: by hand, with the map" grep -E '^# (options|attribution):|^RxTxL(10|12|18|5[01]):' t.2.ciat_report <<'EOF'
# options: gap_limit 4096 parallel_start yes lenient no events no grain 4 page_size 4096 by_code 10 by_data 10
# attribution: map t.2.map
RxTxL10: raw 1
RxTxL12: war 2
RxTxL18: line 64 cold 9 true_sharing 0 false_sharing 2 upgrades 0
RxTxL50: code_raw rank 1 count 1 kind function name consumer where prog.c:20
RxTxL50: code_war rank 1 count 1 kind address name unknown where -
RxTxL50: code_war rank 2 count 1 kind function name consumer where prog.c:20
RxTxL50: code_false_sharing rank 1 count 1 kind function name consumer where prog.c:20
RxTxL50: code_false_sharing rank 2 count 1 kind function name producer where prog.c:11
RxTxL51: data_raw rank 1 count 1 kind heap name producer where prog.c:11
RxTxL51: data_war rank 1 count 1 kind address name 0x00007000 where -
RxTxL51: data_war rank 2 count 1 kind mapping name /src/prog where -
RxTxL51: data_false_sharing rank 1 count 2 kind object name pair where prog.c:4
--- exit 0
EOF
check "ciat: L50/L51 are the last lines" bash -c 'tail -n 9 t.2.ciat_report | grep -vc "^RxTxL5[01]:"' <<'EOF'
0
--- exit 1
EOF
mv t.2.ciat_report with-map.ciat_report
ciat -p --false-sharing t.2
check "ciat: without the options, the report has no L50/L51 and is otherwise the same" bash -c \
    'diff <(grep -v -e "^RxTxL5[01]:" -e "^# command:" -e "^# attribution:" with-map.ciat_report | sed "s/ by_code 10 by_data 10//") <(grep -v "^# command:" t.2.ciat_report)' <<'EOF'
--- exit 0
EOF
mv t.2.map t.map
ciat -p --false-sharing --by-code=1 --by-data t.2
check "ciat: without a map, addresses; --by-code=1" grep -E '^# (options|attribution):|^RxTxL5[01]:' t.2.ciat_report <<'EOF'
# options: gap_limit 4096 parallel_start yes lenient no events no grain 4 page_size 4096 by_code 1 by_data 10
# attribution: map none (addresses)
RxTxL50: code_raw rank 1 count 1 kind address name 0x0000110c where -
RxTxL50: code_war rank 1 count 1 kind address name 0x00001110 where -
RxTxL50: code_false_sharing rank 1 count 1 kind address name 0x00001010 where -
RxTxL51: data_raw rank 1 count 1 kind address name 0x00005000 where -
RxTxL51: data_war rank 1 count 1 kind address name 0x00002000 where -
RxTxL51: data_war rank 2 count 1 kind address name 0x00007000 where -
RxTxL51: data_false_sharing rank 1 count 2 kind address name 0x00003000 where -
--- exit 0
EOF
ciat -p --false-sharing --by-code --map t.map t.2
check "ciat: --map FILE" grep -E '^# (options|attribution):|^RxTxL50: code_raw' t.2.ciat_report <<'EOF'
# options: gap_limit 4096 parallel_start yes lenient no events no grain 4 page_size 4096 by_code 10 map t.map
# attribution: map t.map
RxTxL50: code_raw rank 1 count 1 kind function name consumer where prog.c:20
--- exit 0
EOF
ciat -p --by-code --by-data --json --map t.map t.2
check "ciat: --json has the lines" grep -c '"code_raw"\|"data_war"' t.2.ciat_report.json <<'EOF'
3
--- exit 0
EOF

# ---- cdat ---------------------------------------------------------------------------------------
cp t.map t.2.map
cdat -p --by-code --by-data --miss-trace t.misses t.2 "$D/m2.ini"
check "cdat: by hand, with the map" grep -E '^# (options|attribution):|^RxT.L0[13]:|^RxTxL2[01]:' t.2.cdat_report <<'EOF'
# options: gap_limit 4096 parallel_start yes lenient no by_code 10 by_data 10 miss_trace t.misses compress no general no detailed no
# attribution: map t.2.map
RxT0L01: data refs 5 hits 0 0.00% misses 5 100.00% upgrades 0 0.00%
RxT0L03: instr refs 5 hits 4 80.00% misses 1 20.00% upgrades 0 0.00%
RxT1L01: data refs 6 hits 0 0.00% misses 6 100.00% upgrades 0 0.00%
RxT1L03: instr refs 4 hits 3 75.00% misses 1 25.00% upgrades 0 0.00%
RxTxL01: data refs 11 hits 0 0.00% misses 11 100.00% upgrades 0 0.00%
RxTxL03: instr refs 9 hits 7 77.78% misses 2 22.22% upgrades 0 0.00%
RxTxL20: code_misses rank 1 count 5 kind function name consumer where prog.c:20
RxTxL20: code_misses rank 2 count 3 kind function name producer where prog.c:10
RxTxL20: code_misses rank 3 count 3 kind function name producer where prog.c:11
RxTxL20: code_misses rank 4 count 2 kind address name unknown where -
RxTxL20: code_remote rank 1 count 3 kind function name consumer where prog.c:20
RxTxL20: code_remote rank 2 count 3 kind function name producer where prog.c:11
RxTxL20: code_remote rank 3 count 2 kind address name unknown where -
RxTxL20: code_remote rank 4 count 2 kind function name producer where prog.c:10
RxTxL20: code_false_sharing rank 1 count 1 kind function name consumer where prog.c:20
RxTxL20: code_false_sharing rank 2 count 1 kind function name producer where prog.c:11
RxTxL21: data_misses rank 1 count 4 kind object name pair where prog.c:4
RxTxL21: data_misses rank 2 count 2 kind address name 0x00007000 where -
RxTxL21: data_misses rank 3 count 2 kind heap name producer where prog.c:11
RxTxL21: data_misses rank 4 count 2 kind mapping name /src/prog where -
RxTxL21: data_misses rank 5 count 1 kind address name 0x00006000 where -
RxTxL21: data_remote rank 1 count 4 kind object name pair where prog.c:4
RxTxL21: data_remote rank 2 count 2 kind heap name producer where prog.c:11
RxTxL21: data_remote rank 3 count 1 kind address name 0x00006000 where -
RxTxL21: data_remote rank 4 count 1 kind address name 0x00007000 where -
RxTxL21: data_remote rank 5 count 1 kind mapping name /src/prog where -
RxTxL21: data_false_sharing rank 1 count 2 kind object name pair where prog.c:4
--- exit 0
EOF
check "cdat: no L17/L18 without --miss-classes" grep -c 'L1[78]:' t.2.cdat_report <<'EOF'
0
--- exit 1
EOF
check "cdat: the miss trace, line by line" cat t.misses <<'EOF'
# cdat miss trace of t.2
# fields: clock processor stream pc address class source
# one line per miss, in simulation order: clock = the processor's pseudo clock; stream d (data) or i (instructions); pc of the access ('-': unknown); address = the byte the access touches first in the missed line; class cold capacity conflict true_sharing false_sharing; source local_memory local_cache remote_memory remote_cache
1 1 d - 0x00006000 cold remote_memory
1 0 i 0x00001000 0x00001000 cold remote_memory
1 0 d 0x00001000 0x00002008 cold local_memory
2 1 d - 0x00002008 cold remote_memory
2 0 d 0x00001004 0x00003000 cold remote_memory
3 0 d 0x00001008 0x00005000 cold remote_memory
3 1 i 0x00001108 0x00001108 cold local_memory
3 1 d 0x00001108 0x00003004 cold remote_cache
4 0 d 0x0000100c 0x00007000 cold remote_memory
4 1 d 0x0000110c 0x00005000 cold remote_cache
5 0 d 0x00001010 0x00003000 false_sharing remote_cache
5 1 d 0x00001110 0x00007000 cold local_memory
6 1 d 0x00001114 0x00003004 false_sharing remote_cache
--- exit 0
EOF
mv t.2.cdat_report with-map.cdat_report
cdat -p t.2 "$D/m2.ini"
check "cdat: without the options, the report has no L20/L21 and is otherwise the same" bash -c \
    'diff <(grep -v -e "^RxTxL2[01]:" -e "^# command:" -e "^# attribution:" with-map.cdat_report | sed "s/ by_code 10 by_data 10 miss_trace t.misses//") <(grep -v "^# command:" t.2.cdat_report)' <<'EOF'
--- exit 0
EOF
# Several machines in one pass (the events replayed to each by common/fanout):
# each report's L20/L21 are those of a run on its own.
cp "$D/m2.ini" m2b.ini
cdat -p --by-code --by-data t.2 "$D/m2.ini" m2b.ini
check "cdat: two machines in one pass, the same L20/L21 as one alone" bash -c \
    'diff <(grep "^RxTxL2[01]:" with-map.cdat_report) <(grep "^RxTxL2[01]:" t.2.m2.cdat_report) &&
     diff <(grep "^RxTxL2[01]:" with-map.cdat_report) <(grep "^RxTxL2[01]:" t.2.m2b.cdat_report)' <<'EOF'
--- exit 0
EOF
rm t.2.map
cdat -p --by-data=2 t.2 "$D/m2.ini"
check "cdat: without a map, line addresses; --by-data=2" grep -E '^# attribution:|^RxTxL2[01]:' t.2.cdat_report <<'EOF'
# attribution: map none (addresses)
RxTxL21: data_misses rank 1 count 4 kind address name 0x00003000 where -
RxTxL21: data_misses rank 2 count 2 kind address name 0x00002000 where -
RxTxL21: data_remote rank 1 count 4 kind address name 0x00003000 where -
RxTxL21: data_remote rank 2 count 2 kind address name 0x00005000 where -
RxTxL21: data_false_sharing rank 1 count 2 kind address name 0x00003000 where -
--- exit 0
EOF

# ---- bad maps: exit 2, FILE:LINE, nothing written ------------------------------------------------
rm -f t.2.ciat_report t.2.memory t.2.cdat_report t.misses
printf 'code 0x00001000 0x00001100 f m\ncode 0x00001080 0x00001200 g m\n' >t.2.map
check "ciat: overlapping map lines" ciat --by-code t.2 <<'EOF'
--- stderr
ciat: t.2.map:2: code line 0x00001080-0x00001200 overlaps line 1 (0x00001000-0x00001100)
--- exit 2
EOF
check_true "ciat: no output after a bad map" test ! -e t.2.ciat_report -a ! -e t.2.memory
check "cdat: the same map" cdat --by-data --miss-trace t.misses t.2 "$D/m2.ini" <<'EOF'
--- stderr
cdat: t.2.map:2: code line 0x00001080-0x00001200 overlaps line 1 (0x00001000-0x00001100)
--- exit 2
EOF
check_true "cdat: no report, no miss trace after a bad map" test ! -e t.2.cdat_report -a ! -e t.misses
printf '# smait address map v2\nsymbol 0x00001000 0x00001100 f m\n' >bad.map
check "ciat: unknown kind of line" ciat --by-data --map bad.map t.2 <<'EOF'
--- stderr
ciat: bad.map:2: unknown kind of line 'symbol' (code, line, data, object or heap)
--- exit 2
EOF
printf 'object 0x00003000 0x00003000 pair prog.c:4\n' >bad.map
check "cdat: END <= START" cdat --by-code --map bad.map t.2 "$D/m2.ini" <<'EOF'
--- stderr
cdat: bad.map:1: END 0x00003000 is not above START 0x00003000
--- exit 2
EOF
check_true "no outputs after the bad maps" test ! -e t.2.ciat_report -a ! -e t.2.memory -a ! -e t.2.cdat_report
check_status "--map of a missing file" 2 '^ciat: no-such\.map: ' ciat --by-code --map no-such.map t.2
# A map beside the traces is only read with --by-code or --by-data.
ciat -p t.2
check_true "without --by-code/--by-data the map is not read" test -e t.2.ciat_report
check "usage: --map alone" ciat --map t.map t.2 <<'EOF'
--- stderr
ciat: --map works only with --by-code, --by-data, --annotate, --locks, --barriers or --critical-path
ciat: try 'ciat --help'
--- exit 1
EOF
check "usage: --by-code=0" cdat --by-code=0 t.2 "$D/m2.ini" <<'EOF'
--- stderr
cdat: option --by-code=0: N must be a number of lines, 1..1000000
cdat: try 'cdat --help'
--- exit 1
EOF
check "usage: --miss-trace with two configurations" cdat --miss-trace m t.2 "$D/m2.ini" "$CLI_DIR/cdat/2x2-p1.ini" <<'EOF'
--- stderr
cdat: --miss-trace with several configurations: one miss trace is one machine's; run each configuration on its own
cdat: try 'cdat --help'
--- exit 1
EOF

# ---- random sets, all 8 protocols: one miss-trace line per miss ------------------------------------
# lines TRACE REPORT: the miss trace's lines and classes against RxTxL01 +
# L03 and RxTxL17/L18 (the report of --miss-classes).
lines() {
    awk 'FNR == 1 { f++ }
         f == 1 && !/^#/ { n++; c[$3, $6]++ }
         f == 2 && /^RxTxL0[13]:/ { m += $9 }
         f == 2 && /^RxTxL1[78]:/ { s = $2 == "data_classes" ? "d" : "i"
             for (k = 3; k <= 11; k += 2) if (c[s, $k] + 0 != $(k + 1)) print "class " s " " $k ": " c[s, $k] + 0 " != " $(k + 1) }
         END { print (n == m && n > 100 ? "equal" : "lines " n " misses " m) }' "$1" "$2"
}
awk -v seed=77 -v threads=4 -v n=6000 -f "$R" >rs.txt
smait asm rs.txt rs
for proto in 1 2 3 4 5 6 7 8; do
    printf '[system]\nnodes = 2\nprocs_per_node = 2\nline_size = 32\nprotocol = %s\n[dcache]\nsize = 512\nassoc = 2\n[icache]\nsize = 256\nassoc = 1\n[interconnect_cache]\nsize = %s\nassoc = 2\n' \
        "$proto" $((proto % 2 ? 0 : 1024)) >rs.ini
    cdat --miss-classes --by-code --miss-trace rs.misses rs.4 rs.ini
    check "protocol $proto: one miss-trace line per miss, with L17/L18's classes" lines rs.misses rs.4.cdat_report <<'EOF'
equal
--- exit 0
EOF
    mv rs.4.cdat_report rs.with
    cdat --miss-classes rs.4 rs.ini
    check "protocol $proto: the report without --by-code/--miss-trace is the same but for L20" bash -c \
        'diff <(grep -v -e "^RxTxL20:" -e "^# command:" -e "^# attribution:" rs.with | sed "s/ by_code 10 miss_trace rs.misses//") <(grep -v "^# command:" rs.4.cdat_report)' <<'EOF'
--- exit 0
EOF
done

# The JSON form: every L50/L51 line has the same keys, whatever the kind.
mkdir kinds
smait asm "$D/t.txt" kinds/t
cp "$D/t.2.map" kinds/t.2.map
ciat -q -p --json --false-sharing --by-code --by-data kinds/t.2
check "JSON: every L50 and L51 line has kind and name, whatever the kind" python3 -c '
import json, sys
lines = [l for l in json.load(open(sys.argv[1]))["lines"] if l.get("level") in (50, 51)]
print(sorted({l["fields"]["kind"] for l in lines}), all("name" in l["fields"] and "where" in l["fields"] for l in lines))
' kinds/t.2.ciat_report.json <<'EOF'
['address', 'function', 'heap', 'mapping', 'object'] True
--- exit 0
EOF

# --annotate: the figures per source line, hottest first, then the source
# with them; a source beside the map is found, a missing one named.
mkdir ann
smait asm "$D/t.txt" ann/t
cp "$D/t.2.map" ann/t.2.map
check "ciat --annotate: source lines hottest first; a source that cannot be read is named" bash -c \
    'ciat -q -p --false-sharing --annotate ann/t.2 && grep -v "^#" ann/t.2.ciat_annotated | awk "/^-- cache lines/ { exit } { print }" | sed "\${/^\$/d}"' <<'EOF'

-- source lines, hottest first
           raw           war false_sharing  file:line
             1             1             1  prog.c:20
             .             .             1  prog.c:11

-- prog.c: the source cannot be read here (the figures of its lines are above)
--- exit 0
EOF
for i in $(seq 1 22); do echo "/* line $i */"; done >ann/prog.c
check "ciat --annotate: a relative source is read beside the map, its lines around the figures shown" bash -c \
    'ciat -q -p --false-sharing --annotate ann/t.2 && sed -n "/^-- prog.c/,/^\$/p" ann/t.2.ciat_annotated | sed "/^\$/d"' <<'EOF'
-- prog.c (read as ann/prog.c)
             .             .             .  | /* line 8 */
             .             .             .  | /* line 9 */
             .             .             .  | /* line 10 */
             .             .             1  | /* line 11 */
             .             .             .  | /* line 12 */
             .             .             .  | /* line 13 */
             .             .             .  | /* line 14 */
                                            | ...
             .             .             .  | /* line 17 */
             .             .             .  | /* line 18 */
             .             .             .  | /* line 19 */
             1             1             1  | /* line 20 */
             .             .             .  | /* line 21 */
             .             .             .  | /* line 22 */
--- exit 0
EOF
# t.txt's line 0x3000: T0 stores word 0 at 0x1004 (line 10) and 0x1010 (line
# 11): a row each, equal counts in pc order; T1 stores word 1 at 0x1108 and
# loads it at 0x1114, both line 20: one row of 2 pcs.
check "ciat --annotate --false-sharing: perf c2c's view, each thread's bytes of the line and its accesses by code" \
    bash -c 'sed -n "/^-- cache lines/,\$p" ann/t.2.ciat_annotated' <<'EOF'
-- cache lines with the most false sharing misses (L19): each thread's bytes, then its loads and stores of the line by source line or pc (the most first; at most 16 pcs per thread, the rest as 'other code')
0x00003000 false_sharing 2
  thread 0 bytes 0-3
    loads 0 stores 1 bytes 0-3 pc 0x00001004 function producer where prog.c:10
    loads 0 stores 1 bytes 0-3 pc 0x00001010 function producer where prog.c:11
  thread 1 bytes 4-7
    loads 1 stores 1 bytes 4-7 pcs 2 function consumer where prog.c:20
--- exit 0
EOF
# Sixteen pcs per thread and line, then "other code": T0 stores word 0 of 0x3000 from
# 19 pcs (0x1000, 0x1004, …, 0x1048; the one at 0x1000 twice, so it ranks
# first), T1 word 1 twice: -p runs T1 first at equal clocks (smait schedule
# -p c2c.2): T1's store (clock 1, cold), T0's (cold, invalidates T1), T1's
# second (2, a miss, invalidates T0), T0's next (3, a miss): neither touches
# a word the other wrote, so both misses are false sharing. A branch at 0x1004
# takes T0 back to 0x1000 after its first store. T0's rows: 0x1000
# (2 stores), then 0x1004 … 0x103c by pc (1 each), then 0x1040, 0x1044 and
# 0x1048 as other code (3 stores); no map, so a row per pc, named by address.
{
    echo "threads 2"; echo "thread 0"; echo "proc 0x1000"; echo "store 4 0x3000"; echo "branch 0x1008 0x1000"
    for i in $(seq 0 18); do echo "store 4 0x3000"; done
    echo "thread 1"; echo "store 4 0x3004"; echo "store 4 0x3004"
} >c2c.txt
smait asm c2c.txt c2c
check "ciat --annotate --false-sharing: at most 16 pcs per thread and line, the rest as other code" \
    bash -c 'ciat -q -p --false-sharing --annotate c2c.2 && sed -n "/^0x/,\$p" c2c.2.ciat_annotated' <<'EOF'
0x00003000 false_sharing 2
  thread 0 bytes 0-3
    loads 0 stores 2 bytes 0-3 address 0x00001000 where -
    loads 0 stores 1 bytes 0-3 address 0x00001004 where -
    loads 0 stores 1 bytes 0-3 address 0x00001008 where -
    loads 0 stores 1 bytes 0-3 address 0x0000100c where -
    loads 0 stores 1 bytes 0-3 address 0x00001010 where -
    loads 0 stores 1 bytes 0-3 address 0x00001014 where -
    loads 0 stores 1 bytes 0-3 address 0x00001018 where -
    loads 0 stores 1 bytes 0-3 address 0x0000101c where -
    loads 0 stores 1 bytes 0-3 address 0x00001020 where -
    loads 0 stores 1 bytes 0-3 address 0x00001024 where -
    loads 0 stores 1 bytes 0-3 address 0x00001028 where -
    loads 0 stores 1 bytes 0-3 address 0x0000102c where -
    loads 0 stores 1 bytes 0-3 address 0x00001030 where -
    loads 0 stores 1 bytes 0-3 address 0x00001034 where -
    loads 0 stores 1 bytes 0-3 address 0x00001038 where -
    loads 0 stores 1 bytes 0-3 address 0x0000103c where -
    loads 0 stores 3 bytes 0-3 other code
  thread 1 bytes 4-7
    loads 0 stores 2 bytes 4-7 address unknown where -
--- exit 0
EOF
