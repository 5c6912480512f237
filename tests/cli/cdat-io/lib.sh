# lib.sh — helpers shared by tests/cli/cdat-bad-input.sh, cdat-options.sh and
# cdat-lru.sh (sourced after tests/cli-lib.sh; not a test file itself).

# refused NAME CMD... (expected text on stdin, as for check): the check, then
# "NAME: nothing written" (check_untouched): no report, no general or
# detailed trace, no temporary, and the outputs of an earlier run of the same
# prefix byte for byte as they were.
refused() {
    check_untouched "$1" "nothing written" "${@:2}"
}

# cdat_outputs DIR PREFIX: the names of cdat's outputs of PREFIX in DIR
# (report, general and detailed traces, their .gz forms and any temporary),
# one a line.
cdat_outputs() {
    local f
    for f in "$1/$2".cdat_report* "$1/$2".general.* "$1/$2".detailed*; do
        [ -e "$f" ] && echo "${f##*/}"
    done
    return 0
}

# rpt PREFIX REGEX: the lines of PREFIX.cdat_report matching REGEX.
rpt() {
    grep -E "$2" "$1.cdat_report"
}

# same_report NAME A B: two cdat reports are equal but for the "# command:"
# and "# options:" header lines.
same_report() {
    check "$1" diff <(grep -v '^# \(command\|options\): ' "$2") <(grep -v '^# \(command\|options\): ' "$3") <<'EOT'
--- exit 0
EOT
}
