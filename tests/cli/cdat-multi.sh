# cdat-multi.sh — several machines in one pass (cdat trace.P cfg1 cfg2 …,
# --sweep), --set, --name, [mapping] policy and the summary block; and the
# output checks both tools make before reading a record (-o, -t -, ciat
# --events -).
#
# One pass must give each machine the report (apart from its "# command:"
# line) and the traces a separate run gives: checked for every protocol x
# placement on random trace sets (tests/cli/cdat-check/randset.awk, fixed
# seeds; ciat writes the memory usage file rr2 and oracle need), on a set long
# enough for many hand-overs between the reading thread and the machines'
# threads, and in slice mode.
CONFIGS=$CLI_DIR/../../configs

# same_run NAME A B: reports A and B equal but for "# command:"; then the
# traces of the same names.
same_run() {
    local a=$2 b=$3 x
    same_but_command "$1: report" "$a.cdat_report" "$b.cdat_report"
    for x in "$a".general.* "$a".detailed; do
        [ -f "$x" ] && check_same "$1: ${x#"$a".}" "$x" "$b.${x#"$a".}"
    done
}

# every_machine LABEL THREADS CDAT-ARGS: all 32 machines in one pass, then each alone.
every_machine() {
    local label=$1 threads=$2 cfg name
    shift 2
    check "$label: 32 machines in one pass" cdat -q "$@" "rs.$threads" m-*.ini <<'EOF'
--- exit 0
EOF
    for cfg in m-*.ini; do
        name=${cfg%.ini}
        cdat -q "$@" --name single "rs.$threads" "$cfg" || echo "$cfg: the single run failed"
        same_run "$label, $name" "rs.$threads.$name" "rs.$threads.single"
    done
}

cdat_random_set 21 8 1500
cdat_machines 4 2 0 8 traces
every_machine "4x2" 8 -p
cdat_machines 2 4 1K 8 traces
every_machine "2x4 with interconnect caches" 8 -p
every_machine "2x4, slice mode -i 5 -s 50" 8 -i 5 -s 50

# Many batches of events (about 30 per thread): the hand-overs keep the order.
cdat_random_set 22 4 30000
cdat_machines 2 2 0 4 traces
check "a long set: 4 machines in one pass" cdat -p -q rs.4 m-1-rr1.ini m-4-oracle.ini m-6-first_touch.ini \
    m-8-rr2.ini <<'EOF'
--- exit 0
EOF
for name in m-1-rr1 m-4-oracle m-6-first_touch m-8-rr2; do
    cdat -p -q --name single rs.4 "$name.ini" || echo "the single run failed"
    same_run "a long set, $name" "rs.4.$name" rs.4.single
done

# ---- --sweep, --set, --name -----------------------------------------------------------------
cdat_random_set 23 4 1500
check "--sweep: one machine per value, named <cfg>-<section>.<key><value>" bash -c '
    cdat -p -q --sweep system.protocol=1,3,8 rs.4 m-1-rr1.ini && ls rs.4.*.cdat_report' <<'EOF'
rs.4.m-1-rr1-system.protocol1.cdat_report
rs.4.m-1-rr1-system.protocol3.cdat_report
rs.4.m-1-rr1-system.protocol8.cdat_report
--- exit 0
EOF
for p in 1 3 8; do
    cdat -p -q --set system.protocol=$p --name single rs.4 m-1-rr1.ini || echo "the single run failed"
    same_run "--sweep protocol $p = --set system.protocol=$p" "rs.4.m-1-rr1-system.protocol$p" rs.4.single
done
check "--sweep with no file: named set-<section>.<key><value>" bash -c '
    cdat -p -q --set system.procs_per_node=4 --sweep dcache.size=1K,2K rs.4 && ls rs.4.set-*.cdat_report' <<'EOF'
rs.4.set-dcache.size1K.cdat_report
rs.4.set-dcache.size2K.cdat_report
--- exit 0
EOF
# The section is in the name: a sweep of icache.size after one of
# dcache.size writes other files, and leaves the first ones as they were.
check "--sweep of icache.size after dcache.size: other names, the first outputs kept" bash -c '
    cksum rs.4.set-dcache.size1K.cdat_report > before
    cdat -p -q --set system.procs_per_node=4 --sweep icache.size=1K,2K rs.4 && ls rs.4.set-*.cdat_report &&
    cksum rs.4.set-dcache.size1K.cdat_report | cmp - before' <<'EOF'
