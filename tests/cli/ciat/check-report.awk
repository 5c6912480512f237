# check-report.awk — consistency rules that every ciat run must satisfy,
# for the property tests (tests/cli/ciat-properties.sh).
#
#   awk -v threads=P -f check-report.awk X.ciat_report X.ciat_events X.memory
#
# Prints one line per broken rule (nothing when all hold); exits 1 if any.
# Rules (docs/ciat-report.md, L01–L05, L10–L15, L20–L39; formats/CIAT-EVENTS.md):
#   * RxTx: sum k*S[k] of L11 = RAW (L10);
#   * every line (each phase, each thread and Tx, and Rx): sum I[k] of L13 = WAR (L12);
#   * degrees k of L11 and L13 lie in 1 .. P-1;
#   * L01: loads + stores = total + atomics;
#   * each Tx line = the sum of the thread lines of its block (L01, L06, L10, L12, L14, L15);
#   * each RxT<t> line = the sum of that thread's lines over the phases (same lines);
#   * the event trace has exactly RAW + WAR + WAW + RAR lines: per kind and per
#     thread as in the Rx lines; WAR degrees sum to sum k*I[k] of RxTxL13;
#     WAW degree 1, RAW and RAR degree 0;
#   * the memory file: pages ascending, one line per page (L20), owner -1 for
#     L21 of them; its columns sum to L23 L25 L26 L30 L34 L31 L35; the pages
#     with owner -1 sum to L27 L32 L36; L29 = L30 + L34; L30 = loads + stores
#     of RxTxL01; L34 = fetched of RxTxL06.
function bad(msg) { print msg; failed = 1 }
function add(key, v) { sum[key] += v }
FNR == 1 { file++ }
# ---- the report ----
file == 1 && /^R/ {
    tag = $1; sub(/:$/, "", tag)
    r = tag; sub(/T.*/, "", r)                      # R1, Rx
    t = tag; sub(/^R[^T]*/, "", t); sub(/L.*/, "", t)   # T0, Tx
    l = tag; sub(/.*L/, "L", l)                     # L10
    if (l == "L01") {
        val[tag, "total"] = $4; val[tag, "loads"] = $6; val[tag, "stores"] = $9; val[tag, "atomics"] = $12
        if ($6 + $9 != $4 + $12) bad(tag ": loads + stores != total + atomics")
        fields = "total loads stores atomics"
    } else if (l == "L06") {
        val[tag, "executed"] = $4; val[tag, "fetched"] = $6
        fields = "executed fetched"
    } else if (l == "L10" || l == "L12" || l == "L14" || l == "L15") {
        val[tag, "n"] = $3
        fields = "n"
    } else fields = ""
    if (fields != "") {
        nf = split(fields, fl, " ")
        lines[tag] = 1
        for (i = 1; i <= nf; i++) {
            if (t != "Tx") add(r "Tx" l SUBSEP fl[i], val[tag, fl[i]])        # threads of a block
            if (r != "Rx" && t != "Tx") add("Rx" t l SUBSEP fl[i], val[tag, fl[i]])  # phases of a thread
        }
        fieldsof[tag] = fields
    }
    if (l == "L11" || l == "L13") {
        s = 0; ks = 0
        for (i = 3; i <= NF; i++) {
            split($i, kv, ":")
            if (kv[1] < 1 || kv[1] > threads - 1) bad(tag ": degree " kv[1] " outside 1.." threads - 1)
            s += kv[2]; ks += kv[1] * kv[2]
        }
        if (l == "L11") ksum11[r t] = ks
        else { isum13[r t] = s; ksum13[r t] = ks }
    }
    if (r == "Rx" && t == "Tx" && $2 ~ /^(pages|shared_pages|touched_bytes|code_bytes|shared_bytes|page_shared_bytes|accesses|data_accesses|shared_data_accesses|page_shared_data_accesses|code_accesses|shared_code_accesses|page_shared_code_accesses)$/)
        mem[$2] = $3
    next
}
# ---- the event trace ----
file == 2 && /^[0-9]/ {
    ev[$2]++
    evt["RxT" $3 "L" ($2 == "RAW" ? "10" : $2 == "WAR" ? "12" : $2 == "WAW" ? "14" : "15")]++
    if ($2 == "WAR") wardeg += $4
    else if ($2 == "WAW" && $4 != 1) bad("WAW event with degree " $4)
    else if (($2 == "RAW" || $2 == "RAR") && $4 != 0) bad($2 " event with degree " $4)
    else if ($2 !~ /^(RAW|WAW|RAR)$/) bad("unknown event " $2)
    next
}
# ---- the memory file ----
file == 3 && /^[0-9]/ {
    if (NF != 9) bad("line " FNR ": " NF " fields")
    if (npages && $1 <= lastpage) bad("page " $1 " not ascending")
    lastpage = $1; npages++
    mt += $2; mc += $3; ms += $4; md += $5; mcode += $6; msd += $7; msc += $8
    if ($9 == -1) { nshared++; pst += $2; psd += $5; psc += $6 }
    else if ($9 < 0 || $9 >= threads) bad("page " $1 ": owner " $9)
    next
}
END {
    for (k in ksum11) if (k == "RxTx" && ksum11[k] != val["RxTxL10", "n"])
        bad("RxTx: sum k*S[k] = " ksum11[k] " but RAW = " val["RxTxL10", "n"])
    for (k in isum13) if (isum13[k] != val[k "L12", "n"])
        bad(k ": sum I[k] = " isum13[k] " but WAR = " val[k "L12", "n"])
    for (tag in lines) {
        t = tag; sub(/^R[^T]*/, "", t); sub(/L.*/, "", t)
        r = tag; sub(/T.*/, "", r)
        if (t != "Tx" && r != "Rx") continue
        nf = split(fieldsof[tag], fl, " ")
        for (i = 1; i <= nf; i++)
            if ((tag SUBSEP fl[i]) in sum && sum[tag, fl[i]] != val[tag, fl[i]])
                bad(tag " " fl[i] " = " val[tag, fl[i]] " but its parts sum to " sum[tag, fl[i]])
    }
    # events against the report
    if (ev["RAW"] + 0 != val["RxTxL10", "n"]) bad("RAW events " ev["RAW"] + 0 " != RxTxL10 " val["RxTxL10", "n"])
    if (ev["WAR"] + 0 != val["RxTxL12", "n"]) bad("WAR events " ev["WAR"] + 0 " != RxTxL12 " val["RxTxL12", "n"])
    if (ev["WAW"] + 0 != val["RxTxL14", "n"]) bad("WAW events " ev["WAW"] + 0 " != RxTxL14 " val["RxTxL14", "n"])
    if (ev["RAR"] + 0 != val["RxTxL15", "n"]) bad("RAR events " ev["RAR"] + 0 " != RxTxL15 " val["RxTxL15", "n"])
    if (wardeg + 0 != ksum13["RxTx"] + 0) bad("WAR event degrees sum to " wardeg + 0 " but sum k*I[k] = " ksum13["RxTx"] + 0)
    for (tag in lines) if (tag ~ /^RxT[0-9]+L1[0245]$/ && evt[tag] + 0 != val[tag, "n"])
        bad(tag " = " val[tag, "n"] " but the event trace has " evt[tag] + 0)
    # the memory file against L20-L37
    if (npages + 0 != mem["pages"]) bad("memory file: " npages + 0 " pages, L20 " mem["pages"])
    if (nshared + 0 != mem["shared_pages"]) bad("memory file: " nshared + 0 " shared pages, L21 " mem["shared_pages"])
    if (mt != mem["touched_bytes"]) bad("memory file: touched " mt ", L23 " mem["touched_bytes"])
    if (mc != mem["code_bytes"]) bad("memory file: code bytes " mc ", L25 " mem["code_bytes"])
    if (ms != mem["shared_bytes"]) bad("memory file: shared bytes " ms ", L26 " mem["shared_bytes"])
    if (pst != mem["page_shared_bytes"]) bad("memory file: bytes of shared pages " pst ", L27 " mem["page_shared_bytes"])
    if (md != mem["data_accesses"]) bad("memory file: data accesses " md ", L30 " mem["data_accesses"])
    if (msd != mem["shared_data_accesses"]) bad("memory file: shared data accesses " msd ", L31 " mem["shared_data_accesses"])
    if (psd != mem["page_shared_data_accesses"]) bad("memory file: data accesses of shared pages " psd ", L32 " mem["page_shared_data_accesses"])
    if (mcode != mem["code_accesses"]) bad("memory file: code accesses " mcode ", L34 " mem["code_accesses"])
    if (msc != mem["shared_code_accesses"]) bad("memory file: shared code accesses " msc ", L35 " mem["shared_code_accesses"])
    if (psc != mem["page_shared_code_accesses"]) bad("memory file: code accesses of shared pages " psc ", L36 " mem["page_shared_code_accesses"])
    if (mem["accesses"] != mem["data_accesses"] + mem["code_accesses"]) bad("L29 != L30 + L34")
    if (mem["data_accesses"] != val["RxTxL01", "loads"] + val["RxTxL01", "stores"]) bad("L30 != loads + stores of RxTxL01")
    if (mem["code_accesses"] != val["RxTxL06", "fetched"]) bad("L34 != fetched of RxTxL06")
    if (!npages || !val["RxTxL10", "n"] || !val["RxTxL12", "n"]) bad("too little happened to test anything")
    exit failed
}
