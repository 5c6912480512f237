# structure.sh — the layering of the sources (README.md, "Layout"), read from
# the quoted #include lines of every .c and .h file:
#
#   1. No upward include. base/ includes only base/; formats/ only base/ and
#      formats/; common/ only base/, formats/ and common/; a tool (ciat/,
#      cdat/, tdat/, smait/) only those and its own directory. The other
#      directories (tests/, fuzz/, bench/, collector/, examples/) stand on top
#      and may include any of them; no layer includes them.
#   2. No include cycle between files.
#   3. No cycle between modules: a module is NAME.c, NAME.h and NAME_internal.h
#      of one directory; one includes another when any of its files includes
#      any of the other's. Two modules that need each other (diag and out_file
#      once: the fatal path removed the outputs, out_file reported through
#      diag) are one module in two, or one of them should hand the other a
#      hook (base/diag.h's diag_on_fatal).
#   4. Every quoted include names a file of the repository (or a header the
#      build generates: install_dirs.h), resolved from the including file's
#      directory.
#   5. A private header (NAME_internal.h: a module's state, shared by the .c
#      files that implement it) is included only by .c files of its own
#      directory: no header hands it on, no tool or test reaches into it (the
#      tools' copies of the scheduler's loop see common/sched_loop.h only).
# The collector runtime (collector/rt/, built apart into the traced
# programs) is left out of 2 and 3. Planted trees show that each check finds
# what it looks for.

root=$(cd "$CLI_DIR/../.." && pwd)

# The .c and .h files under ROOT (relative, sorted), build directories left out.
sources() {
    (cd "$1" && find . \( -name .git -o -name 'build*' \) -prune -o -type f \( -name '*.c' -o -name '*.h' \) -print) |
        sed 's|^\./||' | LC_ALL=C sort
}

