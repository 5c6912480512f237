# schedule.sh — `smait schedule`: the interleaving of the shared scheduler
# (common/scheduler.c), one golden test per rule of docs/scheduler.md §2 (instruction
# stream) and §5.1 (thread mode). ciat and cdat process records in exactly
# this order, so these goldens pin the order for both.
#
# Inputs are trace sets in text form, tests/cli/schedule/NAME.txt (assembled
# with `smait asm`); each one opens with a comment that derives every line of
# its expected output by hand: the order, each clock, each idle count.
# Expected outputs are tests/cli/schedule/EXPECTED.expected.
D=$CLI_DIR/schedule

# sched NAME EXPECTED [OPTIONS...]: assemble NAME.txt (the first time), then
# compare `smait schedule OPTIONS NAME.P` with EXPECTED.expected.
sched() {
    local name=$1 exp=$2 p
    shift 2
    p=$(awk '$1 == "threads" { print $2; exit }' "$D/$name.txt")
    if [ ! -e "$name.$p.0" ]; then
        check "asm $name.txt" smait asm "$D/$name.txt" "$name" <<'EOF'
--- exit 0
EOF
    fi
    golden "$exp: smait schedule${*:+ $*} $name.$p" "$D/$exp.expected" smait schedule "$@" "$name.$p"
}

# ---- which thread runs next -------------------------------------------------------
sched tie tie -p --fetches                  # ties: round robin after the previous thread
sched smallest smallest -p --fetches        # the smallest clock first

# ---- phases -------------------------------------------------------------------------
sched parallel parallel -p                  # -p: one parallel phase, spawn/join ignored
sched parallel parallel-serial              # the same traces without -p
sched spawn-all spawn-all                   # spawn arg2 = 0 and > P: all threads; a worker's spawn
sched spawn-some spawn-some                 # spawn arg2 < P: the others stay idle
sched no-join no-join                       # end of trace counts as join
sched markers markers                       # thread 0's markers split phases, a worker's do not
sched unprocessed unprocessed               # thread 0 ends first: records never processed

# ---- barriers -----------------------------------------------------------------------
sched barrier-all barrier-all -p            # arg2 = 0: all live threads
sched barrier-some barrier-some -p          # arg2 < P: groups of arg2 threads
sched barrier-joined barrier-joined         # a joined thread does not count (L shrinks)

# ---- critical and ordered sections ----------------------------------------------------
sched critical critical -p                  # hand-over: smallest clock, ties lowest id
sched ordered ordered -p                    # ordered sections: a key space of their own
sched bad-unlock bad-unlock -p              # end of a section not held: exit 2
sched bad-unlock bad-unlock-lenient -p --lenient

# ---- deadlocks --------------------------------------------------------------------------
sched deadlock-locks deadlock-locks         # two threads waiting for each other's lock
sched deadlock-locks deadlock-locks-lenient --lenient
sched deadlock-barrier deadlock-barrier -p  # barriers that can never fill
sched deadlock-barrier deadlock-barrier-lenient -p --lenient

# ---- recorded synchronisation (docs/scheduler.md §6.1) ------------------------------------
sched sync-sem sync-sem -p                  # the example of docs/scheduler.md §6.1, recorded ...
sched sync-sem sync-sem-simulated -p --sync=simulated           # ... and simulated
sched sync-ready sync-ready -p              # releases already replayed: no wait; unmodelled warnings
sched sync-acquire sync-acquire -p          # a wait, woken by the release, clock raised

# ---- one processor in turns (docs/scheduler.md §14) --------------------------------------
sched turns turns-2 --turns 2               # turns of 2, a spawn, a barrier, joins
sched critical critical-turns-3 -p --turns 3    # the hand-over by the one processor's clock
check "--turns with slice mode" smait schedule --turns 5 -i 2 critical.4 <<'EOF'
--- stderr
smait: --turns is for thread mode; slice mode (-i) runs processes by their time stamps (one processor, turns of V instructions: -i 1 -rr_interleaving -s V)
smait: try 'smait --help'
--- exit 1
EOF
check "--turns 0" smait schedule --turns 0 critical.4 <<'EOF'
--- stderr
smait: option --turns: 0 is out of range (at least 1)
smait: try 'smait --help'
--- exit 1
EOF
ciat -q -p --turns 3 -o . critical.4
check "ciat --turns: the header says so" grep '^# turns' critical.4.ciat_report <<'EOF'
# turns: one processor, round robin, turn_length 3
--- exit 0
EOF
check_true "ciat --turns: the clocks of the one processor (the phase ends at 24, every instruction)" \
    grep -q ' end 24 ' critical.4.ciat_report
