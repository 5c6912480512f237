# ciat-bad-input.sh — bad input (formats/SMAIT.md §12, docs/trace-sets.md,
# docs/scheduler.md §8, README.md "Exit status and messages"): exit status 2,
# a message naming the file (offset, record) and the reason, no output file
# written — no .ciat_report, .memory or .ciat_events, no temporary *.tmp.*
# file — and the outputs of an earlier good run of the same prefix stay
# byte-for-byte as they were.
D=$CLI_DIR/ciat
. "$D/lib.sh"

# A good set (2 threads: a producer, a consumer) and its outputs.
cat >good.txt <<'EOF'
threads 2
thread 0
spawn region=1 threads=2 @1:2
store 4 0x100
barrier var=0x8000 threads=2 @3:5
join @6:7
thread 1
barrier var=0x8000 threads=2 @3:5
load 4 0x100
join @6:7
EOF

# earlier PREFIX: assemble good.txt as PREFIX.2, run ciat -ciat_events on it
# and keep copies of its three outputs in saved/.
earlier() {
    rm -rf saved "$1".2.*
    mkdir saved
    smait asm good.txt "$1"
    ciat -ciat_events "$1.2" || echo "the good run failed"
    cp "$1.2.ciat_report" "$1.2.memory" "$1.2.ciat_events" saved/
}
# kept NAME PREFIX: the earlier outputs are unchanged and no temporary file
# was left behind.
kept() {
    local f
    for f in ciat_report memory ciat_events; do
        check_same "$1: the earlier .$f is unchanged" "saved/$2.2.$f" "$2.2.$f"
    done
    no_outputs "$1: no temporary file left" . "no-such-prefix"
}

# ---- inconsistent traces (deadlock) -------------------------------------------------
# Thread 0 waits at barrier 0x8000, thread 1 at 0x8004; each wants both.
earlier dl
cat >dl.txt <<'EOF'
threads 2
thread 0
spawn region=1 threads=2
store 4 0x100
barrier var=0x8000 threads=2
join
thread 1
load 4 0x100
barrier var=0x8004 threads=2
join
EOF
smait asm dl.txt dl
check "deadlock: exit 2, every blocked thread named" ciat -ciat_events dl.2 <<'EOF'
--- stderr
ciat: inconsistent traces: no thread can run (deadlock) in phase 2; blocked threads:
  thread 0 (dl.2.0) waits for barrier 0x00008000 at record 7, clock 1
  thread 1 (dl.2.1) waits for barrier 0x00008004 at record 1, clock 1
--- exit 2
EOF
kept "deadlock" dl
# With --lenient the deadlock is released, counted, and the run completes.
check "deadlock with --lenient: a warning, exit 0" ciat --lenient dl.2 <<'EOF'
--- stderr
ciat: warning: inconsistent traces: deadlock in phase 2; blocked threads released
ciat: --lenient: 1 deadlock released
--- exit 0
EOF
check "… and the count in the header" grep '^# scheduler' dl.2.ciat_report <<'EOF'
# scheduler: deadlocks_released 1 bad_unlocks 0 unprocessed_records 0
--- exit 0
EOF

# An end of a critical section the thread does not hold.
earlier bu
printf 'threads 2\nthread 0\nload 4 0x100\nend_critical lock=0x9000\nthread 1\nload 4 0x200\n' >bu.txt
smait asm bu.txt bu
check "end of a critical section not held: exit 2" ciat -ciat_events -p bu.2 <<'EOF'
--- stderr
ciat: bu.2.0: 8: record 1: thread 0 ends a critical section on lock 0x00009000 that it does not hold (not held)
--- exit 2
EOF
kept "bad unlock" bu

# ---- bad records ---------------------------------------------------------------------------
earlier inv
printf 'threads 2\nthread 0\nload 4 0x100\nraw 0xffffffff 0\nload 4 0x104\nthread 1\nload 4 0x200\n' >inv.txt
smait asm inv.txt inv
check "invalid record kind: exit 2, file, offset, record, bytes" ciat -ciat_events -p inv.2 <<'EOF'
--- stderr
ciat: inv.2.0: 8: record 1: invalid record kind: bytes ffffffff 00000000 (f1 ffffffff as little-endian)
--- exit 2
EOF
kept "invalid record" inv

earlier mal
printf 'threads 2\nthread 0\nload 4 0x100\nthread 1\nload 4 0x200\nraw 0x00001032 0x8000\n' >mal.txt
smait asm mal.txt mal
check "malformed call record: exit 2" ciat -ciat_events -p mal.2 <<'EOF'
--- stderr
ciat: mal.2.1: 8: record 1: malformed call record: part 2 of call type 0x03 without the parts before it (f1 00001032)
--- exit 2
EOF
kept "malformed call record" mal

