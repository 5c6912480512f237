# slice.sh — slice mode (docs/scheduler.md §13, `-i p`): the traces are processes run on p
# processors. One golden `smait schedule` per rule — the same scheduler
# drives ciat and cdat — then the reports' per-processor lines and the
# slice-mode option errors.
#
# Inputs are trace sets in text form, tests/cli/slice/NAME.txt; each opens
# with a comment that derives its expected schedule by hand.
D=$CLI_DIR/slice

# sched NAME EXPECTED [OPTIONS...]: assemble NAME.txt (the first time), then
# compare `smait schedule OPTIONS NAME.P` with EXPECTED.expected.
sched() {
    local name=$1 exp=$2 p
    shift 2
    p=$(awk '$1 == "threads" { print $2; exit }' "$D/$name.txt")
    if [ ! -e "$name.$p.0" ]; then
        check "asm $name.txt" smait asm "$D/$name.txt" "$name" <<'EOT'
--- exit 0
EOT
    fi
    golden "$exp: smait schedule${*:+ $*} $name.$p" "$D/$exp.expected" smait schedule "$@" "$name.$p"
}

# ---- the Scheduler ---------------------------------------------------------------
sched alternate alternate -i 1              # two processes alternating on semop, one processor
sched three three -i 2                      # rule (b) holds a processor idle; a process migrates
sched three three-affinity -i 2 -a          # -a: it waits for its own processor instead
sched three three-affinity -i 2 --affinity
sched preempt preempt -i 1 -s 4             # a long slice swapped out twice and resumed
sched preempt preempt -i 1 --slice-length=4
sched preempt preempt-keep -i 1 -k          # -k: never swapped out
sched preempt preempt-long -i 1             # default -s 20000: no swap-out, as -k here
sched preempt preempt-long -i 1 -s 18446744073709551615  # -s 2^64-1: the swap-out clock saturates
sched rr rr -i 2 -s 2 -rr_interleaving      # round robin: i mod p, 2 instructions a turn
sched rr rr-max -i 2 -s 18446744073709551615 -rr_interleaving  # turns never end
sched swap-stays swap-stays -i 2 -s 4       # a swap-out does not wake the idle processor
sched wrap wrap -i 1                        # 32-bit time stamps: steps of 2^31 forward, wraps, steps back

# Call traces give the slices their times (T1's loads move after all of T0's).
check "asm preempt-calls.txt" smait asm "$D/preempt-calls.txt" preempt-calls <<'EOT'
--- exit 0
EOT
golden "preempt-calls: smait schedule -i 1 -s 4 preempt-calls.2 preempt.2" "$D/preempt-calls.expected" \
    smait schedule -i 1 -s 4 preempt-calls.2 preempt.2

# ---- ciat in slice mode: per-trace figures, per-processor L09 -------------------------
check "ciat -i 2 three.3" ciat -q -i 2 three.3 <<'EOT'
--- exit 0
EOT
golden "ciat -i 2: L09 per processor, then Tx" "$D/three-ciat.expected" \
    grep -E '^#( slice_mode)|^R[x1]T.L0[069]|^R[x1]TxL00' three.3.ciat_report
check "ciat -i 2 -a three.3" ciat -q -i 2 -a three.3 <<'EOT'
--- exit 0
EOT
golden "ciat -i 2 -a: the processors' figures change, the processes' do not" "$D/three-ciat-affinity.expected" \
    grep -E '^#( slice_mode)|^R[x1]T.L0[069]|^R[x1]TxL00' three.3.ciat_report

# ---- option errors: exit 1, nothing written ---------------------------------------------
check "-a without -i" smait schedule -a three.3 <<'EOT'
--- stderr
smait: -a is a slice-mode option: give -i P (the number of processors)
smait: try 'smait --help'
--- exit 1
EOT
check "-rr_interleaving without -i" ciat -rr_interleaving three.3 <<'EOT'
--- stderr
ciat: -rr_interleaving is a slice-mode option: give -i P (the number of processors)
ciat: try 'ciat --help'
--- exit 1
EOT
check "-s without -i" ciat -s 10 three.3 <<'EOT'
--- stderr
ciat: -s is a slice-mode option: give -i P (the number of processors)
ciat: try 'ciat --help'
--- exit 1
EOT
check "-k and -s" ciat -i 2 -k -s 10 three.3 <<'EOT'
--- stderr
ciat: -k (never swap out) and -s (swap out after V instructions) contradict each other
ciat: try 'ciat --help'
--- exit 1
EOT
check "-k with -rr_interleaving" ciat -i 2 -k -rr_interleaving three.3 <<'EOT'
--- stderr
ciat: -k has no effect with -rr_interleaving, which switches processes every -s instructions
ciat: try 'ciat --help'
--- exit 1
EOT
check "-p with -i" ciat -i 2 -p three.3 <<'EOT'
--- stderr
ciat: -p is for thread mode; slice mode (-i) has no spawn or join
ciat: try 'ciat --help'
--- exit 1
EOT
check "-s 0" ciat -i 2 -s 0 three.3 <<'EOT'
--- stderr
ciat: option -s: 0 is out of range (at least 1)
ciat: try 'ciat --help'
--- exit 1
EOT
check "-i 0" ciat -i 0 three.3 <<'EOT'
--- stderr
ciat: option -i: 0 is out of range (1..4096)
ciat: try 'ciat --help'
--- exit 1
EOT
printf -- '-\n' > stdin.list
check "standard input with -i" ciat -i 1 -t stdin.list <<'EOT'
--- stderr
ciat: slice mode reads each trace twice (once ahead, to find where its slices end): standard input ('-') cannot be used with -i
ciat: try 'ciat --help'
--- exit 1
EOT
check_true "no report after the errors" test ! -e stdin.list.ciat_report

