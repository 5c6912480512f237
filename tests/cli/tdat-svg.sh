# tdat-svg.sh — tdat --svg FILE: the picture is valid XML (xmllint), an SVG
# document, self-contained (nothing loaded from elsewhere), titled with the
# input's name (escaped) or --title, with both plots' axes, ticks and labels
# (the clock in pseudo-clock instructions, the rate in events per bin per
# processor as in the frequency file); its steps, read back through its own
# axes (tests/cli/tdat/svg-read.awk), are the time file's numbers, one level
# over each bin's whole width; its density bars are the frequency file's
# density lines, drawn where the axes say. Also: headroom above the largest
# rate, --size, --xlabel/--ylabel, --log, --series (one step line per value,
# each the time file of that value, a legend), more bins than SVG_MAX_POINTS
# (2000) grouped, one bin and one class, the same run giving the same bytes. xmllint comes from libxml2-utils, which scripts/install-deps
# installs: without it the first check fails (the others would prove nothing).
D=$CLI_DIR/tdat
cp "$D"/basic.events "$D"/cfield.trace .
AWK_READ=$D/svg-read.awk

check_true "xmllint is installed (scripts/install-deps: libxml2-utils)" command -v xmllint

# svg_checks LABEL SVG TIME FREQ P [VIEWBOX]: every check that holds for any picture.
svg_checks() {
    local label=$1 svg=$2 time=$3 freq=$4 procs=$5 vb=${6:-0 0 960 780}
    check "$label: well-formed XML" xmllint --noout "$svg" <<'EOF'
--- exit 0
EOF
    check "$label: an SVG document" \
        xmllint --xpath 'concat(local-name(/*), " ", namespace-uri(/*), " ", /*/@viewBox)' "$svg" <<EOF
svg http://www.w3.org/2000/svg $vb
--- exit 0
EOF
    check "$label: self-contained (no links, scripts, styles, images, fonts)" \
        grep -ciE 'href|url\(|<script|<style|<image|<foreignObject|@import|@font-face' "$svg" <<'EOF'
0
--- exit 1
EOF
    check "$label: two plots, each with x and y ticks and axis labels" bash -c "
        grep -c '<g class=\"x-ticks\"' '$svg'; grep -c '<g class=\"y-ticks\"' '$svg'
        grep -oE '>(clock \\(pseudo-clock instructions\\)|rate \\(events per bin per processor\\)|fraction of bins)<' '$svg'" <<'EOF'
2
2
>clock (pseudo-clock instructions)<
>rate (events per bin per processor)<
>rate (events per bin per processor)<
>fraction of bins<
--- exit 0
EOF
    awk -v what=series -v procs="$procs" -f "$AWK_READ" "$svg" | grep -v '^end ' >"$svg.points"
    check_same "$label: the steps, read through the axes (rate x p), are the time file" "$time" "$svg.points"
    awk -v what=density -f "$AWK_READ" "$svg" >"$svg.bars"
    grep '^density' "$freq" >"$svg.density"
    check_same "$label: the bars are the density lines, drawn where the axes say" "$svg.density" "$svg.bars"
}

# ---- basic.events (numbers derived in tests/cli/tdat/basic.events) ------------
check "basic: --svg" bash -c 'tdat -classes 4 --svg basic.svg basic.events basic.time 10 2 >basic.freq' <<'EOF'
--- exit 0
EOF
svg_checks basic basic.svg basic.time basic.freq 2
check "basic: steps: each bin a level from its start to its end (the last ends at 60)" \
    bash -c "awk -v what=series -v procs=2 -f '$AWK_READ' basic.svg | tail -n 1" <<'EOF'
end 60
--- exit 0
EOF
check "basic: headroom: the rate axis goes on past the largest rate, 2, to 2.5" \
    bash -c "awk '/<g class=\"y-ticks\"/ { g++ } g == 1 && /^<\\/g>/ { exit } g == 1' basic.svg | grep -o '>[0-9.]*</text>' | tail -n 1" <<'EOF'
>2.5</text>
--- exit 0
EOF
check "basic: title and heading name the input" \
    xmllint --xpath 'string(/*/*[local-name()="title"])' basic.svg <<'EOF'
