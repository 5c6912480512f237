# tdat-golden.sh — tdat on small hand-made event traces (docs/tdat.md): the
# frequency file (header, summary, density and distribution) and the time
# file, compared whole. Every number is derived in the comment block of the
# input file (tests/cli/tdat/*.events, *.trace); tdat skips '#' lines, so
# the explanations sit in the inputs themselves. Also: clocks out of order
# and on bin boundaries, empty bins, filters, -c, 64-bit clocks, --lenient,
# both option spellings, gzip (also concatenated members), zstd, standard input,
# CR LF / tabs / leading blanks, a last line without a newline, determinism.
# The inputs are copied into the test directory so the "# command:" header
# line holds relative paths, the same on every machine.
D=$CLI_DIR/tdat
cp "$D"/basic.events "$D"/cfield.trace "$D"/big.events "$D"/lenient.events .

# tdat_body ARGS...: tdat's standard output without its '#' header lines;
# stderr and the exit status as tdat left them.
tdat_body() {
    local status
    tdat "$@" >.tdat-out
    status=$?
    grep -v '^#' .tdat-out
    rm -f .tdat-out
    return $status
}

# ---- basic.events: the whole frequency file, then the time file --------------
check "basic: frequency file (w 10, p 2, 4 classes)" tdat -classes 4 basic.events basic.time 10 2 <<'EOF'
# tdat (dsmtrace) 0.1.0
# command: tdat -classes 4 basic.events basic.time 10 2
# input: basic.events
# options: clock_field 1 classes 4 lenient no
# lines: total 56 blank 0 comment 43 header 1 bad_skipped 0 filtered_out 0 events 12
# rate = events in a bin / processors; bin i covers clocks [i*w, (i+1)*w); fractions are of the number of bins
events 12
bins 6
bin_width 10
processors 2
avg_rate 1.0000
min_rate 0.0000
max_rate 2.0000
stddev 0.6455
density 0.0000 0.5000 1 0.1667
distribution 0.5000 0.1667
density 0.5000 1.0000 1 0.1667
distribution 1.0000 0.3333
density 1.0000 1.5000 2 0.3333
distribution 1.5000 0.6667
density 1.5000 2.0000 2 0.3333
distribution 2.0000 1.0000
--- exit 0
EOF
# The "# lines:" header: 56 lines in the file, 43 of them '#' comments, the
# header line "clock event thread degree", 12 events.
check_true "basic: 56 lines, 43 comments, 12 events" test "$(wc -l <basic.events)" = 56 \
    -a "$(grep -c '^#' basic.events)" = 43 -a "$(grep -c '^[0-9]' basic.events)" = 12
check "basic: time file (empty bin 3 listed)" cat basic.time <<'EOF'
0 3
10 2
20 4
30 0
40 2
50 1
--- exit 0
EOF

check "basic: the default classes suit the 6 bins: ceil(log2 6) + 1 = 4 (-classes 4 above)" tdat_body basic.events basic.time 10 2 <<'EOF'
events 12
bins 6
bin_width 10
processors 2
avg_rate 1.0000
min_rate 0.0000
max_rate 2.0000
stddev 0.6455
density 0.0000 0.5000 1 0.1667
distribution 0.5000 0.1667
density 0.5000 1.0000 1 0.1667
distribution 1.0000 0.3333
density 1.0000 1.5000 2 0.3333
distribution 1.5000 0.6667
density 1.5000 2.0000 2 0.3333
distribution 2.0000 1.0000
--- exit 0
EOF

# Both spellings of every option give the same output.
tdat_body -classes 4 basic.events basic.time 10 2 >ref.body
for spelling in "--classes=4" "--classes 4"; do
    # shellcheck disable=SC2086
    tdat_body $spelling basic.events basic.time 10 2 >alt.body
    check_same "basic: $spelling = -classes 4" ref.body alt.body
done
check_true "options may follow the operands" \
    bash -c 'tdat basic.events basic.time 10 2 -classes 4 | grep -v "^#" | cmp -s - ref.body'

