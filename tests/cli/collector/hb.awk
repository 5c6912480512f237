# hb.awk — does a trace set order its threads' accesses to shared data?
# (collector tests). Input: lines "RAW|NAMED", a trace set's dump (smait
# dump --set, without its header lines) beside the same dump with data
# addresses named (normalize.awk): locations are compared by name
# (name+offset; "?" is not checked), synchronisation keys by their address.
# It follows the traces' synchronisation as recorded (formats/SMAIT.md §5.1)
# with vector clocks, independently of ciat's scheduler: a region's spawn
# orders thread 0's past before every part, and the parts before thread 0's
# join (a part ends at its trace's next join or end); the k-th barrier a
# thread meets on a key in a region orders all its threads' pasts before
# their futures; a release, or the end of a critical or ordered section,
# numbered r orders what came before it before an acquire or begin numbered
# r or more on the same object. Then every load and store of a named
# location must be ordered after the other threads' earlier stores to it,
# and a store after their loads since. Atomic accesses are not checked
# (they may race).
# Output: "ordered: M named locations, no races" when nothing races,
# else "races: ..." and the first few; "stuck: ..." when the records wait
# for one another.
function maxvc(dst, src,   u) { for (u = 0; u < P; u++) if (vc[src, u] > vc[dst, u]) vc[dst, u] = vc[src, u] }
function copyvc(to, from,   u) { for (u = 0; u < P; u++) vc[to, u] = vc[from, u] }
function race(what, t, i, name) {
    nraces++
    if (nraces <= 5) first = first "\n  " what " on " name ": thread " t " record " i
}
{
    split($0, half, "|")
    if (half[2] ~ /^thread /) { split(half[2], w, " "); th = w[2] + 0; if (th >= P) P = th + 1; next }
    sub(/^[0-9]+: /, "", half[1]); sub(/ @[0-9:]+$/, "", half[1])
    n[th]++; line[th, n[th]] = half[1] "|" half[2]
}
END {
    for (t = 0; t < P; t++) { pos[t] = 1; for (u = 0; u < P; u++) vc[t, u] = 0; region[t] = 0 }
    left = P
    while (left > 0) {
        progress = 0
        for (t = 0; t < P; t++) {
            while (pos[t] <= n[t]) {
                if (!step(t, line[t, pos[t]])) break
                pos[t]++; progress = 1
                if (pos[t] > n[t]) { left--; part_end(t) }
            }
        }
        if (!progress) break
    }
    if (left > 0) {
        for (t = 0; t < P; t++)
            if (pos[t] <= n[t]) printf "stuck: thread %d at record %d: %s\n", t, pos[t], line[t, pos[t]]
        exit 1
    }
    if (nraces) { printf "races: %d%s\n", nraces, first; exit 1 }
    nloc = 0
    for (a in seenloc) nloc++
    printf "ordered: %d named locations, no races\n", nloc
}
function field(s, name,   i) {
    for (i = 2; i <= nf; i++) if (index(fl[i], name "=") == 1) return substr(fl[i], length(name) + 2)
    return ""
}
function part_end(t,   r) {
    r = region[t]
    if (t == 0 || r == 0 || ((r, t) in done_part)) return
    done_part[r, t] = 1
    copyvc("part" SUBSEP r SUBSEP t, t)
}
# One record of thread t: 1 when done, 0 when it must wait.
function step(t, s,   rec, k, seq, j, u, r, key, need, name, list, m, nm) {
    split(s, half, "|")
    nf = split(half[1], fl, " ")
    rec = fl[1]
    vc[t, t]++
    if (rec == "load" || rec == "store") {
        split(half[2], nm, " ")
        name = nm[3]
        if (name == "?") return 1
        seenloc[name] = 1
        if ((name in wt) && wt[name] != t && vc[t, wt[name]] < wc[name])
            race((rec == "load" ? "read after write" : "write after write"), t, pos[t], name)
        if (rec == "load") {
            if (!((name, t) in rd)) rdlist[name] = rdlist[name] " " t
            rd[name, t] = vc[t, t]
            return 1
        }
        m = split(rdlist[name], list, " ")
        for (j = 1; j <= m; j++) {
            u = list[j] + 0
            if (u != t && vc[t, u] < rd[name, u]) race("write after read", t, pos[t], name)
            delete rd[name, u]
        }
        rdlist[name] = ""
        wt[name] = t; wc[name] = vc[t, t]
        return 1
    }
    if (rec == "spawn") {
        r = field(s, "region") + 0
        if (t == 0) {
            copyvc("spawn" SUBSEP r, t)
            spawned[r] = 1
            threads[r] = field(s, "threads") + 0
            if (threads[r] == 0) threads[r] = P
        } else {
            if (!(r in spawned)) { vc[t, t]--; return 0 }
            maxvc(t, "spawn" SUBSEP r)
        }
        region[t] = r
        return 1
    }
    if (rec == "join") {
        r = region[t]
        if (t != 0) { part_end(t); return 1 }
        for (u = 1; u < threads[r]; u++)
            if (!((r, u) in done_part)) { vc[t, t]--; return 0 }
        for (u = 1; u < threads[r]; u++) maxvc(t, "part" SUBSEP r SUBSEP u)
        return 1
    }
    if (rec == "barrier") {
        key = field(s, "var") SUBSEP region[t]
        if (!((t, key) in arrived)) {
            k = ++bcount[t, key]
            arrived[t, key] = k
            ep = key SUBSEP k
            if (!(ep in nin)) { nin[ep] = 0; for (u = 0; u < P; u++) vc[ep, u] = 0 }
            nin[ep]++
            maxvc(ep, t)
        }
        ep = key SUBSEP arrived[t, key]
        need = field(s, "threads") + 0
        if (need == 0) need = threads[region[t]]
        if (nin[ep] < need) { vc[t, t]--; return 0 }
        maxvc(t, ep)
        delete arrived[t, key]
        return 1
    }
    if (rec ~ /^(begin|end)_(critical|order)$|^(acquire|release)$/) {
        key = rec ~ /critical/ ? "c" : rec ~ /order/ ? "o" : "x"
        key = key SUBSEP field(s, rec ~ /^(acquire|release)$/ ? "obj" : "lock")
        seq = field(s, "seq") + 0
        if (rec ~ /^(begin|acquire)/) {
            if (seq > wm[key] + 0) { vc[t, t]--; return 0 }
            if (seq > 0) maxvc(t, "cum" SUBSEP key SUBSEP seq)
            return 1
        }
        copyvc("rel" SUBSEP key SUBSEP seq, t)
        got[key, seq] = 1
        while ((key, wm[key] + 1) in got) {
            wm[key]++
            copyvc("cum" SUBSEP key SUBSEP wm[key], "rel" SUBSEP key SUBSEP wm[key])
            if (wm[key] > 1) maxvc("cum" SUBSEP key SUBSEP wm[key], "cum" SUBSEP key SUBSEP (wm[key] - 1))
        }
        return 1
    }
    if (rec == "end_trace") { part_end(t); return 1 }
    return 1
}
