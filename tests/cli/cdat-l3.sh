# cdat-l3.sh — each node's memory-side L3 ([l3], docs/cdat-protocol.md §10,
# line L23): a golden run derived by hand, the comparison with an
# independent model (tests/tools/two_level.c with its third level: the L3 at
# one processor is the level below the processor's last), the protocol
# checker on random multi-node sets with the traces byte for byte those
# without an L3, the L3's accesses against the transactions that read and
# write memory, --jobs and --shard, [timing]'s local_l3 and remote_l3, the
# machine without an L3, and the bad configurations.
D=$CLI_DIR/cdat-check

# ---- golden: one thread on node 0 of 2 -------------------------------------------------------------
# 2 nodes of 1 processor, protocol 1 (loads get lines exclusive, RL = A;
# exclusive victims announced: update_tag 23). rr1 placement: page
# 0x20000000 is node 0's, 0x20001000 node 1's. d-cache 128 bytes
# direct-mapped: set 0 the even lines, set 1 the odd; no instruction stream.
# Each node's L3: 128 bytes of 2 ways, one set, LRU (below most recent
# first, * dirty). Node 0's lines A 0x20000000, B 0x40, C 0x80, D 0xc0,
# E 0x100, F 0x140, G 0x180, H 0x1c0, I 0x200, J 0x240 (A C E I even);
# node 1's X 0x20001000 (even), Y 0x20001040 (odd). Every miss is a request
# answered by data_priv (12) from the home's memory, which reads it through
# the home's L3; every dirty d-cache victim is a write_back (21) into it.
#  1 ld A: L3(0) read miss [A]. d0 A.
#  2 st C: L3(0) read miss [C A]. d0 C*; victim A exclusive: 23 (no data).
#  3 ld A: L3(0) read HIT (local_l3) [A C]; d0 A; victim C* written back:
#    L3(0) write hit [C* A].
#  4 ld X: remote, L3(1) read miss [X]; d0 X; victim A: 23.
#  5 ld E: L3(0) read miss, victim A clean (no DRAM write) [E C*]; d0 E,
#    victim X: 23.
#  6 ld X: L3(1) read HIT (remote_l3) [X]; d0 X, victim E: 23.
#  7 st B: L3(0) read miss, victim C* dirty to DRAM (write_backs 1) [B E];
#    d1 B*.
#  8 st D: L3(0) read miss, victim E clean [D B]; d1 D*, victim B*: write
#    hit [B* D].
#  9 st Y: remote, L3(1) read miss [Y X]; d1 Y*, victim D*: L3(0) write hit
#    [D* B*].
# 10 ld F: L3(0) read miss, victim B* to DRAM (2) [F D*]; d1 F, victim Y*:
#    L3(1) write hit [Y* X].
# 11 ld G: L3(0) read miss, victim D* to DRAM (3) [G F]; d1 G, victim F: 23.
# 12 st H: L3(0) read miss, victim F clean [H G]; d1 H*, victim G: 23.
# 13 ld I: L3(0) read miss, victim G clean [I H]; d0 I, victim X: 23.
# 14 ld J: L3(0) read miss, victim H (clean there: its dirty copy is in the
#    d-cache) [J I]; d1 J, victim H*: L3(0) write MISS, a line taken dirty
#    without reading DRAM, victim I clean [H* J].
# Node 0: reads 1 2 3 5 7 8 10-14 = 11 (hit: 3); writes 3 8 9 14 = 4 (miss:
# 14); write_backs 7 10 11 = 3. Node 1: reads 4 6 9 = 3 (hit: 6); writes 10
# = 1 (hit). L02: local 11 = local_memory 10 + local_l3 1 (3); remote 3 =
# remote_memory 2 (4, 9) + remote_l3 1 (6). 14 requests + 14 data_priv +
# 5 write_back (3 8 9 10 14) + 7 update_tag (2 4 5 6 11 12 13) = 40.
cat >g.txt <<'EOF'
threads 1
thread 0
load 4 0x20000000
store 4 0x20000080
load 4 0x20000000
load 4 0x20001000
load 4 0x20000100
load 4 0x20001000
store 4 0x20000040
store 4 0x200000c0
store 4 0x20001040
load 4 0x20000140
load 4 0x20000180
store 4 0x200001c0
load 4 0x20000200
load 4 0x20000240
EOF
smait asm g.txt g
printf '[system]\nnodes = 2\nprocs_per_node = 1\n[dcache]\nsize = 128\nassoc = 1\n[l3]\nsize = 128\nassoc = 2\n' >g.ini
check "golden: reads and writes through each home's L3" bash -c 'cdat -p -q g.1 g.ini && grep -E "^# l3:|^RxTxL(0[12]|1[015]|23):" g.1.cdat_report' <<'EOF'
# l3: size 128 assoc 2
RxTxL01: data refs 14 hits 0 0.00% misses 14 100.00% upgrades 0 0.00%
RxTxL02: data_miss_src local 11 78.57% remote 3 21.43% local_memory 10 71.43% local_cache 0 0.00% remote_memory 2 14.29% remote_cache 0 0.00% local_l3 1 7.14% remote_l3 1 7.14%
RxTxL10: traffic transactions 40 requests 14 avg_latency 2.0000
RxTxL11: txn 02 read_shar_or_priv 9 22.50%
RxTxL11: txn 03 read_priv_own 5 12.50%
RxTxL11: txn 12 data_priv 14 35.00%
RxTxL11: txn 21 write_back 5 12.50%
RxTxL11: txn 23 update_tag 7 17.50%
RxTxL15: evictions write_back 5 update_tag 7 silent 0
RxTxL23: l3 node 0 reads 11 read_hits 1 9.09% read_misses 10 90.91% writes 4 write_hits 3 75.00% write_misses 1 25.00% write_backs 3
RxTxL23: l3 node 1 reads 3 read_hits 1 33.33% read_misses 2 66.67% writes 1 write_hits 1 100.00% write_misses 0 0.00% write_backs 0
RxTxL23: l3 node all reads 14 read_hits 2 14.29% read_misses 12 85.71% writes 5 write_hits 4 80.00% write_misses 1 20.00% write_backs 3
--- exit 0
EOF
# The same with [timing]: L19's local_l3 = 1 x 30, remote_l3 = 1 x 90,
# local_memory 10 x 100, remote_memory 2 x 300, network 14 requests x 2
# critical transactions x 5 = 140; stall 30 + 90 + 1000 + 600 + 140 = 1860,
# and 14 instructions (one a record): busy_and_stall 1874.
check "golden: [timing] prices the L3's hits" bash -c 'cdat -p -q --name t --set timing.local_memory=100 --set timing.remote_memory=300 --set timing.local_l3=30 --set timing.remote_l3=90 --set timing.hop=5 g.1 g.ini && grep -E "^# timing:|^RxTxL19:" g.1.t.cdat_report' <<'EOF'
# timing: accounting local_memory 100 local_cache 0 remote_memory 300 remote_cache 0 upgrade 0 hop 5 local_l3 30 remote_l3 90
RxTxL19: time busy 14 stall 1860 local_memory 1000 local_cache 0 remote_memory 600 remote_cache 0 upgrade 0 network 140 local_l3 30 remote_l3 90 busy_and_stall 1874 idle 0 estimated_time 1874
--- exit 0
EOF