sched sync-acquire sync-acquire-simulated -p --sync=simulated   # the consumer reads too early
sched sync-order sync-order -p              # release 2 before release 1; one release wakes two
sched sync-mutex sync-mutex -p              # the recorded hand-over order T2, T1, T0 ...
sched sync-mutex sync-mutex-simulated -p --sync=simulated       # ... the pseudo-clock order T0, T1, T2
sched sync-condvar sync-condvar -p          # unlock, wake-up (acquire), lock again
sched sync-wake sync-wake -p                # ... marked wake=1: the lock taken at the wake-up's clock
sched sync-ordered sync-ordered -p          # ordered sections; three key spaces
sched sync-deadlock sync-deadlock -p        # the message names each edge (exit 2)
sched sync-deadlock sync-deadlock-lenient -p --lenient          # the waits given up
sched sync-dup sync-dup -p                  # a release number replayed twice (exit 2)
sched sync-dup sync-dup-lenient -p --lenient
sched sync-wrap sync-wrap-lenient -p --lenient                  # numbers modulo 2^32

# Forty threads deadlocked on recorded edges, with a long trace name: every
# line of the message is there (the edges are longer than a lock wait's
# text; under SANITIZE=1 a message buffer too small for them is caught).
# T0 takes the lock (release 1) and again (release 5: 2..4 missing); then
# all 40 wait for release 2147483647.
{
    echo "threads 40"
    printf 'thread 0\nstart_trace sync=1\nbegin_critical lock=0x9000 kind=8\nend_critical lock=0x9000 seq=1 kind=8\n'
    printf 'begin_critical lock=0x9000 seq=1 kind=8\nend_critical lock=0x9000 seq=5 kind=8\n'
    printf 'begin_critical lock=0x9000 seq=2147483647 kind=8\nend_trace\n'
    for i in $(seq 1 39); do
        printf 'thread %d\nstart_trace sync=1\nload 4 0x100\nbegin_critical lock=0x9000 seq=2147483647 kind=8\nend_trace\n' "$i"
    done
} >edges.txt
E=a-deadlock-of-forty-threads-waiting-on-recorded-edges-x
smait asm edges.txt $E
check "a deadlock of 40 threads on recorded edges: one line each" bash -c \
    "smait schedule -p $E.40 >/dev/null 2>err; echo \$?; grep -c 'waits for release 2147483647 of critical lock 0x00009000 (omp_critical; release 1 replayed, 1 later one out of order) at record' err" <<'EOF'
2
40
--- exit 0
EOF

# --sync: both spellings; auto = recorded on these traces; simulated changes
# nothing but the sync line on traces that do not record their
# synchronisation, and recorded is refused there (exit 2).
check "-sync recorded (the report's spelling) is the default on flagged traces" \
    bash -c 'diff <(smait schedule -p sync-mutex.3) <(smait schedule -p -sync recorded sync-mutex.3)' <<'EOF'
--- exit 0
EOF
check "--sync=auto is the default" \
    bash -c 'diff <(smait schedule -p sync-mutex.3) <(smait schedule -p --sync=auto sync-mutex.3)' <<'EOF'
--- exit 0
EOF
check "--sync=simulated on traces without the flag: only the sync line is new" \
    bash -c 'diff <(smait schedule -p critical.4) <(smait schedule -p --sync simulated critical.4)' <<'EOF'
1a2
> # sync: simulated (--sync=simulated)
--- exit 1
EOF
check "--sync=recorded on traces without the flag" smait schedule -p --sync=recorded critical.4 <<'EOF'
--- stderr
smait: critical.4.0: --sync=recorded, but the traces do not record their synchronisation (trace 0 does not begin with start_trace sync=1)
--- exit 2
EOF
check "--sync with a bad value" smait schedule --sync=replayed critical.4 <<'EOF'
--- stderr
smait: option --sync=replayed: must be auto, recorded, simulated or handovers
smait: try 'smait --help'
--- exit 1
EOF
check "--sync=recorded in slice mode" smait schedule -i 2 --sync=recorded critical.4 <<'EOF'
--- stderr
smait: --sync=recorded is for thread mode; slice mode (-i) orders processes by their time stamps and does not replay recorded synchronisation
smait: try 'smait --help'
--- exit 1
EOF
check "slice mode on flagged traces: the edges are not replayed" \
    bash -c 'smait schedule -i 2 sync-mutex.3 | head -2' <<'EOF'
# smait schedule of sync-mutex.3: processes 3 processors 2 (slices)
# sync: simulated (slice mode: recorded synchronisation is not replayed)
--- exit 0
EOF

# ---- instruction stream (docs/scheduler.md §2) --------------------------------------------
sched gap gap --fetches                     # gaps filled, too long, backwards, unaligned
sched gap-limit gap-limit --fetches         # default limit 4096: both gaps filled
sched gap-limit gap-limit-8 --fetches -gap_limit 8      # the report's spelling
sched gap-limit gap-limit-8 --fetches --gap-limit=8     # the GNU spelling
sched gap-limit gap-limit-8 --fetches --gap-limit 8
sched level2 level2 -p --fetches            # no branches: nothing fetched
sched pc-unknown pc-unknown --fetches       # pc unknown until a branch or procedure start

# ---- call traces (docs/trace-sets.md §3) ----------------------------------------------------
check "asm calls-times.txt" smait asm "$D/calls-times.txt" calls-times <<'EOF'
--- exit 0
EOF
sched calls calls calls-times.2             # times from the call traces
check "without the call traces the detailed trace's own times" \
    bash -c 'smait schedule calls.2 | grep -E "barrier var|join @"' <<'EOF'