rs.4.set-dcache.size1K.cdat_report
rs.4.set-dcache.size2K.cdat_report
rs.4.set-icache.size1K.cdat_report
rs.4.set-icache.size2K.cdat_report
--- exit 0
EOF
check "two --sweep options: a usage error, not the first dropped" \
    cdat -p -q --sweep system.protocol=1,2 --sweep dcache.size=1K,2K rs.4 m-1-rr1.ini <<'EOF'
--- stderr
cdat: option --sweep: given twice: a run sweeps one key (several values: --sweep SECTION.KEY=V1,V2,...)
cdat: try 'cdat --help'
--- exit 1
EOF
check "the report names the setting" grep '^# set:' rs.4.m-1-rr1-system.protocol3.cdat_report <<'EOF'
# set: system.protocol=3
--- exit 0
EOF

# A whole machine from the command line: the same figures as from the file.
printf '[system]\nnodes = 2\nprocs_per_node = 2\nprotocol = 5\n[dcache]\nsize = 2K\n' >file.ini
cdat -p -q --name file rs.4 file.ini
check "a machine from --set alone" cdat -p -q --name sets --set system.nodes=2 --set system.procs_per_node=2 \
    --set system.protocol=5 --set dcache.size=2K rs.4 <<'EOF'
--- exit 0
EOF
check "… has the file's figures" bash -c 'diff <(grep -v "^# \(command\|configuration\|set\):" rs.4.file.cdat_report) \
    <(grep -v "^# \(command\|configuration\|set\):" rs.4.sets.cdat_report)' <<'EOF'
--- exit 0
EOF
check "… and says where it came from" grep -E '^# (configuration|set):' rs.4.sets.cdat_report <<'EOF'
# configuration: none (--set only)
# set: system.nodes=2
# set: system.procs_per_node=2
# set: system.protocol=5
# set: dcache.size=2K
--- exit 0
EOF
# --set over a file: the later value wins.
check "--set over the file" bash -c 'cdat -p -q --name over --set system.protocol=2 --set system.protocol=7 \
    rs.4 file.ini && grep "^# protocol:" rs.4.over.cdat_report' <<'EOF'
# protocol: 7 (remote_lines shared exclusive_replacement not_announced direct_transactions yes)
--- exit 0
EOF

rm -f rs.4.*.cdat_report
check "--set with a bad value: the file's message, naming the option" cdat -p -q --set system.protocol=9 rs.4 \
    file.ini <<'EOF'
--- stderr
cdat: --set system.protocol=9: protocol: 9 is out of range (1..8)
cdat: try 'cdat --help'
--- exit 1
EOF
check "--set not SECTION.KEY=VALUE" cdat -p -q --set protocol=3 rs.4 file.ini <<'EOF'
--- stderr
cdat: --set protocol=3: expected SECTION.KEY=VALUE (e.g. system.protocol=3)
cdat: try 'cdat --help'
--- exit 1
EOF
check "--set of a key checked with another" cdat -p -q --set system.line_size=128 \
    --set system.page_size=64 rs.4 file.ini <<'EOF'
--- stderr
cdat: --set system.page_size=64: page_size 64 is smaller than line_size 128
cdat: try 'cdat --help'
--- exit 1
EOF
check "--name with two configurations" cdat -p -q --name x rs.4 file.ini m-1-rr1.ini <<'EOF'
--- stderr
cdat: --name names the outputs of one configuration; with several, each is named after its file
cdat: try 'cdat --help'
--- exit 1
EOF
mkdir other
cp file.ini other/file.ini
check "two configurations of the same name" cdat -p -q rs.4 file.ini other/file.ini <<'EOF'
--- stderr
cdat: two configurations would write the same outputs (name 'file'): give them files of different names
cdat: try 'cdat --help'
--- exit 1
EOF
check "-handle_io with two configurations" cdat -p -q -handle_io rs.4 file.ini m-1-rr1.ini <<'EOF'
--- stderr
cdat: -handle_io with several configurations: the simulated disk waits change the schedule from machine to machine; run each configuration on its own
cdat: try 'cdat --help'
--- exit 1
EOF
printf '[system]\nprotocol = 0\n' >bad.ini
check "a bad configuration among several: nothing written" bash -c '
    cdat -p -q rs.4 file.ini bad.ini; ls rs.4.*.cdat_report 2>/dev/null' <<'EOF'
