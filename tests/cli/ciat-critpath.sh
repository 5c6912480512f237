# ciat-critpath.sh — ciat --critical-path[=N] (docs/ciat-report.md,
# L59–L60, L63): hand-written sets whose every figure is derived in their
# comments (tests/cli/critpath/cp.txt: spawn, a contended critical section, a
# barrier, the join; tests/cli/locks/site.txt: the chain's sites, L63);
# properties: span <= work, work = L06's executed instructions, parallelism
# >= 1, the contributors (by object, thread, site) sum to the span; a token
# handed round the threads in turn (recorded acquire/release) has
# parallelism 1, threads with no synchronisation but spawn and join have
# about their number; --workers, --shard/--merge/--jobs, JSON, bad options.
D=$CLI_DIR/critpath
smait asm "$D/cp.txt" cp
smait asm "$CLI_DIR/locks/site.txt" site

lines() {
    ciat "$@" && grep -hE '^RxTxL59:|^RxTxL60:' ./*.ciat_report
}
export -f lines

check "cp: L59-L60 as derived in cp.txt" lines --critical-path cp.3 <<'EOF'
RxTxL59: critical_path work 23 span 12 parallelism 1.9167 threads 3 speedup_bound 1.9167 handovers 2 end_thread 0
RxTxL60: critical_path_top rank 1 by object space start addr 0x00000000 kind none name - where - handovers 0 instructions 6 share 50.00%
RxTxL60: critical_path_top rank 2 by object space critical addr 0x00009000 kind address name 0x00009000 where - handovers 1 instructions 5 share 41.67%
RxTxL60: critical_path_top rank 3 by object space join addr 0x00000000 kind none name - where - handovers 1 instructions 1 share 8.33%
RxTxL60: critical_path_top rank 1 by thread thread 0 handovers 1 instructions 7 share 58.33%
RxTxL60: critical_path_top rank 2 by thread thread 1 handovers 1 instructions 5 share 41.67%
--- exit 0
EOF
check "cp: --critical-path=1: the top object and thread" lines --critical-path=1 cp.3 <<'EOF'
RxTxL59: critical_path work 23 span 12 parallelism 1.9167 threads 3 speedup_bound 1.9167 handovers 2 end_thread 0
RxTxL60: critical_path_top rank 1 by object space start addr 0x00000000 kind none name - where - handovers 0 instructions 6 share 50.00%
RxTxL60: critical_path_top rank 1 by thread thread 0 handovers 1 instructions 7 share 58.33%
--- exit 0
EOF
rm -f cp.3.ciat_report

# L63: cp.txt has no instruction stream. Of L60's segments, the start's 6
# instructions and the join's 1 (1 hand-over) were begun by no call: site
# none, 7; the lock's 5 (1 hand-over) by a begin_critical whose thread
# fetches nothing after it: site unknown.
check "cp: L63 without an instruction stream" bash -c '
    ciat -q --critical-path cp.3 && grep -E "^RxTxL63:" cp.3.ciat_report' <<'EOF'
RxTxL63: critical_path_site rank 1 pc - kind none name - where - handovers 1 instructions 7 share 58.33%
RxTxL63: critical_path_site rank 2 pc - kind address name unknown where - handovers 1 instructions 5 share 41.67%
--- exit 0
EOF
# site.txt derives L63 in its comments: by address, and through site.map
# (0x2004 and 0x200c are one line, prog.c:20).
check "site: L59, L63 as derived in site.txt" bash -c '
    ciat -q -p --critical-path site.3 && grep -E "^RxTxL(59|63):" site.3.ciat_report' <<'EOF'
RxTxL59: critical_path work 13 span 7 parallelism 1.8571 threads 3 speedup_bound 1.8571 handovers 3 end_thread 1
RxTxL63: critical_path_site rank 1 pc - kind none name - where - handovers 0 instructions 3 share 42.86%
RxTxL63: critical_path_site rank 2 pc 0x00002004 kind address name 0x00002004 where - handovers 1 instructions 2 share 28.57%
RxTxL63: critical_path_site rank 3 pc 0x0000200c kind address name 0x0000200c where - handovers 1 instructions 1 share 14.29%
RxTxL63: critical_path_site rank 4 pc - kind address name unknown where - handovers 1 instructions 1 share 14.29%
--- exit 0
EOF
check "site: L63 through site.map, --critical-path=2" bash -c '
    ciat -q -p --critical-path=2 --map "$0" site.3 && grep -E "^RxTxL63:" site.3.ciat_report' \
    "$CLI_DIR/locks/site.map" <<'EOF'
RxTxL63: critical_path_site rank 1 pc 0x00002004 kind function name thread_b where prog.c:20 handovers 2 instructions 3 share 42.86%
RxTxL63: critical_path_site rank 2 pc - kind none name - where - handovers 0 instructions 3 share 42.86%
--- exit 0
EOF
rm -f site.3.ciat_report

mkdir -p plain with
ciat -o plain cp.3
ciat --critical-path=4 --barriers -o with cp.3
check "cp: the report without L57-L60, L63 is the default one" bash -c '
    diff <(grep -v "^# command:" plain/cp.3.ciat_report) \
         <(grep -Ev "^# command:|^# attribution:|^RxTxL(5[789]|6[03]):" with/cp.3.ciat_report |
           sed "s/ barriers 10 critical_path 4\$//")' <<'EOF'
--- exit 0
EOF
check_same "cp: the memory file is the default one" plain/cp.3.memory with/cp.3.memory

# ---- properties ----------------------------------------------------------
# cprops FILE: span <= work, work = Σ RxT*L06 executed, parallelism >= 1
# when there is work, the L60 lines by object and by thread each sum to at
# most the span (all of it when every contributor is listed), and so do
# the L63 lines by site, whose hand-overs sum to L59's.
cprops() {
    awk '
    function field(k,   i) { for (i = 2; i <= NF; i++) if ($i == k) return $(i + 1); return "" }
    function bad(why) { print "line " FNR ": " why; status = 1 }
    /^RxT[0-9]+L06:/ { executed += field("executed") }
    /^RxTxL59:/ { work = field("work"); span = field("span"); par = field("parallelism") }
    /^RxTxL59:/ { handovers = field("handovers") }
    /^RxTxL60:/ { if (field("by") == "object") o += field("instructions"); else t += field("instructions") }
    /^RxTxL63:/ { si += field("instructions"); sh += field("handovers") }
    END {
        if (span + 0 > work + 0) bad("span " span " > work " work)
        if (work + 0 != executed) bad("work " work " != executed " executed)
        if (work > 0 && par + 0 < 1) bad("parallelism " par " < 1")
        if (o != span || t != span) bad("contributors " o ", " t " != span " span)
        if ((si != span) || (sh != handovers)) bad("sites " si ", " sh " != span " span ", handovers " handovers)
        if (!status) print "ok"
        exit status
    }' "$1"
}
export -f cprops

for spec in "4 921 4000" "16 922 1500" "2 923 8000"; do
    read -r p seed n <<<"$spec"
    rm -rf rs.* r1 r2 && mkdir r1 r2
    awk -v seed="$seed" -v threads="$p" -v n="$n" -f "$CLI_DIR/ciat/randset.awk" >rs.txt
    smait asm rs.txt rs
    check "random $p threads, seed $seed: the rules hold" bash -c "
        ciat -q --critical-path=100000 --workers 1 -o r1 rs.$p && cprops r1/rs.$p.ciat_report" <<'EOF'
ok
--- exit 0
EOF
    ciat -q --critical-path=100000 --workers 2 -o r2 "rs.$p"
    same_but_command "random $p threads, seed $seed: --workers 2 gives the same report" \
        "r1/rs.$p.ciat_report" "r2/rs.$p.ciat_report"
done

# A token handed round P threads R times (recorded mode: thread t's turn r
# acquires release r*P + t of 0x7000 and makes release r*P + t + 1), W
# loads a turn: every instruction is on the chain, parallelism 1.
token() {
    awk -v P="$1" -v R="$2" -v W="$3" 'BEGIN {
        print "threads " P
        for (t = 0; t < P; t++) {
            print "thread " t
            print "start_trace sync=1"
            for (r = 0; r < R; r++) {
                print "acquire obj=0x7000 seq=" r * P + t " kind=5"
                for (i = 0; i < W; i++) print "load 4 0x" sprintf("%x", 4096 * (t + 1) + 4 * i)
                print "release obj=0x7000 seq=" r * P + t + 1 " kind=5"
            }
            print "end_trace"
        }
    }'
}
# Threads that only start and join: thread 0 spawns all, each runs W loads.
parallel() {
    awk -v P="$1" -v W="$2" 'BEGIN {
        print "threads " P
        for (t = 0; t < P; t++) {
            print "thread " t
            if (t == 0) print "spawn region=1 threads=0"
            for (i = 0; i < W; i++) print "load 4 0x" sprintf("%x", 4096 * (t + 1) + 4 * i)
            print "join"
        }
    }'
}
for p in 2 4 8; do
    token "$p" 5 20 >tok.txt
    smait asm tok.txt tok
    check "token round $p threads: parallelism 1, all of the work on the chain" bash -c "
        ciat -q -p --critical-path tok.$p && cprops tok.$p.ciat_report &&
        grep -E '^RxTxL59:' tok.$p.ciat_report | cut -d' ' -f2-8" <<EOF
ok
critical_path work $((p * 100)) span $((p * 100)) parallelism 1.0000
--- exit 0
EOF
    parallel "$p" 50 >par.txt
    smait asm par.txt par
    check "embarrassingly parallel, $p threads: parallelism $p" bash -c "
        ciat -q --critical-path par.$p && cprops par.$p.ciat_report &&
        grep -E '^RxTxL59:' par.$p.ciat_report | cut -d' ' -f2-12" <<EOF
ok
critical_path work $((p * 50)) span 50 parallelism $p.0000 threads $p speedup_bound $p.0000
--- exit 0
EOF
done
# Under --sync=simulated the acquires wait for nothing: no hand-over, the
# chain is one thread's 100 instructions of 4 x 100.
check "token round, simulated: no object edges" bash -c "
    ciat -q -p --sync=simulated --critical-path tok.8 && grep -E '^RxTxL59:' tok.8.ciat_report | cut -d' ' -f2-8" <<'EOF'
critical_path work 800 span 100 parallelism 8.0000
--- exit 0
EOF

# ---- --shard, --merge, --jobs: part 0 writes L57-L60 as lock-line records.
ciat_sharded "cp" cp.3 3 --json --critical-path --barriers --locks
rm -f rs.*
awk -v seed=931 -v threads=4 -v n=3000 -f "$CLI_DIR/ciat/randset.awk" >rs.txt
smait asm rs.txt rs
ciat_sharded "random 4 threads, seed 931" rs.4 2 --critical-path
ciat_sharded "site, named" site.3 2 -p --critical-path --map "$CLI_DIR/locks/site.map"

# ---- JSON ------------------------------------------------------------------
if python3 -c 'import jsonschema' 2>/dev/null; then
    mkdir -p js
    ciat --json --critical-path -o js cp.3
    check "cp: --json is valid and holds the text's figures" python3 "$CLI_DIR/../tools/report-json-check.py" \
        "$CLI_DIR/../../docs/report.schema.json" js/cp.3.ciat_report js/cp.3.ciat_report.json <<'EOF'
--- exit 0
EOF
    check "cp: JSON fields of L59 and L60" python3 -c '
import json, sys
rep = json.load(open(sys.argv[1]))
for l in rep["lines"]:
    if l["tag"] in ("RxTxL59", "RxTxL60"):
        f = l["fields"]
        print(l["name"], f.get("span"), f.get("parallelism"), f.get("by"), f.get("instructions"))
' js/cp.3.ciat_report.json <<'EOF'
critical_path 12 1.9167 None None
critical_path_top None None object 6
critical_path_top None None object 5
critical_path_top None None object 1
critical_path_top None None thread 7
critical_path_top None None thread 5
--- exit 0
EOF
else
    echo "(ciat-critpath: no python3-jsonschema: JSON checks skipped)"
fi

# ---- bad options and combinations: usage errors (exit 1), nothing written ----
mkdir -p bad
check "--critical-path=0: a usage error" ciat --critical-path=0 -o bad cp.3 <<'EOF'
--- stderr
ciat: option --critical-path=0: N must be a number of lines, 1..1000000
ciat: try 'ciat --help'
--- exit 1
EOF
check "--critical-path=ten: a usage error" ciat --critical-path=ten -o bad cp.3 <<'EOF'
--- stderr
ciat: option --critical-path=ten: N must be a number of lines, 1..1000000
ciat: try 'ciat --help'
--- exit 1
EOF
check "--critical-path in slice mode: refused" ciat --critical-path -i 2 -o bad cp.3 <<'EOF'
--- stderr
ciat: --critical-path is for thread mode: slice mode (-i) runs processes on processors, whose clocks and waits are the processors'
ciat: try 'ciat --help'
--- exit 1
EOF
check "nothing written by the refused runs" ls bad <<'EOF'
--- exit 0
EOF