# The include graph of ROOT, one line per quoted include of a file outside
# collector/rt/: "FILE TARGET" (TARGET resolved from FILE's directory), or
# "FILE ?NAME" when it names no file of ROOT. Paths hold no blanks.
includes() {
    local base=$1
    sources "$base" >.structure-files
    (cd "$base" && grep -v '^collector/rt/' "$OLDPWD/.structure-files" | xargs awk '
        FNR == 1 { dir = FILENAME; if (!sub(/\/[^\/]*$/, "", dir)) dir = "" }
        /^[ \t]*#[ \t]*include[ \t]*"/ {
            name = $0; sub(/^[^"]*"/, "", name); sub(/".*/, "", name)
            print FILENAME, (dir == "" ? name : dir "/" name), name
        }') |
        awk -v files=.structure-files -v generated="install_dirs.h" '
        BEGIN {
            while ((getline f <files) > 0) have[f] = 1
            n = split(generated, g, " "); for (i = 1; i <= n; i++) gen[g[i]] = 1
        }
        function norm(p,    n, a, i, k, out) {
            n = split(p, a, "/"); k = 0
            for (i = 1; i <= n; i++) {
                if (a[i] == "" || a[i] == ".") continue
                if (a[i] == ".." && k > 0 && st[k] != "..") { k--; continue }
                st[++k] = a[i]
            }
            out = ""
            for (i = 1; i <= k; i++) out = out (i > 1 ? "/" : "") st[i]
            return out
        }
        {
            t = norm($2)
            if (t in have) print $1, t
            else if (!($3 in gen)) print $1, "?" $3
        }'
    rm -f .structure-files
}

# 1 and 4: "FILE: includes TARGET: ..." for every include the rules forbid.
layer_violations() {
    includes "$1" | awk '
        function top(p) { sub(/\/.*/, "", p); return p }
        function layer(d) {
            if (d == "base") return 0
            if (d == "formats") return 1
            if (d == "common") return 2
            if (d == "ciat" || d == "cdat" || d == "tdat" || d == "smait") return 3
            return -1
        }
        function allowed(d) {
            if (d == "base") return "base/"
            if (d == "formats") return "base/ and formats/"
            if (d == "common") return "base/, formats/ and common/"
            return "base/, formats/, common/ and " d "/"
        }
        $2 ~ /^\?/ { print $1 ": includes \"" substr($2, 2) "\": no such file"; next }
        {
            s = top($1); t = top($2)
            if (layer(s) < 0 || s == t) next
            if (layer(t) < 0 || layer(t) >= layer(s))
                print $1 ": includes " $2 ": " s "/ may include only " allowed(s)
        }'
}

# 2 and 3: "cycle: A -> B -> ... -> A" for every edge back into the path of
# a depth-first walk (files, or modules with "module"), nodes and edges
# taken in sorted order; nothing when the graph has no cycle.
cycles() {
    local kind=$2
    includes "$1" | grep -v ' ?' | grep -v '^collector/rt/' | grep -v ' collector/rt/' |
        awk -v kind="$kind" '
        function module(p) { sub(/\.[ch]$/, "", p); sub(/_internal$/, "", p); return p }
        {
            a = $1; b = $2
            if (kind == "module") { a = module(a); b = module(b) }
            if (a != b) print a, b
        }' | LC_ALL=C sort -u |
        awk '
        { if (!($1 in n)) { n[$1] = 0; node[++nodes] = $1 }
          if (!($2 in n)) { n[$2] = 0; node[++nodes] = $2 }
          adj[$1, ++n[$1]] = $2 }
        function walk(v,    i, w, j, s) {
            state[v] = 1; path[++depth] = v
            for (i = 1; i <= n[v]; i++) {
                w = adj[v, i]
                if (state[w] == 1) {
                    s = ""
                    for (j = 1; j <= depth; j++) if (s != "" || path[j] == w) s = s path[j] " -> "
                    print "cycle: " s w
                } else if (state[w] == 0) walk(w)
            }
            depth--; state[v] = 2
        }
        END { for (k = 1; k <= nodes; k++) state[node[k]] = 0
              for (k = 1; k <= nodes; k++) if (state[node[k]] == 0) walk(node[k]) }'
}

# 5: "FILE: includes PRIVATE: ..." for every include of a private header
# from outside its own directory's .c files.
private_violations() {
    includes "$1" | awk '
        function dir(p) { if (!sub(/\/[^\/]*$/, "", p)) p = ""; return p }
        $2 ~ /_internal\.h$/ && !($1 ~ /\.c$/ && dir($1) == dir($2)) {
            print $1 ": includes " $2 ": a private header, for the .c files of " dir($2) "/ only"
        }'
}

check "no upward include, every include a file of the repository" layer_violations "$root" <<'EOF'
--- exit 0
EOF
check "private headers stay private" private_violations "$root" <<'EOF'
--- exit 0
EOF
check "no include cycle between files" cycles "$root" file <<'EOF'
--- exit 0
EOF
check "no cycle between modules" cycles "$root" module <<'EOF'
--- exit 0
EOF

# The checks on a planted tree.
plant() {    # FILE INCLUDE...
    local f=plant/$1
    shift
    mkdir -p "$(dirname "$f")"
    : >"$f"
    for i in "$@"; do printf '#include "%s"\n' "$i" >>"$f"; done
}
rm -rf plant
plant base/diag.c diag.h ../common/out_file.h '../base/./diag.h'
plant base/diag.h
echo '#include <stdio.h>' >>plant/base/diag.h     # not a quoted include: not read
plant formats/addr_map.c ../base/diag.h ../common/line_reader.h
plant common/out_file.c out_file.h ../base/diag.h
plant common/out_file.h
plant common/line_reader.h
plant common/report.c report.h report_json.h
plant common/report.h
plant common/report_json.c report_json.h report.h
plant common/report_json.h
plant common/scheduler.c scheduler_internal.h
plant common/scheduler.h
plant common/scheduler_internal.h scheduler.h
plant common/slice_mode.c scheduler_internal.h
plant common/consumer_loops.h scheduler_internal.h
plant common/a.h b.h
plant common/b.h c.h
plant common/c.h a.h
plant ciat/ciat.c ../common/report.h ../cdat/cache.h install_dirs.h ../tests/unit/suites.h missing.h
plant cdat/cache.h
plant tests/unit/suites.h ../../ciat/x.h ../../common/report.h
plant ciat/x.h
plant tests/unit/test_scheduler.c ../../common/scheduler_internal.h
plant collector/rt/rt.h rt_own.h ../../formats/smait.h
plant collector/rt/rt_own.h rt.h
plant collector/instrument.c rt/rt.h
plant formats/smait.h
check "planted: upward includes, another tool, an unknown file" layer_violations plant <<'EOF'
base/diag.c: includes common/out_file.h: base/ may include only base/
ciat/ciat.c: includes cdat/cache.h: ciat/ may include only base/, formats/, common/ and ciat/
ciat/ciat.c: includes tests/unit/suites.h: ciat/ may include only base/, formats/, common/ and ciat/
ciat/ciat.c: includes "missing.h": no such file
formats/addr_map.c: includes common/line_reader.h: formats/ may include only base/ and formats/
--- exit 0
EOF
check "planted: a header and a test that reach into the scheduler's private header" private_violations plant <<'EOF'
common/consumer_loops.h: includes common/scheduler_internal.h: a private header, for the .c files of common/ only
tests/unit/test_scheduler.c: includes common/scheduler_internal.h: a private header, for the .c files of common/ only
--- exit 0
EOF
check "planted: a cycle of three headers" cycles plant file <<'EOF'
cycle: common/a.h -> common/b.h -> common/c.h -> common/a.h
--- exit 0
EOF
check "planted: modules that include each other (diag and out_file as they were; a private header is its module's)" cycles plant module <<'EOF'
cycle: base/diag -> common/out_file -> base/diag
cycle: common/report -> common/report_json -> common/report
cycle: common/a -> common/b -> common/c -> common/a
--- exit 0
EOF
rm -rf plant