--- stderr
cdat: bad.ini:2: protocol: 0 is out of range (1..8)
--- exit 2
EOF

# ---- [mapping] policy ---------------------------------------------------------------------------
check "4 threads on 4x4, compact: the header says three nodes are unused" bash -c '
    cdat -p -q --name c --set mapping.policy=compact rs.4 "$0/4x4.ini" && grep "^# mapping: policy" rs.4.c.cdat_report' \
    "$CONFIGS" <<'EOF'
# mapping: policy compact nodes_used 1 of 4 unused_nodes 1,2,3
--- exit 0
EOF
check "spread: round robin over the nodes" bash -c '
    cdat -p -q --name s --set mapping.policy=spread rs.4 "$0/4x4.ini" && grep "^# mapping:" rs.4.s.cdat_report' \
    "$CONFIGS" <<'EOF'
# mapping: policy spread nodes_used 4 of 4
# mapping: thread 0 processor 0 (node 0 proc 0)
# mapping: thread 1 processor 4 (node 1 proc 0)
# mapping: thread 2 processor 8 (node 2 proc 0)
# mapping: thread 3 processor 12 (node 3 proc 0)
--- exit 0
EOF
# The default, balanced: one block of neighbouring threads per node, every node
# used (compact would put 5 threads on 2 of the 4 nodes, and the memory of the
# other two would be remote to all). 5 threads: node k runs threads
# ceil(5k/4) … ceil(5(k+1)/4) - 1, i.e. 0-1, 2, 3, 4.
awk -v seed=9 -v threads=5 -v n=200 -f "$CLI_DIR/cdat-check/randset.awk" >rs5.txt
smait asm rs5.txt rs5
check "balanced, the default: 5 threads on 4x4 use the 4 nodes" bash -c '
    cdat -p -q --name b rs5.5 "$0/4x4.ini" && grep "^# mapping:" rs5.5.b.cdat_report' "$CONFIGS" <<'EOF'
# mapping: policy balanced nodes_used 4 of 4
# mapping: thread 0 processor 0 (node 0 proc 0)
# mapping: thread 1 processor 1 (node 0 proc 1)
# mapping: thread 2 processor 4 (node 1 proc 0)
# mapping: thread 3 processor 8 (node 2 proc 0)
# mapping: thread 4 processor 12 (node 3 proc 0)
--- exit 0
EOF
check "compact: the same 5 threads on 2 of the 4 nodes, and the header says so" bash -c '
    cdat -p -q --name c --set mapping.policy=compact rs5.5 "$0/4x4.ini" && grep "^# mapping: policy" rs5.5.c.cdat_report' \
    "$CONFIGS" <<'EOF'
# mapping: policy compact nodes_used 2 of 4 unused_nodes 2,3
--- exit 0
EOF
check "balanced on a full machine is compact: 16 threads, thread t on processor t" bash -c '
    awk -v seed=3 -v threads=16 -v n=50 -f "$1/cdat-check/randset.awk" >rs16.txt && smait asm rs16.txt rs16 &&
    cdat -p -q --name b rs16.16 "$0/4x4.ini" && cdat -p -q --name c --set mapping.policy=compact rs16.16 "$0/4x4.ini" &&
    diff <(grep -v "^# \(command\|mapping: policy\|set:\)" rs16.16.b.cdat_report) \
         <(grep -v "^# \(command\|mapping: policy\|set:\)" rs16.16.c.cdat_report) && echo same' "$CONFIGS" "$CLI_DIR" <<'EOF'
same
--- exit 0
EOF
check "spread with an entry" bash -c '
    cdat -p -q --name e --set mapping.policy=spread --set mapping.thread.1=0.1 rs.4 "$0/4x4.ini" &&
    grep "^# mapping:" rs.4.e.cdat_report | head -3' "$CONFIGS" <<'EOF'
