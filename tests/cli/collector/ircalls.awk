# ircalls.awk — what smait-instrument added to a module (collector-atomics.sh):
# reads the instrumented module as text (clang -S -emit-llvm) and prints,
# per function, the runtime calls in order, decoded, with the instruction
# they are about:
#   mem load 16 vec +32        __smait_mem: the record, at pointer + offset
#   atomic_begin               __smait_atomic_begin
#   atomic_end atomic 4 mode 13, or mode ok ? 15 : 7 (a cmpxchg's outcome),
#                              or no access (level 1: f1 unused)
#   unmodelled fence|ordering  __smait_unmodelled
#   | load atomic …            the instruction itself (loads, stores,
#                              atomics, fences, calls of __atomic_*)
# The mode's bits (collector/rt/rt.h): 1 acquire when it succeeded, 2 acquire
# when a cmpxchg failed, 4 release when it succeeded, 8 it succeeded, 16 no
# access record.
function rec(f1,   acc, size, reg, sz) {
    acc = f1 % 16; size = int(f1 / 16) % 16; reg = int(f1 / 256) % 16
    sz = size <= 8 ? size : size == 9 ? 16 : size == 10 ? 32 : 64
    return (acc == 0 ? "load" : acc == 1 ? "store" : "atomic") " " sz (reg == 1 ? " fp" : reg == 2 ? " vec" : "")
}
function arg(s) { gsub(/^ +| +$/, "", s); sub(/^(i32|i8\*) /, "", s); return s }
/^define / { split("", off); split("", sel); name = $0; sub(/\(.*/, "", name); sub(/.*@/, "", name); if (name !~ /^__smait/) print name; next }
/^}/ { name = ""; next }
name == "" { next }
{ line = $0; sub(/^ +/, "", line); sub(/, !.*/, "", line) }
line ~ /getelementptr i8, i8\* %[0-9]+, i64 [0-9]+$/ {
    split(line, w, " "); off[w[1]] = w[length(w)] + 0; next
}
line ~ /^%[0-9]+ = / { split(line, w, " "); delete off[w[1]] }
line ~ /^%[0-9]+ = select i1 %[0-9]+, i32 [0-9]+, i32 [0-9]+$/ {
    split(line, w, " "); sel[w[1]] = "ok ? " (w[7] + 0) " : " (w[9] + 0); next
}
line ~ /call void @__smait_mem\(/ {
    split(substr(line, index(line, "(") + 1), a, ",")
    p = arg(a[2]); sub(/\).*/, "", p)
    print "  mem " rec(arg(a[1]) + 0) (off[p] ? " +" off[p] : ""); next
}
line ~ /call void @__smait_atomic_begin\(/ { print "  atomic_begin"; next }
line ~ /call void @__smait_atomic_end\(/ {
    split(substr(line, index(line, "(") + 1), a, ",")
    m = arg(a[3]); sub(/\).*/, "", m)
    if (m in sel) mode = sel[m]; else mode = m + 0
    f = arg(a[2]) + 0
    split(mode, mw, " ")
    m1 = mode ~ /^ok/ ? mw[3] + 0 : mode + 0
    print "  atomic_end " (int(m1 / 16) % 2 ? "no access" : rec(f)) " mode " mode; next
}
line ~ /call void @__smait_unmodelled\(i32 3\)/ { print "  unmodelled fence"; next }
line ~ /call void @__smait_unmodelled\(i32 4\)/ { print "  unmodelled ordering"; next }
line ~ /(= |^)(load|store|atomicrmw|cmpxchg|fence) / || line ~ /call .*@__atomic_/ {
    gsub(/%[0-9]+/, "%", line); print "  | " line
}