1 T0 13: barrier var=0x00008000 threads=2 @300:350
2 T1 8: barrier var=0x00008000 threads=2 @320:350
2 T0 19: join @400:410
2 T1 14: join @405:410
--- exit 0
EOF
check "the call traces change the times only" \
    bash -c 'diff <(smait schedule calls.2 | sed "s/ @[0-9:]*\$//") \
                  <(smait schedule calls-times.2 calls.2 | sed "s/ @[0-9:]*\$//")' <<'EOF'
--- exit 0
EOF

# ---- the same interleaving whatever the form of the input --------------------------------------
# Big-endian and gzip-compressed copies of a set schedule identically.
smait --byte-order=big asm "$D/critical.txt" critical-be
for i in 0 1 2 3; do gzip -n -c "critical.4.$i" >"critical-gz.4.$i"; done
check "big-endian traces: the same interleaving" \
    bash -c 'diff <(smait schedule -p critical.4 | tail -n +2) <(smait schedule -p critical-be.4 | tail -n +2)' <<'EOF'
--- exit 0
EOF
check "gzip traces: the same interleaving" \
    bash -c 'diff <(smait schedule -p critical.4 | tail -n +2) <(smait schedule -p critical-gz.4 | tail -n +2)' <<'EOF'
--- exit 0
EOF

# ---- the deadlock message with long trace paths (any length, any thread count) ---------------
# The message grows with its lines: one thread that waits for its own lock,
# under a 300-character path, and eight blocked threads under 140-character
# paths, in smait schedule, ciat and cdat (before, a fixed-size buffer
# overflowed: AddressSanitizer saw it, make check SANITIZE=1).
long=$(printf 'a%.0s' {1..100})/$(printf 'b%.0s' {1..100})/$(printf 'c%.0s' {1..88})
mkdir -p "$long"
printf 'threads 1\nthread 0\nbegin_critical lock=0x9000\nbegin_critical lock=0x9000\n' >self.txt
smait asm self.txt "$long/self"
self_msg="  thread 0 ($long/self.1.0) waits for critical lock 0x00009000 held by thread 0 at record 6, clock 0"
check "a 300-character path: the whole message (smait schedule)" smait schedule "$long/self.1" <<EOF
# smait schedule of $long/self.1: threads 1
phase 1 begin serial by start threads 1 clock 0
0 T0 resume idle 0
0 T0 0: begin_critical lock=0x00009000
0 T0 6: begin_critical lock=0x00009000
0 T0 stop critical
--- stderr
smait: inconsistent traces: no thread can run (deadlock) in phase 1; blocked threads:
$self_msg
--- exit 2
EOF
check_true "the trace path is 299 characters long" test "$(( ${#long} + 9 ))" -eq 299
check "a 300-character path: ciat" ciat -q "$long/self.1" <<EOF
--- stderr
ciat: inconsistent traces: no thread can run (deadlock) in phase 1; blocked threads:
$self_msg
--- exit 2
EOF
check "a 300-character path: cdat" cdat -q "$long/self.1" "$CLI_DIR/../../configs/1x1.ini" <<EOF
--- stderr
cdat: inconsistent traces: no thread can run (deadlock) in phase 1; blocked threads:
$self_msg
--- exit 2
EOF
check_true "no report after the deadlocks" test ! -e "$long/self.1.ciat_report" -a ! -e "$long/self.1.cdat_report"

# Eight threads (-p): T0 takes lock 0x9000 and then waits for it again; T1-T7 wait for it.
mid=$(printf 'd%.0s' {1..130})
mkdir "$mid"
{
    echo "threads 8"
    for t in 0 1 2 3 4 5 6 7; do
        printf 'thread %d\nbegin_critical lock=0x9000\nbegin_critical lock=0x9000\n' "$t"
    done
} >eight.txt
smait asm eight.txt "$mid/lk"
eight_msg=$(printf 'inconsistent traces: no thread can run (deadlock) in phase 1; blocked threads:'
            printf '\n  thread 0 (%s/lk.8.0) waits for critical lock 0x00009000 held by thread 0 at record 6, clock 0' "$mid"
            for t in 1 2 3 4 5 6 7; do
                printf '\n  thread %d (%s/lk.8.%d) waits for critical lock 0x00009000 held by thread 0 at record 0, clock 0' \
                    "$t" "$mid" "$t"
            done)
check "eight threads, 140-character paths: smait schedule" bash -c 'smait schedule -p "$0" >/dev/null' "$mid/lk.8" <<EOF
--- stderr
smait: $eight_msg
--- exit 2
EOF
check "eight threads, 140-character paths: ciat" ciat -q -p "$mid/lk.8" <<EOF
--- stderr
ciat: $eight_msg
--- exit 2
EOF
check "eight threads, 140-character paths: cdat" cdat -q -p "$mid/lk.8" "$CLI_DIR/../../configs/4x4.ini" <<EOF
--- stderr
cdat: $eight_msg
--- exit 2
EOF
