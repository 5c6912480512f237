# cdat-shard.sh — cdat --shard I/N and --merge (docs/sharding.md §9,
# formats/CDAT-PARTIAL.md): the N parts run one after another as separate
# processes, each writing its partial result, and the merge must write the
# report and JSON of the run without --shard byte for byte, its "# command:"
# line included: on random trace sets (tests/cli/cdat-check/randset.awk, fixed
# seeds; ciat writes the memory usage file rr2 and oracle need) under every
# protocol x placement, with interconnect caches, on the shipped
# configurations with every protocol, with [timing], --name and -o, for every
# N from 1 to 8 the caches allow. Every combination that cannot split is
# refused as cdat --jobs refuses it, and every wrong set of parts (another
# trace set, configuration, option set, N or build, a part twice or missing,
# a cut or damaged file) is refused naming the file, exit 2, writing nothing.

# usage_error NAME MESSAGE-RE ARGS...: exit 1, "cdat: MESSAGE" and the help hint.
usage_error() {
    local name=$1 re=$2
    shift 2
    cdat "$@" >/dev/null 2>.err
    check_true "$name: exit status 1" test $? = 1
    check_true "$name: the message" grep -Eq -- "^cdat: $re" .err
    check_true "$name: the help hint" grep -q "^cdat: try 'cdat --help'" .err
}

