# hex.awk — hex(s): the value of "0x..." (or of a decimal string); mawk reads
# no hex numbers. Loaded before the scripts that use it (awk -f hex.awk -f ...).
function hex(s,   v, i, c) {
    if (s !~ /^0[xX]/) return s + 0
    v = 0
    for (i = 3; i <= length(s); i++) { c = index("0123456789abcdef", tolower(substr(s, i, 1))); v = v * 16 + c - 1 }
    return v
}
