# cdat-lru.sh — on a machine of one node and one processor, cdat's data and
# instruction counts must equal those of a plain LRU cache model written
# only for this test: tests/cli/cdat-io/lru.awk, which reads the interleaving
# printed by `smait schedule --fetches` (every instruction fetch and every
# memory access, in the order cdat simulates them) and keeps an LRU list per
# set of a d-cache and an i-cache of the configured size, ways and line size.
# Compared, per phase and for the whole run (RnTx and RxTx):
#   L01/L03  refs, hits, misses, upgrades (0: with one processor a load miss
#            gets its line exclusive, so a store never finds a shared line)
#   L02/L04  every miss is satisfied from the local memory
#   L15      evictions: dirty data victims written back, clean ones announced
#            (update_tag) or silent as the protocol says, i-cache victims silent
#
# The trace sets are random (tests/cli/ciat/randset.awk, fixed seeds): loads,
# stores and atomics of 0-64 bytes (some spanning two lines: two references;
# an atomic is one reference per line, as a store), with code at 0x10000-0x11fff and data at
# 0x20000000 and above. Code and data lines must be disjoint: cdat's
# processor drops an exclusive or dirty d-cache victim from its own i-cache
# too, and serves an i-fetch miss from its own d-cache when the line is there
# (docs/cdat-protocol.md, "References that need no transaction" and
# "Replacements"), where two independent caches would not; the model reports
# any line used both ways ("overlap N"), which fails the comparison.
#
# Geometries: the shipped configs/1x1.ini; direct-mapped, 2-, 4-, 8-, 64-way
# and fully associative caches; line sizes 4 to 256 bytes; caches of one line
# and of a few lines to force evictions; all 8 protocols (on one processor
# they differ only in announcing clean victims); one thread, and several
# threads sharing the one processor ([mapping]).
D=$CLI_DIR/cdat-io
. "$D/lib.sh"
R=$CLI_DIR/ciat/randset.awk

# cdat_lines REPORT: cdat's L01-L04 and L15 lines of the phases and the
# whole run (RnTx, RxTx) without the percentages.
cdat_lines() {
    awk '/^R[0-9x]+TxL(0[1-4]|15):/ {
        o = ""
        for (i = 1; i <= NF; i++) if ($i !~ /%$/) o = o (o == "" ? "" : " ") $i
        print o
    }' "$1"
}

# lru NAME THREADS SEED N LINE DSIZE DASSOC ISIZE IASSOC PROTOCOL [OPTIONS...]:
# a random set of THREADS threads (about N records each) on a 1x1 machine
# with a d-cache of DSIZE bytes in DASSOC ways and an i-cache of ISIZE bytes
# in IASSOC ways (full = fully associative), lines of LINE bytes; every
# thread runs on processor 0. OPTIONS go to cdat and smait schedule alike.
lru() {
    local name=$1 p=$2 seed=$3 n=$4 line=$5 dsize=$6 dassoc=$7 isize=$8 iassoc=$9 proto=${10} t
    shift 10
    rm -f lru.*
    awk -v seed="$seed" -v threads="$p" -v n="$n" -f "$R" >lru.txt
    smait asm lru.txt lru
    {
        printf '[system]\nline_size = %s\npage_size = 4K\nprotocol = %s\n' "$line" "$proto"
        printf '[dcache]\nsize = %s\nassoc = %s\n[icache]\nsize = %s\nassoc = %s\n' "$dsize" "$dassoc" "$isize" "$iassoc"
        echo '[mapping]'
        for ((t = 0; t < p; t++)); do echo "thread.$t = 0.0"; done
    } >lru.ini
    run_lru "$name" "$p" lru.ini "$line" "$dsize" "$dassoc" "$isize" "$iassoc" "$proto" "$@"
}

# run_lru NAME THREADS CFG LINE DSIZE DASSOC ISIZE IASSOC PROTOCOL [OPTIONS...]:
# cdat on lru.THREADS with CFG, compared with the model.
run_lru() {
    local name=$1 p=$2 cfg=$3 line=$4 dsize=$5 dassoc=$6 isize=$7 iassoc=$8 proto=$9 announced=0
    shift 9
    case $proto in 1|2|6|8) announced=1 ;; esac
    [ "$dassoc" = full ] && dassoc=0
    [ "$iassoc" = full ] && iassoc=0
    check "$name: cdat runs" cdat "$@" "lru.$p" "$cfg" <<'EOF'
--- exit 0
EOF
    smait schedule --fetches "$@" "lru.$p" |
        awk -v line="$(size_bytes "$line")" -v dsize="$(size_bytes "$dsize")" -v dassoc="$dassoc" \
            -v isize="$(size_bytes "$isize")" -v iassoc="$iassoc" -v announced="$announced" \
            -f "$D/lru.awk" >model.txt
    cdat_lines "lru.$p.cdat_report" >cdat.txt
    check "$name: cdat's counts = the LRU model's" diff model.txt cdat.txt <<'EOF'
--- exit 0
EOF
}

# size_bytes 64K -> 65536
size_bytes() {
    case $1 in
        *K) echo $(( ${1%K} * 1024 )) ;;
        *M) echo $(( ${1%M} * 1048576 )) ;;
        *) echo "$1" ;;
    esac
}

# evicts NAME: the last comparison had data and instruction misses and
# evictions (write-backs too), so the small caches are really exercised.
evicts() {
    check "$1: many misses and evictions" awk '
        /^RxTxL01:/ { dm = $8 } /^RxTxL03:/ { im = $8 }
        /^RxTxL15:/ { wb = $4; ev = $4 + $6 + $8 }
        END { print (dm >= 100 && im >= 100 && wb >= 50 && ev >= 200 ? "yes" : "no: " dm " " im " " wb " " ev) }' model.txt <<'EOF'
yes
--- exit 0
EOF
}

