# lru.awk — a plain set-associative LRU cache model, written only for
# tests/cli/cdat-lru.sh, independent of cdat's code (cdat/cache.c,
# cdat/protocol.c). It reads the interleaving printed by
# `smait schedule --fetches` and prints, per phase and for the whole run,
# the lines cdat's report must hold for a one-processor machine:
#
#   smait schedule --fetches [-p] SET |
#     awk -v line=64 -v dsize=1024 -v dassoc=2 -v isize=1024 -v iassoc=2 \
#         -v announced=1 -f lru.awk
#
# line = line size (bytes), dsize/isize = cache sizes (bytes), dassoc/iassoc
# = ways (0: fully associative), announced = 1 when the protocol announces
# exclusive replacements (protocols 1, 2, 6, 8).
#
# The model: every `fetch ADDR` line is one i-cache reference to the line of
# ADDR. A `load|store|atomic SIZE ADDR` record references every line of the
# bytes ADDR .. ADDR+SIZE-1 (one line for size 0), in ascending order; an
# atomic read-modify-write references them once, as a store does (it asks
# for the line owned; docs/cdat-protocol.md). A reference to
# a line in the cache is a hit, else a miss that puts the line in the cache
# (write-allocate); when the line's set is full, the least recently used
# line of the set leaves. A hit or a fill makes the line the most recently
# used of its set (LRU by a global reference counter). A data line is dirty
# once stored to. Output, in the format of the cdat report without the
# percentages:
#
#   R<phase>TxL01: data refs N hits N misses N upgrades 0
#   R<phase>TxL02: data_miss_src local N remote 0 local_memory N local_cache 0 remote_memory 0 remote_cache 0
#   R<phase>TxL03: instr … (the same for the i-cache)
#   R<phase>TxL04: instr_miss_src …
#   R<phase>TxL15: evictions write_back N update_tag N silent N
#
# (a dirty data victim is written back; a clean one is announced with
# update_tag or dropped silently; every instruction victim is silent) for each
# phase, then the same with Rx for the whole run. With one processor every
# line is local, so every miss comes from the local memory and a store never
# finds a shared line: no upgrades.
#
# The model also checks the test's assumption that no line is both fetched
# and accessed as data: it prints "overlap N" (N code lines also used as
# data) when that happens, which makes the comparison fail.

function setup(c, size, assoc,    lines) {
    lines = size / line
    ways[c] = assoc == 0 ? lines : assoc
    nsets[c] = lines / ways[c]
}

# ref C L STORE: one reference of cache C ("d" or "i") to line L.
function ref(c, l, store,    s, k, m, victim, oldest) {
    s = l % nsets[c]
    cnt_refs[cur, c]++
    if ((c, l) in used) {
        cnt_hits[cur, c]++
        used[c, l] = ++now
        if (store) dirty[l] = 1
        return
    }
    cnt_miss[cur, c]++
    if (fill[c, s] < ways[c]) {
        k = ++fill[c, s]
    } else {
        victim = 0
        for (k = 1; k <= ways[c]; k++) {
            m = member[c, s, k]
            if (victim == 0 || used[c, m] < oldest) {
                victim = k
                oldest = used[c, m]
            }
        }
        k = victim
        m = member[c, s, k]
        delete used[c, m]
        if (c == "i") cnt_silent[cur]++
        else if (m in dirty) cnt_wb[cur]++
        else if (announced) cnt_ut[cur]++
        else cnt_silent[cur]++
        if (c == "d") delete dirty[m]
    }
    member[c, s, k] = l
    used[c, l] = ++now
    if (store) dirty[l] = 1
}

function lines_of(addr, size) {
    first = int(addr / line)
    last = int((addr + (size > 0 ? size - 1 : 0)) / line)
}

function report(tag, p,    r, h, m) {
    r = cnt_refs[p, "d"] + 0; h = cnt_hits[p, "d"] + 0; m = cnt_miss[p, "d"] + 0
    printf "%sL01: data refs %d hits %d misses %d upgrades 0\n", tag, r, h, m
    printf "%sL02: data_miss_src local %d remote 0 local_memory %d local_cache 0 remote_memory 0 remote_cache 0\n", tag, m, m
    r = cnt_refs[p, "i"] + 0; h = cnt_hits[p, "i"] + 0; m = cnt_miss[p, "i"] + 0
    printf "%sL03: instr refs %d hits %d misses %d upgrades 0\n", tag, r, h, m
    printf "%sL04: instr_miss_src local %d remote 0 local_memory %d local_cache 0 remote_memory 0 remote_cache 0\n", tag, m, m
    printf "%sL15: evictions write_back %d update_tag %d silent %d\n", tag, cnt_wb[p], cnt_ut[p], cnt_silent[p]
}

BEGIN {
    setup("d", dsize, dassoc)
    setup("i", isize, iassoc)
    cur = 0
    nphases = 0
}

$1 == "phase" && $3 == "begin" {
    cur = $2
    phases[++nphases] = cur
    next
}

# CLOCK Tt fetch ADDR
$3 == "fetch" {
    l = int(strtonum_($4) / line)
    code[l] = 1
    ref("i", l, 0)
    next
}

# CLOCK Tt INDEX: load|store|atomic SIZE ADDR [fp|vec]
$3 ~ /^[0-9]+:$/ && ($4 == "load" || $4 == "store" || $4 == "atomic") {
    lines_of(strtonum_($6), $5 + 0)
    for (l = first; l <= last; l++) data[l] = 1
    for (l = first; l <= last; l++) ref("d", l, $4 != "load")
}

# A 0x… hexadecimal number (any awk: no strtonum needed).
function strtonum_(s,    v, i, ch) {
    if (s !~ /^0[xX]/) return s + 0
    v = 0
    s = tolower(substr(s, 3))
    for (i = 1; i <= length(s); i++) {
        ch = index("0123456789abcdef", substr(s, i, 1)) - 1
        v = v * 16 + ch
    }
    return v
}

END {
    overlap = 0
    for (l in code) if (l in data) overlap++
    if (overlap) print "overlap " overlap
    for (i = 1; i <= nphases; i++) {
        p = phases[i]
        report("R" p "Tx", p)
        for (c = 1; c <= 2; c++) {
            cc = c == 1 ? "d" : "i"
            cnt_refs["all", cc] += cnt_refs[p, cc]
            cnt_hits["all", cc] += cnt_hits[p, cc]
            cnt_miss["all", cc] += cnt_miss[p, cc]
        }
        cnt_wb["all"] += cnt_wb[p]
        cnt_ut["all"] += cnt_ut[p]
        cnt_silent["all"] += cnt_silent[p]
    }
    report("RxTx", "all")
}
