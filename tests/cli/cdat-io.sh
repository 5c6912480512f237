# cdat-io.sh — cdat's I/O simulation (-handle_io and its options; docs/cdat-io.md,
# and docs/cdat-protocol.md §7 for the I/O processors): golden runs on tiny trace sets
# whose comments derive every transaction and the compared numbers by hand,
# the disk-time arithmetic, waiting and not waiting, the choice of I/O
# processor, bad option values, and random sets with reads and writes
# through the protocol checker (tests/tools/cdat_check.c).
#
# Fixtures: tests/cli/cdat-iosim/NAME.txt (SMAIT text form, assembled here by
# `smait asm`), the machine 2x2.ini (2 nodes x 2 processors, protocol 1, rr1,
# 64-byte lines, 2 banks, two-line caches) and, per golden run LABEL:
#   LABEL.detailed.expected  the whole detailed trace;
#   LABEL.general.expected   every general trace ("== general.N" before each,
#                            the I/O processors' first);
#   LABEL.report.expected    the report's "# io:" and "# directory:" lines,
#                            every line of the I/O processors (RxT-k), RxTx
#                            L05, L10-L12, L14, and each processor's L01, L14.
D=$CLI_DIR/cdat-iosim
. "$CLI_DIR/cdat-io/lib.sh"
M=$D/2x2.ini

for t in raw-read buffered-write blocked distributed disk; do
    check "$t: smait asm" smait asm "$D/$t.txt" "$t" <<'EOT'
--- exit 0
EOT
done

