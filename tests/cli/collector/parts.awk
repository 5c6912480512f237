# parts.awk — the threads' parts of one region of a normalized dump
# (normalize.awk output; collector tests). A part runs from the trace's
# `spawn region=REGION` to its end: thread 0's join, or the trace's next
# join, spawn or end (the end of a trace counts as a join; the unmodelled
# counts written before it are not in the part). Prints each part
# as "thread T" and its records, or with ONELINE=1 as one line of records
# separated by "; " (to be sorted when which thread does what is decided at
# run time).
/^thread / { t = $2; inpart = 0; next }
{
    if (inpart && ($1 == "join" || $1 == "spawn" || $1 == "end_trace" || $1 == "unmodelled")) {
        inpart = 0
        if (ONELINE) print line
    }
    if ($1 == "spawn" && $2 == "region=" REGION) {
        inpart = 1
        line = $0
        if (!ONELINE) print "thread " t "\n" $0
        next
    }
    if (!inpart) next
    if (ONELINE) line = line "; " $0
    else print
}
END { if (inpart && ONELINE) print line }