# ---- the independent model: at one processor the L3 is the level below the last ---------------------
# One processor, random references whose code and data lines are apart
# (nocode=1: docs/cdat-protocol.md §9, §10 say why). With L1s alone, the L3
# sees the L1 misses (reads) and dirty L1 victims (writes): the model's
# second level. With a non-inclusive L2 as well, it sees the L2's misses and
# dirty victims (write_back or flush): the model's third level. L01, L03,
# L22 and L23's counts are the model's, exactly.
check_true "the model is built ($TWO_LEVEL)" test -x "$TWO_LEVEL"
as_ini() { if [ "$1" = 0 ]; then echo full; else echo "$1"; fi; }
for seed in 4 5 6; do
    awk -v seed="$seed" -v threads=1 -v n=8000 -v nocode=1 -f "$D/randset.awk" >r1.txt
    smait asm r1.txt "r$seed"
    for geo in "1024 2 512 2 0 0 4096 4" "256 1 256 2 0 0 1024 0" "1024 2 512 2 2048 2 4096 4" \
               "512 1 512 1 1024 4 8192 8" "1024 4 1024 2 2048 0 2048 1"; do
        read -r ds da is ia ls la ts ta <<<"$geo"
        {
            printf '[dcache]\nsize = %s\nassoc = %s\n[icache]\nsize = %s\nassoc = %s\n' \
                "$ds" "$(as_ini "$da")" "$is" "$(as_ini "$ia")"
            printf '[l2]\nsize = %s\nassoc = %s\n[l3]\nsize = %s\nassoc = %s\n' "$ls" "$(as_ini "$la")" "$ts" "$(as_ini "$ta")"
        } >one.ini
        cdat -p -q --din r.din "r$seed.1" one.ini
        cdat_levels "r$seed.1.cdat_report" >cdat.txt
        "$TWO_LEVEL" 64 "$is" "$ia" "$ds" "$da" "$ls" "$la" "$ts" "$ta" r.din >model.txt || echo "the model failed" >>model.txt
        check "seed $seed, d $ds/$da i $is/$ia l2 $ls/$la l3 $ts/$ta: cdat's levels are the model's" \
            diff model.txt cdat.txt <<'EOF'
