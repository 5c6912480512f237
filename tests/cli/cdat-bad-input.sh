# cdat-bad-input.sh — bad input to cdat (formats/SMAIT.md §12,
# docs/trace-sets.md, configs/README.md, docs/cdat-placement.md, README.md
# "Exit status and messages"):
# every error class stops cdat with exit status 2 (1 for usage errors) and
# one message naming the file — with file:line for a configuration file, the
# line for a memory usage file, the byte offset and record for a trace — and
# the reason. Each refused run is followed by a "nothing written" check
# (tests/cli/cdat-io/lib.sh): no file below the test directory was created,
# removed or changed, so no .cdat_report, .general.N or .detailed, no
# temporary, and the outputs of an earlier good run of the same prefix (all
# four kinds: report, two general traces, detailed trace) stay as they were.
D=$CLI_DIR/cdat-io
. "$D/lib.sh"

# The good set: two threads on a two-node machine that writes every output.
cat >good.txt <<'EOF'
threads 2
thread 0
spawn region=1 threads=2 @1:2
proc 0x1000
store 4 0x100
barrier var=0x8000 threads=2 @3:5
join @6:7
thread 1
proc 0x1000
barrier var=0x8000 threads=2 @3:5
load 4 0x100
join @6:7
EOF
smait asm good.txt g
printf '[system]\nnodes = 2\n[output]\ngeneral = 1\ndetailed = 1\n' >out.ini
cdat g.2 out.ini || echo "the good run failed"
check "the earlier good run wrote all four outputs" cdat_outputs . g.2 <<'EOF'
g.2.cdat_report
g.2.general.0
g.2.general.1
g.2.detailed
--- exit 0
EOF

# cfg NAME TEXT MESSAGE: a configuration file holding TEXT (printf format) is
# refused with "cdat: bad.ini:MESSAGE".
cfg() {
    printf "$2" >bad.ini
    refused "config: $1" cdat g.2 bad.ini <<EOT
--- stderr
cdat: bad.ini:$3
--- exit 2
EOT
}

# ---- configuration files: file:line and the reason (configs/README.md) -------------------
cfg "unknown section" '[system]\nnodes = 2\n\n[caches]\nsize = 1K\n' \
    "4: unknown section [caches] (system, output, dcache, icache, interconnect_cache, l2, l3, mapping, timing)"
cfg "unknown section without keys" '[system]\nnodes = 2\n[bogus]\n' \
    "3: unknown section [bogus] (system, output, dcache, icache, interconnect_cache, l2, l3, mapping, timing)"
cfg "unknown key in [system]" '; a comment\n[system]\nnodes = 2\nnode = 2\n' \
    "4: [system]: unknown key 'node'"
cfg "unknown key in [output]" '[system]\nnodes = 2\n[output]\ntrace = 1\n' \
    "4: [output]: unknown key 'trace' (general, detailed)"
cfg "unknown key in a cache" '[system]\nnodes = 2\n[icache]\nways = 2\n' \
    "4: [icache]: unknown key 'ways' (size, assoc, replacement)"
cfg "a key outside any section" 'nodes = 2\n' "1: 'nodes' is outside any section"
cfg "a line that is no INI" '[system]\nnodes = 2\nthis is not ini\n' \
    "3: syntax error (expected [section], key = value, or ; comment)"
cfg "malformed number" '[system]\nnodes = two\n' "2: nodes: 'two' is not a whole number"
cfg "malformed number with a suffix" '[system]\nnodes = 2\nprotocol = 1K\n' "3: protocol: '1K' is not a whole number"
cfg "malformed size" '[system]\nnodes = 2\n[dcache]\nsize = 64X\n' "4: [dcache] size: '64X' is not a size (e.g. 64K, 1M)"
cfg "malformed boolean" '[system]\nnodes = 2\n[output]\ngeneral = yes\n' "4: general: 'yes' must be 0 or 1"
cfg "nodes 0" '[system]\nnodes = 0\n' "2: nodes: 0 is out of range (1..32)"
cfg "nodes 33" '[system]\nnodes = 33\n' "2: nodes: 33 is out of range (1..32)"
cfg "procs_per_node 0" '[system]\nnodes = 2\nprocs_per_node = 0\n' "3: procs_per_node: 0 is out of range (1..128)"
cfg "procs_per_node 129" '[system]\nprocs_per_node = 129\n' "2: procs_per_node: 129 is out of range (1..128)"
cfg "nodes x procs_per_node > 128 (the later line)" '[system]\nprocs_per_node = 8\nbanks_per_node = 2\nnodes = 17\n' \
    "4: nodes x procs_per_node = 17 x 8 = 136 processors; at most 128"
