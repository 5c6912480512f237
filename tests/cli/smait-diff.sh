# smait-diff.sh — smait diff A B (docs/json.md, "Comparing reports"): equal
# reports (also reordered, compressed, two runs of one command, a report and
# its JSON form) exit 0 with
# nothing printed; changed figures are printed under their line with the
# change and the relative change, histogram entries as maps, lines of one
# report only as such, and exit 1; --rel-tol and --ignore-header; counts past
# 2^53 are compared exactly; reports of different tools or shapes (phases,
# threads, classes) and bad input (also bad JSON: cut short, another format
# or version, nested too deep, a lone surrogate, lines without their parts)
# exit 2 naming the file and line or offset; usage errors exit 2 too (as
# diff(1): 1 is only "different"); --whole-run compares only the RxTx lines.
cp "$CLI_DIR/ciat/atomic.report.expected" a.rep

check "a report and itself: nothing, exit 0" smait diff a.rep a.rep <<'EOF'
--- exit 0
EOF
{ grep '^#' a.rep; grep -v '^#' a.rep | sort -r; } >reordered.rep
check "the same lines in another order: exit 0" smait diff a.rep reordered.rep <<'EOF'
--- exit 0
EOF
gzip -n -c a.rep >a.rep.gz
check "a compressed report: exit 0" smait diff a.rep.gz a.rep <<'EOF'
--- exit 0
EOF

sed -e 's/^R1T0L10: raw 1$/R1T0L10: raw 2/' \
    -e 's/^RxTxL01: mem total 6 loads 5 83.33%/RxTxL01: mem total 6 loads 6 100.00%/' \
    -e 's/^R1TxL11: raw_degree 1:3$/R1TxL11: raw_degree 1:2 2:1/' \
    -e '/^RxT1L15: rar 0$/d' a.rep >b.rep
check "changed figures, a histogram entry, a line only in A: exit 1" smait diff a.rep b.rep <<'EOF'
R1T0L10 raw:
  raw: 1 -> 2 (+1, +100.00%)
R1TxL11 raw_degree:
  bin 1: 3 -> 2 (-1, -33.33%)
  bin 2: 0 -> 1 (+1, new)
only in A: RxT1L15: rar 0
RxTxL01 mem:
  loads: 5 -> 6 (+1, +20.00%)
  loads: 83.33% -> 100.00% (+16.67, +20.00%)
5 of 390 figures differ; 1 line only in A, 0 only in B
--- exit 1
EOF
check "the other way round: a line only in B" smait diff b.rep a.rep <<'EOF'
R1T0L10 raw:
  raw: 2 -> 1 (-1, -50.00%)
R1TxL11 raw_degree:
  bin 1: 2 -> 3 (+1, +50.00%)
  bin 2: 1 -> 0 (-1, -100.00%)
RxTxL01 mem:
  loads: 6 -> 5 (-1, -16.67%)
  loads: 100.00% -> 83.33% (-16.67, -16.67%)
only in B: RxT1L15: rar 0
5 of 390 figures differ; 0 lines only in A, 1 only in B
--- exit 1
EOF
check "--rel-tol 0.25: changes of at most a quarter of the larger are equal" \
    smait diff --rel-tol 0.25 a.rep b.rep <<'EOF'
R1T0L10 raw:
  raw: 1 -> 2 (+1, +100.00%)
R1TxL11 raw_degree:
  bin 1: 3 -> 2 (-1, -33.33%)
  bin 2: 0 -> 1 (+1, new)
only in A: RxT1L15: rar 0
3 of 390 figures differ (2 more within --rel-tol); 1 line only in A, 0 only in B
--- exit 1
EOF
sed 's/^RxTxL01: mem total 6 loads 5 83.33%/RxTxL01: mem total 6 loads 6 100.00%/' a.rep >c.rep
check "--rel-tol 0.2: every change within it, exit 0" smait diff --rel-tol 0.2 a.rep c.rep <<'EOF'
0 of 390 figures differ (2 more within --rel-tol); 0 lines only in A, 0 only in B
--- exit 0
EOF

sed -e 's/^# command: .*/# command: ciat -p -ciat_events elsewhere\/atomic.2/' \
    -e 's/skipped_records 0 truncated_bytes 0/skipped_records 3 truncated_bytes 0/' a.rep >h.rep
check "header lines are compared: words as lines, numbers as figures" smait diff a.rep h.rep <<'EOF'
only in A: # command: ciat -p -ciat_events atomic.2
# bad_input::
  skipped_records: 0 -> 3 (+3, new)
