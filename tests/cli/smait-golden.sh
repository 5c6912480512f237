# smait-golden.sh — smait asm, dump and stat on good input: golden outputs,
# byte-for-byte round trips in both byte orders, trace sets, gzip and stdin.
D=$CLI_DIR/smait

# ---- asm then dump / stat: the goldens ------------------------------------------
check "asm all-kinds.txt" smait asm "$D/all-kinds.txt" all-kinds.bin <<'EOF'
--- exit 0
EOF
check_true "all-kinds.bin holds 113 simple records" test "$(file_size all-kinds.bin)" -eq 904
golden "dump all-kinds.bin" "$D/all-kinds.expected" smait dump all-kinds.bin
golden "stat all-kinds.bin" "$D/all-kinds-stat.expected" smait stat all-kinds.bin

check "asm set.txt (thread sections)" smait asm "$D/set.txt" run <<'EOF'
--- exit 0
EOF
golden "dump --set run.2" "$D/set.expected" smait dump --set run.2
golden "dump of the set's files" "$D/set.expected" smait dump run.2.0 run.2.1
golden "stat --set run.2" "$D/set-stat.expected" smait stat --set run.2

# ---- round trips ------------------------------------------------------------------
# asm -> dump -> asm reproduces the binary, little- and big-endian.
smait dump all-kinds.bin >all-kinds.dump
check "asm of the dump" smait asm all-kinds.dump again.bin <<'EOF'
--- exit 0
EOF
check_same "asm -> dump -> asm is byte-identical" all-kinds.bin again.bin

smait --byte-order=big asm "$D/all-kinds.txt" all-kinds.be
check_true "big-endian output differs" bash -c '! cmp -s all-kinds.bin all-kinds.be'
smait dump all-kinds.be >all-kinds-be.dump
check "big-endian dump = little-endian dump but for the header" \
    diff <(tail -n +3 all-kinds.dump) <(tail -n +3 all-kinds-be.dump) <<'EOF'
--- exit 0
EOF
check "the big-endian dump says so" sed -n 2p all-kinds-be.dump <<'EOF'
byteorder big
--- exit 0
EOF
smait asm all-kinds-be.dump again.be
check_same "big-endian asm -> dump -> asm is byte-identical" all-kinds.be again.be
smait --byte-order=little asm all-kinds-be.dump relittle.bin
check_same "--byte-order on asm overrides the text's byteorder" all-kinds.bin relittle.bin

# dump -> asm -> cmp from binaries made by hand (not by smait asm): start_trace
# @1000:1000, load 4 0x1000, branch 0x4c18 0x4d20, store 8 0x2000 fp,
# end_trace @2000:2000.
printf '\0\0\x11\x70\0\0\x03\xe8\0\0\x11\x71\0\0\x03\xe8\0\0\x11\x72\0\0\0\0\0\0\x11\x73\0\0\0\0\0\0\x11\x74\0\0\0\0\0\0\x11\x75\0\0\0\0\0\0\0\x40\0\0\x10\0\x80\0\x4c\x18\0\0\x4d\x20\0\0\x01\x81\0\0\x20\0' >hand.be
printf '\0\0\x11\x80\0\0\x07\xd0\0\0\x11\x81\0\0\x07\xd0\0\0\x11\x82\0\0\0\0\0\0\x11\x83\0\0\0\0\0\0\x11\x84\0\0\0\0\0\0\x11\x85\0\0\0\0' >>hand.be
printf '\x70\x11\0\0\xe8\x03\0\0\x71\x11\0\0\xe8\x03\0\0\x72\x11\0\0\0\0\0\0\x73\x11\0\0\0\0\0\0\x74\x11\0\0\0\0\0\0\x75\x11\0\0\0\0\0\0\x40\0\0\0\0\x10\0\0\x18\x4c\0\x80\x20\x4d\0\0\x81\x01\0\0\0\x20\0\0' >hand.le
printf '\x80\x11\0\0\xd0\x07\0\0\x81\x11\0\0\xd0\x07\0\0\x82\x11\0\0\0\0\0\0\x83\x11\0\0\0\0\0\0\x84\x11\0\0\0\0\0\0\x85\x11\0\0\0\0\0\0' >>hand.le
check "dump of a hand-made big-endian file" smait dump hand.be <<'EOF'
# smait dump of hand.be
byteorder big
0: start_trace @1000:1000
6: load 4 0x00001000
7: branch 0x00004c18 0x00004d20
8: store 8 0x00002000 fp
9: end_trace @2000:2000
--- exit 0
EOF
check "dump of the same, little-endian" smait dump hand.le <<'EOF'
# smait dump of hand.le
byteorder little
0: start_trace @1000:1000
6: load 4 0x00001000
7: branch 0x00004c18 0x00004d20
8: store 8 0x00002000 fp
9: end_trace @2000:2000
--- exit 0
EOF
for f in hand.be hand.le; do
    smait dump "$f" >"$f.txt"
    smait asm "$f.txt" "$f.again"
    check_same "dump -> asm of $f is byte-identical" "$f" "$f.again"
