# cdat-speedup.sh — cdat --speedup (docs/cdat-report.md, "Speedup"): after
# each configuration's machine cdat simulates, in a second pass over the
# traces, its machine of one processor (one node of one processor, the same
# caches and [timing], every thread on it), which runs the threads in turns
# as one processor does (--turns, docs/scheduler.md §14), and the summary
# gives the speedup, that machine's estimated time over the configuration's.
# Checked against separate runs of the one-processor machine with --turns
# (its estimated time exactly), by hand on a set whose threads together
# overflow the cache (the turns' length decides the misses), on a single
# thread (where the two machines see the same misses: 1.0000), with --sweep
# (a machine per value), with miss classes and attribution (the machine's
# only: the same speedup as without them), and every refusal.
smait asm "$CLI_DIR/../../examples/producer-consumer.txt" pc
cp "$CLI_DIR/cdat/timing-2x2.ini" t.ini
uni="--set system.nodes=1 --set system.procs_per_node=1"

# est FILE: the run's estimated time (the summary).
est() { awk '$2 == "summary:" && $3 == "estimated_time" { print $4 }' "$1"; }

# same_as_uni LABEL SET CFG TURN [ARGS]: --speedup's line (with --speedup-turn
# TURN, or none when TURN is "default": 1000000) against a separate run of the
# one-processor machine in turns of TURN and the run's own estimate.
same_as_uni() {
    local label=$1 set=$2 cfg=$3 turn=$4 opt=()
    shift 4
    [ "$turn" = default ] && turn=1000000 || opt=(--speedup-turn "$turn")
    rm -rf sp one
    mkdir sp one
    cdat -q "$@" --speedup "${opt[@]}" -o sp "$set" "$cfg"
    # shellcheck disable=SC2086  # uni: options
    cdat -q "$@" $uni --turns "$turn" -o one "$set" "$cfg"
    local t1 tp line
    t1=$(est "one/$(basename "$set").cdat_report")
    tp=$(est "sp/$(basename "$set").cdat_report")
    line=$(grep '^# summary: speedup ' "sp/$(basename "$set").cdat_report")
    want=$(awk -v a="$t1" -v b="$tp" -v v="$turn" 'BEGIN {
        printf "# summary: speedup %.4f one_processor_time %d estimated_time %d one_processor_turn %d", a / b, a, b, v }')
    check_true "$label: the one-processor machine's estimated time, and the speedup ($line)" [ "$line" = "$want" ]
}

same_as_uni "producer-consumer on 2x2" pc.4 t.ini default
check_true "… and the report is otherwise the run's without --speedup" bash -c \
    "cdat -q -o one pc.4 t.ini && diff <(grep -v -e '^# command' -e '^# options' -e '^# summary: speedup' sp/pc.4.cdat_report) <(grep -v -e '^# command' -e '^# options' one/pc.4.cdat_report)"
check_true "… whose options line says so" grep -q '^# options: .* speedup yes ' sp/pc.4.cdat_report
same_as_uni "producer-consumer on 2x2, turns of 3 (switches inside the barriers' and locks' phases)" pc.4 t.ini 3
cdat_random_set 51 8 800
for turn in default 50; do
    same_as_uni "a random set of 8 threads on 4x4, with L2s, turns $turn" rs.8 4x4 "$turn" -p --set l2.size=16K \
        --set timing.local_memory=100 --set timing.remote_memory=300 --set timing.remote_cache=250 --set timing.hop=20 \
        --set timing.l2_hit=12
done

# Miss classes and attribution are the configuration's machine's only (the
# machine of one processor has none): with them, the speedup line is the one
# of the run without them, and their lines, the miss trace and the annotated
# listing are the run's without --speedup.
tm=(-p --set l2.size=16K --set timing.local_memory=100 --set timing.remote_memory=300 --set timing.hop=20)
attr=(--miss-classes --by-code --by-data --annotate)
rm -rf sp one plain
mkdir sp one plain
cdat -q "${tm[@]}" --speedup -o one rs.8 4x4
cdat -q "${tm[@]}" --speedup "${attr[@]}" --miss-trace sp/m.trace -o sp rs.8 4x4
cdat -q "${tm[@]}" "${attr[@]}" --miss-trace plain/m.trace -o plain rs.8 4x4
check_true "--speedup with --miss-classes, --by-code, --by-data, --annotate and --miss-trace: the speedup of the run without them" \
    [ "$(grep '^# summary: speedup ' sp/rs.8.cdat_report)" = "$(grep '^# summary: speedup ' one/rs.8.cdat_report)" ]
check_true "… the classes and attribution (L17, L18, L20, L21) are there" \
    bash -c "grep -q '^RxT.L17:' sp/rs.8.cdat_report && grep -q '^RxTxL18:' sp/rs.8.cdat_report && grep -q '^RxTxL20:' sp/rs.8.cdat_report && grep -q '^RxTxL21:' sp/rs.8.cdat_report"
check_true "… and the report is otherwise the run's without --speedup" bash -c \
    "diff <(grep -v -e '^# command' -e '^# options' -e '^# summary: speedup' sp/rs.8.cdat_report) <(grep -v -e '^# command' -e '^# options' plain/rs.8.cdat_report)"
check_true "… and so are the miss trace and the annotated listing" \
    bash -c "cmp sp/m.trace plain/m.trace && cmp sp/rs.8.cdat_annotated plain/rs.8.cdat_annotated"

