# cdat-feedback.sh — [timing] mode = feedback (docs/cdat-report.md,
# "Feedback"): each reference's stall moves its thread's pseudo clock, so the
# interleaving follows the simulated machine. A golden run derived by hand
# where the feedback order changes a miss's source; the identity busy +
# stall + idle = the run's estimated time for every processor on random sets;
# every key 0 = the accounting report; the protocol checker on feedback
# traces; the closed-loop hot spot (N processors missing on one bank, round
# after round) against its prediction; --miss-classes and --speedup with it;
# the same bytes twice and with one worker; the refusals and bad values.
D=$CLI_DIR/cdat-check

# ---- golden: one node of 2 processors ------------------------------------------------------------
# 64-byte lines. Thread 0 loads 8 bytes at 0x2000103c (lines 0x20001000 and
# 0x20001040: two misses) and then stores to 0x20002000; thread 1 loads
# 0x20003000 and then 0x20002000.
cat >fb.txt <<'EOF'
threads 2
thread 0
load 8 0x2000103c
store 4 0x20002000
thread 1
load 4 0x20003000
load 4 0x20002000
EOF
smait asm fb.txt fb
cat >fb.ini <<'EOF'
[system]
nodes = 1
procs_per_node = 2
[output]
detailed = 1
[timing]
local_memory = 100
local_cache = 60
mode = feedback
EOF
sed 's/^mode = feedback/mode = accounting/' fb.ini >acc.ini
cdat -q -p fb.2 fb.ini
cdat -q -p --name acc fb.2 acc.ini
# Accounting (the pseudo clock's order): clock 1 thread 0's two misses and
# thread 1's miss (all from memory); clock 2 thread 0's store (a miss from
# memory: the line is nobody's), then thread 1's load of that line, dirty in
# thread 0's cache: local_cache. Thread 1: 100 + 60 = 160 of stall, busy 2.
check "golden, accounting: thread 1's second miss comes from thread 0's cache" \
    grep -E '^RxT(1|x)L(02|19):' fb.2.acc.cdat_report <<'EOF'
RxT1L02: data_miss_src local 2 100.00% remote 0 0.00% local_memory 1 50.00% local_cache 1 50.00% remote_memory 0 0.00% remote_cache 0 0.00%
RxT1L19: time busy 2 stall 160 local_memory 100 local_cache 60 remote_memory 0 remote_cache 0 upgrade 0 network 0 busy_and_stall 162 idle 0
RxTxL02: data_miss_src local 5 100.00% remote 0 0.00% local_memory 4 80.00% local_cache 1 20.00% remote_memory 0 0.00% remote_cache 0 0.00%
RxTxL19: time busy 4 stall 460 local_memory 400 local_cache 60 remote_memory 0 remote_cache 0 upgrade 0 network 0 busy_and_stall 464 idle 0 estimated_time 302
--- exit 0
EOF
# Feedback: thread 0's two misses take its clock from 1 to 201, thread 1's
# one from 1 to 101. Thread 1 is behind, so it runs first: its load of
# 0x20002000 at clock 102 misses to memory (the line is nobody's yet; 100:
# clock 202). Thread 0, at 201, is now behind: its store, one instruction,
# runs at clock 202 and finds the line shared by thread 1: a miss from
# memory that invalidates that copy (100: clock 302). Thread 1 ended at 202 and waits for the run's end at 302: idle
# 100. Thread 0: busy 2 + stall 300 = 302; thread 1: 2 + 200 + 100 = 302,
# the estimated time (the span of the clocks).
check "golden, feedback: thread 1 goes first, and its miss comes from memory" \
    grep -E '^RxT(0|1|x)L(02|14|19):' fb.2.cdat_report <<'EOF'
