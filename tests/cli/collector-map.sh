# collector-map.sh — the address map's attribution lines (docs/collector.md
# §6.1): line (source lines of the synthetic code, -g only), object (global
# and static variables) and heap (blocks by allocation site). attr.c marks
# the source lines the map must name; attrmap.awk turns the map into those
# names (heap ranges through the data lines back to the blocks the program
# printed, sites through the line and code lines to source lines and
# functions).
collector_setup || return 0

check "smait-cc -g builds attr.c" smait-cc -g -O1 -pthread "$D/attr.c" -o attr <<'EOF'
--- exit 0
EOF
check "the map's first line names its version" bash -c '
    TRACE_FILE_NAME=at SMAIT_QUIET=1 ./attr > at.syms && head -1 at.1.map' <<'EOF'
# smait address map v3
--- exit 0
EOF
# The store in fill's loop is one slot of its own line, inside fill. The
# variables: their sizes and declaration lines (calls, a static in main, by
# its plain name; blocks shares a touched page, so it is listed though
# never written). a1's place was a block of site a twice, then b's: one
# range, both sites, a first (more blocks). realloc grew b's 100-byte block
# in place: the first 100 bytes are both sites', the rest realloc's (ties:
# the lower site address first, realloc's in main before site_b).
check "-g: line, object and heap lines name the source" \
    awk -f "$D/hex.awk" -f "$D/attrmap.awk" "$D/attr.c" at.syms at.1.map <<'EOF'
object calls 4 attr.c:OBJ:calls
object grid 12000 attr.c:OBJ:grid
object total 8 attr.c:OBJ:total
object blocks 1600 attr.c:line74
line LINE:store in fill bytes 4
heap reused+0 64 blocks 3 SITE:a(site_a),SITE:b(site_b)
heap a2+0 64 blocks 1 SITE:a(site_a)
heap c+0 64 blocks 1 SITE:calloc(main)
heap r+0 100 blocks 2 SITE:realloc(main),SITE:b(site_b)
heap r+100 8900 blocks 1 SITE:realloc(main)
--- exit 0
EOF
# (Fixed-width hexadecimal: string order is address order.)
check_true "every kind of line sorted by START, none overlapping another of its kind" bash -c '
    for k in code line data object heap; do
        awk -v K=$k '\''$1 == K { if ($2 < e) exit 1; e = $3 }'\'' at.1.map || { echo "$k"; exit 1; }
    done'
check_true "a second run writes the same map" bash -c '
    TRACE_FILE_NAME=again SMAIT_QUIET=1 ./attr > /dev/null && cmp at.1.map again.1.map'
# The records are those of the collector before the map had these lines:
# the masked dump (kinds, sizes, order; the addresses moved with the
# runtime's size, and collector.sh checks them by name) hashed with the
# collector of the commit before; since then, 13 branches more, each from a
# call of a function that is not instrumented to the next slot, or from a
# branch that falls through to a block that begins with an access
# (docs/collector.md §5): the same 8384 records otherwise, in the same order.
# Since then also the tracing record before end_trace (formats/SMAIT.md §5.2:
# dropped from the dump, its values are the run's; its six raw records move
# end_trace's index from 8399 to 8405).
check "the records are unchanged (masked dump of 8397 lines)" bash -c '
    smait dump --set at.1 | sed -E "/: tracing /d; s/ @[0-9:]+\$//; s/#.*//; s/0x[0-9a-f]+/A/g" > at.masked
    wc -l < at.masked; md5sum < at.masked | cut -c1-32' <<'EOF'
8397
87685efde4cd9e34b4ad8bb616c34f80
--- exit 0
EOF
# Two workers allocate 100 blocks each from one site, at the same time: no
# block is lost to the race (each is its own range: glibc's chunk headers
# lie between them).
check "threads: every block of the workers' site is there" bash -c '
    TRACE_FILE_NAME=th SMAIT_QUIET=1 ./attr threads > th.syms &&
    awk -f "$D/hex.awk" -f "$D/attrmap.awk" "$D/attr.c" th.syms th.3.map | grep "SITE:worker"' <<'EOF'
heap of SITE:worker: 200 ranges, 200 blocks
--- exit 0
EOF

# Without -g: no line lines, each variable's source is its module; the C
# static in main still by its plain name; heap sites by function only.
check "smait-cc without -g builds attr.c" smait-cc -O1 -pthread "$D/attr.c" -o attr0 <<'EOF'
--- exit 0
EOF
check "without -g: no line lines, objects name the module" bash -c '
    TRACE_FILE_NAME=a0 SMAIT_QUIET=1 ./attr0 > a0.syms && grep -c "^line" a0.1.map
    awk -f "$D/hex.awk" -f "$D/attrmap.awk" "$D/attr.c" a0.syms a0.1.map | sed "s|$D/||"' <<'EOF'
