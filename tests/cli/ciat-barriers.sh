# ciat-barriers.sh — ciat --barriers[=N] (docs/ciat-report.md, L57–L58):
# a hand-written set whose every figure is derived in its comments
# (tests/cli/barriers/bar.txt: two episodes of one barrier, one of another,
# recorded times out of the replay's order), a serial barrier, naming
# through the address map, the options line, the default report untouched,
# --workers, JSON; property tests on random sets (tests/cli/ciat/randset.awk);
# --shard/--merge and --jobs give the whole run's outputs byte for byte; bad
# options and slice mode.
D=$CLI_DIR/barriers
smait asm "$D/bar.txt" bar

lines() {
    ciat "$@" && grep -hE '^RxTxL5[78]:|^RxTxL08:' ./*.ciat_report
}
export -f lines

check "bar: L57-L58 as derived in bar.txt" lines -p --barriers bar.3 <<'EOF'
RxTxL08: idle sync_cycles 9 phase_end_cycles 0
RxTxL57: barrier rank 1 addr 0x00008000 kind address name 0x00008000 where - episodes 2 arrivals 6 wait_cycles 8 wait_max 3 spread_max 3 spread_mean 2.5000 spread_us_max 10 spread_us_mean 6.5000 last_thread 1 last_count 1
RxTxL57: barrier rank 2 addr 0x00008004 kind address name 0x00008004 where - episodes 1 arrivals 2 wait_cycles 1 wait_max 1 spread_max 1 spread_mean 1.0000 spread_us_max 1 spread_us_mean 1.0000 last_thread 0 last_count 1
RxTxL58: barrier_thread thread 0 arrivals 3 wait_cycles 4 wait_max 3 arrived_last 1
RxTxL58: barrier_thread thread 1 arrivals 3 wait_cycles 3 wait_max 2 arrived_last 1
RxTxL58: barrier_thread thread 2 arrivals 2 wait_cycles 2 wait_max 2 arrived_last 1
--- exit 0
EOF

check "bar: --barriers=1 lists the top barrier only, L58 whole" lines -p --barriers=1 bar.3 <<'EOF'
RxTxL08: idle sync_cycles 9 phase_end_cycles 0
RxTxL57: barrier rank 1 addr 0x00008000 kind address name 0x00008000 where - episodes 2 arrivals 6 wait_cycles 8 wait_max 3 spread_max 3 spread_mean 2.5000 spread_us_max 10 spread_us_mean 6.5000 last_thread 1 last_count 1
RxTxL58: barrier_thread thread 0 arrivals 3 wait_cycles 4 wait_max 3 arrived_last 1
RxTxL58: barrier_thread thread 1 arrivals 3 wait_cycles 3 wait_max 2 arrived_last 1
RxTxL58: barrier_thread thread 2 arrivals 2 wait_cycles 2 wait_max 2 arrived_last 1
--- exit 0
EOF
rm -f bar.3.ciat_report

# A barrier in a serial phase (thread 0 alone, L = 1) releases at once: an
# episode of one arrival, spread 0, wait 0, thread 0 last. The region's
# own barrier: T0 arrives at 2 (after its load and the spawn's phase: clock
# 1 + 1), T1 at 3: spread 1, T0 waits 1, T1 last. The phase-end clock
# synchronisation at the join (T1 ends at 4, T0 joins at 3: 1 cycle of
# phase_end_cycles) is no barrier wait.
cat >ser.txt <<'EOF'
threads 2
thread 0
load 4 0x100
barrier var=0x8100 threads=0
spawn region=1 threads=2
load 4 0x104
barrier var=0x8200 threads=0
join
thread 1
load 4 0x200
load 4 0x204
barrier var=0x8200 threads=0
load 4 0x208
join
EOF
smait asm ser.txt ser
check "ser: a serial barrier is an episode of one; the phase end is no barrier wait" lines --barriers ser.2 <<'EOF'
RxTxL08: idle sync_cycles 1 phase_end_cycles 1
RxTxL57: barrier rank 1 addr 0x00008200 kind address name 0x00008200 where - episodes 1 arrivals 2 wait_cycles 1 wait_max 1 spread_max 1 spread_mean 1.0000 spread_us_max 0 spread_us_mean 0.0000 last_thread 1 last_count 1
RxTxL57: barrier rank 2 addr 0x00008100 kind address name 0x00008100 where - episodes 1 arrivals 1 wait_cycles 0 wait_max 0 spread_max 0 spread_mean 0.0000 spread_us_max 0 spread_us_mean 0.0000 last_thread 0 last_count 1
RxTxL58: barrier_thread thread 0 arrivals 2 wait_cycles 1 wait_max 1 arrived_last 1
RxTxL58: barrier_thread thread 1 arrivals 1 wait_cycles 0 wait_max 0 arrived_last 1
--- exit 0
EOF
rm -f ser.2.ciat_report

cp "$D/bar.3.map" .
check "bar: barrier names through <prefix>.map; the header names the map" bash -c '
    ciat -p --barriers bar.3 && grep -E "^# (options|attribution):|^RxTxL57:" bar.3.ciat_report' <<'EOF'
# options: gap_limit 4096 parallel_start yes lenient no events no grain 4 page_size 4096 barriers 10
# attribution: map bar.3.map
RxTxL57: barrier rank 1 addr 0x00008000 kind object name phase_barrier where solver.c:12 episodes 2 arrivals 6 wait_cycles 8 wait_max 3 spread_max 3 spread_mean 2.5000 spread_us_max 10 spread_us_mean 6.5000 last_thread 1 last_count 1
RxTxL57: barrier rank 2 addr 0x00008004 kind address name 0x00008004 where - episodes 1 arrivals 2 wait_cycles 1 wait_max 1 spread_max 1 spread_mean 1.0000 spread_us_max 1 spread_us_mean 1.0000 last_thread 0 last_count 1
--- exit 0
EOF
rm -f bar.3.map

mkdir -p plain with
ciat -p -o plain bar.3
ciat -p --barriers=3 -o with bar.3
check "bar: the report without L57-L58 is the default one" bash -c '
    diff <(grep -v "^# command:" plain/bar.3.ciat_report) \
         <(grep -Ev "^# command:|^# attribution:|^RxTxL5[78]:" with/bar.3.ciat_report |
           sed "s/ barriers 3\$//")' <<'EOF'
--- exit 0
EOF
check_same "bar: the memory file is the default one" plain/bar.3.memory with/bar.3.memory

# ---- properties ----------------------------------------------------------
# bprops FILE: per barrier wait_max <= wait_cycles, episodes <= arrivals,
# last_count <= episodes, spread_mean <= spread_max, and the waits of an
# episode are each at most its spread, so wait_cycles <= (arrivals -
# episodes) x spread_max; per thread wait_max <= wait_cycles; with every
# barrier listed, the L57 sums of arrivals and waits equal L58's and the
# episodes the times threads arrived last; Σ waits <= RxTxL08's sync_cycles.
bprops() {
    awk '
    function field(k,   i) { for (i = 2; i <= NF; i++) if ($i == k) return $(i + 1); return "" }
    function bad(why) { print "line " FNR ": " why; status = 1 }
    /^RxTxL08:/ { sync = field("sync_cycles") }
    /^RxTxL57:/ {
        e = field("episodes"); a = field("arrivals"); w = field("wait_cycles")
        if (field("wait_max") + 0 > w + 0) bad("wait_max <= wait_cycles")
        if (e + 0 > a + 0) bad("episodes <= arrivals")
        if (field("last_count") + 0 > e + 0) bad("last_count <= episodes")
        if (field("spread_mean") + 0 > field("spread_max") + 0) bad("spread_mean <= spread_max")
        if (w + 0 > (a - e) * field("spread_max")) bad("wait_cycles <= (arrivals - episodes) x spread_max")
        ba += a; bw += w; be += e
    }
    /^RxTxL58:/ {
        if (field("wait_max") + 0 > field("wait_cycles") + 0) bad("thread wait_max <= wait_cycles")
        ta += field("arrivals"); tw += field("wait_cycles"); tl += field("arrived_last")
    }
    END {
        if (ba != ta) bad("arrivals: L57 " ba ", L58 " ta)
        if (bw != tw) bad("waits: L57 " bw ", L58 " tw)
        if (be != tl) bad("episodes " be ", arrived last " tl)
        if (tw > sync + 0) bad("barrier waits " tw " > sync_cycles " sync)
        if (!status) print "ok"
        exit status
    }' "$1"
}
export -f bprops

for spec in "4 901 4000" "16 902 1500" "2 903 8000"; do
    read -r p seed n <<<"$spec"
    rm -rf rs.* r1 r2 && mkdir r1 r2
    awk -v seed="$seed" -v threads="$p" -v n="$n" -f "$CLI_DIR/ciat/randset.awk" >rs.txt
    smait asm rs.txt rs
    check "random $p threads, seed $seed: the rules hold" bash -c "
        ciat -q --barriers=1000 --workers 1 -o r1 rs.$p && bprops r1/rs.$p.ciat_report" <<'EOF'
ok
--- exit 0
EOF
    # randset.awk: every thread reaches each barrier of a region once: one
    # episode of P arrivals per barrier
    check "random $p threads, seed $seed: one episode of all threads per barrier" bash -c "
        awk '/^RxTxL57:/ && !(\$0 ~ / episodes 1 arrivals $p /) { n++ } END { print n + 0 }' r1/rs.$p.ciat_report" <<'EOF'
0
--- exit 0
EOF
    ciat -q --barriers=1000 --workers 2 -o r2 "rs.$p"
    same_but_command "random $p threads, seed $seed: --workers 2 gives the same report" \
        "r1/rs.$p.ciat_report" "r2/rs.$p.ciat_report"
done

# ---- --shard, --merge, --jobs: part 0 writes L57-L58 as lock-line records.
cp "$D/bar.3.map" .
ciat_sharded "bar, named" bar.3 3 -p --json --barriers --locks
rm -f bar.3.map
rm -f rs.*
awk -v seed=911 -v threads=4 -v n=3000 -f "$CLI_DIR/ciat/randset.awk" >rs.txt
smait asm rs.txt rs
ciat_sharded "random 4 threads, seed 911" rs.4 3 --barriers --intervals

# ---- JSON ------------------------------------------------------------------
if python3 -c 'import jsonschema' 2>/dev/null; then
    mkdir -p js
    ciat -p --json --barriers -o js bar.3
    check "bar: --json is valid and holds the text's figures" python3 "$CLI_DIR/../tools/report-json-check.py" \
        "$CLI_DIR/../../docs/report.schema.json" js/bar.3.ciat_report js/bar.3.ciat_report.json <<'EOF'
--- exit 0
EOF
    check "bar: JSON fields of L57 and L58" python3 -c '
import json, sys
rep = json.load(open(sys.argv[1]))
for l in rep["lines"]:
    if l["tag"] in ("RxTxL57", "RxTxL58"):
        f = l["fields"]
        print(l["name"], f.get("addr"), f.get("thread"), f.get("wait_cycles"), f.get("spread_mean"))
' js/bar.3.ciat_report.json <<'EOF'
barrier 0x00008000 None 8 2.5
barrier 0x00008004 None 1 1.0
barrier_thread None 0 4 None
barrier_thread None 1 3 None
barrier_thread None 2 2 None
--- exit 0
EOF
else
    echo "(ciat-barriers: no python3-jsonschema: JSON checks skipped)"
fi

# ---- bad options and combinations: usage errors (exit 1), nothing written ----
mkdir -p bad
check "--barriers=0: a usage error" ciat -p --barriers=0 -o bad bar.3 <<'EOF'
--- stderr
ciat: option --barriers=0: N must be a number of lines, 1..1000000
ciat: try 'ciat --help'
--- exit 1
EOF
check "--barriers=-1: a usage error" ciat -p --barriers=-1 -o bad bar.3 <<'EOF'
--- stderr
ciat: option --barriers=-1: N must be a number of lines, 1..1000000
ciat: try 'ciat --help'
--- exit 1
EOF
check "--barriers in slice mode: refused" ciat --barriers -i 2 -o bad bar.3 <<'EOF'
--- stderr
ciat: --barriers is for thread mode: slice mode (-i) runs processes on processors, whose clocks and waits are the processors'
ciat: try 'ciat --help'
--- exit 1
EOF
check "nothing written by the refused runs" ls bad <<'EOF'
--- exit 0
EOF
