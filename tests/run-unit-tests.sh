#!/usr/bin/env bash
# run-unit-tests.sh — the unit tests (Check), each suite in its own process,
# N at a time (-j N, else $CLI_JOBS, else one per processor the process may
# run on); each suite's output is printed whole, in the runner's order, then
# the totals.
#
#   tests/run-unit-tests.sh [-j N] build/tests/unit_tests
#
# The suites are those `unit_tests --list` names; every one must run at least
# one check (a name that CK_RUN_SUITE does not find would run none), and with
# SRC set they must be all the suites tests/unit/*.c make.
# Exit status: 0 when every check of every suite passed, 1 otherwise.
set -u

# shellcheck source=jobs.sh
. "$(dirname "$0")/jobs.sh"
jobs_from_args run-unit-tests.sh "$@"
shift "$jobs_shift"
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: run-unit-tests.sh [-j N] PATH/TO/unit_tests" >&2
    exit 1
fi
runner=$1
mapfile -t suites < <("$runner" --list) || exit 1
if [ "${#suites[@]}" -eq 0 ]; then
    echo "run-unit-tests.sh: $runner --list names no suite" >&2
    exit 1
fi

# With SRC (the source tree), the list must be every suite the sources make:
# a suite missing from main.c's table would not run at all.
if [ -n "${SRC:-}" ]; then
    made=$(sed -n 's/.*suite_create("\([A-Za-z0-9_]*\)").*/\1/p' "$SRC"/tests/unit/*.c | LC_ALL=C sort)
    listed=$(printf '%s\n' "${suites[@]}" | LC_ALL=C sort)
    if [ "$made" != "$listed" ]; then
        echo "FAIL unit suites: tests/unit/main.c's table is not the suites of tests/unit/*.c:"
        diff <(echo "$made") <(echo "$listed") | sed 's/^/    /'
        exit 1
    fi
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/dsm-unit-run.XXXXXX")
trap 'rm -rf "$work"' EXIT

run_suite() {
    CK_RUN_SUITE=$1 "$runner" >"$2" 2>&1
    echo $? >"$2.status"
}

run_one() { run_suite "${suites[$1]}" "$work/$1"; }
run_limited run_one "${#suites[@]}"

checks=0 failed=0 bad=0
for i in "${!suites[@]}"; do
    cat "$work/$i"
    # Check's last line: "100%: Checks: 27, Failures: 0, Errors: 0"
    line=$(grep -E '^[0-9]+%: Checks: ' "$work/$i" | tail -1)
    n=$(sed -E 's/.*Checks: ([0-9]+).*/\1/' <<<"$line")
    f=$(sed -E 's/.*Failures: ([0-9]+), Errors: ([0-9]+).*/\1 + \2/' <<<"$line")
    status=$(cat "$work/$i.status" 2>/dev/null || echo 99)
    if [ -z "$line" ] || [ "${n:-0}" -eq 0 ] || [ "$status" -ne 0 ]; then
        echo "FAIL unit suite ${suites[$i]}: exit status $status, ${n:-no} checks"
        bad=$((bad + 1))
    fi
    checks=$((checks + ${n:-0}))
    failed=$((failed + ${f:-0}))
done
echo "unit tests: $((checks - failed)) passed, $failed failed, $checks in all (${#suites[@]} suites, $jobs at a time)"
[ "$failed" -eq 0 ] && [ "$bad" -eq 0 ]
