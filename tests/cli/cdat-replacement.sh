# cdat-replacement.sh — each cache's replacement policy (the key replacement
# = lru, fifo or random of [dcache], [icache], [interconnect_cache], [l2] and
# [l3]; configs/README.md, docs/cdat-protocol.md §11): a golden run derived
# by hand for each policy, the header lines, the comparison with the
# independent model (tests/tools/two_level.c -r) at three levels, the
# protocol checker on random multi-node sets, --jobs (random's victims
# depend on the set alone), and the bad values.
D=$CLI_DIR/cdat-check

# ---- golden: one fully associative set of 4 lines ----------------------------------------------------
# One processor, d-cache 256 bytes fully associative: 4 lines of 64 bytes,
# one set (the array layout: ways in the policy's order, front first).
# Loads of lines A B C D A E A D B E D (A = 0x20000000, B = A + 0x40, …;
# line addresses a = 0x800000, b = a + 1, …). Every miss brings its line
# exclusive; every eviction of an exclusive line is an update_tag (L15).
#  LRU:    A B C D miss [D C B A]; A hit [A D C B]; E miss, B goes [E A D C];
#          A hit [A E D C]; D hit [D A E C]; B miss, C goes [B D A E]; E hit
#          [E B D A]; D hit. Misses 6, hits 5, evictions 2.
#  FIFO:   a hit moves nothing. A B C D miss [D C B A]; A hit; E miss, A
#          (first in) goes [E D C B]; A miss, B goes [A E D C]; D hit; B
#          miss, C goes [B A E D]; E hit; D hit. Misses 7, hits 4, evictions 3.
#  random: a hit moves nothing; a full set's victim is the way
#          splitmix64-finaliser(line << 32 | front line) mod 4, here: E after
#          front D: way 0; D after front E: way 0; E after front D: way 0.
#          A B C D miss [D C B A]; A hit; E miss, way 0 (D) goes [E C B A];
#          A hit; D miss, way 0 (E) goes [D C B A]; B hit; E miss, way 0 (D)
#          goes [E C B A]; D miss, way 0 (E) goes. Misses 8, hits 3,
#          evictions 4.
{
    echo "threads 1"
    echo "thread 0"
    for x in 0 1 2 3 0 4 0 3 1 4 3; do printf 'load 4 0x%x\n' $((0x20000000 + x * 64)); done
} >g.txt
smait asm g.txt g
printf '[dcache]\nsize = 256\nassoc = full\n' >g.ini
golden() { cdat -p -q --name "$1" --set "dcache.replacement=$1" g.1 g.ini && grep -E '^# dcache:|^RxTxL(01|15):' "g.1.$1.cdat_report"; }
check "golden, LRU: 6 misses (the default's header: the key named or not)" golden lru <<'EOF'
# dcache: size 256 assoc full
RxTxL01: data refs 11 hits 5 45.45% misses 6 54.55% upgrades 0 0.00%
RxTxL15: evictions write_back 0 update_tag 2 silent 0
--- exit 0
EOF
check_true "… the report of the machine without the key, byte for byte (but the --set line)" bash -c \
    "cdat -p -q --name none g.1 g.ini && diff <(grep -v -e '^# command' -e '^# options' -e '^# set:' g.1.lru.cdat_report) <(grep -v -e '^# command' -e '^# options' g.1.none.cdat_report)"
check "golden, FIFO: 7 misses" golden fifo <<'EOF'
# dcache: size 256 assoc full replacement fifo
RxTxL01: data refs 11 hits 4 36.36% misses 7 63.64% upgrades 0 0.00%
RxTxL15: evictions write_back 0 update_tag 3 silent 0
--- exit 0
EOF
check "golden, random: 8 misses" golden random <<'EOF'
# dcache: size 256 assoc full replacement random
RxTxL01: data refs 11 hits 3 27.27% misses 8 72.73% upgrades 0 0.00%
RxTxL15: evictions write_back 0 update_tag 4 silent 0
--- exit 0
EOF
printf '[l2]\nsize = 1K\nreplacement = fifo\ninclusion = inclusive\n[l3]\nsize = 4K\nreplacement = random\n[icache]\nreplacement = fifo\n' >h.ini
check "the header names each non-LRU policy, after the L2's inclusion" bash -c \
    'cdat -p -q --name h g.1 h.ini && grep -E "^# (dcache|icache|l2|l3):" g.1.h.cdat_report' <<'EOF'
# dcache: size 65536 assoc 2
# icache: size 65536 assoc 2 replacement fifo
# l2: size 1024 assoc 8 inclusion inclusive replacement fifo
# l3: size 4096 assoc 16 replacement random
--- exit 0
EOF