--- exit 0
EOF
    done
done
check "the model's comparison is not empty (seed 6, the last geometry)" \
    awk '{ print $1, ($3 > 0), ($5 > 0), ($7 > 0), ($9 > 0), ($11 > 0) }' model.txt <<'EOF'
l1d 1 1 0 0 0
l1i 1 1 0 0 0
l2 1 1 1 1 1
l3 1 1 1 1 1
--- exit 0
EOF

# ---- the protocol checker, the traces unchanged, and the accesses against the transactions ----------
# Random sets on 2 nodes of 2 (and 4 of 1 with interconnect caches), every
# protocol: the transactions do not change with an L3 (general and detailed
# traces byte for byte those without), cdat_check holds, and the L3's
# accesses are exactly the sequences that read memory (the misses from
# local or remote memory or L3, L02 + L04 + L05) and those that write it
# (the transactions 21, 22, 24, 51, 56 and 06 of L11, each in its own
# sequence), with read hits = local_l3 + remote_l3.
check_true "the protocol checker is built ($CDAT_CHECK)" test -x "$CDAT_CHECK"
awk -v seed=37 -v threads=4 -v n=2500 -f "$D/randset.awk" >rs.txt
smait asm rs.txt rs
: >seen.txt
for shape in "2 2 0 " "4 1 512 non_inclusive"; do
    read -r nodes ppn icc incl <<<"$shape"
    for protocol in 1 2 3 4 5 6 7 8; do
        {
            printf '[system]\nnodes = %s\nprocs_per_node = %s\nprotocol = %s\n' "$nodes" "$ppn" "$protocol"
            printf '[output]\ngeneral = 1\ndetailed = 1\n'
            printf '[dcache]\nsize = 512\nassoc = 2\n[icache]\nsize = 512\nassoc = 2\n'
            printf '[interconnect_cache]\nsize = %s\nassoc = 2\n' "$icc"
            if [ -n "$incl" ]; then printf '[l2]\nsize = 1K\nassoc = 2\ninclusion = %s\n' "$incl"; fi
        } >m0.ini
        { cat m0.ini; printf '[l3]\nsize = 2K\nassoc = 4\n'; } >m.ini
        check "$nodes x $ppn, protocol $protocol${incl:+, L2 $incl}: cdat_check holds with an L3, the traces are those without" \
            bash -c "cdat -p -q --name a rs.4 m.ini && '$CDAT_CHECK' --report rs.4.a.cdat_report rs.4.a.detailed &&
                     cdat -p -q --name b rs.4 m0.ini && cmp rs.4.a.detailed rs.4.b.detailed &&
                     for g in rs.4.a.general.*; do cmp \"\$g\" \"\${g/.a./.b.}\" || exit 1; done" <<'EOF'