only in B: # command: ciat -p -ciat_events elsewhere/atomic.2
1 of 390 figures differ; 1 line only in A, 1 only in B
--- exit 1
EOF
check "--ignore-header leaves them out" smait diff --ignore-header a.rep h.rep <<'EOF'
--- exit 0
EOF

sed 's/^R1T0L10: raw 1$/R1T0L10: raw 18446744073709551615/' a.rep >big1.rep
sed 's/^R1T0L10: raw 1$/R1T0L10: raw 18446744073709551614/' a.rep >big2.rep
check "counts past 2^53 are compared exactly" smait diff big1.rep big2.rep <<'EOF'
R1T0L10 raw:
  raw: 18446744073709551615 -> 18446744073709551614 (-1, -0.00%)
1 of 390 figures differ; 0 lines only in A, 0 only in B
--- exit 1
EOF

sed 's/^R1T0L10: raw 1$/R1T0L10: raw 123456789012345678901234567890/' a.rep >long1.rep
sed 's/^R1T0L10: raw 1$/R1T0L10: raw 0123456789012345678901234567891/' a.rep >long2.rep
check "integers past 2^64: compared by their digits" smait diff long1.rep long2.rep <<'EOF'
R1T0L10 raw:
  raw: 123456789012345678901234567890 -> 0123456789012345678901234567891 (integers past 2^64)
1 of 390 figures differ; 0 lines only in A, 0 only in B
--- exit 1
EOF
sed 's/^R1T0L10: raw 1$/R1T0L10: raw 000123456789012345678901234567890/' a.rep >long3.rep
check "... and equal with leading zeros" smait diff long1.rep long3.rep <<'EOF'
--- exit 0
EOF

# ---- real runs: cdat under two protocols, tdat --------------------------------
awk -v seed=5 -v threads=4 -v n=200 -f "$CLI_DIR/ciat/randset.awk" >rs.txt
smait asm rs.txt rs
mkdir p1 p3
sed 's/^protocol *=.*/protocol = 3/' "$CLI_DIR/cdat/2x2-p1.ini" >p3.ini
cdat -q -o p1 rs.4 "$CLI_DIR/cdat/2x2-p1.ini" 2>/dev/null
mv p1/rs.4.cdat_report first.rep
cdat -q -o p1 rs.4 "$CLI_DIR/cdat/2x2-p1.ini" 2>/dev/null
cdat -q -o p3 rs.4 p3.ini 2>/dev/null
check "two runs of one command: exit 0" smait diff first.rep p1/rs.4.cdat_report <<'EOF'
--- exit 0
EOF
check "protocols 1 and 3: they differ (exit 1), a count line last" \
    bash -c 'smait diff --ignore-header p1/rs.4.cdat_report p3/rs.4.cdat_report | tail -1 |
             grep -qE "^[1-9][0-9]* of [0-9]+ figures differ; [0-9]+ lines? only in A, [0-9]+ only in B$";
             exit ${PIPESTATUS[0]}' <<'EOF'
--- exit 1
EOF

cp "$CLI_DIR/tdat/basic.events" .
tdat -classes 4 basic.events t.time 10 2 >f4.txt
tdat -classes 4 basic.events t.time 10 3 >f4p3.txt
tdat -classes 5 basic.events t.time 10 2 >f5.txt
check "tdat: other p, the same bins: rates differ" smait diff --ignore-header f4.txt f4p3.txt <<'EOF'
processors:
  processors: 2 -> 3 (+1, +50.00%)
avg_rate:
  avg_rate: 1.0000 -> 0.6667 (-0.3333, -33.33%)
max_rate:
  max_rate: 2.0000 -> 1.3333 (-0.6667, -33.34%)
stddev:
  stddev: 0.6455 -> 0.4303 (-0.2152, -33.34%)
density (1 of 4):
  density[1]: 0.5000 -> 0.3333 (-0.1667, -33.34%)
distribution (1 of 4):
  distribution: 0.5000 -> 0.3333 (-0.1667, -33.34%)
density (2 of 4):
  density: 0.5000 -> 0.3333 (-0.1667, -33.34%)
  density[1]: 1.0000 -> 0.6667 (-0.3333, -33.33%)
distribution (2 of 4):
  distribution: 1.0000 -> 0.6667 (-0.3333, -33.33%)
density (3 of 4):
  density: 1.0000 -> 0.6667 (-0.3333, -33.33%)
  density[1]: 1.5000 -> 1.0000 (-0.5000, -33.33%)
distribution (3 of 4):
  distribution: 1.5000 -> 1.0000 (-0.5000, -33.33%)
density (4 of 4):
  density: 1.5000 -> 1.0000 (-0.5000, -33.33%)
  density[1]: 2.0000 -> 1.3333 (-0.6667, -33.34%)
