# classes.awk — an independent model of the capacity/conflict split, written
# only for tests/cli/cdat-misses.sh (no code shared with cdat/miss_class.c or
# cdat/cache.c). It reads `smait schedule --fetches` of a set run on one
# processor and prints the whole run's classes as cdat's RxTxL17 and
# RxTxL18 lines:
#
#   smait schedule --fetches SET |
#     awk -v line=16 -v dsize=256 -v dassoc=1 -v isize=128 -v iassoc=2 -f classes.awk
#
# For each cache (d: loads, stores, atomics, one reference per line touched;
# i: every fetch) it keeps the set-associative LRU cache (assoc 0: fully
# associative) and a fully associative LRU cache of the same number of lines
# (Hill's rule). A reference that misses in the first is cold when the line
# was never referenced before, a conflict miss when the second holds it, else
# a capacity miss. With one processor nothing is invalidated by another:
# true_sharing, false_sharing and upgrades are 0. mpki = misses × 1000 /
# fetches, with four decimals.

function setup(c, size, assoc) {
    nlines[c] = size / line
    ways[c] = assoc == 0 ? nlines[c] : assoc
    nsets[c] = nlines[c] / ways[c]
}

# ref C L: one reference of cache C to line L.
function ref(c, l,    s, k, m, victim, oldest, in_fa, hit) {
    refs[c]++
    now++
    # The fully associative shadow: present before this reference?
    in_fa = (c, l) in fa
    if (!in_fa) {
        if (fa_n[c] == nlines[c]) {
            victim = ""
            for (k in fa) {
                split(k, kk, SUBSEP)
                if (kk[1] != c) continue
                if (victim == "" || fa[k] < oldest) { victim = k; oldest = fa[k] }
            }
            delete fa[victim]
        } else {
            fa_n[c]++
        }
    }
    fa[c, l] = now
    # The set-associative cache.
    s = l % nsets[c]
    hit = (c, l) in used
    if (hit) {
        used[c, l] = now
        return
    }
    if (!((c, l) in seen)) cls[c, "cold"]++
    else if (in_fa) cls[c, "conflict"]++
    else cls[c, "capacity"]++
    seen[c, l] = 1
    miss[c]++
    if (fill[c, s] < ways[c]) {
        k = ++fill[c, s]
    } else {
        victim = 0
        for (k = 1; k <= ways[c]; k++) {
            m = member[c, s, k]
            if (victim == 0 || used[c, m] < oldest) { victim = k; oldest = used[c, m] }
        }
        k = victim
        delete used[c, member[c, s, k]]
    }
    member[c, s, k] = l
    used[c, l] = now
}

function strtonum_(s,    v, i) {
    if (s !~ /^0[xX]/) return s + 0
    v = 0
    s = tolower(substr(s, 3))
    for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
    return v
}

BEGIN {
    setup("d", dsize, dassoc)
    setup("i", isize, iassoc)
}

$3 == "fetch" { ref("i", int(strtonum_($4) / line)); next }

$3 ~ /^[0-9]+:$/ && ($4 == "load" || $4 == "store" || $4 == "atomic") {
    a = strtonum_($6)
    first = int(a / line)
    last = int((a + ($5 > 0 ? $5 - 1 : 0)) / line)
    for (l = first; l <= last; l++) ref("d", l)
}

function out(ll, name, c) {
    printf "RxTxL%s: %s cold %d capacity %d conflict %d true_sharing 0 false_sharing 0 upgrades 0 mpki %s\n",
        ll, name, cls[c, "cold"], cls[c, "capacity"], cls[c, "conflict"],
        refs["i"] ? sprintf("%.4f", 1000 * miss[c] / refs["i"]) : "0.0000"
}

END {
    out(17, "data_classes", "d")
    out(18, "instr_classes", "i")
}
