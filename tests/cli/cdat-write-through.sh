# cdat-write-through.sh — a write-through d-cache ([dcache] write_policy =
# through, configs/README.md, docs/cdat-protocol.md §12): a golden run derived
# by hand, the header line, write_policy = back as the default, the
# comparison with the independent model (tests/tools/two_level.c -w, Dinero
# IV's -l1-dwback n) at two and three levels with the L2's miss classes, the
# protocol checker on random multi-node sets, --jobs and --shard, [timing]
# (a store through prices nothing) and the bad configurations.
D=$CLI_DIR/cdat-check

# ---- golden: one processor, a non-inclusive L2 -------------------------------------------------------
# d-cache 128 bytes direct-mapped: 2 sets (set 0: even lines, set 1: odd);
# L2 256 bytes of 4 ways: one set, LRU (below most recent first, * dirty).
# Lines A = 0x20000040, C = 0x200000c0, E = 0x20000140 (odd); B 0x20000080,
# D 0x20000100, F 0x20000180, G 0x20000200, H 0x20000280, I 0x20000300
# (even). One node: every miss that leaves the processor is local memory,
# 03 (store) or 02 (load, granted exclusive) answered by 12. The d-cache's
# copies are never dirty; every store also writes the L2 (L22 writes).
# 1 st A: d and L2 miss, 03; L2 [A], then the store's write: [A*], d1 A.
# 2 st A: a d-cache hit; the write: an L2 hit. 3 ld C: 02; [C A*]; d1 C, its
# victim A is clean: dropped (the L2 holds it). 4 st C: hit, write: [C* A*].
# 5 ld B, 6 ld D: [D B C* A*], d0 D. 7 ld E: the L2's victim A* is in no L1:
# it leaves with write_back (21); [E D B C*]; d1 E. 8 st C: a d-cache miss
# the L2 serves (source l2), then the write (a hit): [C* E D B], d1 C clean.
# 9 ld F: the L2's victim B leaves, update_tag (23); [F C* E D]. 10 ld G:
# victim D leaves (23). 11 ld H: victim E leaves (23); [H G F C*].
# 12 ld I: the L2's victim C* is still in d1: the processor keeps it, its data
# home as flush (24); [I H G F]. 13 st C: a d-cache hit whose write misses
# the L2: it takes a line, dirty, whose victim F leaves (23): [C* I H G].
# L01 13 refs, hits 2 4 13; L22 10 refs (the d-cache misses), hit 8, writes
# 1 2 4 8 13 (a miss: 13), write_backs 7 (A) 12 (the flush); L15 write_back
# 1, update_tag 4 (9 10 11 13); 9 requests + 9 data_priv + 1 + 4 + 1 = 24.
cat >g.txt <<'EOF'
threads 1
thread 0
store 4 0x20000040
store 4 0x20000040
load 4 0x200000c0
store 4 0x200000c0
load 4 0x20000080
load 4 0x20000100
load 4 0x20000140
store 4 0x200000c0
load 4 0x20000180
load 4 0x20000200
load 4 0x20000280
load 4 0x20000300
store 4 0x200000c0
EOF
smait asm g.txt g
wt_machine() {    # WRITE_POLICY INCLUSION
    printf '[dcache]\nsize = 128\nassoc = 1\nwrite_policy = %s\n[icache]\nsize = 128\nassoc = 1\n' "$1"
    printf '[l2]\nsize = 256\nassoc = 4\ninclusion = %s\n' "$2"
}
wt_machine through non_inclusive >g.ini
check "golden: write-through d-cache, non-inclusive L2" \
    bash -c 'cdat -p -q g.1 g.ini && grep -E "^RxTxL(0[12]|10|15|22):|^# dcache" g.1.cdat_report' <<'EOF'
# dcache: size 128 assoc 1 write_policy through
RxTxL01: data refs 13 hits 3 23.08% misses 10 76.92% upgrades 0 0.00%
RxTxL02: data_miss_src local 9 90.00% remote 0 0.00% local_memory 9 90.00% local_cache 0 0.00% remote_memory 0 0.00% remote_cache 0 0.00% l2 1 10.00%
RxTxL10: traffic transactions 24 requests 9 avg_latency 2.0000
RxTxL15: evictions write_back 1 update_tag 4 silent 0
RxTxL22: l2 refs 10 hits 1 10.00% misses 9 90.00% upgrades 0 0.00% writes 5 write_misses 1 write_backs 2 back_invalidations 0
--- exit 0
EOF
check "… its sequences: the write-back of A, the update_tags, C's flush" \
    bash -c 'cdat -p -q --set output.detailed=1 --name d g.1 g.ini && awk "\$3 >= 21" g.1.d.detailed' <<'EOF'
