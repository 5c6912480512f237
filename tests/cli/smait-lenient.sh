# smait-lenient.sh — --lenient: bad records are skipped and counted, the rest
# is read; dump exits 0, stat (a validator) 2; a lenient dump reassembles to
# the cleaned trace. Each skipped record is a warning, at most 10 of a kind
# (then a note), and the warnings end in a line of counts. The traces begin
# with start_trace and end with end_trace (end6), as whole traces do.
head7() { printf 'start_trace @1000:1000\nload 4 0x1000\n'; }
end6() { echo 'end_trace @2000:2000'; }

# A barrier whose part 3 has index 4: the six parts 7..12 are skipped.
{ head7; for i in 0 1 2 4 4 5; do echo "raw 0x0000103$i 0"; done; echo 'store 8 0x2000 fp'; end6; } >index.txt
smait asm index.txt index.bin
check "dump --lenient skips a malformed call record" smait dump --lenient index.bin <<'EOF'
# smait dump of index.bin
byteorder little
0: start_trace @1000:1000
6: load 4 0x00001000
13: store 8 0x00002000 fp
14: end_trace @2000:2000
# lenient: skipped 6 bad simple records, 0 trailing bytes, 0 corrupt compressed streams
--- stderr
smait: warning: index.bin: 56: record 7: malformed call record of type 0x03: part 3 is f1 00001034, expected 00001033; skipped to the next good record
smait: --lenient: 1 bad record skipped
--- exit 0
EOF

# Stray parts before a good call record: only the stray ones are skipped.
{ head7; echo 'raw 0x00001063 0'; echo 'raw 0x00001064 0'; echo 'join @5'; end6; } >stray.txt
smait asm stray.txt stray.bin
check "stray call parts before a good call record" smait dump --lenient stray.bin <<'EOF'
# smait dump of stray.bin
byteorder little
0: start_trace @1000:1000
6: load 4 0x00001000
9: join @5:5
15: end_trace @2000:2000
# lenient: skipped 2 bad simple records, 0 trailing bytes, 0 corrupt compressed streams
--- stderr
smait: warning: stray.bin: 56: record 7: malformed call record: part 3 of call type 0x06 without the parts before it (f1 00001063); skipped to the next good record
smait: --lenient: 1 bad record skipped
--- exit 0
EOF

# An invalid record and a truncated final record in one file.
{ head7; echo 'raw 0x20000020 0'; echo 'load 8 0x3000'; end6; } >two.txt
smait asm two.txt two.bin
printf 'xyz' >>two.bin
check "stat --lenient counts and says valid no" smait stat --lenient two.bin <<'EOF'
file two.bin
byte_order little
compressed no
simple_records 14
records 4
memory 2 load 2 store 0 atomic 0
memory_size 4:1 8:1
memory_register fixed 2 float 0 vector 0
proc_start 0
branch 0
proc_call 0
call 2
call start_trace 1
call end_trace 1
skipped_records 1
truncated_bytes 3
corrupt_streams 0
cut_traces 0
valid no
--- stderr
smait: warning: two.bin: 56: record 7: invalid record kind: bytes 20000020 00000000 (f1 20000020 as little-endian); skipped
smait: warning: two.bin: 120: record 15: truncated final record (file size is not a multiple of 8; 3 bytes left over); dropped
smait: --lenient: 1 bad record skipped, 1 truncated final record dropped
--- exit 2
EOF
check "dump --lenient of the same" smait dump --lenient two.bin <<'EOF'
# smait dump of two.bin
byteorder little
0: start_trace @1000:1000
6: load 4 0x00001000
8: load 8 0x00003000
9: end_trace @2000:2000
# lenient: skipped 1 bad simple records, 3 trailing bytes, 0 corrupt compressed streams
--- stderr
smait: warning: two.bin: 56: record 7: invalid record kind: bytes 20000020 00000000 (f1 20000020 as little-endian); skipped
smait: warning: two.bin: 120: record 15: truncated final record (file size is not a multiple of 8; 3 bytes left over); dropped
smait: --lenient: 1 bad record skipped, 1 truncated final record dropped
--- exit 0
EOF
# The lenient dump reassembles to the trace without the bad bytes.
{ head7; echo 'load 8 0x3000'; end6; } >clean.txt
smait asm clean.txt clean.bin
smait dump --lenient two.bin >two.dump 2>/dev/null
smait asm two.dump cleaned.bin
check_same "a lenient dump reassembles to the cleaned trace" clean.bin cleaned.bin