# ---- cdat in slice mode: a disk read frees the processor (io-block.txt) -------------------
check "asm io-block.txt" smait asm "$D/io-block.txt" io-block <<'EOT'
--- exit 0
EOT
sed 's/^general = 0 /general = 1 /' "$CLI_DIR/../../configs/1x1.ini" > g1.ini
IO="-handle_io -disk_latency 0 -dma_bw 4 -mhz 1 -ipc 1"
check "cdat -i 1 $IO io-block.2" cdat -q -i 1 $IO io-block.2 g1.ini <<'EOT'
--- exit 0
EOT
golden "cdat -i 1: per-process L01, I/O processor L05, per-processor L14" "$D/io-block-cdat.expected" \
    grep -E '^# (slice_mode|mapping)|^R[x1]T[-0-9x]+L(00|01|05|14):' io-block.2.cdat_report
golden "cdat -i 1: P0's general trace: idle from 6 to 17 while T0 waits for the disk" \
    "$D/io-block-general.expected" cat io-block.2.general.0
# io-stays.txt: a disk wait on P1 does not wake the idle P0; T1 comes back on P1.
check "asm io-stays.txt" smait asm "$D/io-stays.txt" io-stays <<'EOT'
--- exit 0
EOT
sed 's/^procs_per_node = 1 /procs_per_node = 2 /' g1.ini > g2.ini
check "cdat -i 2 $IO io-stays.2" cdat -q -i 2 $IO io-stays.2 g2.ini <<'EOT'
--- exit 0
EOT
golden "cdat -i 2: the idle P0 stays idle while T1 waits for the disk" "$D/io-stays-cdat.expected" \
    grep -E '^# (slice_mode|mapping)|^R[x1]T[-0-9x]+L(00|01|05|14):' io-stays.2.cdat_report
golden "cdat -i 2: T1 comes back on P1 (general traces of P0, P1, -1)" "$D/io-stays-general.expected" \
    tail -n +1 io-stays.2.general.0 io-stays.2.general.1 io-stays.2.general.-1
check "cdat -i 2 on a 1-processor machine" cdat -q -i 2 io-block.2 g1.ini <<'EOT'
--- stderr
cdat: g1.ini: -i 2 but the machine has 1 processor: map slice-mode processor 1 (and every one from 1 on) in [mapping], or give -i 1 or less
--- exit 2
EOT

# ---- bad input in slice mode: the look-ahead reader meets it first; same message, exit 2, no report ----
cp alternate.2.0 bad.2.0 && cp alternate.2.1 bad.2.1 && printf '\x00\x00\x00\x20\x00\x10\x00\x00' >> bad.2.1
check "an invalid record, thread mode (-p)" ciat -q -p bad.2 <<'EOT'
--- stderr
ciat: bad.2.1: 216: record 27: invalid record kind: bytes 00000020 00100000 (f1 20000000 as little-endian); it is valid as big-endian: try --byte-order=big
--- exit 2
EOT
check "the same record in slice mode: the same message" ciat -q -i 1 bad.2 <<'EOT'
--- stderr
ciat: bad.2.1: 216: record 27: invalid record kind: bytes 00000020 00100000 (f1 20000000 as little-endian); it is valid as big-endian: try --byte-order=big
--- exit 2
EOT
check "cdat in slice mode: the same" cdat -q -i 1 bad.2 g1.ini <<'EOT'
--- stderr
cdat: bad.2.1: 216: record 27: invalid record kind: bytes 00000020 00100000 (f1 20000000 as little-endian); it is valid as big-endian: try --byte-order=big
--- exit 2
EOT
check_true "no report, no general trace left" test ! -e bad.2.ciat_report -a ! -e bad.2.cdat_report -a ! -e bad.2.general.0
check "--lenient in slice mode: skipped once, not once per reader" bash -c 'ciat -q -i 1 --lenient bad.2 2>&1; grep "^# bad_input" bad.2.ciat_report' <<'EOT'
ciat: warning: bad.2.1: 216: record 27: invalid record kind: bytes 00000020 00100000 (f1 20000000 as little-endian); it is valid as big-endian: try --byte-order=big; skipped
ciat: --lenient: 1 bad record skipped
# bad_input: skipped_records 1 truncated_bytes 0 unpaired_calls 0 corrupt_streams 0
--- exit 0
EOT
