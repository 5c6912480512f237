# ciat-timeline.sh — ciat --timeline FILE (docs/timeline.md): hand-written
# sets whose every column and hand-off mark is derived in their comments
# (tests/cli/timeline/tl.txt: columns of one cycle; tlw.txt: of four, drawn
# by their dominant state), a reader-writer lock and a semaphore
# (locks/rw.txt); valid XML; the properties on random sets (per thread the
# columns hold its clock span, from its first resume to its last stop as
# `smait schedule` prints them, and its busy cycles are the instructions it
# executed; the marks' counts add up to L52's hand-offs of its first lock,
# in at most 64 marks); the same bytes for --workers 1 and 2, for --shard/--merge and
# --jobs; bounded size and legible labels for 64 and 256 threads; the report
# untouched; bad options; no picture when the run fails.
D=$CLI_DIR/timeline
smait asm "$D/tl.txt" tl
smait asm "$D/tlw.txt" tlw
smait asm "$CLI_DIR/locks/rw.txt" rw
check_true "xmllint is installed (scripts/install-deps: libxml2-utils)" command -v xmllint

# rows SVG: per thread its hover title and its rectangles (x width fill, in
# columns), then the hand-off marks (x, the rows' y, the title).
rows() {
    awk '
    /^<g id="rows">/ { inrows = 1; next }
    inrows && /^<\/g>$/ && !ingroup { inrows = 0; next }
    inrows && /^<g transform=/ {
        ingroup = 1
        t = $0; sub(/.*<title>/, "", t); sub(/<\/title>.*/, "", t); print t
        next
    }
    ingroup && /^<rect / {
        match($0, /x="[^"]*"/); x = substr($0, RSTART + 3, RLENGTH - 4)
        match($0, /width="[^"]*"/); w = substr($0, RSTART + 7, RLENGTH - 8)
        match($0, /fill="[^"]*"/); f = substr($0, RSTART + 6, RLENGTH - 7)
        print "  x " x " width " w " fill " f
        next
    }
    ingroup && /^<\/g>$/ { ingroup = 0; next }
    /^<g id="handoffs"/ { inmarks = 1; next }
    inmarks && /^<\/g>$/ { inmarks = 0; next }
    inmarks && /^<line x1=.*<circle/ {
        match($0, /x1="[^"]*"/); x = substr($0, RSTART + 4, RLENGTH - 5)
        match($0, /y1="[^"]*"/); a = substr($0, RSTART + 4, RLENGTH - 5)
        match($0, /y2="[^"]*"/); b = substr($0, RSTART + 4, RLENGTH - 5)
        t = $0; sub(/.*<title>/, "", t); sub(/<\/title>.*/, "", t)
        print "mark x " x " y " a " to " b ": " t
    }' "$1"
}
export -f rows

# Colours: busy #009e73, lock wait #d55e00, barrier wait #0072b2, other sync
# wait #cc79a7, I/O wait #e69f00. Rows are 10 points apart from y 13: row
# centres 18 and 28.
check "tl: the columns and hand-offs derived in tl.txt" bash -c 'ciat --timeline tl.svg tl.2 && rows tl.svg' <<'EOF'
T0, clock 0 to 12: busy 8, lock wait 0, barrier wait 1, other sync wait 3, I/O wait 0 cycles
  x 0 width 4 fill #009e73
  x 4 width 1 fill #0072b2
  x 5 width 3 fill #009e73
  x 8 width 3 fill #cc79a7
  x 11 width 1 fill #009e73
T1, clock 1 to 11: busy 8, lock wait 2, barrier wait 0, other sync wait 0, I/O wait 0 cycles
  x 1 width 1 fill #009e73
  x 2 width 2 fill #d55e00
  x 4 width 7 fill #009e73
mark x 86.87 y 18.00 to 28.00: 1 hand-off of critical section 0x00009000 in clock 4 to 4, the first at 4: T0 to T1
mark x 142.42 y 28.00 to 18.00: 1 hand-off of critical section 0x00009000 in clock 7 to 7, the first at 7: T1 to T0
--- exit 0
EOF
check "tl: valid XML, an SVG with a viewBox, 3.4 inches (245 pt) wide" \
    xmllint --xpath 'concat(local-name(/*), " ", namespace-uri(/*), " ", /*/@width, " ", /*/@viewBox)' tl.svg <<'EOF'
