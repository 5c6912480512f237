# collector-onthefly.sh — TRACE_FILE_TYPE=to_ciat / to_cdat (docs/collector.md
# §7.1): the run ends with the analyser's outputs, named by TRACE_FILE_NAME,
# and no trace files. With SMAIT_KEEP_TRACES=1 the same run's traces are kept,
# so its on-the-fly reports can be compared with the analysis of those files:
# equal but for the header (which names the spill directory). Programs:
# examples/mat_mul.c (threads), examples/omp_heat.c (OpenMP) and
# tests/cli/collector/contend.c (12 threads contending for two locks, one of
# them running far ahead while holding a lock the others wait for).
D=$CLI_DIR/collector
EX=$CLI_DIR/../../examples
CFG=$CLI_DIR/../../configs/4x4.ini
export SMAIT_CLANG=${SMAIT_CLANG:-}
[ -n "$SMAIT_CLANG" ] || unset SMAIT_CLANG
# Spill directories go here, so that the checks can see they are removed.
mkdir spill
export TMPDIR=$PWD/spill

body() { grep -v '^#' "$1"; }
counts() { sed -E 's/[0-9]+ records/N records/'; }
export -f body counts

check "smait-cc builds mat_mul and contend" \
    bash -c 'smait-cc -O1 -pthread "$0/mat_mul.c" -o mat_mul && smait-cc -O1 -pthread "$1/contend.c" -o contend' \
    "$EX" "$D" <<'EOF'
--- exit 0
EOF

check "to_ciat: the program's output and status; the report, memory file and map beside TRACE_FILE_NAME; no traces, no spill left" \
    bash -c 'mkdir out && TRACE_FILE_NAME=out/m TRACE_FILE_TYPE=to_ciat ./mat_mul 2> m.err; s=$?; counts < m.err; ls out; ls spill; exit $s' <<'EOF'
mat_mul: C[31][30] = 61
smait: 5 threads, N records: running ciat
smait: ciat wrote out/m.5.ciat_report
m.5.ciat_report
m.5.map
m.5.memory
--- exit 0
EOF

check "to_ciat with SMAIT_KEEP_TRACES (and plain spill files): the traces of the run are kept as NAME.P.t" \
    bash -c 'TRACE_FILE_NAME=k TRACE_FILE_TYPE=to_ciat SMAIT_SPILL=normal SMAIT_KEEP_TRACES=1 SMAIT_QUIET=1 ./mat_mul; ls k.*; ls spill' <<'EOF'
mat_mul: C[31][30] = 61
k.5.0
k.5.1
k.5.2
k.5.3
k.5.4
k.5.ciat_report
k.5.map
k.5.memory
--- exit 0
EOF
mkdir files
check_true "SMAIT_SPILL=normal: the kept traces are plain" bash -c 'smait stat k.5.1 | grep -qx "compressed no"'
ciat -q -o files k.5
body files/k.5.ciat_report > expected.txt; body k.5.ciat_report > actual.txt
check_file "to_ciat: the report equals ciat's on the same run's trace files (header aside)" \
    expected.txt actual.txt
check_same "to_ciat: the memory file equals ciat's" files/k.5.memory k.5.memory

# Options reach the analyser.
TRACE_FILE_NAME=g TRACE_FILE_TYPE=to_ciat SMAIT_KEEP_TRACES=1 SMAIT_QUIET=1 \
    SMAIT_ANALYSER_OPTIONS="--grain 8  -ciat_events" ./mat_mul > /dev/null
ciat -q -o files --grain 8 -ciat_events g.5
body files/g.5.ciat_report > expected.txt; body g.5.ciat_report > actual.txt
check_file "SMAIT_ANALYSER_OPTIONS: --grain 8 -ciat_events as given to ciat" \
    expected.txt actual.txt
check_true "SMAIT_ANALYSER_OPTIONS: the options are in the report's command line" \
    grep -q '^# command: ciat -o \. --grain 8 -ciat_events .*/g\.5$' g.5.ciat_report
body files/g.5.ciat_events > expected.txt; body g.5.ciat_events > actual.txt
check_same "SMAIT_ANALYSER_OPTIONS: the events file of -ciat_events (its header aside)" expected.txt actual.txt

check "-o in SMAIT_ANALYSER_OPTIONS: the outputs go there, and the summary says so" \
    bash -c 'mkdir other && TRACE_FILE_NAME=w TRACE_FILE_TYPE=to_ciat SMAIT_ANALYSER_OPTIONS="-o other" ./mat_mul 2> w.err; s=$?; counts < w.err; ls other; exit $s' <<'EOF'
mat_mul: C[31][30] = 61
smait: 5 threads, N records: running ciat
smait: ciat wrote other/w.5.ciat_report
w.5.ciat_report
w.5.memory
--- exit 0
EOF

