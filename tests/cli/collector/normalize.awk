# normalize.awk — smait dump text with data addresses named (collector test).
# Inputs: SYMS (file of "name 0xORIGINAL_ADDRESS [SIZE]" lines the traced
# program printed; SIZE: the object's bytes, 256 when not given), the address
# map, then the dump. Each data address is turned back
# into its 64-bit original through the map's data lines and written as
# name+offset; addresses of no named object are "?" (a lock or barrier
# variable 0, the anonymous lock, stays 0). Call record times are
# dropped; module code addresses (0x10000 and up) become "C", the runtime's
# memcpy/memset pseudo-procedures (below 0x10000) stay. Needs hex.awk loaded first.
function orig(x,   i) {
    for (i = 1; i <= nmap; i++)
        if (x >= mf[i] && x < me[i]) return mo[i] + (x - mf[i])
    return -1
}
function name(x,   o, s, best, bo) {
    o = orig(x); best = "?"
    if (o < 0) return best
    for (s in sym) if (o >= sym[s] && o < sym[s] + bytes[s] && (best == "?" || sym[s] > bo)) { best = s; bo = sym[s] }
    return best == "?" ? best : best "+" (o - bo)
}
function code(x) { return hex(x) >= 65536 ? "C" : x }
FILENAME == SYMS { sym[$1] = hex($2); bytes[$1] = NF > 2 ? $3 + 0 : 256; next }
FILENAME == MAP { if ($1 == "data") { nmap++; mf[nmap] = hex($2); me[nmap] = hex($3); mo[nmap] = hex($4) } next }
/^#|^byteorder|^threads/ { next }
/^thread / { print $1, $2; next }
{
    sub(/^[0-9]+: /, "")
    if ($1 == "tracing") next       # the run's processors and waits: the machine's, not the program's
    sub(/ @[0-9:]+$/, "")
    if ($1 == "load" || $1 == "store" || $1 == "atomic") { $3 = name(hex($3)); print; next }
    if ($1 == "branch" || $1 == "pcall") { print $1, code($2), code($3); next }
    if ($1 == "proc") { print $1, code($2); next }
    if ($2 ~ /^(var|lock|obj)=/) { split($2, kv, "="); $2 = kv[1] "=" (hex(kv[2]) == 0 ? "0" : name(hex(kv[2]))) }
    print
}