0
object calls 4 attr.c
object grid 12000 attr.c
object total 8 attr.c
object blocks 1600 attr.c
heap reused+0 64 blocks 3 line?(site_a),line?(site_b)
heap a2+0 64 blocks 1 line?(site_a)
heap c+0 64 blocks 1 line?(main)
heap r+0 100 blocks 2 line?(main),line?(site_b)
heap r+100 8900 blocks 1 line?(main)
--- exit 0
EOF

# C++: new, new[], nothrow new, an exception through the wrapper, a vector.
check "smait-c++ -g builds a program with new" bash -c '
cat > n.cc <<'\''EOF_'\''
#include <cstdio>
#include <new>
#include <vector>
struct S { long a[4]; };
int main()
{
    std::vector<int> v(10, 1);
    S *s = new S;                               // 8
    S *arr = new S[10];                         // 9
    S *nt = new (std::nothrow) S;               // 10
    s->a[0] = 1, arr[9].a[3] = 2, nt->a[1] = 3;
    try {
        long *big = new long[v.size() << 40];   // 13
        big[0] = 1;
    } catch (std::bad_alloc &) {
        std::puts("bad_alloc");
    }
    std::printf("%ld\n", s->a[0] + arr[9].a[3] + nt->a[1] + v[9]);
}
EOF_
smait-c++ -g -O0 n.cc -o n' <<'EOF'
--- exit 0
EOF
check "C++: each new by its line, the exception passes" bash -c '
    TRACE_FILE_NAME=n SMAIT_QUIET=1 ./n &&
    awk -f "$D/hex.awk" -f "$D/attrmap.awk" -v SITES=1 /dev/null /dev/null n.1.map |
        grep -E "line (8|9|10|13) "' <<'EOF'
bad_alloc
7
line 8 bytes 32
line 9 bytes 320
line 10 bytes 32
--- exit 0
EOF

# The demo's diagnosis (scripts/demo-kernels.sh): examples/false_sharing.c
# built as make demo builds it; every worker increments its own counter, the
# four counters share one line, so the false sharing misses of ciat and the
# misses and false sharing misses of cdat all come from the increment in
# worker (line 20) and fall on the array of structs declared at line 14.
# The RAW is main's reading of the counters after each join (line 32; before
# the calls were stepped over, the pcs after pthread_create and
# pthread_join were behind and named line 28).
check "false_sharing -g: smait-cc builds it as the demo does" \
    smait-cc -O2 -g -fno-vectorize -fno-slp-vectorize -pthread "$CLI_DIR/../../examples/false_sharing.c" -o fs <<'EOF'
--- exit 0
EOF
TOP1='top1() {   # REPORT TAG: the first entry of each figure, file names without their directory
    awk -v tag="$2" '"'"'$1 == tag && $4 == 1 { w = $12; sub(/.*\//, "", w); print $2, $8, $10, w }'"'"' "$1"
}'
check "false_sharing: ciat --false-sharing --by-code --by-data name the increment and the struct array" \
    bash -c "$TOP1"'
    TRACE_FILE_NAME=fs SMAIT_QUIET=1 ./fs && ciat -q --false-sharing --by-code --by-data fs.5 &&
    top1 fs.5.ciat_report RxTxL50: && top1 fs.5.ciat_report RxTxL51:' <<'EOF'
false_sharing: 2000 updates
code_raw function main false_sharing.c:32
code_false_sharing function worker false_sharing.c:20
data_raw object counters false_sharing.c:14
data_false_sharing object counters false_sharing.c:14
--- exit 0
EOF
check "false_sharing: ciat --annotate: the hottest source line is the increment, shown in its source" bash -c \
    'ciat -q --false-sharing --annotate fs.5 && grep -A1 "file:line" fs.5.ciat_annotated | tail -1 | sed -e "s|/.*/||" -e "s/^ *//" &&
     grep -E "^ +\. +\. +[0-9]+  \|" fs.5.ciat_annotated | sed "s/^ *//"' <<'EOF'
