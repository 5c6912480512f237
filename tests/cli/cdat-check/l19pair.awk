# l19pair.awk — tests/cli/cdat-contention.sh: the L19 lines of a report with
# contention (first file) against those of the same run without (second),
# by tag. A line is right when its stall and busy_and_stall less its queue
# are the other's, and every other figure (busy, the causes, idle) is the
# same; a Tx line's estimated time is the other's plus at most its queue.
#   awk -f l19pair.awk WITH.cdat_report WITHOUT.cdat_report
# prints "lines same S wrong W queued Q": S 1 when both have the same tags
# (and some), W the wrong lines, Q 1 when some line waited.
$1 !~ /^R[0-9x]+T[0-9x]+L19:$/ { next }
FNR == NR {
    for (i = 3; i < NF; i += 2) a[$1, $i] = $(i + 1)
    tag[$1] = 1; ntag++
    if (a[$1, "queue"] > 0) queued = 1
    next
}
{
    delete b
    for (i = 3; i < NF; i += 2) b[$i] = $(i + 1)
    n++
    if (!($1 in tag)) { wrong++; print "no such line:", $1; next }
    q = a[$1, "queue"]
    ok = a[$1, "stall"] - q == b["stall"] && a[$1, "busy_and_stall"] - q == b["busy_and_stall"] &&
         a[$1, "busy"] == b["busy"] && a[$1, "idle"] == b["idle"]
    split("local_memory local_cache remote_memory remote_cache upgrade network", k, " ")
    for (j in k) ok = ok && a[$1, k[j]] == b[k[j]]
    if ("estimated_time" in b)
        ok = ok && a[$1, "estimated_time"] >= b["estimated_time"] && a[$1, "estimated_time"] <= b["estimated_time"] + q
    if (!ok) { wrong++; print "wrong:", $1 }
}
END { print "lines same", (n == ntag && n > 0), "wrong", wrong + 0, "queued", queued + 0 }