svg http://www.w3.org/2000/svg 245pt 0 0 245 74.00
--- exit 0
EOF
# texts SVG XPATH: the text of the nodes XPATH selects, on one line.
texts() {
    xmllint --xpath "$2" "$1" | tr -d '\n' && echo
}
export -f texts
check "tl: the title, thread labels, axis ticks and title, legend" \
    texts tl.svg '//*[local-name()="text"]/text()' <<'EOF'
Where the time goes in tl.2T0T1024681012pseudo clock (cycles)busylock waitbarrier waitother sync waitI/O waithand-off of 0x9000
--- exit 0
EOF
check "tl: every font is 7 points or more" bash -c "grep -o 'font-size=\"[0-9.]*\"' tl.svg | sort -u" <<'EOF'
font-size="7"
font-size="8"
--- exit 0
EOF

check "tlw: four-cycle columns by their dominant state, as derived in tlw.txt" bash -c '
    ciat --timeline tlw.svg tlw.2 && rows tlw.svg' <<'EOF'
T0, clock 0 to 2106: busy 8, lock wait 0, barrier wait 1, other sync wait 2097, I/O wait 0 cycles
  x 0 width 2 fill #009e73
  x 2 width 524 fill #cc79a7
T1, clock 1 to 2105: busy 2102, lock wait 2, barrier wait 0, other sync wait 0, I/O wait 0 cycles
  x 0 width 1 fill #d55e00
  x 1 width 525 fill #009e73
mark x 13.22 y 18.00 to 28.00: 1 hand-off of critical section 0x00009000 in clock 4 to 4, the first at 4: T0 to T1
mark x 13.54 y 28.00 to 18.00: 1 hand-off of critical section 0x00009000 in clock 7 to 7, the first at 7: T1 to T0
--- exit 0
EOF
check "tlw: 527 columns of 4 cycles scaled to the plot's 222.20 points; ticks every 500" bash -c "
    grep -o 'scale([0-9.]* 1)' tlw.svg | sort -u
    texts tlw.svg '//*[local-name()=\"text\"][@text-anchor=\"middle\"]/text()'" <<'EOF'
scale(0.421632 1)
0500100015002000pseudo clock (cycles)
--- exit 0
EOF

# rw.txt (-p, recorded): T1 waits 1..2 for the reader-writer lock 0x7000 (a
# lock kind: lock wait; T0 hands it over at 2) and 3..5 for the semaphore
# 0x7100 (not a lock: other sync wait).
check "rw: an rwlock acquire is a lock wait, a semaphore's another sync wait" bash -c '
    ciat -p --timeline rw.svg rw.2 && rows rw.svg' <<'EOF'
T0, clock 0 to 5: busy 5, lock wait 0, barrier wait 0, other sync wait 0, I/O wait 0 cycles
  x 0 width 5 fill #009e73
T1, clock 0 to 6: busy 3, lock wait 1, barrier wait 0, other sync wait 2, I/O wait 0 cycles
  x 0 width 1 fill #009e73
  x 1 width 1 fill #d55e00
  x 2 width 1 fill #009e73
  x 3 width 2 fill #cc79a7
  x 5 width 1 fill #009e73
mark x 86.87 y 18.00 to 28.00: 1 hand-off of lock 0x00007000 in clock 2 to 2, the first at 2: T0 to T1
--- exit 0
EOF

# The report and the memory file are the run's without --timeline (but for
# the command line); --timeline-title and --timeline-size.
mkdir -p plain with
ciat -o plain tl.2
ciat --timeline with/t.svg --timeline-title 'A & <B>' --timeline-size 300x120 -o with tl.2
same_but_command "tl: the report is the one without --timeline" plain/tl.2.ciat_report with/tl.2.ciat_report
check_same "tl: the memory file is the one without --timeline" plain/tl.2.memory with/tl.2.memory
check "--timeline-title (escaped) and --timeline-size 300x120" \
    xmllint --xpath 'concat(/*/@width, " ", /*/@height, " ", /*/@viewBox, " ", (//*[local-name()="text"])[1])' \
    with/t.svg <<'EOF'
300pt 120.00pt 0 0 300 120.00 A & <B>
--- exit 0
EOF