# mapping: policy spread with [mapping] entries nodes_used 3 of 4 unused_nodes 1
# mapping: thread 0 processor 0 (node 0 proc 0)
# mapping: thread 1 processor 1 (node 0 proc 1)
--- exit 0
EOF

# ---- the summary block: the report's own figures --------------------------------------------------
check "cdat's summary repeats RxTx L01, L03, L02+L04, L10" awk '
    /^# summary: data_refs/ { d = $4; dm = $6; i = $10; im = $12 }
    /^# summary: misses/ { m = $4; lo = $6; re = $9 }
    /^# summary: transactions/ { t = $4; r = $6; c = $10 }
    $1 == "RxTxL01:" { ok += ($4 == d && $10 == dm); dmn = $9 }
    $1 == "RxTxL03:" { ok += ($4 == i && $10 == im); imn = $9 }
    $1 == "RxTxL02:" || $1 == "RxTxL04:" { l += $4; rr += $7 }
    $1 == "RxTxL10:" { ok += ($4 == t && $6 == r && $8 == c) }
    END { print (ok == 3 && l == lo && rr == re && m == dmn + imn) ? "same" : "differs" }' rs.4.s.cdat_report <<'EOF'
same
--- exit 0
EOF
check "ciat's summary repeats RxTx L00, L10, L12, L14, L15, L26" awk '
    /^# summary: records/ { th = $6; ph = $8 }
    /^# summary: raw/ { raw = $4; war = $6; waw = $8; rar = $10; sb = $12 }
    $1 == "RxTxL00:" { ok += ($6 == ph && $12 == th) }
    $1 == "RxTxL10:" { ok += ($3 == raw) }
    $1 == "RxTxL12:" { ok += ($3 == war) }
    $1 == "RxTxL14:" { ok += ($3 == waw) }
    $1 == "RxTxL15:" { ok += ($3 == rar) }
    $1 == "RxTxL26:" { ok += ($3 == sb) }
    END { print ok == 6 ? "same" : "differs" }' rs.4.ciat_report <<'EOF'
same
--- exit 0
EOF

# ---- outputs, checked before the first record ---------------------------------------------------
head -c 100 rs.4.0 >cut.1.0      # a truncated trace: reading it fails
check "ciat -o a missing directory: refused before reading the trace" ciat -q -o nowhere cut.1 <<'EOF'
--- stderr
ciat: -o nowhere: no such directory (it is not created)
--- exit 2
EOF
check "cdat the same" cdat -q -o nowhere cut.1 file.ini <<'EOF'
--- stderr
cdat: -o nowhere: no such directory (it is not created)
--- exit 2
EOF
: >afile
check "-o a file" ciat -q -o afile cut.1 <<'EOF'
--- stderr
ciat: -o afile: not a directory
--- exit 2
EOF
check "-o -: several outputs cannot share standard output" ciat -q -o - rs.4 <<'EOF'
--- stderr
ciat: -o -: the outputs are several files, which cannot all go to one standard output; give a directory
ciat: try 'ciat --help'
--- exit 1
EOF
check "-t -: outputs named after a list with no name" ciat -q -t - <<'EOF'
--- stderr
ciat: -t -: the outputs are named after the trace list, and a list read from standard input has no name; give the list as a file
ciat: try 'ciat --help'
--- exit 1
EOF
check "… nothing named '-'" bash -c 'ls -- -* 2>/dev/null' <<'EOF'
--- exit 2
EOF
ciat -p -q -ciat_events rs.4
check "ciat --events - writes the event trace to standard output" bash -c '
    mkdir ev && ciat -p -q -o ev --events - rs.4 >ev/stdout && cmp ev/stdout rs.4.ciat_events && ls ev' <<'EOF'
rs.4.ciat_report
rs.4.memory
stdout
--- exit 0
EOF
check "… so ciat … --events - | tdat - works" bash -c '
    ciat -p -q -o ev --events - rs.4 | tdat - pipe.time 100 4 >pipe.out && tdat rs.4.ciat_events file.time 100 4 >file.out &&
    cmp pipe.time file.time && diff <(grep -v "^#" pipe.out) <(grep -v "^#" file.out)' <<'EOF'
--- exit 0
EOF
