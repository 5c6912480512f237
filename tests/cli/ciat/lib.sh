# lib.sh — helpers shared by the tests/cli/ciat-*.sh files (sourced by them
# after tests/cli-lib.sh; not a test file itself).

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

