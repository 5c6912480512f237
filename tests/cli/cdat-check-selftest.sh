# cdat-check-selftest.sh — the protocol checker's own tests: it must fail on
# what breaks the rules, or cdat-protocol-check.sh proves nothing.
#
# 1. Hand-written detailed traces, tests/cli/cdat-check/check-*.txt: each
#    breaks one rule (a few are valid and must pass). Lines starting with '#'
#    are comments; '#! ' gives the checker's options, '#= ' the expected
#    stderr lines and exit status.
# 2. A real run of cdat, then its report and trace corrupted by hand: one
#    count, the average latency, a missing line, a missing header; an inv and
#    its inv_done removed (a holder left beside the new owner), an inv_done
#    removed, a return removed.
D=$CLI_DIR/cdat-check
check_true "the protocol checker is built ($CDAT_CHECK)" test -x "$CDAT_CHECK"

for f in "$D"/check-*.txt; do
    n=$(basename "$f")
    cp "$f" "$n"
    {
        if grep -q '^#= cdat_check' "$n"; then
            echo "--- stderr"
            sed -n 's/^#= \(cdat_check\)/\1/p' "$n"
        fi
        sed -n 's/^#= exit/--- exit/p' "$n"
    } >expected
    # shellcheck disable=SC2046  # the options are words
    check "${n%.txt}" "$CDAT_CHECK" $(sed -n 's/^#! //p' "$n") "$n" <expected
done

# check_fails NAME REGEX CMD...: exit status 2, and the first line of stderr
# matches REGEX (grep -E).
fails_with() {
    local re=$1 status
    shift
    "$@" >/dev/null 2>.err
    status=$?
    if [ "$status" -ne 2 ] || ! head -n 1 .err | grep -Eq -- "$re"; then
        echo "exit status $status (2 expected); the first line must match: $re"
        head -n 5 .err
        return 1
    fi
}
check_fails() {
    local name=$1
    shift
    check_true "$name" fails_with "$@"
}

# A small real run: 2 nodes of 2 processors, protocol 1, interconnect caches.
awk -v seed=5 -v threads=4 -v n=800 -f "$D/randset.awk" >rs.txt
smait asm rs.txt rs
cat >m.ini <<'EOF'
[system]
nodes = 2
procs_per_node = 2
banks_per_node = 2
line_size = 64
protocol = 1
[output]
detailed = 1
[dcache]
size = 1K
assoc = 2
[icache]
size = 512
assoc = 2
[interconnect_cache]
size = 1K
assoc = 2
EOF
cdat -p -q rs.4 m.ini
R=rs.4.cdat_report
T=rs.4.detailed
check "the real run holds" "$CDAT_CHECK" --report $R $T <<'EOF'
--- exit 0
EOF
check "the real run holds without the report" "$CDAT_CHECK" --nodes 2 --ppn 2 --protocol 1 --icc --banks 2 --line-size 64 $T <<'EOF'
--- exit 0
EOF
mkdir z g
cdat -p -q -z -o z rs.4 m.ini
check "a zstd-compressed trace" "$CDAT_CHECK" --report z/$R z/$T.zst <<'EOF'
--- exit 0
EOF
cdat -p -q --gzip -o g rs.4 m.ini
check "a gzip-compressed trace" "$CDAT_CHECK" --report g/$R g/$T.gz <<'EOF'
--- exit 0
EOF

# The report, corrupted: each edit must be found.
corrupt_report() {    # NAME REGEX SED-SCRIPT
    sed -e "$3" $R >bad.cdat_report
    if cmp -s $R bad.cdat_report; then
        check_true "$1: the edit changed the report" false
    else
        check_fails "$1" "$2" "$CDAT_CHECK" --report bad.cdat_report $T
    fi
}
corrupt_report "RxTxL10 transactions + 1" 'RxTxL10: transactions [0-9]+, the trace has' \
    's/^\(RxTxL10: traffic transactions \)\([0-9]*\)/\1\21/'
corrupt_report "RxTxL10 requests" 'RxTxL10: requests [0-9]+, the trace has' \
    's/^\(RxTxL10: traffic transactions [0-9]* requests \)\([0-9]*\)/\1\21/'
corrupt_report "RxTxL10 avg_latency" 'RxTxL10: avg_latency 9\.9999, the trace' \
    's/^\(RxTxL10: .* avg_latency \).*/\19.9999/'
corrupt_report "RxTxL11 count of data_priv" 'RxTxL11: 12 data_priv [0-9]+, the trace has' \
    's/^\(RxTxL11: txn 12 data_priv \)\([0-9]*\)/\1\21/'
corrupt_report "RxTxL11 share of inv" 'RxTxL11: 34 inv 99\.99%, the trace gives' \
    's/^\(RxTxL11: txn 34 inv [0-9]*\) .*/\1 99.99%/'
corrupt_report "RxT1L11 line of read_shar missing" 'no RxT1L11 line of code 01, but the trace has' \
    '/^RxT1L11: txn 01 /d'
corrupt_report "RxT3L10 requests" 'RxT3L10: requests [0-9]+, the trace has' \
    's/^\(RxT3L10: traffic transactions [0-9]* requests \)\([0-9]*\)/\1\21/'
corrupt_report "RxT2L10 missing" 'no RxT2L10 line, but the trace has' \
    '/^RxT2L10:/d'
corrupt_report "no machine header" "no '# machine:' header line" \
    '/^# machine:/d'

# The trace, corrupted (checked without the report, whose counts would differ).
corrupt_trace() {    # NAME REGEX AWK-PROGRAM
    awk "$3" $T >bad.detailed
    if cmp -s $T bad.detailed; then
        check_true "$1: the edit changed the trace" false
    else
        check_fails "$1" "$2" "$CDAT_CHECK" --nodes 2 --ppn 2 --protocol 1 --icc --banks 2 --line-size 64 bad.detailed
    fi
}
# The first sequence with two invs loses the first inv and its inv_done: the
# new owner gets the line while that holder still has it.
corrupt_trace "an inv and its inv_done left out" 'gets ownership \((data_priv|alloc_done)\) while .* still holds the line' '
    { l[NR] = $0; c[NR] = $3 }
    END {
        for (i = 1; i < NR; i++) if (c[i] == "34" && c[i + 1] == "34") break
        for (j = i; j <= NR && c[j] != "53"; j++) ;
        for (k = 1; k <= NR; k++) if (k != i && k != j) print l[k]
    }'
corrupt_trace "an inv_done left out" 'data_priv where inv_done from .* is due|alloc_done where inv_done from .* is due' '
    $3 == "53" && !done { done = 1; next } { print }'
# (Its owner keeps the line in the model: the next request for it meets an owner.)
corrupt_trace "a write_back left out" '(while|which) .* owns? the line' '
    $3 == "21" && !done { done = 1; next } { print }'
corrupt_trace "a data_shar answers a store" 'data_shar where data_priv is due' '
    prev == "03" && $3 == "12" && !done { $3 = "11"; done = 1 } { prev = $3; print }'

check "usage: no trace" "$CDAT_CHECK" --report $R <<'EOF'
--- stderr
cdat_check: expected one detailed trace, got 0 operands
cdat_check: try 'cdat_check --help'
--- exit 1
EOF
check "usage: --report with --nodes" "$CDAT_CHECK" --report $R --nodes 2 $T <<'EOF2'
--- stderr
cdat_check: --report gives the machine: no --nodes, --ppn, --protocol, --icc, --banks, --line-size
cdat_check: try 'cdat_check --help'
--- exit 1
EOF2
