# smait-asm.sh — smait asm errors name the text file and line (exit 2), and
# outputs are atomic: a failed asm leaves no output file and does not damage
# an existing one (docs/trace-sets.md §6).
asm_error() {       # NAME MESSAGE  (the text on stdin)
    cat >e.txt
    check "$1" smait asm e.txt e.bin <<EOF
--- stderr
smait: e.txt: $2
--- exit 2
EOF
    check_true "$1: no output left" test ! -e e.bin
}

asm_error "unknown record" "line 2: unknown record 'lod'" <<'EOF'
load 4 0x10
lod 4 0x10
EOF
asm_error "missing address" "line 1: 'load' takes SIZE ADDR [fp|vec]" <<'EOF'
load 4
EOF
asm_error "bad size" "line 1: bad size '12' (0..8, 16, 32 or 64 bytes)" <<'EOF'
store 12 0x10
EOF
asm_error "bad register type" "line 1: bad register type 'dbl' (fix, fp or vec)" <<'EOF'
load 8 0x10 dbl
EOF
asm_error "address over 32 bits" "line 1: bad address '0x100000000' (a 32-bit number)" <<'EOF'
load 4 0x100000000
EOF
asm_error "branch address over 28 bits" \
    "line 1: bad address '0x10000000' (branch addresses hold 28 bits)" <<'EOF'
branch 0x10000000 0x0
EOF
asm_error "unknown argument name" "line 1: 'barrier' has no argument named 'foo'" <<'EOF'
barrier foo=1
EOF
asm_error "too many arguments" "line 1: 'barrier' takes at most 4 arguments" <<'EOF'
barrier 1 2 3 4 5
EOF
asm_error "bad time" "line 3: bad time '@1:x' (@START or @START:END in microseconds)" <<'EOF'
# comment lines count

barrier @1:x
EOF
asm_error "type_0x needs two hex digits" "line 1: unknown record 'type_0x1'" <<'EOF'
type_0x1
EOF
asm_error "raw needs two numbers" "line 1: 'raw' takes F1 F2 (32-bit numbers)" <<'EOF'
raw 0x20000000
EOF
asm_error "end without repeat" "line 1: 'end' without 'repeat'" <<'EOF'
end
EOF
asm_error "repeat without end" "line 3: 1 'repeat' block(s) not closed with 'end'" <<'EOF'
repeat 2
load 4 0x10
load 4 0x20
EOF
asm_error "repeat without a count" "line 1: 'repeat' takes a count" <<'EOF'
repeat
end
EOF
asm_error "thread inside repeat" "line 2: 'thread' inside a repeat block" <<'EOF'
repeat 2
thread 0
end
EOF
asm_error "record before the first thread section" "line 1: record before the first 'thread' section" <<'EOF'
load 4 0x10
thread 0
EOF
asm_error "byteorder after the first record" "line 2: 'byteorder' after the first record" <<'EOF'
load 4 0x10
byteorder big
EOF
asm_error "bad byteorder" "line 1: 'byteorder' takes little or big" <<'EOF'
byteorder auto
EOF
asm_error "threads twice" "line 2: 'threads' given twice" <<'EOF'
threads 2
threads 2
EOF
asm_error "threads 0" "line 1: bad thread number '0'" <<'EOF'
threads 0
EOF
asm_error "thread beyond threads" "line 4: section 'thread 3' but 'threads 2'" <<'EOF'
threads 2
thread 0
load 4 0x10
thread 3
EOF
# ---- bounded work ---------------------------------------------------------------------------
# A text expands to at most 2^28 = 268435456 lines: each line but an `end`
# counts once per repetition of the repeat blocks around it. The limit is
# checked before anything is assembled, so these are refused at once. (The
# ulimits only guard the test run against a smait that does not bound its
# work: it would write gigabytes or run for hours.)
max="the text expands to more than 268435456 lines (each line counts once per repetition of the repeat blocks around it)"
printf 'proc 0x1000\nrepeat 4294967295\nrepeat 4294967295\nload 4 0x100\nend\nend\n' >e.txt
check "two nested repeat 4294967295: refused at the inner repeat" bash -c 'ulimit -f 8192 -t 60; exec smait asm e.txt e.bin' <<EOF
--- stderr
smait: e.txt: line 3: $max
--- exit 2
EOF
check_true "two nested repeats: no output left" test ! -e e.bin
printf 'repeat 4294967295\n# nothing but a comment\nrepeat 4294967295\nend\nend\n' >e.txt
check "nested repeats of nothing count too" bash -c 'ulimit -f 8192 -t 60; exec smait asm e.txt e.bin' <<EOF
--- stderr
smait: e.txt: line 3: $max
--- exit 2
EOF
# 1 (the repeat line) + 268435456 loads is one line past the limit;
printf 'repeat 268435456\nload 4 0x100\nend\n' >e.txt
check "one line past 2^28" bash -c 'ulimit -f 8192 -t 60; exec smait asm e.txt e.bin' <<EOF
--- stderr
smait: e.txt: line 2: $max
--- exit 2
EOF
# 1 + 16384 inner repeat lines + 16384 x 16384 = 2^28 loads passes it at the load.
printf 'repeat 16384\n  repeat 16384\n    load 4 0x100\n  end\nend\n' >e.txt
check "16384 x 16384: the counts multiply" bash -c 'ulimit -f 8192 -t 60; exec smait asm e.txt e.bin' <<EOF
--- stderr
smait: e.txt: line 3: $max
--- exit 2
EOF
check_true "past the limit: no output left" test ! -e e.bin
# What is never assembled does not count: a repeat 0 block, a block of only
# comments and blank lines (never iterated).
printf 'repeat 0\nrepeat 4294967295\nrepeat 4294967295\nload 4 0x100\nend\nend\nend\nload 4 0x200\n' >z.txt
check "inside repeat 0 nothing counts" bash -c 'ulimit -f 8192 -t 60; smait asm z.txt z.bin && smait dump z.bin' <<'EOF'
# smait dump of z.bin
byteorder little
0: load 4 0x00000200
--- exit 0
EOF
printf 'repeat 4294967295\n# a comment\n\n   # another\nend\nload 4 0x300\n' >c.txt
check "a block of comments is not iterated" bash -c 'ulimit -f 8192 -t 60; smait asm c.txt c.bin && smait dump c.bin' <<'EOF'
# smait dump of c.bin
byteorder little
0: load 4 0x00000300
--- exit 0
EOF