7 536870976 21 0 0 0 0
9 536871040 23 0 0 0 0
10 536871168 23 0 0 0 0
11 536871232 23 0 0 0 0
12 536871104 24 0 0 0 0
13 536871296 23 0 0 0 0
--- exit 0
EOF

# inclusive: 1-6 as above. 7 ld E: the L2's victim A* is back-invalidated
# (in no L1) and leaves, 21; [E D B C*]. 8 st C: as above, [C* E D B].
# 9 ld F: victim B (in no L1) leaves, 23. 10 ld G: D leaves, 23. 11 ld H: E
# leaves, 23. 12 ld I: victim C* is back-invalidated in d1 and leaves with
# its dirty data, write_back (21). 13 st C: a d-cache and L2 miss (03); its
# victim F leaves (23); the write hits: [C* I H G].
# L01 13 refs, hits 2 4; L22 11 refs, hit 8; writes 1 2 4 8 13, no miss;
# write_backs 7 12; back_invalidations 1 (C at 12); L15 write_back 2,
# update_tag 4; 10 requests + 10 data + 2 + 4 = 26.
wt_machine through inclusive >gi.ini
check "golden: write-through d-cache, inclusive L2" \
    bash -c 'cdat -p -q --name i g.1 gi.ini && grep -E "^RxTxL(01|10|15|22):" g.1.i.cdat_report' <<'EOF'
RxTxL01: data refs 13 hits 2 15.38% misses 11 84.62% upgrades 0 0.00%
RxTxL10: traffic transactions 26 requests 10 avg_latency 2.0000
RxTxL15: evictions write_back 2 update_tag 4 silent 0
RxTxL22: l2 refs 11 hits 1 9.09% misses 10 90.91% upgrades 0 0.00% writes 5 write_misses 0 write_backs 2 back_invalidations 1
--- exit 0
EOF
wt_machine back non_inclusive >gb.ini
check "write_policy = back is the default: the report without the key, byte for byte" bash -c '
    cdat -p -q --name b g.1 gb.ini && sed "/^write_policy/d" gb.ini >gn.ini && cdat -p -q --name n g.1 gn.ini &&
    diff <(grep -v -e "^# command" -e "^# configuration" g.1.b.cdat_report) \
         <(grep -v -e "^# command" -e "^# configuration" g.1.n.cdat_report) && grep "^# dcache" g.1.b.cdat_report' <<'EOF'
# dcache: size 128 assoc 1
--- exit 0
EOF

# ---- the independent model: two and three levels -------------------------------------------------
# One processor, random references whose code and data lines are apart
# (nocode=1, docs/cdat-protocol.md §9): L01, L03, L22 (its writes are the
# stores) and L23 are the model's under -w, exactly, and the L2's miss
# classes (L25) its Hill's rule; under every replacement policy.
check_true "the model is built ($TWO_LEVEL)" test -x "$TWO_LEVEL"
as_ini() { if [ "$1" = 0 ]; then echo full; else echo "$1"; fi; }
for seed in 3 4; do
    awk -v seed="$seed" -v threads=1 -v n=8000 -v nocode=1 -f "$D/randset.awk" >r1.txt
    smait asm r1.txt "r$seed"
    for geo in "lru 1024 2 512 2 4096 4 0 0" "lru 256 1 256 2 1024 0 0 0" "fifo 1024 2 512 2 2048 2 8192 4" \
               "random 512 1 512 1 1024 4 8192 8" "lru 1024 4 1024 2 2048 1 4096 0"; do
        read -r policy ds da is ia ls la ts ta <<<"$geo"
        {
            printf '[dcache]\nsize = %s\nassoc = %s\nwrite_policy = through\nreplacement = %s\n' \
                "$ds" "$(as_ini "$da")" "$policy"
            printf '[icache]\nsize = %s\nassoc = %s\nreplacement = %s\n' "$is" "$(as_ini "$ia")" "$policy"
            printf '[l2]\nsize = %s\nassoc = %s\nreplacement = %s\n' "$ls" "$(as_ini "$la")" "$policy"
            [ "$ts" = 0 ] || printf '[l3]\nsize = %s\nassoc = %s\nreplacement = %s\n' "$ts" "$(as_ini "$ta")" "$policy"
        } >one.ini
        three=()
        [ "$ts" = 0 ] || three=("$ts" "$ta")
        cdat -p -q --din r.din "r$seed.1" one.ini
        cdat_levels "r$seed.1.cdat_report" >cdat.txt
        classes=()
        if [ "$policy" = lru ]; then
            classes=(-c)
            cdat -p -q --miss-classes --name mc "r$seed.1" one.ini
            awk '/^RxTxL25:/ { print "l2_classes cold", $4, "capacity", $6, "conflict", $8 }' \
                "r$seed.1.mc.cdat_report" >cls.txt
            # the model prints its classes after the L2's line, before the L3's
            awk 'NR == FNR { c = $0; next } { print } /^l2 / { print c }' cls.txt cdat.txt >both.txt
            mv both.txt cdat.txt
        fi
        "$TWO_LEVEL" -r "$policy" -w "${classes[@]}" 64 "$is" "$ia" "$ds" "$da" "$ls" "$la" "${three[@]}" r.din \
            >model.txt || echo "the model failed" >>model.txt
        "$TWO_LEVEL" -r "$policy" 64 "$is" "$ia" "$ds" "$da" "$ls" "$la" "${three[@]}" r.din >back.txt
        cmp -s <(grep -v l2_classes model.txt) back.txt || echo "$geo" >>differs.txt
        check "seed $seed, $policy, d $ds/$da i $is/$ia l2 $ls/$la l3 $ts/$ta: cdat's levels are the model's" \
            diff model.txt cdat.txt <<'EOF'
