# cdat-misses.sh — cdat --miss-classes (docs/cdat-report.md, L17 and L18).
#
#  * by hand (tests/cli/cdat-misses/*.txt, every number derived in the
#    file's comment): threec.txt, cold, conflict (a direct-mapped cache
#    thrashes where the fully associative shadow holds the line) and capacity
#    misses, and mpki; sharing.txt, true and false sharing and upgrades on
#    two processors;
#  * without --miss-classes the report has no L17/L18 and is otherwise (but for
#    "miss_classes yes" in the "# options:" line)
#    byte-identical;
#  * random sets (tests/cli/ciat/randset.awk) on a 2x2 machine under all 8
#    protocols: in every L17/L18 line of every phase and processor the classes
#    add up to the misses of L01/L03 and the upgrades are L01's/L03's;
#  * at 1 node x 1 processor, the cold/capacity/conflict split and mpki equal
#    those of an independent model (tests/cli/cdat-misses/classes.awk: a
#    set-associative LRU cache beside a fully associative one of as many
#    lines, fed by `smait schedule --fetches`).
D=$CLI_DIR/cdat-misses
R=$CLI_DIR/ciat/randset.awk

# ---- by hand --------------------------------------------------------------------------------
smait asm "$D/threec.txt" tc
printf '[system]\nline_size = 16\n[dcache]\nsize = 32\nassoc = 1\n[icache]\nsize = 16\nassoc = full\n' >tc.ini
cdat --miss-classes tc.1 tc.ini
check "by hand: cold, conflict, capacity, mpki" grep -E '^RxT.L(01|03|17|18):' tc.1.cdat_report <<'EOF'
RxT0L01: data refs 7 hits 0 0.00% misses 7 100.00% upgrades 0 0.00%
RxT0L03: instr refs 7 hits 5 71.43% misses 2 28.57% upgrades 0 0.00%
RxT0L17: data_classes cold 5 capacity 1 conflict 1 true_sharing 0 false_sharing 0 upgrades 0 mpki 1000.0000
RxT0L18: instr_classes cold 2 capacity 0 conflict 0 true_sharing 0 false_sharing 0 upgrades 0 mpki 285.7143
RxTxL01: data refs 7 hits 0 0.00% misses 7 100.00% upgrades 0 0.00%
RxTxL03: instr refs 7 hits 5 71.43% misses 2 28.57% upgrades 0 0.00%
RxTxL17: data_classes cold 5 capacity 1 conflict 1 true_sharing 0 false_sharing 0 upgrades 0 mpki 1000.0000
RxTxL18: instr_classes cold 2 capacity 0 conflict 0 true_sharing 0 false_sharing 0 upgrades 0 mpki 285.7143
--- exit 0
EOF
check "by hand: the model agrees" bash -c 'smait schedule --fetches tc.1 |
    awk -v line=16 -v dsize=32 -v dassoc=1 -v isize=16 -v iassoc=0 -f "$0"' "$D/classes.awk" <<'EOF'
RxTxL17: data_classes cold 5 capacity 1 conflict 1 true_sharing 0 false_sharing 0 upgrades 0 mpki 1000.0000
RxTxL18: instr_classes cold 2 capacity 0 conflict 0 true_sharing 0 false_sharing 0 upgrades 0 mpki 285.7143
--- exit 0
EOF
mv tc.1.cdat_report tc.classes
cdat tc.1 tc.ini
check "without --miss-classes: no L17/L18, the rest unchanged" bash -c \
    'diff <(grep -v -e "L1[78]:" -e "^# command:" tc.classes | sed "s/ miss_classes yes//") <(grep -v "^# command:" tc.1.cdat_report) && ! grep -q "L1[78]:" tc.1.cdat_report' <<'EOF'
--- exit 0
EOF
# --miss-classes is listed in the "# options:" line when given, and only then.
check "--miss-classes in the options line" bash -c 'grep "^# options:" tc.classes; grep -c "miss_classes" tc.1.cdat_report' <<'EOF'
# options: gap_limit 4096 parallel_start no lenient no miss_classes yes compress no general no detailed no
0
--- exit 1
EOF

smait asm "$D/sharing.txt" sh
cdat -p --miss-classes sh.2 "$CLI_DIR/cdat/2x2-p1.ini"
check "by hand: true and false sharing, upgrades" grep -E '^RxT.L(01|17):' sh.2.cdat_report <<'EOF'
RxT0L01: data refs 3 hits 0 0.00% misses 3 100.00% upgrades 0 0.00%
RxT0L17: data_classes cold 1 capacity 0 conflict 0 true_sharing 1 false_sharing 1 upgrades 0 mpki 0.0000
RxT1L01: data refs 3 hits 0 0.00% misses 1 33.33% upgrades 2 66.67%
RxT1L17: data_classes cold 1 capacity 0 conflict 0 true_sharing 0 false_sharing 0 upgrades 2 mpki 0.0000
RxTxL01: data refs 6 hits 0 0.00% misses 4 66.67% upgrades 2 33.33%
RxTxL17: data_classes cold 2 capacity 0 conflict 0 true_sharing 1 false_sharing 1 upgrades 2 mpki 0.0000
--- exit 0
EOF

