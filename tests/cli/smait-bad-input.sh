# smait-bad-input.sh — every class of bad input of formats/SMAIT.md §12: exit status 2 and
# a message naming the file, byte offset, record index and reason; records
# before the bad one are still dumped. Random bytes must fail cleanly.
#
# The bad traces are assembled from small texts; `raw F1 F2` writes any simple
# record. Every file starts with start_trace @1000:1000 (records 0..5) and a
# load (record 6), so the bad record is record 7 at byte offset 56. A trace
# that begins with start_trace must end with end_trace (or it is cut, the
# last section): files whose bad record is not their last record end so.
head7() { printf 'start_trace @1000:1000\nload 4 0x1000\n'; }
end6() { echo 'end_trace @2000:2000'; }
HEAD_DUMP='byteorder little
0: start_trace @1000:1000
6: load 4 0x00001000'
# good.bin: head7 and end_trace (records 7..12, 104 bytes in all).
GOOD_DUMP="$HEAD_DUMP
7: end_trace @2000:2000"

# ---- invalid record kind ----------------------------------------------------------
{ head7; echo 'raw 0x20000020 0x12345678'; echo 'load 4 0x2000'; end6; } >kind.txt
smait asm kind.txt kind.bin
check "invalid record kind" smait dump kind.bin <<EOF
# smait dump of kind.bin
$HEAD_DUMP
--- stderr
smait: kind.bin: 56: record 7: invalid record kind: bytes 20000020 78563412 (f1 20000020 as little-endian)
--- exit 2
EOF
check "stat stops at the same record" smait stat kind.bin <<'EOF'
--- stderr
smait: kind.bin: 56: record 7: invalid record kind: bytes 20000020 78563412 (f1 20000020 as little-endian)
--- exit 2
EOF
# 00000043 (access 3) is invalid; its bytes 43 00 00 00 read big-endian are
# 43000000, a procedure start: the message carries the byte-order hint.
{ head7; echo 'raw 0x00000043 0x20000004'; } >kind2.txt
smait asm kind2.txt kind2.bin
check "invalid kind with the byte-order hint" smait stat kind2.bin <<'EOF'
--- stderr
smait: kind2.bin: 56: record 7: invalid record kind: bytes 43000000 04000020 (f1 00000043 as little-endian); it is valid as big-endian: try --byte-order=big
--- exit 2
EOF
{ head7; end6; } >good.txt
smait --byte-order=big asm good.txt good.be
check "a big-endian file read as little-endian" smait dump --byte-order=little good.be <<'EOF'
# smait dump of good.be
byteorder little
--- stderr
smait: good.be: 0: record 0: invalid record kind: bytes 00001170 000003e8 (f1 70110000 as little-endian); it is valid as big-endian: try --byte-order=big
--- exit 2
EOF
smait asm good.txt good.bin
check "a little-endian file read as big-endian" smait stat --byte-order=big good.bin <<'EOF'
--- stderr
smait: good.bin: 0: record 0: invalid record kind: bytes 70110000 e8030000 (f1 70110000 as big-endian); it is valid as little-endian: try --byte-order=little
--- exit 2
EOF

# ---- malformed call records ---------------------------------------------------------
{ head7; echo 'raw 0x00001032 0'; } >stray.txt
smait asm stray.txt stray.bin
check "call part without the parts before it" smait dump stray.bin <<EOF
# smait dump of stray.bin
$HEAD_DUMP
--- stderr
smait: stray.bin: 56: record 7: malformed call record: part 2 of call type 0x03 without the parts before it (f1 00001032)
--- exit 2
EOF
{ head7; for i in 0 1 2 4 4 5; do echo "raw 0x0000103$i 0"; done; } >index.txt
smait asm index.txt index.bin
check "call record with a wrong part index" smait stat index.bin <<'EOF'
--- stderr
smait: index.bin: 56: record 7: malformed call record of type 0x03: part 3 is f1 00001034, expected 00001033
--- exit 2
EOF
{ head7; printf 'raw 0x0000103%d 0\n' 0 1 2; printf 'raw 0x0000106%d 0\n' 3 4 5; } >mixed.txt
smait asm mixed.txt mixed.bin
check "call record with mixed call types" smait stat mixed.bin <<'EOF'
--- stderr
smait: mixed.bin: 56: record 7: malformed call record of type 0x03: part 3 is f1 00001063, expected 00001033
--- exit 2
EOF
{ head7; printf 'raw 0x0000103%d 0\n' 0 1 2; } >cut.txt
smait asm cut.txt cut.bin
check "call record cut by the end of the file" smait dump cut.bin <<EOF
# smait dump of cut.bin
$HEAD_DUMP
--- stderr
smait: cut.bin: 56: record 7: malformed call record: the trace ends after 3 of its 6 parts
--- exit 2
EOF
{ head7; echo 'raw 0x00001030 0'; echo 'load 4 0x2000'; end6; } >cut2.txt
smait asm cut2.txt cut2.bin
check "call record interrupted by another record" smait stat cut2.bin <<'EOF'
--- stderr
smait: cut2.bin: 56: record 7: malformed call record of type 0x03: part 1 is f1 00000040, expected 00001031
--- exit 2
EOF