check "to_cdat: the machine from CONFIGURATION_FILE_NAME" \
    bash -c 'TRACE_FILE_NAME=c TRACE_FILE_TYPE=to_cdat CONFIGURATION_FILE_NAME="$0" SMAIT_KEEP_TRACES=1 ./mat_mul 2> c.err; s=$?; counts < c.err; ls c.5.*; exit $s' "$CFG" <<'EOF'
mat_mul: C[31][30] = 61
smait: 5 threads, N records: running cdat
smait: cdat wrote ./c.5.cdat_report
        traces kept as c.5.0 … c.5.4
c.5.0
c.5.1
c.5.2
c.5.3
c.5.4
c.5.cdat_report
c.5.map
--- exit 0
EOF
cdat -q -o files c.5 "$CFG"
body files/c.5.cdat_report > expected.txt; body c.5.cdat_report > actual.txt
check_file "to_cdat: the report equals cdat's on the same run's trace files (header aside)" \
    expected.txt actual.txt

# Contention: every thread but one queues for the lock thread 1 holds while
# it writes 400000 accesses of trace; nothing of it is held in memory.
check "contend: 13 threads, to_ciat (compressed spill files, the default)" \
    bash -c 'TRACE_FILE_NAME=n TRACE_FILE_TYPE=to_ciat SMAIT_KEEP_TRACES=1 SMAIT_QUIET=1 ./contend; s=$?; ls spill; exit $s' <<'EOF'
contend: 13201
--- exit 0
EOF
check_true "contend: the kept traces are zstd" bash -c 'smait stat n.13.1 | grep -qx "compressed zstd"'
ciat -q -o files n.13
body files/n.13.ciat_report > expected.txt; body n.13.ciat_report > actual.txt
check_file "contend: the report equals ciat's on the same run's trace files (header aside)" \
    expected.txt actual.txt
check_memory "contend: the run with its analysis stays below 64 MiB (the far-ahead thread's 400000 accesses are not held)" \
    65536 env TRACE_FILE_NAME=n2 TRACE_FILE_TYPE=to_ciat SMAIT_QUIET=1 ./contend

if smait-cc -O1 -fopenmp "$EX/omp_heat.c" -o omp_heat 2> omp.build; then
    OMP_NUM_THREADS=4 TRACE_FILE_NAME=h TRACE_FILE_TYPE=to_ciat SMAIT_KEEP_TRACES=1 SMAIT_QUIET=1 ./omp_heat > h.out
    P=$(ls h.*.map | sed -E 's/^h\.([0-9]+)\.map$/\1/')
    ciat -q -o files "h.$P"
    body "files/h.$P.ciat_report" > expected.txt; body "h.$P.ciat_report" > actual.txt
check_file "omp_heat (OpenMP): the report equals ciat's on the same run's trace files (header aside)" \
    expected.txt actual.txt
    check_same "omp_heat: the memory files are equal" "files/h.$P.memory" "h.$P.memory"
else
    echo "(smait-cc -fopenmp cannot build here, no libomp? the OpenMP check is skipped)"
fi

# The other kernels of examples/ (as make demo builds them): each on-the-fly
# report equals ciat's on the same run's traces.
for k in pipeline counter stencil false_sharing omp_tasks atomic_flag work_queue sem_pipeline cxx_histogram; do
    src=$EX/$k.c
    [ -f "$src" ] || src=$EX/$k.cc
    extra=""
    case $k in omp_*) extra=-fopenmp ;; esac
    if ! smait-cc -O2 -fno-vectorize -fno-slp-vectorize -pthread $extra "$src" -o "$k" 2> "$k.build"; then
        [ -n "$extra" ] && { echo "(no OpenMP here: $k skipped)"; continue; }
        check "$k: smait-cc builds it" cat "$k.build" < /dev/null <<'EOF'
--- exit 0
EOF
        continue
    fi
    TRACE_FILE_NAME=$k TRACE_FILE_TYPE=to_ciat SMAIT_KEEP_TRACES=1 SMAIT_QUIET=1 "./$k" > "$k.out" 2> "$k.err"
    map=$(ls "$k".*.map)
    set_=${map%.map}
    ciat -q -o files "$set_"
    body "files/$set_.ciat_report" > expected.txt; body "$set_.ciat_report" > actual.txt
    check_file "$k: the on-the-fly report equals ciat's on the same run's trace files (header aside)" \
        expected.txt actual.txt
done

# The program's own exit status stays; an analyser error fails the run.
printf '#include <stdio.h>\nint main(void) { puts("five"); return 5; }\n' > five.c
smait-cc -O1 five.c -o five
check "the program's exit status is kept" \
    env TRACE_FILE_NAME=f TRACE_FILE_TYPE=to_ciat SMAIT_QUIET=1 ./five <<'EOF'
