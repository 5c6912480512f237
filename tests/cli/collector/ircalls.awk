# ircalls.awk — what smait-instrument added to a module (collector-atomics.sh):
# reads the instrumented module as text (clang -S -emit-llvm) and prints,
# per function, the runtime calls in order, decoded, with the instruction
# they are about:
#   mem load 16 vec +32        __smait_mem: the record, at pointer + offset
#   atomic_begin               __smait_atomic_begin
#   atomic_end atomic 4 mode acq,rel,ok,reads,writes
#                              __smait_atomic_end: the access record and the
#                              mode's bits, or mode ok ? BITS : BITS (a
#                              cmpxchg's outcome), or no access (level 1)
#   relaxed_begin              __smait_relaxed_begin (it returns locked or nothing)
#   relaxed_end store 4 mode begin | ok,writes
#                              __smait_relaxed_end: as atomic_end; "begin |"
#                              when its mode has what relaxed_begin returned
#   fence acquire|release|acquire,release   __smait_fence
#   unmodelled ordering        __smait_unmodelled
#   | load atomic …            the instruction itself (loads, stores,
#                              atomics, fences, calls of __atomic_*)
# The mode's bits (collector/rt/rt.h): 1 acq (acquire when it succeeded), 2
# acq_fail (acquire when a cmpxchg failed), 4 rel (release when it
# succeeded), 8 ok (it succeeded), 16 no access record, 32 reads, 64 writes.
function bits(m,   names, s, i) {
    split("acq acq_fail rel ok no_access reads writes locked", names, " ")
    s = ""
    for (i = 1; i <= 8; i++) if (int(m / 2 ^ (i - 1)) % 2) s = s (s == "" ? "" : ",") names[i]
    return s == "" ? "none" : s
}
function mode(v,   m) {
    if (v in sel) return sel[v]
    if (v in orv) return orv[v]
    return bits(v + 0)
}
function rec(f1,   acc, size, reg, sz) {
    acc = f1 % 16; size = int(f1 / 16) % 16; reg = int(f1 / 256) % 16
    sz = size <= 8 ? size : size == 9 ? 16 : size == 10 ? 32 : 64
    return (acc == 0 ? "load" : acc == 1 ? "store" : "atomic") " " sz (reg == 1 ? " fp" : reg == 2 ? " vec" : "")
}
function arg(s) { gsub(/^ +| +$/, "", s); sub(/^(i32|i8\*) /, "", s); return s }
/^define / { split("", off); split("", sel); split("", orv); name = $0; sub(/\(.*/, "", name); sub(/.*@/, "", name); if (name !~ /^__smait/) print name; next }
/^}/ { name = ""; next }
name == "" { next }
{ line = $0; sub(/^ +/, "", line); sub(/, !.*/, "", line) }
line ~ /getelementptr i8, i8\* %[0-9]+, i64 [0-9]+$/ {
    split(line, w, " "); off[w[1]] = w[length(w)] + 0; next
}
line ~ /^%[0-9]+ = / { split(line, w, " "); delete off[w[1]] }
line ~ /^%[0-9]+ = select i1 %[0-9]+, i32 [0-9]+, i32 [0-9]+$/ {
    split(line, w, " "); sel[w[1]] = "ok ? " bits(w[7] + 0) " : " bits(w[9] + 0); next
}
line ~ /^%[0-9]+ = call i32 @__smait_relaxed_begin\(/ { print "  relaxed_begin"; next }
line ~ /^%[0-9]+ = or i32 %[0-9]+, (%[0-9]+|[0-9]+)$/ {
    split(line, w, " "); orv[w[1]] = "begin | " mode(w[6]); next
}
line ~ /call void @__smait_mem\(/ {
    split(substr(line, index(line, "(") + 1), a, ",")
    p = arg(a[2]); sub(/\).*/, "", p)
    print "  mem " rec(arg(a[1]) + 0) (off[p] ? " +" off[p] : ""); next
}
line ~ /call void @__smait_atomic_begin\(/ { print "  atomic_begin"; next }
line ~ /call void @__smait_(atomic|relaxed)_end\(/ {
    split(substr(line, index(line, "(") + 1), a, ",")
    m = arg(a[3]); sub(/\).*/, "", m)
    f = arg(a[2]) + 0
    d = mode(m)
    print "  " (line ~ /atomic_end/ ? "atomic_end " : "relaxed_end ") (d ~ /no_access/ ? "no access" : rec(f)) " mode " d; next
}
line ~ /call void @__smait_fence\(i32 [0-9]\)/ {
    k = line; sub(/.*\(i32 /, "", k); k += 0
    print "  fence " (k == 1 ? "acquire" : k == 2 ? "release" : "acquire,release"); next
}
line ~ /call void @__smait_unmodelled\(i32 4\)/ { print "  unmodelled ordering"; next }
line ~ /(= |^)(load|store|atomicrmw|cmpxchg|fence) / || line ~ /call .*@__atomic_/ {
    gsub(/%[0-9]+/, "%", line); print "  | " line
}