RxT0L02: data_miss_src local 3 100.00% remote 0 0.00% local_memory 3 100.00% local_cache 0 0.00% remote_memory 0 0.00% remote_cache 0 0.00%
RxT0L14: cpu active 2 idle 0 utilization 100.00%
RxT0L19: time busy 2 stall 300 local_memory 300 local_cache 0 remote_memory 0 remote_cache 0 upgrade 0 network 0 busy_and_stall 302 idle 0
RxT1L02: data_miss_src local 2 100.00% remote 0 0.00% local_memory 2 100.00% local_cache 0 0.00% remote_memory 0 0.00% remote_cache 0 0.00%
RxT1L14: cpu active 2 idle 100 utilization 1.96%
RxT1L19: time busy 2 stall 200 local_memory 200 local_cache 0 remote_memory 0 remote_cache 0 upgrade 0 network 0 busy_and_stall 202 idle 100
RxTxL02: data_miss_src local 5 100.00% remote 0 0.00% local_memory 5 100.00% local_cache 0 0.00% remote_memory 0 0.00% remote_cache 0 0.00%
RxTxL14: cpu active 4 idle 100 utilization 3.85%
RxTxL19: time busy 4 stall 500 local_memory 500 local_cache 0 remote_memory 0 remote_cache 0 upgrade 0 network 0 busy_and_stall 504 idle 100 estimated_time 302
--- exit 0
EOF
check "golden, feedback: the header says the mode" grep -E '^# (timing|summary: estimated)' fb.2.cdat_report <<'EOF'
# summary: estimated_time 302 busy 4 stall 500
# timing: feedback local_memory 100 local_cache 60 remote_memory 0 remote_cache 0 upgrade 0 hop 0
--- exit 0
EOF
# The detailed trace's clocks are the simulated machine's: the three
# first misses at 1 (02 read, 12 data), thread 1's load at 102, thread 0's
# store at 202 (03 read_priv_own, 33 its invalidation of processor 1, 54
# the ack, 12 the data).
check "golden, feedback: the detailed trace in the simulated machine's order" cut -d' ' -f1,3,4 fb.2.detailed <<'EOF'
1 02 0
1 12 0
1 02 0
1 12 0
1 02 1
1 12 0
102 02 1
102 12 0
202 03 0
202 33 0
202 54 1
202 12 0
--- exit 0
EOF
check_true "golden, feedback: the protocol checker holds on it" "$CDAT_CHECK" --report fb.2.cdat_report fb.2.detailed

# ---- random sets ------------------------------------------------------------------------------------
# identity.awk: every processor's busy_and_stall + idle over the run (of
# RxT<p>L19) equals the run's estimated time (of RxTxL19): with -p every
# thread runs from clock 0 to the run's last clock, and its clock is its
# instructions, its stalls and its waits.
cat >identity.awk <<'AWK'
function f(name,    i) { for (i = 3; i < NF; i += 2) if ($i == name) return $(i + 1); return -1 }
$1 ~ /^RxT[0-9]+L19:$/ { n++; v[n] = f("busy_and_stall") + f("idle") }
$1 == "RxTxL19:" { est = f("estimated_time") }
END { for (i = 1; i <= n; i++) bad += v[i] != est; print (n > 0 ? "processors yes" : "processors none"), "wrong", bad + 0 }
AWK
for spec in "41 4 2000 2 2" "42 8 3000 2 4" "43 16 1500 4 4"; do
    read -r seed threads len nodes ppn <<<"$spec"
    awk -v seed="$seed" -v threads="$threads" -v n="$len" -f "$D/randset.awk" >r.txt
    smait asm r.txt "r$seed"
    sed -e "s/^nodes = 2/nodes = $nodes/" -e "s/^procs_per_node = 2/procs_per_node = $ppn/" \
        "$CLI_DIR/cdat/timing-2x2.ini" >acc.ini
    printf '[interconnect_cache]\nsize = 1K\nassoc = 2\n[dcache]\nsize = 2K\nassoc = 2\n' >>acc.ini
    { cat acc.ini; printf 'mode = feedback\n'; } >fb.ini     # still in [dcache]: a section of its own
    sed -i 's/^mode = feedback/[timing]\nmode = feedback/' fb.ini
    check "random set $seed ($threads threads, ${nodes}x$ppn): busy + stall + idle = the estimated time" \
        bash -c "cdat -q -p r$seed.$threads fb.ini && awk -f identity.awk r$seed.$threads.cdat_report" <<'EOF'