# ---- properties on random sets (tests/cli/ciat/randset.awk) ---------------
# spans SCHEDULE PARTIAL: per thread, from the schedule its first resume, last
# stop and executed instructions; from part 0's records its span and its
# columns' cycles per state: the columns must hold the span, the span must be
# the schedule's, busy must be the executed instructions.
spans() {
    awk '
    FNR == 1 { file++ }
    file == 1 && $2 ~ /^T[0-9]+$/ && ($3 == "resume" || $3 == "stop") {
        t = substr($2, 2)
        if ($3 == "resume" && !(t in first)) first[t] = $1
        if ($3 == "stop") last[t] = $1
    }
    file == 1 && $1 ~ /^T[0-9]+$/ && $2 == "records" { exec[substr($1, 2)] += $5 }
    file == 2 && $1 == "timeline-thread" { start[$2] = $3; end[$2] = $4 }
    file == 2 && $1 == "timeline-bin" { for (s = 4; s <= 8; s++) sum[$2] += $s; busy[$2] += $4 }
    END {
        for (t in first) {
            n++
            if (start[t] != first[t] || end[t] != last[t]) { print "T" t ": span " start[t] "-" end[t] ", schedule " first[t] "-" last[t]; bad = 1 }
            if (sum[t] != end[t] - start[t]) { print "T" t ": columns hold " sum[t] ", span " end[t] - start[t]; bad = 1 }
            if (busy[t] != exec[t]) { print "T" t ": busy " busy[t] ", executed " exec[t]; bad = 1 }
        }
        if (!bad) print "ok, " n " threads"
        exit bad
    }' "$1" "$2"
}
export -f spans

# marks REPORT SVG: the marks are the hand-offs of L52's first lock (L52's
# handoffs, the sum of the marks' counts), in at most 64 marks.
marks() {
    sed -n 's/.*<circle[^>]*><title>\([0-9]*\) hand-offs\{0,1\} of [a-z ]* \(0x[0-9a-f]*\) in .*/\1 \2/p' "$2" |
    awk -v want="$(awk '/^RxTxL52: lock rank 1 / { for (i = 1; i < NF; i++) {
                            if ($i == "addr") a = $(i + 1); if ($i == "handoffs") h = $(i + 1) } }
                        END { print a, h }' "$1")" '
        { n += $1; m++; a = $2 }
        END {
            if (a " " n != want) { print "marks: " a " " n ", L52: " want; exit 1 }
            if (m > 64) { print m " marks"; exit 1 }
            print "ok"
        }'
}
export -f marks

for spec in "4 721 3000" "16 722 1500" "64 723 400"; do
    read -r p seed n <<<"$spec"
    rm -rf rs.* r1 r2 sh && mkdir r1 r2 sh
    awk -v seed="$seed" -v threads="$p" -v n="$n" -f "$CLI_DIR/ciat/randset.awk" >rs.txt
    smait asm rs.txt rs
    smait schedule "rs.$p" >sched.txt
    ciat -q --timeline sh/rs.svg --shard 0/2 -o sh "rs.$p"
    check "random $p threads, seed $seed: columns hold each thread's span; busy = executed" \
        spans sched.txt "sh/rs.$p.ciat_partial.0-of-2" <<EOF
ok, $p threads
--- exit 0
EOF
    ciat -q --timeline r1/rs.svg --locks=1 --workers 1 -o r1 "rs.$p"
    ciat -q --timeline r2/rs.svg --locks=1 --workers 2 -o r2 "rs.$p"
    check_same "random $p threads, seed $seed: --workers 1 and 2 draw the same bytes" r1/rs.svg r2/rs.svg
    check "random $p threads, seed $seed: valid XML" xmllint --noout r1/rs.svg <<'EOF'
--- exit 0
EOF
    # the row titles' sums are the partial's columns' (the same numbers drawn)
    check "random $p threads, seed $seed: the row titles add up to the spans" bash -c "
        sed -n 's/.*<title>T[0-9]*, clock \([0-9]*\) to \([0-9]*\): busy \([0-9]*\), lock wait \([0-9]*\), barrier wait \([0-9]*\), other sync wait \([0-9]*\), I\/O wait \([0-9]*\) cycles.*/\1 \2 \3 \4 \5 \6 \7/p' r1/rs.svg |
        awk '{ if (\$2 - \$1 != \$3 + \$4 + \$5 + \$6 + \$7) bad++; n++ } END { print n, bad + 0 }'" <<EOF
