# ciat-golden.sh — ciat on small hand-made trace sets: every report line
# (L00-L08, L10-L15 per phase, thread and Tx and in the Rx block, L20-L39),
# the memory usage file and the event trace, compared whole with golden
# files that were checked by hand.
#
# tests/cli/ciat/NAME.txt is a trace set in the text form (formats/SMAIT-TEXT.md)
# whose comment block derives every expected number; NAME.report.expected,
# NAME.memory.expected and NAME.events.expected are ciat's outputs. ciat runs
# in the test directory on relative paths, so the "# command:" and "# trace"
# header lines are the same on every machine.
D=$CLI_DIR/ciat
. "$D/lib.sh"

# golden_run LABEL TEXT P CIAT-ARGS...: assemble TEXT.txt as the trace set
# TEXT.P, run ciat CIAT-ARGS TEXT.P (no output on stdout or stderr), compare
# the report, the memory file and (with -ciat_events) the event trace with
# LABEL.report.expected, LABEL.memory.expected, LABEL.events.expected.
golden_run() {
    local label=$1 text=$2 p=$3
    shift 3
    rm -f "$text.$p".*
    smait asm "$D/$text.txt" "$text"
    check "$label: ciat $* $text.$p" ciat "$@" "$text.$p" <<'EOT'
--- exit 0
EOT
    check_file "$label: report" "$D/$label.report.expected" "$text.$p.ciat_report"
    check_file "$label: memory file" "$D/$label.memory.expected" "$text.$p.memory"
    if [ -f "$D/$label.events.expected" ]; then
        check_file "$label: event trace" "$D/$label.events.expected" "$text.$p.ciat_events"
    else
        check_true "$label: no event trace without -ciat_events" test ! -e "$text.$p.ciat_events"
    fi
}

# Communication patterns (L10-L15), with the event trace.
golden_run raw-war raw-war 4 -ciat_events     # the issue's example: RAW 2, S[2] = 1, WAR degree 2
golden_run waw waw 3 -p -ciat_events
golden_run rar rar 3 -p -ciat_events
golden_run atomic atomic 2 -p -ciat_events
golden_run final-sharing final-sharing 3 -ciat_events
golden_run events events 2 -p -ciat_events
golden_run wide wide 3 -ciat_events       # wide accesses: every location they cover
# The same data flow in 4-byte accesses (wide-pieces.txt) gives the same L10-L15
# and shared_bytes at every grain: the figures do not depend on the access width.
smait asm "$D/wide-pieces.txt" wide-pieces
for g in 4 8 16; do
    ciat -grain "$g" wide.3
    ciat -grain "$g" wide-pieces.3
    grep -E '^RxT[0-9x]+L1[0-5]:|^RxTxL26:' wide.3.ciat_report >wide.lines
    grep -E '^RxT[0-9x]+L1[0-5]:|^RxTxL26:' wide-pieces.3.ciat_report >pieces.lines
    check_same "wide accesses, grain $g: L10-L15 and shared_bytes as in 4-byte pieces" pieces.lines wide.lines
