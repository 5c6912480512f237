# outputs.sh — a run's outputs appear all together or not at all (README,
# "Exit status and messages"; common/out_file.h).
#
# A full disk is simulated with the file size limit (ulimit -f, SIGXFSZ
# ignored: a write past the limit fails with "File too large", as one past a
# full disk fails with "No space left on device"), sized so that the file that
# fails is one of the last ones written: ciat's event trace (after the memory
# file was complete), cdat's detailed trace (after its general traces), tdat's
# SVG or time file (after the frequency output was complete). Each failed run
# must exit 2 and leave every file below the test directory as it was: the
# earlier outputs byte for byte, no temporary. Where a private mount namespace
# can be had (unshare), the same again on a really full tmpfs. Then: the
# frequency output on a regular standard output (cut back; with >> the earlier
# text kept), temporaries of a run killed by SIGKILL removed by the next run
# into the directory, a live run's temporaries left alone while another run
# commits the same outputs. And cdat with six machines in one pass, their
# traces failing on several threads at once: one message, nothing left.

# unchanged NAME CMD... (expected text on stdin, as for check): the check,
# then "NAME: nothing changed" (check_untouched).
unchanged() {
    check_untouched "$1" "nothing changed" "${@:2}"
}

# limited KB CMD...: CMD with writes past KB KiB per file failing (EFBIG).
limited() {
    local kb=$1
    shift
    (trap '' XFSZ; ulimit -f "$kb" && exec "$@")
}

# mark FILE...: make earlier outputs that a new run would not write (so a
# replaced one shows).
mark() {
    local f
    for f in "$@"; do echo "# an earlier run" >>"$f"; done
}

temporaries() {     # DIR: the number of temporaries in DIR
    find "$1" -maxdepth 1 -name '*.tmp.*' | wc -l
}

# ---- ciat: the report or the event trace fails after the memory file is complete ---------
# calls.2 (ciat-golden's): a 14 KB report, a 0.2 KB event trace and memory
# file; the limit is 8 KiB.
cp "$CLI_DIR/ciat/calls.txt" .
smait asm calls.txt calls
ciat -p -ciat_events calls.2 || echo "the good ciat run of calls.2 failed"
mark calls.2.ciat_report calls.2.memory calls.2.ciat_events
unchanged "ciat: a full disk at the report" limited 8 ciat -p -ciat_events calls.2 <<'EOF'
--- stderr
ciat: calls.2.ciat_report: cannot write the report body (a temporary file): File too large
--- exit 2
EOF
# 1000 stores of thread 0 and 1000 loads of thread 1 to one word, in turn
# (-p): 2000 events (24 KB of event trace), a 5 KB report, a 229-byte memory
# file; the limit is 16 KiB.
printf 'threads 2\nthread 0\nproc 0x1000\nrepeat 1000\nstore 4 0x100\nend\nthread 1\nproc 0x1000\nrepeat 1000\nload 4 0x100\nend\n' >ev.txt
smait asm ev.txt ev
ciat -p -ciat_events ev.2 || echo "the good ciat run failed"
mark ev.2.ciat_report ev.2.memory ev.2.ciat_events
unchanged "ciat: a full disk at the event trace" limited 16 ciat -p -ciat_events ev.2 <<'EOF'
--- stderr
ciat: ev.2.ciat_events: write failed: File too large
--- exit 2
EOF
check "ciat: the same run with room writes all three" ciat -p -ciat_events ev.2 <<'EOF'
--- exit 0
EOF
check_true "… replacing the earlier ones" sh -c '! grep -q "an earlier run" ev.2.ciat_report ev.2.memory ev.2.ciat_events'

