# cdat-l2.sh — each processor's L2 ([l2], docs/cdat-protocol.md §9, line L22):
# a golden run per inclusion policy derived by hand, the protocol checker on
# random sets under every protocol and policy (with coverage of what the L2
# adds: flush, back-invalidations, L2 upgrades), the comparison with an
# independent two-level model (tests/tools/two_level.c, Dinero IV's
# hierarchy) on the references `cdat --din` writes, --jobs, [timing]'s
# l2_hit, the report without [l2] unchanged, and the bad configurations.
D=$CLI_DIR/cdat-check

# ---- golden: one processor, every inclusion policy ----------------------------------------------
# d-cache 128 bytes direct-mapped: 2 sets (set 0: even lines, set 1: odd);
# L2 256 bytes of 4 ways: one set, LRU (below most recent first). Lines A =
# 0x20000040, C = 0x200000c0, E = 0x20000140 (odd); B 0x20000080, D 0x20000100,
# F 0x20000180, G 0x20000200, H 0x20000280, I 0x20000300 (even). One node, so
# every miss that leaves the processor is local memory: 03 (store) or 02
# (load, granted exclusive) answered by 12, critical path 2. Protocol 1
# announces exclusive replacements (update_tag, 23).
cat >g.txt <<'EOF'
threads 1
thread 0
store 4 0x20000040
store 4 0x200000c0
load 4 0x20000080
load 4 0x20000100
load 4 0x20000140
load 4 0x20000040
store 4 0x20000180
load 4 0x200000c0
load 4 0x20000200
load 4 0x20000280
load 4 0x20000300
store 4 0x200000c0
load 4 0x20000140
EOF
smait asm g.txt g
l2_machine() {    # INCLUSION
    printf '[dcache]\nsize = 128\nassoc = 1\n[icache]\nsize = 128\nassoc = 1\n'
    printf '[l2]\nsize = 256\nassoc = 4\ninclusion = %s\n' "$1"
}
golden_lines() { grep -E '^RxTxL(0[12]|1[015]|22):' g.1.cdat_report; }

# non_inclusive. 1 st A: L2 [A], d1 A dirty. 2 st C: L2 [C A]; d1 C, victim
# A dirty written into the L2 (a hit): [A* C]. 3 ld B: [B A* C], d0 B.
# 4 ld D: [D B A* C], d0 D (B clean, still in the L2: stays). 5 ld E: the
# L2's victim C is still in d1: kept; [E D B A*]; d1 E, victim C dirty
# written into the L2: a write miss, whose victim A* is in no L1: returned,
# write_back (21); [C* E D B]. 6 ld A: L2 miss, 02; the L2's victim B
# leaves (23); [A C* E D]; d1 A, E stays in the L2. 7 st F: victim D is in
# d0: kept; [F A C* E]; d0 F, victim D clean and not in the L2: 23.
# 8 ld C: an L2 hit (source l2), d1 C clean; [C* F A E]; A stays in the L2.
# 9 ld G: victim E leaves (23); d0 G, victim F dirty written (hit): [F* G C* A].
# 10 ld H: victim A leaves (23); [H F* G C*]; G stays. 11 ld I: victim C*
# is in d1: kept, its dirty data home as a flush (24); [I H F* G].
# 12 st C: a d-cache hit (exclusive, silently dirty). 13 ld E: victim G
# leaves (23); d1 E, victim C dirty: write miss, victim F* returned (21).
# L01 13 refs, hit 12; L22 12 refs: hit 8, writes 2 5 9 13 (misses 5 13),
# write_backs 5 (A) 11 (flush) 13 (F); L15 write_back 5 13, update_tag
# 6 7 9 10 13; 11 requests (03 at 1 2 7) + 11 data_priv + 2 + 5 + 1 = 30.
l2_machine non_inclusive >g.ini
check "golden: non_inclusive" bash -c 'cdat -p -q g.1 g.ini && grep -E "^RxTxL(0[12]|1[015]|22):" g.1.cdat_report' <<'EOF'
RxTxL01: data refs 13 hits 1 7.69% misses 12 92.31% upgrades 0 0.00%
RxTxL02: data_miss_src local 11 91.67% remote 0 0.00% local_memory 11 91.67% local_cache 0 0.00% remote_memory 0 0.00% remote_cache 0 0.00% l2 1 8.33%
RxTxL10: traffic transactions 30 requests 11 avg_latency 2.0000
RxTxL11: txn 02 read_shar_or_priv 8 26.67%
RxTxL11: txn 03 read_priv_own 3 10.00%
RxTxL11: txn 12 data_priv 11 36.67%
RxTxL11: txn 21 write_back 2 6.67%
RxTxL11: txn 23 update_tag 5 16.67%
RxTxL11: txn 24 flush 1 3.33%
RxTxL15: evictions write_back 2 update_tag 5 silent 0
RxTxL22: l2 refs 12 hits 1 8.33% misses 11 91.67% upgrades 0 0.00% writes 4 write_misses 2 write_backs 3 back_invalidations 0
--- exit 0
EOF
check "golden: the header states the L2" grep '^# l2:' g.1.cdat_report <<'EOF'
# l2: size 256 assoc 4 inclusion non_inclusive
--- exit 0
EOF