$p 0
--- exit 0
EOF
    check "random $p threads, seed $seed: the marks count L52's hand-offs of its first lock, in <= 64 marks" \
        marks "r1/rs.$p.ciat_report" r1/rs.svg <<'EOF'
ok
--- exit 0
EOF
done

# 64 threads (still rs.64): bounded size (512 columns a thread at most),
# rows of 2.5 points, a label every 4th thread.
check_true "64 threads: the picture is below 2 MB" test "$(file_size r1/rs.svg)" -lt 2000000
check "64 threads: labels T0, T4, ... T60" texts r1/rs.svg '//*[local-name()="text"][@text-anchor="end"]/text()' <<'EOF'
T0T4T8T12T16T20T24T28T32T36T40T44T48T52T56T60
--- exit 0
EOF
rm -rf rs.* r1 r2 sh
awk -v seed=724 -v threads=256 -v n=40 -f "$CLI_DIR/ciat/randset.awk" >rs.txt
smait asm rs.txt rs
ciat -q --timeline big.svg "rs.256"
check_true "256 threads: the picture is below 2 MB" test "$(file_size big.svg)" -lt 2000000
check "256 threads: valid XML; 16 labels, every 16th thread" bash -c "
    texts big.svg 'count(//*[local-name()=\"text\"][@text-anchor=\"end\"])'
    texts big.svg '(//*[local-name()=\"text\"][@text-anchor=\"end\"])[2]/text()'" <<'EOF'
16
T16
--- exit 0
EOF
rm -f rs.* big.svg