# ---- truncated final record -------------------------------------------------------------
cp good.bin short.bin
printf 'abc' >>short.bin
check "file size not a multiple of 8" smait dump short.bin <<EOF
# smait dump of short.bin
$GOOD_DUMP
--- stderr
smait: short.bin: 104: record 13: truncated final record (file size is not a multiple of 8; 3 bytes left over)
--- exit 2
EOF
printf 'abcde' >tiny.bin
check "a file shorter than one record" smait stat tiny.bin <<'EOF'
--- stderr
smait: tiny.bin: 0: record 0: truncated final record (file size is not a multiple of 8; 5 bytes left over) (this file is text: the SMAIT text form? 'smait asm TEXT OUT' converts it to a binary trace)
--- exit 2
EOF

# ---- compressed streams -------------------------------------------------------------------
# The gzip trailer is CRC-32 then size (4 bytes each); the data is 104 bytes.
gzip -n -c good.bin >crc.gz
flip_bytes crc.gz $(( $(file_size crc.gz) - 8 )) 00 00 00 00
check "gzip with a bad checksum" smait dump crc.gz <<EOF
# smait dump of crc.gz
$GOOD_DUMP
--- stderr
smait: crc.gz: 104: record 13: corrupt compressed stream: incorrect data check
--- exit 2
EOF
gzip -n -c good.bin >method.gz
flip_bytes method.gz 2 09
check "gzip with an unknown compression method" smait stat method.gz <<'EOF'
--- stderr
smait: method.gz: 0: record 0: corrupt compressed stream: unknown compression method
--- exit 2
EOF
# A gzip header, then a deflate block header with the reserved block type 3.
printf '\x1f\x8b\x08\0\0\0\0\0\0\x03\xff\xff\xff\xff' >blocktype.gz
check "gzip with damaged deflate data" smait stat blocktype.gz <<'EOF'
--- stderr
smait: blocktype.gz: 0: record 0: corrupt compressed stream: invalid block type
--- exit 2
EOF
gzip -n -c good.bin >trailing.gz
printf 'junk' >>trailing.gz
check "gzip followed by junk" smait stat trailing.gz <<'EOF'
--- stderr
smait: trailing.gz: 104: record 13: corrupt compressed stream: trailing data after the end of the compressed stream
--- exit 2
EOF
gzip -n -c good.bin >whole.gz
head -c $(( $(file_size whole.gz) - 4 )) whole.gz >truncated.gz
check "truncated gzip" smait dump truncated.gz <<EOF
# smait dump of truncated.gz
$GOOD_DUMP
--- stderr
smait: truncated.gz: 104: record 13: corrupt compressed stream: compressed stream is truncated (unexpected end of file)
--- exit 2
EOF
head -c 10 whole.gz >header-only.gz
check "gzip header only" smait stat header-only.gz <<'EOF'
--- stderr
smait: header-only.gz: 0: record 0: corrupt compressed stream: compressed stream is truncated (unexpected end of file)
--- exit 2
EOF
STDIN=truncated.gz check "truncated gzip on standard input" smait stat - <<'EOF'
--- stderr
smait: -: 104: record 13: corrupt compressed stream: compressed stream is truncated (unexpected end of file)
--- exit 2
EOF
# zstd: the same cases (files made with the zstd tool, checksums on).
zstd -q -c --check good.bin >whole.zst
head -c $(( $(file_size whole.zst) - 4 )) whole.zst >truncated.zst
check "truncated zstd (no checksum): the records, then the error" smait dump truncated.zst <<EOF
# smait dump of truncated.zst
$GOOD_DUMP
--- stderr
smait: truncated.zst: 104: record 13: corrupt compressed stream: compressed stream is truncated (unexpected end of file)
--- exit 2
EOF
head -c 6 whole.zst >header-only.zst
check "zstd frame header only" smait stat header-only.zst <<'EOF'
--- stderr
smait: header-only.zst: 0: record 0: corrupt compressed stream: compressed stream is truncated (unexpected end of file)
--- exit 2
EOF
STDIN=truncated.zst check "truncated zstd on standard input" smait stat - <<'EOF'
--- stderr
smait: -: 104: record 13: corrupt compressed stream: compressed stream is truncated (unexpected end of file)
--- exit 2
EOF
cp whole.zst badsum.zst
flip_bytes badsum.zst $(( $(file_size whole.zst) - 4 )) 00 00 00 00
check "zstd with a wrong checksum" smait stat badsum.zst <<'EOF'
--- stderr
smait: badsum.zst: 0: record 0: corrupt compressed stream: Restored data doesn't match checksum
--- exit 2
EOF
cp whole.zst trailing.zst
printf 'junk' >>trailing.zst
check "zstd followed by junk" smait stat trailing.zst <<'EOF'
--- stderr
smait: trailing.zst: 104: record 13: corrupt compressed stream: trailing data after the end of the compressed stream
--- exit 2
EOF