done

# A trace set round trip.
smait dump --set run.2 >run.dump
check "asm of a trace set dump" smait asm run.dump copy <<'EOF'
--- exit 0
EOF
check_same "trace set round trip, thread 0" run.2.0 copy.2.0
check_same "trace set round trip, thread 1" run.2.1 copy.2.1

# ---- gzip and standard input --------------------------------------------------------
gzip -n -c all-kinds.bin >all-kinds.gz
gzip -n -c all-kinds.be >all-kinds-be.gz
check "gzip input dumps the same records" \
    diff <(tail -n +2 all-kinds.dump) <(smait dump all-kinds.gz | tail -n +2) <<'EOF'
--- exit 0
EOF
check "big-endian gzip input too" \
    diff <(tail -n +2 all-kinds-be.dump) <(smait dump all-kinds-be.gz | tail -n +2) <<'EOF'
--- exit 0
EOF
check "stat says gzip (and the data size)" bash -c 'smait stat all-kinds-be.gz | sed -n "1,3p;5p;7p"' <<'EOF'
file all-kinds-be.gz
byte_order big
compressed gzip
data_bytes 904
simple_records 113
--- exit 0
EOF
zstd -q -c all-kinds.be >all-kinds-be.zst
check "zstd input dumps the same records; stat says zstd" \
    bash -c 'diff <(tail -n +2 all-kinds-be.dump) <(smait dump all-kinds-be.zst | tail -n +2) && smait stat all-kinds-be.zst | head -3' <<'EOF'
file all-kinds-be.zst
byte_order big
compressed zstd
--- exit 0
EOF
# Concatenated zstd frames (split inside the first call record, a skippable
# frame between them) are one stream, as for zstd -d.
head -c 20 all-kinds.bin | zstd -q -c >frames.zst
printf '\x5e\x2a\x4d\x18\x02\0\0\0xy' >>frames.zst
tail -c +21 all-kinds.bin | zstd -q -c >>frames.zst
STDIN=frames.zst check "concatenated zstd frames, from a pipe" \
    bash -c 'diff <(tail -n +2 all-kinds.dump) <(cat | smait dump - | tail -n +2)' <<'EOF'
--- exit 0
EOF
# Concatenated gzip members (split inside the first call record) are one stream.
head -c 20 all-kinds.bin | gzip -n -c >members.gz
tail -c +21 all-kinds.bin | gzip -n -c >>members.gz
check "concatenated gzip members" \
    diff <(tail -n +2 all-kinds.dump) <(smait dump members.gz | tail -n +2) <<'EOF'
--- exit 0
EOF

STDIN=all-kinds.bin check "dump - reads standard input" \
    bash -c 'smait dump - | head -4' <<'EOF'
# smait dump of -
byteorder little
0: start_trace @1000:1000
6: load 4 0x00001000
--- exit 0
EOF
STDIN=all-kinds-be.gz check "stat - reads gzip from a pipe" \
    bash -c 'cat | smait stat - | sed -n "1,3p;5p;7p"' <<'EOF'
file -
byte_order big
compressed gzip
data_bytes 904
simple_records 113
--- exit 0
EOF
STDIN=all-kinds.dump check "asm - reads the text from standard input" smait asm - stdin.bin <<'EOF'
--- exit 0
EOF
check_same "asm from standard input is byte-identical" all-kinds.bin stdin.bin
gzip -n -c "$D/all-kinds.txt" >all-kinds.txt.gz
smait asm all-kinds.txt.gz from-gz.bin
check_same "asm reads a gzip-compressed text" all-kinds.bin from-gz.bin
smait asm all-kinds.dump - >stdout.bin
check_same "asm to - writes standard output" all-kinds.bin stdout.bin

# ---- options in both spellings ----------------------------------------------------------
check "-byte_order big (the report's spelling)" bash -c 'smait -byte_order big dump all-kinds.be | sed -n 2,3p' <<'EOF'
byteorder big
0: start_trace @1000:1000
--- exit 0
EOF
check "--byte-order big as two words" bash -c 'smait dump --byte-order big all-kinds.be | sed -n 2p' <<'EOF'
byteorder big
--- exit 0
EOF
check "--version" smait --version <<'EOF'
smait (dsmtrace) 0.1.0
--- exit 0
EOF
check "--help starts with the usage" bash -c 'smait --help | head -1' <<'EOF'
Usage: smait dump [options] FILE...      print records as text (several files: a trace set)
--- exit 0
EOF
check "an empty text makes an empty trace (stat warns, as every tool does)" bash -c ': >empty.txt; smait asm empty.txt empty.bin && smait stat empty.bin | sed -n 4,5p' <<'EOF'
simple_records 0
records 0
--- stderr
smait: warning: empty.bin: empty trace (no records)
--- exit 0
EOF
