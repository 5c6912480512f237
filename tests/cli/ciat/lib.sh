# lib.sh — helpers shared by the tests/cli/ciat-*.sh files (sourced by them
# after tests/cli-lib.sh; not a test file itself).

# check_file NAME EXPECTED ACTUAL: the two files are equal (a diff when not).
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
    elif [ "${CLI_UPDATE:-}" = 1 ]; then     # see _cli_compare in tests/cli-lib.sh
        cp "$3" "$2"
        _cli_result ok "$name (updated)"
    else
        _cli_result FAIL "$name" .cli-diff
    fi
    rm -f .cli-diff
}

# no_outputs NAME DIR PREFIX: DIR holds no output of PREFIX (no report,
# memory file or event trace) and no temporary file (*.tmp.*) at all.
no_outputs() {
    local name=$1 dir=$2 prefix=$3 left="" f
    for f in "$dir/$prefix.ciat_report" "$dir/$prefix.memory" "$dir/$prefix.ciat_events" \
             "$dir"/*.tmp.* "$dir"/.*.tmp.*; do
        [ -e "$f" ] && left="$left ${f##*/}"
    done
    if [ -z "$left" ]; then
        _cli_result ok "$name"
    else
        echo "left behind: $left" >.cli-diff
        _cli_result FAIL "$name" .cli-diff
        rm -f .cli-diff
    fi
}

