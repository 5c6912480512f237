# json.sh — --json on ciat, cdat and tdat (docs/json.md): the JSON form is
# valid under docs/report.schema.json and holds exactly the text report's
# figures (tests/tools/report-json-check.py: every header line, every report
# line's tag, name and text, every number with the same value and digits,
# every histogram entry and word), on every ciat golden, the cdat protocol
# goldens, tdat's inputs and random trace sets; the text report is the one
# written without --json (but for its command line); the JSON file is
# committed with the other outputs, all or nothing; same input, same bytes.
# The schema check needs python3-jsonschema (scripts/install-deps installs it).
SCHEMA=$CLI_DIR/../../docs/report.schema.json
CHECK=$CLI_DIR/../tools/report-json-check.py

check_true "python3 has jsonschema (scripts/install-deps: python3-jsonschema)" python3 -c 'import jsonschema'
check "the schema is a valid JSON Schema (2020-12)" python3 -c "
import json, jsonschema, sys
jsonschema.Draft202012Validator.check_schema(json.load(open(sys.argv[1])))" "$SCHEMA" <<'EOF'
--- exit 0
EOF

# json_checks LABEL TEXT JSON: JSON valid and equal to TEXT.
json_checks() {
    check "$1: JSON valid and equal to the text" python3 "$CHECK" "$SCHEMA" "$2" "$3" <<'EOF'
--- exit 0
EOF
}

# ---- ciat: every golden of ciat-golden.sh ----------------------------------
D=$CLI_DIR/ciat
golden_run() {
    local label=$1 text=$2 p=$3
    shift 3
    rm -rf "j-$label" && mkdir "j-$label"
    [ -e "$text.$p.0" ] || smait asm "$D/$text.txt" "$text"
    check "$label: ciat --json" ciat --json -o "j-$label" "$@" "$text.$p" <<'EOT'
--- exit 0
EOT
    same_but_command "$label: the text report is the golden one" "$D/$label.report.expected" \
        "j-$label/$text.$p.ciat_report"
    json_checks "$label" "j-$label/$text.$p.ciat_report" "j-$label/$text.$p.ciat_report.json"
}
eval "$(grep '^golden_run ' "$CLI_DIR/ciat-golden.sh")"

# ---- cdat: the protocol goldens of cdat-protocol.sh ------------------------
D=$CLI_DIR/cdat
run() {
    local label=$1 text=$2 cfg=$3 p
    [ "${cfg%.ini}" = "$cfg" ] && cfg=$D/$cfg.ini
    p=$(awk '$1 == "threads" { print $2; exit }' "$D/$text.txt")
    [ -e "$text.$p.0" ] || smait asm "$D/$text.txt" "$text"
    rm -rf "c-$label" "j-$label" && mkdir "c-$label" "j-$label"
    cdat -q -p -o "c-$label" "$text.$p" "$cfg" 2>/dev/null
    check_true "$label: cdat --json" cdat --json -q -p -o "j-$label" "$text.$p" "$cfg"
    same_but_command "$label: the text report is the one without --json" "c-$label/$text.$p.cdat_report" \
        "j-$label/$text.$p.cdat_report"
    json_checks "$label" "j-$label/$text.$p.cdat_report" "j-$label/$text.$p.cdat_report.json"
}
eval "$(grep '^run ' "$CLI_DIR/cdat-protocol.sh")"

# ---- random sets (ciat-properties.sh's generator) --------------------------
for spec in "4 7 300" "16 11 200"; do
    read -r p seed n <<<"$spec"
    rm -f rs.*
    awk -v seed="$seed" -v threads="$p" -v n="$n" -f "$CLI_DIR/ciat/randset.awk" >rs.txt
    smait asm rs.txt rs
    check "random set ($p threads, seed $seed): ciat --json" ciat --json -q -ciat_events "rs.$p" <<'EOF'
--- exit 0
EOF
    json_checks "random set ($p threads, seed $seed), ciat" "rs.$p.ciat_report" "rs.$p.ciat_report.json"
done
C=$CLI_DIR/../../configs
for proto in 2 8; do
    sed "s/^protocol *=.*/protocol = $proto/" "$C/4x4.ini" >m$proto.ini
    check_true "random set (16 threads): cdat --json, 4x4 protocol $proto" cdat --json -q rs.16 m$proto.ini
    json_checks "random set (16 threads), cdat protocol $proto" rs.16.cdat_report rs.16.cdat_report.json
