# ciat-properties.sh — property tests: random trace sets (fixed seeds; 2, 4,
# 16, 128 and 300 threads) made by tests/cli/ciat/randset.awk in the text form,
# assembled with smait asm and analysed by ciat; tests/cli/ciat/check-report.awk
# then checks rules that must hold for any input (docs/ciat-report.md, L10–L15: sum k*S[k] = RAW
# in the aggregate, sum I[k] = WAR in every phase; the event trace has one
# line per RAW, WAR, WAW and RAR access; the memory file's columns sum to the
# L20-L36 totals; Tx and Rx lines are the sums of their parts). The sets mix
# loads, stores and atomics of every size over a small address pool, code
# shared by all threads, barriers with arg2 0, critical sections, calls, two
# parallel regions and thread 0's markers, so they have many phases. L10-L15
# are also replayed by an independent model (tests/cli/ciat/comm-model.awk).
D=$CLI_DIR/ciat
. "$D/lib.sh"

# randset P SEED N: the random set rs.P (randset.awk: P threads, about N
# records each), in place of the last one.
randset() {
    rm -f rs.*
    awk -v seed="$2" -v threads="$1" -v n="$3" -f "$D/randset.awk" >rs.txt
    smait asm rs.txt rs
}

# prop P SEED N CIAT-OPTIONS...: a set of P threads, about N records each.
prop() {
    local p=$1 seed=$2 n=$3 name
    shift 3
    name="$p threads, seed $seed${*:+, $*}"
    randset "$p" "$seed" "$n"
    check "$name: ciat runs" ciat -ciat_events "$@" "rs.$p" <<'EOF'
--- exit 0
EOF
    check "$name: sum rules, events, memory file" \
        awk -v threads="$p" -f "$D/check-report.awk" "rs.$p.ciat_report" "rs.$p.ciat_events" "rs.$p.memory" <<'EOF'
--- exit 0
EOF
    check "$name: several phases" awk '/^R[0-9]+TxL00:/ { n++ } END { print (n >= 5 ? "yes" : "only " n) }' "rs.$p.ciat_report" <<'EOF'
yes
--- exit 0
EOF
}

prop 2 11 20000
prop 2 12 20000 -grain 1
prop 4 41 20000
prop 4 42 20000 -grain 8 -page_size 1024
prop 16 161 5000
prop 16 162 5000 -grain 64 -HPUX
prop 128 1281 1500
prop 128 1282 1500 -p -grain 16 -page_size 64
prop 300 3001 300                    # more than 256 threads: reader sets of more than 4 words

# The same input gives byte-identical outputs (README.md, "Exit status and messages").
awk -v seed=163 -v threads=16 -v n=5000 -f "$D/randset.awk" >rs.txt
smait asm rs.txt rs
ciat -ciat_events rs.16
mkdir first
mv rs.16.ciat_report rs.16.ciat_events rs.16.memory first/
ciat -ciat_events rs.16
for f in ciat_report ciat_events memory; do
    check_same "16 threads, seed 163: a second run writes the same .$f" "first/rs.16.$f" "rs.16.$f"
done

# L10-L15 against an independent model (tests/cli/ciat/comm-model.awk,
# replayed on `smait schedule`'s order and written apart from ciat): every
# location an access covers sees it, whatever its size and alignment (the
# sets have accesses of every size from 0 to 64 bytes, aligned or not), at
# grains 1 to 64.
prop_comm() {
    local p=$1 seed=$2 n=$3 grain=$4 name
    shift 4
    name="L10-L15 as the model's, $p threads, seed $seed, grain $grain${*:+, $*}"
    randset "$p" "$seed" "$n"
    ciat -grain "$grain" "$@" "rs.$p"
    smait schedule "$@" "rs.$p" 2>/dev/null | awk -v grain="$grain" -v threads="$p" -f "$D/comm-model.awk" >model.txt
    grep -E '^RxT[0-9]+L1[0-5]:' "rs.$p.ciat_report" | sed 's/ *$//' >got.txt
    check_same "$name" model.txt got.txt
}

prop_comm 2 31 20000 4
prop_comm 2 32 20000 1
prop_comm 4 33 20000 8
prop_comm 4 34 20000 16 -p
prop_comm 16 35 5000 64
prop_comm 16 36 5000 2 -p
prop_comm 128 37 1500 4 -p