--- exit 0
EOF
    done
done
check "… and write-through's counts differ from write-back's on every geometry" bash -c 'wc -l <differs.txt' <<'EOF'
10
--- exit 0
EOF
check "… the writes reaching the L2 are the stores, one per line (seed 4, the last geometry: din label 1)" bash -c '
    awk "\$1 == 1 { n++ } END { print n }" r.din; awk "/^RxTxL22:/ { print \$15 }" r4.1.cdat_report' <<'EOF'
4190
4190
--- exit 0
EOF

# ---- the protocol checker, --jobs, --shard ---------------------------------------------------------
# Random sets on 2 nodes of 2 processors, every protocol, with and without
# an interconnect cache, both L2 policies a write-through d-cache allows,
# and an L3: cdat_check holds (sharing, upgrades, recalls and invalidations
# of lines whose only dirty copy is in the L2).
check_true "the protocol checker is built ($CDAT_CHECK)" test -x "$CDAT_CHECK"
awk -v seed=43 -v threads=4 -v n=2500 -f "$D/randset.awk" >rs.txt
smait asm rs.txt rs
: >seen.txt
for incl in non_inclusive inclusive; do
    for protocol in 1 2 3 4 5 6 7 8; do
        for icc in 0 512; do
            {
                printf '[system]\nnodes = 2\nprocs_per_node = 2\nprotocol = %s\n[output]\ndetailed = 1\n' "$protocol"
                printf '[dcache]\nsize = 512\nassoc = 2\nwrite_policy = through\n[icache]\nsize = 512\nassoc = 2\n'
                printf '[interconnect_cache]\nsize = %s\nassoc = 2\n' "$icc"
                printf '[l2]\nsize = 1K\nassoc = 2\ninclusion = %s\n[l3]\nsize = 2K\nassoc = 4\n' "$incl"
            } >m.ini
            check_true "$incl, protocol $protocol, interconnect cache $icc: cdat runs and cdat_check holds" \
                bash -c "cdat -p -q rs.4 m.ini && '$CDAT_CHECK' --report rs.4.cdat_report rs.4.detailed"
            awk -v i="$incl" '$3 == "24" { f = 1 } END { if (f) print i, "flush" }' rs.4.detailed >>seen.txt
            awk -v i="$incl" '$1 == "RxTxL22:" { for (k = 3; k < NF; k++) v[$k] = $(k + 1)
                if (v["upgrades"] > 0) print i, "upgrades"; if (v["back_invalidations"] > 0) print i, "back_invalidations"
                if (v["write_misses"] > 0) print i, "write_misses" }
                $1 == "RxTxL01:" && $12 > 0 { print i, "d-cache upgrades" }' rs.4.cdat_report >>seen.txt
        done
    done
