# comm-model.awk — the communication analysis of docs/ciat-report.md (L10–L15),
# replayed on `smait schedule` output (the order ciat sees the accesses) and
# written apart from ciat's own code, to check its RxT lines. Per location
# (GRAIN-byte aligned block) it keeps w, the last writer, and R, the threads
# other than w that loaded it since. A data access covers every location
# holding one of its bytes [addr, addr+size) (a 0-byte access: the location
# holding addr); each location sees the access on its own; an atomic is a
# load then a store of each location.
# Prints, per thread 0..THREADS-1, the report's RxT lines L10–L15.
# Usage: smait schedule SET | awk -v grain=4 -v threads=P -f comm-model.awk
function hex(s,   i, v, c) {
    v = 0; s = tolower(substr(s, 3))
    for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
    return v
}
function load(p, l) {
    if ((l in w) && w[l] == p) return
    if ((l, p) in rd) return
    if (l in w) raw[p]++
    else if (nr[l] > 0) rar[p]++
    rd[l, p] = 1; nr[l]++; who[l] = who[l] " " p
}
# Forget R of l (the readers are listed in who[l]).
function clear(l,   n, i, r) {
    n = split(who[l], r, " ")
    for (i = 1; i <= n; i++) delete rd[l, r[i]]
    nr[l] = 0; who[l] = ""
}
function store(p, l,   k) {
    k = nr[l] - (((l, p) in rd) ? 1 : 0)
    if (k >= 1) { war[p]++; inv[p, k]++; if (k > maxk) maxk = k }
    else if ((l in w) && w[l] != p) waw[p]++
    if ((l in w) && nr[l] >= 1) { sh[w[l], nr[l]]++; if (nr[l] > maxk) maxk = nr[l] }
    w[l] = p
    clear(l)
}
function mem(p, size, addr, ld, st,   first, last, l) {
    first = int(addr / grain)
    last = int((addr + (size > 0 ? size : 1) - 1) / grain)
    if (last > int(4294967295 / grain)) last = int(4294967295 / grain)
    for (l = first; l <= last; l++) {
        if (ld) load(p, l)
        if (st) store(p, l)
    }
}
function degrees(name, a, p,   k, s) {
    s = name
    for (k = 1; k <= maxk; k++) if ((p, k) in a) s = s " " k ":" a[p, k]
    return s
}
$4 == "load" || $4 == "store" || $4 == "atomic" {
    mem(substr($2, 2) + 0, $5 + 0, hex($6), $4 != "store", $4 != "load")
}
END {
    for (l in w) if (nr[l] >= 1) { sh[w[l], nr[l]]++; if (nr[l] > maxk) maxk = nr[l] }
    for (p = 0; p < threads; p++) {
        print "RxT" p "L10: raw " raw[p] + 0
        print "RxT" p "L11: " degrees("raw_degree", sh, p)
        print "RxT" p "L12: war " war[p] + 0
        print "RxT" p "L13: " degrees("war_degree", inv, p)
        print "RxT" p "L14: waw " waw[p] + 0
        print "RxT" p "L15: rar " rar[p] + 0
    }
}