cfg "32 x 5 processors" '[system]\nnodes = 32\nprocs_per_node = 5\n' \
    "3: nodes x procs_per_node = 32 x 5 = 160 processors; at most 128"
cfg "banks_per_node 0" '[system]\nnodes = 2\nbanks_per_node = 0\n' "3: banks_per_node: 0 is out of range (1..32)"
cfg "banks_per_node 33" '[system]\nnodes = 2\nbanks_per_node = 33\n' "3: banks_per_node: 33 is out of range (1..32)"
cfg "protocol 0" '[system]\nnodes = 2\nprotocol = 0\n' "3: protocol: 0 is out of range (1..8)"
cfg "protocol 9" '[system]\nnodes = 2\nprotocol = 9\n' "3: protocol: 9 is out of range (1..8)"
cfg "allocation in capitals" '[system]\nnodes = 2\nallocation = RR1\n' \
    "3: allocation: 'RR1' must be rr1, rr2, oracle or first_touch"
cfg "allocation unknown" '[system]\nnodes = 2\nallocation = random\n' \
    "3: allocation: 'random' must be rr1, rr2, oracle or first_touch"
cfg "line_size not a power of two" '[system]\nnodes = 2\nline_size = 48\n' \
    "3: line_size: '48' must be a power of two from 4 to 4096 bytes"
cfg "line_size 2 (too small)" '[system]\nnodes = 2\nline_size = 2\n' \
    "3: line_size: '2' must be a power of two from 4 to 4096 bytes"
cfg "line_size 8K (too large)" '[system]\nnodes = 2\nline_size = 8K\n' \
    "3: line_size: '8K' must be a power of two from 4 to 4096 bytes"
cfg "page_size not a power of two" '[system]\nnodes = 2\npage_size = 3000\n' \
    "3: page_size: '3000' must be a power of two from 64 bytes to 1G"
# A check of two keys names the later line (configs/README.md).
cfg "page smaller than the line, page_size later" '[system]\nnodes = 2\nline_size = 256\npage_size = 128\n' \
    "4: page_size 128 is smaller than line_size 256"
cfg "page smaller than the line, line_size later" '[system]\nnodes = 2\npage_size = 128\n[dcache]\nsize=4K\n[system]\nline_size = 256\n' \
    "7: page_size 128 is smaller than line_size 256"
cfg "page smaller than the line, page_size given twice" '[system]\nnodes = 2\npage_size = 64\nline_size = 128\npage_size = 4K\nline_size = 8\npage_size = 64\n[system]\nline_size = 128\n' \
    "9: page_size 64 is smaller than line_size 128"
cfg "d-cache not a whole number of lines" '[system]\nnodes = 2\n[dcache]\nsize = 100\n' \
    "4: [dcache] size: 100 bytes is not a whole number of 64-byte lines"
cfg "d-cache size 0" '[system]\nnodes = 2\n[dcache]\nsize = 0\n' "4: [dcache] size: a processor cache needs a size > 0"
cfg "i-cache size 0" '[system]\nnodes = 2\n[icache]\nsize = 0\n' "4: [icache] size: a processor cache needs a size > 0"
cfg "i-cache smaller than a line (the line_size line)" '[system]\nnodes = 2\n[icache]\nsize = 32\n[system]\nline_size = 64\n' \
    "6: [icache] size: 32 bytes is not a whole number of 64-byte lines"
cfg "sets not a power of two" '[system]\nnodes = 2\n[dcache]\nsize = 3K\n' \
    "4: [dcache]: 48 lines in 2 ways do not make a power-of-two number of sets"
cfg "more ways than lines" '[system]\nnodes = 2\n[icache]\nassoc = 4\nsize = 128\n' \
    "5: [icache]: 2 lines in 4 ways do not make a power-of-two number of sets"
