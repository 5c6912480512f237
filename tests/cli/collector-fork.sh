# collector-fork.sh — a child of fork is not traced (docs/collector.md §7.2):
# it never writes, ends, renames or removes its parent's traces, spill files
# or map, on any route, and the parent's traces are those of the same
# program whose child does no traced work. Programs: tests/cli/collector/
# forked.c (the child stores once and exits) and forkwork.c (a worker thread
# runs across the fork; the child does nothing, fills its buffers more than
# once, executes sh, or executes a traced program under a trace name of its
# own).
collector_setup || return 0
CFG=$CLI_DIR/../../configs/4x4.ini
mkdir spill
export TMPDIR=$PWD/spill
# dump PREFIX: the set's records, times aside.
dump() { smait dump --set "$1" | sed -E '/: tracing /d; s/ @[0-9:]+$//; s/#.*//'; }
# body REPORT: without the header and the calls' times (they are the run's).
body() { grep -v '^#' "$1" | sed -E 's/ time_us [0-9]+/ time_us T/'; }
export -f dump body
export CFG

check "smait-cc builds forked.c and forkwork.c" \
    bash -c 'smait-cc -O1 "$D/forked.c" -o forked && smait-cc -O1 -pthread "$D/forkwork.c" -o forkwork' <<'EOF'
--- exit 0
EOF

# forked.c on every route: the program's output and status, the parent's
# files only (each route in a directory of its own), no spill left. The
# trace's last record is number 16408: the loops' records, a branch over
# each of the four calls of the C library (docs/collector.md §5) and the
# tracing record before end_trace (formats/SMAIT.md §5.2).
check "forked.c: every route gives the parent's set alone, the child's exit leaves it be" bash -c '
    run() { d=$1; shift; mkdir $d && (cd $d && env "$@" TRACE_FILE_NAME=fk SMAIT_QUIET=1 ../forked); echo "$d: exit $? files $(ls $d | tr "\n" " ")"; }
    run normal TRACE_FILE_TYPE=normal
    run thread TRACE_FILE_TYPE=compressed SMAIT_COMPRESSOR=thread
    run inline TRACE_FILE_TYPE=compressed SMAIT_COMPRESSOR=inline
    run suppressed TRACE_FILE_TYPE=suppressed
    run ciat TRACE_FILE_TYPE=to_ciat
    run cdat TRACE_FILE_TYPE=to_cdat CONFIGURATION_FILE_NAME=$CFG
    echo "spill: $(ls spill)"
    for d in normal thread inline; do dump $d/fk.1 | tail -1; done' <<'EOF'
forked: child 0, sum 8386560
normal: exit 0 files fk.1.0 fk.1.map 
forked: child 0, sum 8386560
thread: exit 0 files fk.1.0 fk.1.map 
forked: child 0, sum 8386560
inline: exit 0 files fk.1.0 fk.1.map 
forked: child 0, sum 8386560
suppressed: exit 0 files 
forked: child 0, sum 8386560
ciat: exit 0 files fk.1.ciat_report fk.1.map fk.1.memory 
forked: child 0, sum 8386560
cdat: exit 0 files fk.1.cdat_report fk.1.map 
spill: 
16408: end_trace
16408: end_trace
16408: end_trace
--- exit 0
EOF

# forkwork: the reference run, whose child does nothing.
TRACE_FILE_NAME=ref ./forkwork none > ref.out 2> ref.err
if grep -q 'cannot turn address randomisation off' ref.err; then
    echo "(address randomisation is on here: the same-records checks are skipped)"
    return 0
fi
check "forkwork: the reference (the child does nothing): two traces, the parent's output" \
    bash -c 'cat ref.out ref.err | sed -E "s/[0-9]+ records/N records/"' <<'EOF'
parent: child exit 5, sum 41932800, counter 16384
smait: trace output stored in:
        file ref.2.0 for thread 0
        file ref.2.1 for thread 1
        address map ref.2.map
smait: 2 threads, N records
--- exit 0
EOF
dump ref.2 > ref.txt

