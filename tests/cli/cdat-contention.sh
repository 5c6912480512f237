# cdat-contention.sh — queueing in the accounting timing model ([timing]
# bank_busy and link_busy; L19's queue, L24; docs/cdat-report.md,
# "Contention"): a golden run with every wait derived by hand, the hot spot
# (N processors missing on one bank at once: the waits the documentation
# predicts, and none when the lines are spread over N banks), properties on
# random sets (busy 0 = no keys, byte for byte; stall - queue = the stall
# without contention; the waits of L24 = the processors' queue; the same
# bytes twice), and the refusals and bad values.
D=$CLI_DIR/cdat-check

# ---- golden: 2 nodes of 1 processor, 2 banks a node ------------------------------------------
# d-cache of 2 lines (2 sets of 1 way: set = line mod 2); rr1 placement: page
# 0x20000 is node 0's, page 0x20001 node 1's. Lines (64 bytes): 0x20000000 is
# line 0x800000 (set 0, bank 0), 0x20000040 line 0x800001 (set 1, bank 1),
# 0x20000080 line 0x800002 (set 0, bank 0), 0x20001000 line 0x800040 (set 0,
# bank 0). Resources are numbered bank (0,0)=0, (0,1)=1, (1,0)=2, (1,1)=3,
# link node 0=4, link node 1=5 (ties in L24 go by this number).
cat >g.txt <<'EOF'
threads 2
thread 0
store 4 0x20000000
load 4 0x20001000
thread 1
load 4 0x20000040
load 4 0x20000080
EOF
smait asm g.txt g
cat >g.ini <<'EOF'
[system]
nodes = 2
procs_per_node = 1
banks_per_node = 2
[dcache]
size = 128
assoc = 1
[timing]
local_memory = 100
remote_memory = 300
hop = 10
bank_busy = 200
link_busy = 150
EOF
cdat -q -p --miss-trace g.mt g.2 g.ini
# The simulation's order and clocks (the miss trace): P0 at 1 and P1 at 1,
# then P0 at 2 and P1 at 2. Every request here is [0x, 12] (2 critical
# transactions, 20 cycles). A sequence arrives at the phase's start (0:
# one phase) + clock + the stall its processor has accounted so far; here
# every server sees its arrivals in time order, so each waits for the busy
# period it falls in.
#  1. P0 store, line 0x800000, home 0 (local): arrives 1; bank (0,0) free:
#     starts 1, busy until 201. Wait 0. P0 has then 100 + 20 = 120 of stall.
#  2. P1 load, line 0x800001, home 0 (remote): arrives 1; link 1 starts 1
#     (until 151), bank (0,1) 1 (until 201), link 0 (the answer) 1 (until 151).
#     Wait 0. P1: 300 + 20 = 320.
#  3. P0 load, line 0x800040, home 1 (remote): arrives 2 + 120 = 122; link 0
#     busy until 151: waits 29, starts 151 (until 301); bank (1,0) 151 (until
#     351); link 1 free at 151: starts 151 (until 301). P0's queue 29.
#     Its fill evicts the dirty line 0x800000: a write_back, home 0 (local),
#     sent after the request's 20 network cycles and 29 of waiting: it
#     arrives at 2 + 120 + 29 + 20 = 171 at bank (0,0), busy until 201: it
#     starts 201 (until 401). Nobody waits for a return: its 30 cycles are
#     nobody's queue and not in L24's wait (it counts under returns).
#  4. P1 load, line 0x800002, home 0 (remote): arrives 2 + 320 = 322; link 1
#     free (since 301): starts 322 (until 472); bank (0,0) busy until 401 (the
#     write_back): waits 79, starts 401 (until 601); link 0 free (since 301):
#     starts 401. P1's queue 79.
# P0: stall 100 + 300 + 40 + 29 = 469, busy 2: 471. P1: 600 + 40 + 79 = 719,
# busy 2: 721 = the run's estimated time (one phase, its slowest processor).
# L24, by wait: bank (0,0) 79 (2 requests, the return; busy 3 x 200 = 600,
# 600 / 721 = 83.22%), link 0 29 (3 requests: P1's two answers, P0's
# request; 450, 62.41%), then the waitless ones by number: bank (0,1),
# bank (1,0) (200, 27.74%), link 1 (3 requests: P1's two, P0's answer; 450).
check "golden: the waits at banks and links" grep -E '^(RxT.L19|RxTxL24):' g.2.cdat_report <<'EOF'
RxT0L19: time busy 2 stall 469 local_memory 100 local_cache 0 remote_memory 300 remote_cache 0 upgrade 0 network 40 queue 29 busy_and_stall 471 idle 0
RxT1L19: time busy 2 stall 719 local_memory 0 local_cache 0 remote_memory 600 remote_cache 0 upgrade 0 network 40 queue 79 busy_and_stall 721 idle 0
RxTxL19: time busy 4 stall 1188 local_memory 100 local_cache 0 remote_memory 900 remote_cache 0 upgrade 0 network 80 queue 108 busy_and_stall 1192 idle 0 estimated_time 721
RxTxL24: contention rank 1 resource bank node 0 bank 0 requests 2 returns 1 busy 600 wait 79 max_wait 79 utilization 83.22%
RxTxL24: contention rank 2 resource link node 0 requests 3 returns 0 busy 450 wait 29 max_wait 29 utilization 62.41%
RxTxL24: contention rank 3 resource bank node 0 bank 1 requests 1 returns 0 busy 200 wait 0 max_wait 0 utilization 27.74%
RxTxL24: contention rank 4 resource bank node 1 bank 0 requests 1 returns 0 busy 200 wait 0 max_wait 0 utilization 27.74%
RxTxL24: contention rank 5 resource link node 1 requests 3 returns 0 busy 450 wait 0 max_wait 0 utilization 62.41%
--- exit 0
EOF
check "golden: the miss trace's order and clocks, as used above" grep -v '^#' g.mt <<'EOF'
1 0 d - 0x20000000 cold local_memory
1 1 d - 0x20000040 cold remote_memory
2 0 d - 0x20001000 cold remote_memory
2 1 d - 0x20000080 cold remote_memory
--- exit 0
EOF
check "golden: the header states the busy cycles, the summary includes the waits" \
    grep -E '^# (timing|summary: estimated)' g.2.cdat_report <<'EOF'
