# install.sh — make install into a temporary prefix (DESTDIR), then every tool
# run from there by its installed name: the layout (README, "Building"), the
# manual pages (man -l renders each without a warning, mandoc -T lint finds
# nothing), a configuration found by name (cdat t.4 4x4) in the installed
# share/dsmtrace/configs, --help naming the installed documents. Needs the
# source tree ($SRC, set by make check); skipped without it.
if [ -z "${SRC:-}" ] || [ ! -f "$SRC/Makefile" ]; then
    echo "(SRC is not set: the install test runs from make check)"
    return 0
fi
PREFIX=${PREFIX:-/usr/local}
stage=$PWD/stage
root=$stage$PREFIX
check "make install DESTDIR=stage" bash -c \
    'make -C "$1" --no-print-directory install DESTDIR="$2" SANITIZE="$3" PREFIX="$4" >install.log 2>&1 || cat install.log' \
    - "$SRC" "$stage" "${SANITIZE:-}" "$PREFIX" <<'EOF2'
--- exit 0
EOF2

check "installed layout (the collector aside)" bash -c 'cd "$1" && ls bin | grep -Ev "^smait-c(c|\+\+|xx)$" && ls share/dsmtrace/configs share/man/man1 share/man/man5 &&
    ls share/doc/dsmtrace share/doc/dsmtrace/docs/ciat-report.md share/doc/dsmtrace/formats/SMAIT.md \
       share/doc/dsmtrace/docs/report.schema.json share/doc/dsmtrace/examples/mat_mul.c \
       share/doc/dsmtrace/examples/producer-consumer.txt && test -x share/doc/dsmtrace/examples/slurm/ciat-shards.sh' \
    - "$root" <<'EOF2'
cdat
ciat
smait
tdat
share/dsmtrace/configs:
1x1.ini
32x4.ini
4x4.ini
manycore.ini
server2s.ini
spp1600.ini

share/man/man1:
cdat.1
ciat.1
smait-cc.1
smait.1
tdat.1

share/man/man5:
cdat-config.5
cdat-partial.5
cdat-traces.5
ciat-events.5
ciat-memory.5
ciat-partial.5
smait-text.5
smait.5
share/doc/dsmtrace/docs/ciat-report.md
share/doc/dsmtrace/docs/report.schema.json
share/doc/dsmtrace/examples/mat_mul.c
share/doc/dsmtrace/examples/producer-consumer.txt
share/doc/dsmtrace/formats/SMAIT.md

share/doc/dsmtrace:
README.md
configs
docs
examples
formats
--- exit 0
EOF2
collector=no
[ -x "$BIN/smait-instrument" ] && collector=yes
if [ $collector = yes ]; then
    check_true "smait-cc, smait-c++, smait-cxx in bin; smait-instrument in libexec, not in bin" \
        test -x "$root/bin/smait-cc" -a -L "$root/bin/smait-c++" -a -L "$root/bin/smait-cxx" \
        -a -x "$root/libexec/dsmtrace/smait-instrument" -a ! -e "$root/bin/smait-instrument"
fi

for page in "$root"/share/man/man1/*.1 "$root"/share/man/man5/*.5; do
    name=$(basename "$page")
    # not a warning of troff's at 80 columns (no line it cannot adjust or
    # break, no table wider than the line)
    check "man -l $name: renders at 80 columns without a warning" bash -c \
        'MANWIDTH=80 man -l "$1" 2>&1 >out.txt; head -n 1 out.txt | grep -Eq "^[A-Z-]+\([15]\)" || echo "no header"' \
        - "$page" <<'EOF2'
--- exit 0
EOF2
    check "mandoc -T lint $name" mandoc -T lint -W warning "$page" <<'EOF2'
--- exit 0
EOF2
    # No character lost on the way: help2man in the C locale turned '§' and
    # '…' of the --help texts into '??' (scripts/man1).
    check_true "man -l $name: no '?' put for a character (§, …)" \
        bash -c '! MANWIDTH=80 LC_ALL=C.UTF-8 man -l "$1" 2>/dev/null | grep -q "??"' - "$page"
done
# whatis and apropos index a page by its NAME section, as lexgrog (man-db's
# indexer) reads it: every page has one.
for page in "$root"/share/man/man1/*.1 "$root"/share/man/man5/*.5; do
    name=$(basename "$page")
    check_true "lexgrog $name: a NAME section whatis can index" \
        bash -c 'lexgrog "$1" | grep -q "^$1: \"${2%.*} - "' - "$page" "$name"
done
check "man -l smait.5: no markdown anchors, '--lenient' with its two hyphens" bash -c \
    'MANWIDTH=200 man -l "$1/share/man/man5/smait.5" 2>/dev/null | grep -c "<#" ; MANWIDTH=200 man -l "$1/share/man/man5/smait.5" 2>/dev/null | grep -o "13 --lenient" | head -1' \
    - "$root" <<'EOF2'
0
13 --lenient
--- exit 0
EOF2
check "man -l ciat.1: a '§' of --help comes through" bash -c \
    'MANWIDTH=200 LC_ALL=C.UTF-8 man -l "$1/share/man/man1/ciat.1" 2>/dev/null | grep -o "docs/scheduler.md §2" | head -1' \
    - "$root" <<'EOF2'
docs/scheduler.md §2
--- exit 0
EOF2
check "man -l ciat.1: NAME, FILES with the installed documents" bash -c \
    'MANWIDTH=200 man -l "$1/share/man/man1/ciat.1" | grep -E "^ +ciat - |^ +$2/share/doc/dsmtrace/docs/ciat-report.md" | sed -e "s/^ *//" -e "s|$2|PREFIX|"' \
    - "$root" "$PREFIX" <<'EOF2'