# The child fills its buffers (more than 64 K records), takes the worker's
# atomic, a mutex, allocates and runs a thread; or executes sh. On the file
# routes the parent's records and map are the reference's; the summary is
# the parent's alone (one, with the reference's count).
check "forkwork: a child that works or executes sh leaves the parent's traces and map as without it" bash -c '
    for ty in normal compressed:thread compressed:inline; do
        for m in work exec; do
            rm -rf r && mkdir r && (cd r && TRACE_FILE_TYPE=${ty%%:*} SMAIT_COMPRESSOR=${ty#*:} TRACE_FILE_NAME=f ../forkwork $m > out 2> err)
            s=$?
            echo "$ty $m: exit $s, files $(ls r | grep -v "^out$\|^err$" | tr "\n" " ")"
            cat r/out
            grep -c "^smait: 2 threads, $(grep -o "[0-9]* records" ref.err)" r/err
            dump r/f.2 | cmp -s ref.txt - && echo "records: same" || echo "records: DIFFERENT"
            cmp -s ref.2.map r/f.2.map && echo "map: same" || echo "map: DIFFERENT"
        done
    done' <<'EOF'
normal work: exit 0, files f.2.0 f.2.1 f.2.map 
child: sum 1761177600
parent: child exit 5, sum 41932800, counter 16384
1
records: same
map: same
normal exec: exit 0, files f.2.0 f.2.1 f.2.map 
child: sh
parent: child exit 5, sum 41932800, counter 16384
1
records: same
map: same
compressed:thread work: exit 0, files f.2.0 f.2.1 f.2.map 
child: sum 1761177600
parent: child exit 5, sum 41932800, counter 16384
1
records: same
map: same
compressed:thread exec: exit 0, files f.2.0 f.2.1 f.2.map 
child: sh
parent: child exit 5, sum 41932800, counter 16384
1
records: same
map: same
compressed:inline work: exit 0, files f.2.0 f.2.1 f.2.map 
child: sum 1761177600
parent: child exit 5, sum 41932800, counter 16384
1
records: same
map: same
compressed:inline exec: exit 0, files f.2.0 f.2.1 f.2.map 
child: sh
parent: child exit 5, sum 41932800, counter 16384
1
records: same
map: same
--- exit 0
EOF

check "forkwork: suppressed: one summary, the parent's, with the reference's count" bash -c '
    TRACE_FILE_TYPE=suppressed ./forkwork work 2>&1 | sed "s/$(grep -o "[0-9]* records" ref.err)/the reference'"'"'s records/"' <<'EOF'
child: sum 1761177600
smait: traces suppressed: 2 threads, the reference's records
parent: child exit 5, sum 41932800, counter 16384
--- exit 0
EOF

# On the fly: the kept traces are the reference's, the reports equal the
# reference's analysis but for the header and the times the calls took; the
# spill directory is removed.
check "forkwork: to_ciat and to_cdat: the parent's analysis, as without the child's work" bash -c '
    TRACE_FILE_TYPE=to_ciat SMAIT_KEEP_TRACES=1 TRACE_FILE_NAME=oc SMAIT_QUIET=1 ./forkwork work; echo "exit $?"
    dump oc.2 | cmp -s ref.txt - && echo "ciat traces: same" || echo "ciat traces: DIFFERENT"
    ciat -q ref.2 && cmp <(body ref.2.ciat_report) <(body oc.2.ciat_report) && echo "ciat report: same"
    TRACE_FILE_TYPE=to_cdat CONFIGURATION_FILE_NAME=$CFG TRACE_FILE_NAME=od SMAIT_QUIET=1 ./forkwork work; echo "exit $?"
    cdat -q ref.2 "$CFG" && cmp <(body ref.2.cdat_report) <(body od.2.cdat_report) && echo "cdat report: same"
    echo "spill: $(ls spill)"' <<'EOF'
child: sum 1761177600
parent: child exit 5, sum 41932800, counter 16384
exit 0
ciat traces: same
ciat report: same
child: sum 1761177600
parent: child exit 5, sum 41932800, counter 16384
exit 0
cdat report: same
spill: 
--- exit 0
EOF

# A child that executes a traced program: that program is a run of its own,
# with the trace name the child gave it; the parent's set is untouched.
check "forkwork: a child that executes a traced program: two complete sets" bash -c '
    TRACE_FILE_NAME=ex SMAIT_QUIET=1 ./forkwork exectrace own; echo "exit $?"
    dump ex.2 | cmp -s ref.txt - && echo "parent: same" || echo "parent: DIFFERENT"
    smait dump --set own.1 | grep -E "^thread|start_trace|end_trace" | sed -E "s/^[0-9]+: //; s/ +@.*//"
    ls ex.* own.*' <<'EOF'
alone: stored
parent: child exit 5, sum 41932800, counter 16384
exit 0
parent: same
start_trace sync=1
end_trace
ex.2.0
ex.2.1
ex.2.map
own.1.0
own.1.map
--- exit 0
EOF