# ---- files that cannot be read ------------------------------------------------------------
check "missing file" smait dump missing.bin <<'EOF'
--- stderr
smait: missing.bin: cannot read trace: No such file or directory
--- exit 2
EOF
mkdir adir
check "a directory" smait stat adir <<'EOF'
--- stderr
smait: adir: cannot read trace: is a directory
--- exit 2
EOF
if [ "$(id -u)" != 0 ]; then       # root reads anything
    cp good.bin noperm.bin
    chmod 000 noperm.bin
    check "unreadable file" smait stat noperm.bin <<'EOF'
--- stderr
smait: noperm.bin: cannot read trace: Permission denied
--- exit 2
EOF
fi
check "the second file of several is missing" smait stat good.bin missing.bin <<'EOF'
file good.bin
byte_order little
compressed no
simple_records 13
records 3
memory 1 load 1 store 0 atomic 0
memory_size 4:1
memory_register fixed 1 float 0 vector 0
proc_start 0
branch 0
proc_call 0
call 2
call start_trace 1
call end_trace 1
skipped_records 0
truncated_bytes 0
corrupt_streams 0
cut_traces 0
valid yes
--- stderr
smait: missing.bin: cannot read trace: No such file or directory
--- exit 2
EOF
check "files of a dump must share one byte order" smait dump good.bin good.be <<'EOF'
# smait dump of a trace set
byteorder little
threads 2
thread 0    # good.bin
0: start_trace @1000:1000
6: load 4 0x00001000
7: end_trace @2000:2000
--- stderr
smait: good.be: is big-endian but good.bin is little-endian; dump them separately
--- exit 2
EOF

# ---- random bytes: a clean error, never a crash ----------------------------------------------
# 4 KiB from a fixed-seed generator; whatever the bytes, the tools must stop
# with status 2 and one message (no signal, no sanitizer report, no hang).
RE='^smait: rand[0-9]\.(bin|gz): [0-9]+: record [0-9]+: (invalid record kind|malformed call record|truncated final record|corrupt compressed stream)'
for seed in 1 2 3; do
    lcg_bytes "$seed" 4096 >"rand$seed.bin"
    check_true "rand$seed.bin is 4096 bytes" test "$(file_size "rand$seed.bin")" -eq 4096
    check_status "random bytes (seed $seed): dump" 2 "$RE" smait dump "rand$seed.bin"
    check_status "random bytes (seed $seed): stat" 2 "$RE" smait stat "rand$seed.bin"
    check_status "random bytes (seed $seed): big-endian" 2 "$RE" smait dump --byte-order=big "rand$seed.bin"
    gzip -n -c "rand$seed.bin" >"rand$seed.gz"
    check "random bytes (seed $seed): gzip gives the same message" \
        diff <(smait stat "rand$seed.bin" 2>&1 | sed 's/\.bin:/.X:/') \
             <(smait stat "rand$seed.gz" 2>&1 | sed 's/\.gz:/.X:/') <<'EOF'
--- exit 0
EOF
    # Random bytes behind the gzip magic: a corrupt stream.
    { printf '\x1f\x8b'; cat "rand$seed.bin"; } >"rand$seed.gz"
    check_status "random bytes (seed $seed) after the gzip magic" 2 "$RE" smait dump "rand$seed.gz"
    # --lenient reads everything: dump exits 0, stat (a validator) 2. Of
    # the hundreds of bad records the first 10 are shown, then a note that
    # the rest are only counted, then the count.
    check "random bytes (seed $seed): dump --lenient" \
        bash -c "smait dump --lenient rand$seed.bin >out.txt 2>err.txt; echo \$?; tail -1 out.txt | sed 's/[0-9][0-9]*/N/g'
                 grep -c '^smait: warning: rand$seed.bin: [0-9]*: record [0-9]*: ' err.txt; tail -2 err.txt | sed 's/[0-9][0-9][0-9][0-9]*/N/g'" <<'EOF'
0
# lenient: skipped N bad simple records, N trailing bytes, N corrupt compressed streams
10
smait: warning: --lenient: more bad records skipped than the 10 shown: the rest are only counted
smait: --lenient: N bad records skipped (10 shown)
--- exit 0
EOF
    check "random bytes (seed $seed): stat --lenient" \
        bash -c "set -o pipefail; smait stat --lenient rand$seed.bin 2>/dev/null | tail -1" <<'EOF'
valid no
--- exit 2
EOF
done