# summary: estimated_time 721 busy 4 stall 1188
# timing: accounting local_memory 100 local_cache 0 remote_memory 300 remote_cache 0 upgrade 0 hop 10 bank_busy 200 link_busy 150
--- exit 0
EOF
# The phase's lines are the run's (one phase).
check "golden: phase 1 has the same L19 lines, and L24 is the whole run's only" bash -c "
    diff <(grep -E '^R1T.L19:' g.2.cdat_report | sed 's/^R1/Rx/') <(grep -E '^RxT.L19:' g.2.cdat_report) &&
    grep -c 'L24:' g.2.cdat_report; grep -c '^R1T.L24' g.2.cdat_report" <<'EOF'
5
0
--- exit 1
EOF
# Without the busy keys: no queue, no L24; each processor's stall less its queue.
check "golden: the same run without contention" bash -c "
    cdat -q -p --name plain --set timing.bank_busy=0 --set timing.link_busy=0 g.2 g.ini &&
    grep -E '^RxT.L19:|L24' g.2.plain.cdat_report" <<'EOF'
RxT0L19: time busy 2 stall 440 local_memory 100 local_cache 0 remote_memory 300 remote_cache 0 upgrade 0 network 40 busy_and_stall 442 idle 0
RxT1L19: time busy 2 stall 640 local_memory 0 local_cache 0 remote_memory 600 remote_cache 0 upgrade 0 network 40 busy_and_stall 642 idle 0
RxTxL19: time busy 4 stall 1080 local_memory 100 local_cache 0 remote_memory 900 remote_cache 0 upgrade 0 network 80 busy_and_stall 1084 idle 0 estimated_time 642
--- exit 0
EOF

