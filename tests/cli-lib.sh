# cli-lib.sh — helpers for the tests/cli/*.sh files (sourced by run-cli-tests.sh).
#
# A test file runs in its own empty temporary directory. It prepares inputs
# there and calls the checks below; each check prints one "ok"/"FAIL" line.
#
# A command's observed behaviour is written as one text, compared exactly:
#
#     <standard output>
#     --- stderr              (only when something was written to stderr)
#     <standard error>
#     --- exit N
#
#   check NAME CMD...          expected text on stdin (a here-document)
#   golden NAME FILE CMD...    expected text in FILE (tests/cli/<dir>/NAME.expected)
#   check_status NAME N REGEX CMD...
#                              exit status exactly N and stderr exactly one
#                              line matching REGEX (grep -E); stdout not checked
#                              (for inputs whose exact message is not the point)
#   check_same NAME A B        files A and B are byte-for-byte equal (cmp)
#   check_true NAME CMD...     CMD succeeds (for conditions: [ ! -e f ], …)
#   check_memory NAME KIB CMD...
#                              CMD's peak resident memory stays below KIB KiB
#                              (GNU time's %M; output and status not checked)
#   check_file NAME EXP ACT    file ACT equals EXP (a diff when not; CLI_UPDATE=1 rewrites EXP)
#   progress_meter_checks TOOL [OPERAND…]
#                              the progress meter on a terminal, and -q/--quiet
#
# CMD gets standard input from the file named by $STDIN (default /dev/null):
#     STDIN=trace.bin check "dump -" smait dump - <<'EOF' … EOF
#
# Helpers: lcg_bytes SEED N (N pseudo-random bytes, the same on every machine),
# file_size FILE, flip_bytes FILE OFFSET HEX… (overwrite bytes in place).
#
# The test tools beside the built ones, unless make check names them:
# $CDAT_CHECK (the protocol checker, tests/tools/cdat_check.c) and
# $TWO_LEVEL (the independent cache model, tests/tools/two_level.c).
CDAT_CHECK=${CDAT_CHECK:-$BIN/../tests/cdat_check}
TWO_LEVEL=${TWO_LEVEL:-$BIN/../tests/two_level}

_cli_result() {     # STATUS NAME [DETAIL-FILE]
    echo "$1" >>"$CLI_RESULTS"
    if [ "$1" = ok ]; then
        printf 'ok   %s: %s\n' "$CLI_FILE" "$2"
    else
        printf 'FAIL %s: %s\n' "$CLI_FILE" "$2"
        [ -n "${3:-}" ] && sed 's/^/     | /' "$3"
    fi
    return 0
}

# The tools' warning that traces were taken on fewer processors than threads
# (common/tracing_conditions.h): its figures are the tracing machine's load,
# so the checks drop it from what they compare, unless CLI_TRACING_WARNING=keep
# (the tests of the warning itself).
CLI_TRACING_RE=${CLI_TRACING_RE:-'^[a-z-]+: warning: the traces were taken on [0-9]+ processors? for [0-9]+ threads'}
export CLI_TRACING_RE

# Run CMD; leave the combined text in .cli-actual.
_cli_run() {
    "$@" <"${STDIN:-/dev/null}" >.cli-stdout 2>.cli-stderr
    local status=$?
    if [ "${CLI_TRACING_WARNING:-}" != keep ]; then
        grep -Ev "$CLI_TRACING_RE" .cli-stderr >.cli-stderr2
        mv .cli-stderr2 .cli-stderr
    fi
    {
        cat .cli-stdout
        if [ -s .cli-stderr ]; then
            echo "--- stderr"
            cat .cli-stderr
        fi
        echo "--- exit $status"
    } >.cli-actual
    rm -f .cli-stdout .cli-stderr
}

# CLI_UPDATE=1 rewrites a differing golden file with what was observed (then
# review the change with git diff: every number must still be explainable).
_cli_compare() {    # NAME EXPECTED-FILE
    if diff -u --label expected --label actual "$2" .cli-actual >.cli-diff 2>&1; then
        _cli_result ok "$1"
    elif [ "${CLI_UPDATE:-}" = 1 ] && [ "$2" != .cli-expected ]; then
        cp .cli-actual "$2"
        _cli_result ok "$1 (updated)"
    else
        _cli_result FAIL "$1" .cli-diff
    fi
    rm -f .cli-diff .cli-actual
}