tdat: basic.events
--- exit 0
EOF
check "basic: the subtitle gives the run" grep -c '>12 events in 6 bins of width 10, p = 2<' basic.svg <<'EOF'
1
--- exit 0
EOF
# The polyline holds the 6 bins of basic.time; 6 tooltips; the mean rate
# (12 / 6 / 2 = 1, the frequency file's avg_rate) as a dashed line.
check "basic: the bins' tooltips" bash -c "grep -o '<title>bin [^<]*</title>' basic.svg" <<'EOF'
<title>bin 0: clock 0: 3 events</title>
<title>bin 1: clock 10: 2 events</title>
<title>bin 2: clock 20: 4 events</title>
<title>bin 3: clock 30: 0 events</title>
<title>bin 4: clock 40: 2 events</title>
<title>bin 5: clock 50: 1 event</title>
--- exit 0
EOF
check "basic: the mean line, the frequency file's avg_rate" grep -c '>mean rate 1.0000 (dashed)<' basic.svg <<'EOF'
1
--- exit 0
EOF
check "basic: the bars' tooltips" bash -c "grep -o '<title>class [^<]*</title>' basic.svg" <<'EOF'
<title>class 1: rate 0.0000 to 0.5000: 1 bin (fraction 0.1667)</title>
<title>class 2: rate 0.5000 to 1.0000: 1 bin (fraction 0.1667)</title>
<title>class 3: rate 1.0000 to 1.5000: 2 bins (fraction 0.3333)</title>
<title>class 4: rate 1.5000 to 2.0000: 2 bins (fraction 0.3333)</title>
--- exit 0
EOF
tdat -classes 4 --svg again.svg basic.events again.time 10 2 >/dev/null
check_same "basic: the same run writes the same bytes" basic.svg again.svg
tdat -classes 4 basic.events plain.time 10 2 >plain.freq
check_same "basic: --svg changes neither the time file" basic.time plain.time
check "basic: ... nor the frequency file (but its command line)" \
    diff <(grep -v '^# command' basic.freq) <(grep -v '^# command' plain.freq) <<'EOF'
--- exit 0
EOF

# ---- filters, -c, default classes ----------------------------------------------
tdat -f 2=WAR -f 3=1 --svg war.svg basic.events war.time 10 2 >war.freq
svg_checks "-f 2=WAR -f 3=1" war.svg war.time war.freq 2
check "-f: the subtitle names the filters" grep -c '>1 events in 5 bins of width 10, p = 2, field 2 = WAR, field 3 = 1<' war.svg <<'EOF'
1
--- exit 0
EOF
tdat --classes 20 --svg b20.svg basic.events b20.time 10 2 >b20.freq
svg_checks "20 classes" b20.svg b20.time b20.freq 2
# cfield.trace with -c 3: every bin holds one event: min = max, one class,
# drawn as one bar centred on the rate 0.5 of an axis from 0 to 1.
tdat -c 3 --svg cf.svg cfield.trace cf.time 5 2 >cf.freq
svg_checks "one class (min = max)" cf.svg cf.time cf.freq 2
# A single event: one bin, one step, one tooltip.
printf '7 RAW 0 0\n' >one.events
tdat --svg one.svg one.events one.time 10 1 >one.freq
svg_checks "one bin" one.svg one.time one.freq 1
check "one bin: one tooltip" grep -c '<title>bin ' one.svg <<'EOF'
1
--- exit 0
EOF

# ---- an input name that needs escaping ----------------------------------------
cp basic.events 'a&b<"c">.events'
tdat --svg amp.svg 'a&b<"c">.events' amp.time 10 2 >/dev/null
check "a name with & < > \" is escaped: valid XML" xmllint --noout amp.svg <<'EOF'
--- exit 0
EOF
check "... and reads back as the name" xmllint --xpath 'string(/*/*[local-name()="title"])' amp.svg <<'EOF'
tdat: a&b<"c">.events
--- exit 0
EOF
STDIN=basic.events check "standard input is called so" \
    bash -c 'tdat --svg stdin.svg - stdin.time 10 2 >/dev/null && xmllint --xpath "string(/*/*[local-name()=\"title\"])" stdin.svg' <<'EOF'
tdat: standard input
--- exit 0
EOF

# ---- more bins than points: groups of bins ---------------------------------------
# 5000 bins of width 1, bin i holding i mod 7 events (clock i, i mod 7
# times; bins 0, 7, 14, ... are empty). 5000 > 2000 points: groups of
# ceil(5000 / 2000) = 3 bins, ceil(5000 / 3) = 1667 steps, each from its
# group's first clock with the group's largest count (a rate of count / 4).
awk 'BEGIN { for (i = 0; i < 5000; i++) for (k = 0; k < i % 7; k++) print i, "RAW", 0, 0 }' >many.events
tdat --svg many.svg many.events many.time 1 4 >many.freq
check "5000 bins: the time file has them all" bash -c 'wc -l <many.time' <<'EOF'
5000
--- exit 0
EOF
check "5000 bins: a note under the axis says how points are grouped" \
    grep -c '>each step: the largest of 3 consecutive bins<' many.svg <<'EOF'
