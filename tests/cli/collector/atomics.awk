# atomics.awk — the records of atomics.c (tests/cli/collector-atomics.sh)
# with what the threads' timing decides taken out. Input: the dump of the
# set through normalize.awk without branch, proc and pcall records.
#   * data[i] accesses: "load 4 data" / "store 4 data", runs counted: "(x1024)"
#     (runs.awk, loaded first).
#   * A consumer's spin loads of the flag between the barrier and its acquire
#     of the flag (their number is timing): dropped.
#   * The consumers' counter and cas updates: their release number r depends
#     on the order they got there. Each update is printed as
#       acquire obj=X seq=r-1 kind=6 (none when r = 1)
#       <the last access: a failed compare-and-swap before it is dropped>
#       release obj=X seq=r kind=6
#     after checking that the acquire (if any) is of r - 1, that there is
#     none when r = 1 and at most one; "WRONG ..." otherwise. At the end,
#     "releases of X: ..." lists the numbers, sorted.
/^thread / { flush_run(); thread = $2; spin = 0; print; next }
{ sub(/data\+[0-9]+/, "data") }
thread > 0 && /^barrier var=ready\+0/ { out($0); spin = 1; next }
spin && $0 == "load 4 flag+0" { next }
spin && /^acquire obj=flag\+0/ { spin = 0 }
thread > 0 && $2 ~ /^obj=(counter|cas)\+0$/ {
    obj = substr($2, 5)
    split($3, kv, "=")
    if ($1 == "acquire") { nacq[obj]++; acq[obj] = kv[2]; next }
    r = kv[2]
    ok = nacq[obj] == 0 ? r == 1 : nacq[obj] == 1 && acq[obj] == r - 1
    out("acquire obj=" obj " seq=r-1 kind=6 (none when r = 1)" (ok ? "" : " WRONG: " nacq[obj] " acquires, last seq=" acq[obj] " for r=" r))
    out(last[obj])
    out("release obj=" obj " seq=r kind=6")
    rel[obj] = rel[obj] " " r
    nacq[obj] = 0
    next
}
thread > 0 && $0 ~ /^atomic [48] (counter|cas)\+0$/ { last[$3] = $0; next }
{ out($0) }
END {
    flush_run()
    split("counter+0 cas+0", objs, " ")
    for (q = 1; q <= 2; q++) {
        o = objs[q]
        k = split(substr(rel[o], 2), v, " ")
        for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
        s = ""
        for (i = 1; i <= k; i++) s = s " " v[i]
        print "releases of " o ":" s
    }
}
