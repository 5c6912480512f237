# ciat-shard.sh — ciat --shard I/N and --merge (docs/sharding.md): the N
# parts merged give the whole run's report, memory usage file and JSON byte
# for byte, for every N from 1 to 8, on random sets (tests/cli/ciat/
# randset.awk: every record kind, accesses of 0-64 bytes aligned or not,
# so some cross pages; sections, barriers, calls, many phases) with several
# grains and page sizes (64-byte pages: almost every access near a page
# boundary), on slice mode, on the golden sets and on small sets of the bench
# generators; and every way a merge can be given the wrong parts is refused,
# naming the file.
D=$CLI_DIR/ciat

# usage_error NAME MESSAGE-RE ARGS...: exit 1, "ciat: MESSAGE" and the help hint.
usage_error() {
    local name=$1 re=$2
    shift 2
    ciat "$@" >/dev/null 2>.err
    check_true "$name: exit status 1" test $? = 1
    check_true "$name: the message" grep -Eq "^ciat: $re" .err
    check_true "$name: the help hint" grep -q "^ciat: try 'ciat --help'" .err
}

# sharded NAME SET N OPTIONS...: the whole run with OPTIONS into x/ (moved
# to whole/), then its N parts into x/ (the same command line) and their
# merge; every output the same.
sharded() {
    local name=$1 set=$2 n=$3 i ok=1 f
    shift 3
    rm -rf whole x
    mkdir whole x
    ciat -q -o x "$@" "$set" 2>>warnings || ok=0
    mv x/* whole/
    for ((i = 0; i < n; i++)); do
        ciat -q -o x "$@" --shard "$i/$n" "$set" 2>>warnings || ok=0
    done
    ciat --merge x/*.ciat_partial.*-of-"$n" || ok=0
    rm -f x/*.ciat_partial.*
    check_true "$name, $n parts: the parts and the merge run" test "$ok" = 1
    check_true "$name, $n parts: the same files" diff <(ls whole) <(ls x)
    for f in whole/*; do check_same "$name, $n parts: ${f#whole/}" "$f" "x/${f#whole/}"; done
}

# The command line is the whole run's: the merge writes the command without
# --shard, and the same -o gives the same line.
awk -v seed=771 -v threads=4 -v n=3000 -f "$D/randset.awk" >r.txt
smait asm r.txt r
mkdir out
ciat -q -o out --json r.4
mv out/r.4.ciat_report whole.ciat_report
mv out/r.4.ciat_report.json whole.ciat_report.json
mv out/r.4.memory whole.memory
ciat -q -o out --json --shard 1/2 r.4
ciat -q -o out --json --shard=0/2 r.4
check "the parts are named <prefix>.ciat_partial.I-of-N, and nothing else is written" ls out <<'EOF'
r.4.ciat_partial.0-of-2
r.4.ciat_partial.1-of-2
--- exit 0
EOF
check "--merge writes the report, the memory usage file and the JSON beside the parts" \
    ciat --merge out/r.4.ciat_partial.1-of-2 out/r.4.ciat_partial.0-of-2 <<'EOF'
--- exit 0
EOF
check_same "merged report: the whole run's, command line included" whole.ciat_report out/r.4.ciat_report
check_same "merged JSON: the whole run's" whole.ciat_report.json out/r.4.ciat_report.json
check_same "merged memory usage file: the whole run's" whole.memory out/r.4.memory
mkdir elsewhere
check "--merge -o DIR writes into DIR" ciat --merge -o elsewhere out/r.4.ciat_partial.0-of-2 out/r.4.ciat_partial.1-of-2 <<'EOF'
--- exit 0
EOF
check_same "merged into -o DIR: the same report" whole.ciat_report elsewhere/r.4.ciat_report

# Random sets, every N from 1 to 8 on one, a few on the others.
for spec in "4 781 20000 1 2 3 4 5 6 7 8" "16 782 3000 2 3 8" "2 783 20000 2 5"; do
    read -r p seed len ns <<<"$spec"
    awk -v seed="$seed" -v threads="$p" -v n="$len" -f "$D/randset.awk" >"r$seed.txt"
    smait asm "r$seed.txt" "r$seed"
    for n in $ns; do sharded "random, $p threads, seed $seed" "r$seed.$p" "$n" --json; done
done
sharded "random, 4 threads, grain 1, 64-byte pages" r781.4 3 --grain 1 --page-size 64
sharded "random, 4 threads, grain 64, 64-byte pages, -p" r781.4 4 --grain 64 --page-size 64 -p
sharded "random, 16 threads, grain 8, 1 KiB pages, HPUX" r782.16 5 --grain 8 --page-size 1024 --hpux
sharded "random, 16 threads, grain 2, 64-byte pages" r782.16 7 --grain 2 --page-size 64
sharded "random, 2 threads, slice mode on 2 processors (L09 lines)" r783.2 3 -i 2
sharded "random, 16 threads, --comm-matrix, events" r782.16 3 --comm-matrix --ciat-events
sharded "random, 4 threads, events, grain 2, 64-byte pages" r781.4 4 --ciat-events --grain 2 --page-size 64
sharded "random, 2 threads, events, slice mode" r783.2 2 --ciat-events -i 2
sharded "random, 4 threads, --comm-matrix, grain 1, 64-byte pages" r781.4 5 --comm-matrix --grain 1 --page-size 64

# Attribution (--by-code, --by-data), with the set's address map (the
# attribution tests' set) and without one (addresses), and the matrix picture.
smait asm "$CLI_DIR/attribution/t.txt" t
cp "$CLI_DIR/attribution/t.2.map" t.2.map
sharded "attribution set with its map, false sharing" t.2 2 -p --false-sharing --by-code --by-data
sharded "attribution set with its map, --annotate and false sharing (the c2c view)" t.2 2 -p --false-sharing --annotate
sharded "random, 16 threads, --annotate and false sharing, no map" r782.16 3 --false-sharing --annotate --false-lines 3
sharded "random, 4 threads, --by-code=3 --by-data, no map" r781.4 3 --by-code=3 --by-data
sharded "random, 16 threads, false sharing" r782.16 4 --false-sharing --false-lines 4
sharded "random, 4 threads, false sharing, 64-byte lines and pages, grain 1" r781.4 3 --false-sharing \
    --page-size 64 --line-size 64 --grain 1
sharded "random, 4 threads, everything at once" r781.4 5 --false-sharing --line-size 256 --grain 8 --comm-matrix \
    --ciat-events --by-code --by-data --json --migratory 30
rm -rf whole x
mkdir whole x
ciat -q -o x --matrix-svg x/m.svg --matrix-title 'r781: who reads whom' --matrix-size 64 r781.4
mv x/* whole/
for i in 0 1 2; do
    ciat -q -o x --matrix-svg x/m.svg --matrix-title 'r781: who reads whom' --matrix-size 64 --shard "$i/3" r781.4
done
check_true "--matrix-svg FILE: the parts do not write FILE" test ! -e x/m.svg
ciat --merge x/r781.4.ciat_partial.*
check_same "--matrix-svg FILE: the merge writes the whole run's picture" whole/m.svg x/m.svg
check_same "--matrix-svg FILE: the merged report" whole/r781.4.ciat_report x/r781.4.ciat_report

# --jobs N: the N parts as processes of one run, merged; the outputs are
# the run's without --jobs (but for the command line, which names --jobs),
# and no partial result is left behind.
jobs() {
    local name=$1 set=$2 n=$3 f
    shift 3
    rm -rf whole x
    mkdir whole x
    ciat -q -o whole "$@" "$set" 2>>warnings
    check "$name, --jobs $n: runs" ciat -q -o x "$@" --jobs "$n" "$set" <<'EOF'
--- exit 0
EOF
    check_true "$name, --jobs $n: the same files, no part left" diff <(ls whole) <(ls x)
    for f in whole/*; do
        case $f in
            *.json) check_true "$name, --jobs $n: ${f#whole/}" diff <(grep -v 'command' "$f") \
                        <(grep -v 'command' "x/${f#whole/}") ;;
            *_report) same_but_command "$name, --jobs $n: ${f#whole/}" "$f" "x/${f#whole/}" ;;
            *) check_same "$name, --jobs $n: ${f#whole/}" "$f" "x/${f#whole/}" ;;
        esac
    done
}
jobs "random, 4 threads" r781.4 2 --json --ciat-events
jobs "random, 16 threads, everything" r782.16 3 --false-sharing --comm-matrix --by-code --by-data -j 1
jobs "random, 2 threads, slice mode" r783.2 8 -i 2
jobs "attribution set, --annotate" t.2 2 -p --false-sharing --annotate --by-data
usage_error "--jobs with --shard" "--jobs runs the parts itself: give --jobs or --shard, not both" \
    -q --jobs 2 --shard 0/2 r.4
usage_error "--jobs 0" "option --jobs: 0 is out of range \\(1..4096\\)" -q --jobs 0 r.4
rm -rf x && mkdir x
cp r.4.0 r.4.1 r.4.2 x/
head -c 1001 r.4.3 >x/r.4.3
check_status "--jobs 3 on a bad trace: exit status 2, the trace named once" 2 \
    "^ciat: x/r.4.3: 1000: record 125: truncated final record" ciat -q --jobs 3 x/r.4
smait asm "$D/patterns.txt" pw 2>/dev/null
check "--jobs 3: the run's warnings once, as without --jobs" bash -c \
    'ciat -q pw.3 2>a.err; ciat -q --jobs 3 pw.3 2>b.err; diff a.err b.err && wc -l <b.err' <<'EOF'
2
--- exit 0
EOF
check "--jobs 3 on a bad trace: no output, no part left" ls x <<'EOF'
r.4.0
r.4.1
r.4.2
r.4.3
--- exit 0
EOF

# The golden sets.
for t in "$D"/*.txt; do
    base=$(basename "$t" .txt)
    smait asm "$t" "g-$base" 2>/dev/null || continue
    set=$(ls "g-$base".* 2>/dev/null | sed -n 's/^\(g-[^.]*\.[0-9]*\)\.0$/\1/p' | head -1)
    [ -n "$set" ] || continue
    sharded "golden set $base" "$set" 3 -p --false-sharing --comm-matrix   # warnings of sets meant for spawn and join: to a file
done

if [ -n "${BENCH_BIN:-}" ] && [ -x "$BENCH_BIN/gen_irregular" ]; then
    "$BENCH_BIN/gen_irregular" irr 4 100 >/dev/null
    "$BENCH_BIN/gen_fft" fft 16 1 >/dev/null
    "$BENCH_BIN/gen_chase" chase 8 50 >/dev/null
    sharded "bench set irregular" irr.4 4 -p
    sharded "bench set FFT-like, grain 1" fft.16 3 -p --grain 1
    sharded "bench set pointer chasing" chase.8 8 -p
else
    echo "(ciat-shard: no BENCH_BIN: the bench generators' sets are left out)"
fi

# --events -: the parts write nothing on standard output, the merge the
# whole run's events there; --events FILE: the merge writes FILE.
mkdir ev
ciat -q -o ev --events - r781.4 >whole.events
mv ev/r781.4.ciat_report whole-ev.ciat_report
check "--events - with --shard: nothing on standard output" \
    sh -c 'for i in 0 1 2; do ciat -q -o ev --events - --shard $i/3 r781.4 || exit 1; done' <<'EOF'
--- exit 0
EOF
ciat --merge ev/r781.4.ciat_partial.* >merged.events
check_same "--events -: the merge writes the whole run's events on standard output" whole.events merged.events
check_same "--events -: the merged report" whole-ev.ciat_report ev/r781.4.ciat_report
rm -f ev/*
ciat -q -o ev --events ev/e.txt r781.4
mv ev/e.txt whole-e.txt
for i in 0 1; do ciat -q -o ev --events ev/e.txt --shard $i/2 r781.4; done
check_true "--events FILE: the parts do not write FILE" test ! -e ev/e.txt
ciat --merge ev/r781.4.ciat_partial.*
check_same "--events FILE: the merge writes FILE" whole-e.txt ev/e.txt

# A line that spans pages of several parts cannot be split.
usage_error "--shard with --false-sharing and lines larger than pages" \
    "--shard with --false-sharing: a line of 128 bytes spans pages of 64 \\(parts own pages\\)" \
    -q --false-sharing --line-size 128 --page-size 64 --shard 0/2 r.4
usage_error "--shard 2/2" "option --shard: I must be below N" -q --shard 2/2 r.4
usage_error "--shard 0/0" "option --shard: N must be 1..4096" -q --shard 0/0 r.4
usage_error "--shard 1-2" "option --shard: give the part as I/N" -q --shard 1-2 r.4
usage_error "--shard 1/20000" "option --shard: give the part as I/N" -q --shard 1/20000 r.4

# Wrong parts are refused, naming the file (exit 2), and nothing is written.
rm -rf bad
mkdir bad
for i in 0 1 2; do ciat -q -o bad --shard "$i/3" r.4; done
ciat -q -o bad --grain 8 --shard 1/3 r.4
mv bad/r.4.ciat_partial.1-of-3 bad/grain8.ciat_partial.1-of-3
for i in 0 1 2; do ciat -q -o bad --shard "$i/3" r.4; done
ciat -q -o bad --shard 1/2 r.4
# another trace set under the same name, with the same command line
mkdir -p alt/out
awk -v seed=772 -v threads=4 -v n=3000 -f "$D/randset.awk" >alt/r.txt
(cd alt && smait asm r.txt r && ciat -q -o out --shard 2/3 r.4)
P=bad/r.4.ciat_partial
check_status "--merge: a part missing" 2 "part 2 of 3 is missing" ciat --merge $P.0-of-3 $P.1-of-3
check_status "--merge: a part twice" 2 "$P.1-of-3: line 2: part 1 of 3 again" ciat --merge $P.0-of-3 $P.1-of-3 \
    $P.1-of-3 $P.2-of-3
check_status "--merge: a part of another split" 2 "$P.1-of-2: line 2: part 1 of 2, where .* is a part of 3" \
    ciat --merge $P.0-of-3 $P.1-of-2 $P.2-of-3
check_status "--merge: a part of a run with other options" 2 "grain8.ciat_partial.1-of-3: line 3: a part of another run" \
    ciat --merge $P.0-of-3 bad/grain8.ciat_partial.1-of-3 $P.2-of-3
(cd alt && ciat -q -o out --shard 0/3 r.4)
mkdir same
(cd same && ln -s ../r.4.[0-3] . && mkdir out && for i in 0 1 2; do ciat -q -o out --shard "$i/3" r.4; done)
check_status "--merge: a part of another trace set of the same name" 2 \
    "same/out/r.4.ciat_partial.1-of-3: line 6: 'trace 0 [0-9]+' where alt/out/r.4.ciat_partial.0-of-3 has 'trace 0 [0-9]+': not a part of the same run" \
    ciat --merge alt/out/r.4.ciat_partial.0-of-3 same/out/r.4.ciat_partial.1-of-3 same/out/r.4.ciat_partial.2-of-3
head -n 40 $P.2-of-3 >bad/cut.ciat_partial.2-of-3
check_status "--merge: a part cut short" 2 "cut.ciat_partial.2-of-3: line 40: the partial result ends early" \
    ciat --merge $P.0-of-3 $P.1-of-3 bad/cut.ciat_partial.2-of-3
head -c 2000 $P.2-of-3 >bad/cut2.ciat_partial.2-of-3
check_status "--merge: a part cut in a line" 2 "cut2.ciat_partial.2-of-3: line [0-9]+: ([0-9]+ counters|[0-9]+ numbers|a .*) expected" \
    ciat --merge $P.0-of-3 $P.1-of-3 bad/cut2.ciat_partial.2-of-3
check_status "--merge: not a partial result" 2 "r.txt: line 1: not a partial result" ciat --merge r.txt
sed 's/^dsmtrace-partial 1 ciat .*/dsmtrace-partial 1 ciat 9.9.9/' $P.0-of-3 >bad/old.ciat_partial.0-of-3
check_status "--merge: a part of another build" 2 "old.ciat_partial.0-of-3: line 1: a partial result of '1 ciat 9.9.9'" \
    ciat --merge bad/old.ciat_partial.0-of-3 $P.1-of-3 $P.2-of-3
# the same traces' names but other contents: the interleaving's counts differ
sed 's/^\(counts 0 \)[0-9]*/\19/' $P.0-of-3 >bad/forged.ciat_partial.0-of-3
check_status "--merge: parts whose runs saw other records" 2 "r.4.ciat_partial.1-of-3: line [0-9]+: 'counts 0 .*' where .*forged.* has 'counts 0 9" \
    ciat --merge bad/forged.ciat_partial.0-of-3 $P.1-of-3 $P.2-of-3
# An output the parts name (--events FILE) whose directory is gone where the
# merge runs: refused naming the part and its record, nothing written (a
# fuzzed record once named a path with no directory, and the error named no part).
mkdir -p evparts evdir
for i in 0 1; do ciat -q -o evparts --events evdir/e.txt --shard "$i/2" r.4; done
rmdir evdir
check_status "--merge: the parts' --events FILE in a directory missing here" 2 \
    "evparts/r.4.ciat_partial.0-of-2: line [0-9]+: events file 'evdir/e.txt': no writable directory for it here" \
    ciat --merge evparts/r.4.ciat_partial.0-of-2 evparts/r.4.ciat_partial.1-of-2
check_true "… and no report written" bash -c '! ls evparts/r.4.ciat_report evdir 2>/dev/null'
usage_error "--merge with an analysis option" "--merge takes the parts and -o DIR only, not --grain" \
    --merge --grain 8 $P.0-of-3 $P.1-of-3 $P.2-of-3
usage_error "--merge without parts" "--merge: give the partial results" --merge
check "--merge refused: no report written" ls bad <<'EOF'
cut.ciat_partial.2-of-3
cut2.ciat_partial.2-of-3
forged.ciat_partial.0-of-3
grain8.ciat_partial.1-of-3
old.ciat_partial.0-of-3
r.4.ciat_partial.0-of-3
r.4.ciat_partial.1-of-2
r.4.ciat_partial.1-of-3
r.4.ciat_partial.2-of-3
--- exit 0
EOF