# ---- the hot spot -------------------------------------------------------------------------------
# N processors of one node each load a different line at the same pseudo
# instant (clock 1: one record each, no other reference). With one bank a
# node all N lines are bank 0's: the bank serves them in the simulation's
# order, so processor k waits k x bank_busy, the waits add up to
# bank_busy x N(N-1)/2 and the mean memory access (latency + mean wait) is
# local_memory + bank_busy x (N-1)/2. With local_memory 85 and bank_busy 20:
# 85, 95, 115, 155, 235 for N = 1, 2, 4, 8, 16; 235 / 85 = 2.76x, the ratio
# the 1977 CMU study measured on C.mmp when 16 processors fetched from one
# code page (0.85 us idle, 2.34 us). With N banks a node, line k is bank k's
# (the lines are consecutive, bank = line mod N): no wait at all.
hot_set() {     # N: hot.N, N threads, thread k loads 0x20000000 + 64k
    {
        echo "threads $1"
        for ((k = 0; k < $1; k++)); do printf 'thread %d\nload 4 0x%x\n' "$k" $((0x20000000 + 64 * k)); done
    } >hot.txt
    smait asm hot.txt hot
}
# fields of RxTxL19: $8 local_memory, $20 queue; of a bank's L24: $18 wait, $20 max_wait
hot_row() {     # N BANKS: "N banks B wait W max_wait M mean F ratio R"
    cdat -q -p --name "b$2" --set system.nodes=1 --set system.procs_per_node="$1" --set system.banks_per_node="$2" \
        --set timing.local_memory=85 --set timing.bank_busy=20 "hot.$1" &&
    awk -v n="$1" -v b="$2" '$1 == "RxTxL19:" { lm = $8; q = $20 }
        $1 == "RxTxL24:" { if ($20 > m) m = $20 }
        END { printf "N %d banks %d wait %d max_wait %d mean %.2f ratio %.2f\n", n, b, q, m, (lm + q) / n, (lm + q) / n / 85 }' \
        "hot.$1.b$2.cdat_report"
}
for n in 1 2 4 8 16; do
    hot_set "$n"
    hot_row "$n" 1 >>hot.out
    hot_row "$n" "$n" >>spread.out
done
check "hot spot: one bank, N at once: wait = 20 x N(N-1)/2, mean = 85 + 20 x (N-1)/2" cat hot.out <<'EOF'
N 1 banks 1 wait 0 max_wait 0 mean 85.00 ratio 1.00
N 2 banks 1 wait 20 max_wait 20 mean 95.00 ratio 1.12
N 4 banks 1 wait 120 max_wait 60 mean 115.00 ratio 1.35
N 8 banks 1 wait 560 max_wait 140 mean 155.00 ratio 1.82
N 16 banks 1 wait 2400 max_wait 300 mean 235.00 ratio 2.76
--- exit 0
EOF
check "hot spot: the control, N lines over N banks: no wait" cat spread.out <<'EOF'
N 1 banks 1 wait 0 max_wait 0 mean 85.00 ratio 1.00
N 2 banks 2 wait 0 max_wait 0 mean 85.00 ratio 1.00
N 4 banks 4 wait 0 max_wait 0 mean 85.00 ratio 1.00
N 8 banks 8 wait 0 max_wait 0 mean 85.00 ratio 1.00
N 16 banks 16 wait 0 max_wait 0 mean 85.00 ratio 1.00
--- exit 0
EOF
# Processor k (simulated k-th) waits k x 20: the queue of each L19 line.
check "hot spot: 4 processors wait 0, 20, 40, 60, in the simulation's order" bash -c "
    awk '\$1 ~ /^RxT[0-9]+L19:/ { print \$1, \$20 }' hot.16.b1.cdat_report | head -n 4" <<'EOF'
RxT0L19: 0
RxT1L19: 20
RxT2L19: 40
RxT3L19: 60
--- exit 0
EOF
# utilization: 320 against the estimated time, the last processor's
# 1 instruction + 85 + its wait 300 = 386: 82.90%
check "hot spot: L24 names the bank, its 16 requests and busy 320 (16 x 20)" \
    grep '^RxTxL24:' hot.16.b1.cdat_report <<'EOF'
