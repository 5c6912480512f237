# check-lines.awk — ciat's L18 lines against cache-model.awk's counts, and
# their sums: for every thread the model's misses = cold + true_sharing +
# false_sharing of its Rx line, the same cold misses and upgrades; every
# count of an Rx thread line is the sum over the phases, every Tx line the
# sum of the thread lines of its block; the line size is `line`.
# Usage: awk -v line=64 -f check-lines.awk MODEL-OUTPUT REPORT
function bad(msg) { print msg; failed = 1 }
FNR == 1 { file++ }
file == 1 { miss[$1] = $2; cold[$1] = $3; upg[$1] = $4; next }
$1 ~ /^R[0-9x]+T[0-9x]+L18:$/ {
    tag = $1; sub(/:$/, "", tag)
    r = tag; sub(/T.*/, "", r)
    t = tag; sub(/^R[^T]*/, "", t); sub(/L.*/, "", t)
    if ($2 != "line" || $3 != line || $4 != "cold" || $6 != "true_sharing" || $8 != "false_sharing" || $10 != "upgrades")
        bad(tag ": unexpected form: " $0)
    for (k = 5; k <= 11; k += 2) {
        v[r, t, k] = $k
        if (t != "Tx") part[r, "Tx", k] += $k
        if (r != "Rx" && t != "Tx") part["Rx", t, k] += $k
    }
    blocks[r, t] = 1
}
END {
    for (b in blocks) {
        split(b, rt, SUBSEP)
        if (rt[2] == "Tx" || rt[1] == "Rx")
            for (k = 5; k <= 11; k += 2)
                if (v[rt[1], rt[2], k] != part[rt[1], rt[2], k] + 0)
                    bad(rt[1] rt[2] " field " k ": " v[rt[1], rt[2], k] " but its parts sum to " part[rt[1], rt[2], k] + 0)
    }
    for (t in miss) {
        if (!(("Rx", "T" t) in blocks)) { bad("T" t ": no RxT" t "L18 line"); continue }
        m = v["Rx", "T" t, 5] + v["Rx", "T" t, 7] + v["Rx", "T" t, 9]
        if (m != miss[t]) bad("T" t ": cold + true + false = " m " but the model has " miss[t] " misses")
        if (v["Rx", "T" t, 5] != cold[t]) bad("T" t ": cold " v["Rx", "T" t, 5] " but the model has " cold[t])
        if (v["Rx", "T" t, 11] != upg[t]) bad("T" t ": upgrades " v["Rx", "T" t, 11] " but the model has " upg[t])
        total += miss[t]
    }
    if (total == 0 || v["Rx", "Tx", 9] == 0 || v["Rx", "Tx", 7] == 0) bad("too few misses to test anything")
    exit failed
}