# inclusive. 1-4 as above: [D B A* C], d1 C*, d0 D. 5 ld E: victim C is
# back-invalidated in d1, where it was dirty: returned dirty (21);
# [E D B A*], d1 E (its set was emptied). 6 ld A: an L2 hit; [A* E D B];
# d1 A, E stays. 7 st F: victim B (in no L1) leaves (23); [F A* E D];
# d0 F*, D stays. 8 ld C: L2 miss (02); victim D leaves (23); [C F A* E];
# d1 C, A stays. 9 ld G: victim E leaves (23); d0 G, F* written (hit):
# [F* G C A*]. 10 ld H: victim A* (in no L1) returned dirty (21);
# [H F* G C]. 11 ld I: victim C, back-invalidated in d1 (clean): 23;
# [I H F* G]. 12 st C: a d-cache miss now, L2 miss (03); victim G leaves
# (23); [C I H F*]; d1 C* (its set empty). 13 ld E: victim F* returned (21);
# d1 E, C* written (hit): [C* E I H]. L01 13 misses; L22 13 refs: hit 6,
# writes 2 9 13 (all hits), write_backs 5 10 13, back-invalidations 5 11;
# 12 requests (03 at 1 2 7 12): 24 + 3 + 5 = 32.
l2_machine inclusive >g.ini
check "golden: inclusive" bash -c 'cdat -p -q g.1 g.ini && grep -E "^RxTxL(0[12]|1[015]|22):" g.1.cdat_report' <<'EOF'
RxTxL01: data refs 13 hits 0 0.00% misses 13 100.00% upgrades 0 0.00%
RxTxL02: data_miss_src local 12 92.31% remote 0 0.00% local_memory 12 92.31% local_cache 0 0.00% remote_memory 0 0.00% remote_cache 0 0.00% l2 1 7.69%
RxTxL10: traffic transactions 32 requests 12 avg_latency 2.0000
RxTxL11: txn 02 read_shar_or_priv 8 25.00%
RxTxL11: txn 03 read_priv_own 4 12.50%
RxTxL11: txn 12 data_priv 12 37.50%
RxTxL11: txn 21 write_back 3 9.38%
RxTxL11: txn 23 update_tag 5 15.62%
RxTxL15: evictions write_back 3 update_tag 5 silent 0
RxTxL22: l2 refs 13 hits 1 7.69% misses 12 92.31% upgrades 0 0.00% writes 3 write_misses 0 write_backs 3 back_invalidations 2
--- exit 0
EOF

