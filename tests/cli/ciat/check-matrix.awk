# check-matrix.awk — rules the communication matrix (L16 comm, L17 inval) must
# obey in any ciat report made with --comm-matrix; prints what fails, exits 1.
#   * every block that has L10 has L16 and L17, and no other block has them;
#   * row t of comm sums to t's RAW (L10), row t of inval to sum k*I[k] of L13;
#   * partners are threads 0 .. P-1 (comm: never t itself), ascending, counts > 0;
#   * each Tx line is the sum, partner by partner, of the thread lines of its block;
#   * each Rx thread line is the sum of that thread's phase lines.
# Usage: awk -v threads=P -f check-matrix.awk REPORT
function bad(msg) { print msg; failed = 1 }
/^R/ {
    tag = $1; sub(/:$/, "", tag)
    r = tag; sub(/T.*/, "", r)
    t = tag; sub(/^R[^T]*/, "", t); sub(/L.*/, "", t)
    l = tag; sub(/.*L/, "L", l)
    blk = r t
    if (l == "L10") { raw[blk] = $3; blocks[blk] = 1 }
    if (l == "L13") { ks = 0; for (i = 3; i <= NF; i++) { split($i, kv, ":"); ks += kv[1] * kv[2] }; kI[blk] = ks }
    if (l == "L16" || l == "L17") {
        seen[blk, l] = 1
        s = 0; prev = -1
        for (i = 3; i <= NF; i++) {
            split($i, kv, ":")
            u = kv[1] + 0; n = kv[2] + 0
            if (u <= prev) bad(tag ": partner " u " not ascending")
            if (u < 0 || u >= threads) bad(tag ": partner " u " outside 0.." threads - 1)
            if (l == "L16" && t != "Tx" && "T" u == t) bad(tag ": a thread communicating with itself")
            if (n <= 0) bad(tag ": count " kv[2])
            prev = u; s += n
            if (t != "Tx") part[r "Tx", l, u] += n
            else whole[r "Tx", l, u] = n
            if (r != "Rx" && t != "Tx") part["Rx" t, l, u] += n
            else if (r == "Rx" && t != "Tx") whole["Rx" t, l, u] = n
        }
        rowsum[blk, l] = s
    }
}
END {
    for (b in blocks) {
        if (!seen[b, "L16"] || !seen[b, "L17"]) { bad(b ": no L16 or L17"); continue }
        if (rowsum[b, "L16"] != raw[b]) bad(b ": comm sums to " rowsum[b, "L16"] " but RAW = " raw[b])
        if (rowsum[b, "L17"] != kI[b] + 0) bad(b ": inval sums to " rowsum[b, "L17"] " but sum k*I[k] = " kI[b] + 0)
    }
    for (k in seen) { split(k, kk, SUBSEP); if (!(kk[1] in blocks)) bad(kk[1] ": L16/L17 without L10") }
    for (k in part) if (part[k] != whole[k] + 0) { split(k, kk, SUBSEP); bad(kk[1] " " kk[2] ": partner " kk[3] " " whole[k] + 0 " but its parts sum to " part[k]) }
    for (k in whole) if (whole[k] != part[k] + 0) { split(k, kk, SUBSEP); bad(kk[1] " " kk[2] ": partner " kk[3] " " whole[k] " but its parts sum to " part[k] + 0) }
    if (!raw["RxTx"] || !kI["RxTx"]) bad("too little communication to test anything")
    exit failed
}
