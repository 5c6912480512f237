# tdat-pipeline.sh — the toolkit end to end: smait asm (text form -> trace
# set), ciat -ciat_events (-> <prefix>.ciat_events), tdat on that event
# trace, as a user would chain them. tests/cli/tdat/pipeline.txt derives
# ciat's five events and every number tdat prints from them.
D=$CLI_DIR/tdat

check "smait asm && ciat -p -ciat_events && tdat" bash -c '
    smait asm "$1/pipeline.txt" pl && ciat -p -ciat_events pl.2 &&
    tdat -classes 4 pl.2.ciat_events pl.time 2 2' _ "$D" <<'EOF'
# tdat (dsmtrace) 0.1.0
# command: tdat -classes 4 pl.2.ciat_events pl.time 2 2
# input: pl.2.ciat_events
# options: clock_field 1 classes 4 lenient no
# lines: total 8 blank 0 comment 3 header 0 bad_skipped 0 filtered_out 0 events 5
# rate = events in a bin / processors; bin i covers clocks [i*w, (i+1)*w); fractions are of the number of bins
events 5
bins 4
bin_width 2
processors 2
avg_rate 0.6250
min_rate 0.0000
max_rate 1.0000
stddev 0.4146
density 0.0000 0.2500 1 0.2500
distribution 0.2500 0.2500
density 0.2500 0.5000 0 0.0000
distribution 0.5000 0.2500
density 0.5000 0.7500 1 0.2500
distribution 0.7500 0.5000
density 0.7500 1.0000 2 0.5000
distribution 1.0000 1.0000
--- exit 0
EOF
# ciat's three '#' header lines are comments to tdat; the five events:
check "the event trace ciat wrote" grep -v '^#' pl.2.ciat_events <<'EOF'
3 RAW 1 0
4 RAW 0 0
5 WAR 0 1
6 WAR 1 1
7 RAW 1 0
--- exit 0
EOF
check "time file" cat pl.time <<'EOF'
0 0
2 1
4 2
6 2
--- exit 0
EOF
check_true "tdat's event count = ciat's RxTx raw + war + waw + rar" test "$(awk '
    $1 ~ /^RxTxL1[0245]:$/ { n += $3 } END { print n }' pl.2.ciat_report)" = \
    "$(tdat pl.2.ciat_events pl-all.time 2 2 | awk '$1 == "events" { print $2 }')"

check "only WAR events (-f 2=WAR)" bash -c \
    'tdat -classes 2 -f 2=WAR pl.2.ciat_events war.time 2 2 | grep -v "^#"; cat war.time' <<'EOF'
events 2
bins 4
bin_width 2
processors 2
avg_rate 0.2500
min_rate 0.0000
max_rate 0.5000
stddev 0.2500
density 0.0000 0.2500 2 0.5000
distribution 0.2500 0.5000
density 0.2500 0.5000 2 0.5000
distribution 0.5000 1.0000
0 0
2 0
4 1
6 1
--- exit 0
EOF
check "only thread 1 (-f 3=1)" bash -c \
    'tdat -classes 2 -f 3=1 pl.2.ciat_events t1.time 2 2 | grep -v "^#"; cat t1.time' <<'EOF'
events 3
bins 4
bin_width 2
processors 2
avg_rate 0.3750
min_rate 0.0000
max_rate 1.0000
stddev 0.4146
density 0.0000 0.5000 2 0.5000
distribution 0.5000 0.5000
density 0.5000 1.0000 2 0.5000
distribution 1.0000 1.0000
0 0
2 1
4 0
6 2
--- exit 0
EOF

# Through a pipe, compressed, with a picture.
check "gzip | tdat - --svg" bash -c '
    gzip -c pl.2.ciat_events | tdat -classes 4 --svg pl.svg - pipe.time 2 2 | grep -v "^#" >pipe.body &&
    tdat -classes 4 pl.2.ciat_events ref.time 2 2 | grep -v "^#" | cmp - pipe.body &&
    cmp pipe.time ref.time && xmllint --noout pl.svg' <<'EOF'
--- exit 0
EOF

# The time file is optional, and '-' sends it to standard output (then the
# frequency file goes only where --freq says).
check "no time file: the frequency file alone, as with one, and no other file" bash -c '
    mkdir nt && cd nt && tdat -classes 4 ../pl.2.ciat_events 2 2 | grep -v "^#" >../nt.body &&
    tdat -classes 4 ../pl.2.ciat_events ../ref.time 2 2 | grep -v "^#" | cmp - ../nt.body && ls | wc -l' <<'EOF'
0
--- exit 0
EOF
check "time file '-': the time file on standard output, no frequency file" \
    bash -c 'tdat pl.2.ciat_events - 2 2 | cmp - pl.time && echo same' <<'EOF'
same
--- exit 0
EOF
check "time file '-' with --freq FILE: both" bash -c '
    tdat -classes 4 --freq pl.freq pl.2.ciat_events - 2 2 | cmp - pl.time &&
    grep -v "^#" pl.freq | cmp - nt.body && echo same' <<'EOF'
same
--- exit 0
EOF
check "time file '-' into a pipeline: a line per bin" \
    bash -c 'tdat pl.2.ciat_events - 2 2 | wc -l' <<'EOF'
4
--- exit 0
EOF
