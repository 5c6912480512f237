# ciat-properties.sh — property tests: random trace sets (fixed seeds; 2, 4,
# 16, 128 and 300 threads) made by tests/cli/ciat/randset.awk in the text form,
# assembled with smait asm and analysed by ciat; tests/cli/ciat/check-report.awk
# then checks rules that must hold for any input (docs/ciat-report.md, L10–L15: sum k*S[k] = RAW
# in the aggregate, sum I[k] = WAR in every phase; the event trace has one
# line per RAW, WAR, WAW and RAR access; the memory file's columns sum to the
# L20-L36 totals; Tx and Rx lines are the sums of their parts). The sets mix
# loads, stores and atomics of every size over a small address pool, code
# shared by all threads, barriers with arg2 0, critical sections, calls, two
# parallel regions and thread 0's markers, so they have many phases.
D=$CLI_DIR/ciat
. "$D/lib.sh"

# prop P SEED N CIAT-OPTIONS...: a set of P threads, about N records each.
prop() {
    local p=$1 seed=$2 n=$3 name
    shift 3
    name="$p threads, seed $seed${*:+, $*}"
    rm -f rs.*
    awk -v seed="$seed" -v threads="$p" -v n="$n" -f "$D/randset.awk" >rs.txt
    smait asm rs.txt rs
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