earlier tr
printf 'abc' >>tr.2.1
check "truncated file (size not a multiple of 8): exit 2" ciat -ciat_events tr.2 <<'EOF'
--- stderr
ciat: tr.2.1: 104: record 13: truncated final record (file size is not a multiple of 8; 3 bytes left over)
--- exit 2
EOF
kept "truncated file" tr

earlier gz
gzip -n -c gz.2.0 | head -c 30 >gz.2.0.gz
mv gz.2.0.gz gz.2.0
check "truncated gzip stream: exit 2" ciat -ciat_events gz.2 <<'EOF'
--- stderr
ciat: gz.2.0: 0: record 0: corrupt compressed stream: compressed stream is truncated (unexpected end of file)
--- exit 2
EOF
kept "truncated gzip stream" gz

earlier zs
zstd -q -c --check zs.2.1 | head -c 30 >zs.2.1.zst
rm zs.2.1
check "truncated zstd stream (file zs.2.1.zst): exit 2" ciat -ciat_events zs.2 <<'EOF'
--- stderr
ciat: zs.2.1.zst: 0: record 0: corrupt compressed stream: compressed stream is truncated (unexpected end of file)
--- exit 2
EOF
kept "truncated zstd stream" zs

# ---- missing and unreadable files ----------------------------------------------------------------
earlier ms
rm ms.2.1
check "a missing trace file: exit 2" ciat -ciat_events ms.2 <<'EOF'
--- stderr
ciat: ms.2.1: cannot read trace: No such file or directory (tried ms.2.1, ms.2.1.gz and ms.2.1.zst)
--- exit 2
EOF
kept "missing trace file" ms

# A trace of a set may be named P.k, P.k.gz (as gzip leaves it) or P.k.zst;
# under two names it is refused: they may hold different traces.
earlier cn
gzip -n cn.2.1
zstd -q --rm cn.2.0
check "a set of a .zst and a .gz file: the same report as plain" \
    bash -c 'ciat -ciat_events cn.2 && grep -v "^#" cn.2.ciat_report >got && grep -v "^#" saved/cn.2.ciat_report >want && cmp want got && cmp saved/cn.2.ciat_events cn.2.ciat_events && grep "^# trace [01]" cn.2.ciat_report' <<'EOF'
# trace 0: cn.2.0.zst (little-endian, zstd)
# trace 1: cn.2.1.gz (little-endian, gzip)
--- exit 0
EOF
earlier am
gzip -n -k am.2.1
check "a trace under two names: exit 2" ciat -ciat_events am.2 <<'EOF'
--- stderr
ciat: am.2.1: ambiguous: am.2.1 and am.2.1.gz exist; keep one of them, or name the files in a trace list (-t)
--- exit 2
EOF
kept "a trace under two names" am

check "a missing trace list: exit 2" ciat -t no-such.list <<'EOF'
--- stderr
ciat: no-such.list: cannot read: No such file or directory
--- exit 2
EOF
no_outputs "missing trace list: no output" . no-such.list
: >empty.list
check "a trace list naming no traces: exit 2" ciat -t empty.list <<'EOF'
--- stderr
ciat: empty.list: trace list names no traces
--- exit 2
EOF
no_outputs "empty trace list: no output" . empty.list
printf 'ms.2.0\nnot-there.0\n' >ms.list
check "a list naming a missing file: exit 2" ciat -ciat_events -t ms.list <<'EOF'
--- stderr
ciat: not-there.0: cannot read trace: No such file or directory
--- exit 2
EOF
no_outputs "list with a missing file: no output" . ms.list