# exclusive: lines from outside go to the d-cache only; every d-cache victim
# moves into the L2 (10 writes, all misses); an L2 hit moves the line up.
# 1 st A: d1 A*. 2 st C: d1 C*, A* down: [A*]. 3 ld B: d0 B. 4 ld D: d0 D,
# B down: [B A*]. 5 ld E: d1 E, C* down: [C* B A*]. 6 ld A: an L2 hit, A*
# moves up (dirty), E down: [E C* B]. 7 st F: d0 F*, D down: [D E C* B].
# 8 ld C: an L2 hit, C* up, A* down: [A* D E B]. 9 ld G: d0 G, F* down, the
# L2's victim B leaves (23): [F* A* D E]. 10 ld H: G down, victim E leaves
# (23). 11 ld I: H down, victim D leaves (23): [H G F* A*]. 12 st C: a hit
# (C dirty in d1). 13 ld E: L2 miss (02); C* down, victim A* returned (21).
# 10 requests (03 at 1 2 7): 20 + 1 + 3 = 24.
l2_machine exclusive >g.ini
check "golden: exclusive" bash -c 'cdat -p -q g.1 g.ini && grep -E "^RxTxL(0[12]|1[015]|22):" g.1.cdat_report' <<'EOF'
RxTxL01: data refs 13 hits 1 7.69% misses 12 92.31% upgrades 0 0.00%
RxTxL02: data_miss_src local 10 83.33% remote 0 0.00% local_memory 10 83.33% local_cache 0 0.00% remote_memory 0 0.00% remote_cache 0 0.00% l2 2 16.67%
RxTxL10: traffic transactions 24 requests 10 avg_latency 2.0000
RxTxL11: txn 02 read_shar_or_priv 7 29.17%
RxTxL11: txn 03 read_priv_own 3 12.50%
RxTxL11: txn 12 data_priv 10 41.67%
RxTxL11: txn 21 write_back 1 4.17%
RxTxL11: txn 23 update_tag 3 12.50%
RxTxL15: evictions write_back 1 update_tag 3 silent 0
RxTxL22: l2 refs 12 hits 2 16.67% misses 10 83.33% upgrades 0 0.00% writes 10 write_misses 10 write_backs 1 back_invalidations 0
--- exit 0
EOF

# --din: one line per reference, label and hex address (Dinero IV's din).
check "--din: the golden run's references" bash -c 'cdat -p -q --din g.din g.1 g.ini && cat g.din' <<'EOF'
1 20000040
1 200000c0
0 20000080
0 20000100
0 20000140
0 20000040
1 20000180
0 200000c0
0 20000200
0 20000280
0 20000300
1 200000c0
0 20000140
--- exit 0
EOF

# ---- the protocol checker: random sets, every protocol and policy --------------------------------
check_true "the protocol checker is built ($CDAT_CHECK)" test -x "$CDAT_CHECK"
awk -v seed=31 -v threads=4 -v n=2500 -f "$D/randset.awk" >rs.txt
smait asm rs.txt rs
: >seen.txt
for incl in non_inclusive inclusive exclusive; do
    for protocol in 1 2 3 4 5 6 7 8; do
        for icc in 0 512; do
            {
                printf '[system]\nnodes = 2\nprocs_per_node = 2\nprotocol = %s\n[output]\ndetailed = 1\n' "$protocol"
                printf '[dcache]\nsize = 512\nassoc = 2\n[icache]\nsize = 512\nassoc = 2\n'
                printf '[interconnect_cache]\nsize = %s\nassoc = 2\n' "$icc"
                printf '[l2]\nsize = 1K\nassoc = 2\ninclusion = %s\n' "$incl"
            } >m.ini
            check "$incl, protocol $protocol, interconnect cache $icc: cdat runs and cdat_check holds" \
                bash -c "cdat -p -q rs.4 m.ini && '$CDAT_CHECK' --report rs.4.cdat_report rs.4.detailed" <<'EOF'
--- exit 0
EOF
            awk -v i="$incl" '$3 == "24" { f = 1 } END { if (f) print i, "flush" }' rs.4.detailed >>seen.txt
            awk -v i="$incl" '$1 == "RxTxL22:" { for (k = 3; k < NF; k++) v[$k] = $(k + 1)
                if (v["upgrades"] > 0) print i, "upgrades"; if (v["back_invalidations"] > 0) print i, "back_invalidations"
                if (v["write_misses"] > 0) print i, "write_misses"; if (v["hits"] > 0) print i, "hits" }' \
                rs.4.cdat_report >>seen.txt
        done
    done