cfg "assoc 0" '[system]\nnodes = 2\n[dcache]\nassoc = 0\n' "4: [dcache] assoc: '0' must be 1..64 or full"
cfg "assoc 65" '[system]\nnodes = 2\n[dcache]\nassoc = 65\n' "4: [dcache] assoc: '65' must be 1..64 or full"
cfg "assoc of the interconnect cache" '[system]\nnodes = 2\n[interconnect_cache]\nsize = 1K\nassoc = 3\n' \
    "5: [interconnect_cache]: 16 lines in 3 ways do not make a power-of-two number of sets"
# What cdat can build: a cache of at most 4G (the 32-bit address space), and
# at most 1G of cdat's memory for all the caches together (4 bytes a line; a
# fully associative cache of more than 64 lines 16 a line plus 4 a hash
# bucket). Each at the limit (a run that succeeds) and one past it.
cfg "a cache larger than the address space" '[system]\nnodes = 2\n[dcache]\nsize = 4096G\n' \
    "4: [dcache] size: 4096G is larger than 4G, the whole 32-bit address space"
cfg "a cache one kilobyte past 4G" '[system]\nnodes = 2\n[icache]\nsize = 4194305K\n' \
    "4: [icache] size: 4194305K is larger than 4G, the whole 32-bit address space"
cfg "an 8G fully associative i-cache" '[system]\nnodes = 2\n[icache]\nsize = 8G\nassoc = full\n' \
    "4: [icache] size: 8G is larger than 4G, the whole 32-bit address space"
cfg "a 4G fully associative i-cache (1280M of memory)" '[icache]\nsize = 4G\nassoc = full\n[system]\nnodes = 2\n' \
    "5: the caches need 2621448K of cdat's memory, more than the 1G it allows: 2 processors x (dcache 4K + icache 1280M)"
cfg "the caches one interconnect-cache line past 1G" '[system]\nnodes = 2\n[dcache]\nsize = 4G\n[icache]\nsize = 4G\n[interconnect_cache]\nsize = 64\nassoc = 1\n' \
    "9: the caches need 1073741832 bytes of cdat's memory, more than the 1G it allows: 2 processors x (dcache 256M + icache 256M) + 2 nodes x interconnect_cache 4 bytes"
# At the limits: 4G caches, 2 x (256M + 256M) = 1G of memory. The caches are
# allocated zeroed and untouched but for the sets the trace uses, so the run
# itself stays small.
printf '[system]\nnodes = 2\n[dcache]\nsize = 4G\n[icache]\nsize = 4G\n' >limit.ini
mkdir limit
check "4G caches, 1G of cache memory: the run succeeds" cdat -o limit g.2 limit.ini <<'EOF'
--- exit 0
EOF
check "... and reports the 4G caches" rpt limit/g.2 '^# (dcache|icache):' <<'EOF'
# dcache: size 4294967296 assoc 2
# icache: size 4294967296 assoc 2
--- exit 0
EOF
rm -r limit
cfg "mapping to a missing node" '[system]\nnodes = 2\n[mapping]\nthread.0 = 0.0\nthread.1 = 2.0\n' \
    "5: thread.1 = 2.0: the machine has nodes 0..1 with processors 0..0"
cfg "mapping to a missing processor" '[system]\nnodes = 2\n[mapping]\nthread.1 = 1.1\nthread.0 = 0.0\n' \
    "4: thread.1 = 1.1: the machine has nodes 0..1 with processors 0..0"
cfg "duplicate mapping" '[system]\nnodes = 2\n[mapping]\nthread.1 = 1.0\nthread.0 = 0.0\nthread.1 = 0.0\n' \
    "6: thread.1 is mapped twice"
cfg "mapping key not thread.N" '[system]\nnodes = 2\n[mapping]\nthread1 = 1.0\n' \
    "4: [mapping]: key 'thread1' must be thread.N or policy"
cfg "mapping value not node.proc" '[system]\nnodes = 2\n[mapping]\nthread.1 = 1\n' \
    "4: thread.1: '1' must be node.proc"
cfg "mapping to node 99" '[system]\nnodes = 2\n[mapping]\nthread.1 = 99.0\n' \
    "4: thread.1: 99.0 is out of range"
cfg "memory_usage empty" '[system]\nnodes = 2\nallocation = oracle\nmemory_usage =\n' "4: memory_usage: empty path"
cfg "a line longer than 199 characters" "[system]\nnodes = 2\n; $(printf '%0200d' 0)\nprotocol = 1\n" \
    "3: line longer than 199 characters"