# ---- cdat: the detailed trace fails after the general traces are complete ----------------
# 300 turns of the same pair on a two-node machine: 46 KB of detailed trace,
# two 9 KB general traces, a 9 KB report; the limit is 16 KiB.
printf 'threads 2\nthread 0\nproc 0x1000\nrepeat 300\nstore 4 0x100\nend\nthread 1\nproc 0x1000\nrepeat 300\nload 4 0x100\nend\n' >cd.txt
smait asm cd.txt cd
printf '[system]\nnodes = 2\n[output]\ngeneral = 1\ndetailed = 1\n' >out.ini
cdat -p cd.2 out.ini || echo "the good cdat run failed"
mark cd.2.cdat_report cd.2.general.0 cd.2.general.1 cd.2.detailed
unchanged "cdat: a full disk at the detailed trace" limited 16 cdat -p cd.2 out.ini <<'EOF'
--- stderr
cdat: cd.2.detailed: write failed: File too large
--- exit 2
EOF
# Compressed (--gzip), ciat's set above: 21 KB of detailed trace, written at
# the end (zlib's buffer is 128 KiB), 3 KB general traces.
mkdir gz
cdat -p --gzip -o gz ev.2 out.ini || echo "the good cdat --gzip run failed"
mark gz/*
unchanged "cdat --gzip: a full disk at the compressed detailed trace" limited 16 cdat -p --gzip -o gz ev.2 out.ini <<'EOF'
--- stderr
cdat: gz/ev.2.detailed.gz: write failed: File too large
--- exit 2
EOF
# zstd (-z): an 11 KB detailed trace, all of it written when the frame ends
# at the commit (stdio's buffer is 128 KiB), 2 KB general traces.
mkdir zs
cdat -p -z -o zs ev.2 out.ini || echo "the good cdat -z run failed"
mark zs/*
unchanged "cdat -z: a full disk at the end of the zstd detailed trace" limited 10 cdat -p -z -o zs ev.2 out.ini <<'EOF'
--- stderr
cdat: zs/ev.2.detailed.zst: write failed: File too large
--- exit 2
EOF

# ---- cdat, several machines in one pass: two of them fail at once --------------------------
# Six machines simulated on several threads, each writing a 0.7 MB detailed
# trace; at 16 KiB several threads' writes fail at about the same time. The
# first failure ends the run (one message, exit 2, no temporary left); the
# others wait for that end. Before, both threads removed and freed the
# outputs while the other still wrote into them: a crash (SIGSEGV) with
# temporaries left, or a garbled second message, in about 3 runs of 10, so
# the case runs 10 times.
printf 'threads 4\n' >mp.txt
for t in 0 1 2 3; do
    printf 'thread %d\nproc 0x1000\nrepeat 3000\nstore 4 0x100\nload 4 0x%x\nend\n' "$t" $(( 0x2000 + t * 64 )) >>mp.txt
done
smait asm mp.txt mp
for k in 1 2 3 4 5 6; do
    printf '[system]\nnodes = 2\nprocs_per_node = 2\nprotocol = %d\n[output]\ngeneral = 1\ndetailed = 1\n' "$k" >"mp$k.ini"
done
before=$(tree_snapshot)
bad=0
for run in 1 2 3 4 5 6 7 8 9 10; do
    limited 16 cdat -p mp.4 mp1.ini mp2.ini mp3.ini mp4.ini mp5.ini mp6.ini 2>.cli-mp-err
    status=$?
    if [ "$status" -ne 2 ] || [ "$(wc -l <.cli-mp-err)" -ne 1 ] ||
        ! grep -Eq '^cdat: mp\.4\.mp[1-6]\.(detailed|general\.[0-3]): write failed: File too large$' .cli-mp-err ||
        [ "$(tree_snapshot)" != "$before" ]; then
        { echo "run $run: exit $status"; cat .cli-mp-err; tree_snapshot | diff <(echo "$before") - ; } >>.cli-mp-bad
        bad=$((bad + 1))
        find . -maxdepth 1 \( -name 'mp.4.mp*' -o -name '*.tmp.*' \) -delete
    fi
done
rm -f .cli-mp-err
if [ "$bad" -eq 0 ]; then
    _cli_result ok "cdat, six machines in one pass, failing on several threads at once: exit 2, one message, nothing left (10 runs)"
else
    _cli_result FAIL "cdat, six machines in one pass, failing on several threads at once: exit 2, one message, nothing left (10 runs)" .cli-mp-bad
fi
rm -f .cli-mp-bad

# ---- tdat: the SVG or the time file fails after the frequency output is complete ------------
# Clocks 0..2999 in bins of 1: a 20 KB time file, a 27 KB SVG, a 0.5 KB
# frequency output.
seq 0 2999 >clocks.ev
tdat --svg c.svg clocks.ev c.time 1 2 >c.freq || echo "the good tdat run failed"
mark c.time c.svg
cp c.freq c.freq.earlier
unchanged "tdat: a full disk at the SVG (24 KiB), standard output a pipe" \
    limited 24 tdat --svg c.svg clocks.ev c.time 1 2 <<'EOF'
--- stderr
tdat: c.svg: write failed: File too large
--- exit 2
EOF
unchanged "tdat: a full disk at the time file (16 KiB)" limited 16 tdat clocks.ev c.time 1 2 <<'EOF'
--- stderr
tdat: c.time: write failed: File too large
--- exit 2
EOF
# Standard output a file (> freq): the shell has emptied it; the failed run
# leaves it empty. With >>, the earlier text stays as it was.
limited 24 tdat --svg c.svg clocks.ev c.time 1 2 >c.freq 2>/dev/null
check "tdat > freq, a failed run: exit 2, freq empty" sh -c 'echo $1; wc -c <c.freq' - $? <<'EOF'
2
0
--- exit 0
EOF
cp c.freq.earlier c.freq
limited 24 tdat --svg c.svg clocks.ev c.time 1 2 >>c.freq 2>/dev/null
check_same "tdat >> freq, a failed run: the earlier text unchanged" c.freq.earlier c.freq
tdat --svg c.svg clocks.ev c.time 1 2 >c.freq
check_same "tdat > freq, a good run: the frequency output" c.freq.earlier c.freq
check_true "… and the time file and SVG replaced" sh -c '! grep -q "an earlier run" c.time c.svg'

# Standard output closed: an error before anything is written (the time
# file's temporary took descriptor 1 and the frequency output went into it).
check "tdat with standard output closed" sh -c 'tdat clocks.ev closed.time 10 1 >&-' <<'EOF'
--- stderr
tdat: standard output: cannot write: Bad file descriptor
--- exit 2
EOF
check_true "… leaves no time file" test ! -e closed.time

# ---- smait asm: every thread's trace or none ---------------------------------------
# An 8-byte trace and a 2400-byte one; the limit is 1 KiB.
printf 'threads 2\nthread 0\nload 4 0x100\nthread 1\nrepeat 300\nload 4 0x200\nend\n' >two.txt
smait asm two.txt two
mark two.2.0 two.2.1
unchanged "smait asm: a full disk at the second trace" limited 1 smait asm two.txt two <<'EOF'
--- stderr
smait: two.2.1: write failed: File too large
--- exit 2
EOF

# ---- a really full file system ------------------------------------------------------
# A 48 KiB tmpfs in a private mount namespace, holding the earlier ciat
# outputs of ev.2 (36 KiB in 4 KiB pages): the new event trace does not fit.
full_disk() {
    mkdir -p full
    mount -t tmpfs -o size=48k tmpfs full || return 1
    cp ev.2.ciat_report ev.2.memory ev.2.ciat_events full/
    mark full/ev.2.ciat_report full/ev.2.memory full/ev.2.ciat_events
    (cd full && cksum ev.2.*) >before.sum
    ciat -p -ciat_events -o full ev.2
    echo "exit $?"
    (cd full && cksum ev.2.*) | diff before.sum - && echo "earlier outputs unchanged"
    echo "temporaries: $(temporaries full)"
    umount full
}
if unshare -m true 2>/dev/null; then
    ns="unshare -m"
elif unshare -rm true 2>/dev/null; then
    ns="unshare -rm"
else
    ns=""
fi
if [ -n "$ns" ]; then
    export -f full_disk mark temporaries
    check "a full tmpfs: exit 2, earlier outputs unchanged, no temporary" $ns bash -c full_disk <<'EOF'
exit 2
earlier outputs unchanged
temporaries: 0
--- stderr
ciat: full/ev.2.ciat_events: write failed: No space left on device
--- exit 0
EOF
else
    echo "(no private mount namespace: the check on a really full file system is skipped)"
fi

# ---- temporaries of a killed run, and of a live one -------------------------------------
# ciat reads a long trace through a pipe that stalls after 4 MB, so it is
# still running with its temporaries (event trace, report) open.
printf 'threads 1\nthread 0\nproc 0x1000\nrepeat 300000\nload 4 0x100\nstore 4 0x8100\nstore 4 0x10100\nend\n' >long.txt
smait asm long.txt long
echo - >long.list
mkdir out ref ref/out
cp long.list ref/
(cd ref && ciat -ciat_events -o out -t long.list <../long.1.0) || echo "the reference run failed"

# stalled_ciat: start it (pid in $ciat_pid, feeder in $feeder) and wait for
# its three temporaries (report, memory file, event trace); the feeder sends the rest once the file "go" exists.
stalled_ciat() {
    local i
    rm -f fifo go
    mkfifo fifo
    (head -c 4000000 long.1.0; while [ ! -e go ]; do sleep 0.1; done; tail -c +4000001 long.1.0) >fifo &
    feeder=$!
    ciat -ciat_events -o out -t long.list <fifo &
    ciat_pid=$!
    for ((i = 0; i < 300; i++)); do
        [ "$(temporaries out)" -ge 3 ] && break
        sleep 0.1
    done
}

stalled_ciat
{ kill -KILL "$ciat_pid"; wait "$ciat_pid"; } 2>/dev/null     # (no "Killed" notice from the shell)
touch go
wait "$feeder"
check "SIGKILL leaves the temporaries" temporaries out <<'EOF'
3
--- exit 0
EOF
cp ev.2.0 ev.2.1 out/
ciat -p -o out out/ev.2 || echo "the next run failed"
check "the next run into the directory removes them" temporaries out <<'EOF'
0
--- exit 0
EOF

# A live run's temporaries stay while another run writes the same outputs;
# then the live run finishes with its own complete set.
rm -f out/long.list.*
stalled_ciat
temps_before=$(cd out && ls | grep '\.tmp\.' | sort)
printf 'threads 1\nthread 0\nproc 0x1000\nload 4 0x100\n' >short.txt
smait asm short.txt short
STDIN=short.1.0 check "a second run into the directory while the first runs" ciat -ciat_events -o out -t long.list <<'EOF'
--- exit 0
EOF
check "… leaves the first run's temporaries alone" sh -c 'cd out && ls | grep "\.tmp\." | sort' <<EOF
$temps_before
--- exit 0
EOF
touch go
wait "$ciat_pid"
check "… and the first run finishes" echo $? <<'EOF'
0
--- exit 0
EOF
wait "$feeder"
for f in ciat_report memory ciat_events; do
    check_same "… with its own complete set: .$f" ref/out/long.list.$f out/long.list.$f
done
check "… and no temporary" temporaries out <<'EOF'
0
--- exit 0
EOF
rm -f fifo go

# An earlier run's JSON never stays beside another report: a run without
# --json removes <report>.json once its outputs are committed (ciat and
# cdat); a run that fails leaves it. --no-report writes only the event
# trace, so an earlier report, its JSON and its memory file stay as they were.
printf 'thread 0\nstore 4 0x100\nthread 1\nload 4 0x100\nstore 4 0x104\n' >js.txt
smait asm js.txt js
ciat -p --json js.2
cdat -p --json js.2 "$SRC/configs/4x4.ini"
check "a run without --json removes the earlier JSON, for ciat and for cdat" bash -c \
    'ciat -p js.2 && cdat -p js.2 "$1" && ls js.2.*' - "$SRC/configs/4x4.ini" <<'EOF'
js.2.0
js.2.1
js.2.cdat_report
js.2.ciat_report
js.2.memory
--- exit 0
EOF
ciat -p --json js.2
cp js.2.1 js.2.1.good
head -c 3 js.2.1.good >js.2.1
check "a run that fails leaves the earlier JSON" bash -c 'ciat -p js.2 2>/dev/null; echo $?; ls js.2.*json' <<'EOF'
2
js.2.ciat_report.json
--- exit 0
EOF
mv js.2.1.good js.2.1
ciat -p --json --false-sharing js.2
mkdir js-before
cp js.2.ciat_report js.2.ciat_report.json js.2.memory js-before/
check "--no-report --events -: the events on standard output, nothing else written" bash -c \
    'ciat -p --no-report --events - js.2 | tail -n +4; ls js.2.*' <<'EOF'
1 RAW 1 0
js.2.0
js.2.1
js.2.cdat_report
js.2.ciat_report
js.2.ciat_report.json
js.2.memory
--- exit 0
EOF
for f in js.2.ciat_report js.2.ciat_report.json js.2.memory; do
    check_same "--no-report leaves the earlier $f as it was" "js-before/$f" "$f"
done
check "--no-report without an event trace: a usage error" ciat -p --no-report js.2 <<'EOF'
--- stderr
ciat: --no-report writes the event trace only: give --events FILE (or -) or -ciat_events
ciat: try 'ciat --help'
--- exit 1
EOF
check "--no-report with --json: a usage error" ciat -p --no-report --json -ciat_events js.2 <<'EOF'
--- stderr
ciat: --no-report writes the event trace only: not with --json, --matrix-svg, --annotate, --shard or --jobs
ciat: try 'ciat --help'
--- exit 1
EOF