# ---- call traces that do not match ------------------------------------------------------------------
# Thread t's k-th call record pairs with call trace t's k-th; the types
# must agree and the counts must be equal (docs/trace-sets.md §3).
earlier ct
printf 'threads 2\nthread 0\nspawn 1 2 @10:20\nwrite buf=0 bytes=8 fd=1 @30:40\njoin\nthread 1\nbarrier 0x8000 2\njoin\n' >ctype.txt
smait asm ctype.txt ctype
check "call trace of another call type: exit 2, both files and k named" ciat -ciat_events ctype.2 ct.2 <<'EOF'
--- stderr
ciat: ct.2.0: 56: record 7: call record 1 is of type 0x03 but call record 1 of call trace ctype.2.0 (record 6) is of type 0x12
--- exit 2
EOF
kept "call type mismatch" ct
printf 'threads 2\nthread 0\nspawn 1 2\nbarrier 0x8000 2\njoin\nthread 1\nbarrier 0x8000 2\njoin\njoin\n' >cmore.txt
smait asm cmore.txt cmore
check "call trace with more call records: exit 2" ciat -ciat_events cmore.2 ct.2 <<'EOF'
--- stderr
ciat: cmore.2.1: 96: record 12: call trace has more call records than ct.2.1 (which has 2)
--- exit 2
EOF
kept "extra call records" ct
printf 'threads 2\nthread 0\nspawn 1 2\nbarrier 0x8000 2\njoin\nthread 1\nbarrier 0x8000 2\n' >cless.txt
smait asm cless.txt cless
check "call trace with fewer call records: exit 2" ciat -ciat_events cless.2 ct.2 <<'EOF'
--- stderr
ciat: ct.2.1: 56: record 7: call record 1 has no partner: call trace cless.2.1 ends after 1 call records
--- exit 2
EOF
kept "missing call records" ct
check "fewer call records with --lenient: a warning, the trace's own times" ciat --lenient cless.2 ct.2 <<'EOF'
--- stderr
ciat: warning: ct.2.1: 56: record 7: call record 1 has no partner: call trace cless.2.1 ends after 1 call records; using this trace's own times from here on
ciat: --lenient: 1 call trace not paired to its end
--- exit 0
EOF
check "… counted in the header; T1's join keeps its own time (6..7)" \
    grep -E '^# (lenient|bad_input)|^RxT1L07: call join' ct.2.ciat_report <<'EOF'
# lenient: trace 1: skipped_records 0 truncated_bytes 0 unpaired_calls 1 corrupt_streams 0
# bad_input: skipped_records 0 truncated_bytes 0 unpaired_calls 1 corrupt_streams 0
RxT1L07: call join count 1 time_us 1 bytes 0
--- exit 0
EOF

# A call trace set of another size: refused with a message naming both sets,
# no output. The operand form (calls.3 trace.2) is a usage error (exit 1).
# For the list form only a failure is required here: ciat exits 1 (usage
# error), but a list file's content is input, which README.md, "Exit status and messages" makes a data
# error (exit 2) like the empty trace list above — an open question.
earlier cn
printf 'threads 3\nthread 0\nspawn 1 2\nthread 1\nthread 2\n' >c3.txt
smait asm c3.txt c3
check "calls.3 with trace.2: refused" ciat -ciat_events c3.3 cn.2 <<'EOF'
--- stderr
ciat: call traces c3.3 name 3 traces but the detailed traces cn.2 name 2
ciat: try 'ciat --help'
--- exit 1
EOF
kept "call set of another size" cn
printf 'c3.3.0\nc3.3.1\nc3.3.2\n' >c3.list
printf 'cn.2.0\ncn.2.1\n' >cn.list
ciat -ciat_events -t cn.list
cp cn.list.ciat_report cn.list.memory cn.list.ciat_events saved/
check "a call list of 3 with a trace list of 2: bad input (exit 2), both lists named" ciat -ciat_events -c c3.list -t cn.list <<'EOF'
--- stderr
ciat: c3.list: names 3 call traces but the detailed traces cn.list name 2
--- exit 2
EOF
for f in ciat_report memory ciat_events; do
    check_same "call list of another size: the earlier .$f is unchanged" "saved/cn.list.$f" "cn.list.$f"
done
no_outputs "call list of another size: no temporary file" . no-such-prefix

# ---- outputs that cannot be written -------------------------------------------------------------------
earlier od
check "-o into a missing directory: exit 2" ciat -ciat_events -o no-such-dir od.2 <<'EOF'
--- stderr
ciat: -o no-such-dir: no such directory (it is not created)
--- exit 2
EOF
check_true "… and the directory was not created" test ! -e no-such-dir
kept "-o into a missing directory" od

# -o DIR with earlier outputs in DIR: a bad input leaves them as they were.
mkdir outdir
smait asm good.txt od
ciat -ciat_events -o outdir od.2
cp outdir/od.2.ciat_report outdir/od.2.memory outdir/od.2.ciat_events saved/
printf 'xyz' >>od.2.0
check "-o DIR, truncated trace: exit 2" ciat -ciat_events -o outdir od.2 <<'EOF'
--- stderr
ciat: od.2.0: 152: record 19: truncated final record (file size is not a multiple of 8; 3 bytes left over)
--- exit 2
EOF
for f in ciat_report memory ciat_events; do
    check_same "-o DIR: the earlier .$f in DIR is unchanged" "saved/od.2.$f" "outdir/od.2.$f"
done
no_outputs "-o DIR: no temporary file in DIR" outdir no-such-prefix