processors yes wrong 0
--- exit 0
EOF
    # Feedback is not accounting: the same references (L01/L03 refs), another order and time.
    cdat -q -p --name acc "r$seed.$threads" acc.ini
    check "random set $seed: the same references as accounting, a different time" bash -c "
        diff <(grep -E '^RxTxL0[13]:' r$seed.$threads.cdat_report | cut -d' ' -f1-3) \
             <(grep -E '^RxTxL0[13]:' r$seed.$threads.acc.cdat_report | cut -d' ' -f1-3) &&
        ! cmp -s <(grep '^# summary: estimated' r$seed.$threads.cdat_report) \
                  <(grep '^# summary: estimated' r$seed.$threads.acc.cdat_report) && echo yes" <<'EOF'
yes
--- exit 0
EOF
done
# The last set (16 threads, 4x4): the same bytes again, and with one worker
# (the feedback run never puts the simulation beside the scheduler).
check_true "random set 43: the same bytes twice, and with --workers 1" bash -c "
    cdat -q -p --name again r43.16 fb.ini && cdat -q -p --workers 1 --name one r43.16 fb.ini &&
    cmp <(grep -v '^# command' r43.16.cdat_report) <(grep -v '^# command' r43.16.again.cdat_report) &&
    cmp <(grep -v '^# command' r43.16.cdat_report) <(grep -v '^# command' r43.16.one.cdat_report)"