# ---- the classes add up to the misses, all 8 protocols -----------------------------------------
# sums REPORT: "bad LINE" for every L17/L18 line whose classes do not add up
# to the misses of the L01/L03 line of the same phase and processor, or
# whose upgrades are not L01's/L03's; then "checked" when over 100 lines were.
sums() {
    awk '/^R[0-9x]+T-?[0-9x]+L0[13]:/ { k = substr($1, 1, index($1, "L") - 1); m[k, $2 == "data"] = $9; u[k, $2 == "data"] = $12 }
         /^R[0-9x]+T-?[0-9x]+L1[78]:/ {
            k = substr($1, 1, index($1, "L") - 1); d = $2 == "data_classes"
            if ($4 + $6 + $8 + $10 + $12 != m[k, d] || $14 != u[k, d]) print "bad " $0
            n++
         }
         END { print (n > 100 ? "checked" : "too few: " n) }' "$1"
}
awk -v seed=201 -v threads=4 -v n=6000 -f "$R" >rs.txt
smait asm rs.txt rs
for proto in 1 2 3 4 5 6 7 8; do
    printf '[system]\nnodes = 2\nprocs_per_node = 2\nline_size = 32\nprotocol = %s\n[dcache]\nsize = 512\nassoc = 2\n[icache]\nsize = 256\nassoc = 1\n[interconnect_cache]\nsize = %s\nassoc = 2\n' \
        "$proto" $((proto % 2 ? 0 : 1024)) >rs.ini
    cdat --miss-classes rs.4 rs.ini
    check "protocol $proto: the classes add up to the misses" sums rs.4.cdat_report <<'EOF'
checked
--- exit 0
EOF
    check "protocol $proto: every data class and upgrades occur" awk '
        /^RxTxL17:/ { print ($4 > 0 && $6 > 0 && $8 > 0 && $10 > 0 && $12 > 0 && $14 > 0 ? "all" : "missing: " $0) }' \
        rs.4.cdat_report <<'EOF'
all
--- exit 0
EOF
done

# ---- one processor: the 3C split = the independent model's ------------------------------------
# c3 NAME SEED THREADS LINE DSIZE DASSOC ISIZE IASSOC PROTOCOL
c3() {
    local name=$1 seed=$2 p=$3 line=$4 dsize=$5 dassoc=$6 isize=$7 iassoc=$8 proto=$9 t
    rm -f one.*
    awk -v seed="$seed" -v threads="$p" -v n=8000 -f "$R" >one.txt
    smait asm one.txt one
    {
        printf '[system]\nline_size = %s\nprotocol = %s\n' "$line" "$proto"
        printf '[dcache]\nsize = %s\nassoc = %s\n[icache]\nsize = %s\nassoc = %s\n' "$dsize" "$dassoc" "$isize" "$iassoc"
        echo '[mapping]'
        for ((t = 0; t < p; t++)); do echo "thread.$t = 0.0"; done
    } >one.ini
    [ "$dassoc" = full ] && dassoc=0
    [ "$iassoc" = full ] && iassoc=0
    cdat --miss-classes "one.$p" one.ini
    smait schedule --fetches "one.$p" |
        awk -v line="$line" -v dsize="$dsize" -v dassoc="$dassoc" -v isize="$isize" -v iassoc="$iassoc" \
            -f "$D/classes.awk" >model.txt
    grep -E '^RxTxL1[78]:' "one.$p.cdat_report" >cdat.txt
    check "$name: cdat's classes = the model's" diff model.txt cdat.txt <<'EOF'
--- exit 0
EOF
    check "$name: capacity and conflict misses both occur" awk '
        { c += $6; f += $8 } END { print (c > 0 && f > 0 ? "both" : "not both: " c " " f) }' model.txt <<'EOF'
both
--- exit 0
EOF
}
#  NAME                        SEED T LINE DSIZE DASSOC ISIZE IASSOC PROTO
c3 "direct-mapped, 16-byte"    301  1 16   256   1      256   1      1
c3 "2-way, 32-byte"            302  1 32   512   2      512   2      4
c3 "4-way, 8-byte, 3 threads"  303  3 8    256   4      128   2      7