# ---- -f filters (derivations in basic.events) --------------------------------
check "-f 2=WAR: only WAR events" tdat_body -classes 4 -f 2=WAR basic.events war.time 10 2 <<'EOF'
events 3
bins 5
bin_width 10
processors 2
avg_rate 0.3000
min_rate 0.0000
max_rate 0.5000
stddev 0.2449
density 0.0000 0.1250 2 0.4000
distribution 0.1250 0.4000
density 0.1250 0.2500 0 0.0000
distribution 0.2500 0.4000
density 0.2500 0.3750 0 0.0000
distribution 0.3750 0.4000
density 0.3750 0.5000 3 0.6000
distribution 0.5000 1.0000
--- exit 0
EOF
check "-f 2=WAR: time file ends at the bin of the largest WAR clock (40)" cat war.time <<'EOF'
0 1
10 0
20 1
30 0
40 1
--- exit 0
EOF
for spelling in "-f2=WAR" "--filter=2=WAR" "--filter 2=WAR" "-filter 2=WAR"; do
    # shellcheck disable=SC2086
    tdat_body -classes 4 $spelling basic.events alt.time 10 2 >alt.body
    tdat_body -classes 4 -f 2=WAR basic.events war.time 10 2 >ref.body
    check_same "$spelling = -f 2=WAR" ref.body alt.body
done

check "-f 3=1: only thread 1" tdat_body -classes 4 -f 3=1 basic.events t1.time 10 2 <<'EOF'
events 4
bins 5
bin_width 10
processors 2
avg_rate 0.4000
min_rate 0.0000
max_rate 0.5000
stddev 0.2000
density 0.0000 0.1250 1 0.2000
distribution 0.1250 0.2000
density 0.1250 0.2500 0 0.0000
distribution 0.2500 0.2000
density 0.2500 0.3750 0 0.0000
distribution 0.3750 0.2000
density 0.3750 0.5000 4 0.8000
distribution 0.5000 1.0000
--- exit 0
EOF
check "-f 3=1: time file" cat t1.time <<'EOF'
0 1
10 1
20 1
30 0
40 1
--- exit 0
EOF

check "-f 2=RAW -f 3=0: both filters must match" tdat -classes 4 -f 2=RAW -f 3=0 basic.events r0.time 10 2 <<'EOF'
# tdat (dsmtrace) 0.1.0
# command: tdat -classes 4 -f 2=RAW -f 3=0 basic.events r0.time 10 2
# input: basic.events
# options: clock_field 1 classes 4 lenient no
# filter: field 2 = RAW
# filter: field 3 = 0
# lines: total 56 blank 0 comment 43 header 1 bad_skipped 0 filtered_out 10 events 2
# rate = events in a bin / processors; bin i covers clocks [i*w, (i+1)*w); fractions are of the number of bins
events 2
bins 5
bin_width 10
processors 2
avg_rate 0.2000
min_rate 0.0000
max_rate 0.5000
stddev 0.2449
density 0.0000 0.1250 3 0.6000
distribution 0.1250 0.6000
density 0.1250 0.2500 0 0.0000
distribution 0.2500 0.6000
density 0.2500 0.3750 0 0.0000
distribution 0.3750 0.6000
density 0.3750 0.5000 2 0.4000
distribution 0.5000 1.0000
--- exit 0
EOF
check "-f 2=RAW -f 3=0: time file" cat r0.time <<'EOF'
0 0
10 0
20 1
30 0
40 1
--- exit 0
EOF
# A filter on a field that no record has matches nothing (-f 9=x: exit 2,
# tdat-bad-input.sh); a filter on the clock field itself works like any other.
check "-f 1=25: the event at clock 25 alone (3 bins: 3 classes)" tdat_body -f 1=25 basic.events one.time 10 2 <<'EOF'
events 1
bins 3
bin_width 10
processors 2
avg_rate 0.1667
min_rate 0.0000
max_rate 0.5000
stddev 0.2357
density 0.0000 0.1667 2 0.6667
distribution 0.1667 0.6667
density 0.1667 0.3333 0 0.0000
distribution 0.3333 0.6667
density 0.3333 0.5000 1 0.3333
distribution 0.5000 1.0000
--- exit 0
EOF
# (Clock 25 is in bin 2: counts 0 0 1, rates 0 0 .5, avg 1 / 3 / 2 = 0.1667;
# deviations -1/6 -1/6 1/3, squares 1/36 1/36 1/9 = 1/6, / 3 = 1/18, stddev
# sqrt(1/18) = 0.2357; 20 classes of width .025: two zeros in the first
# (0.6667), the .5 in the last.)

