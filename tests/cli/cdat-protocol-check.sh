# cdat-protocol-check.sh — random trace sets through cdat under every protocol
# (1-8) and every page placement (rr1, rr2, oracle, first_touch), each detailed
# trace replayed by the protocol checker (tests/tools/cdat_check.c, built by
# make check as $CDAT_CHECK): the forms of docs/cdat-protocol.md, the coherence invariants
# (at most one owner, no sharer beside it, returns from the owner) and the
# report's transaction counts (RxTxL10/L11, RxT<p>L10/L11).
#
# The sets come from tests/cli/cdat-check/randset.awk (fixed seeds); ciat runs
# on each first and writes the memory usage file that rr2 and oracle need.
# The machines have several nodes and processors and small caches (1K 2-way
# data, 512-byte instruction), so lines are evicted, written back and recalled
# from stale owners; two have interconnect caches, one maps two threads to a
# processor. Finally the runs together must show every transaction the
# protocols can produce here (none of 05/06/14: no I/O), so that the checker
# cannot pass by checking nothing.
D=$CLI_DIR/cdat-check
check_true "the protocol checker is built ($CDAT_CHECK)" test -x "$CDAT_CHECK"

# One run: cdat, then the checker on its detailed trace and report.
run_checked() {    # CFG PREFIX
    cdat -p -q "$2" "$1" && "$CDAT_CHECK" --report "$2.cdat_report" "$2.detailed"
}

# What a run showed, for the coverage checks: "P CODE" per code seen, "P icc"
# when an interconnect cache got an inv, "P remote_excl" when a 02 got a
# data_priv (12) or c2c_data_priv (42) for a line of another node.
seen() {    # PROTOCOL PPN DETAILED
    awk -v p="$1" -v ppn="$2" '
        { seen[$3] = 1 }
        $3 == "02" { rn = $5; h = $7 }
        $3 == "12" && last == "02" && $7 != $5 { seen["remote_excl"] = 1 }
        $3 == "42" && $7 != h { seen["remote_excl"] = 1 }
        $3 == "34" && $6 == ppn { seen["icc"] = 1 }
        { last = $3 }
        END { for (k in seen) print p, k }' "$3"
}

# machine NAME NODES PPN BANKS LINE ICC THREADS SEED [MAPPING-LINE...]
machine() {
    local name=$1 nodes=$2 ppn=$3 banks=$4 line=$5 icc=$6 threads=$7 seed=$8
    shift 8
    rm -f rs.*
    awk -v seed="$seed" -v threads="$threads" -v n=1500 -f "$D/randset.awk" >rs.txt
    smait asm rs.txt rs
    ciat -p -q "rs.$threads"
    for protocol in 1 2 3 4 5 6 7 8; do
        for alloc in rr1 rr2 oracle first_touch; do
            {
                printf '[system]\nnodes = %s\nprocs_per_node = %s\nbanks_per_node = %s\n' "$nodes" "$ppn" "$banks"
                printf 'line_size = %s\nprotocol = %s\nallocation = %s\n' "$line" "$protocol" "$alloc"
                case $alloc in rr2|oracle) printf 'memory_usage = rs.%s.memory\n' "$threads" ;; esac
                printf '[output]\ndetailed = 1\n[dcache]\nsize = 1K\nassoc = 2\n[icache]\nsize = 512\nassoc = 2\n'
                printf '[interconnect_cache]\nsize = %s\nassoc = 2\n[mapping]\n' "$icc"
                for m in "$@"; do echo "$m"; done
            } >m.ini
            check "$name, protocol $protocol, $alloc: cdat runs and cdat_check holds" \
                run_checked m.ini "rs.$threads" <<'EOF'
--- exit 0
EOF
            [ -f "rs.$threads.detailed" ] && seen "$protocol" "$ppn" "rs.$threads.detailed" >>seen.txt
        done
    done
}

: >seen.txt
machine "4x2" 4 2 2 64 0 8 11
machine "4x2 with interconnect caches" 4 2 2 64 2K 8 12
machine "2x4, 32-byte lines, interconnect caches" 2 4 4 32 1K 8 13
machine "3x3, 10 threads (two on processor 4)" 3 3 3 64 0 10 14 "thread.9 = 1.1"

# Coverage: each protocol's runs show what its switches allow (docs/cdat-protocol.md).
# Slice mode (-i): processes move between processors, so each cache sees
# other processes' lines; the invariants and the Tx counts still hold.
rm -f rs.*
awk -v seed=15 -v threads=8 -v n=1500 -f "$D/randset.awk" >rs.txt
smait asm rs.txt rs
for protocol in 1 2 3 4 5 6 7 8; do
    printf '[system]\nnodes = 4\nprocs_per_node = 2\nprotocol = %s\n[output]\ndetailed = 1\n' "$protocol" >s.ini
    printf '[dcache]\nsize = 1K\nassoc = 2\n[icache]\nsize = 512\nassoc = 2\n[interconnect_cache]\nsize = 2K\nassoc = 2\n' >>s.ini
    for mode in "-i 5 -s 50" "-i 3 -a -s 20" "-i 8 -rr_interleaving -s 30"; do
        check "slice mode $mode, protocol $protocol: cdat runs and cdat_check holds" \
            sh -c "cdat -q $mode rs.8 s.ini && \"$CDAT_CHECK\" --report rs.8.cdat_report rs.8.detailed" <<'EOF'
--- exit 0
EOF
    done
done

for protocol in 1 2 3 4 5 6 7 8; do
    want="01 02 03 04 11 12 13 21 22 32 33 34 53 54"
    case $protocol in 1|5|7|8) want="$want 31 41 42 43 51 52" ;; *) want="$want 31 56" ;; esac
    case $protocol in 1|2|6|8) want="$want 23" ;; *) want="$want 55" ;; esac
    case $protocol in 1|4|5|6) want="$want remote_excl" ;; esac
    missing=""
    for w in $want; do grep -qx "$protocol $w" seen.txt || missing="$missing $w"; done
    check "protocol $protocol: the runs show:$want" echo "missing:${missing:- nothing}" <<'EOF'
missing: nothing
--- exit 0
EOF
done
check "an interconnect cache gets an inv in some run" grep -q ' icc$' seen.txt <<'EOF'
--- exit 0
EOF