done
check_true "random set: slice mode (-i 4), cdat --json" cdat --json -q -i 4 rs.16 "$D/2x2-p2.ini"
json_checks "random set, slice mode, cdat" rs.16.cdat_report rs.16.cdat_report.json

# ---- tdat -------------------------------------------------------------------
T=$CLI_DIR/tdat
cp "$T"/basic.events "$T"/cfield.trace .
tdat -classes 4 basic.events t0.time 10 2 >f0.txt
check "tdat --json FILE: nothing else on stdout" bash -c 'tdat --json f1.json -classes 4 basic.events t1.time 10 2 >f1.txt' <<'EOF'
--- exit 0
EOF
same_but_command "tdat: the frequency file is the one without --json" f0.txt f1.txt
check_same "tdat: the time file is the one without --json" t0.time t1.time
json_checks "tdat basic.events" f1.txt f1.json
tdat --json f2.json -c 3 -f 1=0 --classes 7 cfield.trace t2.time 5 4 >f2.txt
json_checks "tdat cfield.trace, a filter, 7 classes" f2.txt f2.json
tdat --json f3.json --classes 5 rs.16.ciat_events t3.time 3 16 >f3.txt
json_checks "tdat on a random set's events" f3.txt f3.json
check "tdat: --json to the time file is a usage error" tdat --json t.time basic.events t.time 10 2 <<'EOF'
--- stderr
tdat: the JSON file and the time file are both t.time
tdat: try 'tdat --help'
--- exit 1
EOF
check "tdat: --json to the SVG file is a usage error" tdat --json p.svg --svg p.svg basic.events t.time 10 2 <<'EOF'
--- stderr
tdat: the JSON file and the SVG file are both p.svg
tdat: try 'tdat --help'
--- exit 1
EOF
check "tdat: --json to standard output is a usage error" tdat --json - basic.events t.time 10 2 <<'EOF'
--- stderr
tdat: the JSON file cannot be '-': standard output carries the frequency or time file
tdat: try 'tdat --help'
--- exit 1
EOF
printf '1\n2\nx\n' >bad.events
check_status "tdat --json on bad input: exit 2" 2 'bad\.events: line 3' tdat --json bad.json bad.events t4.time 10 2
check_true "... and no JSON file" test ! -e bad.json

# ---- all or nothing, determinism -------------------------------------------
mkdir aon && cp atomic.2.0 atomic.2.1 aon/
ciat -q -p aon/atomic.2
cp aon/atomic.2.ciat_report before
mkdir aon/atomic.2.ciat_report.json
check_status "ciat --json: the JSON file cannot be put in place (a directory there): exit 2" 2 \
    'atomic\.2\.ciat_report\.json' ciat --json -q -ciat_events aon/atomic.2
check_same "... and the earlier report is as it was" before aon/atomic.2.ciat_report
check_true "... and no event trace appeared" test ! -e aon/atomic.2.ciat_events
rmdir aon/atomic.2.ciat_report.json
head -c 5 aon/atomic.2.1 >cut && mv cut aon/atomic.2.1
check_status "ciat --json on a truncated trace: exit 2" 2 'atomic\.2\.1' ciat --json -q aon/atomic.2
check_true "... and no JSON file" test ! -e aon/atomic.2.ciat_report.json
ciat --json -q -o j-atomic -p atomic.2 && cp j-atomic/atomic.2.ciat_report.json again.json
ciat --json -q -o j-atomic -p atomic.2
check_same "ciat --json: the same run gives the same bytes" again.json j-atomic/atomic.2.ciat_report.json

# ---- header_fields: the key-value header lines, as objects ------------------
ciat --json -q -o j-atomic -p atomic.2
cdat --json -q -o j-atomic --set mapping.policy=spread --sweep system.protocol=3,4 atomic.2 "$SRC/configs/4x4.ini"
check "header_fields: ciat's summary and options, cdat's machine, mapping and sweep point" python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["header_fields"]
d = json.load(open(sys.argv[2]))["header_fields"]
print(c["summary"]["threads"], c["summary"]["phases"], c["options"]["grain"], c["options"]["parallel_start"])
print(d["set"], d["machine"]["nodes"], d["mapping"]["policy"], d["dcache"]["size"], "command" in d, "sync" in d)
' j-atomic/atomic.2.ciat_report.json j-atomic/atomic.2.4x4-system.protocol4.cdat_report.json <<'EOF'
2 1 4 yes
{'mapping.policy': 'spread', 'system.protocol': 4} 4 spread 65536 False False
--- exit 0
EOF
