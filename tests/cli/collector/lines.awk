# lines.awk — collector-lines.sh: the source line the tools give every access
# against the compiler's own debug location of the instruction that made it.
# Needs hex.awk loaded first. Inputs, in this order (FILENAME tells them
# apart):
#   MAP     the address map (data lines unfold trace addresses; line lines
#           give a pc's source line, as ciat and cdat name it)
#   A2L     "CALL FILE:LINE" lines: addr2line on the binary for every CALL
#           the logs hold (the line table the compiler wrote)
#   *.log   one file per thread from linelog.c: "KIND SIZE ADDRESS CALL"
#   SCHED   smait schedule --fetches of the trace set: an access at clock C
#           of thread T was made by the instruction T fetched at C (the rule
#           of ciat's and cdat's attribution, common/attribution.h)
#   CIAT    (optional) a ciat report with --by-code: each line it names
#   MISSES  (optional) a cdat --miss-trace file: each data miss's pc
# Each trace's access records (those of the runtime's memcpy/memmove/memset
# pseudo-procedures, pcs below 0x10000, left out: no call of the program
# made them) must be, in order, exactly one thread's log (kind, size and
# unfolded address); then access k of the trace is the instruction of the
# log's line k, and the line of its pc in the map must be the line of that
# call in the binary (a compiler line 0 is "-", no line, as the map leaves
# it out). Prints the facts collector-lines.sh expects, and up to 10
# differences.
function base(f) { sub(/.*\//, "", f); return f }
function where(f, l) { return (l + 0 == 0 || f == "??") ? "-" : base(f) ":" l }
function orig(x,   p, i) {
    p = int(x / 4096)
    if (!(p in opage)) {
        opage[p] = -1
        for (i = 1; i <= nd; i++)
            if (p * 4096 >= df[i] && p * 4096 < de[i]) { opage[p] = dorig[i] + (p * 4096 - df[i]); break }
    }
    return opage[p] < 0 ? -1 : opage[p] + (x - p * 4096)
}
function pcline(pc,   i) {
    if (!(pc in pcl)) {
        pcl[pc] = "-"
        for (i = 1; i <= nl; i++)
            if (pc >= ls[i] && pc < le[i]) { pcl[pc] = lw[i]; break }
    }
    return pcl[pc]
}
function differ(msg) { if (++ndiff <= 10) print msg }

FILENAME == MAP {
    if ($1 == "data") { nd++; df[nd] = hex($2); de[nd] = hex($3); dorig[nd] = hex($4) }
    if ($1 == "line") {
        nl++; ls[nl] = hex($2); le[nl] = hex($3)
        f = $0; sub(/^line +[^ ]+ +[^ ]+ +[^ ]+ +/, "", f); lw[nl] = where(f, $4)
    }
    next
}
FILENAME == A2L {
    s = $2; sub(/:[^:]*$/, "", s); l = $2; sub(/.*:/, "", l)
    a2l[$1] = where(s, l)
    next
}
FILENAME ~ /\.log$/ {
    if (!(FILENAME in logn)) { nlog++; logname[nlog] = FILENAME }
    k = ++logn[FILENAME]
    logkey[FILENAME, k] = $1 " " $2 " " sprintf("%.0f", hex($3))
    logcall[FILENAME, k] = $4
    next
}
FILENAME == SCHED {
    if ($3 == "fetch") { fpc[$2] = hex($4); fclock[$2] = $1; next }
    if ($3 !~ /^[0-9]+:$/) next
    if ($4 == "load" || $4 == "store" || $4 == "atomic") {
        t = $2
        pc = fclock[t] == $1 ? fpc[t] : -1
        if (pc >= 0 && pc < 65536) next          # memcpy/memmove/memset
        if (!(t in tn)) { nt++; tname[nt] = t }
        k = ++tn[t]
        a = hex($6)
        tkey[t, k] = $4 " " $5 " " sprintf("%.0f", orig(a))
        tpc[t, k] = pc; taddr[t, k] = a; tsize[t, k] = $5 + 0; trec[t, k] = $3 " " $4 " " $5
        tafter[t, k] = after[t]
        after[t] = 0
    } else if ($4 == "branch" && $5 == $6) {
        after[t = $2] = 1                       # the step over a call (rt_record.c)
    } else if ($4 !~ /^(branch|pcall|proc)$/) {
        after[t = $2] = 1                       # a call record
    }
    next
}
(FILENAME == CIAT || FILENAME == MISSES) && !done_matching { match_all() }
FILENAME == CIAT {
    if ($0 !~ /^RxTxL50: code_/ || $8 ~ /^(memcpy|memmove|memset)$/) next
    nciat++
    if (!(base($NF) in expected_line)) differ("ciat: " $0 ": no access at that line")
    next
}
FILENAME == MISSES {
    if ($1 ~ /^#/ || $3 != "d" || $4 == "-" || hex($4) < 65536) next
    nmiss++
    if (!((pcline(hex($4)) "|" hex($5)) in touched))
        differ("cdat: miss " $0 ": no access at " pcline(hex($4)) " touches that byte")
    next
}
function match_all(   i, j, t, s, n, k, e, r, b, lg) {
    done_matching = 1
    for (i = 1; i <= nlog; i++) {
        s = ""
        for (k = 1; k <= logn[logname[i]]; k++) s = s logkey[logname[i], k] "\n"
        logseq[i] = s
    }
    for (i = 1; i <= nt; i++) {
        t = tname[i]; s = ""
        for (k = 1; k <= tn[t]; k++) s = s tkey[t, k] "\n"
        n = 0
        for (j = 1; j <= nlog; j++) if (logseq[j] == s) { n++; lg = logname[j] }
        if (n != 1) { unmatched++; differ(t ": its " tn[t] " accesses are " (n ? "the logs of " n " threads" : "no thread's log")); continue }
        for (k = 1; k <= tn[t]; k++) {
            checked++
            if (tpc[t, k] < 0) { nopc++; differ(t " record " trec[t, k] ": no pc"); continue }
            e = a2l[logcall[lg, k]]
            r = pcline(tpc[t, k])
            expected_line[e] = 1
            for (b = 0; b < tsize[t, k]; b++) touched[e "|" taddr[t, k] + b] = 1
            if (tafter[t, k]) nafter++
            # sites (pcs), not accesses: a loop the run's timing repeats
            # (a trylock spin) must not decide the share
            if (!(tpc[t, k] in site)) { site[tpc[t, k]] = 1; nsites++; if (e == "-") noline++ }
            if (r != e) {
                wrong++
                differ(sprintf("%s record %s at pc 0x%08x: reported %s, compiler %s", t, trec[t, k], tpc[t, k], r, e))
            }
        }
    }
}

END {
    if (!done_matching) match_all()
    printf "traces %d, each the log of one thread: %s\n", nt, nt && !unmatched ? "yes" : "no"
    print "accesses checked: " (checked > 0 ? "yes" : "none")
    print "accesses right after a call: " (nafter > 0 ? "yes" : "none")
    print "accesses with no pc: " nopc + 0
    print "access sites (pcs) the compiler gives a line, 3 in 4 at least: " (nsites && noline <= nsites / 4 ? "yes" : "no")
    print "accesses at a line other than the compiler's: " wrong + 0
    if (CIAT != "") print "ciat --by-code lines checked: " (nciat > 0 ? "yes" : "none")
    if (MISSES != "") print "cdat data misses checked: " (nmiss > 0 ? "yes" : "none")
    if (ndiff > 10) print "(" ndiff - 10 " more differences)"
}