done
# The communication matrix (--comm-matrix) and true and false sharing
# with sharing patterns (--false-sharing): the "# comm_matrix:" and
# "# false_sharing:" header lines, L10-L19 of every block and L40-L44 against
# LABEL.lines.expected (TEXT.txt derives them); the other lines are those of
# the runs without the options.
lines_run() {
    local label=$1 text=$2 p=$3
    shift 3
    rm -f "$text.$p".*
    smait asm "$D/$text.txt" "$text"
    check "$label: ciat $* $text.$p" ciat "$@" "$text.$p" <<'EOT'
--- exit 0
EOT
    grep -E '^# (comm_matrix|false_sharing):|^R[0-9x]+T[0-9x]+L(1[0-9]|4[0-4]): ' "$text.$p.ciat_report" >"$label.lines"
    check_file "$label: L10-L19, L40-L44" "$D/$label.lines.expected" "$label.lines"
}
lines_run raw-war raw-war 4 --comm-matrix    # T1, T2 comm 0:1; T3 inval 1:1 2:1
lines_run pipeline pipeline 3 -p --comm-matrix   # stage i feeds stage i+1: comm 0:2 1:2
# Its heatmap (--matrix-svg, implying --comm-matrix): two cells, T1 reading T0
# and T2 reading T1, twice each; 32-pixel cells for 3 threads.
ciat -p --matrix-svg pipeline.svg pipeline.3
check "pipeline: the heatmap's cells" bash -c 'grep "<title>" pipeline.svg; grep -c "^# comm_matrix: yes" pipeline.3.ciat_report' <<'EOF'
<rect x="70" y="102" width="32" height="32" fill="#9b0000"><title>1 reads 0: 2</title></rect>
<rect x="102" y="134" width="32" height="32" fill="#9b0000"><title>2 reads 1: 2</title></rect>
1
--- exit 0
EOF
lines_run pipeline-lines pipeline 3 -p --false-sharing   # true sharing for the consumers, false for T0
lines_run false-sharing false-sharing 4 -p --false-sharing   # false 15, true 0; the line's offsets in L19
lines_run padded padded 4 -p --false-sharing     # one line per counter: cold misses only
# Sharing patterns (L40-L44): one line of each, derived in patterns.txt.
smait asm "$D/patterns.txt" patterns
ciat -p --false-sharing patterns.3
check "patterns: private, read-only, migratory counter, producer-consumer" grep -E '^RxTxL4[0-4]:' patterns.3.ciat_report <<'EOF'
RxTxL40: private lines 2 bytes 8 accesses 3
RxTxL41: read_only_shared lines 1 bytes 4 accesses 3
RxTxL42: migratory lines 1 bytes 4 accesses 6
RxTxL43: producer_consumer lines 1 bytes 4 accesses 3
RxTxL44: other_shared lines 0 bytes 0 accesses 0
--- exit 0
EOF
# pipeline.txt's one line: 2 of its 3 hand-offs are migratory (67%): migratory
# at the default 50%, other_shared when --migratory asks for 100%.
ciat -p --false-sharing --migratory 100 pipeline.3
check "pipeline, --migratory 100: the line is other_shared" grep -E '^# false_sharing|^RxTxL4[24]:' pipeline.3.ciat_report <<'EOF'
# false_sharing: line_size 64 false_lines 10 migratory 100
RxTxL42: migratory lines 0 bytes 0 accesses 0
RxTxL44: other_shared lines 1 bytes 8 accesses 8
--- exit 0
EOF

# Instruction mix, strings, instruction stream, calls, idle time, phases.
golden_run classes classes 1
golden_run strings strings 1
golden_run instr instr 2 -p
golden_run calls calls 2 -p
golden_run idle idle 3
golden_run phases phases 3 -ciat_events
# Memory usage: shared, page-shared and range-shared.
golden_run memory memory 2 -p
golden_run memory-hpux memory 2 -p -HPUX
golden_run memory-private memory 2 -p -private_range 0x10000:0x10fff -private_range 0x40000000:0x40001fff
golden_run code-data code-data 2 -p              # a location fetched and loaded, then shared
check_same "the memory file does not depend on the private ranges" "$D/memory.memory.expected" "$D/memory-private.memory.expected"

# Recorded synchronisation (docs/scheduler.md §6.1): a producer hands data to
# three consumers with a semaphore; recorded, the communication and idle time
# of every thread are those of the barrier version, simulated they are not.
golden_run handoff-barrier handoff-barrier 4 -p
golden_run handoff-sem handoff-sem 4 -p
cp handoff-sem.4.ciat_report handoff-sem.recorded
golden_run handoff-sem-simulated handoff-sem 4 -p --sync=simulated
check "handoff: recorded = barrier in L08 and L10-L15, per thread and phase" \
    bash -c 'diff <(grep -E "L(08|1[0-5]):" handoff-barrier.4.ciat_report) <(grep -E "L(08|1[0-5]):" handoff-sem.recorded)' <<'EOT'
