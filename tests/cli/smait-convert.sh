# smait-convert.sh — smait convert (plain, gzip, zstd; files and --set) and
# the sizes smait stat gives for compressed input (formats/SMAIT.md §11).
cat >set.txt <<'EOF'
threads 3
thread 0
start_trace @1000:1000
repeat 200
load 4 0x20000000
store 8 0x20000008
end
end_trace @2000:2000
thread 1
barrier var=0x8000 threads=2 @3:5
load 4 0x100
thread 2
EOF
smait asm set.txt orig
mv orig.3.0 keep0; mv orig.3.1 keep1; mv orig.3.2 keep2    # the originals, under other names
cp keep0 s.3.0; cp keep1 s.3.1; cp keep2 s.3.2

# ---- a set, to zstd and gzip and back -------------------------------------------------------
check "--set to zstd: every file P.k.zst, the inputs removed" \
    bash -c 'smait convert --to zstd --set s.3 && ls s.3.*' <<'EOF'
s.3.0.zst
s.3.1.zst
s.3.2.zst
--- exit 0
EOF
check "the outputs are zstd with a checksum that zstd -d reads back" \
    bash -c 'for k in 0 1 2; do zstd -q -t s.3.$k.zst && zstd -q -d -c s.3.$k.zst | cmp - keep$k || exit 1; done; zstd -l s.3.0.zst | grep -o XXH64' <<'EOF'
XXH64
--- exit 0
EOF
check "a set of .zst files reads as the plain set (thread 2's is empty: a warning)" \
    bash -c 'smait dump --set s.3 >z.dump && smait dump keep0 keep1 keep2 >p.dump && diff <(sed "1d; s/ *#.*//" p.dump) <(sed "1d; s/ *#.*//" z.dump)' <<'EOF'
--- stderr
smait: warning: s.3.2.zst: empty trace (no records)
smait: warning: keep2: empty trace (no records)
--- exit 0
EOF
check "one file to gzip" bash -c 'smait convert --to gzip s.3.1.zst && ls s.3.* && gzip -t s.3.1.gz' <<'EOF'
s.3.0.zst
s.3.1.gz
s.3.2.zst
--- exit 0
EOF
check "--set to plain: byte for byte the original set" \
    bash -c 'smait convert --to plain --set s.3 && ls s.3.* && cmp keep0 s.3.0 && cmp keep1 s.3.1 && cmp keep2 s.3.2' <<'EOF'
s.3.0
s.3.1
s.3.2
--- exit 0
EOF
smait convert --to zstd --level 19 s.3.0
mv s.3.0.zst first.zst
cp keep0 s.3.0
smait convert --to zstd --level 19 s.3.0
check_same "the same input and level give the same bytes" first.zst s.3.0.zst
check "--keep keeps the input; then the set has a file under two names" \
    bash -c 'smait convert --keep --to zstd s.3.1; ls s.3.1*; smait stat --set s.3' <<'EOF'
s.3.1
s.3.1.zst
--- stderr
smait: s.3.1: ambiguous: s.3.1 and s.3.1.zst exist; keep one of them, or name the files in a trace list (-t)
--- exit 2
EOF
rm s.3.1.zst

# ---- --records: the delta coding (formats/SMAIT.md §11.1) -----------------------------------
cp keep0 d.3.0; cp keep1 d.3.1
smait asm --byte-order big set.txt big        # the same set, big-endian
check "--records delta: coded, found by stat; the records read as the original's" \
    bash -c 'smait convert --records delta --to zstd --keep d.3.0 && smait stat d.3.0.zst | grep -E "^(byte_order|coding|simple_records) " &&
             diff <(smait dump keep0 | sed 1d) <(smait dump d.3.0.zst | sed 1d) && smait stat keep0 | grep -c "^coding"' <<'EOF'
byte_order little
coding delta
simple_records 412
0
--- exit 1
EOF
# The marker (7de17a00, version 1); start_trace's six parts as they are; the
# first load against nothing remembered (its address); after 63 memory
# records without a branch each is coded against the one before: the last
# store (0x20000008, record 405: bytes 3248.. with the marker, od's line 204)
# is the load before it (0x20000000) plus 8; end_trace (@2000 = 0x7d0) as it is.
check "the coded bytes: the marker, calls as they are, addresses as differences (zstd -d, no decoding)" \
    bash -c 'zstd -q -dc d.3.0.zst | od -An -tx4 -v | sed -n "1,4p;204p"' <<'EOF'
 7de17a00 00000001 00001170 000003e8
 00001171 000003e8 00001172 00000000
 00001173 00000000 00001174 00000000
 00001175 00000000 00000040 20000000
 00000081 00000008 00001180 000007d0
--- exit 0
EOF
check "--records plain from the coded file: byte for byte the original" \
    bash -c 'rm d.3.0 && smait convert --records plain --to plain d.3.0.zst && cmp d.3.0 keep0 && ls d.3.0*' <<'EOF'
d.3.0
--- exit 0
EOF
check "a delta-coded plain file (the bytes of a .gz) reads as the original" \
    bash -c 'smait convert --records delta --to gzip d.3.1 && smait convert --to plain d.3.1.gz && smait stat d.3.1 | grep -E "^(coding|simple_records) " &&
             diff <(smait dump keep1 | sed 1d) <(smait dump d.3.1 | sed 1d) && ! cmp -s d.3.1 keep1' <<'EOF'