# A truncated gzip stream: a warning, the records before the cut, a count.
# (good.txt has no end_trace: the stream's warning says already that the
# trace ends early, so no second one says that it is cut.)
head7 >good.txt
smait asm good.txt good.bin
gzip -n -c good.bin >whole.gz
head -c $(( $(file_size whole.gz) - 4 )) whole.gz >cut.gz
check "stat --lenient of a truncated gzip" bash -c 'smait stat --lenient cut.gz | sed -n "3p;5p;7,8p;19,\$p"' <<'EOF'
compressed gzip
data_bytes 56
simple_records 7
records 2
corrupt_streams 1
cut_traces 0
valid no
--- stderr
smait: warning: cut.gz: 56: record 7: compressed stream is truncated (unexpected end of file); the trace is treated as ending here
smait: --lenient: 1 broken compressed stream ended early
--- exit 0
EOF
check "dump --lenient of a truncated gzip" smait dump --lenient cut.gz <<'EOF'
# smait dump of cut.gz
byteorder little
0: start_trace @1000:1000
6: load 4 0x00001000
# lenient: skipped 0 bad simple records, 0 trailing bytes, 1 corrupt compressed streams
--- stderr
smait: warning: cut.gz: 56: record 7: compressed stream is truncated (unexpected end of file); the trace is treated as ending here
smait: --lenient: 1 broken compressed stream ended early
--- exit 0
EOF
check "--lenient does not make a missing file readable" smait stat --lenient missing.bin <<'EOF'
--- stderr
smait: missing.bin: cannot read trace: No such file or directory
--- exit 2
EOF

# ---- a long generated trace with known bad records ----------------------------------------
# 2000 lines from a fixed-seed generator: every record kind, call records of
# every named type, invalid records (raw 0x2.......) and stray call parts.
# --lenient must skip exactly the bad ones, whatever the buffer boundaries.
# Each invalid record is a bad record of its own; a run of stray parts one
# after the other is one (skipped to the next good record): runs counts them.
x=12345
rnd() { x=$(( (x * 1103515245 + 12345) & 0x7fffffff )); r=$(( x >> 8 )); }
bad=0
{
    echo 'start_trace @1:1'
    names=(spawn join barrier begin_order end_order begin_critical end_critical marker read
           write ldcw semop semctl syscall start_trace end_trace type_0x42)
    sizes=(0 1 2 4 8 16 32 64)
    kinds=(load store atomic)
    regs=(fix fp vec)
    for ((i = 0; i < 2000; i++)); do
        rnd
        case $(( r % 10 )) in
        0|1|2|3) rnd; a=$r; rnd
                 echo "${kinds[r % 3]} ${sizes[(r >> 2) % 8]} $a ${regs[(r >> 5) % 3]}" ;;
        4) rnd; echo "proc $r" ;;
        5) rnd; a=$(( r & 0xFFFFFFF )); rnd; echo "branch $a $r" ;;
        6) rnd; a=$(( r & 0xFFFFFFF )); rnd; echo "pcall $a $r" ;;
        7) rnd; echo "${names[r % ${#names[@]}]} $(( r % 97 )) $(( r % 13 )) @$(( r % 1000 )):$(( r % 1000 + 5 ))" ;;
        8) rnd; printf 'raw 0x%08x 7\n' $(( 0x20000000 | (r & 0xFFFFFF) )); bad=$((bad + 1)) ;;
        9) rnd; printf 'raw 0x%08x 0\n' $(( 0x1001 + (r % 5) + 16 * (r % 24) )); bad=$((bad + 1)) ;;
        esac
    done
    echo 'end_trace @3000:3000'
} >gen.txt
# The runs, from the text: an invalid record, or a stray part after
# anything but a stray part.
runs=$(awk '/^raw 0x2/ { n++; prev = 0; next } /^raw 0x0000/ { if (!prev) n++; prev = 1; next } { prev = 0 }
            END { print n }' gen.txt)
check "the generated text assembles" smait asm gen.txt gen.bin <<'EOF'
--- exit 0
EOF
check_status "without --lenient it stops at the first bad record" 2 \
    '^smait: gen\.bin: [0-9]+: record [0-9]+: (invalid record kind: bytes [0-9a-f]{8} 07000000|malformed call record: part [1-5] of call type 0x[0-9a-f]{2} without the parts before it)' \
    smait dump gen.bin
smait dump --lenient gen.bin >gen.dump 2>gen.err
check "--lenient skips exactly the $bad bad records" bash -c 'tail -1 gen.dump' <<EOF
# lenient: skipped $bad bad simple records, 0 trailing bytes, 0 corrupt compressed streams
--- exit 0
EOF
check "10 warnings of the $runs, a note, the count" \
    bash -c 'grep -c "^smait: warning: gen.bin: [0-9]*: record [0-9]*: .*; skipped" gen.err; tail -2 gen.err' <<EOF
10
smait: warning: --lenient: more bad records skipped than the 10 shown: the rest are only counted
smait: --lenient: $runs bad records skipped (10 shown)
--- exit 0
EOF
gzip -n -c gen.bin >gen.gz
check "the same from gzip" bash -c 'smait dump --lenient gen.gz 2>gen-gz.err | tail -n +2 | diff - <(tail -n +2 gen.dump) &&
                                    diff <(sed s/gen.gz/gen.bin/ gen-gz.err) gen.err' <<'EOF'
--- exit 0
EOF
smait asm gen.dump gen-clean.bin
smait dump gen-clean.bin >gen-clean.dump
check "the cleaned trace is valid and dumps the same records" \
    bash -c 'diff <(sed "1d;\$d;s/^[0-9]*: //" gen.dump) <(sed "1d;s/^[0-9]*: //" gen-clean.dump) &&
             smait stat gen-clean.bin | tail -1' <<'EOF'
valid yes
--- exit 0
EOF
check_true "the cleaned trace is $bad records shorter" \
    test $(( $(file_size gen.bin) - $(file_size gen-clean.bin) )) -eq $(( 8 * bad ))
