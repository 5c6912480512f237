# cdat-speedup.sh — cdat --speedup (docs/cdat-report.md, "Speedup"): beside
# each configuration's machine cdat simulates, in the same pass, its machine
# of one processor (one node of one processor, the same caches and [timing],
# every thread mapped to it), and the summary gives the speedup, that
# machine's estimated time over the configuration's. Checked against
# separate runs of the one-processor machine (its estimated time exactly),
# on a single thread (where the two machines see the same misses: 1.0000),
# with --sweep (a twin per value), and every refusal.
smait asm "$CLI_DIR/../../examples/producer-consumer.txt" pc
cp "$CLI_DIR/cdat/timing-2x2.ini" t.ini
uni="--set system.nodes=1 --set system.procs_per_node=1"

# est FILE: the run's estimated time (the summary).
est() { awk '$2 == "summary:" && $3 == "estimated_time" { print $4 }' "$1"; }

# same_as_uni LABEL SET THREADS CFG [ARGS]: --speedup's line against a
# separate run of the one-processor machine and the run's own estimate.
same_as_uni() {
    local label=$1 set=$2 threads=$3 cfg=$4 i map=""
    shift 4
    for ((i = 0; i < threads; i++)); do map="$map --set mapping.thread.$i=0.0"; done
    rm -rf sp one
    mkdir sp one
    cdat -q "$@" --speedup -o sp "$set" "$cfg"
    # shellcheck disable=SC2086  # uni, map: options
    cdat -q "$@" $uni $map -o one "$set" "$cfg"
    local t1 tp line
    t1=$(est "one/$(basename "$set").cdat_report")
    tp=$(est "sp/$(basename "$set").cdat_report")
    line=$(grep '^# summary: speedup ' "sp/$(basename "$set").cdat_report")
    want=$(awk -v a="$t1" -v b="$tp" 'BEGIN { printf "# summary: speedup %.4f one_processor_time %d estimated_time %d", a / b, a, b }')
    check_true "$label: the one-processor machine's estimated time, and the speedup ($line)" [ "$line" = "$want" ]
}

same_as_uni "producer-consumer on 2x2" pc.4 4 t.ini
check_true "… and the report is otherwise the run's without --speedup" bash -c \
    "cdat -q -o one pc.4 t.ini && diff <(grep -v -e '^# command' -e '^# options' -e '^# summary: speedup' sp/pc.4.cdat_report) <(grep -v -e '^# command' -e '^# options' one/pc.4.cdat_report)"
check_true "… whose options line says so" grep -q '^# options: .* speedup yes ' sp/pc.4.cdat_report
cdat_random_set 51 8 800
same_as_uni "a random set of 8 threads on 4x4, with L2s" rs.8 8 4x4 -p --set l2.size=16K \
    --set timing.local_memory=100 --set timing.remote_memory=300 --set timing.remote_cache=250 --set timing.hop=20 \
    --set timing.l2_hit=12

# --sweep: each value's machine has its own one-processor twin.
rm -rf sw
mkdir sw
cdat -q --speedup --sweep timing.remote_memory=300,900 -o sw pc.4 t.ini
ok=1
for v in 300 900; do
    rm -rf one
    mkdir one
    # shellcheck disable=SC2086  # uni: options
    cdat -q $uni --set "timing.remote_memory=$v" $(for i in 0 1 2 3; do echo --set mapping.thread.$i=0.0; done) -o one pc.4 t.ini
    grep -q "^# summary: speedup [0-9.]* one_processor_time $(est one/pc.4.cdat_report) " \
        sw/pc.4.t-timing.remote_memory$v.cdat_report || { echo "remote_memory=$v: not the separate run's"; ok=0; }
done
check_true "--sweep timing.remote_memory=300,900: each configuration's own one-processor machine" [ "$ok" = 1 ]

# One thread on processor 0 of a machine whose pages are all placed on its
# node: both machines see the same references in the same caches, so the
# same misses from the same places, and the speedup is exactly 1.
cdat_random_set 52 1 2000
cdat -q -p --speedup --set system.allocation=first_touch -o sp rs.1 t.ini
check "one thread, every page local: speedup 1" grep '^# summary: speedup' sp/rs.1.cdat_report <<EOF
# summary: speedup 1.0000 one_processor_time $(est sp/rs.1.cdat_report) estimated_time $(est sp/rs.1.cdat_report)
--- exit 0
EOF

# ---- refused ----------------------------------------------------------------------------------
sed '/^\[timing\]/,$d' t.ini >notime.ini
check "--speedup without [timing]" cdat -q --speedup pc.4 notime.ini <<'EOF'
--- stderr
cdat: --speedup compares estimated times, and notime.ini has no [timing] section (configs/README.md)
cdat: try 'cdat --help'
--- exit 1
EOF
for opt in "--jobs 2" "--shard 0/2" "--din d" "--miss-classes" "-handle_io"; do
    # shellcheck disable=SC2086  # opt: an option and its value
    cdat -q --speedup $opt pc.4 t.ini >/dev/null 2>.err
    check_true "--speedup with $opt: refused (exit 1)" test $? = 1
    check_true "… saying why" grep -q "^cdat: --speedup with " .err
done