--- exit 0
EOF
        check "$nodes x $ppn, protocol $protocol${incl:+, L2 $incl}: the L3's reads and writes are the memory's" \
            awk '$1 == "RxTxL02:" || $1 == "RxTxL04:" { for (i = 3; i < NF; i++) v[$i] = $(i + 1)
                     reads += v["local_memory"] + v["remote_memory"] + v["local_l3"] + v["remote_l3"]
                     hits += v["local_l3"] + v["remote_l3"] }
                 $1 == "RxTxL11:" && ($3 == "21" || $3 == "22" || $3 == "24" || $3 == "51" || $3 == "56" || $3 == "06") {
                     writes += $5; seen[$3] = 1 }
                 $1 == "RxTxL23:" && $4 == "all" { for (i = 3; i < NF; i++) w[$i] = $(i + 1) }
                 END { print (w["reads"] == reads), (w["reads"] - w["read_misses"] == hits), (w["writes"] == writes), (reads > 0)
                       for (c in seen) print c >>"seen.txt" }' rs.4.a.cdat_report <<'EOF'
1 1 1 1
--- exit 0
EOF
    done
done
check "the random runs write memory in every way the protocol does (but 06, I/O)" bash -c 'sort -u seen.txt' <<'EOF'
21
22
24
51
56
--- exit 0
EOF

# ---- the copies to the home: update_data (22), recall_c2c_data (51), recall_data (56) -----------
# cdat-io.sh's 2x2.ini (protocol 1: DT, RL A; 2-line fully associative
# caches; lines of page 0x2000 are node 0's) with a 2-line fully
# associative L3 per node. P0, P1 on node 0, P2, P3 on node 1.
# Step 1: T0 store A 0x2000 [03, 12]: L3(0) read miss [A]; store B 0x2040
# [03, 12]: read miss [B A]. Step 2: T1 load B: P0 holds it dirty in the
# node: the local snoop [02, 22 P0] (local_cache), and update_data writes
# B home: write hit [B* A]. T2 load A: dirty at P0 on another node: recall
# [02, 32, 42, 51] (remote_cache; P2 exclusive), recall_c2c_data writes A
# home: write hit [A* B*]. Step 3: T3 load A: exclusive at P2, clean:
# [02, 32, 54, 11], the home reads A: read HIT (remote_l3) [A* B*]; T0 load
# D 0x20c0 [02, 12]: read miss, victim B* dirty to DRAM [D A*]. Node 0:
# reads 4 (A B A D), hit 1; writes 2 (B A), both hits; write_backs 1.
# L02: local 4 = local_memory 3 (A B D) + local_cache 1 (T1's B); remote 2 =
# remote_cache 1 (T2's A) + remote_l3 1 (T3's A). Under protocol 6 (no DT)
# T2's recall is [02, 32, 56, 12]: recall_data writes A home, the same counts.
cat >c2c.txt <<'EOF'
threads 4
thread 0
store 4 0x2000
store 4 0x2040
barrier 0x9000 4
barrier 0x9000 4
load 4 0x20c0
thread 1
barrier 0x9000 4
load 4 0x2040
barrier 0x9000 4
thread 2
barrier 0x9000 4
load 4 0x2000
barrier 0x9000 4
thread 3
barrier 0x9000 4
barrier 0x9000 4
load 4 0x2000
EOF
smait asm c2c.txt c2c
{ cat "$CLI_DIR/cdat-iosim/2x2.ini"; printf '[l3]\nsize = 128\nassoc = full\n'; } >c2c.ini
for p in 1 6; do
    check "protocol $p: the copies to the home write its L3" bash -c "
        cdat -p -q --name p$p --set system.protocol=$p c2c.4 c2c.ini &&
        grep -E '^RxTxL(02|23):|^RxTxL11: txn (22|51|56) ' c2c.4.p$p.cdat_report | sed '/txn/s/ [0-9.]*%\$//'" <<EOF