# ---- --shard, --merge, --jobs: part 0 follows every thread and writes the
# columns and marks as timeline records; the merge draws the same bytes.
sharded() {
    local name=$1 set=$2 n=$3 i ok=1
    shift 3
    rm -rf whole x && mkdir whole x
    ciat -q -o whole --timeline whole/t.svg "$@" "$set" || ok=0
    for ((i = 0; i < n; i++)); do ciat -q -o x --timeline x/t.svg "$@" --shard "$i/$n" "$set" || ok=0; done
    ciat --merge x/*.ciat_partial.*-of-"$n" || ok=0
    check_true "$name, $n parts: the parts and the merge run" test "$ok" = 1
    check_same "$name, $n parts: the merged picture" whole/t.svg x/t.svg
    same_but_command "$name, $n parts: the merged report" "whole/$set.ciat_report" "x/$set.ciat_report"
    rm -rf x && mkdir x
    ciat -q -o x --timeline x/t.svg "$@" --jobs "$n" "$set"
    check_same "$name, --jobs $n: the picture" whole/t.svg x/t.svg
}
sharded "tlw" tlw.2 2 --locks
sharded "rw" rw.2 3 -p --timeline-title Readers --timeline-size 200x100
awk -v seed=725 -v threads=8 -v n=1500 -f "$CLI_DIR/ciat/randset.awk" >rs.txt
smait asm rs.txt rs
sharded "random 8 threads" rs.8 3

# A merge refuses timeline records that are not part 0's, or that do not add up.
rm -rf sh && mkdir sh
for i in 0 1; do ciat -q --timeline sh/t.svg -o sh --shard "$i/2" tl.2; done
cp sh/tl.2.ciat_partial.0-of-2 part0
cp sh/tl.2.ciat_partial.1-of-2 part1
sed -i 's/^timeline-end$/timeline-bin 0 0 1 0 0 0 0\ntimeline-end/' sh/tl.2.ciat_partial.1-of-2
check_status "--merge: a timeline record in part 1 is refused" 2 'ciat_partial\.1-of-2: .*timeline-end expected: the timeline records are part 0.s' \
    ciat --merge sh/tl.2.ciat_partial.0-of-2 sh/tl.2.ciat_partial.1-of-2
cp part1 sh/tl.2.ciat_partial.1-of-2
sed -i 's/^timeline-bin 0 0 1 0 0 0 0$/timeline-bin 0 0 2 0 0 0 0/' sh/tl.2.ciat_partial.0-of-2
check_status "--merge: a column with more cycles than its width is refused" 2 'ciat_partial\.0-of-2: .*more cycles than its column holds' \
    ciat --merge sh/tl.2.ciat_partial.0-of-2 sh/tl.2.ciat_partial.1-of-2
cp part0 sh/tl.2.ciat_partial.0-of-2
sed -i 's/^timeline-thread 0 0 12$/timeline-thread 0 0 13/' sh/tl.2.ciat_partial.0-of-2
check_status "--merge: columns that do not hold the span are refused" 2 'ciat_partial\.0-of-2: .*columns do not hold its span' \
    ciat --merge sh/tl.2.ciat_partial.0-of-2 sh/tl.2.ciat_partial.1-of-2
check "nothing written by the refused merges" ls sh <<'EOF'
tl.2.ciat_partial.0-of-2
tl.2.ciat_partial.1-of-2
--- exit 0
EOF

# ---- bad options and combinations: usage errors (exit 1), nothing written ----
mkdir -p bad
check "--timeline-size 10x10: out of range" ciat --timeline bad/t.svg --timeline-size 10x10 -o bad tl.2 <<'EOF'
--- stderr
ciat: option --timeline-size: WxH expected: the picture's width and height in points, W 100..5000, H 50..5000
ciat: try 'ciat --help'
--- exit 1
EOF
check "--timeline-size 300: no height" ciat --timeline bad/t.svg --timeline-size 300 -o bad tl.2 <<'EOF'
--- stderr
ciat: option --timeline-size: WxH expected: the picture's width and height in points, W 100..5000, H 50..5000
ciat: try 'ciat --help'
--- exit 1
EOF
check "--timeline-size 245x60: no room for the rows" ciat --timeline bad/t.svg --timeline-size 245x60 -o bad tl.2 <<'EOF'
--- stderr
ciat: --timeline-size 245x60 is too small for 2 threads: the height leaves less than 10 points for the rows (H at least 64 at this width)
ciat: try 'ciat --help'
--- exit 1
EOF
check "--timeline-title '': refused" ciat --timeline bad/t.svg --timeline-title '' -o bad tl.2 <<'EOF'
--- stderr
ciat: --timeline-title: the title is empty
ciat: try 'ciat --help'
--- exit 1
EOF
check "--timeline '': refused" ciat --timeline '' -o bad tl.2 <<'EOF'
--- stderr
ciat: --timeline: the file name is empty
ciat: try 'ciat --help'
--- exit 1
EOF
check "--timeline-title without --timeline: refused" ciat --timeline-title x -o bad tl.2 <<'EOF'
--- stderr
ciat: --timeline-title is the --timeline picture's: give --timeline FILE
ciat: try 'ciat --help'
--- exit 1
EOF
check "--timeline in slice mode: refused" ciat --timeline bad/t.svg -i 2 -o bad tl.2 <<'EOF'
--- stderr
ciat: --timeline is for thread mode: slice mode (-i) runs processes on processors, whose clocks and waits are the processors'
ciat: try 'ciat --help'
--- exit 1
EOF
check "--timeline with --no-report: refused" ciat --timeline bad/t.svg --no-report --events - -o bad tl.2 <<'EOF'
--- stderr
ciat: --no-report writes the event trace only: not with --timeline
ciat: try 'ciat --help'
--- exit 1
EOF
check_status "--timeline into a directory that does not exist: exit 2" 2 '^ciat: nosuch/t\.svg: cannot create output file' \
    ciat --timeline nosuch/t.svg -o bad tl.2
check "nothing written by the refused runs" ls bad <<'EOF'
--- exit 0
EOF

# A run that fails on its input writes no picture and leaves an earlier one
# as it was (common/out_file.h).
printf 'threads 1\nthread 0\nload 4 0x100\nend_critical lock=0x9000\n' >bu.txt
smait asm bu.txt bu
echo earlier >kept.svg
check_status "a bad unlock stops the run: exit 2" 2 'bu\.1\.0: .*' ciat --timeline kept.svg --timeline-title x bu.1
check "... the earlier picture is kept, no temporary left" bash -c 'cat kept.svg; ls | grep -c "tmp" || true' <<'EOF'
earlier
0
--- exit 0
EOF
