# smait-asm.sh — smait asm errors name the text file and line (exit 2), and
# outputs are atomic: a failed asm leaves no output file and does not damage
# an existing one (SPEC §3).
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
