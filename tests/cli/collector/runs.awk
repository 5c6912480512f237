# runs.awk — shared by atomics.awk and fences.awk (loaded before them): lines
# printed through out() that repeat are printed once, with "(xN)".
function flush_run() {
    if (run != "") print run (n > 1 ? " (x" n ")" : "")
    run = ""; n = 0
}
function out(line) {
    if (line == run) { n++; return }
    flush_run()
    run = line; n = 1
}