# ---- long lines ------------------------------------------------------------------------------
# A line holds at most 1023 characters (the line end aside); a longer one is
# refused while it is read, before it is buffered whole.
{ printf 'load 4 0x10 #'; head -c 1010 /dev/zero | tr '\0' x; printf '\r\n'; } >l1023.txt
check "a line of 1023 characters (and a CR)" bash -c 'smait asm l1023.txt l.bin && smait dump l.bin' <<'EOF'
# smait dump of l.bin
byteorder little
0: load 4 0x00000010
--- exit 0
EOF
{ printf 'load 4 0x10\nload 4 0x10 #'; head -c 1011 /dev/zero | tr '\0' x; printf '\n'; } >l1024.txt
asm_error "a line of 1024 characters" "line 2: longer than 1023 characters" <l1024.txt
head -c 67108864 /dev/zero | tr '\0' a >huge.txt
asm_error "a line of 64 MiB" "line 1: longer than 1023 characters" <huge.txt
check_memory "a line of 64 MiB: refused in less than 32 MiB of memory" 32768 smait asm huge.txt e.bin
STDIN=huge.txt check_memory "... from standard input too" 32768 smait asm - e.bin
rm -f huge.txt e.txt e.bin

check "missing text file" smait asm nope.txt e.bin <<'EOF'
--- stderr
smait: nope.txt: cannot read: No such file or directory
--- exit 2
EOF
printf 'load 4 0x10\n' >ok.txt
check "output directory missing" smait asm ok.txt no-dir/x.bin <<'EOF'
--- stderr
smait: no-dir/x.bin: cannot create output file: No such file or directory
--- exit 2
EOF

# ---- atomic outputs ------------------------------------------------------------------------
mkdir out
smait asm ok.txt out/keep.bin
cp out/keep.bin saved.bin
printf 'load 4 0x20\nload 4 0x30\nlod 4 0x40\n' >late-error.txt
check "a failed asm over an existing file" smait asm late-error.txt out/keep.bin <<'EOF'
--- stderr
smait: late-error.txt: line 3: unknown record 'lod'
--- exit 2
EOF
check_same "the existing file is untouched" saved.bin out/keep.bin
check "no temporary file is left behind" ls -A out <<'EOF'
keep.bin
--- exit 0
EOF
# A trace set whose last thread fails: none of the files appears.
printf 'thread 0\nload 4 0x10\nthread 1\nload 4 0x20\nthread 2\nload 99 0x30\n' >set-error.txt
check "a failed trace set asm" smait asm set-error.txt out/set <<'EOF'
--- stderr
smait: set-error.txt: line 6: bad size '99' (0..8, 16, 32 or 64 bytes)
--- exit 2
EOF
check "no file of the set is left" ls -A out <<'EOF'
keep.bin
--- exit 0
EOF
# Success replaces the old file and leaves only the outputs.
printf 'load 4 0x50\n' >new.txt
smait asm new.txt out/keep.bin
check "a successful asm replaces the file" smait dump out/keep.bin <<'EOF'
# smait dump of out/keep.bin
byteorder little
0: load 4 0x00000050
--- exit 0
EOF
smait asm "$CLI_DIR/smait/set.txt" out/run
check "a trace set writes exactly its files" ls -A out <<'EOF'
keep.bin
run.2.0
run.2.1
--- exit 0
EOF

# ---- OUT '-': one trace to standard output; several threads cannot go there ----
printf 'load 4 0x100\nstore 4 0x104\n' >one-std.txt
check "asm TEXT -: the trace on standard output" bash -c 'smait asm one-std.txt - | smait dump -' <<'EOF'
# smait dump of -
byteorder little
0: load 4 0x00000100
1: store 4 0x00000104
--- exit 0
EOF
check "asm TEXT -: the same bytes as to a file, and no file named -" bash -c 'smait asm one-std.txt f.bin && smait asm one-std.txt - | cmp - f.bin && ls -- - 2>&1' <<'EOF'
ls: cannot access '-': No such file or directory
--- exit 2
EOF
printf 'thread 0\nload 4 0x100\nthread 1\nstore 4 0x100\n' >two-std.txt
check "asm TEXT - of two threads: refused, nothing written" bash -c 'smait asm two-std.txt - | wc -c' <<'EOF'
0
--- stderr
smait: OUT '-' (standard output) takes one trace, but two-std.txt has 2 thread sections: give a name (OUT.2.0 ... OUT.2.1 are written)
smait: try 'smait --help'
--- exit 0
EOF
check_true "... and no file named -.2.0" test ! -e -.2.0
printf 'thread 0\nload 4 0x100\n' >t1-std.txt
check "asm TEXT - of one thread section: its trace" bash -c 'smait asm t1-std.txt - | wc -c' <<'EOF'
8
--- exit 0
EOF
