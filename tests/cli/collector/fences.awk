# fences.awk — the records of fences.c and fencemisc.c, compact
# (tests/cli/collector-fences.sh). Input: the dump of the set through
# normalize.awk without branch, proc, pcall and tracing records.
#   * An acquire is joined with the record after it, a release with the
#     record before it, when that is an access of its object ("acquire
#     obj=flag+0 seq=1 kind=6; load 4 flag+0").
#   * Accesses of the producer's own array work (fences.c) are dropped;
#     data+N and many+N become data and many.
#   * A consumer's spin loads of the flag between the barrier ready and its
#     acquire (their number is timing) are dropped (not its load after the
#     barrier done: the barrier version has no spin loop).
#   * Runs of one line are counted: "(x1024)" (runs.awk, loaded first).
# obj(LINE): the object of an acquire or release, the address of an access.
function obj(line,   w) {
    split(line, w, " ")
    if (w[2] ~ /^obj=/) return substr(w[2], 5)
    return w[1] ~ /^(load|store|atomic)$/ ? w[3] : ""
}
function put(line) {
    if (held != "") {
        if ((line ~ /^release / || held ~ /^acquire /) && obj(line) == obj(held) && obj(line) != "") {
            out(held "; " line); held = ""; return
        }
        out(held)
    }
    held = line
}
function drain() { if (held != "") out(held); held = "" }
/^thread / { drain(); flush_run(); thread = $2; spin = 0; print; next }
/ work\+[0-9]+$/ { next }
{ sub(/data\+[0-9]+/, "data"); sub(/many\+[0-9]+/, "many") }
thread > 0 && /^barrier var=ready\+0/ { put($0); spin = 1; next }
spin && /^barrier / { spin = 0 }
spin && $0 == "load 4 flag+0" { next }
spin && /^acquire obj=flag\+0/ { spin = 0 }
{ put($0) }
END { drain(); flush_run() }