cfg "rr2 without memory_usage" '[system]\nnodes = 2\nallocation = rr2\n' \
    "3: allocation rr2 needs memory_usage = <file written by ciat>"
cfg "oracle without memory_usage" '[system]\nallocation = oracle\nnodes = 2\n' \
    "2: allocation oracle needs memory_usage = <file written by ciat>"
cfg "the first of two errors" '[system]\nnodes = 0\nprotocol = 9\n' "2: nodes: 0 is out of range (1..32)"

refused "config: missing file" cdat g.2 no-such.ini <<'EOF'
--- stderr
cdat: no-such.ini: cannot read the configuration: No such file or directory
--- exit 2
EOF
mkdir cfgdir.ini
refused "config: a directory" cdat g.2 cfgdir.ini <<'EOF'
--- stderr
cdat: cfgdir.ini: cannot read the configuration: Is a directory
--- exit 2
EOF

# More threads than processors, no [mapping] for the extra ones.
refused "more threads than processors" cdat g.2 /dev/null <<'EOF'
--- stderr
cdat: /dev/null: 2 traces but the machine has 1 processor: map thread 1 (and every thread from 1 on) in [mapping]
--- exit 2
EOF
printf '[system]\nnodes = 2\n[mapping]\nthread.0 = 1.0\n' >few.ini
printf 'threads 3\nthread 0\nload 4 0x100\nthread 1\nthread 2\n' >three.txt
smait asm three.txt three
refused "three threads on two processors, thread 2 unmapped" cdat -p three.3 few.ini <<'EOF'
--- stderr
cdat: warning: three.3.1: empty trace (no records)
cdat: warning: three.3.2: empty trace (no records)
cdat: few.ini: 3 traces but the machine has 2 processors: map thread 2 (and every thread from 2 on) in [mapping]
--- exit 2
EOF

# ---- memory usage files (rr2, oracle; docs/cdat-placement.md, formats/MEMORY-USAGE.md) ----
ciat g.2
mv g.2.memory g.memory
rm g.2.ciat_report
# mu NAME FILE MESSAGE: oracle placement with memory_usage = FILE is refused
# with "cdat: FILE: MESSAGE".
mu() {
    printf '[system]\nnodes = 2\nallocation = oracle\nmemory_usage = %s\n' "$2" >mu.ini
    refused "memory usage: $1" cdat g.2 mu.ini <<EOT
--- stderr
cdat: $2: $3
--- exit 2
EOT
}
mu "missing" no-such.memory "memory usage file (allocation oracle): cannot read: No such file or directory"
printf '[system]\nnodes = 2\nallocation = rr2\nmemory_usage = sub/x.memory\n' >rr2.ini
refused "memory usage: missing, rr2, a path relative to the configuration's directory" cdat g.2 "$PWD/rr2.ini" <<EOF
--- stderr
cdat: $PWD/sub/x.memory: memory usage file (allocation rr2): cannot read: No such file or directory
--- exit 2
EOF
awk 'NR == 5 { $4 = "x" } 1' g.memory >field.memory
mu "a field that is no number (line 5)" field.memory \
    "memory usage file (allocation oracle): line 5: field 4 is not a number"
# A NUL byte, then 1100 more bytes, on line 4 (once reported on line 5, the
# rest of line 4 read as a line of its own).
{ head -3 g.memory; printf '0 4 0 4 2 0 2 0 -1\0%01100d\n' 0; tail -1 g.memory; } >nul.memory
mu "a NUL byte (line 4)" nul.memory "memory usage file (allocation oracle): line 4: a NUL byte (not a text file?)"
sed '2d' g.memory >nohdr.memory
mu "no page_size header" nohdr.memory "memory usage file (allocation oracle): no '# page_size N' header line"
{ cat g.memory; echo "1 4 0 4 2 0 2 0 -1"; } >order.memory
mu "pages not ascending (line 6)" order.memory \
    "memory usage file (allocation oracle): line 6: page 1 is not in ascending order"
sed 's/^# page_size 4096$/# page_size 8192/' g.memory >ps.memory
mu "page size mismatch" ps.memory \
    "memory usage file has page_size 8192 but mu.ini has page_size 4096; run ciat with -page_size 4096"