RxTxL02: data_miss_src local 4 66.67% remote 2 33.33% local_memory 3 50.00% local_cache 1 16.67% remote_memory 0 0.00% remote_cache 1 16.67% local_l3 0 0.00% remote_l3 1 16.67%
RxTxL11: txn 22 update_data 1
$([ $p = 1 ] && echo "RxTxL11: txn 51 recall_c2c_data 1" || echo "RxTxL11: txn 56 recall_data 1")
RxTxL23: l3 node 0 reads 4 read_hits 1 25.00% read_misses 3 75.00% writes 2 write_hits 2 100.00% write_misses 0 0.00% write_backs 1
RxTxL23: l3 node 1 reads 0 read_hits 0 0.00% read_misses 0 0.00% writes 0 write_hits 0 0.00% write_misses 0 0.00% write_backs 0
RxTxL23: l3 node all reads 4 read_hits 1 25.00% read_misses 3 75.00% writes 2 write_hits 2 100.00% write_misses 0 0.00% write_backs 1
--- exit 0
EOF
done

# ---- I/O: write_purge writes the home's memory, read misses after it --------------------------
# cdat-io.sh's raw read (tests/cli/cdat-iosim/raw-read.txt derives its
# transactions) on its 2x2.ini, with a 2-line fully associative L3 per
# node. Lines A 0x2000, B 0x2040, C 0x2080, D 0x20c0, all of node 0.
# Step 1: T0 store A [03, 12]: L3(0) read miss [A]. T1 load C [02, 12]:
# read miss [C A]. T2 (node 1) load B [02, 12]: read miss, victim A clean
# [B C]. T3 (node 1) load C [02, 32, 54, 11]: the home supplies C after the
# nack: read HIT, remote_l3 [C B]. Step 2: -1's write_purge (06) of A, B,
# C, D: four writes into L3(0), all misses: A [A* C] (victim B clean),
# B [B* A*] (C clean), C [C* B*] (A* dirty to DRAM: 1), D [D* C*] (B*: 2).
# Step 3: T0 load A: read miss, victim C* (3) [A D*]; T2 load B: read miss,
# victim D* (4) [B A]. Node 0: reads 6, hit 1; writes 4, all misses;
# write_backs 4. L02: local 3 = local_memory 3 (T0's A twice, T1's C);
# remote 3 = remote_memory 2 (T2's B twice) + remote_l3 1 (T3's C). L05:
# -1's 4 write_purges, counted by the memory that received them (local).
check "I/O: smait asm the raw read" smait asm "$CLI_DIR/cdat-iosim/raw-read.txt" raw-read <<'EOF'
--- exit 0
EOF
{ cat "$CLI_DIR/cdat-iosim/2x2.ini"; printf '[l3]\nsize = 128\nassoc = full\n'; } >io.ini
check "I/O: write_purge and the reads around it through the home's L3" bash -c '
    cdat -p -q -handle_io raw-read.4 io.ini && grep -E "^RxTxL(02|05|23):" raw-read.4.cdat_report' <<'EOF'
RxTxL02: data_miss_src local 3 50.00% remote 3 50.00% local_memory 3 50.00% local_cache 0 0.00% remote_memory 2 33.33% remote_cache 0 0.00% local_l3 0 0.00% remote_l3 1 16.67%
RxTxL05: io requests 4 local 4 100.00% remote 0 0.00% local_memory 4 100.00% local_cache 0 0.00% remote_memory 0 0.00% remote_cache 0 0.00% local_l3 0 0.00% remote_l3 0 0.00%
RxTxL23: l3 node 0 reads 6 read_hits 1 16.67% read_misses 5 83.33% writes 4 write_hits 0 0.00% write_misses 4 100.00% write_backs 4
RxTxL23: l3 node 1 reads 0 read_hits 0 0.00% read_misses 0 0.00% writes 0 write_hits 0 0.00% write_misses 0 0.00% write_backs 0
RxTxL23: l3 node all reads 6 read_hits 1 16.67% read_misses 5 83.33% writes 4 write_hits 0 0.00% write_misses 4 100.00% write_backs 4
--- exit 0
EOF