done
check "the random runs show what each policy adds" bash -c 'sort -u seen.txt' <<'EOF'
exclusive hits
exclusive upgrades
exclusive write_misses
inclusive back_invalidations
inclusive hits
inclusive upgrades
non_inclusive flush
non_inclusive hits
non_inclusive upgrades
non_inclusive write_misses
--- exit 0
EOF

# ---- the independent two-level model (Dinero IV's hierarchy) -------------------------------------
# One processor, non_inclusive, on random references whose code and data
# lines are apart (nocode=1: docs/cdat-protocol.md §9 says why): the d- and
# i-cache misses (L01, L03) and the L2's read and write misses, writes and
# write-backs (L22) are the model's, exactly.
check_true "the two-level model is built ($TWO_LEVEL)" test -x "$TWO_LEVEL"
as_ini() { if [ "$1" = 0 ]; then echo full; else echo "$1"; fi; }
for seed in 1 2 3; do
    awk -v seed="$seed" -v threads=1 -v n=8000 -v nocode=1 -f "$D/randset.awk" >r1.txt
    smait asm r1.txt "r$seed"
    for geo in "1024 2 512 2 4096 4" "256 1 256 2 1024 2" "512 2 512 1 512 1" "1024 4 1024 2 2048 0"; do
        read -r ds da is ia ls la <<<"$geo"
        printf '[dcache]\nsize = %s\nassoc = %s\n[icache]\nsize = %s\nassoc = %s\n[l2]\nsize = %s\nassoc = %s\n' \
            "$ds" "$(as_ini "$da")" "$is" "$(as_ini "$ia")" "$ls" "$(as_ini "$la")" >one.ini
        cdat -p -q --din r.din "r$seed.1" one.ini
        cdat_levels "r$seed.1.cdat_report" >cdat.txt
        # The L2's miss classes (L25, --miss-classes: a run of its own, --din refuses it; one
        # processor: no sharing) against the model's Hill's rule (-c).
        cdat -p -q --miss-classes --name mc "r$seed.1" one.ini
        awk '/^RxTxL25:/ { print "l2_classes cold", $4, "capacity", $6, "conflict", $8 (($10 + $12) ? " sharing?" : "") }' \
            "r$seed.1.mc.cdat_report" >>cdat.txt
        "$TWO_LEVEL" -c 64 "$is" "$ia" "$ds" "$da" "$ls" "$la" r.din >model.txt || echo "the model failed" >>model.txt
        cat model.txt >>models.txt
        check "seed $seed, d $ds/$da i $is/$ia l2 $ls/$la: cdat's L1 and L2 (and its miss classes) are the two-level model's" \
            diff model.txt cdat.txt <<'EOF'
--- exit 0
EOF
    done
done
check "the model's comparison is not empty (seed 3, the last geometry)" awk '{ print $1, ($3 > 0) }' model.txt <<'EOF'
l1d 1
l1i 1
l2 1
l2_classes 1
--- exit 0
EOF
check "… and its classes, over every run, have some of each (the fully associative L2 has no conflicts)" \
    awk '/^l2_classes/ { c += $3; p += $5; f += $7 } END { print (c > 0), (p > 0), (f > 0) }' models.txt <<'EOF'
1 1 1
--- exit 0
EOF

# ---- --jobs, [timing], the machine without an L2 -------------------------------------------------
{
    printf '[system]\nnodes = 2\nprocs_per_node = 2\n[dcache]\nsize = 1K\nassoc = 1\n[icache]\nsize = 1K\nassoc = 1\n'
    printf '[l2]\nsize = 4K\nassoc = 8\ninclusion = inclusive\n'
} >j.ini
for n in 2 4; do
    check "--jobs $n with an L2: the whole run's report" bash -c "
        cdat -q -p --name whole rs.4 j.ini && mkdir -p j$n && cdat -q -p --jobs $n --name whole -o j$n rs.4 j.ini &&
        diff <(grep -v '^# command' rs.4.whole.cdat_report) <(grep -v '^# command' j$n/rs.4.whole.cdat_report) && echo same" <<'EOF'