# ---- -c N: the clock in another field (derivations in cfield.trace) ----------
check "-c 3: min = max gives one class" tdat_body -c 3 cfield.trace cf.time 5 2 <<'EOF'
events 4
bins 4
bin_width 5
processors 2
avg_rate 0.5000
min_rate 0.5000
max_rate 0.5000
stddev 0.0000
density 0.5000 0.5000 4 1.0000
distribution 0.5000 1.0000
--- exit 0
EOF
check "-c 3: time file" cat cf.time <<'EOF'
0 1
5 1
10 1
15 1
--- exit 0
EOF
for spelling in "--clock-field=3" "--clock-field 3" "-clock_field 3" "-c3"; do
    # shellcheck disable=SC2086
    tdat_body $spelling cfield.trace alt.time 5 2 >alt.body
    tdat_body -c 3 cfield.trace cf.time 5 2 >ref.body
    check_same "$spelling = -c 3" ref.body alt.body
done
check "-c 3 -f 1=0 -classes 2" tdat_body -c 3 -f 1=0 -classes 2 cfield.trace cf0.time 5 2 <<'EOF'
events 2
bins 3
bin_width 5
processors 2
avg_rate 0.3333
min_rate 0.0000
max_rate 0.5000
stddev 0.2357
density 0.0000 0.2500 1 0.3333
distribution 0.2500 0.3333
density 0.2500 0.5000 2 0.6667
distribution 0.5000 1.0000
--- exit 0
EOF
check "-c 3 -f 1=0: time file" cat cf0.time <<'EOF'
0 0
5 1
10 1
--- exit 0
EOF

# ---- 64-bit clocks (derivations in big.events) -------------------------------
check "big: clocks up to 2^64-1, w = 2^62" tdat_body -classes 2 big.events big.time 4611686018427387904 1 <<'EOF'
events 3
bins 4
bin_width 4611686018427387904
processors 1
avg_rate 0.7500
min_rate 0.0000
max_rate 1.0000
stddev 0.4330
density 0.0000 0.5000 1 0.2500
distribution 0.5000 0.2500
density 0.5000 1.0000 3 0.7500
distribution 1.0000 1.0000
--- exit 0
EOF
check "big: time file" cat big.time <<'EOF'
0 1
4611686018427387904 0
9223372036854775808 1
13835058055282163712 1
--- exit 0
EOF

# ---- --lenient (derivations in lenient.events; without it: tdat-bad-input.sh)
check "--lenient: 3 bad lines skipped, counted in the header and on stderr" \
    tdat --lenient -classes 2 lenient.events len.time 10 1 <<'EOF'
# tdat (dsmtrace) 0.1.0
# command: tdat --lenient -classes 2 lenient.events len.time 10 1
# input: lenient.events
# options: clock_field 1 classes 2 lenient yes
# lines: total 14 blank 1 comment 6 header 1 bad_skipped 3 filtered_out 0 events 3
# rate = events in a bin / processors; bin i covers clocks [i*w, (i+1)*w); fractions are of the number of bins
events 3
bins 2
bin_width 10
processors 1
avg_rate 1.5000
min_rate 1.0000
max_rate 2.0000
stddev 0.5000
density 1.0000 1.5000 1 0.5000
distribution 1.5000 0.5000
density 1.5000 2.0000 1 0.5000
distribution 2.0000 1.0000
--- stderr
tdat: warning: lenient.events: skipped 3 lines with a bad clock field (the first: line 9)
--- exit 0
EOF
check "--lenient: time file" cat len.time <<'EOF'
0 2
10 1
--- exit 0
EOF