# A raw write (no kernel buffer): -1 reads the user buffer with read_current
# (05). T0 load A [02, 12]: exclusive at P0, L3(0) read miss [A]; T1 load B
# [02, 12]: read miss [B A]; T0 writes A (one line): A is exclusive at P0,
# clean: [05, 31, 54, 11], the home reads A after the nack: read HIT
# (docs/cdat-protocol.md §10: 54's memory read), L05 local_l3 (-1 is on node
# 0, A's home). Node 0: reads 3, hit 1, no write.
cat >raw-write.txt <<'EOF'
threads 2
thread 0
load 4 0x2000
write 0x2000 64 3
thread 1
load 4 0x2040
EOF
smait asm raw-write.txt raw-write
check "I/O: read_current served by the home's L3" bash -c '
    cdat -p -q -handle_io raw-write.2 io.ini && grep -E "^RxTxL(05|23):" raw-write.2.cdat_report &&
    grep -c " 05 -1 \| 54 " raw-write.2.detailed' <<'EOF'
RxTxL05: io requests 1 local 1 100.00% remote 0 0.00% local_memory 0 0.00% local_cache 0 0.00% remote_memory 0 0.00% remote_cache 0 0.00% local_l3 1 100.00% remote_l3 0 0.00%
RxTxL23: l3 node 0 reads 3 read_hits 1 33.33% read_misses 2 66.67% writes 0 write_hits 0 0.00% write_misses 0 0.00% write_backs 0
RxTxL23: l3 node 1 reads 0 read_hits 0 0.00% read_misses 0 0.00% writes 0 write_hits 0 0.00% write_misses 0 0.00% write_backs 0
RxTxL23: l3 node all reads 3 read_hits 1 33.33% read_misses 2 66.67% writes 0 write_hits 0 0.00% write_misses 0 0.00% write_backs 0
2
--- exit 0
EOF

# ---- --jobs, --shard, the machine without an L3 --------------------------------------------------
# The L3 has 64 sets (4K of 1 way), the L1s 16 sets: --jobs 2 and 4 split
# every cache's sets, and the parts' L3 counts (per home node, in each
# processor's counters) add up to the whole run's.
{
    printf '[system]\nnodes = 2\nprocs_per_node = 2\n[dcache]\nsize = 1K\nassoc = 1\n[icache]\nsize = 1K\nassoc = 1\n'
    printf '[l3]\nsize = 4K\nassoc = 1\n[timing]\nlocal_memory = 100\nremote_memory = 200\nlocal_l3 = 20\nremote_l3 = 70\n'
} >j.ini
for n in 2 4; do
    check "--jobs $n with an L3: the whole run's report and JSON" bash -c "
        cdat -q -p --json --name whole rs.4 j.ini && mkdir -p j$n && cdat -q -p --json --jobs $n --name whole -o j$n rs.4 j.ini &&
        diff <(grep -v '^# command' rs.4.whole.cdat_report) <(grep -v '^# command' j$n/rs.4.whole.cdat_report) &&
        grep -c '^RxTxL23:' rs.4.whole.cdat_report &&
        diff <(grep -v command rs.4.whole.cdat_report.json) <(grep -v command j$n/rs.4.whole.cdat_report.json) && echo same" <<'EOF'
3
same
--- exit 0
EOF
done
check "--shard I/4 and --merge with an L3: the whole run's report" bash -c "
    mkdir -p s && for i in 0 1 2 3; do cdat -q -p --shard \$i/4 --name whole -o s rs.4 j.ini || exit 1; done &&
    grep -c '^l3 2\$' s/rs.4.whole.cdat_partial.0-of-4 &&
    cdat --merge s/rs.4.whole.cdat_partial.*-of-4 &&
    diff <(grep -v '^# command' rs.4.whole.cdat_report) <(grep -v '^# command' s/rs.4.whole.cdat_report) && echo same" <<'EOF'