# twin NS SET CFG CDAT-ARGS: the whole run in w/, then for each N in NS the N
# shards and the merge in s/ (the same command lines, relative paths), into
# out/ of each; prints what differs and returns 1 when anything does.
twin() {
    local ns=$1 set=$2 cfg=$3 i n f
    shift 3
    rm -rf w
    mkdir -p w/out
    (cd w && cdat -q "$@" -o out "../$set" "$cfg") || { echo "$cfg $*: the whole run failed"; return 1; }
    for n in $ns; do
        rm -rf s
        mkdir -p s/out
        (
            cd s || exit 1
            for ((i = 0; i < n; i++)); do cdat -q "$@" -o out --shard "$i/$n" "../$set" "$cfg" || exit 1; done
            cdat -q --merge out/*.cdat_partial.*-of-"$n"
        ) || { echo "$cfg $* N=$n: a shard or the merge failed"; return 1; }
        for f in w/out/*; do
            cmp -s "$f" "s/out/${f#w/out/}" || {
                echo "$cfg $* N=$n: ${f#w/out/} differs"
                diff "$f" "s/out/${f#w/out/}" | head -5
                return 1
            }
        done
        # the merge writes what the whole run writes, and nothing else
        [ "$(ls w/out)" = "$(ls s/out | grep -v '\.cdat_partial\.')" ] || { echo "$cfg: other outputs"; return 1; }
    done
}

# every_machine LABEL SET NS CDAT-ARGS: twin for every m-*.ini (MACHINES,
# when set: those) and every N in NS.
every_machine() {
    local label=$1 set=$2 ns=$3 cfg ok=1
    shift 3
    for cfg in ${MACHINES:-m-*.ini}; do twin "$ns" "$set" "../$cfg" "$@" || ok=0; done
    check_true "$label: N in $ns, ${MACHINES:-every protocol and placement}: the whole run's report and JSON" [ "$ok" = 1 ]
}

cdat_random_set 41 8 1500
cdat_machines 4 2 0 8
every_machine "4x2" rs.8 "1 2 4" -p --json
cdat_machines 2 4 1K 8
every_machine "2x4 with interconnect caches" rs.8 "2 4" -p --json
MACHINES="m-*-rr1.ini m-*-rr2.ini" every_machine "2x4, a private range (pages placed by their first toucher)" rs.8 "2" -p \
    --private-range 0x1000:0x3fff

# The general and detailed traces: each part writes its records keyed by their
# place in the whole run (the reference, the line in it), and the merge writes
# them in that order: the whole run's files (twin compares every output).
cdat_machines 4 2 0 8 traces
every_machine "4x2, the general and detailed traces" rs.8 "1 2 4" -p
cdat_machines 2 4 1K 8 traces
every_machine "2x4 with interconnect caches, the general and detailed traces" rs.8 "2 4" -p
ok=1
for protocol in 1 4 6; do
    twin "2 8" rs.8 4x4 -p -z --set output.general=1 --set output.detailed=1 --set l2.size=4K \
        --set "system.protocol=$protocol" || ok=0
    grep -q '^RxTxL22: l2 refs [1-9]' s/out/rs.8.cdat_report || { echo "protocol $protocol: no L2 line"; ok=0; }
done
twin 4 rs.8 4x4 -p --gzip --set output.detailed=1 --set l2.size=4K --set l2.inclusion=inclusive || ok=0
check_true "4x4 with L2s, the traces zstd- and gzip-compressed, N = 2, 4, 8" [ "$ok" = 1 ]

# The shipped machines (512 sets and more): every protocol, N up to 8.
ok=1
for cfg in 4x4 spp1600; do
    for protocol in 1 2 3 4 5 6 7 8; do
        twin "2 8" rs.8 "$cfg" -p --json --set "system.protocol=$protocol" || ok=0
    done
done
check_true "4x4 and spp1600, protocols 1 to 8, N = 2 and 8: the whole run's report and JSON" [ "$ok" = 1 ]
ok=1
twin "1 2 4 8" rs.8 4x4 -p --json --set timing.local_memory=100 --set timing.remote_memory=300 \
    --set timing.remote_cache=250 --set timing.hop=20 || ok=0
check_true "[timing] (L19, the estimated time): N = 1, 2, 4, 8" [ "$ok" = 1 ]
check_true "… and the merged report has its L19 lines" grep -q '^RxTxL19: time' s/out/rs.8.cdat_report
ok=1
twin 4 rs.8 4x4 -p --name big --workers 1 || ok=0
check_true "--name and --workers 1, N = 4: the whole run's report" [ "$ok" = 1 ]
check_true "… named after --name" test -f s/out/rs.8.big.cdat_report
# The single-dash spelling (-shard I/N) is left out of the whole run's command line too.
(cd s && rm -f out/* && cdat -q -p -o out -shard 0/2 ../rs.8 4x4 && cdat -q -p -o out -shard=1/2 ../rs.8 4x4 &&
    cdat -q --merge out/rs.8.cdat_partial.*-of-2)
(cd w && rm -f out/* && cdat -q -p -o out ../rs.8 4x4)
check_true "-shard I/N and -shard=I/N: the whole run's report" cmp w/out/rs.8.cdat_report s/out/rs.8.cdat_report

# Many batches of events, many phases (a longer set).
cdat_random_set 42 4 30000
cdat_machines 2 2 0 4
rm -f m-[2-7]-*.ini m-8-rr1.ini m-8-oracle.ini m-1-rr2.ini m-1-first_touch.ini
every_machine "a long set" rs.4 "2 4" -p --json

# Beside the report when there is no -o; the merge writes it beside the parts.
mkdir -p beside
cp rs.4.* beside/
(cd beside && cdat -q -p rs.4 4x4 && mv rs.4.cdat_report whole.txt &&
    cdat -q -p --shard 0/2 rs.4 4x4 && cdat -q -p --shard 1/2 rs.4 4x4 &&
    cdat -q --merge rs.4.cdat_partial.1-of-2 rs.4.cdat_partial.0-of-2)
check_true "without -o: the merge writes the report beside the parts, the whole run's" \
    cmp beside/whole.txt beside/rs.4.cdat_report

# ---- what does not split (the refusals of --jobs) ------------------------------------------
cdat_random_set 43 4 500
cdat_machines 2 2 0 4
check "--shard 1/3: not a power of two" cdat -q -p --shard 1/3 rs.4 m-1-rr1.ini <<'EOF'
--- stderr
cdat: --shard 1/3: N must be a power of two (the parts own whole cache sets, and every cache has a power of two of them)
cdat: try 'cdat --help'
--- exit 1
EOF
check "--shard 0/8: more parts than the i-cache has sets" cdat -q -p --shard 0/8 rs.4 m-1-rr1.ini <<'EOF'
--- stderr
cdat: --shard 0/8: the icache of m-1-rr1.ini has 4 sets (fully associative: 1); N must divide every cache's sets
cdat: try 'cdat --help'
--- exit 1
EOF
check "--shard 0/2: a fully associative cache" cdat -q -p --shard 0/2 --set dcache.assoc=full rs.4 m-1-rr1.ini <<'EOF'
--- stderr
cdat: --shard 0/2: the dcache of m-1-rr1.ini has 1 set (fully associative: 1); N must divide every cache's sets
cdat: try 'cdat --help'
--- exit 1
EOF
for opt in --miss-classes --by-code --by-data --annotate "--miss-trace mt"; do
    # shellcheck disable=SC2086  # opt: an option and its value
    check "--shard 0/2 $opt: miss classes do not split" cdat -q -p --shard 0/2 $opt rs.4 m-1-rr1.ini <<'EOF'
--- stderr
cdat: --shard with --miss-classes, --by-code, --by-data, --annotate or --miss-trace: they classify the misses, and a capacity or conflict miss compares a processor's cache with a fully associative one of all its lines, which no part holds; run them without --shard
cdat: try 'cdat --help'
--- exit 1
EOF
done
check "--shard 0/1 --miss-classes: a part of one is a part too" cdat -q -p --shard 0/1 --miss-classes rs.4 m-1-rr1.ini <<'EOF'
--- stderr
cdat: --shard with --miss-classes, --by-code, --by-data, --annotate or --miss-trace: they classify the misses, and a capacity or conflict miss compares a processor's cache with a fully associative one of all its lines, which no part holds; run them without --shard
cdat: try 'cdat --help'
--- exit 1
EOF
check "--shard with two configurations" cdat -q -p --shard 0/2 rs.4 m-1-rr1.ini m-2-rr1.ini <<'EOF'
--- stderr
cdat: --shard splits one machine: give one configuration (and no --sweep), or run each on its own
cdat: try 'cdat --help'
--- exit 1
EOF
check "--shard with -handle_io" cdat -q -p --shard 0/2 -handle_io rs.4 m-1-rr1.ini <<'EOF'
--- stderr
cdat: --shard with -handle_io: the I/O processors' buffers are not split; run without --shard
cdat: try 'cdat --help'
--- exit 1
EOF
check "--shard in slice mode" cdat -q --shard 0/2 -i 2 rs.4 m-1-rr1.ini <<'EOF'
--- stderr
cdat: --shard in slice mode (-i): not split; run without --shard
cdat: try 'cdat --help'
--- exit 1
EOF
check "--shard with --jobs" cdat -q --shard 0/2 --jobs 2 rs.4 m-1-rr1.ini <<'EOF'
--- stderr
cdat: --jobs runs the parts in this process: give --jobs or --shard, not both
cdat: try 'cdat --help'
--- exit 1
EOF
for bad in 2/2 0/0 1-2 1/20000; do
    usage_error "--shard $bad" "option --shard: (I must be below N|N must be 1..4096|give the part as I/N)" \
        -q --shard "$bad" rs.4 m-1-rr1.ini
done
check_true "no output after a refusal" bash -c '! ls rs.4.cdat_report rs.4.*.cdat_report rs.4.cdat_partial.* mt 2>/dev/null'

# ---- wrong parts: refused naming the file, exit 2, nothing written ---------------------------
rm -rf bad alt same
mkdir bad
cp m-1-rr1.ini c.ini
for i in 0 1 2 3; do cdat -q -p -o bad --shard "$i/4" rs.4 c.ini; done
for i in 0 1; do cdat -q -p -o bad --shard "$i/2" rs.4 c.ini; done
P=bad/rs.4.cdat_partial
check_true "the parts" test -s $P.3-of-4
check_status "--merge: a part missing" 2 "$P.0-of-4: part 3 of 4 is missing" \
    cdat --merge $P.0-of-4 $P.1-of-4 $P.2-of-4
check_status "--merge: a part twice" 2 "$P.1-of-4: line 2: part 1 of 4 again" \
    cdat --merge $P.0-of-4 $P.1-of-4 $P.1-of-4 $P.2-of-4 $P.3-of-4
check_status "--merge: a part of another N" 2 "$P.1-of-2: line 2: part 1 of 2, where .* is a part of 4: not the same split" \
    cdat --merge $P.0-of-4 $P.1-of-2 $P.2-of-4 $P.3-of-4
# another option set: the command lines differ
cdat -q -p -o bad --set system.protocol=3 --shard 1/4 rs.4 c.ini
mv $P.1-of-4 bad/p3.cdat_partial.1-of-4
cdat -q -p -o bad --shard 1/4 rs.4 c.ini
check_status "--merge: a part of a run with other options" 2 "p3.cdat_partial.1-of-4: line 3: a part of another run" \
    cdat --merge $P.0-of-4 bad/p3.cdat_partial.1-of-4 $P.2-of-4 $P.3-of-4
# another configuration under the same name and command line: the resolved one differs
sed 's/^protocol = .*/protocol = 5/' m-1-rr1.ini >c.ini
cdat -q -p -o bad --shard 2/4 rs.4 c.ini
mv $P.2-of-4 bad/cfg5.cdat_partial.2-of-4
cp m-1-rr1.ini c.ini
cdat -q -p -o bad --shard 2/4 rs.4 c.ini
check_status "--merge: a part of another configuration (same file name)" 2 \
    "cfg5.cdat_partial.2-of-4: line [0-9]+: a part of another configuration or option set: 'config  protocol: 5 .*' where .* has 'config  protocol: 1 " \
    cdat --merge $P.0-of-4 $P.1-of-4 bad/cfg5.cdat_partial.2-of-4 $P.3-of-4
# another trace set under the same name and command line
mkdir -p alt/out
awk -v seed=772 -v threads=4 -v n=500 -f "$CLI_DIR/cdat-check/randset.awk" >alt/r.txt
(cd alt && smait asm r.txt rs && cp ../c.ini . && cdat -q -p -o out --shard 3/4 rs.4 c.ini)
mkdir -p same/out
(cd same && ln -s ../rs.4.[0-3] . && cp ../c.ini . && for i in 0 1 2; do cdat -q -p -o out --shard "$i/4" rs.4 c.ini; done)
check_status "--merge: a part of another trace set of the same name" 2 \
    "alt/out/rs.4.cdat_partial.3-of-4: line [67]: 'trace [01] [0-9]+' where same/out/rs.4.cdat_partial.0-of-4 has 'trace [01] [0-9]+': not a part of the same run" \
    cdat --merge same/out/rs.4.cdat_partial.0-of-4 same/out/rs.4.cdat_partial.1-of-4 same/out/rs.4.cdat_partial.2-of-4 \
    alt/out/rs.4.cdat_partial.3-of-4
check_true "… and nothing written there" bash -c '! ls same/out/*.cdat_report alt/out/*.cdat_report 2>/dev/null'
# another build
sed 's/^dsmtrace-partial 1 cdat .*/dsmtrace-partial 1 cdat 9.9.9/' $P.0-of-4 >bad/old.cdat_partial.0-of-4
check_status "--merge: a part of another build" 2 "old.cdat_partial.0-of-4: line 1: a partial result of '1 cdat 9.9.9'" \
    cdat --merge bad/old.cdat_partial.0-of-4 $P.1-of-4 $P.2-of-4 $P.3-of-4
sed 's/^words .*/words 391/' $P.0-of-4 >bad/words.cdat_partial.0-of-4
check_status "--merge: a build with other counters" 2 "words.cdat_partial.0-of-4: line [0-9]+: a partial result with 391 counters a processor, this cdat has [0-9]+" \
    cdat --merge bad/words.cdat_partial.0-of-4 $P.1-of-4 $P.2-of-4 $P.3-of-4
sed 's/^\(stats 3 \)[0-9]*/\1391/' $P.1-of-4 >bad/w2.cdat_partial.1-of-4
check_status "--merge: a stats record of other counters" 2 "w2.cdat_partial.1-of-4: line [0-9]+: 391 counters a processor" \
    cdat --merge $P.0-of-4 bad/w2.cdat_partial.1-of-4 $P.2-of-4 $P.3-of-4
check_status "--merge: a ciat partial result" 2 "line 1: a partial result of '1 ciat .*', not of this cdat" \
    bash -c 'ciat -q -p --shard 0/1 rs.4 && cdat --merge rs.4.ciat_partial.0-of-1'
rm -f rs.4.ciat_partial.0-of-1
# cut and damaged files
head -n 30 $P.2-of-4 >bad/cut.cdat_partial.2-of-4
check_status "--merge: a part cut short" 2 "cut.cdat_partial.2-of-4: line 30: the partial result ends early" \
    cdat --merge $P.0-of-4 $P.1-of-4 bad/cut.cdat_partial.2-of-4 $P.3-of-4
head -c 1500 $P.2-of-4 >bad/cut2.cdat_partial.2-of-4
check_status "--merge: a part cut in a line" 2 "cut2.cdat_partial.2-of-4: line [0-9]+: .*(expected|ends early|belong|not a part of the same run)" \
    cdat --merge $P.0-of-4 $P.1-of-4 bad/cut2.cdat_partial.2-of-4 $P.3-of-4
sed '0,/^stats 1 /s/^\(stats 1 [0-9]* [0-9]*\):/\1x/' $P.3-of-4 >bad/tok.cdat_partial.3-of-4
check_status "--merge: a damaged counter" 2 "tok.cdat_partial.3-of-4: line [0-9]+: a counter INDEX:VALUE expected" \
    cdat --merge $P.0-of-4 $P.1-of-4 $P.2-of-4 bad/tok.cdat_partial.3-of-4
awk '/^stats 1 / && !d { sub(/ [0-9]+:/, " 999:"); d = 1 } { print }' $P.3-of-4 >bad/idx.cdat_partial.3-of-4
check_status "--merge: a counter out of range" 2 "idx.cdat_partial.3-of-4: line [0-9]+: counter 999: out of range or order" \
    cdat --merge $P.0-of-4 $P.1-of-4 $P.2-of-4 bad/idx.cdat_partial.3-of-4
# the interleaving's time is every part's alike: a part of another run's records
awk '/^time / && !d { $2 = $2 + 1; d = 1 } { print }' $P.0-of-4 >bad/forged.cdat_partial.0-of-4
check_status "--merge: parts whose runs saw other records" 2 "$P.1-of-4: line [0-9]+: 'time .*' where .*forged.* has 'time " \
    cdat --merge bad/forged.cdat_partial.0-of-4 $P.1-of-4 $P.2-of-4 $P.3-of-4
awk '/^placement / && !d { $NF = $NF + 1; d = 1 } { print }' $P.3-of-4 >bad/place.cdat_partial.3-of-4
check_status "--merge: another page placement" 2 "place.cdat_partial.3-of-4: line [0-9]+: 'placement node 0 pages [0-9]+' where" \
    cdat --merge $P.0-of-4 $P.1-of-4 $P.2-of-4 bad/place.cdat_partial.3-of-4
check_status "--merge: not a partial result" 2 "c.ini: line 1: not a partial result of a sharded run \\(cdat --shard I/N writes them\\)" \
    cdat --merge c.ini
cp $P.0-of-4 bad/noname
cp $P.1-of-4 bad/noname1
check_status "--merge: parts not named <prefix>.cdat_partial.I-of-N" 2 "noname: not named <prefix>.cdat_partial.I-of-N" \
    cdat --merge bad/noname bad/noname1 $P.2-of-4 $P.3-of-4
check_status "--merge -o: not a directory" 2 "nodir: -o: not an existing directory" \
    cdat --merge -o nodir $P.0-of-4 $P.1-of-4 $P.2-of-4 $P.3-of-4
usage_error "--merge with an option of the run" "--merge takes the parts and -o DIR only, not --json" \
    --merge --json $P.0-of-4 $P.1-of-4 $P.2-of-4 $P.3-of-4
usage_error "--merge without parts" "--merge: give the partial results of the shards \\(<prefix>.cdat_partial.I-of-N\\)" \
    --merge
check "--merge refused: no report written" ls bad <<'EOF'
cfg5.cdat_partial.2-of-4
cut.cdat_partial.2-of-4
cut2.cdat_partial.2-of-4
forged.cdat_partial.0-of-4
idx.cdat_partial.3-of-4
noname
noname1
old.cdat_partial.0-of-4
p3.cdat_partial.1-of-4
place.cdat_partial.3-of-4
rs.4.cdat_partial.0-of-2
rs.4.cdat_partial.0-of-4
rs.4.cdat_partial.1-of-2
rs.4.cdat_partial.1-of-4
rs.4.cdat_partial.2-of-4
rs.4.cdat_partial.3-of-4
tok.cdat_partial.3-of-4
w2.cdat_partial.1-of-4
words.cdat_partial.0-of-4
--- exit 0
EOF
# damaged trace records (parts with the detailed and general traces)
mkdir -p badtr
for i in 0 1; do cdat -q -p -o badtr --name tr --set output.general=1 --set output.detailed=1 --shard "$i/2" rs.4 c.ini; done
T=badtr/rs.4.tr.cdat_partial
check_true "parts with traces" grep -q '^rec ' $T.1-of-2
awk '/^rec / && ++n == 3 { $2 = 0 } { print }' $T.1-of-2 >badtr/ord.tr.cdat_partial.1-of-2
check_status "--merge: a trace record out of order" 2 "ord.tr.cdat_partial.1-of-2: line [0-9]+: a trace record out of order" \
    cdat --merge $T.0-of-2 badtr/ord.tr.cdat_partial.1-of-2
awk '/^rec / && ++n == 2 { $4 = 99 } { print }' $T.1-of-2 >badtr/file.tr.cdat_partial.1-of-2
check_status "--merge: a trace record for no file" 2 "file.tr.cdat_partial.1-of-2: line [0-9]+: a trace record for no file of the run: '99'" \
    cdat --merge $T.0-of-2 badtr/file.tr.cdat_partial.1-of-2
awk '/^rec / && ++n == 2 { $3 = "x" } { print }' $T.0-of-2 >badtr/key.tr.cdat_partial.0-of-2
check_status "--merge: a trace record without its keys" 2 "key.tr.cdat_partial.0-of-2: line [0-9]+: a trace record expected: REFERENCE LINE FILE RECORD" \
    cdat --merge badtr/key.tr.cdat_partial.0-of-2 $T.1-of-2
awk '/^rec / && ++n == 2 { $5 = "junk" } { print }' $T.0-of-2 >badtr/rec.tr.cdat_partial.0-of-2
check_status "--merge: a damaged trace record" 2 "rec.tr.cdat_partial.0-of-2: line [0-9]+: a damaged trace record" \
    cdat --merge badtr/rec.tr.cdat_partial.0-of-2 $T.1-of-2
grep -v '^traces-begin' $T.1-of-2 >badtr/nob.tr.cdat_partial.1-of-2
check_status "--merge: a part without its traces" 2 "nob.tr.cdat_partial.1-of-2: line [0-9]+: 'rec .*' where .* has 'traces-begin ?'" \
    cdat --merge $T.0-of-2 badtr/nob.tr.cdat_partial.1-of-2
check_true "… and no trace written" bash -c '! ls badtr/rs.4.tr.detailed badtr/rs.4.tr.general.* 2>/dev/null'
# A shard that fails leaves no partial result.
mkdir -p cutset
cp rs.4.* cutset/
head -c 1001 rs.4.2 >cutset/rs.4.2
check_status "a shard of a cut trace: exit 2" 2 "cutset/rs.4.2" cdat -q -p -o bad --shard 0/2 cutset/rs.4 c.ini
check_true "… and no partial result" bash -c '! ls bad/rs.4.cdat_partial.0-of-2.* cutset/*partial* 2>/dev/null'
# And the good parts still merge: the merge writes the report there.
check_true "the good parts merge into the report of the whole run" bash -c "
    cdat --merge -o bad $P.2-of-4 $P.0-of-4 $P.3-of-4 $P.1-of-4 && cdat -q -p -o . rs.4 c.ini &&
    diff <(grep -v '^# command' bad/rs.4.cdat_report) <(grep -v '^# command' rs.4.cdat_report)"