# ---- input forms: gzip, standard input, blanks, CR LF ------------------------
tdat_body -classes 4 basic.events basic.time 10 2 >ref.body
gzip -c basic.events >basic.gz
cp basic.gz basic-gzip-without-suffix
tdat_body -classes 4 basic.gz gz.time 10 2 >alt.body
check_same "gzip input: same frequency file" ref.body alt.body
check_same "gzip input: same time file" basic.time gz.time
tdat_body -classes 4 basic-gzip-without-suffix gz2.time 10 2 >alt.body
check_same "gzip is recognised by its content, not its name" ref.body alt.body
head -n 30 basic.events | gzip -c >two-members.gz
tail -n +31 basic.events | gzip -c >>two-members.gz
tdat_body -classes 4 two-members.gz gz3.time 10 2 >alt.body
check_same "concatenated gzip members are read one after another" ref.body alt.body
head -n 30 basic.events | zstd -q -c >two-frames
tail -n +31 basic.events | zstd -q -c >>two-frames
tdat_body -classes 4 two-frames zst.time 10 2 >alt.body
check_same "zstd (two frames, no .zst name): same frequency file" ref.body alt.body
check_same "zstd: same time file" basic.time zst.time

STDIN=basic.events check "standard input ('-'): named so in the header" \
    bash -c 'tdat -classes 4 - stdin.time 10 2 | sed -n 2,3p' <<'EOF'
# command: tdat -classes 4 - stdin.time 10 2
# input: standard input
--- exit 0
EOF
tdat_body -classes 4 - stdin.time 10 2 <basic.events >alt.body
check_same "standard input: same frequency file" ref.body alt.body
check_same "standard input: same time file" basic.time stdin.time
tdat_body -classes 4 - stdin-gz.time 10 2 <basic.gz >alt.body
check_same "gzip on standard input" ref.body alt.body

# The events of basic.events written with tabs, runs of blanks, leading
# blanks, blank lines of blanks only, CR LF line ends and no newline after
# the last line: the same numbers.
grep '^[0-9]' basic.events | awk '{ printf "%s%s\t %s  %s\t%s\r\n", NR % 2 ? "  " : "\t", $1, $2, $3, $4 }
                                   NR == 5 { printf " \t \r\n" }' >ws.events
printf '40 WAR 1 3' >>ws.events    # no final newline (one more event in bin 4)
check "blanks, tabs, CR LF, a last line without a newline" tdat_body -classes 4 ws.events ws.time 10 2 <<'EOF'
events 13
bins 6
bin_width 10
processors 2
avg_rate 1.0833
min_rate 0.0000
max_rate 2.0000
stddev 0.6719
density 0.0000 0.5000 1 0.1667
distribution 0.5000 0.1667
density 0.5000 1.0000 1 0.1667
distribution 1.0000 0.3333
density 1.0000 1.5000 1 0.1667
distribution 1.5000 0.5000
density 1.5000 2.0000 3 0.5000
distribution 2.0000 1.0000
--- exit 0
EOF
# (basic.events plus one event at 40: counts 3 2 4 0 3 1, rates 1.5 1 2 0
# 1.5 .5; avg 13 / 6 / 2 = 13/12 = 1.0833; deviations in twelfths 5 -1 11
# -13 5 -7, squares (25 + 1 + 121 + 169 + 25 + 49) / 144 = 390 / 144, / 6 =
# 0.451389, stddev 0.6719. Classes of width .5: 0 -> class 1; .5 -> 2;
# 1 -> 3; 1.5, 2 and 1.5 -> 4.)
check "blanks, tabs, CR LF: time file" cat ws.time <<'EOF'
0 3
10 2
20 4
30 0
40 3
50 1
--- exit 0
EOF

# ---- determinism and replacing an earlier time file --------------------------
tdat -classes 4 basic.events run1.time 10 2 >run1.out
tdat -classes 4 basic.events run2.time 10 2 >run2.out
sed 's/run2.time/run1.time/' run2.out >run2.fixed
check_same "two runs: byte-identical frequency files" run1.out run2.fixed
check_same "two runs: byte-identical time files" run1.time run2.time
printf 'an earlier, longer time file\nwith other lines\nand more\n%.0s' 1 2 3 4 >old.time
tdat -classes 4 basic.events old.time 10 2 >/dev/null
check_same "an existing time file is replaced whole" basic.time old.time