RxTxL24: contention rank 1 resource bank node 0 bank 0 requests 16 returns 0 busy 320 wait 2400 max_wait 300 utilization 82.90%
--- exit 0
EOF

# ---- properties on random sets ------------------------------------------------------------------
cat >base.ini <<'EOF'
[timing]
local_memory = 100
local_cache = 60
remote_memory = 300
remote_cache = 250
upgrade = 40
hop = 20
[interconnect_cache]
size = 1K
assoc = 2
[dcache]
size = 2K
assoc = 2
EOF
# (seed 54 with an L2: its upgrades, req_inv from the L2, and its victims'
# write_back and flush returns queue too)
for spec in "51 4 2000 2 2 1" "52 8 3000 2 4 1" "54 4 2000 2 2 2 l2" "53 16 1500 4 4 2"; do
    read -r seed threads len nodes ppn banks l2 <<<"$spec"
    awk -v seed="$seed" -v threads="$threads" -v n="$len" -f "$D/randset.awk" >r.txt
    smait asm r.txt "r$seed"
    printf '[system]\nnodes = %s\nprocs_per_node = %s\nbanks_per_node = %s\n' "$nodes" "$ppn" "$banks" >m.ini
    cat base.ini >>m.ini
    [ -n "$l2" ] && printf '[l2]\nsize = 4K\nassoc = 4\n' >>m.ini
    sed 's/^hop = 20/&\nbank_busy = 0\nlink_busy = 0/' m.ini >zero.ini
    sed 's/^hop = 20/&\nbank_busy = 35\nlink_busy = 12/' m.ini >busy.ini
    set="r$seed.$threads"
    cdat -q -p --name m "$set" m.ini
    cdat -q -p --name zero "$set" zero.ini
    cdat -q -p --name busy "$set" busy.ini
    check "random set $seed: bank_busy = link_busy = 0 is the report without them, byte for byte" bash -c "
        diff <(grep -v '^# \(command\|configuration\)' $set.m.cdat_report) \
             <(grep -v '^# \(command\|configuration\)' $set.zero.cdat_report) && echo same" <<'EOF'
same
--- exit 0
EOF
    # every L19 line (by its tag): stall - queue and busy_and_stall - queue
    # = the same line's stall and busy_and_stall without contention, every
    # other figure the same (the counts do not change: accounting only)
    check "random set $seed: stall - queue = the stall without contention, line by line" \
        awk -f "$D/l19pair.awk" "$set.busy.cdat_report" "$set.m.cdat_report" <<'EOF'
lines same 1 wrong 0 queued 1
--- exit 0
EOF
    check "random set $seed: every line but L19, L24 and the timing headers is the same" bash -c "
        diff <(grep -v '^# \(command\|configuration\|timing\|summary: estimated\)\|^R[0-9x]*T[0-9x-]*L\(19\|24\):' $set.busy.cdat_report) \
             <(grep -v '^# \(command\|configuration\|timing\|summary: estimated\)\|^R[0-9x]*T[0-9x-]*L19:' $set.m.cdat_report) && echo same" <<'EOF'