ciat - configuration independent analysis of a shared-memory trace set
PREFIX/share/doc/dsmtrace/docs/ciat-report.md
--- exit 0
EOF2

check "man -l smait.1: the options of smait diff and smait schedule (their --help)" bash -c \
    'MANWIDTH=200 man -l "$1/share/man/man1/smait.1" 2>/dev/null | grep -Eo "^ *SMAIT (DIFF|SCHEDULE)|--whole-run|--ignore-header|--rel-tol X" | sed "s/^ *//" | sort -u' \
    - "$root" <<'EOF2'
--ignore-header
--rel-tol X
--whole-run
SMAIT DIFF
SMAIT SCHEDULE
--- exit 0
EOF2

# The tools by their installed names, nothing of the build tree on PATH.
export PATH="$root/bin:/usr/bin:/bin"
printf 'thread 0\nload 4 0x100\nstore 4 0x104\nthread 1\nload 4 0x104\nstore 4 0x100\n' > t.txt
check "smait asm (installed)" bash -c 'command -v smait | sed "s|$1|ROOT|"; smait asm t.txt t' - "$root" <<'EOF2'
ROOT/bin/smait
--- exit 0
EOF2
check "ciat t.2 (installed)" bash -c 'ciat -q -p t.2 && grep -c . t.2.ciat_report >/dev/null' <<'EOF2'
--- exit 0
EOF2
check "cdat t.2 4x4: the configuration found by name among the installed ones" bash -c \
    'cdat -q -p t.2 4x4 && grep "^# configuration:" t.2.cdat_report | sed "s|$1|ROOT|"' - "$(cd "$root" && pwd -P)" <<'EOF2'
# configuration: ROOT/share/dsmtrace/configs/4x4.ini
--- exit 0
EOF2
check "cdat t.2 9x9: no such configuration, and where it was looked for" bash -c \
    'cdat -q -p t.2 9x9 2>&1 | sed -e "s|$1|ROOT|" -e "s| or .*configs| or SRC/configs|"' - "$(cd "$root" && pwd -P)" <<'EOF2'
cdat: 9x9: no such configuration file, nor 9x9.ini in ROOT/share/dsmtrace/configs or SRC/configs
--- exit 0
EOF2
check "tdat (installed)" bash -c 'printf "1\n5\n" | tdat - times 2 1 | grep ^events' <<'EOF2'
events 2
--- exit 0
EOF2
if [ $collector = yes ]; then
    printf '#include <stdio.h>\nint x;\nint main(void) { x = 1; printf("%%d\\n", x); return 0; }\n' > p.c
    check "smait-cc (installed) builds a traced program with the installed instrumenter and runtime" \
        bash -c 'smait-cc -O1 p.c -o p && SMAIT_QUIET=1 TRACE_FILE_NAME=p ./p && smait stat p.1.0 | grep "^memory "' <<'EOF2'
1
memory 1 load 0 store 1 atomic 0
--- exit 0
EOF2
    # The installed runtime is built for the installed tree: it names the
    # installed bin (and configurations), never the build tree's tools, so an
    # installed program analyses itself with the installed ciat and cdat
    # (found here on PATH: the staged tree is not at PREFIX) once the build
    # tree is out of reach.
    check "the installed runtime names PREFIX/bin, not the build tree" bash -c '
        strings "$1/lib/libsmait-rt.a" | grep -c "$2/build/bin"; strings "$1/lib/libsmait-rt.a" | grep -x "$3/bin"' \
        - "$root" "$SRC" "$PREFIX" <<EOF2
0
$PREFIX/bin
--- exit 0
EOF2
    check "an installed program, to_ciat and to_cdat: the installed analysers" bash -c '
        PATH="$1/bin:/usr/bin:/bin" && export PATH && hash -r &&
        SMAIT_QUIET=1 TRACE_FILE_TYPE=to_ciat TRACE_FILE_NAME=q ./p && ls q.1.* &&
        SMAIT_QUIET=1 TRACE_FILE_TYPE=to_cdat CONFIGURATION_FILE_NAME="$1/share/dsmtrace/configs/1x1.ini" TRACE_FILE_NAME=q ./p &&
        ls q.1.cdat_report' - "$root" <<'EOF2'
1
q.1.ciat_report
q.1.map
q.1.memory
1
q.1.cdat_report
--- exit 0
EOF2
fi
check "cdat --help names the installed configurations and documents" bash -c \
    'cdat --help | grep -o "$1/share/[a-z/]*" | sed "s|$1|PREFIX|"' - "$PREFIX" <<'EOF2'
PREFIX/share/dsmtrace/configs
PREFIX/share/doc/dsmtrace
--- exit 0
EOF2