1
--- exit 0
EOF
awk '{ g = int(NR - 1) / 3; g = int(g); if (!(g in m) || $2 > m[g]) m[g] = $2; if (!(g in s)) s[g] = $1 }
     END { for (g = 0; g in s; g++) print s[g], m[g] }' many.time >many.groups
awk -v what=series -v procs=4 -f "$AWK_READ" many.svg | grep -v '^end ' >many.points
check_same "5000 bins: 1667 steps, each the largest count of its group" many.groups many.points
check "5000 bins: no tooltips" grep -c '<title>bin ' many.svg <<'EOF'
0
--- exit 1
EOF
check "5000 bins: valid XML" xmllint --noout many.svg <<'EOF'
--- exit 0
EOF
awk -v what=density -f "$AWK_READ" many.svg >many.bars
grep '^density' many.freq >many.density
check_same "5000 bins: the bars are the density lines" many.density many.bars

# ---- options for a paper's figure -------------------------------------------------
tdat --svg sized.svg --size 1200x900 --title 'Figure 3: events' --xlabel 'time (cycles)' --ylabel 'events/bin/cpu' \
    basic.events sized.time 10 2 >sized.freq
check "--size 1200x900: the picture's size" \
    xmllint --xpath 'concat(/*/@width, " ", /*/@height, " ", /*/@viewBox)' sized.svg <<'EOF'
1200 900 0 0 1200 900
--- exit 0
EOF
check "--title: the title and heading; --xlabel, --ylabel: the top plot's labels" \
    bash -c "xmllint --xpath 'string(/*/*[local-name()=\"title\"])' sized.svg
             grep -c '>Figure 3: events<' sized.svg; grep -c '>time (cycles)<' sized.svg; grep -c '>events/bin/cpu<' sized.svg" <<'EOF'
Figure 3: events
2
1
1
--- exit 0
EOF
check "--size: the steps still read back as the time file" \
    bash -c "awk -v what=series -v procs=2 -f '$AWK_READ' sized.svg | grep -v '^end ' | cmp - sized.time && echo same" <<'EOF'
same
--- exit 0
EOF

# --series 2: one step line per value of field 2, sorted, each the time file of
# that value alone (tdat -f 2=VALUE), and a legend with the counts of
# basic.events (RAR 1, RAW 7, WAR 3, WAW 1).
tdat --series 2 --svg ser.svg basic.events ser.time 10 2 >ser.freq
check "--series 2: valid XML, four series" bash -c 'xmllint --noout ser.svg && grep -c "<polyline class=\"series\"" ser.svg' <<'EOF'
4
--- exit 0
EOF
check "--series 2: the legend" bash -c "sed -n '/<g class=\"legend\"/,/<\\/g>/p' ser.svg | grep -o '>[^<>]*</text>'" <<'EOF'
>RAR (1 event)</text>
>RAW (7 events)</text>
>WAR (3 events)</text>
>WAW (1 event)</text>
--- exit 0
EOF
k=0
for v in RAR RAW WAR WAW; do
    k=$((k + 1))
    tdat -f 2=$v basic.events "$v.time" 10 2 >/dev/null
    # Bins past a value's last event are 0 in its series (the picture spans all bins).
    awk -v n=6 '{ print } END { for (c = NR; c < n; c++) print c * 10, 0 }' "$v.time" >"$v.full"
    awk -v what=series -v procs=2 -v which=$k -f "$AWK_READ" ser.svg | grep -v '^end ' >"$v.steps"
    check_same "--series 2: series $k is $v's time file" "$v.full" "$v.steps"
done
check_same "--series changes neither the time file" basic.time ser.time
check "--series: no mean line (it would be of all series, not of one)" grep -c 'mean rate' ser.svg <<'EOF'
0
--- exit 1
EOF
awk '{ print $1, "v" NR % 11, 0, 0 }' basic.events | grep -v '^#' | grep -E '^[0-9]' >eleven.events
check "--series: at most 10 series" tdat --series 2 --svg x.svg eleven.events 10 2 <<'EOF'
--- stderr
tdat: eleven.events: line 11: field 2 has more than 10 values; --series draws at most 10 series (keep fewer with -f)
--- exit 2
EOF
check_true "--series: no picture after the error" test ! -e x.svg

# --log: the rate on a log scale, ticks at powers of ten from below the
# smallest positive rate (0.5) to above the largest (2, with headroom).
tdat --log --svg log.svg basic.events log.time 10 2 >/dev/null
check "--log: valid XML; the rate axis' ticks are powers of ten" \
    bash -c "xmllint --noout log.svg && sed -n '/<g class=\"y-ticks log\"/,/<\\/g>/p' log.svg | grep -o '>[0-9.]*</text>'" <<'EOF'
>0.1</text>
>1</text>
>10</text>
--- exit 0
EOF