same
--- exit 0
EOF
    # Σ processors' queue = Tx's; the run's = the waits of L24 (every
    # resource is listed: at most 4 x 2 banks + 4 links > 8 only for seed 53,
    # whose unlisted ones then wait less than the 8th: checked as <=)
    check "random set $seed: queue: the processors' add up to Tx's, and L24's waits to at most the run's" bash -c "
        awk 'function f(k,  i) { for (i = 3; i < NF; i++) if (\$i == k) return \$(i + 1) }
             \$1 ~ /^RxT[0-9]+L19:/ { s += f(\"queue\") } \$1 == \"RxTxL19:\" { tx = f(\"queue\") }
             \$1 == \"RxTxL24:\" { n++; w += f(\"wait\") }
             END { print (s == tx), (tx > 0), (w <= tx), (n < 8 ? w == tx : 1) }' $set.busy.cdat_report" <<'EOF'
1 1 1 1
--- exit 0
EOF
    check "random set $seed: the same bytes twice" bash -c "
        cdat -q -p --name again $set busy.ini && cmp <(grep -v '^# command' $set.busy.cdat_report) \
            <(grep -v '^# command' $set.again.cdat_report) && echo same" <<'EOF'
same
--- exit 0
EOF
done
# Several machines in one pass: each as its own run.
check "one pass, a machine with contention and one without: each is its separate run" bash -c "
    mkdir -p two && cdat -q -p -o two r53.16 m.ini busy.ini &&
    diff <(grep -v '^# command' two/r53.16.busy.cdat_report) <(grep -v '^# command' r53.16.busy.cdat_report) &&
    diff <(grep -v '^# command' two/r53.16.m.cdat_report) <(grep -v '^# command' r53.16.m.cdat_report) && echo same" <<'EOF'
same
--- exit 0
EOF

# ---- the JSON form ------------------------------------------------------------------------------
check "JSON: L24's figures by name" bash -c "
    cdat -q -p --json --name j g.2 g.ini &&
    python3 -c 'import json; d = json.load(open(\"g.2.j.cdat_report.json\"));
l = [x[\"fields\"] for x in d[\"lines\"] if x[\"tag\"] == \"RxTxL24\"][0]; print(sorted(l.items()))'" <<'EOF'
[('bank', 0), ('busy', 600), ('max_wait', 79), ('node', 0), ('rank', 1), ('requests', 2), ('resource', 'bank'), ('returns', 1), ('utilization_pct', 83.22), ('wait', 79)]
--- exit 0
EOF

# ---- refused, and bad values --------------------------------------------------------------------
cp g.2.cdat_report g.2.saved
check "--jobs 2 with contention" cdat -q -p --jobs 2 g.2 g.ini <<'EOF'
--- stderr
cdat: --jobs 2 with contention (g.ini has [timing] bank_busy or link_busy): requests to lines of different parts queue at the same banks and links, which no part sees all of; run without --jobs, or with bank_busy = link_busy = 0
cdat: try 'cdat --help'
--- exit 1
EOF
check "--shard with contention" cdat -q -p --shard 0/2 g.2 g.ini <<'EOF'
--- stderr
cdat: --shard 0/2 with contention (g.ini has [timing] bank_busy or link_busy): requests to lines of different parts queue at the same banks and links, which no part sees all of; run without --shard, or with bank_busy = link_busy = 0
cdat: try 'cdat --help'
--- exit 1
EOF
check_true "… and no report, no partial result written" bash -c '! ls g.2.cdat_partial* 2>/dev/null'
check "--jobs 2 with the busy keys 0: split as before" bash -c "
    cdat -q -p --jobs 2 --name j2 --set timing.bank_busy=0 --set timing.link_busy=0 g.2 g.ini && grep -c L19 g.2.j2.cdat_report" <<'EOF'
6
--- exit 0
EOF
check "-handle_io with contention" cdat -q -p -handle_io g.2 g.ini <<'EOF'
--- stderr
cdat: -handle_io with contention ([timing] bank_busy or link_busy): the I/O processors' requests have no accounted time to queue at; run without -handle_io or with bank_busy = link_busy = 0
cdat: try 'cdat --help'
--- exit 1
EOF
printf '[system]\nnodes = 2\n[timing]\nbank_busy = -5\n' >bad.ini
check "bank_busy negative, in a file" cdat -q g.2 bad.ini <<'EOF'
--- stderr
cdat: bad.ini:4: bank_busy: '-5' is not a whole number
--- exit 2
EOF
printf '[system]\nnodes = 2\n[timing]\nlink_busy = 2x\n' >bad.ini
check "link_busy not a number, in a file" cdat -q g.2 bad.ini <<'EOF'
--- stderr
cdat: bad.ini:4: link_busy: '2x' is not a whole number
--- exit 2
EOF
check "bank_busy too large" cdat -q --set timing.bank_busy=1000001 g.2 g.ini <<'EOF'
--- stderr
cdat: --set timing.bank_busy=1000001: bank_busy: 1000001 is out of range (0..1000000)
cdat: try 'cdat --help'
--- exit 1
EOF
check "… and the earlier report untouched by the refused and failed runs" cmp g.2.cdat_report g.2.saved <<'EOF'
--- exit 0
EOF
