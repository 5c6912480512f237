# seqs.awk — checks the release numbers of recorded synchronisation in a
# `smait dump --set` text (collector tests; formats/SMAIT.md §5.1). The
# numbers follow the real order of a run, which differs from run to run, so
# the goldens show the records without them and this checks them instead:
# * a critical or ordered section (begin … end on one key, one thread) ends
#   with the number after the one it began with (its lock was exclusive);
# * the ends of a key's sections, and the releases of an object, are
#   numbered 1 … n, each once (the real order of n releases);
# * an acquire's number names a release that exists (1 … n of its object).
# Prints one line per key space: how many keys and releases, then every
# error found; exit status 1 on an error.
function fail(msg) { print "error: " msg; bad = 1 }
/^thread / { th = $2; next }
{
    sub(/^[0-9]+: /, "")
    rec = $1
    if (rec !~ /^(begin|end)_(critical|order)$|^(acquire|release)$/)
        next
    key = ""; seq = 0
    for (i = 2; i <= NF; i++) {
        if ($i ~ /^(lock|obj)=/) key = substr($i, index($i, "=") + 1)
        if ($i ~ /^seq=/) seq = substr($i, 5) + 0
    }
    space = rec ~ /critical/ ? "critical" : rec ~ /order/ ? "ordered" : "object"
    k = space SUBSEP key
    if (rec ~ /^begin/) { open[th, k] = seq + 1; next }
    if (rec == "acquire") { nacq[k]++; acq[k, nacq[k]] = seq; keys[k] = 1; next }
    if (rec ~ /^end/) {
        if (!((th, k) in open))
            fail("thread " th ": " rec " " key " without its begin")
        else if (open[th, k] != seq)
            fail("thread " th ": " rec " " key " seq=" seq ", begun after " open[th, k] - 1 " releases")
        delete open[th, k]
    }
    nrel[k]++; rel[k, seq]++; keys[k] = 1
}
END {
    for (k in keys) {
        split(k, part, SUBSEP)
        n = nrel[k] + 0
        for (s = 1; s <= n; s++)
            if (rel[k, s] != 1)
                fail(part[1] " " part[2] ": release " s " appears " rel[k, s] + 0 " times (" n " releases)")
        for (j = 1; j <= nacq[k]; j++)
            if (acq[k, j] < 1 || acq[k, j] > n)
                fail(part[1] " " part[2] ": acquire of release " acq[k, j] " (" n " releases)")
        nkeys[part[1]]++; total[part[1]] += n
    }
    for (sp in nkeys)
        line[sp] = sp ": " nkeys[sp] " keys, " total[sp] " releases, numbered in order"
    for (i = split("critical ordered object", order, " "); i >= 1; i--)
        if (order[i] in line) out = line[order[i]] "\n" out
    printf "%s", out
    exit bad
}