sed 's/ -1$/ 2/' g.memory >owner.memory
mu "owner thread beyond the trace set" owner.memory \
    "page 0 is owned by thread 2 but the trace set has 2 threads (a file of another run?)"
mkdir dir.memory
mu "a directory" dir.memory "memory usage file (allocation oracle): read error: Is a directory"

# ---- invalid traces (formats/SMAIT.md §12): file, byte offset, record, reason --------------
# bad_set NAME TEXT: assemble TEXT as NAME.2 and make an earlier good run's
# outputs of prefix NAME.2 (the same as g.2's) for the refused run to keep.
bad_set() {
    rm -f "$1".2.*
    cp good.txt "$1.txt"
    smait asm "$1.txt" "$1"
    cdat "$1.2" out.ini || echo "the good run of $1 failed"
    printf "$2" >"$1.txt"
    smait asm "$1.txt" "$1"
}
bad_set inv 'threads 2\nthread 0\nproc 0x1000\nload 4 0x100\nraw 0xffffffff 0\nload 4 0x104\nthread 1\nload 4 0x200\n'
refused "trace: invalid record kind" cdat -p inv.2 out.ini <<'EOF'
--- stderr
cdat: inv.2.0: 16: record 2: invalid record kind: bytes ffffffff 00000000 (f1 ffffffff as little-endian)
--- exit 2
EOF
bad_set mal 'threads 2\nthread 0\nload 4 0x100\nthread 1\nload 4 0x200\nraw 0x00001032 0x8000\n'
refused "trace: malformed call record" cdat -p mal.2 out.ini <<'EOF'
--- stderr
cdat: mal.2.1: 8: record 1: malformed call record: part 2 of call type 0x03 without the parts before it (f1 00001032)
--- exit 2
EOF
# A branch (80001004 00002000) read in the other byte order is an invalid kind.
bad_set be 'threads 2\nthread 0\nbranch 0x1004 0x2000\nload 4 0x100\nthread 1\nload 4 0x200\n'
smait asm --byte-order=big be.txt be
refused "trace: big-endian traces read as little-endian" cdat -p --byte-order=little be.2 out.ini <<'EOF'
--- stderr
cdat: be.2.0: 0: record 0: invalid record kind: bytes 80001004 00002000 (f1 04100080 as little-endian); it is valid as big-endian: try --byte-order=big
--- exit 2
EOF
# Enough misses to fill the output buffers before the bad record: three lines
# of one set of the 2-way d-cache (64K: 512 sets, 32K apart) in turn, so
# every reference misses and writes back; the temporaries hold megabytes of
# transactions when cdat stops.
bad_set late 'threads 1\nthread 0\nproc 0x1000\nrepeat 30000\nload 4 0x100\nstore 4 0x8100\nstore 4 0x10100\nend\nraw 0x00000043 0x1000\n'
refused "trace: a bad record after 90000 references" cdat -p late.1 out.ini <<'EOF'
--- stderr
cdat: late.1.0: 720008: record 90001: invalid record kind: bytes 43000000 00100000 (f1 00000043 as little-endian); it is valid as big-endian: try --byte-order=big
--- exit 2
EOF

rm -f tr.2.*
smait asm good.txt tr
cdat tr.2 out.ini
printf 'abc' >>tr.2.1
refused "trace: truncated final record" cdat tr.2 out.ini <<'EOF'
--- stderr
cdat: tr.2.1: 112: record 14: truncated final record (file size is not a multiple of 8; 3 bytes left over)
--- exit 2
EOF

rm -f gz.2.*
smait asm good.txt gz
cdat gz.2 out.ini
gzip -n -c gz.2.0 | head -c 30 >gz.2.0.gz
mv gz.2.0.gz gz.2.0
refused "trace: truncated gzip stream" cdat gz.2 out.ini <<'EOF'
--- stderr
cdat: gz.2.0: 0: record 0: corrupt compressed stream: compressed stream is truncated (unexpected end of file)
--- exit 2
EOF