check() {
    local name=$1
    shift
    cat >.cli-expected
    _cli_run "$@"
    _cli_compare "$name" .cli-expected
    rm -f .cli-expected
}

golden() {
    local name=$1 file=$2
    shift 2
    if [ ! -f "$file" ]; then
        echo "missing golden file $file" >.cli-diff
        _cli_result FAIL "$name" .cli-diff
        rm -f .cli-diff
        return 0
    fi
    _cli_run "$@"
    _cli_compare "$name" "$file"
}

check_status() {
    local name=$1 want=$2 re=$3
    shift 3
    "$@" <"${STDIN:-/dev/null}" >.cli-stdout 2>.cli-stderr
    local status=$? why=""
    if [ "$status" -ne "$want" ]; then
        why="exit status $status, expected $want"
    elif [ "$(wc -l <.cli-stderr)" -ne 1 ]; then
        why="expected one line on stderr"
    elif ! grep -Eq -- "$re" .cli-stderr; then
        why="stderr does not match: $re"
    fi
    if [ -z "$why" ]; then
        _cli_result ok "$name"
    else
        { echo "$why"; echo "--- stderr"; head -c 2000 .cli-stderr; } >.cli-diff
        _cli_result FAIL "$name" .cli-diff
    fi
    rm -f .cli-stdout .cli-stderr .cli-diff
}

check_same() {
    local name=$1
    if cmp "$2" "$3" >.cli-diff 2>&1; then
        _cli_result ok "$name"
    else
        _cli_result FAIL "$name" .cli-diff
    fi
    rm -f .cli-diff
}

# same_but_command NAME A B: A and B are equal but for their '# command:' lines.
same_but_command() {
    grep -v '^# command:' "$2" >.a
    grep -v '^# command:' "$3" >.b
    check_same "$1" .a .b
    rm -f .a .b
}

