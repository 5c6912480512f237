# sync.awk — the recorded synchronisation of a trace set, for the collector
# tests (collector-sync.sh). Input: the output of normalize.awk ("thread N"
# lines, records with named addresses, times dropped). Output:
#   * thread 0's synchronisation records, in order, with their sequence
#     numbers (unless ALL=1);
#   * the other threads' (all threads' with ALL=1) as shapes: the records
#     without their sequence numbers, "N x shape", one line per distinct
#     shape, sorted — so the lines do not depend on which thread came first;
#   * for every lock and object, whether its numbers are consistent:
#     critical and ordered sections: every end is release r of the lock,
#     r = 1 … E each once (none missing below the largest), and ends its
#     thread's section begun with seq r-1, unless that begin has seq 0 (the
#     first section, or one taken again after a condition wait, which the
#     wake-up orders, not the mutex's earlier hand-overs)
#     (exclusive locks: nobody else releases while it is held); objects:
#     releases 1 … R each once, every acquire names one of them. For
#     semaphores (kind 5) the acquires' numbers, sorted (each wait takes its
#     own post).
# Records that synchronise: begin/end_critical, begin/end_order, acquire,
# release, unmodelled.
function field(name,   i) {
    for (i = 2; i <= NF; i++) if (index($i, name "=") == 1) return substr($i, length(name) + 2)
    return ""
}
function plural(n, what) { return (n + 0) " " what (n == 1 ? "" : "s") }
function flush_thread() {
    if (cur == "") return
    if (tid == 0 && !ALL) print "thread 0: " (seqd == "" ? "(none)" : seqd)
    else shapes[shape == "" ? "(none)" : shape]++
    cur = ""
}
/^thread / { flush_thread(); tid = $2 + 0; cur = "t"; seqd = ""; shape = ""; next }
$1 ~ /^(begin|end)_(critical|order)$|^(acquire|release|unmodelled)$/ {
    k = field("lock"); if (k == "") k = field("obj")
    seq = field("seq"); if (seq == "") seq = 0
    kind = field("kind")
    if ($1 == "unmodelled") { rec = $0; short = $0 }
    else { short = $1 " " k (kind != "" ? " kind=" kind : ""); rec = short " seq=" seq }
    seqd = seqd (seqd == "" ? "" : "; ") rec
    shape = shape (shape == "" ? "" : "; ") short
    space = ($1 ~ /order/) ? "order" : ($1 ~ /critical/) ? "lock" : "obj"
    id = space " " k
    if (!(id in kinds)) { ids[++nid] = id; kinds[id] = kind }
    if ($1 ~ /^begin_/) open[tid, id] = seq
    else if ($1 ~ /^end_/) {
        if ((id, seq) in ends_seen) bad[id] = bad[id] " release " seq " twice;"
        ends_seen[id, seq] = 1; nrel[id]++; if (seq + 0 > maxrel[id] + 0) maxrel[id] = seq + 0
        if (!((tid, id) in open)) bad[id] = bad[id] " end " seq " without a begin;"
        else if (open[tid, id] != 0 && seq != open[tid, id] + 1) bad[id] = bad[id] " end " seq " after begin " open[tid, id] ";"
        delete open[tid, id]
    } else if ($1 == "release") {
        if ((id, seq) in ends_seen) bad[id] = bad[id] " release " seq " twice;"
        ends_seen[id, seq] = 1; nrel[id]++; if (seq + 0 > maxrel[id] + 0) maxrel[id] = seq + 0
    } else if ($1 == "acquire") {
        nacq[id]++; acq[id, nacq[id]] = seq
    }
}
END {
    flush_thread()
    n = 0
    for (s in shapes) line[++n] = shapes[s] " x " s
    for (i = 2; i <= n; i++) for (j = i; j > 1 && line[j - 1] > line[j]; j--) { t = line[j]; line[j] = line[j - 1]; line[j - 1] = t }
    for (i = 1; i <= n; i++) print line[i]
    for (i = 1; i <= nid; i++) {
        id = ids[i]
        if (id ~ /^obj / && nrel[id] == 0 && nacq[id] == 0) continue      # unmodelled only
        for (r = 1; r <= maxrel[id]; r++) if (!((id, r) in ends_seen)) bad[id] = bad[id] " release " r " missing;"
        for (a = 1; a <= nacq[id]; a++) if (acq[id, a] + 0 > maxrel[id] + 0) bad[id] = bad[id] " acquire of release " acq[id, a] " that no trace holds;"
        out = id " kind=" kinds[id] ": " plural(nrel[id], "release")
        if (id !~ /^obj /) out = id " kind=" kinds[id] ": " plural(nrel[id], "section")
        else {
            out = out ", " plural(nacq[id], "acquire")
            if (kinds[id] == 5) {
                m = nacq[id]; for (a = 1; a <= m; a++) v[a] = acq[id, a] + 0
                for (a = 2; a <= m; a++) for (j = a; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
                out = out " ("; for (a = 1; a <= m; a++) out = out (a > 1 ? " " : "") v[a]; out = out ")"
            }
        }
        print out (bad[id] == "" ? ", consistent" : ": INCONSISTENT:" bad[id])
    }
}