# With contention on the same set (thread 0's markers start phases that move
# no clock: the queues keep their history there): the identity still holds,
# and the processors' queue adds up to the waits of L24 (with one bank a
# node, the 4 nodes have 8 resources, the 4 banks and 4 links, and L24 ranks
# up to 8: all of them).
check "random set 43 with contention: the identity, and the queues = L24's waits" bash -c "
    cdat -q -p --name ct --set system.banks_per_node=1 --set timing.bank_busy=35 --set timing.link_busy=10 r43.16 fb.ini &&
    awk -f identity.awk r43.16.ct.cdat_report &&
    awk '\$1 == \"RxTxL19:\" { for (i = 2; i < NF; i++) if (\$i == \"queue\") q = \$(i + 1) }
         \$1 == \"RxTxL24:\" { for (i = 2; i < NF; i++) if (\$i == \"wait\") w += \$(i + 1); n++ }
         END { print \"ranks\", n, (q == w && q > 0) ? \"queue = waits\" : \"queue \" q \" waits \" w }' r43.16.ct.cdat_report" <<'EOF'
processors yes wrong 0
ranks 8 queue = waits
--- exit 0
EOF
# --miss-classes takes its own hooks (every reference through the
# classification): the same simulation, so the same counts and time.
check_true "random set 43: --miss-classes gives the same counts and time" bash -c "
    cdat -q -p --miss-classes --name mc r43.16 fb.ini &&
    diff <(grep -v '^# command\|^# options\|L1[78]:' r43.16.cdat_report) \
         <(grep -v '^# command\|^# options\|L1[78]:' r43.16.mc.cdat_report)"

# With every key 0 nothing stalls: the accounting run's interleaving and
# counts, every line the same but the estimated times (L19's last field and
# the summary's): feedback's are the spans of the phases' clocks (L00's end
# less its start), which hold the waits that accounting's leave out (with
# thread 0's markers the phases do not end together, so a phase's span can
# even be 0 while others work on below the largest clock).
awk -v seed=44 -v threads=8 -v n=1500 -f "$D/randset.awk" >r.txt
smait asm r.txt r44
printf '[system]\nnodes = 2\nprocs_per_node = 4\n[dcache]\nsize = 1K\nassoc = 2\n[timing]\nmode = feedback\n' >z.ini
check_true "every key 0: the accounting report but for the estimated times and the header's word" bash -c "
    cdat -q -p r44.8 z.ini && cdat -q -p --name acc --set timing.mode=accounting r44.8 z.ini &&
    diff <(grep -v '^# command\|^# configuration\|^# summary: estimated' r44.8.cdat_report |
               sed -e 's/^# timing: feedback/# timing: accounting/' -e 's/ estimated_time [0-9]*$//') \
         <(grep -v '^# command\|^# configuration\|^# summary: estimated\|^# set: ' r44.8.acc.cdat_report |
               sed 's/ estimated_time [0-9]*$//')"
check "every key 0: each phase's estimated time is its span (L00), and the run's too" awk '
    $2 == "phase" { for (i = 3; i < NF; i++) { if ($i == "start") s = $(i + 1); if ($i == "end") e = $(i + 1) }
                    span[substr($1, 1, index($1, "L") - 1)] = e - s }
    $2 == "time" && $1 ~ /Tx/ { k = substr($1, 1, index($1, "L") - 1); n++; bad += $NF != span[k] }
    END { print "phases", n, "wrong", bad + 0 }' r44.8.cdat_report <<'EOF'
phases 74 wrong 0
--- exit 0
EOF

# The protocol checker on feedback traces, under every protocol: the
# reordered interleaving still follows the protocol, and the report counts
# what the trace shows.
for protocol in 1 2 3 4 5 6 7 8; do
    {
        printf '[system]\nnodes = 2\nprocs_per_node = 4\nprotocol = %s\n[output]\ndetailed = 1\n' "$protocol"
        printf '[dcache]\nsize = 1K\nassoc = 2\n[icache]\nsize = 512\nassoc = 2\n'
        printf '[interconnect_cache]\nsize = 1K\nassoc = 2\n'
        printf '[timing]\nmode = feedback\nlocal_memory = 100\nlocal_cache = 60\nremote_memory = 300\n'
        printf 'remote_cache = 250\nupgrade = 40\nhop = 20\n'
    } >p.ini
    check_true "protocol $protocol: cdat_check holds on a feedback run" bash -c \
        "cdat -q -p --name p$protocol r44.8 p.ini && '$CDAT_CHECK' --report r44.8.p$protocol.cdat_report r44.8.p$protocol.detailed"
done

# ---- the hot spot, closed loop ---------------------------------------------------------------------
# N processors of one node, one bank, local_memory 85, bank_busy 20: each
# loads R = 4 new lines, one after another (every one a miss). A load that
# starts service at time s stalls until s + 85, so its processor's next load
# arrives at s + 86. First round: all N at clock 1, served at 1, 21, …,
# 1 + 20(N-1): waits 20 x N(N-1)/2. While N x 20 < 86 (N = 2, 4) the bank is
# free again before anyone comes back: no more waits, and the run ends with
# the last processor's last load: 1 + 20(N-1) + 86(R-1) + 85 (364, 404).
# From N = 5 on, the bank never idles: the k-th load is served at 1 + 20k,
# the run ends at 1 + 20(RN-1) + 85 (706 for N = 8, 1346 for 16) and every
# later load waits 20N - 86 (its processor's previous one was served 20N
# before it): waits 20 x N(N-1)/2 + (R-1) N (20N - 86) = 2336 and 13632.
# The bank's throughput, one load per 20 cycles, is then the run's bound.
loop_set() {    # N: loop.N, N threads, thread k loads 0x20000000 + 64 (N r + k), r = 0..3
    {
        echo "threads $1"
        for ((k = 0; k < $1; k++)); do
            echo "thread $k"
            for ((r = 0; r < 4; r++)); do printf 'load 4 0x%x\n' $((0x20000000 + 64 * ($1 * r + k))); done
        done
    } >loop.txt
    smait asm loop.txt loop
}
for n in 2 4 8 16; do
    loop_set "$n"
    cdat -q -p --set system.nodes=1 --set system.procs_per_node="$n" --set system.banks_per_node=1 \
        --set timing.local_memory=85 --set timing.bank_busy=20 --set timing.mode=feedback "loop.$n"
    awk -v n="$n" '$1 == "RxTxL19:" { printf "N %d wait %d estimated_time %d\n", n, $20, $26 }' \
        "loop.$n.cdat_report" >>loop.out
done
check "hot spot, closed loop: the waits and times predicted" cat loop.out <<'EOF'
N 2 wait 20 estimated_time 364
N 4 wait 120 estimated_time 404
N 8 wait 2336 estimated_time 706
N 16 wait 13632 estimated_time 1346
--- exit 0
EOF
check_true "hot spot: the identity holds with the queues (N = 16)" bash -c "awk -f identity.awk loop.16.cdat_report | grep -qx 'processors yes wrong 0'"

# ---- --speedup ---------------------------------------------------------------------------------------
# One thread whose pages are all local: the machine and its one-processor
# twin (accounting, in turns, in a pass of its own) miss alike: 1.0000.
printf 'threads 1\nthread 0\nload 4 0x20000000\nstore 4 0x20000040\nload 4 0x20000000\nload 4 0x20001000\n' >one.txt
smait asm one.txt one
check "--speedup: one thread, all local: 1.0000" bash -c "
    cdat -q -p --speedup --set system.nodes=1 --set system.procs_per_node=2 --set timing.local_memory=100 \
        --set timing.mode=feedback one.1 && grep '^# summary: speedup' one.1.cdat_report" <<'EOF'
# summary: speedup 1.0000 one_processor_time 304 estimated_time 304 one_processor_turn 1000000
--- exit 0
EOF
check_true "--speedup: with 8 threads it runs, and leaves the report as it was" bash -c "
    cdat -q -p --speedup --name sp r44.8 p.ini && cdat -q -p --name nsp r44.8 p.ini &&
    diff <(grep -v '^# command\|^# options\|^# summary: speedup' r44.8.sp.cdat_report) \
         <(grep -v '^# command\|^# options' r44.8.nsp.cdat_report)"

# Spawns, a barrier, a critical section and joins (the producer-consumer
# example, no -p), with contention and --speedup: thread 0 takes part in
# every phase, so its processor's busy + stall + idle is the run's time
# (the others are not counted while they wait to be spawned); every phase's
# estimated time is its L00 span.
smait asm "$CLI_DIR/../../examples/producer-consumer.txt" pc
{ cat "$CLI_DIR/cdat/timing-2x2.ini"; printf 'mode = feedback\nbank_busy = 30\n'; } >pc.ini
check "producer-consumer with contention and --speedup: thread 0's identity, the phases' spans" bash -c "
    cdat -q --speedup pc.4 pc.ini && awk '
        function f(name,    i) { for (i = 2; i < NF; i++) if (\$i == name) return \$(i + 1); return -1 }
        \$2 == \"phase\" { span[substr(\$1, 1, index(\$1, \"L\") - 1)] = f(\"end\") - f(\"start\") }
        \$1 == \"RxT0L19:\" { t0 = f(\"busy_and_stall\") + f(\"idle\") }
        \$2 == \"time\" && \$1 ~ /Tx/ { k = substr(\$1, 1, index(\$1, \"L\") - 1); n++; bad += f(\"estimated_time\") != span[k]; est = f(\"estimated_time\") }
        END { print \"phases\", n, \"wrong\", bad + 0, (t0 == est ? \"thread 0 = run\" : \"thread 0 \" t0 \" run \" est) }' pc.4.cdat_report &&
    grep -c '^# summary: speedup ' pc.4.cdat_report" <<'EOF'
phases 4 wrong 0 thread 0 = run
1
--- exit 0
EOF

# ---- refusals and bad values -----------------------------------------------------------------------
check "refused: --jobs" cdat -q -p --jobs 2 fb.2 fb.ini <<'EOF'
--- stderr
cdat: [timing] mode = feedback with --jobs: every reference's stall moves its processor's clock, so the order of all the references depends on every line's, which a part that simulates some of the lines cannot know; run it whole, or with mode = accounting
cdat: try 'cdat --help'
--- exit 1
EOF
check "refused: --shard" cdat -q -p --shard 0/2 fb.2 fb.ini <<'EOF'
--- stderr
cdat: [timing] mode = feedback with --shard: every reference's stall moves its processor's clock, so the order of all the references depends on every line's, which a part that simulates some of the lines cannot know; run it whole, or with mode = accounting
cdat: try 'cdat --help'
--- exit 1
EOF
check "refused: -handle_io" cdat -q -p -handle_io fb.2 fb.ini <<'EOF'
--- stderr
cdat: [timing] mode = feedback with -handle_io: the kernel's copies are made within a file call, where a stall cannot move the clock; run -handle_io with mode = accounting
cdat: try 'cdat --help'
--- exit 1
EOF
check "refused: --din" cdat -q -p --din x.din --set system.procs_per_node=1 --set mapping.thread.1=0.0 fb.2 fb.ini <<'EOF'
--- stderr
cdat: [timing] mode = feedback with --din: Dinero IV has no time, and its references are compared in the pseudo clock's order; run --din with mode = accounting
cdat: try 'cdat --help'
--- exit 1
EOF
check "refused: --by-code" cdat -q -p --by-code fb.2 fb.ini <<'EOF'
--- stderr
cdat: [timing] mode = feedback with --by-code, --by-data or --annotate: the pc of an access is found by its pseudo clock, which the stalls move; run it with mode = accounting
cdat: try 'cdat --help'
--- exit 1
EOF
check "refused: --miss-trace" cdat -q -p --miss-trace mt fb.2 fb.ini <<'EOF'
--- stderr
cdat: [timing] mode = feedback with --miss-trace: the pc of an access is found by its pseudo clock, which the stalls move; run it with mode = accounting
cdat: try 'cdat --help'
--- exit 1
EOF
check "refused: --sweep" cdat -q -p --sweep timing.hop=1,2 fb.2 fb.ini <<'EOF'
--- stderr
cdat: [timing] mode = feedback with several configurations (--sweep): each machine's stalls make its own interleaving, and one run reads the traces in one; run each configuration on its own
cdat: try 'cdat --help'
--- exit 1
EOF
sed 's/^mode = feedback/mode = accounting/' fb.ini >acc.ini
check "refused: two configurations, one of them feedback" cdat -q -p fb.2 acc.ini fb.ini <<'EOF'
--- stderr
cdat: [timing] mode = feedback with several configurations (several files): each machine's stalls make its own interleaving, and one run reads the traces in one; run each configuration on its own
cdat: try 'cdat --help'
--- exit 1
EOF
check_true "refused runs leave no report behind" bash -c "! ls fb.2.*.din x.din mt 2>/dev/null | grep -q ."
printf '[timing]\nlocal_memory = 10\nmode = fast\n' >bad.ini
check "bad value: mode = fast (file and line)" cdat -q -p fb.2 bad.ini <<'EOF'
--- stderr
cdat: bad.ini:3: [timing] mode: 'fast' must be accounting or feedback
--- exit 2
EOF
check "bad value: --set timing.mode=on" cdat -q -p --set timing.mode=on fb.2 fb.ini <<'EOF'
--- stderr
cdat: --set timing.mode=on: [timing] mode: 'on' must be accounting or feedback
cdat: try 'cdat --help'
--- exit 1
EOF
check "mode alone is a [timing] section: L19 with every cycle 0" bash -c "
    printf '[system]\nprocs_per_node = 2\n[timing]\nmode = feedback\n' >m0.ini && cdat -q -p --name m0 fb.2 m0.ini && grep '^RxTxL19:' fb.2.m0.cdat_report" <<'EOF'
RxTxL19: time busy 4 stall 0 local_memory 0 local_cache 0 remote_memory 0 remote_cache 0 upgrade 0 network 0 busy_and_stall 4 idle 0 estimated_time 2
--- exit 0
EOF