# ciat_sharded NAME SET N OPTIONS...: ciat with OPTIONS on SET into x/
# (moved to whole/), then its N parts (--shard I/N) into x/ and their merge,
# then --jobs N into x/: the same files (the report but for its command line).
ciat_sharded() {
    local name=$1 set=$2 n=$3 i ok=1 f
    shift 3
    rm -rf whole x
    mkdir whole x
    ciat -q -o x "$@" "$set" || ok=0
    mv x/* whole/
    for ((i = 0; i < n; i++)); do ciat -q -o x "$@" --shard "$i/$n" "$set" || ok=0; done
    ciat --merge x/*.ciat_partial.*-of-"$n" || ok=0
    rm -f x/*.ciat_partial.*
    check_true "$name, $n parts: the parts and the merge run" test "$ok" = 1
    for f in whole/*; do check_same "$name, $n parts: ${f#whole/}" "$f" "x/${f#whole/}"; done
    rm -rf x && mkdir x
    ciat -q -o x "$@" --jobs "$n" "$set" &&
        same_but_command "$name, --jobs $n: $set.ciat_report" "whole/$set.ciat_report" "x/$set.ciat_report"
}

# cdat_levels REPORT: the counts of REPORT's L01, L03, L22 and L23 (all
# nodes) in the form of tests/tools/two_level.c's output, for comparing
# cdat at one processor with that model (a level the machine lacks gives no
# line).
cdat_levels() {
    awk '/^RxTxL0[13]:|^RxTxL2[23]:/ { delete v; for (i = 3; i < NF; i++) v[$i] = $(i + 1) }
         /^RxTxL01:/ { print "l1d refs", v["refs"], "misses", v["misses"] }
         /^RxTxL03:/ { print "l1i refs", v["refs"], "misses", v["misses"] }
         /^RxTxL22:/ { print "l2 reads", v["refs"], "read_misses", v["misses"], "writes", v["writes"],
                       "write_misses", v["write_misses"], "write_backs", v["write_backs"] }
         /^RxTxL23: l3 node all / { print "l3 reads", v["reads"], "read_misses", v["read_misses"], "writes",
                       v["writes"], "write_misses", v["write_misses"], "write_backs", v["write_backs"] }' "$1"
}

# cdat_random_set SEED THREADS RECORDS: rs.THREADS from
# tests/cli/cdat-check/randset.awk, and ciat's memory usage file for it
# (rr2 and oracle placement need it).
cdat_random_set() {
    rm -f rs.*
    awk -v seed="$1" -v threads="$2" -v n="$3" -f "$CLI_DIR/cdat-check/randset.awk" >rs.txt
    smait asm rs.txt rs
    ciat -p -q "rs.$2"
}

# cdat_machines NODES PPN ICC THREADS [traces]: m-<protocol>-<allocation>.ini
# for every protocol and placement (d-cache 1K of 8 sets, i-cache 512 of 4,
# interconnect caches of ICC bytes); "traces": with the general and detailed traces.
cdat_machines() {
    local protocol alloc
    rm -f m-*.ini
    for protocol in 1 2 3 4 5 6 7 8; do
        for alloc in rr1 rr2 oracle first_touch; do
            {
                printf '[system]\nnodes = %s\nprocs_per_node = %s\nprotocol = %s\n' "$1" "$2" "$protocol"
                printf 'allocation = %s\nmemory_usage = rs.%s.memory\n' "$alloc" "$4"
                [ "${5:-}" = traces ] && printf '[output]\ngeneral = 1\ndetailed = 1\n'
                printf '[dcache]\nsize = 1K\nassoc = 2\n'
                printf '[icache]\nsize = 512\nassoc = 2\n[interconnect_cache]\nsize = %s\nassoc = 2\n' "$3"
            } >"m-$protocol-$alloc.ini"
        done
    done
}

# check_file NAME EXPECTED ACTUAL: the two files are equal (a diff when not;
# CLI_UPDATE=1 rewrites EXPECTED, as for golden files).
check_file() {
    local name=$1
    if [ ! -f "$3" ]; then
        echo "no file $3" >.cli-diff
        _cli_result FAIL "$name" .cli-diff
    elif [ ! -f "$2" ]; then
        echo "missing expected file $2" >.cli-diff
        _cli_result FAIL "$name" .cli-diff
    elif diff -u --label expected --label actual "$2" "$3" >.cli-diff 2>&1; then
        _cli_result ok "$name"
    elif [ "${CLI_UPDATE:-}" = 1 ]; then
        cp "$3" "$2"
        _cli_result ok "$name (updated)"
    else
        _cli_result FAIL "$name" .cli-diff
    fi
    rm -f .cli-diff
}

check_true() {
    local name=$1
    shift
    if "$@" >.cli-diff 2>&1; then
        _cli_result ok "$name"
    else
        echo "failed: $*" >>.cli-diff
        _cli_result FAIL "$name" .cli-diff
    fi
    rm -f .cli-diff
}

# check_memory NAME KIB CMD...: CMD (stdin from $STDIN, output discarded) peaks
# below KIB KiB of resident memory, as GNU time measures it (/usr/bin/time,
# installed by scripts/install-deps; the check fails without it).
check_memory() {
    local name=$1 limit=$2 peak
    shift 2
    if [ ! -x /usr/bin/time ]; then
        echo "/usr/bin/time (GNU time) is missing: run scripts/install-deps" >.cli-diff
    else
        /usr/bin/time -f %M -o .cli-peak "$@" <"${STDIN:-/dev/null}" >/dev/null 2>&1
        peak=$(tail -n 1 .cli-peak)
        rm -f .cli-peak
        if [ "$peak" -lt "$limit" ] 2>/dev/null; then
            _cli_result ok "$name"
            return 0
        fi
        echo "peak resident memory ${peak} KiB, not below $limit KiB: $*" >.cli-diff
    fi
    _cli_result FAIL "$name" .cli-diff
    rm -f .cli-diff
}

# progress_meter_checks TOOL [OPERAND…]: the -q checks of a trace-reading
# tool. Its progress meter appears only when stderr is a terminal, at least
# 0.5 s into a run, every 2^20 records: script(1) gives TOOL a terminal, and
# the trace (-t big.list, the list "-") comes through a pipe that pauses 0.7 s
# just before record 2^20. Three checks: a meter without options, none with
# -q, none with --quiet; each also needs TOOL's report to be written. OPERANDs
# follow the trace list (cdat's configuration file). Skipped, with a note,
# where script(1) or mkfifo is missing.
progress_meter_checks() {
    if ! command -v script >/dev/null 2>&1 || ! command -v mkfifo >/dev/null 2>&1; then
        echo "(no script(1): the progress-meter checks of -q are skipped)"
        return
    fi
    _PM_TOOL=$1
    shift
    _PM_OPERANDS="$*"
    printf 'repeat 1050000\nload 4 0x100\nend\n' >big.txt
    smait asm big.txt big.bin
    echo - >big.list
    check "on a terminal, a long run shows a progress meter" _progress_lines <<'EOF'
1
--- exit 0
EOF
    check "-q: no progress meter" _progress_lines -q <<'EOF'
0
--- exit 0
EOF
    check "--quiet: no progress meter" _progress_lines --quiet <<'EOF'
0
--- exit 0
EOF
    rm -f big.bin big.list.* fifo
}

_progress_lines() {     # OPTIONS: how many progress lines the tool shows on the terminal
    rm -f fifo "big.list.${_PM_TOOL}_report"
    mkfifo fifo
    (head -c 8380000 big.bin; sleep 0.7; tail -c +8380001 big.bin) >fifo &
    script -qec "$_PM_TOOL $* -t big.list $_PM_OPERANDS <fifo" /dev/null </dev/null | tr '\r' '\n' | grep -c 'records/s'
    wait
    test -s "big.list.${_PM_TOOL}_report"
}

# N bytes from a 31-bit linear congruential generator (the ANSI C rand()
# constants), high byte of each state: deterministic, no external tools.
lcg_bytes() {
    local x=$1 n=$2 i chunk
    for ((i = 0; i < n; i += 256)); do
        chunk=""
        local j
        for ((j = i; j < n && j < i + 256; j++)); do
            x=$(( (x * 1103515245 + 12345) & 0x7fffffff ))
            printf -v chunk '%s\\x%02x' "$chunk" $(( (x >> 16) & 255 ))
        done
        printf "$chunk"
    done
}

file_size() {
    wc -c <"$1" | tr -d ' '
}

# flip_bytes FILE OFFSET HH...: overwrite bytes at OFFSET with the hex bytes HH.
flip_bytes() {
    local f=$1 off=$2 bytes=""
    shift 2
    for h in "$@"; do bytes="$bytes\\x$h"; done
    printf "$bytes" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
}

# collector_setup: for the collector's test files (collector*.sh): 1 (with a
# note) when smait-cc is not built; else D (exported) is the directory of their
# programs, and an empty SMAIT_CLANG is unset (smait-cc's default clang).
collector_setup() {
    if [ ! -x "$BIN/smait-instrument" ]; then
        echo "(smait-cc is not built: its tests are skipped; make deps installs clang, llvm-dev and libomp-dev)"
        return 1
    fi
    export D=$CLI_DIR/collector
    export SMAIT_CLANG=${SMAIT_CLANG:-}
    [ -n "$SMAIT_CLANG" ] || unset SMAIT_CLANG
    return 0
}

# tree_snapshot: every file below the working directory with its checksum,
# sorted (the library's own .cli-* scratch files left out).
tree_snapshot() {
    find . -name '.cli-*' -prune -o -type f -print | LC_ALL=C sort | xargs -r cksum
}

# check_untouched NAME LABEL CMD... (expected text on stdin, as for check):
# the check, then a second one, "NAME: LABEL": the run created, removed or
# changed no file anywhere below the working directory (no output, no
# temporary; earlier outputs byte for byte as they were).
check_untouched() {
    local name=$1 label=$2 before after
    shift 2
    before=$(tree_snapshot)
    check "$name" "$@"
    after=$(tree_snapshot)
    if [ "$before" = "$after" ]; then
        _cli_result ok "$name: $label"
    else
        diff <(echo "$before") <(echo "$after") | grep '^[<>]' >.cli-diff
        _cli_result FAIL "$name: $label" .cli-diff
        rm -f .cli-diff
    fi
}
