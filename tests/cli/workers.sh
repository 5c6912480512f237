# workers.sh — --workers: ciat and cdat analyse on a thread of their own beside
# the reading and scheduling (common/fanout.h, docs/scheduler.md §14), and
# their outputs are those of the run on one thread, byte for byte but for
# the "# command:" line: checked on random sets (fixed seeds) with calls,
# barriers, critical sections and many phases, long enough for many
# hand-overs of event batches; in thread and slice mode; for cdat also with
# -handle_io, whose calls make threads wait (they run on the scheduling
# thread, after every earlier event); and the option's own checks.
CI=$CLI_DIR/ciat
CD=$CLI_DIR/cdat-check
IO=$CLI_DIR/cdat-iosim

# ciat_both LABEL SET OPTIONS...: ciat on one thread (-o w1) and on two (-o w2).
ciat_both() {
    local label=$1 set=$2
    shift 2
    rm -rf w1 w2
    mkdir w1 w2
    check "$label: ciat --workers 1" ciat -q --workers 1 -o w1 "$@" "$set" <<'EOF'
--- exit 0
EOF
    check "$label: ciat --workers 2" ciat -q --workers 2 -o w2 "$@" "$set" <<'EOF'
--- exit 0
EOF
    same_but_command "$label: the same report" "w1/$set.ciat_report" "w2/$set.ciat_report"
    check_same "$label: the same memory file" "w1/$set.memory" "w2/$set.memory"
    if [ -f "w1/$set.ciat_events" ]; then
        check_same "$label: the same events" "w1/$set.ciat_events" "w2/$set.ciat_events"
    fi
}

# cdat_both LABEL SET CONFIG OPTIONS...: the same for cdat, traces included.
cdat_both() {
    local label=$1 set=$2 cfg=$3 x
    shift 3
    rm -rf w1 w2
    mkdir w1 w2
    check "$label: cdat --workers 1" cdat -q --workers 1 -o w1 "$@" "$set" "$cfg" <<'EOF'
--- exit 0
EOF
    check "$label: cdat --workers 2" cdat -q --workers 2 -o w2 "$@" "$set" "$cfg" <<'EOF'
--- exit 0
EOF
    same_but_command "$label: the same report" "w1/$set.cdat_report" "w2/$set.cdat_report"
    for x in w1/"$set".general.* w1/"$set".detailed; do
        [ -f "$x" ] && check_same "$label: the same ${x#w1/"$set".}" "$x" "w2/${x#w1/}"
    done
}

# ---- ciat: random sets with calls, barriers, critical sections, phases.
rm -f rs.*
awk -v seed=71 -v threads=4 -v n=40000 -f "$CI/randset.awk" >rs.txt
smait asm rs.txt rs
ciat_both "4 threads" rs.4
ciat_both "4 threads, events, false sharing, matrix" rs.4 -ciat_events --false-sharing --comm-matrix
ciat_both "4 threads, -p" rs.4 -p
ciat_both "4 threads, slice mode -i 3 -s 40" rs.4 -i 3 -s 40
rm -f rs.*
awk -v seed=72 -v threads=16 -v n=6000 -f "$CI/randset.awk" >rs.txt
smait asm rs.txt rs
ciat_both "16 threads" rs.16 -ciat_events -grain 8

# ---- cdat: the same rules; the placement needs ciat's memory file.
cat >w.ini <<'EOF'
[system]
nodes = 2
procs_per_node = 2
protocol = 8
allocation = rr2
memory_usage = rs.4.memory
[output]
general = 1
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
rm -f rs.*
awk -v seed=73 -v threads=4 -v n=20000 -f "$CD/randset.awk" >rs.txt
smait asm rs.txt rs
ciat -p -q rs.4
cdat_both "2x2, protocol 8" rs.4 w.ini -p
cdat_both "2x2, protocol 3, miss classes" rs.4 w.ini -p --set system.protocol=3 --miss-classes
cdat_both "2x2, slice mode -i 3 -s 50" rs.4 w.ini -i 3 -s 50

# -handle_io: a call makes its thread wait, so it runs on the scheduling thread.
smait asm "$IO/blocked.txt" blocked
cdat_both "-handle_io, blocked reads" blocked.2 "$IO/2x2.ini" -p -handle_io --disk-latency 1

# ---- the option itself
check "--workers 0 is refused" ciat --workers 0 rs.4 <<'EOF'
--- stderr
ciat: option --workers: 0 is out of range (1..4096)
ciat: try 'ciat --help'
--- exit 1
EOF
check "--workers x is refused" cdat --workers x rs.4 w.ini <<'EOF'
--- stderr
cdat: option --workers: 'x' is not a non-negative integer
cdat: try 'cdat --help'
--- exit 1
EOF
rm -rf w1 w2 w.ini rs.* blocked.*