1
same
--- exit 0
EOF
check "--jobs 64: N must divide the L3's sets (32 at 2 ways; the L1s have 128)" \
    cdat -q -p --jobs 64 --set dcache.size=8K --set icache.size=8K --set l3.assoc=2 rs.4 j.ini <<'EOF'
--- stderr
cdat: --jobs 64: the l3 of j.ini has 32 sets (fully associative: 1); N must divide every cache's sets
cdat: try 'cdat --help'
--- exit 1
EOF
check "l3.size=0 is the machine without an L3, byte for byte" bash -c "
    sed '/^\[l3\]/,+2d; /_l3 = /d' j.ini >no.ini && ! grep -q l3 no.ini && grep -c '^assoc = 1\$' no.ini &&
    cdat -q -p --name a rs.4 no.ini && cdat -q -p --name b --set l3.size=0 --set timing.local_l3=0 --set timing.remote_l3=0 rs.4 j.ini &&
    diff <(grep -v '^# \(command\|configuration\|set\)' rs.4.a.cdat_report) \
         <(grep -v '^# \(command\|configuration\|set\)' rs.4.b.cdat_report) && echo same" <<'EOF'
2
same
--- exit 0
EOF

# ---- [timing] on random sets: time = instructions + counted events x cycles -------------------------
# For every L19 line (each processor and Tx, each phase and the run), with
# j.ini's cycles (local_memory 100, remote_memory 200, local_l3 20,
# remote_l3 70, the others 0): local_memory = L02 + L04's local_memory (the
# misses DRAM served) x 100, remote_memory likewise x 200, local_l3 = their
# local_l3 x 20, remote_l3 x 70; stall = the sum of the fields;
# busy_and_stall = busy + stall, busy = L14's active.
cat >identity.awk <<'AWK'
function key(tag) { return substr(tag, 1, index(tag, "L") - 1) }
function field(name,    i) { for (i = 3; i < NF; i++) if ($i == name) return $(i + 1); return "none" }
$2 == "data_miss_src" || $2 == "instr_miss_src" {
    k = key($1); lm[k] += field("local_memory"); rm[k] += field("remote_memory")
    ll[k] += field("local_l3"); rl[k] += field("remote_l3"); any += field("local_l3") + field("remote_l3") }
$2 == "cpu" { act[key($1)] = $4 }
$2 == "time" {
    k = key($1); n++
    sum = field("local_memory") + field("local_cache") + field("remote_memory") + field("remote_cache") + \
          field("upgrade") + field("network") + field("local_l3") + field("remote_l3")
    if (field("local_memory") != lm[k] * 100 || field("remote_memory") != rm[k] * 200 || \
        field("local_l3") != ll[k] * 20 || field("remote_l3") != rl[k] * 70 || field("stall") != sum || \
        field("busy") != act[k] || field("busy_and_stall") != field("busy") + sum) { bad++; print "wrong:", $0 }
}
END { print (n > 0 ? "lines 1" : "no lines"), (any > 0 ? "l3 hits 1" : "no l3 hits"), "wrong", bad + 0 }
AWK
check "random set 37, 2x2 with L3s: busy + stall = instructions + counts x cycles, on every L19 line" \
    awk -f identity.awk rs.4.whole.cdat_report <<'EOF'
lines 1 l3 hits 1 wrong 0
--- exit 0
EOF