# By hand: 8 threads, each reading its own 32 lines twice (2 KiB, lines of
# 64 bytes), on one processor whose d-cache holds 4 KiB (64 lines, fully
# associative, LRU). In turns of at least 64 instructions a thread reads both
# rounds in one turn: 32 misses, then 32 hits; 8 x 32 = 256 misses. In turns
# of 1 the eight threads' 256 lines pass through the 64-line cache between a
# thread's two reads of a line: every read misses, 512. Each miss is from
# local memory (100) with 2 critical transactions (2 x 20): 140 cycles; the
# estimated time is the 512 instructions plus the misses' stalls.
awk 'BEGIN { print "threads 8"; for (t = 0; t < 8; t++) { print "thread " t;
    for (r = 0; r < 2; r++) for (i = 0; i < 32; i++) printf "load 8 0x%x\n", 1048576 * (t + 1) + 64 * i } }' >sw.txt
smait asm sw.txt sw
fa="--set dcache.size=4K --set dcache.assoc=full"
for tm in 1:512 32:512 64:256 1000000:256; do
    turn=${tm%:*} misses=${tm#*:}
    rm -rf one
    mkdir one
    # shellcheck disable=SC2086  # uni, fa: options
    cdat -q -p $uni $fa --turns "$turn" -o one sw.8 t.ini
    check "one processor in turns of $turn: $misses misses" grep -e '^# summary: misses' -e '^# summary: estimated' one/sw.8.cdat_report <<EOF
# summary: misses $misses local $misses 100.00% remote 0 0.00%
# summary: estimated_time $((512 + 140 * misses)) busy 512 stall $((140 * misses))
--- exit 0
EOF
done
check_true "… the header says how the threads ran" grep -qx '# turns: one processor, round robin, turn_length 1000000' one/sw.8.cdat_report
printf '[system]\nnodes = 2\nprocs_per_node = 4\n' >8.ini
sed -n '/^\[timing\]/,$p' t.ini >>8.ini
# shellcheck disable=SC2086  # fa: options
cdat -q -p $fa --speedup -o sp sw.8 8.ini
check "--speedup on 2x4: the one-processor time of turns of 1000000 (256 misses)" grep '^# summary: speedup' sp/sw.8.cdat_report <<EOF
# summary: speedup $(awk -v e="$(est sp/sw.8.cdat_report)" 'BEGIN { printf "%.4f", 36352 / e }') one_processor_time 36352 estimated_time $(est sp/sw.8.cdat_report) one_processor_turn 1000000
--- exit 0
EOF
# shellcheck disable=SC2086  # fa: options
cdat -q -p $fa --speedup --speedup-turn 1 -o sp sw.8 8.ini
check_true "--speedup-turn 1: the thrashing processor's 512 misses (72192 cycles)" \
    grep -q '^# summary: speedup [0-9.]* one_processor_time 72192 .* one_processor_turn 1$' sp/sw.8.cdat_report

# --sweep: each value's machine has its own one-processor twin.
rm -rf sw
mkdir sw
cdat -q --speedup --sweep timing.remote_memory=300,900 -o sw pc.4 t.ini
ok=1
for v in 300 900; do
    rm -rf one
    mkdir one
    # shellcheck disable=SC2086  # uni: options
    cdat -q $uni --turns 1000000 --set "timing.remote_memory=$v" -o one pc.4 t.ini
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
# summary: speedup 1.0000 one_processor_time $(est sp/rs.1.cdat_report) estimated_time $(est sp/rs.1.cdat_report) one_processor_turn 1000000
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
for opt in "--jobs 2" "--shard 0/2" "--din d" "-handle_io" "-i 2"; do
    # shellcheck disable=SC2086  # opt: an option and its value
    cdat -q --speedup $opt pc.4 t.ini >/dev/null 2>.err
    check_true "--speedup with $opt: refused (exit 1)" test $? = 1
    check_true "… saying why" grep -q "^cdat: --speedup with " .err
done
check "--speedup-turn without --speedup" cdat -q --speedup-turn 10 pc.4 t.ini <<'EOF'
--- stderr
cdat: --speedup-turn sets the turns of --speedup's machine of one processor: give --speedup too (or --turns V to run the configuration's own machine of one processor in turns)
cdat: try 'cdat --help'
--- exit 1
EOF
printf '%s\n' - >one.list
cdat -q --speedup -t one.list t.ini <rs.1.0 2>.err
check_true "--speedup on standard input: refused (exit 1)" test $? = 1
check "… saying why" cat .err <<'EOF'
cdat: --speedup reads the traces twice (its machine of one processor runs them in an order of its own): not from standard input ('-')
cdat: try 'cdat --help'
--- exit 0
EOF
check "--turns on a machine of 4 processors" cdat -q --turns 10 pc.4 t.ini <<'EOF'
--- stderr
cdat: --turns runs the threads one at a time, as one processor does, and t.ini has 4 processors; give a machine of one (--set system.nodes=1 --set system.procs_per_node=1), or compare with one by --speedup
cdat: try 'cdat --help'
--- exit 1
EOF
# shellcheck disable=SC2086  # uni: options
check "--turns with feedback" cdat -q $uni --turns 10 --set timing.mode=feedback pc.4 t.ini <<'EOF'
--- stderr
cdat: --turns with [timing] mode = feedback: one processor's time is its instructions and stalls added up, which mode = accounting gives; run --turns with it
cdat: try 'cdat --help'
--- exit 1
EOF
sed '/^\[timing\]/,$d' t.ini >io.ini
# shellcheck disable=SC2086  # uni: options
check "--turns with -handle_io" cdat -q $uni --turns 10 -handle_io pc.4 io.ini <<'EOF'
--- stderr
cdat: --turns with -handle_io: a thread that waits for the disk would give the processor to another, which turns do not model; run -handle_io without --turns
cdat: try 'cdat --help'
--- exit 1
EOF
check_true "refused runs leave no report behind" test ! -e pc.4.cdat_report