distribution (4 of 4):
  distribution: 2.0000 -> 1.3333 (-0.6667, -33.34%)
15 of 32 figures differ; 0 lines only in A, 0 only in B
--- exit 1
EOF
check "tdat: another number of classes is another shape: exit 2" smait diff f4.txt f5.txt <<'EOF'
--- stderr
smait: the reports have different shapes: f4.txt has 4 'density' lines, f5.txt has 5 (another number of classes)
--- exit 2
EOF

# ---- different tools and shapes, bad input ------------------------------------
grep -v '^R1T1' a.rep >s.rep
check "a thread's lines missing: another shape, exit 2" smait diff a.rep s.rep <<'EOF'
--- stderr
smait: the reports have different shapes: a.rep has lines for R1T1, s.rep has none (other phases or threads)
--- exit 2
EOF
# --whole-run: only the whole run's lines (RxTx) and the header, so the shape
# of the phases and threads is not compared. s.rep lacks thread 1's phase-1
# lines, which the whole-run lines sum: the same RxTx lines, exit 0.
check "--whole-run: a thread's lines missing, the whole-run lines the same: exit 0" \
    smait diff --whole-run a.rep s.rep <<'EOF'
--- exit 0
EOF
# b.rep changed RxTxL01's loads (the count and its share) among others:
# only those two of the 101 figures of the header and the RxTx lines.
check "--whole-run: only the whole run's changed figures" smait diff --whole-run a.rep b.rep <<'EOF'
RxTxL01 mem:
  loads: 5 -> 6 (+1, +20.00%)
  loads: 83.33% -> 100.00% (+16.67, +20.00%)
2 of 101 figures differ; 0 lines only in A, 0 only in B
--- exit 1
EOF
check "--whole-run on a tdat frequency file: a usage error, exit 2" smait diff --whole-run f4.txt f4.txt <<'EOF'
--- stderr
smait: --whole-run is for ciat's and cdat's reports; f4.txt is a tdat report
smait: try 'smait --help'
--- exit 2
EOF
check "a ciat and a cdat report: exit 2" smait diff a.rep p1/rs.4.cdat_report <<'EOF'
--- stderr
smait: a.rep is a ciat report and p1/rs.4.cdat_report a cdat report: smait diff compares reports of one tool
--- exit 2
EOF
check "a ciat report and a tdat frequency file: exit 2" smait diff f4.txt a.rep <<'EOF'
--- stderr
smait: f4.txt is a tdat report and a.rep a ciat report: smait diff compares reports of one tool
--- exit 2
EOF
sed '12s/^R/X/' a.rep >broken.rep
check "a line that is not a report line: exit 2, its number" smait diff a.rep broken.rep <<'EOF'
--- stderr
smait: broken.rep: line 12: not a line of a ciat report (a '#' header line or 'R<phase>T<thread>L<nn>: name fields')
--- exit 2
EOF
{ cat f4.txt; echo "R1T0L01: mem total 1"; } >tagged.txt
check "a tagged line in a tdat frequency file: exit 2" smait diff f4.txt tagged.txt <<'EOF'
--- stderr
smait: tagged.txt: line 23: not a line of a tdat frequency file (a '#' header line or 'name fields')
--- exit 2
EOF
: >empty.rep
check "an empty file: exit 2" smait diff a.rep empty.rep <<'EOF'
--- stderr
smait: empty.rep: an empty file, not a report
--- exit 2
EOF
echo hello >t.txt
check "not a report: exit 2" smait diff t.txt a.rep <<'EOF'
--- stderr
smait: t.txt: line 1: not a report of ciat, cdat or tdat (the first line of one is '# ciat (dsmtrace) VERSION', or cdat or tdat, or '{' for the JSON form)
--- exit 2
EOF

# ---- JSON reports (--json): read back into their text lines ------------------
mkdir js
smait asm "$CLI_DIR/ciat/atomic.txt" atomic
ciat -q --json -p -o js atomic.2
cdat -q --json -o js rs.4 "$CLI_DIR/cdat/2x2-p1.ini" 2>/dev/null
tdat --json js/f4.json -classes 4 basic.events t.time 10 2 >js/f4.txt
check "a ciat report and its JSON form: exit 0" smait diff js/atomic.2.ciat_report js/atomic.2.ciat_report.json <<'EOF'
--- exit 0
EOF
check "a cdat report and its JSON form: exit 0" smait diff js/rs.4.cdat_report.json js/rs.4.cdat_report <<'EOF'
--- exit 0
EOF
check "a tdat frequency file and its JSON form: exit 0" smait diff js/f4.json js/f4.txt <<'EOF'
--- exit 0
EOF
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for l in d["lines"]:
    if l["tag"] == "R1T0L10":
        l["text"] = "2"
