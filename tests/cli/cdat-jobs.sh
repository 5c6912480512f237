# cdat-jobs.sh — cdat --jobs N (docs/sharding.md): the machine simulated in N
# parts on threads of one process, each the lines whose number mod N is its
# own, must write the report (but for its "# command:" line), the JSON and
# the general and detailed traces of the run without --jobs: on random trace sets (tests/cli/cdat-check/randset.awk,
# fixed seeds; ciat writes the memory usage file rr2 and oracle need) under
# every protocol x placement, with and without interconnect caches, with a
# private range (first-touch pages under rr1), on one thread and beside the
# scheduler, on a set long enough for many batches; and every combination
# that cannot split is refused before anything is read.

# split LABEL THREADS N CDAT-ARGS: every machine alone, then in N parts.
split() {
    local label=$1 threads=$2 n=$3 cfg
    shift 3
    local ok=1
    for cfg in m-*.ini; do
        rm -rf whole part
        mkdir whole part
        cdat -q "$@" --json -o whole "rs.$threads" "$cfg" || { echo "$cfg: the whole run failed"; ok=0; }
        cdat -q "$@" --json --jobs "$n" -o part "rs.$threads" "$cfg" || { echo "$cfg: --jobs $n failed"; ok=0; }
        grep -v '^# command:' "whole/rs.$threads.cdat_report" >whole.txt
        grep -v '^# command:' "part/rs.$threads.cdat_report" >part.txt
        cmp -s whole.txt part.txt || { echo "$cfg: the reports differ"; diff whole.txt part.txt | head -5; ok=0; }
        # the JSON's command lines (the command line, and its words) are the only other difference
        grep -v '"command' "whole/rs.$threads.cdat_report.json" >whole.json
        grep -v '"command' "part/rs.$threads.cdat_report.json" >part.json
        cmp -s whole.json part.json || { echo "$cfg: the JSON differs"; ok=0; }
        # every other output (the traces) byte for byte, and no other
        for f in whole/*; do
            case $f in *.cdat_report | *.json) continue ;; esac
            cmp -s "$f" "part/${f#whole/}" || { echo "$cfg: ${f#whole/} differs"; ok=0; }
        done
        [ "$(ls whole)" = "$(ls part)" ] || { echo "$cfg: other outputs"; ok=0; }
    done
    check_true "$label: --jobs $n, every protocol and placement: the report and JSON of the whole run" [ "$ok" = 1 ]
}

cdat_random_set 31 8 1500
cdat_machines 4 2 0 8
for n in 2 4; do split "4x2" 8 "$n" -p; done
cdat_machines 2 4 1K 8
split "2x4 with interconnect caches" 8 2 -p
split "2x4 with interconnect caches, one thread" 8 4 -p --workers 1
split "2x4, a private range (pages placed by their first toucher)" 8 2 -p --private-range 0x1000:0x3fff
# The general and detailed traces: each part keeps its records keyed by their
# place in the whole run, and part 0 writes them in that order at the end.
cdat_machines 4 2 0 8 traces
for n in 2 4; do split "4x2, the general and detailed traces" 8 "$n" -p; done
cdat_machines 2 4 1K 8 traces
split "2x4 with interconnect caches, the general and detailed traces, one thread" 8 2 -p --workers 1
split "2x4 with interconnect caches, the general and detailed traces, zstd" 8 4 -p -z
check_true "… the traces were written" test -s part/rs.8.detailed.zst
# Many batches of events (about 30 per thread) between the reading thread and the parts.
cdat_random_set 32 4 30000
cdat_machines 2 2 0 4
rm -f m-[2-7]-*.ini m-8-rr1.ini m-8-oracle.ini m-1-rr2.ini m-1-first_touch.ini
split "a long set" 4 2 -p
split "a long set, 4 parts" 4 4 -p

# ---- what does not split --------------------------------------------------------------------
cdat_random_set 33 4 500
cdat_machines 2 2 0 4
check "--jobs 3: not a power of two" cdat -q -p --jobs 3 rs.4 m-1-rr1.ini <<'EOF'
--- stderr
cdat: --jobs 3: N must be a power of two (the parts own whole cache sets, and every cache has a power of two of them)
cdat: try 'cdat --help'
--- exit 1
EOF
check "--jobs 8: more parts than the i-cache has sets" cdat -q -p --jobs 8 rs.4 m-1-rr1.ini <<'EOF'
--- stderr
cdat: --jobs 8: the icache of m-1-rr1.ini has 4 sets (fully associative: 1); N must divide every cache's sets
cdat: try 'cdat --help'
--- exit 1
EOF
check "--jobs 2: a fully associative cache" cdat -q -p --jobs 2 --set dcache.assoc=full rs.4 m-1-rr1.ini <<'EOF'
--- stderr
cdat: --jobs 2: the dcache of m-1-rr1.ini has 1 set (fully associative: 1); N must divide every cache's sets
cdat: try 'cdat --help'
--- exit 1
EOF
for opt in --miss-classes --by-code --by-data --annotate "--miss-trace mt"; do
    # shellcheck disable=SC2086  # opt: an option and its value
    check "--jobs 2 $opt: miss classes do not split" cdat -q -p --jobs 2 $opt rs.4 m-1-rr1.ini <<'EOF'
--- stderr
cdat: --jobs with --miss-classes, --by-code, --by-data, --annotate or --miss-trace: they classify the misses, and a capacity or conflict miss compares a processor's cache with a fully associative one of all its lines, which no part holds; run them without --jobs
cdat: try 'cdat --help'
--- exit 1
EOF
done
check "--jobs 2 with two configurations" cdat -q -p --jobs 2 rs.4 m-1-rr1.ini m-2-rr1.ini <<'EOF'
--- stderr
cdat: --jobs splits one machine: give one configuration (and no --sweep), or run each on its own
cdat: try 'cdat --help'
--- exit 1
EOF
check "--jobs 2 with -handle_io" cdat -q -p --jobs 2 -handle_io rs.4 m-1-rr1.ini <<'EOF'
--- stderr
cdat: --jobs with -handle_io: the I/O processors' buffers are not split; run without --jobs
cdat: try 'cdat --help'
--- exit 1
EOF
check "--jobs 2 in slice mode" cdat -q --jobs 2 -i 2 rs.4 m-1-rr1.ini <<'EOF'
--- stderr
cdat: --jobs in slice mode (-i): not split; run without --jobs
cdat: try 'cdat --help'
--- exit 1
EOF
check_true "no output after a refusal" bash -c '! ls rs.4.cdat_report rs.4.*.cdat_report mt 2>/dev/null'