# ---- bad configurations and options ------------------------------------------------------------
printf '[l3]\nsize = 1M\ninclusion = inclusive\n' >bad.ini
check "[l3]: an inclusion key, refused with the reason" cdat -q rs.4 bad.ini <<'EOF'
--- stderr
cdat: bad.ini:3: [l3] inclusion: the L3 is memory-side (each node's L3 holds its own memory's lines, never a copy the directory tracks), so no inclusion policy applies; remove the key
--- exit 2
EOF
check "[l3]: an unknown key" cdat -q --set l3.ways=4 rs.4 j.ini <<'EOF'
--- stderr
cdat: --set l3.ways=4: [l3]: unknown key 'ways' (size, assoc, replacement)
cdat: try 'cdat --help'
--- exit 1
EOF
printf '[l3]\nsize = 1000\n' >bad.ini
check "[l3]: a size that is not whole lines" cdat -q rs.4 bad.ini <<'EOF'
--- stderr
cdat: bad.ini:2: [l3] size: 1000 bytes is not a whole number of 64-byte lines
--- exit 2
EOF
printf '[l3]\nsize = lots\n' >bad.ini
check "[l3]: a size that is no size" cdat -q rs.4 bad.ini <<'EOF'
--- stderr
cdat: bad.ini:2: [l3] size: 'lots' is not a size (e.g. 64K, 1M)
--- exit 2
EOF
printf '[l3]\nsize = 3M\n' >bad.ini
check "[l3]: sets that are not a power of two (16 ways by default)" cdat -q rs.4 bad.ini <<'EOF'
--- stderr
cdat: bad.ini:2: [l3]: 49152 lines in 16 ways do not make a power-of-two number of sets
--- exit 2
EOF
printf '[system]\nnodes = 32\n[l3]\nsize = 512M\nassoc = 8\n' >bad.ini
# 4 bytes a cache line: 32 processors x (64K + 64K of 64-byte lines: 4K + 4K) = 256K,
# and 32 nodes x 512M of 64-byte lines (32M) = 1G: 1G + 256K = 1048832K.
check "[l3]: the L3s count toward the caches' memory" cdat -q rs.4 bad.ini <<'EOF'
--- stderr
cdat: bad.ini:5: the caches need 1048832K of cdat's memory, more than the 1G it allows: 32 processors x (dcache 4K + icache 4K) + 32 nodes x l3 32M
--- exit 2
EOF
printf '[timing]\nlocal_memory = 100\nremote_l3 = 5\n' >bad.ini
check "[timing] remote_l3 without an L3" cdat -q rs.4 bad.ini <<'EOF'
--- stderr
cdat: bad.ini:3: [timing] remote_l3: the machine has no L3 ([l3] size = 0)
--- exit 2
EOF
check "[timing] local_l3 without an L3, by --set" cdat -q --set timing.local_l3=5 rs.4 no.ini <<'EOF'
--- stderr
cdat: --set timing.local_l3=5: [timing] local_l3: the machine has no L3 ([l3] size = 0)
cdat: try 'cdat --help'
--- exit 1
EOF
# The L3 is memory-side: the processors' caches, so their miss classes, are
# the machine's without it; a miss the other node's L3 served is remote.
check "--miss-classes with an L3: the classes of the machine without it" bash -c "
    cdat -q -p --miss-classes --name l3 rs.4 j.ini && cdat -q -p --miss-classes --set l3.size=0 --set timing.local_l3=0 --set timing.remote_l3=0 --name nol3 rs.4 j.ini &&
    diff <(grep -E '^R[0-9x]*T[0-9x-]*L1[78]:' rs.4.l3.cdat_report) <(grep -E '^R[0-9x]*T[0-9x-]*L1[78]:' rs.4.nol3.cdat_report) &&
    grep -c '^RxTxL1[78]:' rs.4.l3.cdat_report" <<'EOF'
2
--- exit 0
EOF
check "--by-code with an L3: code_remote counts the misses a remote L3 served" bash -c "
    cdat -q -p --by-code=1000000 --name l3c rs.4 j.ini &&
    awk 'function f(name,    i) { for (i = 2; i < NF; i++) if (\$i == name) return \$(i + 1); return 0 }
         \$1 == \"RxTxL02:\" || \$1 == \"RxTxL04:\" { rem += f(\"remote_memory\") + f(\"remote_cache\") + f(\"remote_l3\"); rl3 += f(\"remote_l3\") }
         \$1 == \"RxTxL20:\" && \$2 == \"code_remote\" { code += \$6 }
         END { print (code == rem && rl3 > 0) ? \"ok\" : \"wrong \" code \" \" rem \" \" rl3 }' rs.4.l3c.cdat_report" <<'EOF'
ok
--- exit 0
EOF
check_true "no report was left by the refusals" test ! -e rs.4.bad.cdat_report