.             .          3992  false_sharing.c:20
.             .          3992  |         counters[id].value++;
--- exit 0
EOF
# The top line's worker threads (1-4): every row of their accesses (one per
# pc: the compiler's unrolled loads and stores) at the increment, on the
# thread's own bytes; four different byte ranges; 500 loads and 500 stores
# each (2000 updates over 4 threads).
cat >c2c.awk <<'AWK'
/^0x/ { if (++lines > 1) exit }
/^  thread/ { t = $2; b = $4; if (t > 0) ranges[b] = 1 }
/^    / && t > 0 {
    w = $NF; sub(/.*\//, "", w)
    ok += (w == "false_sharing.c:20" && $6 == b); rows++; ld[t] += $2; st[t] += $4
}
END {
    n = 0; for (r in ranges) n++
    print "rows", (rows > 0), "at the increment on own bytes", (ok == rows), "ranges", n
    for (t = 1; t <= 4; t++) print "thread", t, "loads", ld[t], "stores", st[t]
}
AWK
check "false_sharing: ciat --annotate: the line's threads each on their own bytes, all at the increment" bash -c \
    'sed -n "/^-- cache lines/,\$p" fs.5.ciat_annotated | sed 1d | awk -f c2c.awk' <<'EOF'
rows 1 at the increment on own bytes 1 ranges 4
thread 1 loads 500 stores 500
thread 2 loads 500 stores 500
thread 3 loads 500 stores 500
thread 4 loads 500 stores 500
--- exit 0
EOF
check "false_sharing: cdat --annotate: the same line, for misses, remote misses and false sharing" bash -c \
    'cdat -q --annotate fs.5 "$1" && grep -A1 "file:line" fs.5.cdat_annotated | tail -1 | awk "{ print (\$1 > 3000 && \$2 > 1000 && \$3 > 3000), \$4 }" | sed "s|/.*/||"' \
    - "$CLI_DIR/../../configs/4x4.ini" <<'EOF'
1 false_sharing.c:20
--- exit 0
EOF
check "counter (a mutex): ciat --annotate: the hottest line is the increment under the lock" bash -c \
    'smait-cc -O2 -g -pthread "$1" -o counter && TRACE_FILE_NAME=ct SMAIT_QUIET=1 ./counter >/dev/null &&
     ciat -q --sync=simulated --annotate ct.5 && grep -A1 "file:line" ct.5.ciat_annotated | tail -1 | awk "{ print \$4 }" |
     sed "s|/.*/||" && grep -c "counter++;" ct.5.ciat_annotated' - "$CLI_DIR/../../examples/counter.c" <<'EOF'
counter.c:17
1
--- exit 0
EOF
check "false_sharing: cdat --by-code --by-data: misses, remote misses and false sharing misses alike" \
    bash -c "$TOP1"'
    cdat -q --by-code --by-data fs.5 "$CLI_DIR/../../configs/4x4.ini" &&
    top1 fs.5.cdat_report RxTxL20: && top1 fs.5.cdat_report RxTxL21:' <<'EOF'
code_misses function worker false_sharing.c:20
code_remote function worker false_sharing.c:20
code_false_sharing function worker false_sharing.c:20
data_misses object counters false_sharing.c:14
data_remote object counters false_sharing.c:14
data_false_sharing object counters false_sharing.c:14
--- exit 0
EOF

# sparse.c: 1024 separate runs of one page each in a malloc'd (mapped)
# block, written in an order where pages 256 apart (one entry of the
# runtime's page cache, rt.h) follow each other, then read in the reverse
# order. Every folded address must lead back through the map's data lines
# to the page and offset the program used, and each run's data line must
# name its mapping (the block's: anonymous; the local variable's: the stack),
# the mappings being read once for all the runs.
check "smait-cc builds sparse.c" smait-cc -O1 "$D/sparse.c" -o sparse <<'EOF2'
--- exit 0
EOF2
check "sparse: each access leads back to its page and offset through the map" bash -c '
    TRACE_FILE_NAME=sp SMAIT_QUIET=1 ./sparse > sp.syms || exit 1
    smait dump sp.1.0 | awk -v SYMS=sp.syms -v MAP=sp.1.map -f "$D/hex.awk" -f "$D/normalize.awk" sp.syms sp.1.map - |
        awk "\$1 == \"load\" || \$1 == \"store\" { sub(/^block\\+/, \"\", \$3); if (\$3 ~ /^[0-9]+\$/) print \$1, \$3 }" > got
    awk "BEGIN { for (k = 0; k < 1024; k++) print \"store\", 2 * ((k * 257) % 1024) * 4096 + 8 * (k % 8)
                 for (k = 1023; k >= 0; k--) print \"load\", 2 * ((k * 257) % 1024) * 4096 + 8 * (k % 8) }" > want
    cmp want got && wc -l < got' <<'EOF2'
2048
--- exit 0
EOF2
check "sparse: the map names the mapping of every run" bash -c '
    block=$(awk "\$1 == \"block\" { print \$2 }" sp.syms)
    local=$(awk "\$1 == \"local\" { print \$2 }" sp.syms)
    awk -v b="$block" -v l="$local" "
        function hex(s,   v, i) { v = 0; for (i = 3; i <= length(s); i++) v = v * 16 + index(\"0123456789abcdef\", tolower(substr(s, i, 1))) - 1; return v }
        \$1 == \"data\" { o = hex(\$4); n = hex(\$3) - hex(\$2)
            if (o >= hex(b) - 4096 && o < hex(b) + 2 * 1024 * 4096) print \"block\", n, \$5
            else if (hex(l) >= o && hex(l) < o + n) print \"local\", n, \$5 }" sp.1.map | sort | uniq -c' <<'EOF2'
   1024 block 4096 [anonymous]
      1 local 4096 [stack]
--- exit 0
EOF2