# The communication matrix (--comm-matrix, L16 comm and L17 inval): on random
# sets, row t of comm sums to t's RAW and row t of inval to sum k*I[k] of t in
# every block, Tx and Rx lines are the sums of their parts
# (tests/cli/ciat/check-matrix.awk); and the option only adds lines: without
# it the report is the same but for those lines and the header.
prop_matrix() {
    local p=$1 seed=$2 n=$3 name
    shift 3
    name="comm matrix, $p threads, seed $seed${*:+, $*}"
    randset "$p" "$seed" "$n"
    check "$name: ciat runs" ciat --comm-matrix "$@" "rs.$p" <<'EOF'
--- exit 0
EOF
    check "$name: row sums, Tx and Rx sums" awk -v threads="$p" -f "$D/check-matrix.awk" "rs.$p.ciat_report" <<'EOF'
--- exit 0
EOF
    grep -v -e '^R[0-9x]*T[0-9x]*L1[67]: ' -e '^# command: ' -e '^# comm_matrix: ' "rs.$p.ciat_report" >with.txt
    ciat "$@" "rs.$p"
    grep -v -e '^# command: ' "rs.$p.ciat_report" >without.txt
    check_same "$name: the other lines do not change" without.txt with.txt
}

prop_matrix 2 21 20000
prop_matrix 4 43 20000 -grain 1
prop_matrix 16 164 5000 -grain 64
prop_matrix 128 1283 1500 -p
prop_matrix 300 3002 300

# True and false sharing (--false-sharing, L18): on random sets, per thread,
# cold + true_sharing + false_sharing equals the misses of an infinite-cache
# model replayed by tests/cli/ciat/cache-model.awk on `smait schedule`'s order
# (written apart from ciat), with the same cold misses and upgrades; phase,
# Tx and Rx lines sum up (tests/cli/ciat/check-lines.awk); and the other
# lines do not change.
prop_lines() {
    local p=$1 seed=$2 n=$3 line=$4 name
    shift 4
    name="false sharing, $p threads, seed $seed, line $line${*:+, $*}"
    randset "$p" "$seed" "$n"
    check "$name: ciat runs" ciat --line-size "$line" "$@" "rs.$p" <<'EOF'
--- exit 0
EOF
    local sched=() o
    for o in "$@"; do [ "$o" = -p ] && sched+=(-p); done      # the options that change the order
    smait schedule "${sched[@]}" "rs.$p" 2>/dev/null | awk -v line="$line" -f "$D/cache-model.awk" >model.txt
    check "$name: misses, cold misses and upgrades as the model's; sums" \
        awk -v line="$line" -f "$D/check-lines.awk" model.txt "rs.$p.ciat_report" <<'EOF'
--- exit 0
EOF
    grep -v -e '^R[0-9x]*T[0-9x]*L1[89]: ' -e '^RxTxL4[0-4]: ' -e '^# command: ' -e '^# false_sharing: ' "rs.$p.ciat_report" >with.txt
    ciat "$@" "rs.$p"
    grep -v -e '^# command: ' "rs.$p.ciat_report" >without.txt
    check_same "$name: the other lines do not change" without.txt with.txt
}

prop_lines 2 22 20000 64
prop_lines 4 44 20000 32 -grain 1
prop_lines 4 45 20000 16
prop_lines 16 165 5000 64 -grain 8
prop_lines 128 1284 1500 128 -p

# The heatmap (--matrix-svg): one cell per non-zero pair of the run's L16
# lines, its hover title "t reads u: N" with the report's count, 4-pixel
# cells at 128 threads (the picture 582 px across the matrix, labels every 16).
awk -v seed=1285 -v threads=128 -v n=1500 -f "$D/randset.awk" >rs.txt
rm -f rs.*[0-9]
smait asm rs.txt rs
ciat --matrix-svg rs.svg rs.128
check "heatmap, 128 threads: the cells are the report's RxT L16 pairs" bash -c '
    diff <(awk "/^RxT[0-9]+L16:/ { t = \$1; sub(/^RxT/, \"\", t); sub(/L16:/, \"\", t)
                for (i = 3; i <= NF; i++) { split(\$i, kv, \":\"); print t \" reads \" kv[1] \": \" kv[2] } }" rs.128.ciat_report | sort) \
         <(sed -n "s/.*<title>\(.*\)<\/title>.*/\1/p" rs.svg | sort)
    grep -c "<title>" rs.svg | awk "{ print (\$1 > 1000 ? \"many cells\" : \"few cells: \" \$1) }"
    grep -o "width=\"4\" height=\"4\"" rs.svg | head -1
    grep -c "text-anchor=\"end\">" rs.svg' <<'EOF'
many cells
width="4" height="4"
8
--- exit 0
EOF
