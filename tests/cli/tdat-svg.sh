# tdat-svg.sh — tdat --svg FILE: the picture is valid XML (xmllint), an SVG
# document, self-contained (nothing loaded from elsewhere), titled with the
# input's name (escaped), with both plots' axes, ticks and labels; its points,
# read back through its own axes (tests/cli/tdat/svg-read.awk), are the time
# file's numbers, and its density bars are the frequency file's density
# lines, drawn where the axes say. Also: more bins than SVG_MAX_POINTS (2000)
# are grouped, one bin and one class still draw, the same run gives the same
# bytes. xmllint comes from libxml2-utils, which scripts/install-deps
# installs: without it the first check fails (the others would prove nothing).
D=$CLI_DIR/tdat
cp "$D"/basic.events "$D"/cfield.trace .
AWK_READ=$D/svg-read.awk

check_true "xmllint is installed (scripts/install-deps: libxml2-utils)" command -v xmllint

# svg_checks LABEL SVG TIME FREQ: every check that holds for any picture.
svg_checks() {
    local label=$1 svg=$2 time=$3 freq=$4
    check "$label: well-formed XML" xmllint --noout "$svg" <<'EOF'
--- exit 0
EOF
    check "$label: an SVG document" \
        xmllint --xpath 'concat(local-name(/*), " ", namespace-uri(/*), " ", /*/@viewBox)' "$svg" <<'EOF'
svg http://www.w3.org/2000/svg 0 0 960 780
--- exit 0
EOF
    check "$label: self-contained (no links, scripts, styles, images, fonts)" \
        grep -ciE 'href|url\(|<script|<style|<image|<foreignObject|@import|@font-face' "$svg" <<'EOF'
0
--- exit 1
EOF
    check "$label: two plots, each with x and y ticks and axis labels" bash -c "
        grep -c '<g class=\"x-ticks\"' '$svg'; grep -c '<g class=\"y-ticks\"' '$svg'
        grep -oE '>(clock \\(start of the bin\\)|events per bin|rate \\(events per bin per processor\\)|fraction of bins)<' '$svg'" <<'EOF'
2
2
>clock (start of the bin)<
>events per bin<
>rate (events per bin per processor)<
>fraction of bins<
--- exit 0
EOF
    awk -v what=series -f "$AWK_READ" "$svg" >"$svg.points"
    check_same "$label: the points, read through the axes, are the time file" "$time" "$svg.points"
    awk -v what=density -f "$AWK_READ" "$svg" >"$svg.bars"
    grep '^density' "$freq" >"$svg.density"
    check_same "$label: the bars are the density lines, drawn where the axes say" "$svg.density" "$svg.bars"
}

# ---- basic.events (numbers derived in tests/cli/tdat/basic.events) ------------
check "basic: --svg" bash -c 'tdat -classes 4 --svg basic.svg basic.events basic.time 10 2 >basic.freq' <<'EOF'
--- exit 0
EOF
svg_checks basic basic.svg basic.time basic.freq
check "basic: title and heading name the input" \
    xmllint --xpath 'string(/*/*[local-name()="title"])' basic.svg <<'EOF'
tdat: basic.events
--- exit 0
EOF
check "basic: the subtitle gives the run" grep -c '>12 events in 6 bins of width 10, p = 2<' basic.svg <<'EOF'
1
--- exit 0
EOF
# The polyline holds the 6 bins of basic.time; 6 markers with tooltips; the
# mean (12 / 6 = 2 events per bin) as a dashed line.
check "basic: the markers' tooltips" bash -c "grep -o '<title>bin [^<]*</title>' basic.svg" <<'EOF'
<title>bin 0: clock 0: 3 events</title>
<title>bin 1: clock 10: 2 events</title>
<title>bin 2: clock 20: 4 events</title>
<title>bin 3: clock 30: 0 events</title>
<title>bin 4: clock 40: 2 events</title>
<title>bin 5: clock 50: 1 event</title>
--- exit 0
EOF
check "basic: the mean line" grep -c '>mean 2.0000 events per bin (dashed)<' basic.svg <<'EOF'
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
svg_checks "-f 2=WAR -f 3=1" war.svg war.time war.freq
check "-f: the subtitle names the filters" grep -c '>1 events in 5 bins of width 10, p = 2, field 2 = WAR, field 3 = 1<' war.svg <<'EOF'
1
--- exit 0
EOF
tdat --svg b20.svg basic.events b20.time 10 2 >b20.freq
svg_checks "20 classes" b20.svg b20.time b20.freq
# cfield.trace with -c 3: every bin holds one event: min = max, one class,
# drawn as one bar centred on the rate 0.5 of an axis from 0 to 1.
tdat -c 3 --svg cf.svg cfield.trace cf.time 5 2 >cf.freq
svg_checks "one class (min = max)" cf.svg cf.time cf.freq
# A single event: one bin, a polyline of one point, one marker.
printf '7 RAW 0 0\n' >one.events
tdat --svg one.svg one.events one.time 10 1 >one.freq
svg_checks "one bin" one.svg one.time one.freq
check "one bin: one marker" grep -c '<circle ' one.svg <<'EOF'
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
# ceil(5000 / 2000) = 3 bins, ceil(5000 / 3) = 1667 points, each at its
# group's first clock with the group's largest count.
awk 'BEGIN { for (i = 0; i < 5000; i++) for (k = 0; k < i % 7; k++) print i, "RAW", 0, 0 }' >many.events
tdat --svg many.svg many.events many.time 1 4 >many.freq
check "5000 bins: the time file has them all" bash -c 'wc -l <many.time' <<'EOF'
5000
--- exit 0
EOF
check "5000 bins: a note under the axis says how points are grouped" \
    grep -c '>each point: the largest of 3 consecutive bins<' many.svg <<'EOF'
1
--- exit 0
EOF
awk '{ g = int(NR - 1) / 3; g = int(g); if (!(g in m) || $2 > m[g]) m[g] = $2; if (!(g in s)) s[g] = $1 }
     END { for (g = 0; g in s; g++) print s[g], m[g] }' many.time >many.groups
awk -v what=series -f "$AWK_READ" many.svg >many.points
check_same "5000 bins: 1667 points, each the largest count of its group" many.groups many.points
check "5000 bins: no markers" grep -c '<circle ' many.svg <<'EOF'
0
--- exit 1
EOF
check "5000 bins: valid XML" xmllint --noout many.svg <<'EOF'
--- exit 0
EOF
awk -v what=density -f "$AWK_READ" many.svg >many.bars
grep '^density' many.freq >many.density
check_same "5000 bins: the bars are the density lines" many.density many.bars
