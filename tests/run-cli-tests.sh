#!/usr/bin/env bash
# run-cli-tests.sh — the command-line tests: runs every tests/cli/*.sh.
#
#   BIN=/abs/path/to/build/bin tests/run-cli-tests.sh [NAME...]
#
# Each test file runs in a fresh temporary directory (its working directory)
# with the helpers of tests/cli-lib.sh, the tools of $BIN first on PATH and
# LC_ALL=C. Every check prints one line, "ok" or "FAIL" (a failure with a diff
# of expected and actual output). NAMEs pick test files (e.g. smait-bad-input).
# Exit status: 0 when every check passed, 1 otherwise.
set -u

here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${BIN:-}" ] || [ ! -d "$BIN" ]; then
    echo "run-cli-tests.sh: set BIN to the directory of the built tools (e.g. BIN=\$PWD/build/bin)" >&2
    exit 1
fi
BIN=$(cd "$BIN" && pwd)

results=$(mktemp "${TMPDIR:-/tmp}/dsm-cli-results.XXXXXX")
trap 'rm -f "$results"' EXIT

if [ $# -gt 0 ]; then
    files=()
    for n in "$@"; do files+=("$here/cli/${n%.sh}.sh"); done
else
    files=("$here"/cli/*.sh)
fi

for t in "${files[@]}"; do
    name=$(basename "$t" .sh)
    if [ ! -f "$t" ]; then
        echo "FAIL $name: no such test file $t"
        echo FAIL >>"$results"
        continue
    fi
    dir=$(mktemp -d "${TMPDIR:-/tmp}/dsm-cli.$name.XXXXXX")
    (
        cd "$dir" || exit 99
        export PATH="$BIN:$PATH" LC_ALL=C BIN CLI_DIR="$here/cli" CLI_RESULTS="$results" CLI_FILE="$name"
        # shellcheck source=cli-lib.sh
        . "$here/cli-lib.sh"
        . "$t"
    ) </dev/null
    status=$?
    if [ "$status" -ne 0 ]; then
        echo "FAIL $name: the test script itself exited with status $status"
        echo FAIL >>"$results"
    fi
    chmod -R u+rwx "$dir" 2>/dev/null
    rm -rf "$dir"
done

total=$(wc -l <"$results")
failed=$(grep -c '^FAIL' "$results")
echo "cli tests: $((total - failed)) passed, $failed failed, $total in all"
[ "$failed" -eq 0 ] && [ "$total" -gt 0 ]