--- exit 0
EOT
check "handoff: the aggregate, barrier (= recorded)" grep -E "^RxTxL1[0-5]:" handoff-barrier.4.ciat_report <<'EOT'
RxTxL10: raw 12
RxTxL11: raw_degree 3:4
RxTxL12: war 0
RxTxL13: war_degree
RxTxL14: waw 3
RxTxL15: rar 0
--- exit 0
EOT
check "handoff: the aggregate, simulated" grep -E "^RxTxL1[0-5]:" handoff-sem.4.ciat_report <<'EOT'
RxTxL10: raw 0
RxTxL11: raw_degree
RxTxL12: war 4
RxTxL13: war_degree 3:4
RxTxL14: waw 3
RxTxL15: rar 8
--- exit 0
EOT
check_same "handoff: the memory file does not depend on the interleaving" "$D/handoff-sem.memory.expected" "$D/handoff-barrier.memory.expected"

# The sum rules (docs/ciat-report.md, L10–L15) hold in every golden report: sum k*S[k] = RAW
# in the aggregate (RxTx; S[k] goes to the writer, RAW to the reader, so not
# per thread or phase), sum I[k] = WAR in every line (each phase and thread).
for f in "$D"/*.report.expected; do
    check "$(basename "$f" .report.expected): identities of docs/ciat-report.md, L10–L15" awk '
        { tag = $1; sub(/:$/, "", tag); r = tag; sub(/L.*/, "", r) }
        $2 == "raw" { raw[r] = $3 } $2 == "war" { war[tag] = $3 }
        $2 == "raw_degree" { s = 0; for (i = 3; i <= NF; i++) { split($i, kv, ":"); s += kv[1] * kv[2] }
                             if (r == "RxTx") rawdeg[r] = s }
        $2 == "war_degree" { s = 0; for (i = 3; i <= NF; i++) { split($i, kv, ":"); s += kv[2] }
                             sub(/L13$/, "L12", tag); wardeg[tag] = s }
        END { for (r in rawdeg) if (rawdeg[r] != raw[r]) { print r ": sum k*S[k] " rawdeg[r] " != RAW " raw[r]; bad = 1 }
              for (t in wardeg) if (wardeg[t] != war[t]) { print t ": sum I[k] " wardeg[t] " != WAR " war[t]; bad = 1 }
              exit bad }' "$f" <<'EOT'
--- exit 0
EOT
done

# The heatmap's counts in its cells (up to 16 threads, cells of 24 pixels
# or more), its colour bar's ticks (1 and the largest count, 2); its title
# and size options (48 pixels for 3 threads: 16-pixel cells, no counts).
ciat -p --matrix-svg pipeline.svg pipeline.3
ciat -p --matrix-svg titled.svg --matrix-title 'stages & <pipes>' --matrix-size 48 pipeline.3
check "pipeline: counts in the cells, the colour bar's ticks; the title escaped, 16-pixel cells for 48" bash -c '
    grep -Eo "fill=\"(white|black)\">[0-9]+</text>" pipeline.svg
    grep -Eo "<text x=\"[0-9]+\" y=\"[0-9]+\">[0-9]+</text>" pipeline.svg | sed "s/<text[^>]*>//; s/<.text>//" | tr "\n" " "; echo
    grep -o "font-size=\"13\">[^<]*<" titled.svg
    grep -o "width=\"16\" height=\"16\" fill=\"#9b0000\"" titled.svg | head -1
    grep -c "fill=\"white\">2</text>" titled.svg
    xmllint --noout pipeline.svg titled.svg && echo well-formed' <<'EOF'
fill="white">2</text>
fill="white">2</text>
1 2 
font-size="13">stages &amp; &lt;pipes&gt;<
width="16" height="16" fill="#9b0000"
0
well-formed
--- exit 0
EOF