# ---- a trace followed by hand (tests/cli/cdat-io/lru-hand.txt) ----------------------------
smait asm "$D/lru-hand.txt" hand
printf '[system]\nline_size = 16\nprotocol = %s\n[dcache]\nsize = 32\nassoc = 2\n[icache]\nsize = 16\nassoc = full\n' 1 >hand1.ini
printf '[system]\nline_size = 16\nprotocol = %s\n[dcache]\nsize = 32\nassoc = 2\n[icache]\nsize = 16\nassoc = full\n' 3 >hand3.ini
hand_model() {   # hand_model ANNOUNCED: the model on the hand trace
    smait schedule --fetches hand.1 |
        awk -v line=16 -v dsize=32 -v dassoc=2 -v isize=16 -v iassoc=0 -v announced="$1" -f "$D/lru.awk"
}
cdat hand.1 hand1.ini
check "by hand, protocol 1: cdat" cdat_lines hand.1.cdat_report <<'EOF'
R1TxL01: data refs 9 hits 3 misses 6 upgrades 0
R1TxL02: data_miss_src local 6 remote 0 local_memory 6 local_cache 0 remote_memory 0 remote_cache 0
R1TxL03: instr refs 9 hits 6 misses 3 upgrades 0
R1TxL04: instr_miss_src local 3 remote 0 local_memory 3 local_cache 0 remote_memory 0 remote_cache 0
R1TxL15: evictions write_back 2 update_tag 2 silent 2
RxTxL01: data refs 9 hits 3 misses 6 upgrades 0
RxTxL02: data_miss_src local 6 remote 0 local_memory 6 local_cache 0 remote_memory 0 remote_cache 0
RxTxL03: instr refs 9 hits 6 misses 3 upgrades 0
RxTxL04: instr_miss_src local 3 remote 0 local_memory 3 local_cache 0 remote_memory 0 remote_cache 0
RxTxL15: evictions write_back 2 update_tag 2 silent 2
--- exit 0
EOF
cdat_lines hand.1.cdat_report >hand1.expected
check "by hand, protocol 1: the model" diff hand1.expected <(hand_model 1) <<'EOF'
--- exit 0
EOF
cdat hand.1 hand3.ini
check "by hand, protocol 3 (clean victims not announced): cdat" grep -E '^R.TxL15' hand.1.cdat_report <<'EOF'
R1TxL15: evictions write_back 2 update_tag 0 silent 4
RxTxL15: evictions write_back 2 update_tag 0 silent 4
--- exit 0
EOF
check "by hand, protocol 3: the model" diff <(cdat_lines hand.1.cdat_report) <(hand_model 0) <<'EOF'
--- exit 0
EOF

# The model refuses a set whose code and data share a line (the test's
# assumption): proc 0x100 fetches 0x100-0x10c, the loads use the same line.
printf 'threads 1\nthread 0\nproc 0x100\nload 4 0x104\nload 4 0x200\n' >overlap.txt
smait asm overlap.txt overlap
check "the model reports a line used as code and data" bash -c \
    'smait schedule --fetches overlap.1 | awk -v line=16 -v dsize=32 -v dassoc=2 -v isize=16 -v iassoc=0 -v announced=1 -f "$0" | head -1' \
    "$D/lru.awk" <<'EOF'
overlap 1
--- exit 0
EOF

# ---- random sets ----------------------------------------------------------------------------
# The shipped baseline as it is (64K 2-way caches, 64-byte lines, protocol 1).
awk -v seed=101 -v threads=1 -v n=20000 -f "$R" >lru.txt
smait asm lru.txt lru
run_lru "configs/1x1.ini" 1 "$CLI_DIR/../../configs/1x1.ini" 64 64K 2 64K 2 1

#   NAME                                  P SEED  N     LINE DSIZE DASSOC ISIZE IASSOC PROTO
lru "direct-mapped, 16-byte lines"        1 102  20000  16   256   1      512   1      3
evicts "direct-mapped"
lru "2-way, 32-byte lines"                1 103  20000  32   1K    2      1K    2      2
evicts "2-way"
lru "4-way, 64-byte lines"                1 104  20000  64   2K    4      1K    4      4
evicts "4-way"
lru "8-way, 256-byte lines"               1 105  20000  256  4K    8      2K    8      7
lru "64-way (2 sets), 32-byte lines"      1 106  20000  32   4K    64     2K    64     8
lru "fully associative, 8-byte lines"     1 107  20000  8    256   full   128   full   5
evicts "fully associative, 8-byte lines"
lru "fully associative, 128-byte lines"   1 108  20000  128  8K    full   4K    full   1
lru "one 4-byte line per cache"           1 109  5000   4    4     1      4     1      6
evicts "one 4-byte line"
lru "one 64-byte line, fully associative" 1 110  5000   64   64    full   64    full   2
lru "large caches: cold misses only"      1 111  20000  64   1M    4      1M    full   1
check "large caches: no evictions" grep '^RxTxL15' model.txt <<'EOF'
RxTxL15: evictions write_back 0 update_tag 0 silent 0
--- exit 0
EOF
# Several threads on the one processor (every thread.N = 0.0): the model
# sees their references in the interleaved order cdat runs them.
lru "4 threads on one processor, -p"      4 112  5000   32   512   2      512   2      1 -p
evicts "4 threads, -p"
lru "3 threads on one processor, phases"  3 113  5000   16   1K    4      256   1      3
lru "16 threads, 4-way, --gap-limit 64"   16 114 1000   64   1K    4      1K    4      4 --gap-limit 64