# run LABEL SET OPTION...: cdat -p OPTION... SET 2x2.ini into the directory
# LABEL; the outputs against LABEL.*.expected, and the protocol checker
# holds on the detailed trace and the report's L10/L11 counts.
run() {
    local label=$1 set=$2 f
    shift 2
    rm -rf "$label"
    mkdir "$label"
    # An idle thread's empty trace is a warning naming it.
    local warn="" t
    for ((t = 0; t < ${set##*.}; t++)); do
        [ -s "$set.$t" ] || warn+="cdat: warning: $set.$t: empty trace (no records)"$'\n'
    done
    check "$label: cdat -p $* $set" cdat -p "$@" -o "$label" "$set" "$M" <<EOT
${warn:+--- stderr
$warn}--- exit 0
EOT
    check_file "$label: detailed trace" "$D/$label.detailed.expected" "$label/$set.detailed"
    for f in $(cd "$label" && ls "$set".general.* | sed 's/.*general\.//' | sort -n); do
        echo "== general.$f"
        cat "$label/$set.general.$f"
    done >"$label/general"
    check_file "$label: general traces" "$D/$label.general.expected" "$label/general"
    grep -E '^# (io|directory): |^RxT-[0-9]+L|^RxTxL(0[15]|1[0-24]):|^RxT[0-9]+L(01|14):' \
        "$label/$set.cdat_report" >"$label/report"
    check_file "$label: report lines" "$D/$label.report.expected" "$label/report"
    check "$label: cdat_check holds" "$CDAT_CHECK" --report "$label/$set.cdat_report" "$label/$set.detailed" <<'EOT'
--- exit 0
EOT
}

# ---- the transactions of a raw read and of a buffered write ----------------------------
run raw-read raw-read.4 -handle_io
run buffered-write buffered-write.2 -handle_io -buffered_io
# The checker compares the I/O processors' L10/L11 lines too: a wrong count
# of -1's transactions, or of its inv lines, is found.
sed 's/^RxT-1L10: traffic transactions 16 /RxT-1L10: traffic transactions 15 /' raw-read/raw-read.4.cdat_report >bad1.cdat_report
sed 's/^RxT-1L11: txn 34 inv 4 /RxT-1L11: txn 34 inv 3 /' raw-read/raw-read.4.cdat_report >bad2.cdat_report
check_status "cdat_check finds a wrong RxT-1L10 count" 2 'bad1.cdat_report: line [0-9]+: RxT-1L10: transactions 15, the trace has 16$' \
    "$CDAT_CHECK" --report bad1.cdat_report raw-read/raw-read.4.detailed
check_status "cdat_check finds a wrong RxT-1L11 count" 2 'bad2.cdat_report: line [0-9]+: RxT-1L11: 34 inv 3, the trace has 4$' \
    "$CDAT_CHECK" --report bad2.cdat_report raw-read/raw-read.4.detailed

# ---- waiting for the disk, and not waiting -------------------------------------------
SMALL="-disk_latency 0 -dma_bw 10 -mhz 1 -ipc 1"
# shellcheck disable=SC2086  # the options are words
run blocked blocked.2 -handle_io $SMALL
# shellcheck disable=SC2086
run blocked-asynch blocked.2 -handle_io -asynch_io $SMALL

# ---- which I/O processor -------------------------------------------------------------
run distributed-no distributed.4 -handle_io
run distributed-yes distributed.4 -handle_io -distributed_io

# ---- the disk time -------------------------------------------------------------------
# disk OPTION...: the thread's stop and restart around its read (records 3
# and 4 of its general trace, after "0 … 91" and the load's request at 1)
# and its L14 line.
disk() {
    cdat -p "$@" disk.1 "$M" && sed -n '3,4p' disk.1.general.0 && grep '^RxT0L14' disk.1.cdat_report
}
# Defaults: (10 ms + 1000 B / 20 MB/s) x 180 MHz x 2 = (10000 + 50) µs x 360
# = 3618000: stops at 1, resumes at 3618001.
check "disk time, defaults: 3618000" disk -handle_io <<'EOT'
1 0 92 0 0 0 0 0 -1
3618001 0 91 0 0 0 0 0 -1
RxT0L14: cpu active 1 idle 3618000 utilization 0.00%
--- exit 0
EOT
# -dma_bw 3 -disk_latency 0 -ipc 1 -mhz 1: 1000 / 3 = 333.33 µs x 1 → 334
# (the fraction of an instruction rounded up).
check "disk time, 1000 B at 3 MB/s, 1 MHz, ipc 1, no latency: 334 (rounded up)" \
    disk -handle_io -dma_bw 3 -disk_latency 0 -ipc 1 -mhz 1 <<'EOT'
1 0 92 0 0 0 0 0 -1
335 0 91 0 0 0 0 0 -1
RxT0L14: cpu active 1 idle 334 utilization 0.30%
--- exit 0
EOT
# -dma_bw 7 -disk_latency 1 -ipc 3 -mhz 100: 300 instructions per µs;
# 1000 µs x 300 = 300000; 1000 B x 300 / 7 = 42857.14 → 42858; 342858.
check "disk time, 7 MB/s, 1 ms, ipc 3, 100 MHz: 342858" \
    disk -handle_io -dma_bw 7 -disk_latency 1 -ipc 3 -mhz 100 <<'EOT'
1 0 92 0 0 0 0 0 -1
342859 0 91 0 0 0 0 0 -1
RxT0L14: cpu active 1 idle 342858 utilization 0.00%
--- exit 0
EOT
# The pseudo clock may not pass 2^51 = 2251799813685248 (docs/cdat-io.md §4).
# The largest values: 10^6 ms = 10^9 µs x 10^5 MHz x 1000 = 10^17, and
# 1000 B x 10^8 / 1 MB/s = 10^11: one wait of 100000100000000000 cycles from
# clock 1 would pass it: refused at the read (record 1, offset 8), in thread
# and slice mode, with nothing written. (Before, the clock went on from
# there and wrapped after a few reads.)
LIMIT_MSG="the pseudo clock past its limit of 2^51 = 2251799813685248 (a smaller -disk_latency, -mhz or -ipc or a larger -dma_bw shortens the waits)"
refused "disk time, the largest option values: past the clock's limit at the first read" \
    cdat -p -handle_io -dma_bw 1 -disk_latency 1000000 -ipc 1000 -mhz 100000 disk.1 "$M" <<EOT
--- stderr
cdat: disk.1.0: 8: record 1: the disk wait of 100000100000000000 cycles at clock 1 would take $LIMIT_MSG
--- exit 2
EOT
refused "the same in slice mode (-i 1)" \
    cdat -i 1 -handle_io -dma_bw 1 -disk_latency 1000000 -ipc 1000 -mhz 100000 disk.1 "$M" <<EOT
--- stderr
cdat: disk.1.0: 8: record 1: the disk wait of 100000100000000000 cycles at clock 1 would take $LIMIT_MSG
--- exit 2
EOT
# Waits add up to the limit: -disk_latency 1000000 -mhz 100000 -ipc 10:
# 10^9 µs x 10^6 = 10^15, plus 1000 B x 10^6 / 20 MB/s = 5 x 10^7: each read
# waits D = 1000000050000000. A load (clock 1), then reads at records 1, 7,
# 13: the first two end at 1 + D and 1 + 2D = 2000000100000001 < 2^51; the
# third would end at 1 + 3D = 3000000150000001 > 2^51: refused at record 13
# (offset 104), waiting from clock 2000000100000001.
printf 'threads 1\nthread 0\nload 4 0x1000\nread 0x1000 1000 3\nread 0x1000 1000 3\n' >reads2.txt
printf 'threads 1\nthread 0\nload 4 0x1000\nread 0x1000 1000 3\nread 0x1000 1000 3\nread 0x1000 1000 3\n' >reads3.txt
smait asm reads2.txt reads2 && smait asm reads3.txt reads3
BIG="-handle_io -disk_latency 1000000 -mhz 100000 -ipc 10"
check "two waits of 10^15 cycles: clocks up to 2000000100000001" \
    bash -c 'cdat -p '"$BIG"' reads2.1 "$0" && sed -n "3,6p" reads2.1.general.0 && grep "^RxT0L14" reads2.1.cdat_report' \
    "$M" <<'EOT'
1 0 92 0 0 0 0 0 -1
1000000050000001 0 91 0 0 0 0 0 -1
1000000050000001 0 92 0 0 0 0 0 -1
2000000100000001 0 91 0 0 0 0 0 -1
RxT0L14: cpu active 1 idle 2000000100000000 utilization 0.00%
--- exit 0
EOT
# shellcheck disable=SC2086  # the options are words
refused "a third wait would pass the limit: refused at record 13" cdat -p $BIG reads3.1 "$M" <<EOT
--- stderr
cdat: reads3.1.0: 104: record 13: the disk wait of 1000000050000000 cycles at clock 2000000100000001 would take $LIMIT_MSG
--- exit 2
EOT
# Slice mode: the process gives the processor up at each read and takes it
# back when the read ends, so the third read is again at 2000000100000001.
# shellcheck disable=SC2086
refused "the same in slice mode (-i 1)" cdat -i 1 $BIG reads3.1 "$M" <<EOT
--- stderr
cdat: reads3.1.0: 104: record 13: the disk wait of 1000000050000000 cycles at clock 2000000100000001 would take $LIMIT_MSG
--- exit 2
EOT
# -disk_latency 0 is allowed: 1000 B / 20 MB/s = 50 µs x 360 = 18000.
check "-disk_latency 0: the transfer alone, 18000" disk -handle_io -disk_latency 0 <<'EOT'
1 0 92 0 0 0 0 0 -1
18001 0 91 0 0 0 0 0 -1
RxT0L14: cpu active 1 idle 18000 utilization 0.01%
--- exit 0
EOT
# GNU spellings, the same run as the 342858 one.
check "GNU spellings: --handle-io --dma-bw=7 --disk-latency=1 --ipc=3 --mhz 100" \
    bash -c 'cdat -p --handle-io --dma-bw=7 --disk-latency=1 --ipc=3 --mhz 100 disk.1 "$0" &&
             grep -E "^# io|^RxT0L14" disk.1.cdat_report' "$M" <<'EOT'
# io: handle_io yes buffered_io no asynch_io no distributed_io no io_processors 1 dma_bw 7 disk_latency 1 ipc 3 mhz 100
RxT0L14: cpu active 1 idle 342858 utilization 0.00%
--- exit 0
EOT
check "GNU spellings: --buffered-io --asynch-io --distributed-io" \
    bash -c 'cdat -p --handle-io --buffered-io --asynch-io --distributed-io disk.1 "$0" &&
             grep -E "^# io" disk.1.cdat_report' "$M" <<'EOT'
# io: handle_io yes buffered_io yes asynch_io yes distributed_io yes io_processors 2 dma_bw 20 disk_latency 10 ipc 2 mhz 180
--- exit 0
EOT
# Without -handle_io, reads and writes are only counted by the scheduler: no
# I/O processor, no wait, no L05, no general.-1.
check "without -handle_io: no I/O processor, no wait" \
    bash -c 'rm -f disk.1.general.*; cdat -p disk.1 "$0" && grep -E "^# io|^RxT0L14|L05" disk.1.cdat_report;
             ls disk.1.general.*' "$M" <<'EOT'
# io: handle_io no
RxT0L14: cpu active 1 idle 0 utilization 100.00%
disk.1.general.0
disk.1.general.1
disk.1.general.2
disk.1.general.3
--- exit 0
EOT

# ---- edges of a buffer ----------------------------------------------------------------------
printf 'threads 1\nthread 0\nread 0x3000 0 3\nwrite 0xffffffc8 200 4\n' >edge.txt
smait asm edge.txt edge
# A read of 0 bytes: no request, no wait. The write at 0xffffffc8 is cut at
# 2^32: 56 bytes, one line (0xffffffc0 = 4294967232, page 0xfffff: home node
# 1, bank 1): [05, 11] at clock 0, remote memory for -1 on node 0;
# (10000 + 2.8 µs) x 360 = 3601008.
check "a 0-byte read does nothing; a buffer past 2^32 is cut there" \
    bash -c 'cdat -p -handle_io edge.1 "$0" && cat edge.1.detailed && grep -E "^RxT0L14|^RxT-1L05" edge.1.cdat_report' \
    "$M" <<'EOT'
0 4294967232 05 -1 0 1 1
0 4294967232 11 1 1 -1 0
RxT0L14: cpu active 0 idle 3601008 utilization 0.00%
RxT-1L05: io requests 1 local 0 0.00% remote 1 100.00% local_memory 0 0.00% local_cache 0 0.00% remote_memory 1 100.00% remote_cache 0 0.00%
--- exit 0
EOT
# A buffered read of 70000 bytes goes through the 64 KiB kernel buffer in two
# pieces: 65536 B (1024 lines) then 4464 B (70 lines, 69.75 rounded up):
# 1094 write_purges; the copy moves 8 bytes an access: 70000 / 8 = 8750
# loads and 8750 stores (17500 data references of P0).
printf 'threads 1\nthread 0\nread 0x20000 70000 3\n' >big.txt
smait asm big.txt big
check "a buffered read larger than the kernel buffer: two pieces" \
    bash -c 'cdat -p -handle_io -buffered_io big.1 "$0" && grep -E "^RxT0L01|^RxT-1L05" big.1.cdat_report | cut -d" " -f1-4' \
    "$M" <<'EOT'
RxT0L01: data refs 17500
RxT-1L05: io requests 1094
--- exit 0
EOT
check "the buffered read: cdat_check holds" "$CDAT_CHECK" --report big.1.cdat_report big.1.detailed <<'EOT'
--- exit 0
EOT

# ---- -max_io_bytes: the largest transfer one call may ask for --------------------------------
# One request per line of the buffer: a call of 2^32 bytes would be 2^26
# requests on 64-byte lines (45 s and 6 GB before). A transfer larger than
# -max_io_bytes (default 64 MiB = 67108864) is refused: exit 2, the record
# named, nothing written. The size is the buffer's after the cut at 2^32.
printf 'threads 1\nthread 0\nload 4 0x1000\nread 0x1000 67108865 3\n' >huge.txt
printf 'threads 1\nthread 0\nread 0x0 4294967295 3\n' >whole.txt
printf 'threads 1\nthread 0\nload 4 0x1000\nread 0x2000 128 3\nwrite 0x3000 129 4\n' >lim.txt
printf 'threads 1\nthread 0\nwrite 0xffffffc8 4294967295 4\n' >top.txt
for t in huge whole lim top; do smait asm $t.txt $t; done
refused "a read of 64 MiB + 1 byte: more than the default -max_io_bytes" cdat -p -handle_io huge.1 "$M" <<'EOT'
--- stderr
cdat: huge.1.0: 8: record 1: a file read of 67108865 bytes at 0x00001000: more than -max_io_bytes allows (67108864; -handle_io simulates one request per line of the buffer); a larger -max_io_bytes, up to 4294967296, lets it through
--- exit 2
EOT
refused "a read of the whole address space: refused at once" cdat -p -handle_io whole.1 "$M" <<'EOT'
--- stderr
cdat: whole.1.0: 0: record 0: a file read of 4294967295 bytes at 0x00000000: more than -max_io_bytes allows (67108864; -handle_io simulates one request per line of the buffer); a larger -max_io_bytes, up to 4294967296, lets it through
--- exit 2
EOT
refused "the same in slice mode, and with -asynch_io (the requests are still made)" \
    bash -c 'cdat -i 1 -handle_io huge.1 "$0"; cdat -p -handle_io -asynch_io huge.1 "$0"' "$M" <<'EOT'
--- stderr
cdat: huge.1.0: 8: record 1: a file read of 67108865 bytes at 0x00001000: more than -max_io_bytes allows (67108864; -handle_io simulates one request per line of the buffer); a larger -max_io_bytes, up to 4294967296, lets it through
cdat: huge.1.0: 8: record 1: a file read of 67108865 bytes at 0x00001000: more than -max_io_bytes allows (67108864; -handle_io simulates one request per line of the buffer); a larger -max_io_bytes, up to 4294967296, lets it through
--- exit 2
EOT
# -max_io_bytes 128: the read of 128 bytes (2 lines: 2 write_purges) goes
# through, the write of 129 bytes is refused (record 7, offset 56).
refused "-max_io_bytes 128: a write of 129 bytes is refused" cdat -p -handle_io -max_io_bytes 128 lim.1 "$M" <<'EOT'
--- stderr
cdat: lim.1.0: 56: record 7: a file write of 129 bytes at 0x00003000: more than -max_io_bytes allows (128; -handle_io simulates one request per line of the buffer); a larger -max_io_bytes, up to 4294967296, lets it through
--- exit 2
EOT
# --max-io-bytes=129: both go through: 2 write_purges and 3 read_currents.
check "--max-io-bytes=129: both go through (2 + 3 requests)" \
    bash -c 'cdat -p -handle_io --max-io-bytes=129 lim.1 "$0" && grep -E "^RxT-1L05" lim.1.cdat_report | cut -d" " -f1-4' \
    "$M" <<'EOT'
RxT-1L05: io requests 5
--- exit 0
EOT
# A write of 4294967295 bytes at 0xffffffc8 is cut at 2^32 to 56 bytes: one
# read_current, within the default limit.
check "a buffer cut at 2^32 counts its bytes after the cut (56)" \
    bash -c 'cdat -p -handle_io top.1 "$0" && grep -E "^RxT-1L05" top.1.cdat_report | cut -d" " -f1-4' \
    "$M" <<'EOT'
RxT-1L05: io requests 1
--- exit 0
EOT

# ---- --help ------------------------------------------------------------------------------------
check "--help names every I/O option in both spellings" bash -c '
    help=$(cdat --help)
    for o in --handle-io --buffered-io --asynch-io --distributed-io --dma-bw --disk-latency --ipc --mhz --max-io-bytes; do
        grep -qe " $o" <<<"$help" || echo "missing: $o"
    done' <<'EOT'
--- exit 0
EOT

# ---- bad option values: exit 1, a message, nothing written ------------------------------------
# bad NAME MESSAGE OPTION...: the run is refused with exactly MESSAGE (and
# the --help hint), exit 1, and no file changes.
bad() {
    local name=$1 msg=$2
    shift 2
    printf -- "--- stderr\ncdat: %s\ncdat: try 'cdat --help'\n--- exit 1\n" "$msg" |
        refused "$name" cdat -p "$@" disk.1 "$M"
}
bad "-dma_bw 0" "option -dma_bw: 0 is out of range (1..1000000 MB/s)" -handle_io -dma_bw 0
bad "--dma-bw=1000001" "option --dma-bw=1000001: 1000001 is out of range (1..1000000 MB/s)" -handle_io --dma-bw=1000001
bad "-dma_bw: 20 digits (overflow)" \
    "option -dma_bw: 99999999999999999999 is out of range (1..1000000 MB/s)" -handle_io -dma_bw 99999999999999999999
bad "-dma_bw 2.5" "option -dma_bw: '2.5' is not a whole number of MB/s" -handle_io -dma_bw 2.5
bad "-dma_bw -1" "option -dma_bw: '-1' is not a whole number of MB/s" -handle_io -dma_bw -1
bad "-mhz 0" "option -mhz: 0 is out of range (1..100000 MHz)" -handle_io -mhz 0
bad "-ipc 0" "option -ipc: 0 is out of range (1..1000 instructions per cycle)" -handle_io -ipc 0
bad "-disk_latency 1000001" "option -disk_latency: 1000001 is out of range (0..1000000 ms)" -handle_io -disk_latency 1000001
bad "-disk_latency ''" "option -disk_latency: an empty value (a whole number is expected)" -handle_io -disk_latency ''
bad "-buffered_io without -handle_io" "option -buffered_io works only with -handle_io" -buffered_io
bad "-asynch_io without -handle_io" "option -asynch_io works only with -handle_io" -asynch_io
bad "-distributed_io without -handle_io" "option -distributed_io works only with -handle_io" -distributed_io
bad "-dma_bw 20 without -handle_io" "option -dma_bw works only with -handle_io" -dma_bw 20
bad "-disk_latency without -handle_io" "option -disk_latency works only with -handle_io" -disk_latency 10
bad "-ipc without -handle_io" "option -ipc works only with -handle_io" -ipc 2
bad "-mhz without -handle_io" "option -mhz works only with -handle_io" -mhz 180
bad "-max_io_bytes 0" "option -max_io_bytes: 0 is out of range (1..4294967296 bytes)" -handle_io -max_io_bytes 0
bad "--max-io-bytes=4294967297" "option --max-io-bytes=4294967297: 4294967297 is out of range (1..4294967296 bytes)" \
    -handle_io --max-io-bytes=4294967297
bad "-max_io_bytes without -handle_io" "option -max_io_bytes works only with -handle_io" -max_io_bytes 100

# ---- random sets with reads and writes through the protocol checker ------------------------
# The sets of cdat-protocol-check.sh (tests/cli/cdat-check/randset.awk) with
# a read or write before about 3% of the records (iorand.awk), on a 4x2
# machine with small caches and interconnect caches, first_touch placement,
# every protocol, three I/O option sets. The I/O sequences seen must include
# every row of docs/cdat-protocol.md §7, so the checker checked them all.
io_forms() {    # DETAILED: the form of each I/O sequence, "05 31 56 11", "06 34+ 53+ 14"
    awk '$3 ~ /^0[1-6]$|^2[13]$/ { if (f != "") print f; f = ""; io = $4 < 0; last = "" }
         io { c = $3; if (c == "34" || c == "53") { if (c == last) next; c = c "+" }
              f = f (f == "" ? "" : " ") c; last = $3 }
         END { if (f != "") print f }' "$1"
}
awk -v seed=21 -v threads=8 -v n=600 -f "$CLI_DIR/cdat-check/randset.awk" |
    awk -v seed=3 -v pct=3 -f "$D/iorand.awk" >rio.txt
smait asm rio.txt rio
: >forms.txt
for protocol in 1 2 3 4 5 6 7 8; do
    {
        printf '[system]\nnodes = 4\nprocs_per_node = 2\nbanks_per_node = 2\nprotocol = %s\n' "$protocol"
        printf 'allocation = first_touch\n[output]\ndetailed = 1\ngeneral = 1\n'
        printf '[dcache]\nsize = 1K\nassoc = 2\n[icache]\nsize = 512\nassoc = 2\n[interconnect_cache]\nsize = 1K\nassoc = 2\n'
    } >m.ini
    for opts in "" "-buffered_io -distributed_io" "-asynch_io -buffered_io"; do
        check "random set, protocol $protocol, -handle_io $opts: cdat_check holds" \
            bash -c 'cdat -p -q -handle_io '"$opts"' rio.8 m.ini && "$0" --report rio.8.cdat_report rio.8.detailed' \
            "$CDAT_CHECK" <<'EOT'
--- exit 0
EOT
        io_forms rio.8.detailed >>forms.txt
    done
done
check "the random runs show every I/O sequence of docs/cdat-protocol.md §7" \
    bash -c 'sort -u forms.txt | grep -E "^0[56] "' <<'EOT'
05 11
05 31 54 11
05 31 55 11
05 31 56 11
06 14
06 34+ 53+ 14
--- exit 0
EOT
