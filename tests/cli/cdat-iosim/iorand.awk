# iorand.awk — adds file reads and writes to a random trace set of
# tests/cli/cdat-check/randset.awk (SMAIT text form on stdin), for the
# protocol checker's runs under -handle_io in cdat-io.sh.
#
#   awk -v seed=S -v pct=P -f iorand.awk <set.txt >set-io.txt
#
# Before about P% of the records of each thread section, a `read` or `write`
# call (half each) of 1-300 bytes at a buffer in the set's shared data
# (0x20000000 + 4096 x 0..5 + 0..255, the lines the threads share and write),
# so the I/O processors meet lines idle, shared, exclusive and dirty. A
# Park-Miller LCG: the same set under every awk.
function rnd(k) {               # an integer in [0, k)
    x = (x * 16807) % 2147483647
    return int(x / 2147483647 * k)
}
BEGIN {
    x = seed + 0
    if (x <= 0) x = 1
    if (pct == "") pct = 3
}
$1 == "thread" { inside = 1; print; next }
inside && $1 != "" && $1 !~ /^#/ && rnd(100) < pct {
    printf "%s 0x%x %d %d\n", rnd(2) ? "read" : "write", 536870912 + 4096 * rnd(6) + rnd(256), 1 + rnd(300), 3 + rnd(4)
}
{ print }
