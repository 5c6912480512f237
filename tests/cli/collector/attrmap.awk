# attrmap.awk — the address map's line, object and heap lines in the words
# of attr.c (collector-map.sh). Inputs: the source (its "LINE:x", "OBJ:x"
# and "SITE:x" comments name its lines), the block addresses the program
# printed ("name 0xADDRESS SIZE"), the map. Objects: name, size and
# FILE:label of the declaration; heap ranges: the block they start in
# (name+offset, through the map's data lines back to the original address),
# size, COUNT and each site as label(function) through the map's line and
# code lines; the blocks of the site "worker" are only counted. Line lines:
# those of marked source lines, with the function they are in and width.
# -v SITES=1: only each heap range's first site's source line and its size.
# Needs hex.awk loaded first.
function label(n) { return (n in mark) ? mark[n] : "line" n }
function fn(x,   i) { for (i = 1; i <= ncode; i++) if (x >= cs[i] && x < ce[i]) return cn[i]; return "?" }
function srcline(x,   i) { for (i = 1; i <= nline; i++) if (x >= ls[i] && x < le[i]) return ln[i]; return "?" }
function orig(x,   i) { for (i = 1; i <= ndata; i++) if (x >= ds[i] && x < de[i]) return dorig[i] + (x - ds[i]); return -1 }
function block(x,   o, s) {
    o = orig(x)
    for (s in addr) if (o >= addr[s] && o < addr[s] + size[s]) return s "+" (o - addr[s])
    return "?"
}
function base(p) { sub(/.*\//, "", p); return p }
FILENAME == ARGV[1] { if (match($0, /(LINE|OBJ|SITE):[a-z0-9]+/)) mark[FNR] = substr($0, RSTART, RLENGTH); next }
FILENAME == ARGV[2] { addr[$1] = hex($2); size[$1] = $3 + 0; next }
$1 == "code" { ncode++; cs[ncode] = hex($2); ce[ncode] = hex($3); cn[ncode] = $4 }
$1 == "line" { nline++; ls[nline] = hex($2); le[nline] = hex($3); ln[nline] = $4
               if (mark[$4] ~ /^LINE:/) lines[nline] = $0 }
$1 == "data" { ndata++; ds[ndata] = hex($2); de[ndata] = hex($3); dorig[ndata] = hex($4) }
$1 == "object" { n = split($5, f, ":"); print "object", $4, hex($3) - hex($2), base(f[1]) (n > 1 ? ":" label(f[2]) : "") }
$1 == "heap" { heap[++nheap] = $0 }
END {
    if (SITES) {       # each heap range's first site's source line, and its size
        for (i = 1; i <= nheap; i++) {
            split(heap[i], f, " ")
            split(f[5], site, ",")
            print "line", srcline(hex(site[1])), "bytes", hex(f[3]) - hex(f[2])
        }
        exit
    }
    for (i = 1; i <= nline; i++) if (i in lines) {
        split(lines[i], f, " ")
        print "line", label(f[4]), "in", fn(hex(f[2])), "bytes", hex(f[3]) - hex(f[2])
    }
    for (i = 1; i <= nheap; i++) {
        split(heap[i], f, " ")
        n = split(f[5], site, ",")
        s = ""
        for (k = 1; k <= n; k++) s = s (k > 1 ? "," : "") label(srcline(hex(site[k]))) "(" fn(hex(site[k])) ")"
        if (s == "SITE:worker(worker)") { wl++; wb += f[4]; continue }
        print "heap", block(hex(f[2])), hex(f[3]) - hex(f[2]), "blocks", f[4], s
    }
    if (wl) print "heap of SITE:worker:", wl, "ranges,", wb, "blocks"
}