rm -f zs.2.*
smait asm good.txt zs
cdat zs.2 out.ini
zstd -q -c --check zs.2.1 | head -c 30 >zs.2.1.zst
rm zs.2.1
refused "trace: truncated zstd stream" cdat zs.2 out.ini <<'EOF'
--- stderr
cdat: zs.2.1.zst: 0: record 0: corrupt compressed stream: compressed stream is truncated (unexpected end of file)
--- exit 2
EOF

rm -f ms.2.*
smait asm good.txt ms
cdat ms.2 out.ini
rm ms.2.1
refused "trace: a missing trace file" cdat ms.2 out.ini <<'EOF'
--- stderr
cdat: ms.2.1: cannot read trace: No such file or directory (tried ms.2.1, ms.2.1.gz and ms.2.1.zst)
--- exit 2
EOF
refused "trace: a missing trace list" cdat -t no-such.list out.ini <<'EOF'
--- stderr
cdat: no-such.list: cannot read: No such file or directory
--- exit 2
EOF
: >empty.list
refused "trace: a trace list naming no traces" cdat -t empty.list out.ini <<'EOF'
--- stderr
cdat: empty.list: trace list names no traces
--- exit 2
EOF
printf 'g.2.0\nnot-there.0\n' >ms.list
refused "trace: a list naming a missing file" cdat -t ms.list out.ini <<'EOF'
--- stderr
cdat: not-there.0: cannot read trace: No such file or directory
--- exit 2
EOF

# ---- inconsistent traces --------------------------------------------------------------------
# Thread 0 waits at barrier 0x8000, thread 1 at 0x8004 (as in ciat-bad-input.sh).
bad_set dl 'threads 2\nthread 0\nspawn region=1 threads=2\nstore 4 0x100\nbarrier var=0x8000 threads=2\njoin\nthread 1\nload 4 0x100\nbarrier var=0x8004 threads=2\njoin\n'
refused "deadlock" cdat dl.2 out.ini <<'EOF'
--- stderr
cdat: inconsistent traces: no thread can run (deadlock) in phase 2; blocked threads:
  thread 0 (dl.2.0) waits for barrier 0x00008000 at record 7, clock 1
  thread 1 (dl.2.1) waits for barrier 0x00008004 at record 1, clock 1
--- exit 2
EOF
bad_set bu 'threads 2\nthread 0\nload 4 0x100\nend_critical lock=0x9000\nthread 1\nload 4 0x200\n'
refused "end of a critical section not held" cdat -p bu.2 out.ini <<'EOF'
--- stderr
cdat: bu.2.0: 8: record 1: thread 0 ends a critical section on lock 0x00009000 that it does not hold (not held)
--- exit 2
EOF

# ---- call traces that do not match (docs/trace-sets.md §3) --------------------------------------
# g.2's call records: T0 spawn, barrier, join; T1 barrier, join.
printf 'threads 2\nthread 0\nspawn 1 2 @10:20\nwrite buf=0 bytes=8 fd=1 @30:40\njoin\nthread 1\nbarrier 0x8000 2\njoin\n' >ctype.txt
smait asm ctype.txt ctype
refused "call trace of another call type: both files and k named" cdat ctype.2 g.2 out.ini <<'EOF'
--- stderr
cdat: g.2.0: 64: record 8: call record 1 is of type 0x03 but call record 1 of call trace ctype.2.0 (record 6) is of type 0x12
--- exit 2
EOF
printf 'threads 2\nthread 0\nspawn 1 2\nbarrier 0x8000 2\njoin\nthread 1\nbarrier 0x8000 2\njoin\njoin\n' >cmore.txt
smait asm cmore.txt cmore
refused "call trace with more call records" cdat cmore.2 g.2 out.ini <<'EOF'
--- stderr
cdat: cmore.2.1: 96: record 12: call trace has more call records than g.2.1 (which has 2)
--- exit 2
EOF
printf 'threads 2\nthread 0\nspawn 1 2\nbarrier 0x8000 2\njoin\nthread 1\nbarrier 0x8000 2\n' >cless.txt
smait asm cless.txt cless
refused "call trace with fewer call records" cdat cless.2 g.2 out.ini <<'EOF'
--- stderr
cdat: g.2.1: 64: record 8: call record 1 has no partner: call trace cless.2.1 ends after 1 call records
--- exit 2
EOF
printf 'threads 3\nthread 0\nspawn 1 2\nthread 1\nthread 2\n' >c3.txt
smait asm c3.txt c3
refused "call traces of another set size (usage error)" cdat c3.3 g.2 out.ini <<'EOF'
--- stderr
cdat: call traces c3.3 name 3 traces but the detailed traces g.2 name 2
cdat: try 'cdat --help'
--- exit 1
EOF

