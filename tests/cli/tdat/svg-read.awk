# svg-read.awk — reads tdat's SVG back into numbers, through its axes, for
# tdat-svg.sh (one element per line, as tdat writes it).
#
#   awk -v what=series [-v procs=P] [-v which=K] -f svg-read.awk FILE.svg
#       one line "clock events" per step of the K-th polyline of class
#       "series" (default the first): a step is a pair of points, (start,
#       rate) and (end, rate); its pixel coordinates mapped back to data
#       through the first plot's x-ticks and y-ticks (the linear map through
#       the first and last tick of each axis), the rate times P (default 1)
#       giving events, rounded to integers; "BAD x y" when a value is more
#       than 0.05 off an integer or a step is not level (the picture does not
#       match the axes). Each step's end is checked to be the next one's start
#       ("BAD gap" otherwise); the last end is printed as "end CLOCK".
#   awk -v what=density -f svg-read.awk FILE.svg
#       one line "density LO HI N F" per bar of the group of class
#       "density", from its <title>; then the bar itself is checked against
#       the second plot's axes: its left and right edges must map to LO and
#       HI, its top to F (within 0.0001 + half a printed digit); "BAD ..."
#       otherwise.
function attr(s, name,    m) {
    if (match(s, name "=\"[^\"]*\"")) return substr(s, RSTART + length(name) + 2, RLENGTH - length(name) - 3) + 0
    return ""
}
function label(s) {
    sub(/^.*<text[^>]*>/, "", s)
    sub(/<\/text>.*$/, "", s)
    return s + 0
}
function abs(v) { return v < 0 ? -v : v }
# Ticks: the label's value and the position of the tick line just before it.
/<g class="x-ticks"/ { axis = "x"; plot["x"]++; next }
/<g class="y-ticks"/ { axis = "y"; plot["y"]++; next }
/^<\/g>/ { axis = ""; next }
axis != "" && /^<line / { pos = axis == "x" ? attr($0, "x1") : attr($0, "y1"); next }
axis != "" && /^<text / {
    p = plot[axis]; n = ++nt[axis, p]
    tp[axis, p, n] = pos; tv[axis, p, n] = label($0)
    next
}
# Map pixel position v on axis a of plot p to data (through the end ticks).
function data(a, p, v,    n) {
    n = nt[a, p]
    return tv[a, p, 1] + (v - tp[a, p, 1]) * (tv[a, p, n] - tv[a, p, 1]) / (tp[a, p, n] - tp[a, p, 1])
}
what == "series" && /<polyline class="series"/ && ++nser == (which == "" ? 1 : which) {
    s = $0
    sub(/.* points="/, "", s)
    sub(/".*/, "", s)
    k = split(s, pts, " ")
    if (procs == "") procs = 1
    prev = ""
    for (i = 1; i + 1 <= k; i += 2) {
        split(pts[i], a, ","); split(pts[i + 1], b, ",")
        if (a[2] != b[2]) print "BAD step not level", pts[i], pts[i + 1]
        x = data("x", 1, a[1]); x1 = data("x", 1, b[1]); y = data("y", 1, a[2]) * procs
        rx = int(x + 0.5); ry = int(y + 0.5)
        if (prev != "" && abs(x - prev) > 0.05) print "BAD gap", prev, x
        prev = x1
        if (abs(x - rx) > 0.05 || abs(y - ry) > 0.05) print "BAD", x, y
        else print rx, ry
    }
    if (prev != "") printf "end %d\n", int(prev + 0.5)
}
what == "density" && /<g class="density"/ { bars = 1; next }
what == "density" && bars && /^<rect / {
    t = $0
    sub(/.*<title>class [0-9]+: rate /, "", t)
    sub(/<\/title>.*/, "", t)
    # t = "LO to HI: N bins (fraction F)"
    split(t, w, /[ :()]+/)
    lo = w[1]; hi = w[3]; n = w[4]; f = w[7]
    print "density", lo, hi, n, f
    x0 = attr($0, "x"); wd = attr($0, "width"); y0 = attr($0, "y")
    tol = 0.0001 + 0.00005
    one = lo == hi      # one class: a fixed-width bar centred on the rate
    if (one) { x0 += 6; wd -= 12 }
    if (abs(data("x", 2, x0) - lo) > tol + (hi - lo) * 0.001 || abs(data("x", 2, x0 + wd) - hi) > tol + (hi - lo) * 0.001 ||
        abs(data("y", 2, y0) - f) > tol)
        print "BAD bar", lo, hi, f, "drawn at", data("x", 2, x0), data("x", 2, x0 + wd), data("y", 2, y0)
}
