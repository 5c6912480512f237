# tdat-bad-input.sh — every error class of tdat (docs/tdat.md; README.md
# "Exit status and messages"): a bad clock
# after the header (with its line number; --lenient skips), a missing clock
# field, a clock past 2^64-1, too many bins (and --max-bins), overlong lines
# (in little memory), an empty trace, a trace whose
# events the filters all drop, unreadable and corrupt input, bad operands and
# options (exit 1 with a hint to --help), outputs that cannot be written.
# After each error: the exact message, the exit status, nothing on stdout,
# no time file, no SVG and no temporary file left behind, and an earlier
# time file untouched.
D=$CLI_DIR/tdat
cp "$D"/basic.events "$D"/lenient.events .

# no_outputs NAME: no time file (out.time), no SVG (out.svg), no temporary.
no_outputs() {
    local left="" f
    for f in out.time out.svg ./*.tmp.* ./.*.tmp.*; do
        [ -e "$f" ] && left="$left ${f#./}"
    done
    if [ -z "$left" ]; then
        _cli_result ok "$1"
    else
        echo "left behind:$left" >.cli-diff
        _cli_result FAIL "$1" .cli-diff
        rm -f .cli-diff out.time out.svg ./*.tmp.*
    fi
}

# ---- a bad clock after the first data line (lenient.events) -----------------
# Line 9 is "x RAW 1 0", after the data line 8 (lines 1-6 are comments,
# line 7 the header "clock event thread degree").
check "bad clock: error with the line number" tdat --svg out.svg lenient.events out.time 10 1 <<'EOF'
--- stderr
tdat: lenient.events: line 9: clock field 1 is not an unsigned integer: 'x' (--lenient skips such lines)
--- exit 2
EOF
no_outputs "bad clock: no time file, no SVG, no temporary"
# The same with --lenient: tdat-golden.sh ("--lenient: 3 bad lines skipped").
STDIN=lenient.events check "bad clock on standard input: named '-'" tdat - out.time 10 1 <<'EOF'
--- stderr
tdat: -: line 9: clock field 1 is not an unsigned integer: 'x' (--lenient skips such lines)
--- exit 2
EOF
no_outputs "bad clock on standard input: nothing left"

# Other bad clocks, each after a good data line 1.
bad_clock() {   # NAME LINE2 MESSAGE-TAIL
    printf '5 RAW 0 0\n%s\n' "$2" >bad.events
    check "bad clock: $1" tdat bad.events out.time 10 1 <<EOF
--- stderr
tdat: bad.events: line 2: $3
--- exit 2
EOF
    no_outputs "bad clock: $1: nothing left"
}
bad_clock "a negative number" "-5 RAW 0 0" "clock field 1 is not an unsigned integer: '-5' (--lenient skips such lines)"
bad_clock "a sign" "+5 RAW 0 0" "clock field 1 is not an unsigned integer: '+5' (--lenient skips such lines)"
bad_clock "hexadecimal" "0x10 RAW 0 0" "clock field 1 is not an unsigned integer: '0x10' (--lenient skips such lines)"
bad_clock "a fraction" "7.5 RAW 0 0" "clock field 1 is not an unsigned integer: '7.5' (--lenient skips such lines)"
bad_clock "a second header after the data" "clock event thread degree" \
    "clock field 1 is not an unsigned integer: 'clock' (--lenient skips such lines)"
bad_clock "a long field (cut at 40 characters)" "123456789012345678901234567890123456789012345678901234567890x RAW" \
    "clock field 1 is not an unsigned integer: '1234567890123456789012345678901234567890...' (--lenient skips such lines)"
bad_clock "2^64 (one past the largest clock)" "18446744073709551616 RAW 0 0" \
    "clock 18446744073709551616 is larger than 18446744073709551615 (--lenient skips such lines)"

# An overlong number before any data line is a data line gone bad, not a header.
printf '# c\n99999999999999999999 RAW 0 0\n5 RAW 0 0\n' >over.events
check "a clock past 2^64-1 on the first data line" tdat over.events out.time 10 1 <<'EOF'
--- stderr
tdat: over.events: line 2: clock 99999999999999999999 is larger than 18446744073709551615 (--lenient skips such lines)
--- exit 2
EOF
no_outputs "clock past 2^64-1: nothing left"

# -c 3: a data line with fewer than 3 fields after the first data line.
printf 'p a clock\n0 0x10 5\n1 0x20\n' >short.trace
check "-c 3: a line without field 3" tdat -c 3 short.trace out.time 10 1 <<'EOF'
--- stderr
tdat: short.trace: line 3: no clock field 3 (the line has 2 fields; --lenient skips such lines)
--- exit 2
EOF
no_outputs "missing clock field: nothing left"
printf 'p a clock\n0 0x10 5\n1\n' >short1.trace
check "-c 3: a line of one field" tdat -c 3 short1.trace out.time 10 1 <<'EOF'
--- stderr
tdat: short1.trace: line 3: no clock field 3 (the line has 1 field; --lenient skips such lines)
--- exit 2
EOF
check "-c 3 --lenient: the short line is skipped" bash -c \
    'tdat -c 3 --lenient short.trace out.time 10 1 | grep -E "^(# lines|events)"; cat out.time; rm out.time' <<'EOF'
# lines: total 3 blank 0 comment 0 header 1 bad_skipped 1 filtered_out 0 events 1
events 1
0 1
--- stderr
tdat: warning: short.trace: skipped 1 line with a bad clock field (the first: line 3)
--- exit 0
EOF

# ---- too many bins -----------------------------------------------------------
# By default at most 2^24 = 16777216 bins: bin 2^24 is one past the limit, so
# w = 1 fails on a stray clock 16777216, and the message gives the smallest
# width that fits (16777216 / 2^24 + 1) and the --max-bins that would do.
printf '1 RAW 0 0\n16777216 RAW 0 0\n' >far.events
check "stray clock in bin 2^24: error, suggests a bin width and --max-bins" tdat far.events out.time 1 1 <<'EOF'
--- stderr
tdat: far.events: line 2: clock 16777216 falls in bin 16777216, beyond the limit of 16777216 bins; use a bin width of at least 2, or raise the limit with --max-bins 16777217 (the time file has a line per bin)
--- exit 2
EOF
no_outputs "too many bins: nothing left"
# The suggestion works: 2^24 + 1 bins, a time file of 16777217 lines.
check "--max-bins 16777217 takes the stray clock" \
    bash -c 'tdat --max-bins 16777217 far.events out.time 1 1 | grep -E "^(events|bins) "; wc -l <out.time; tail -n 2 out.time' <<'EOF'
events 2
bins 16777217
16777217
16777215 0
16777216 1
--- exit 0
EOF
rm -f out.time
# The other way round: -max_bins=8 holds clocks 0..79 in bins of 10, not 80.
printf '79 RAW 0 0\n' >b79.events
check "-max_bins=8 (the report spelling): clock 79, w 10: 8 bins" \
    bash -c 'tdat -max_bins=8 b79.events out.time 10 1 | grep "^bins "; rm out.time' <<'EOF'
bins 8
--- exit 0
EOF
printf '80 RAW 0 0\n' >b80.events
check "--max-bins 8: clock 80, w 10 is in bin 8" tdat --max-bins 8 b80.events out.time 10 1 <<'EOF'
--- stderr
tdat: b80.events: line 1: clock 80 falls in bin 8, beyond the limit of 8 bins; use a bin width of at least 11, or raise the limit with --max-bins 9 (the time file has a line per bin)
--- exit 2
EOF
# 2^64-1 is in bin floor((2^64-1) / 1000) = 18446744073709551, beyond what
# --max-bins allows (2^32), so only the width: the smallest w with
# (2^64-1) / w < 2^24 is floor((2^64-1) / 2^24) + 1 = 2^40 = 1099511627776
# (that the suggestion is the smallest that fits: tests/unit/test_tdat.c).
printf '18446744073709551615 RAW 0 0\n' >max.events
check "clock 2^64-1 with w 1000: suggests 2^40" tdat max.events out.time 1000 1 <<'EOF'
--- stderr
tdat: max.events: line 1: clock 18446744073709551615 falls in bin 18446744073709551, beyond the limit of 16777216 bins; use a bin width of at least 1099511627776
--- exit 2
EOF
check "one bin: no width holds clock 2^64-1" tdat --max-bins 1 max.events out.time 1 1 <<'EOF'
--- stderr
tdat: max.events: line 1: clock 18446744073709551615 falls in bin 18446744073709551615, beyond the limit of 1 bin; no bin width puts it in bin 0: give --max-bins 2 or more
--- exit 2
EOF
no_outputs "too many bins (--max-bins): nothing left"

# ---- overlong lines ------------------------------------------------------------
# Lines are at most 1048576 characters (the line end aside); a longer one is
# refused as soon as 1048578 characters without a line end have come, before
# it is buffered whole: a 64 MiB line costs no 64 MiB of memory.
{ printf '5 '; head -c 1048574 /dev/zero | tr '\0' x; printf '\r\n'; } >limit.events
check "a line of 1048576 characters (and a CR)" bash -c 'tdat limit.events out.time 10 1 | grep "^events "; cat out.time; rm out.time' <<'EOF'
events 1
0 1
--- exit 0
EOF
{ printf '5 RAW\n5 '; head -c 1048575 /dev/zero | tr '\0' x; printf '\n6 RAW\n'; } >over.events
check "a line of 1048577 characters" tdat over.events out.time 10 1 <<'EOF'
--- stderr
tdat: over.events: line 2: longer than 1048576 characters
--- exit 2
EOF
check "... even with --lenient" tdat --lenient over.events out.time 10 1 <<'EOF'
--- stderr
tdat: over.events: line 2: longer than 1048576 characters
--- exit 2
EOF
head -c 67108864 /dev/zero | tr '\0' 1 >huge.events
check "a line of 64 MiB" tdat huge.events out.time 10 1 <<'EOF'
--- stderr
tdat: huge.events: line 1: longer than 1048576 characters
--- exit 2
EOF
check_memory "a line of 64 MiB: refused in less than 32 MiB of memory" 32768 tdat huge.events out.time 10 1
STDIN=huge.events check_memory "... from standard input too" 32768 tdat - out.time 10 1
rm -f huge.events
no_outputs "overlong lines: nothing left"

# ---- empty traces ------------------------------------------------------------
# No events is not an error (as an empty trace is not for ciat, cdat and
# smait): a warning naming the input, and a valid report of zero events
# with no bins and no classes (no division by zero); the time file is empty.
: >empty.events
check "an empty trace: a warning and a report of no events" bash -c \
    'tdat empty.events out.time 10 1 | grep -v "^#"; wc -c < out.time' <<'EOF'
events 0
bins 0
bin_width 10
processors 1
avg_rate 0.0000
min_rate 0.0000
max_rate 0.0000
stddev 0.0000
0
--- stderr
tdat: warning: empty.events: no events: the trace has no data lines (0 lines read, none with an unsigned integer in field 1)
--- exit 0
EOF
rm -f out.time
printf '# ciat communication events of x.4\n# fields: clock event thread degree\n\nclock event\n' >header-only.events
check "only comments, a blank line and a header" bash -c 'tdat header-only.events 10 1 | grep -E "^(# lines|events)"' <<'EOF'
# lines: total 4 blank 1 comment 2 header 1 bad_skipped 0 filtered_out 0 events 0
events 0
--- stderr
tdat: warning: header-only.events: no events: the trace has no data lines (4 lines read, none with an unsigned integer in field 1)
--- exit 0
EOF
# Lines of fields, none with a clock in the field, more than one column
# header: not an event trace for that field (a wrong -c, a source file): an
# error, exit 2, nothing written (one header line and no data is an empty
# trace, above). basic.events: 43 comment lines, then its column header
# (line 44) and 12 events, none with a field 5; source.c (busylock.c): its
# 29 lines that are neither blank nor '#' lines (its #includes read as
# comments), the first at line 1.
check "-c 5 on a trace of 4 fields: not an event trace for field 5, exit 2" tdat -c 5 basic.events out.time 10 1 <<'EOF'
--- stderr
tdat: basic.events: line 44: not an event trace with its clock in field 5: none of its 13 lines of fields has an unsigned integer there (-c N names the clock field; ciat's and cdat's event traces have it in field 1)
--- exit 2
EOF
check_true "-c 5: no time file written" test ! -e out.time
cp "$CLI_DIR/collector/busylock.c" source.c
check "a C source as the trace: not an event trace, exit 2" tdat source.c 10 1 <<'EOF'
--- stderr
tdat: source.c: line 1: not an event trace with its clock in field 1: none of its 29 lines of fields has an unsigned integer there (-c N names the clock field; ciat's and cdat's event traces have it in field 1)
--- exit 2
EOF
check "filters that keep nothing" bash -c 'tdat -f 2=XYZ basic.events 10 1 | grep "^events"' <<'EOF'
events 0
--- stderr
tdat: warning: basic.events: no events: the filters (-f) kept none of the 12 data lines
--- exit 0
EOF
check "a filter on a field no record has" bash -c 'tdat -f 9=x basic.events 10 1 | grep "^events"' <<'EOF'
events 0
--- stderr
tdat: warning: basic.events: no events: the filters (-f) kept none of the 12 data lines
--- exit 0
EOF
STDIN=/dev/null check "empty standard input" bash -c 'tdat - 10 1 | grep "^events"' <<'EOF'
events 0
--- stderr
tdat: warning: -: no events: the trace has no data lines (0 lines read, none with an unsigned integer in field 1)
--- exit 0
EOF
check "an empty trace with --svg: a valid picture saying so" bash -c \
    'tdat --svg empty.svg empty.events 10 1 >/dev/null 2>&1 && xmllint --noout empty.svg && grep -c ">no events<" empty.svg' <<'EOF'
1
--- exit 0
EOF
rm -f empty.svg
no_outputs "empty inputs: nothing else left"

# ---- unreadable and corrupt input --------------------------------------------
check "missing file" tdat missing.events out.time 10 1 <<'EOF'
--- stderr
tdat: missing.events: cannot read: No such file or directory
--- exit 2
EOF
mkdir adir
check "a directory" tdat adir out.time 10 1 <<'EOF'
--- stderr
tdat: adir: cannot read: is a directory
--- exit 2
EOF
gzip -c basic.events | head -c 300 >trunc.gz
check "truncated gzip" tdat trunc.gz out.time 10 1 <<'EOF'
--- stderr
tdat: trunc.gz: line 8: compressed stream is truncated (unexpected end of file)
--- exit 2
EOF
no_outputs "unreadable input: nothing left"

# ---- operands ----------------------------------------------------------------
usage() {   # NAME MESSAGE ARGS...
    local name=$1 msg=$2
    shift 2
    check "usage: $name" tdat "$@" <<EOF
--- stderr
tdat: $msg
tdat: try 'tdat --help'
--- exit 1
EOF
}
usage "w = 0" "bin width must be at least 1, not 0" basic.events out.time 0 1
usage "p = 0" "p (processors) must be at least 1, not 0" basic.events out.time 10 0
usage "w not a number" "bin width 'ten' is not a positive integer" basic.events out.time ten 1
usage "w with a fraction" "bin width '2.5' is not a positive integer" basic.events out.time 2.5 1
usage "p not a number" "p (processors) '4x' is not a positive integer" basic.events out.time 10 4x
usage "w past 2^64-1" "bin width '18446744073709551616' is larger than 18446744073709551615" \
    basic.events out.time 18446744073709551616 1
usage "p negative (an option to the parser)" "unknown option '-2'" basic.events out.time 10 -2
usage "no operands" "missing the event trace (usage: tdat [options] event_trace [time_file] bin_width p)"
usage "no bin width" "missing the bin width (usage: tdat [options] event_trace [time_file] bin_width p)" basic.events
usage "no p" "missing p, the number of processors (usage: tdat [options] event_trace [time_file] bin_width p)" \
    basic.events 10
usage "a time file without p: the bin width is read as p" "bin width 'out.time' is not a positive integer" \
    basic.events out.time 10
usage "extra operand" "extra operand 'extra'" basic.events out.time 10 1 extra
usage "SVG file '-'" "the SVG file cannot be '-': standard output carries the frequency or time file" \
    --svg - basic.events out.time 10 1
usage "--freq '-'" "the frequency file cannot be '-': standard output carries the frequency or time file" \
    --freq - basic.events out.time 10 1
usage "picture options without --svg" \
    "--title, --xlabel, --ylabel, --size, --log and --series are for the picture: give --svg FILE" \
    --title T basic.events 10 1
usage "--size not WxH" "option --size: must be WIDTHxHEIGHT in pixels, e.g. 1200x900" \
    --svg x.svg --size 1200 basic.events 10 1
usage "--size too small" "option --size: width and height must be from 400 to 20000 pixels" \
    --svg x.svg --size 100x900 basic.events 10 1
usage "time file = event trace" "time file basic.events is the event trace itself" basic.events basic.events 10 1
usage "SVG file = event trace" "SVG file basic.events is the event trace itself" --svg basic.events basic.events out.time 10 1
usage "SVG file = time file" "the SVG file and the time file are both out.time" --svg out.time basic.events out.time 10 1
usage "--freq file = time file" "the frequency file and the time file are both out.time" --freq out.time basic.events out.time 10 1
usage "time file is a device" \
    "time file /dev/null is not a regular file (outputs are written to a temporary file and renamed into place)" \
    basic.events /dev/null 10 1
check_true "the event trace is untouched" grep -q '^25 RAW 1 0$' basic.events
no_outputs "usage errors: nothing left"

# ---- options -----------------------------------------------------------------
usage "unknown option" "unknown option '--bogus'" --bogus basic.events out.time 10 1
usage "-classes 0" "option -classes: 0 is out of range (1..1000000)" -classes 0 basic.events out.time 10 1
usage "-classes 1000001" "option --classes: 1000001 is out of range (1..1000000)" --classes 1000001 basic.events out.time 10 1
usage "-classes x" "option -classes: 'x' is not a non-negative integer" -classes x basic.events out.time 10 1
usage "-c 0" "option -c: 0 is out of range (1..65535)" -c 0 basic.events out.time 10 1
usage "-c 65536" "option -c: 65536 is out of range (1..65535)" -c 65536 basic.events out.time 10 1
usage "--max-bins 0" "option --max-bins: 0 is out of range (1..4294967296)" --max-bins 0 basic.events out.time 10 1
usage "-max_bins 4294967297" "option -max_bins: 4294967297 is out of range (1..4294967296)" -max_bins 4294967297 basic.events out.time 10 1
usage "-f without =" "option -f: expects N=VALUE (e.g. 2=WAR: field 2 equals WAR)" -f WAR basic.events out.time 10 1
usage "-f 0=WAR" "option -f: N must be a field number from 1 to 65535 (N=VALUE)" -f 0=WAR basic.events out.time 10 1
usage "-f x=WAR" "option -f: N must be a field number from 1 to 65535 (N=VALUE)" -f x=WAR basic.events out.time 10 1
usage "-f 2=" "option -f: VALUE is empty (a field is never empty)" -f 2= basic.events out.time 10 1
usage "-f '2=W R'" "option -f: VALUE contains a blank or tab (a field never does)" -f "2=W R" basic.events out.time 10 1
usage "-f without a value" "option '-f' needs a value (N=VALUE)" basic.events out.time 10 1 -f
usage "--svg without a value" "option '--svg' needs a value (FILE)" basic.events out.time 10 1 --svg
usage "--lenient=yes" "option '--lenient' takes no value" --lenient=yes basic.events out.time 10 1
no_outputs "option errors: nothing left"
check "--help documents every option" bash -c 'tdat --help | grep -oE -- "(--classes|--filter|--clock-field|--max-bins|--lenient|--svg|--help|--version)" | sort -u' <<'EOF'
--classes
--clock-field
--filter
--help
--lenient
--max-bins
--svg
--version
--- exit 0
EOF
check "--version" tdat --version <<'EOF'
tdat (dsmtrace) 0.1.0
--- exit 0
EOF

# ---- outputs that cannot be written; an earlier time file survives -----------
check "time file in a missing directory" tdat basic.events nodir/out.time 10 1 <<'EOF'
--- stderr
tdat: nodir/out.time: cannot create output file: No such file or directory
--- exit 2
EOF
check "SVG file in a missing directory" tdat --svg nodir/out.svg basic.events out.time 10 1 <<'EOF'
--- stderr
tdat: nodir/out.svg: cannot create output file: No such file or directory
--- exit 2
EOF
no_outputs "unwritable outputs: nothing left"
printf 'the earlier time file\n' >keep.time
cp keep.time keep.orig
printf 'keep.svg\n' >keep.svg
cp keep.svg keep-svg.orig
tdat --svg keep.svg lenient.events keep.time 10 1 >/dev/null 2>&1
check_same "a failed run leaves an earlier time file as it was" keep.orig keep.time
check_same "a failed run leaves an earlier SVG as it was" keep-svg.orig keep.svg
check "stdout is empty after an error" bash -c 'tdat lenient.events out.time 10 1 2>/dev/null | wc -c' <<'EOF'
0
--- exit 0
EOF
no_outputs "after the failed runs: nothing left"