# ---- outputs that cannot be written ------------------------------------------------------------
refused "-o into a missing directory" cdat -o no-such-dir g.2 out.ini <<'EOF'
--- stderr
cdat: -o no-such-dir: no such directory (it is not created)
--- exit 2
EOF
# -o DIR holding an earlier run's outputs, then a refused run into DIR.
mkdir outdir
cdat -o outdir g.2 out.ini
refused "-o DIR, a bad configuration: DIR's earlier outputs kept" cdat -o outdir g.2 bad.ini <<'EOF'
--- stderr
cdat: bad.ini:2: nodes: 0 is out of range (1..32)
--- exit 2
EOF
refused "-o DIR, a truncated trace: DIR's earlier outputs kept" cdat -o outdir tr.2 out.ini <<'EOF'
--- stderr
cdat: tr.2.1: 112: record 14: truncated final record (file size is not a multiple of 8; 3 bytes left over)
--- exit 2
EOF

# ---- an interrupted run (docs/trace-sets.md §6) -------------------------------------------------
# cdat reads a long trace through a pipe that stalls after 4 MB; once its
# temporaries exist (two general traces, the detailed trace, the report) it
# is killed (SIGTERM, then SIGHUP): they go, and the earlier run's outputs
# stay as they were.
printf 'threads 1\nthread 0\nproc 0x1000\nrepeat 300000\nload 4 0x100\nstore 4 0x8100\nstore 4 0x10100\nend\n' >long.txt
smait asm long.txt long
echo - >long.list
cdat -p -t long.list out.ini <long.1.0 || echo "the good run of long.list failed"
interrupted() {     # interrupted SIGNAL
    local feeder pid i st
    mkfifo fifo
    (head -c 4000000 long.1.0; exec sleep 60) >fifo &
    feeder=$!
    cdat -p -t long.list out.ini <fifo &
    pid=$!
    for ((i = 0; i < 300; i++)); do      # all four: they are made one after another
        [ "$(ls | grep -c '^long\.list\..*\.tmp\.')" -ge 4 ] && break
        sleep 0.1
    done
    echo "temporaries while it runs: $(ls | grep -c '^long\.list\..*\.tmp\.')"
    kill -"$1" "$pid"
    { wait "$pid"; } 2>/dev/null      # (no "Hangup" notice from the shell)
    st=$?
    kill "$feeder"
    wait "$feeder" 2>/dev/null
    rm -f fifo
    echo "exit status $st"
}
refused "killed by SIGTERM" interrupted TERM <<'EOF'
temporaries while it runs: 4
exit status 143
--- exit 0
EOF
refused "killed by SIGHUP" interrupted HUP <<'EOF'
temporaries while it runs: 4
exit status 129
--- exit 0
EOF
rm -f long.1.0 long.list.*

# ---- operands (usage errors: exit 1) ---------------------------------------------------------------
refused "no operands" cdat <<'EOF'
--- stderr
cdat: expects [calls.P] trace.P cfg_file..., or -t trace_list cfg_file...
cdat: try 'cdat --help'
--- exit 1
EOF
refused "-t list but no configuration file" cdat -t ms.list <<'EOF'
--- stderr
cdat: expects [calls.P] trace.P cfg_file..., or -t trace_list cfg_file...
cdat: try 'cdat --help'
--- exit 1
EOF
refused "a trace prefix but no configuration file" cdat g.2 <<'EOF'
--- stderr
cdat: expects [calls.P] trace.P cfg_file..., or -t trace_list cfg_file...
cdat: try 'cdat --help'
--- exit 1
EOF
refused "too many operands" cdat g.2 g.2 g.2 out.ini <<'EOF'
--- stderr
cdat: too many operands ('g.2'): the configurations follow the trace set
cdat: try 'cdat --help'
--- exit 1
EOF
refused "-t and a prefix" cdat -t ms.list g.2 out.ini <<'EOF'
--- stderr
cdat: with -t, give no trace prefix ('g.2')
cdat: try 'cdat --help'
--- exit 1
EOF
