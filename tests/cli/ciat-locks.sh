# ciat-locks.sh — ciat --locks[=N] and --intervals (docs/ciat-report.md,
# L52–L56, L61–L62): hand-written sets whose every figure is derived in their
# comments (tests/cli/locks/lk.txt: critical sections, a contended one, a
# nested one, markers; rw.txt: a reader-writer lock among recorded objects,
# and a semaphore that is no lock; site.txt: acquisition sites, L61, and
# which lock follows which, L62), naming through the address map, the
# options line, the default report untouched, --workers, JSON; property tests
# on random sets (tests/cli/ciat/randset.awk) and on sets with one hot lock
# and cold ones (tests/cli/locks/hot.awk); --shard/--merge and --jobs give
# the whole run's outputs byte for byte, and a merge refuses lock lines
# forged into a part; bad options and combinations.
D=$CLI_DIR/locks
smait asm "$D/lk.txt" lk
smait asm "$D/rw.txt" rw
smait asm "$D/site.txt" site

# lines RUN-ARGS...: ciat, then its L52-L56 lines.
lines() {
    ciat "$@" && grep -hE '^RxTxL5[2-6]:' ./*.ciat_report
}
export -f lines

check "lk: L52-L56 as derived in lk.txt" lines -p --locks --intervals lk.3 <<'EOF'
RxTxL52: lock rank 1 addr 0x00009000 space critical lock_kind none kind address name 0x00009000 where - acquisitions 3 contended 1 contended_recorded 1 handoffs 2 waits 1 wait_cycles 2 wait_max 2 holds 3 hold_cycles 5 hold_max 3 wait_us 4 hold_us 8 hold_us_max 5
RxTxL52: lock rank 2 addr 0x00009100 space critical lock_kind none kind address name 0x00009100 where - acquisitions 1 contended 0 contended_recorded 0 handoffs 0 waits 0 wait_cycles 0 wait_max 0 holds 1 hold_cycles 1 hold_max 1 wait_us 0 hold_us 1 hold_us_max 1
RxTxL53: lock_wait_hist rank 1 addr 0x00009000 space critical 2-3:1
RxTxL53: lock_wait_hist rank 2 addr 0x00009100 space critical
RxTxL54: lock_hold_hist rank 1 addr 0x00009000 space critical 0:1 2-3:2
RxTxL54: lock_hold_hist rank 2 addr 0x00009100 space critical 1:1
RxTxL55: lock_nesting rank 1 outer 0x00009000 outer_space critical inner 0x00009100 inner_space critical count 1
RxTxL56: interval from 1 to 2 count 2 cycles 8 mean_cycles 4.0000 min_cycles 3 max_cycles 5 us 16 mean_us 8.0000 min_us 6 max_us 10
RxTxL56: interval from 5 to 7 count 1 cycles 4 mean_cycles 4.0000 min_cycles 4 max_cycles 4 us 30 mean_us 30.0000 min_us 30 max_us 30
RxTxL56: interval from 7 to 5 count 1 cycles 2 mean_cycles 2.0000 min_cycles 2 max_cycles 2 us 20 mean_us 20.0000 min_us 20 max_us 20
--- exit 0
EOF

# --locks=1: only the lock with the most wait (0x9000) and the top pair.
check "lk: --locks=1 lists the top lock only; no L56 without --intervals" lines -p --locks=1 lk.3 <<'EOF'
RxTxL52: lock rank 1 addr 0x00009000 space critical lock_kind none kind address name 0x00009000 where - acquisitions 3 contended 1 contended_recorded 1 handoffs 2 waits 1 wait_cycles 2 wait_max 2 holds 3 hold_cycles 5 hold_max 3 wait_us 4 hold_us 8 hold_us_max 5
RxTxL53: lock_wait_hist rank 1 addr 0x00009000 space critical 2-3:1
RxTxL54: lock_hold_hist rank 1 addr 0x00009000 space critical 0:1 2-3:2
RxTxL55: lock_nesting rank 1 outer 0x00009000 outer_space critical inner 0x00009100 inner_space critical count 1
--- exit 0
EOF

check "lk: --intervals alone: L56 only" lines -p --intervals lk.3 <<'EOF'
RxTxL56: interval from 1 to 2 count 2 cycles 8 mean_cycles 4.0000 min_cycles 3 max_cycles 5 us 16 mean_us 8.0000 min_us 6 max_us 10
RxTxL56: interval from 5 to 7 count 1 cycles 4 mean_cycles 4.0000 min_cycles 4 max_cycles 4 us 30 mean_us 30.0000 min_us 30 max_us 30
RxTxL56: interval from 7 to 5 count 1 cycles 2 mean_cycles 2.0000 min_cycles 2 max_cycles 2 us 20 mean_us 20.0000 min_us 20 max_us 20
--- exit 0
EOF
rm -f lk.3.ciat_report

check "rw: a reader-writer lock is a lock, a semaphore is not (rw.txt)" lines -p --locks rw.2 <<'EOF'
RxTxL52: lock rank 1 addr 0x00007000 space object lock_kind rwlock kind address name 0x00007000 where - acquisitions 2 contended 1 contended_recorded 1 handoffs 1 waits 1 wait_cycles 1 wait_max 1 holds 2 hold_cycles 3 hold_max 2 wait_us 3 hold_us 17 hold_us_max 10
RxTxL53: lock_wait_hist rank 1 addr 0x00007000 space object 1:1
RxTxL54: lock_hold_hist rank 1 addr 0x00007000 space object 1:1 2-3:1
--- exit 0
EOF
rm -f rw.2.ciat_report

# Simulated mode: acquire and release only count, so the read lock's
# acquire passes at once: no wait, and T1 holds it from 1 to 2 (its load at
# 2, its release at 2); T0 0..2 as before.
check "rw, --sync=simulated: no wait in the replay; the recorded times stay" bash -c '
    ciat -p --sync=simulated --locks rw.2 && grep -E "^RxTxL5[24]:" rw.2.ciat_report' <<'EOF'
RxTxL52: lock rank 1 addr 0x00007000 space object lock_kind rwlock kind address name 0x00007000 where - acquisitions 2 contended 0 contended_recorded 1 handoffs 1 waits 0 wait_cycles 0 wait_max 0 holds 2 hold_cycles 3 hold_max 2 wait_us 3 hold_us 17 hold_us_max 10
RxTxL54: lock_hold_hist rank 1 addr 0x00007000 space object 1:1 2-3:1
--- exit 0
EOF

# ---- L61 lock_site, L62 lock_follows (site.txt derives every figure) ----
check "site: L61-L62 as derived in site.txt (no map: sites by address)" bash -c '
    ciat -q -p --locks site.3 && grep -E "^RxTxL6[12]:" site.3.ciat_report' <<'EOF'
RxTxL61: lock_site rank 1 addr 0x00009000 space critical site 1 pc 0x00002004 kind address name 0x00002004 where - acquisitions 1 contended 1 wait_cycles 2
RxTxL61: lock_site rank 1 addr 0x00009000 space critical site 2 pc 0x0000200c kind address name 0x0000200c where - acquisitions 1 contended 1 wait_cycles 1
RxTxL61: lock_site rank 1 addr 0x00009000 space critical site 3 pc - kind address name unknown where - acquisitions 1 contended 1 wait_cycles 1
RxTxL61: lock_site rank 1 addr 0x00009000 space critical site 4 pc 0x00001000 kind address name 0x00001000 where - acquisitions 1 contended 0 wait_cycles 0
RxTxL61: lock_site rank 2 addr 0x00009100 space critical site 1 pc 0x0000100c kind address name 0x0000100c where - acquisitions 1 contended 0 wait_cycles 0
RxTxL62: lock_follows rank 1 from 0x00009000 from_space critical to 0x00009000 to_space critical count 1
RxTxL62: lock_follows rank 2 from 0x00009000 from_space critical to 0x00009100 to_space critical count 1
--- exit 0
EOF
# Through site.map, T1's two sites are one source line (prog.c:20), merged.
check "site: L61 through site.map: one row per source line" bash -c '
    ciat -q -p --locks --map "$0" site.3 && grep -E "^RxTxL6[12]:" site.3.ciat_report' "$D/site.map" <<'EOF'
RxTxL61: lock_site rank 1 addr 0x00009000 space critical site 1 pc 0x00002004 kind function name thread_b where prog.c:20 acquisitions 2 contended 2 wait_cycles 3
RxTxL61: lock_site rank 1 addr 0x00009000 space critical site 2 pc - kind address name unknown where - acquisitions 1 contended 1 wait_cycles 1
RxTxL61: lock_site rank 1 addr 0x00009000 space critical site 3 pc 0x00001000 kind function name thread_a where prog.c:10 acquisitions 1 contended 0 wait_cycles 0
RxTxL61: lock_site rank 2 addr 0x00009100 space critical site 1 pc 0x0000100c kind function name thread_a where prog.c:10 acquisitions 1 contended 0 wait_cycles 0
RxTxL62: lock_follows rank 1 from 0x00009000 from_space critical to 0x00009000 to_space critical count 1
RxTxL62: lock_follows rank 2 from 0x00009000 from_space critical to 0x00009100 to_space critical count 1
--- exit 0
EOF
# --locks=1: the top lock's sites (up to 4 still) and the top pair.
check "site: --locks=1: the top lock's sites, the top pair" bash -c '
    ciat -q -p --locks=1 --map "$0" site.3 && grep -E "^RxTxL6[12]:" site.3.ciat_report' "$D/site.map" <<'EOF'
RxTxL61: lock_site rank 1 addr 0x00009000 space critical site 1 pc 0x00002004 kind function name thread_b where prog.c:20 acquisitions 2 contended 2 wait_cycles 3
RxTxL61: lock_site rank 1 addr 0x00009000 space critical site 2 pc - kind address name unknown where - acquisitions 1 contended 1 wait_cycles 1
RxTxL61: lock_site rank 1 addr 0x00009000 space critical site 3 pc 0x00001000 kind function name thread_a where prog.c:10 acquisitions 1 contended 0 wait_cycles 0
RxTxL62: lock_follows rank 1 from 0x00009000 from_space critical to 0x00009000 to_space critical count 1
--- exit 0
EOF
# lk.txt has no procedure starts: every site is unknown (L61); no thread
# lets a lock go and then takes one (L62: none).
check "lk: no instruction stream: one unknown site per lock, no follows" bash -c '
    ciat -q -p --locks lk.3 && grep -E "^RxTxL6[12]:" lk.3.ciat_report' <<'EOF'
RxTxL61: lock_site rank 1 addr 0x00009000 space critical site 1 pc - kind address name unknown where - acquisitions 3 contended 1 wait_cycles 2
RxTxL61: lock_site rank 2 addr 0x00009100 space critical site 1 pc - kind address name unknown where - acquisitions 1 contended 0 wait_cycles 0
--- exit 0
EOF
# --intervals alone: no sites, no follows.
check "site: --intervals alone writes no L61-L62" bash -c '
    ciat -q -p --intervals site.3 && grep -cE "^RxTxL6[12]:" site.3.ciat_report' <<'EOF'
0
--- exit 1
EOF
rm -f site.3.ciat_report lk.3.ciat_report

# Names through the address map: lk.3.map beside the traces is found, and
# names 0x9000 the object counter_lock (0x9100 keeps its address).
cp "$D/lk.3.map" .
check "lk: lock names through <prefix>.map; the header names the map" bash -c '
    ciat -p --locks lk.3 && grep -E "^# (options|attribution):|^RxTxL52:" lk.3.ciat_report' <<'EOF'
# options: gap_limit 4096 parallel_start yes lenient no events no grain 4 page_size 4096 locks 10
# attribution: map lk.3.map
RxTxL52: lock rank 1 addr 0x00009000 space critical lock_kind none kind object name counter_lock where counter.c:7 acquisitions 3 contended 1 contended_recorded 1 handoffs 2 waits 1 wait_cycles 2 wait_max 2 holds 3 hold_cycles 5 hold_max 3 wait_us 4 hold_us 8 hold_us_max 5
RxTxL52: lock rank 2 addr 0x00009100 space critical lock_kind none kind address name 0x00009100 where - acquisitions 1 contended 0 contended_recorded 0 handoffs 0 waits 0 wait_cycles 0 wait_max 0 holds 1 hold_cycles 1 hold_max 1 wait_us 0 hold_us 1 hold_us_max 1
--- exit 0
EOF
rm -f lk.3.map

# The default report is the one without the options, but for the command,
# the options line's additions, the map line and L52-L56.
mkdir -p plain with
ciat -p -o plain lk.3
ciat -p --locks=2 --intervals -o with lk.3
check "lk: the report without L52-L56, L61-L62 is the default one" bash -c '
    diff <(grep -v "^# command:" plain/lk.3.ciat_report) \
         <(grep -Ev "^# command:|^# attribution:|^RxTxL(5[2-6]|6[12]):" with/lk.3.ciat_report |
           sed "s/ locks 2 intervals yes\$//")' <<'EOF'
--- exit 0
EOF
check_same "lk: the memory file is the default one" plain/lk.3.memory with/lk.3.memory

# ---- properties ----------------------------------------------------------
# props FILE THREADS: the rules every --locks --intervals report keeps:
# per lock waits <= contended <= acquisitions, holds <= acquisitions,
# handoffs < acquisitions, max <= sum, the L53/L54 histograms sum to waits
# and holds; a critical section key's holds never overlap (one holder at a
# time, the next taking it at or after the release), so its hold_cycles <=
# the run's end clock; the waits of all locks <= RxTxL08's sync_cycles; the
# L56 counts sum to MARKERS (given) less one per thread with markers; per
# ranked lock 1 to 4 L61 sites, numbered 1, 2, ..., whose acquisitions,
# contended and wait_cycles sum to at most L52's (to exactly L52's when
# every site is listed: SITES_ALL=1); the L62 counts sum to at most the
# acquisitions less FIRSTS (argument 3: the threads that take a lock),
# exactly when FOLLOWS_EQ=1 (no thread nests locks).
props() {
    awk -v markers="$2" -v firsts="${3:-0}" -v sites_all="${SITES_ALL:-0}" -v follows_eq="${FOLLOWS_EQ:-0}" '
    function field(k,   i) { for (i = 2; i <= NF; i++) if ($i == k) return $(i + 1); return "" }
    function bad(why) { print "line " FNR ": " why; status = 1 }
    /^RxTxL00:/ { end = field("end") }
    /^RxTxL08:/ { sync = field("sync_cycles") }
    /^RxTxL52:/ {
        a = field("acquisitions"); c = field("contended"); w = field("waits"); h = field("holds")
        if (w + 0 > c + 0 || c + 0 > a + 0) bad("waits <= contended <= acquisitions")
        if (h + 0 > a + 0) bad("holds <= acquisitions")
        if (a > 0 && field("handoffs") + 0 >= a + 0) bad("handoffs < acquisitions")
        if (field("wait_max") + 0 > field("wait_cycles") + 0) bad("wait_max <= wait_cycles")
        if (field("hold_max") + 0 > field("hold_cycles") + 0) bad("hold_max <= hold_cycles")
        if (field("space") == "critical" && field("hold_cycles") + 0 > end + 0) bad("hold_cycles <= end")
        waits[field("rank")] = w; holds[field("rank")] = h; total += field("wait_cycles")
        acq[field("rank")] = a; cont[field("rank")] = c; wc[field("rank")] = field("wait_cycles"); acqs += a
    }
    /^RxTxL61:/ {
        r = field("rank"); nsite[r]++; sa[r] += field("acquisitions"); sc[r] += field("contended")
        sw[r] += field("wait_cycles")
        if (field("site") + 0 != nsite[r]) bad("site " field("site") ", expected " nsite[r])
    }
    /^RxTxL62:/ { follows += field("count") }
    /^RxTxL5[34]:/ {
        n = 0
        for (i = 2; i <= NF; i++) if ($i ~ /:/) { split($i, p, ":"); n += p[2] }
        want = $1 == "RxTxL53:" ? waits[field("rank")] : holds[field("rank")]
        if (n != want + 0) bad("histogram sums to " n ", not " want)
    }
    /^RxTxL56:/ { intervals += field("count") }
    END {
        if (total > sync + 0) bad("wait_cycles " total " > sync_cycles " sync)
        if (intervals + 0 != markers + 0) bad("intervals " intervals ", markers less one per thread " markers)
        for (r in acq) {
            if ((nsite[r] + 0 > 4) || (nsite[r] + 0 < 1)) bad("rank " r ": " nsite[r] " sites, not 1-4")
            if ((sa[r] + 0 > acq[r] + 0) || (sc[r] + 0 > cont[r] + 0) || (sw[r] + 0 > wc[r] + 0))
                bad("rank " r ": sites " sa[r] "/" sc[r] "/" sw[r] " > L52 " acq[r] "/" cont[r] "/" wc[r])
            if (sites_all && ((sa[r] != acq[r]) || (sc[r] != cont[r]) || (sw[r] != wc[r])))
                bad("rank " r ": sites " sa[r] "/" sc[r] "/" sw[r] " != L52 " acq[r] "/" cont[r] "/" wc[r])
        }
        if (follows + 0 > acqs - firsts) bad("follows " follows " > acquisitions " acqs " - firsts " firsts)
        if (follows_eq && (follows + 0 != acqs - firsts)) bad("follows " follows " != acquisitions " acqs " - firsts " firsts)
        if (!status) print "ok"
        exit status
    }' "$1"
}
export -f props

for spec in "4 701 4000" "16 702 1500" "2 703 8000"; do
    read -r p seed n <<<"$spec"
    rm -rf rs.* r1 r2 r3 && mkdir r1 r2
    awk -v seed="$seed" -v threads="$p" -v n="$n" -f "$CLI_DIR/ciat/randset.awk" >rs.txt
    smait asm rs.txt rs
    # thread 0 drops every marker of randset.awk: its intervals are its markers less one
    m=$(awk '/^thread /{t=$2} /^marker/ && t==0 {n++} END {print (n ? n - 1 : 0)}' rs.txt)
    # the threads that take the lock (randset.awk never nests it: every
    # later acquisition follows a release, L62)
    f=$(awk '/^thread /{t=$2} /^begin_critical/ {s[t] = 1} END {print length(s)}' rs.txt)
    check "random $p threads, seed $seed: ciat --locks --intervals runs" \
        ciat -q --locks --intervals --workers 1 -o r1 "rs.$p" <<'EOF'
--- exit 0
EOF
    check "random $p threads, seed $seed: the rules hold" bash -c "FOLLOWS_EQ=1 props r1/rs.$p.ciat_report $m $f" <<'EOF'
ok
--- exit 0
EOF
    # A map whose one source line covers randset.awk's code: every site with
    # a pc is that line, so at most two rows a lock (it, unknown), all listed.
    printf '# smait address map v3\ncode 0x00010000 0x00020000 f prog\nline 0x00010000 0x00020000 1 all.c\n# end of address map\n' >one.map
    check "random $p threads, seed $seed: one source line: the sites add up to L52" bash -c "
        mkdir -p r3 && ciat -q --locks --map one.map -o r3 rs.$p && SITES_ALL=1 FOLLOWS_EQ=1 props r3/rs.$p.ciat_report 0 $f &&
        grep -cE '^RxTxL61: .* where all.c:1 ' r3/rs.$p.ciat_report" <<'EOF'
ok
1
--- exit 0
EOF
    ciat -q --locks --intervals --workers 2 -o r2 "rs.$p"
    same_but_command "random $p threads, seed $seed: --workers 2 gives the same report" \
        "r1/rs.$p.ciat_report" "r2/rs.$p.ciat_report"
done

# One hot lock and four cold ones: the hot one ranks first, with waits;
# thread t alone takes cold lock 0xb000 + 16 (t mod 4) when there are at most
# four threads, so those never wait.
for spec in "2 801 200" "4 802 120" "8 803 60"; do
    read -r p seed n <<<"$spec"
    rm -f hot.*
    awk -v seed="$seed" -v threads="$p" -v n="$n" -f "$D/hot.awk" >hot.txt
    smait asm hot.txt hot
    # no instruction stream: one unknown site a lock, all of it; every
    # thread takes a lock, none nests (--locks=100: every pair of L62 listed)
    check "hot lock, $p threads: ranked first, and waited for" bash -c "
        ciat -q -p --locks=100 hot.$p && SITES_ALL=1 FOLLOWS_EQ=1 props hot.$p.ciat_report 0 $p &&
        awk '/^RxTxL52: lock rank 1 / { print \$6, (\$0 ~ / waits [1-9]/ ? \"waits\" : \"no waits\") }' hot.$p.ciat_report" <<'EOF'
ok
0x0000a000 waits
--- exit 0
EOF
    if [ "$p" -le 4 ]; then
        check "hot lock, $p threads: the cold locks never wait" bash -c "
            grep -E '^RxTxL52: .* addr 0x0000b0' hot.$p.ciat_report | grep -v ' waits 0 wait_cycles 0 ' | wc -l" <<'EOF'
0
--- exit 0
EOF
    fi
done

# ---- --shard, --merge, --jobs: part 0 follows every thread's locks and
# markers and writes L52-L56 into its partial result (lock-line records);
# the merge gives the whole run's outputs byte for byte (ciat_sharded,
# tests/cli-lib.sh: the whole run, its N parts and merge, --jobs N).
cp "$D/lk.3.map" .
ciat_sharded "lk, named" lk.3 3 -p --json --locks --intervals
rm -f lk.3.map
ciat_sharded "rw" rw.2 2 -p --locks=1
# L61-L63 (sites named through a map), L62: part 0's lines
ciat_sharded "site, named" site.3 3 -p --json --locks --critical-path --map "$D/site.map"
for spec in "4 711 3000" "8 712 1500"; do
    read -r p seed n <<<"$spec"
    rm -f rs.*
    awk -v seed="$seed" -v threads="$p" -v n="$n" -f "$CLI_DIR/ciat/randset.awk" >rs.txt
    smait asm rs.txt rs
    ciat_sharded "random $p threads, seed $seed" "rs.$p" 3 --locks --intervals --by-data
done

# A merge refuses lock lines that are not part 0's, or not lock lines.
mkdir sh
for i in 0 1; do ciat -q -p --locks -o sh --shard "$i/2" lk.3; done
cp sh/lk.3.ciat_partial.1-of-2 part1
sed -i 's/^locks-end$/lock-line 52 lock rank 9\nlocks-end/' sh/lk.3.ciat_partial.1-of-2
check_status "--merge: a lock line in part 1 is refused" 2 'ciat_partial\.1-of-2: .*locks-end expected: the lock lines are part 0.s' \
    ciat --merge sh/lk.3.ciat_partial.0-of-2 sh/lk.3.ciat_partial.1-of-2
cp part1 sh/lk.3.ciat_partial.1-of-2
sed -i 's/^lock-line 52 /lock-line 64 /' sh/lk.3.ciat_partial.0-of-2
check_status "--merge: a lock line of no such level is refused" 2 'ciat_partial\.0-of-2: .*lock-line LL NAME TEXT expected, LL 52-63' \
    ciat --merge sh/lk.3.ciat_partial.0-of-2 sh/lk.3.ciat_partial.1-of-2

# ---- JSON ------------------------------------------------------------------
if python3 -c 'import jsonschema' 2>/dev/null; then
    mkdir -p js
    ciat -p --json --locks --intervals -o js lk.3
    check "lk: --json is valid and holds the text's figures" python3 "$CLI_DIR/../tools/report-json-check.py" \
        "$CLI_DIR/../../docs/report.schema.json" js/lk.3.ciat_report js/lk.3.ciat_report.json <<'EOF'
--- exit 0
EOF
    ciat -p --json --locks --map "$D/site.map" -o js site.3
    check "site: JSON fields of L61 and L62" python3 -c '
import json, sys
rep = json.load(open(sys.argv[1]))
for l in rep["lines"]:
    if l["tag"] in ("RxTxL61", "RxTxL62"):
        f = l["fields"]
        print(l["name"], f.get("rank"), f.get("site"), f.get("pc"), f.get("where"), f.get("wait_cycles"), f.get("from"), f.get("to"), f.get("count"))
' js/site.3.ciat_report.json <<'EOF'
lock_site 1 1 0x00002004 prog.c:20 3 None None None
lock_site 1 2 - - 1 None None None
lock_site 1 3 0x00001000 prog.c:10 0 None None None
lock_site 2 1 0x0000100c prog.c:10 0 None None None
lock_follows 1 None None None None 0x00009000 0x00009000 1
lock_follows 2 None None None None 0x00009000 0x00009100 1
--- exit 0
EOF
    check "lk: JSON fields of L52 and L56" python3 -c '
import json, sys
rep = json.load(open(sys.argv[1]))
for l in rep["lines"]:
    if l["tag"] in ("RxTxL52", "RxTxL56") and l["fields"].get("rank", 1) == 1:
        f = l["fields"]
        print(l["name"], f.get("addr"), f.get("space"), f.get("wait_cycles"), f.get("from"), f.get("to"), f.get("mean_us"))
' js/lk.3.ciat_report.json <<'EOF'
lock 0x00009000 critical 2 None None None
interval None None None 1 2 8.0
interval None None None 5 7 30.0
interval None None None 7 5 20.0
--- exit 0
EOF
else
    echo "(ciat-locks: no python3-jsonschema: JSON checks skipped)"
fi

# ---- bad options and combinations: usage errors (exit 1), nothing written ----
mkdir -p bad
check "--locks=0: a usage error" ciat -p --locks=0 -o bad lk.3 <<'EOF'
--- stderr
ciat: option --locks=0: N must be a number of lines, 1..1000000
ciat: try 'ciat --help'
--- exit 1
EOF
check "--locks=x: a usage error" ciat -p --locks=x -o bad lk.3 <<'EOF'
--- stderr
ciat: option --locks=x: N must be a number of lines, 1..1000000
ciat: try 'ciat --help'
--- exit 1
EOF
check "--locks=1000001: a usage error" ciat -p --locks=1000001 -o bad lk.3 <<'EOF'
--- stderr
ciat: option --locks=1000001: N must be a number of lines, 1..1000000
ciat: try 'ciat --help'
--- exit 1
EOF
check "--intervals=2: a usage error" ciat -p --intervals=2 -o bad lk.3 <<'EOF'
--- stderr
ciat: option '--intervals' takes no value
ciat: try 'ciat --help'
--- exit 1
EOF
check "--locks in slice mode: refused" ciat --locks -i 2 -o bad lk.3 <<'EOF'
--- stderr
ciat: --locks is for thread mode: slice mode (-i) runs processes on processors, whose clocks and waits are the processors'
ciat: try 'ciat --help'
--- exit 1
EOF
check "--merge with --locks: refused (a run's options are in its parts)" ciat --merge --locks x.ciat_partial.0-of-1 <<'EOF'
--- stderr
ciat: --merge takes the parts and -o DIR only, not --locks: the run's options are in its parts
ciat: try 'ciat --help'
--- exit 1
EOF
check_status "--locks with a map that cannot be read: exit 2" 2 '^ciat: nosuch\.map: cannot read' \
    ciat -p --locks --map nosuch.map -o bad lk.3
check "nothing written by the refused runs" ls bad <<'EOF'
--- exit 0
EOF