coding delta
simple_records 7
--- exit 0
EOF
check "a big-endian trace stays big-endian, coded and back" \
    bash -c 'smait convert --records delta --to zstd big.3.0 && smait stat big.3.0.zst | sed -n 2p &&
             smait convert --records plain --to plain big.3.0.zst && smait stat big.3.0 | grep -E "^(byte_order|coding) " &&
             smait dump big.3.0 | sed 1,2d | diff - <(smait dump keep0 | sed 1,2d)' <<'EOF'
byte_order big
byte_order big
--- exit 0
EOF
{ cat keep1; printf 'bad'; } >bad.3.1
check "--records on a bad trace: the reader's message, exit 2, no output" \
    bash -c 'smait convert --records delta --to zstd bad.3.1; echo "status $?"; ls bad.3.1*; ls -a | grep -c tmp' <<'EOF'
status 2
bad.3.1
0
--- stderr
smait: bad.3.1: 56: record 7: truncated final record (file size is not a multiple of 8; 3 bytes left over)
--- exit 1
EOF

# ---- smait stat: sizes and ratio of compressed input ------------------------------------------
zstd -q -c keep0 >r.zst
gzip -n -c keep0 >r.gz
zsize=$(file_size r.zst)
gsize=$(file_size r.gz)
size=$(file_size keep0)
check "stat: compressed and data bytes, ratio (zstd, gzip); none for plain" \
    bash -c 'smait stat r.zst | sed -n 3,6p; smait stat r.gz | sed -n 3,6p; smait stat keep0 | sed -n 3,4p' <<EOF
compressed zstd
compressed_bytes $zsize
data_bytes $size
ratio $(awk -v a="$size" -v b="$zsize" 'BEGIN { printf "%.2f", a / b }')
compressed gzip
compressed_bytes $gsize
data_bytes $size
ratio $(awk -v a="$size" -v b="$gsize" 'BEGIN { printf "%.2f", a / b }')
compressed no
simple_records 412
--- exit 0
EOF
STDIN=r.zst check "stat: the sizes of a zstd pipe" bash -c 'cat | smait stat - | sed -n 3,5p' <<EOF
compressed zstd
compressed_bytes $zsize
data_bytes $size
--- exit 0
EOF

# ---- bad input: exit 2, the output not written, the input kept ---------------------------------
cp keep0 b.3.0
zstd -q -c keep1 | head -c 40 >b.3.1.zst
cp keep2 b.3.2
# (the offset: the bytes decompressed before the cut, as many as zstd's block layout gives)
check_status "a truncated input: named with its offset, exit 2" 2 \
    '^smait: b\.3\.1\.zst: [0-9]+: corrupt compressed stream: compressed stream is truncated \(unexpected end of file\)$' \
    smait convert --to gzip --set b.3
check "files before it are converted, it and those after it are untouched" \
    bash -c 'ls b.3.* && ls -a | grep -c tmp' <<'EOF'
b.3.0.gz
b.3.1.zst
b.3.2
0
--- exit 1
EOF
check "a missing file" smait convert --to zstd nothing.0 <<'EOF'
--- stderr
smait: nothing.0: cannot read: No such file or directory
--- exit 2
EOF

# ---- usage errors: exit 1, nothing written -------------------------------------------------
usage() {   # NAME MESSAGE ARGS...
    local name=$1 msg=$2
    shift 2
    check "$name" smait "$@" <<EOF
--- stderr
smait: $msg
smait: try 'smait --help'
--- exit 1
EOF
}
usage "convert without --to" "convert needs --to plain, --to gzip or --to zstd" convert keep0
usage "an unknown format" "option --to: must be plain, gzip or zstd" convert --to xz keep0
usage "--level out of range" "option --level: 20 is out of range (1..19)" convert --to zstd --level 20 keep0
usage "--level with gzip" "--level is for --to zstd" convert --to gzip --level 3 keep0
usage "--to for another command" "--to, --level, --keep and --records are options of convert" stat --to zstd keep0
usage "--keep for another command" "--to, --level, --keep and --records are options of convert" dump --keep keep0
usage "an unknown coding" "option --records: must be plain or delta" convert --to zstd --records xor keep0
usage "--records for another command" "--to, --level, --keep and --records are options of convert" dump --records plain keep0
usage "convert without a file" "convert needs a file (or --set PREFIX.P)" convert --to zstd
usage "standard input" "convert: reads files, not standard input ('-')" convert --to zstd -
usage "a plain file to plain" "convert: the output of 'keep0' would be the file itself (give a file named .gz or .zst to convert it to plain)" \
    convert --to plain keep0
usage "a .zst file to zstd" "convert: the output of 'r.zst' would be the file itself (give a file named .gz or .zst to convert it to plain)" \
    convert --to zstd r.zst
usage "two inputs, one output" "convert: two inputs would both be written to 'r'" convert --to plain r.zst r.gz
usage "a name that is only the suffix" "convert: cannot name the output of '.gz'" convert --to plain .gz
check "after the usage errors: the files as they were" bash -c 'ls r.* keep0' <<'EOF'
keep0
r.gz
r.zst
--- exit 0
EOF