five
--- exit 5
EOF
check "an analyser error: its message, the run fails with its status, the output is unchanged, nothing is left" \
    bash -c 'TRACE_FILE_NAME=e TRACE_FILE_TYPE=to_ciat SMAIT_QUIET=1 SMAIT_ANALYSER_OPTIONS=--grain=3 ./mat_mul; s=$?; ls e.*; ls spill; exit $s' <<'EOF'
mat_mul: C[31][30] = 61
e.5.map
--- stderr
ciat: -grain must be a power of two (1..64), not 3
ciat: try 'ciat --help'
smait: the on-the-fly analysis failed: ciat exited with status 1 (its message is above); the run fails with that status
--- exit 1
EOF
check "to_cdat without CONFIGURATION_FILE_NAME: refused before main" \
    env TRACE_FILE_NAME=x TRACE_FILE_TYPE=to_cdat ./mat_mul <<'EOF'
--- stderr
smait: TRACE_FILE_TYPE=to_cdat needs CONFIGURATION_FILE_NAME, the machine's configuration file
--- exit 2
EOF
check "to_cdat with a configuration that is not there: refused before main" \
    env TRACE_FILE_NAME=x TRACE_FILE_TYPE=to_cdat CONFIGURATION_FILE_NAME=nope.ini ./mat_mul <<'EOF'
--- stderr
smait: CONFIGURATION_FILE_NAME=nope.ini: No such file or directory
--- exit 2
EOF
# A configuration given by name, as cdat takes it (cdat t.P 4x4): the
# runtime finds 4x4.ini among the configurations (here the source tree's);
# an unknown name is refused before main, naming where it looked.
check "to_cdat, CONFIGURATION_FILE_NAME=4x4: the configuration found by name" bash -c '
    TRACE_FILE_NAME=n TRACE_FILE_TYPE=to_cdat CONFIGURATION_FILE_NAME=4x4 ./mat_mul >/dev/null 2>&1 &&
    grep "^# configuration:" n.5.cdat_report | sed "s|$SRC|SRC|"' <<'EOF'
# configuration: SRC/configs/4x4.ini
--- exit 0
EOF
check "to_cdat, CONFIGURATION_FILE_NAME=9x9: refused before main, naming where it looked" bash -c '
    TRACE_FILE_NAME=x TRACE_FILE_TYPE=to_cdat CONFIGURATION_FILE_NAME=9x9 ./mat_mul 2>&1 | sed -e "s|$SRC|SRC|" -e "s| in [^ ]* or | in DATADIR or |"' <<'EOF'
smait: CONFIGURATION_FILE_NAME=9x9: no such configuration file, nor 9x9.ini in DATADIR or SRC/configs
--- exit 0
EOF
check "SMAIT_ANALYSER_DIR without the analyser: refused before main" \
    env TRACE_FILE_NAME=x TRACE_FILE_TYPE=to_ciat SMAIT_ANALYSER_DIR=spill ./mat_mul <<'EOF'
--- stderr
smait: SMAIT_ANALYSER_DIR=spill: no executable ciat there
--- exit 2
EOF
check "TRACE_FILE_NAME in a missing directory: refused before main, nothing left" \
    bash -c 'TRACE_FILE_NAME=nodir/t TRACE_FILE_TYPE=to_ciat ./mat_mul; s=$?; ls spill; exit $s' <<'EOF'
--- stderr
smait: TRACE_FILE_NAME=nodir/t: cannot write the analysis into nodir: No such file or directory
--- exit 2
EOF
check "SMAIT_SPILL with an unknown type: refused before main" \
    env TRACE_FILE_NAME=x TRACE_FILE_TYPE=to_ciat SMAIT_SPILL=gzip ./mat_mul <<'EOF'
--- stderr
smait: SMAIT_SPILL=gzip: unknown spill type (compressed or normal)
--- exit 2
EOF
# A child of fork exits normally while the parent goes on: the spill files
# are the parent's, which alone ends them and runs ciat.
smait-cc -O1 "$D/forked.c" -o forked
check "fork: the child's exit leaves the parent's spill alone; the parent's run is analysed" \
    bash -c 'TRACE_FILE_NAME=fk TRACE_FILE_TYPE=to_ciat SMAIT_QUIET=1 ./forked; s=$?; ls fk.*; exit $s' <<'EOF'
forked: child 0, sum 8386560
fk.1.ciat_report
fk.1.map
fk.1.memory
--- exit 0
EOF
# SIGCHLD ignored: the analyser's child status would be lost (waitpid: ECHILD).
smait-cc -O1 "$D/sigchld.c" -o sigchld
check "a program that ignores SIGCHLD: the analysis still succeeds" \
    bash -c 'TRACE_FILE_NAME=sc TRACE_FILE_TYPE=to_ciat SMAIT_QUIET=1 ./sigchld; s=$?; ls sc.*; exit $s' <<'EOF'
sigchld: ignored
sc.1.ciat_report
sc.1.map
sc.1.memory
--- exit 0
EOF
check_true "no spill directory is left after all these runs" bash -c '[ -z "$(ls spill)" ]'
