#!/usr/bin/env bash
# run-cli-tests.sh — the command-line tests: runs every tests/cli/*.sh.
#
#   BIN=/abs/path/to/build/bin tests/run-cli-tests.sh [-j N] [NAME...]
#
# Each test file runs in a fresh temporary directory (its working directory)
# with the helpers of tests/cli-lib.sh, the tools of $BIN first on PATH and
# LC_ALL=C. Every check prints one line, "ok" or "FAIL" (a failure with a diff
# of expected and actual output). NAMEs pick test files (e.g. smait-bad-input).
# Test files run N at a time (-j N, else $CLI_JOBS, else one per processor
# the process may run on); each file's lines are printed together, in the
# order of the files, so the output is the same whatever N.
# Exit status: 0 when every check passed, 1 otherwise.
set -u

here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${BIN:-}" ] || [ ! -d "$BIN" ]; then
    echo "run-cli-tests.sh: set BIN to the directory of the built tools (e.g. BIN=\$PWD/build/bin)" >&2
    exit 1
fi
BIN=$(cd "$BIN" && pwd)

# The tools' time-slicing warning (common/tracing_conditions.h), left out of
# what the tests compare and print (tests/cli-lib.sh).
export CLI_TRACING_RE='^[a-z-]+: warning: the traces were taken on [0-9]+ processors? for [0-9]+ threads'

# shellcheck source=jobs.sh
. "$here/jobs.sh"
jobs_from_args run-cli-tests.sh "$@"
shift "$jobs_shift"

work=$(mktemp -d "${TMPDIR:-/tmp}/dsm-cli-run.XXXXXX")
trap 'rm -rf "$work"' EXIT
results=$work/results
: >"$results"

if [ $# -gt 0 ]; then
    files=()
    for n in "$@"; do files+=("$here/cli/${n%.sh}.sh"); done
else
    files=("$here"/cli/*.sh)
fi

# run_file T OUT: run test file T, its lines (and the script's own failure)
# into OUT, each check's verdict into its own results file OUT.results.
run_file() {
    local t=$1 out=$2 name dir status
    name=$(basename "$t" .sh)
    : >"$out.results"
    if [ ! -f "$t" ]; then
        echo "FAIL $name: no such test file $t" >"$out"
        echo FAIL >>"$out.results"
        return
    fi
    dir=$(mktemp -d "${TMPDIR:-/tmp}/dsm-cli.$name.XXXXXX")
    (
        cd "$dir" || exit 99
        export PATH="$BIN:$PATH" LC_ALL=C BIN CLI_DIR="$here/cli" CLI_RESULTS="$out.results" CLI_FILE="$name"
        # shellcheck source=cli-lib.sh
        . "$here/cli-lib.sh"
        . "$t"
    ) </dev/null >"$out.raw" 2>&1
    status=$?
    # What a test file's own commands print beside its checks: without the
    # tracing machine's warning (cli-lib.sh, CLI_TRACING_RE), whose figures
    # are this machine's load.
    grep -Ev "$CLI_TRACING_RE" "$out.raw" >"$out"
    rm -f "$out.raw"
    if [ "$status" -ne 0 ]; then
        echo "FAIL $name: the test script itself exited with status $status" >>"$out"
        echo FAIL >>"$out.results"
    fi
    chmod -R u+rwx "$dir" 2>/dev/null
    rm -rf "$dir"
    : >"$out.done"
}

# Start the files N at a time; print each file's output, in order, as soon
# as it and every file before it are done.
next_print=0
print_ready() {
    while [ "$next_print" -lt "${#files[@]}" ] && [ -e "$work/$next_print.done" ]; do
        cat "$work/$next_print"
        cat "$work/$next_print.results" >>"$results"
        next_print=$((next_print + 1))
    done
}
run_one() { run_file "${files[$1]}" "$work/$1"; }
run_limited run_one "${#files[@]}" print_ready
for i in "${!files[@]}"; do : >>"$work/$i.done"; done     # a file killed before its end: print what it has
print_ready

total=$(wc -l <"$results")
failed=$(grep -c '^FAIL' "$results")
echo "cli tests: $((total - failed)) passed, $failed failed, $total in all"
[ "$failed" -eq 0 ] && [ "$total" -gt 0 ]