same
--- exit 0
EOF
done
check "--shard I/4 and --merge with an L2: the whole run's report" bash -c "
    mkdir -p s && for i in 0 1 2 3; do cdat -q -p --shard \$i/4 --name whole -o s rs.4 j.ini || exit 1; done &&
    cdat --merge s/rs.4.whole.cdat_partial.*-of-4 &&
    diff <(grep -v '^# command' rs.4.whole.cdat_report) <(grep -v '^# command' s/rs.4.whole.cdat_report) && echo same" <<'EOF'
same
--- exit 0
EOF
check "--jobs 16: N must divide the L2's 8 sets (the L1s have 16)" cdat -q -p --jobs 16 rs.4 j.ini <<'EOF'
--- stderr
cdat: --jobs 16: the l2 of j.ini has 8 sets (fully associative: 1); N must divide every cache's sets
cdat: try 'cdat --help'
--- exit 1
EOF

# [timing] l2_hit: L19's l2 = the misses the L2 served (L02 + L04 l2) x l2_hit,
# and stall is the sum of its parts.
check "[timing] l2_hit prices the L2's hits" bash -c "
    cdat -q -p --name t --set timing.l2_hit=7 --set timing.local_memory=50 rs.4 j.ini &&
    awk '\$1 == \"RxTxL02:\" || \$1 == \"RxTxL04:\" { for (i = 3; i < NF; i++) if (\$i == \"l2\") n += \$(i + 1) }
         \$1 == \"RxTxL19:\" { for (i = 3; i < NF; i++) v[\$i] = \$(i + 1)
             s = v[\"local_memory\"] + v[\"local_cache\"] + v[\"remote_memory\"] + v[\"remote_cache\"] + v[\"upgrade\"] + v[\"network\"] + v[\"l2\"] }
         END { print (n > 0), (v[\"l2\"] == 7 * n), (s == v[\"stall\"]) }' rs.4.t.cdat_report &&
    grep '^# timing:' rs.4.t.cdat_report" <<'EOF'
1 1 1
# timing: accounting local_memory 50 local_cache 0 remote_memory 0 remote_cache 0 upgrade 0 hop 0 l2_hit 7
--- exit 0
EOF
check "l2.size=0 is the machine without an L2, byte for byte" bash -c "
    grep -v '^\[l2\]\|^size = 4K\|^assoc = 8\|^inclusion' j.ini >no.ini &&
    cdat -q -p --name a rs.4 no.ini && cdat -q -p --name b --set l2.size=0 rs.4 j.ini &&
    diff <(grep -v '^# \(command\|configuration\|set\)' rs.4.a.cdat_report) \
         <(grep -v '^# \(command\|configuration\|set\)' rs.4.b.cdat_report) && echo same" <<'EOF'
same
--- exit 0
EOF

# ---- bad configurations and options ------------------------------------------------------------
check "[l2]: an unknown key" cdat -q --set l2.ways=4 rs.4 j.ini <<'EOF'
--- stderr
cdat: --set l2.ways=4: [l2]: unknown key 'ways' (size, assoc, replacement, inclusion)
cdat: try 'cdat --help'
--- exit 1
EOF
printf '[l2]\nsize = 1K\ninclusion = mostly\n' >bad.ini
check "[l2]: a bad inclusion, in a file" cdat -q rs.4 bad.ini <<'EOF'
--- stderr
cdat: bad.ini:3: [l2] inclusion: 'mostly' must be non_inclusive, inclusive or exclusive
--- exit 2
EOF
printf '[l2]\nsize = 1000\n' >bad.ini
check "[l2]: a size that is not whole lines" cdat -q rs.4 bad.ini <<'EOF'
--- stderr
cdat: bad.ini:2: [l2] size: 1000 bytes is not a whole number of 64-byte lines
--- exit 2
EOF
printf '[l2]\nsize = 3K\nassoc = 16\n' >bad.ini
check "[l2]: sets that are not a power of two" cdat -q rs.4 bad.ini <<'EOF'
--- stderr
cdat: bad.ini:3: [l2]: 48 lines in 16 ways do not make a power-of-two number of sets
--- exit 2
EOF
printf '[timing]\nl2_hit = 5\n' >bad.ini
check "[timing] l2_hit without an L2" cdat -q rs.4 bad.ini <<'EOF'
--- stderr
cdat: bad.ini:2: [timing] l2_hit: the machine has no L2 ([l2] size = 0)
--- exit 2
EOF
# ---- miss classes and attribution with an L2 (docs/cdat-report.md, L17, L20) -----------------------
# Golden, one processor: a fully associative d-cache of 2 lines, an
# inclusive L2 of 2 sets of 1 way. Lines 0x20000000 (A) and 0x20000080 (C)
# share L2 set 0. load A: cold, the L2 misses. load C: cold, the L2 misses
# and its fill evicts A, whose d-cache copy goes with it (back-invalidation
# 1). load A: the d-cache lost A to the L2's replacement, but a fully
# associative cache of 2 lines would still hold it (A, C): conflict; the L2
# misses again and evicts C (back-invalidation 2). By address: A 2 misses,
# both L2 misses; C 1 and 1. The L2's own misses (L25) by the same rule, with
# a shadow of the L2's 2 lines: A and C cold, then A a conflict miss (a
# fully associative L2 of 2 lines would still hold A: the direct-mapped one
# lost it to C).
printf 'threads 1\nthread 0\nload 4 0x20000000\nload 4 0x20000080\nload 4 0x20000000\n' >bi.txt
smait asm bi.txt bi
printf '[system]\nnodes = 1\nprocs_per_node = 1\n[dcache]\nsize = 128\nassoc = full\n[l2]\nsize = 128\nassoc = 1\ninclusion = inclusive\n' >bi.ini
check "golden: a back-invalidated line's next miss is a conflict miss, and an L2 miss by address" bash -c "
    cdat -q -p --miss-classes --by-data bi.1 bi.ini && grep -E '^RxT0L(17|22|25)|^RxTxL21' bi.1.cdat_report" <<'EOF'
RxT0L17: data_classes cold 2 capacity 0 conflict 1 true_sharing 0 false_sharing 0 upgrades 0 mpki 0.0000
RxT0L22: l2 refs 3 hits 0 0.00% misses 3 100.00% upgrades 0 0.00% writes 0 write_misses 0 write_backs 0 back_invalidations 2
RxT0L25: l2_classes cold 2 capacity 0 conflict 1 true_sharing 0 false_sharing 0
RxTxL21: data_misses rank 1 count 2 kind address name 0x20000000 where -
RxTxL21: data_misses rank 2 count 1 kind address name 0x20000080 where -
RxTxL21: data_l2_misses rank 1 count 2 kind address name 0x20000000 where -
RxTxL21: data_l2_misses rank 2 count 1 kind address name 0x20000080 where -
--- exit 0
EOF
# Coherence in the L2's classes: processor 0 loads A (0x20000000) and C,
# processor 1 loads B, then stores to A at clock 2: the ownership request
# invalidates processor 0's copies in its d-cache and its L2. Processor 0's
# load of A at clock 3 misses in both, and both misses are true sharing (the
# word it loads was written since), or false sharing when processor 1 wrote
# the line's next word (0x20000004) instead.
printf 'threads 2\nthread 0\nload 4 0x20000000\nload 4 0x20000200\nload 4 0x20000000\nthread 1\nload 4 0x20000100\nstore 4 0x20000000\n' >ts.txt
sed 's/^store 4 0x20000000/store 4 0x20000004/' ts.txt >fs.txt
smait asm ts.txt ts
smait asm fs.txt fs
printf '[system]\nnodes = 1\nprocs_per_node = 2\n[dcache]\nsize = 1K\nassoc = 2\n[l2]\nsize = 4K\nassoc = 4\ninclusion = inclusive\n' >ts.ini
check "golden: an L2 copy invalidated by another's store: true, then false sharing in L17 and L25" bash -c "
    cdat -q -p --miss-classes ts.2 ts.ini && cdat -q -p --miss-classes fs.2 ts.ini &&
    grep -hE '^RxT0L(17|25)' ts.2.cdat_report fs.2.cdat_report" <<'EOF'
RxT0L17: data_classes cold 2 capacity 0 conflict 0 true_sharing 1 false_sharing 0 upgrades 0 mpki 0.0000
RxT0L25: l2_classes cold 2 capacity 0 conflict 0 true_sharing 1 false_sharing 0
RxT0L17: data_classes cold 2 capacity 0 conflict 0 true_sharing 0 false_sharing 1 upgrades 0 mpki 0.0000
RxT0L25: l2_classes cold 2 capacity 0 conflict 0 true_sharing 0 false_sharing 1
--- exit 0
EOF
# Every policy on the random set: the classified run simulates the same
# machine (every other line as without the options); the classes add up to
# the L1 misses (L17 = L01's, L18 = L03's); code_misses add up to L01 + L03,
# code_l2_misses and data_l2_misses to L22's misses (its data part: the
# data misses the L2 missed), code_remote to the remote sources of L02 + L04;
# the L2's classes (L25) to L22's misses, and an exclusive L2 has none.
cat >sums.awk <<'AWK'
function f(name,    i) { for (i = 2; i < NF; i++) if ($i == name) return $(i + 1); return 0 }
$1 == "RxTxL01:" { dm = f("misses") }
$1 == "RxTxL03:" { im = f("misses") }
$1 == "RxTxL02:" || $1 == "RxTxL04:" { rem += f("remote_memory") + f("remote_cache") + f("remote_l3") }
$1 == "RxTxL17:" { dc = $4 + $6 + $8 + $10 + $12 }
$1 == "RxTxL18:" { ic = $4 + $6 + $8 + $10 + $12 }
$1 == "RxTxL22:" { l2m = f("misses") }
$1 == "RxTxL25:" { l2c = $4 + $6 + $8 + $10 + $12; has25 = 1 }
$1 == "RxTxL20:" { code[$2] += $6 }
$1 == "RxTxL21:" { data[$2] += $6 }
END {
    print "classes", (dc == dm && ic == im) ? "ok" : "wrong"
    print "code_misses", (code["code_misses"] == dm + im) ? "ok" : "wrong"
    print "code_remote", (code["code_remote"] == rem) ? "ok" : "wrong"
    print "code_l2_misses", (code["code_l2_misses"] == l2m && l2m > 0) ? "ok" : "wrong"
    print "data_l2_misses", (data["data_l2_misses"] <= l2m && data["data_l2_misses"] > 0 && data["data_misses"] == dm) ? "ok" : "wrong"
    print "l2_classes", (excl ? !has25 : has25 && l2c == l2m) ? "ok" : "wrong"
}
AWK
for incl in non_inclusive inclusive exclusive; do
    check "--miss-classes, --by-code, --by-data with a $incl L2: the same machine, and the sums" bash -c "
        cdat -q -p --set l2.inclusion=$incl --name plain rs.4 j.ini &&
        cdat -q -p --set l2.inclusion=$incl --miss-classes --by-code=1000000 --by-data=1000000 --name mc rs.4 j.ini &&
        diff <(grep -v '^# command\|^# options\|^# attribution\|^R[0-9x]*T[0-9x-]*L\(17\|18\|20\|21\|25\):' rs.4.mc.cdat_report) \
             <(grep -v '^# command\|^# options' rs.4.plain.cdat_report) &&
        awk -v excl=$([ $incl = exclusive ] && echo 1 || echo 0) -f sums.awk rs.4.mc.cdat_report" <<'EOF'
classes ok
code_misses ok
code_remote ok
code_l2_misses ok
data_l2_misses ok
l2_classes ok
--- exit 0
EOF
done
check "--din on a machine of 4 processors" cdat -q --din x.din rs.4 j.ini <<'EOF'
--- stderr
cdat: --din: Dinero IV simulates one processor, and j.ini has 4; give a machine of one (--set system.nodes=1 --set system.procs_per_node=1)
cdat: try 'cdat --help'
--- exit 1
EOF
check "--din with --jobs" cdat -q --din x.din --jobs 2 g.1 g.ini <<'EOF'
--- stderr
cdat: --din with --jobs: it writes one machine's references, as the plain simulation sees them; give one configuration and none of --jobs, --shard, -handle_io, --miss-classes, --miss-trace, --by-code, --by-data, --annotate or slice mode
cdat: try 'cdat --help'
--- exit 1
EOF
check_true "no --din file was left by the refusals" test ! -e x.din
