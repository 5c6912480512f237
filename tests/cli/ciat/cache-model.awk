# cache-model.awk — an infinite write-invalidate cache of LINE-byte lines per
# thread, replayed on `smait schedule` output (the order ciat sees the
# accesses), written apart from ciat's own code to check its L18 lines: per
# thread, misses (an access to a line the thread holds no copy of), cold
# misses (its first access to the line) and upgrades (a store to a line it
# holds but does not own: a load miss owns the line only when no other thread
# holds it, a store always). A store leaves its thread the only holder. An
# atomic is a load then a store; a 0-byte store touches the byte at its
# address; an access over a line boundary is one access per line.
# Prints "T misses cold upgrades" per thread that accessed anything.
# Usage: smait schedule SET | awk -v line=64 -f cache-model.awk
function hex(s,   i, v, c) {
    v = 0; s = tolower(substr(s, 3))
    for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
    return v
}
function access(t, ln, store,   u, others) {
    if (!((ln, t) in seen)) { seen[ln, t] = 1; cold[t]++ }
    if (!((ln, t) in holds)) {
        miss[t]++
        if (store) {
            for (u in holders) if ((ln, u) in holds) delete holds[ln, u]
            owner[ln] = t
        } else {
            others = 0
            for (u in holders) if ((ln, u) in holds) others = 1
            owner[ln] = others ? -1 : t
        }
        holds[ln, t] = 1; holders[t] = 1
    } else if (store && owner[ln] != t) {
        upg[t]++
        for (u in holders) if (u != t && (ln, u) in holds) delete holds[ln, u]
        owner[ln] = t
    }
    any[t] = 1
}
function mem(t, size, addr, ld, st,   first, last, ln) {
    first = int(addr / line); last = int((addr + (size > 0 ? size : 1) - 1) / line)
    for (ln = first; ln <= last; ln++) if (ld) access(t, ln, 0)
    for (ln = first; ln <= last; ln++) if (st) access(t, ln, 1)
}
$4 == "load" || $4 == "store" || $4 == "atomic" {
    t = substr($2, 2) + 0
    mem(t, $5 + 0, hex($6), $4 != "store", $4 != "load")
}
END { for (t in any) print t, miss[t] + 0, cold[t] + 0, upg[t] + 0 }