done
check "the random runs show what a write-through d-cache meets" bash -c 'sort -u seen.txt' <<'EOF'
inclusive back_invalidations
inclusive d-cache upgrades
inclusive upgrades
non_inclusive d-cache upgrades
non_inclusive flush
non_inclusive upgrades
non_inclusive write_misses
--- exit 0
EOF
{
    printf '[system]\nnodes = 2\nprocs_per_node = 2\n[dcache]\nsize = 1K\nassoc = 1\nwrite_policy = through\n'
    printf '[icache]\nsize = 1K\nassoc = 1\n[l2]\nsize = 4K\nassoc = 8\n[l3]\nsize = 8K\nassoc = 4\n'
} >j.ini
for n in 2 4; do
    check_true "--jobs $n: the whole run's report" bash -c "
        cdat -q -p --name whole rs.4 j.ini && mkdir -p j$n && cdat -q -p --jobs $n --name whole -o j$n rs.4 j.ini &&
        diff <(grep -v '^# command' rs.4.whole.cdat_report) <(grep -v '^# command' j$n/rs.4.whole.cdat_report)"
done
check_true "--shard I/2 and --merge: the whole run's report" bash -c "
    mkdir -p s && for i in 0 1; do cdat -q -p --shard \$i/2 --name whole -o s rs.4 j.ini || exit 1; done &&
    cdat --merge s/rs.4.whole.cdat_partial.*-of-2 &&
    diff <(grep -v '^# command' rs.4.whole.cdat_report) <(grep -v '^# command' s/rs.4.whole.cdat_report)"

# ---- [timing]: a store's write into the L2 costs no stall ------------------------------------------
# The golden run with l2_hit = 14, local_memory = 100, hop = 10: busy is a
# cycle per reference (the trace has no other instructions); the stall is
# the 9 misses from memory (100 + 2 hops each: 120) and the one the L2
# served (14): 1094; the 5 writes add nothing (a store buffer takes them).
check "[timing]: the writes through price nothing" bash -c '
    cdat -p -q --name t --set timing.l2_hit=14 --set timing.local_memory=100 --set timing.hop=10 g.1 g.ini &&
    awk "/^RxTxL19:/ { print \$3, \$4, \$5, \$6 }" g.1.t.cdat_report' <<'EOF'
busy 13 stall 1094
--- exit 0
EOF

# ---- bad configurations --------------------------------------------------------------------------
rm -f rs.4.cdat_report
printf '[dcache]\nsize = 1K\nwrite_policy = through\n' >bad.ini
check "write-through without an L2" cdat -q rs.4 bad.ini <<'EOF'
--- stderr
cdat: bad.ini:3: [dcache] write_policy = through: the machine has no L2 ([l2] size = 0); a write-through d-cache writes into its processor's L2 (docs/cdat-protocol.md §12)
--- exit 2
EOF
printf '[l2]\nsize = 4K\ninclusion = exclusive\n[dcache]\nwrite_policy = through\n' >bad.ini
check "write-through with an exclusive L2" cdat -q rs.4 bad.ini <<'EOF'
--- stderr
cdat: bad.ini:5: [dcache] write_policy = through: an exclusive L2 does not hold the d-cache's lines, so it cannot take their stores; use [l2] inclusion = inclusive or non_inclusive
--- exit 2
EOF
printf '[dcache]\nwrite_policy = write_back\n' >bad.ini
check "a policy that is not back or through" cdat -q rs.4 bad.ini <<'EOF'
--- stderr
cdat: bad.ini:2: [dcache] write_policy: 'write_back' must be back or through
--- exit 2
EOF
printf '[l2]\nsize = 4K\nwrite_policy = through\n' >bad.ini
check "the L2 has no write_policy (its data goes home through the directory)" cdat -q rs.4 bad.ini <<'EOF'
--- stderr
cdat: bad.ini:3: [l2]: unknown key 'write_policy' (size, assoc, replacement, inclusion)
--- exit 2
EOF
check "… and from --set" cdat -q --set dcache.write_policy=through rs.4 bad.ini <<'EOF'
--- stderr
cdat: bad.ini:3: [l2]: unknown key 'write_policy' (size, assoc, replacement, inclusion)
--- exit 2
EOF
check "--set dcache.write_policy=through with no L2" cdat -q --set dcache.write_policy=through rs.4 <<'EOF'
--- stderr
cdat: --set dcache.write_policy=through: [dcache] write_policy = through: the machine has no L2 ([l2] size = 0); a write-through d-cache writes into its processor's L2 (docs/cdat-protocol.md §12)
cdat: try 'cdat --help'
--- exit 1
EOF
check_true "refused runs leave no report behind" test ! -e rs.4.cdat_report