print(json.dumps(d, ensure_ascii=True))' js/atomic.2.ciat_report.json >js/changed.json
check "a changed JSON report (rewritten by Python): exit 1" smait diff js/atomic.2.ciat_report.json js/changed.json <<'EOF'
R1T0L10 raw:
  raw: 1 -> 2 (+1, +100.00%)
1 of 390 figures differ; 0 lines only in A, 0 only in B
--- exit 1
EOF
J=js/atomic.2.ciat_report.json
head -c 500 "$J" >cut.json
sed 's/"version": 1/"version": 2/' "$J" >v2.json
sed 's/"dsmtrace-report"/"other"/' "$J" >fmt.json
python3 -c "print('{\"x\": ' + '[' * 100000 + ']' * 100000 + '}')" >deep.json
printf '{"format": "dsmtrace-report", "version": 1, "tool": "ciat", "header": ["a\\ud800"], "lines": []}' >sur.json
printf '{"format": "dsmtrace-report", "version": 1, "tool": "ciat", "header": [], "lines": [{"tag": "R1T0L01"}]}' >noname.json
printf '{"format": "dsmtrace-report", "version": 1, "tool": "ciat", "header": [], "lines": [{"name": "mem", "text": "total 3"}]}' >notag.json
printf '{"format": "dsmtrace-report", "version": 1, "tool": "ciat", "header": [], "lines": []} x' >trail.json
printf '{"format": "dsmtrace-report", "version": 1, "header": [], "lines": []}' >notool.json
printf '{"format": "dsmtrace-report", "version": 1, "tool": "ciat", "header": [], "lines": []}' >nolines.json
json_bad() {    # NAME FILE MESSAGE
    check "JSON: $1: exit 2" smait diff "$2" "$J" <<EOF
--- stderr
smait: $2: $3
--- exit 2
EOF
}
json_bad "cut short" cut.json "500: not a JSON report: a string without its closing quote"
json_bad "version 2" v2.json "46: not a JSON report: version 1 expected (the layout this smait reads)"
json_bad "another format" fmt.json "21: not a JSON report: its format is not \"dsmtrace-report\""
json_bad "nested 100000 deep" deep.json "262: not a JSON report: nested more than 256 deep"
json_bad "a lone surrogate" sur.json "79: not a JSON report: a lone surrogate in a string"
json_bad "a line without text" noname.json "102: not a JSON report: a line without \"name\" or \"text\""
json_bad "a line without a tag" notag.json "\"lines\" item 1: not a line of a ciat report (a '#' header line or 'R<phase>T<thread>L<nn>: name fields')"
json_bad "something after the document" trail.json "87: not a JSON report: something after the document"
json_bad "no tool" notool.json "53: not a JSON report: \"header\" or \"lines\" before \"tool\""
json_bad "no lines at all" nolines.json "a JSON report without header or lines"
printf '# ciat (dsmtrace) 0.1.0\nR1T0L01: mem \0x\n' >nul.rep
check_status "a NUL byte: exit 2" 2 'nul\.rep: line 2: a NUL byte' smait diff nul.rep a.rep
check_status "a missing file: exit 2" 2 'nosuch' smait diff a.rep nosuch

usage() {     # NAME MESSAGE ARGS...
    local name=$1 msg=$2
    shift 2
    check "$name" smait diff "$@" <<EOF
--- stderr
smait: $msg
smait: try 'smait --help'
--- exit 2
EOF
}
usage "one report" "diff needs two reports, A and B (1 given)" a.rep
usage "three reports" "diff needs two reports, A and B (3 given)" a.rep a.rep a.rep
usage "--rel-tol past 1" "option --rel-tol: must be a number from 0 to 1 (0.01 = 1%)" --rel-tol 2 a.rep a.rep
usage "--rel-tol not a number" "option --rel-tol=1e: must be a number from 0 to 1 (0.01 = 1%)" --rel-tol=1e a.rep a.rep
usage "--rel-tol negative" "option --rel-tol=-0.1: must be a number from 0 to 1 (0.01 = 1%)" --rel-tol=-0.1 a.rep a.rep

# A histogram entry given twice in one line (a line would differ from
# itself; found by fuzz/fuzz_report_diff): bad input, naming the line.
sed 's/^\(RxT0L04: load_strings strings [0-9]*\) \(.*\)$/\1 \2 1:5 1:6/' a.rep >twice.rep
check "a histogram entry given twice in a line: exit 2, the line named" smait diff twice.rep a.rep <<'EOF'
--- stderr
smait: twice.rep: line 56: histogram entry 1: given twice
--- exit 2
EOF