# ---- the independent model, at three levels ----------------------------------------------------------
# One processor, random references whose code and data lines are apart (as
# in cdat-l3.sh): every level under FIFO, then under random, against the
# model's same policy; L01, L03, L22 and L23's counts are the model's,
# exactly. (Dinero IV's FIFO, -lN-Xrepl f, is the model's FIFO; its random
# replacement draws from a generator of its own.)
check_true "the model is built ($TWO_LEVEL)" test -x "$TWO_LEVEL"
as_ini() { if [ "$1" = 0 ]; then echo full; else echo "$1"; fi; }
awk -v seed=7 -v threads=1 -v n=8000 -v nocode=1 -f "$D/randset.awk" >r1.txt
smait asm r1.txt r
for policy in fifo random; do
    for geo in "1024 2 512 2 0 0 4096 4" "256 1 256 2 0 0 1024 0" "1024 2 512 2 2048 2 4096 4" \
               "512 1 512 1 1024 4 8192 8" "1024 4 1024 2 2048 0 2048 1"; do
        read -r ds da is ia ls la ts ta <<<"$geo"
        {
            printf '[dcache]\nsize = %s\nassoc = %s\nreplacement = %s\n' "$ds" "$(as_ini "$da")" "$policy"
            printf '[icache]\nsize = %s\nassoc = %s\nreplacement = %s\n' "$is" "$(as_ini "$ia")" "$policy"
            printf '[l2]\nsize = %s\nassoc = %s\nreplacement = %s\n' "$ls" "$(as_ini "$la")" "$policy"
            printf '[l3]\nsize = %s\nassoc = %s\nreplacement = %s\n' "$ts" "$(as_ini "$ta")" "$policy"
        } >one.ini
        cdat -p -q --din r.din r.1 one.ini
        cdat_levels r.1.cdat_report >cdat.txt
        "$TWO_LEVEL" -r "$policy" 64 "$is" "$ia" "$ds" "$da" "$ls" "$la" "$ts" "$ta" r.din >model.txt ||
            echo "the model failed" >>model.txt
        "$TWO_LEVEL" 64 "$is" "$ia" "$ds" "$da" "$ls" "$la" "$ts" "$ta" r.din >lru.txt
        cmp -s model.txt lru.txt || echo "$policy $geo" >>differs.txt
        check "$policy, d $ds/$da i $is/$ia l2 $ls/$la l3 $ts/$ta: cdat's levels are the model's" \
            diff model.txt cdat.txt <<'EOF'
--- exit 0
EOF
    done
done
check "… and each policy's counts differ from LRU's somewhere" bash -c 'cut -d" " -f1 differs.txt | sort -u' <<'EOF'
fifo
random
--- exit 0
EOF

# ---- the protocol checker, and --jobs ----------------------------------------------------------------
# Random sets on 2 nodes of 2 processors, every protocol, every cache under
# FIFO or random, with an inclusive L2 (back-invalidations), an exclusive
# one (victims moving down) and an L3: cdat_check holds.
check_true "the protocol checker is built ($CDAT_CHECK)" test -x "$CDAT_CHECK"
awk -v seed=41 -v threads=4 -v n=2500 -f "$D/randset.awk" >rs.txt
smait asm rs.txt rs
for policy in fifo random; do
    for incl in inclusive exclusive; do
        for protocol in 1 2 3 4 5 6 7 8; do
            {
                printf '[system]\nnodes = 2\nprocs_per_node = 2\nprotocol = %s\n' "$protocol"
                printf '[output]\ndetailed = 1\n'
                printf '[dcache]\nsize = 512\nassoc = 2\nreplacement = %s\n' "$policy"
                printf '[icache]\nsize = 512\nassoc = 2\nreplacement = %s\n' "$policy"
                printf '[interconnect_cache]\nsize = 512\nassoc = 2\nreplacement = %s\n' "$policy"
                printf '[l2]\nsize = 1K\nassoc = 4\ninclusion = %s\nreplacement = %s\n' "$incl" "$policy"
                printf '[l3]\nsize = 2K\nassoc = 4\nreplacement = %s\n' "$policy"
            } >m.ini
            check_true "$policy, L2 $incl, protocol $protocol: cdat_check holds" \
                bash -c "cdat -p -q rs.4 m.ini && '$CDAT_CHECK' --report rs.4.cdat_report rs.4.detailed"
        done
    done
done
# --jobs N splits the sets: a random victim depends on its set alone, so the
# parts' report is the whole run's.
printf '[system]\nnodes = 2\nprocs_per_node = 2\n[dcache]\nsize = 1K\nassoc = 4\nreplacement = random\n' >j.ini
printf '[icache]\nsize = 1K\nassoc = 2\nreplacement = fifo\n[l2]\nsize = 4K\nassoc = 8\nreplacement = random\n' >>j.ini
printf '[l3]\nsize = 8K\nassoc = 4\nreplacement = random\n' >>j.ini
for n in 2 4; do
    check_true "random and FIFO, --jobs $n: the whole run's report" bash -c "
        cdat -q -p --name whole rs.4 j.ini && mkdir -p j$n && cdat -q -p --jobs $n --name whole -o j$n rs.4 j.ini &&
        diff <(grep -v -e '^# command' -e '^# options' rs.4.whole.cdat_report) \
             <(grep -v -e '^# command' -e '^# options' j$n/rs.4.whole.cdat_report)"
done

# ---- bad values --------------------------------------------------------------------------------------
rm -f rs.4.cdat_report
printf '[l2]\nsize = 1K\nreplacement = plru\n' >bad.ini
check "a policy cdat does not have, in a file" cdat -q rs.4 bad.ini <<'EOF'
--- stderr
cdat: bad.ini:3: [l2] replacement: 'plru' must be lru, fifo or random
--- exit 2
EOF
check "… and from --set (names are lower case)" cdat -q --set l3.replacement=FIFO rs.4 j.ini <<'EOF'
--- stderr
cdat: --set l3.replacement=FIFO: [l3] replacement: 'FIFO' must be lru, fifo or random
cdat: try 'cdat --help'
--- exit 1
EOF
check_true "refused runs leave no report behind" test ! -e rs.4.cdat_report
