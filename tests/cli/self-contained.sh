# self-contained.sh — the repository stands on its own: no file cites a
# specification the repository does not contain, and every document a file
# points to is there.
#
#   1. No file of the repository mentions the starting specification by
#      section (the pattern is spelled so that this file does not match it).
#   2. Every relative link of a Markdown file names a file or directory that
#      exists (anchors dropped; resolved from the file's directory).
#   3. Every docs/…, formats/… or configs/… path named in the documents, the
#      sources, the tests and the tools' --help texts exists (paths written
#      from the top of the repository; a path inside a longer one, such as an
#      installed share/doc/…/docs/x.md, is not one of them; placeholders such
#      as configs/NAME.ini are not paths).
# Planted inputs show that each check finds what it looks for.

root=$(cd "$CLI_DIR/../.." && pwd)
spec_re='SPE[C] (§|sections? |[0-9])'

# The files of the repository: git's list when there is one, else every file
# outside .git and the build directories.
repo_files() {
    if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git -C "$root" ls-files
    else
        (cd "$root" && find . \( -name .git -o -name 'build*' \) -prune -o -type f -print | sed 's|^\./||')
    fi | LC_ALL=C sort
}

# Text files worth reading: documents, sources, scripts, configurations (not
# this file, whose planted examples are meant to be wrong).
text_files() {
    repo_files | grep -E '(\.(md|c|h|cc|sh|ini|txt|awk|py|ll)|Makefile|install-deps)$' |
        grep -vx 'tests/cli/self-contained\.sh' |
        while IFS= read -r f; do [ -f "$root/$f" ] && printf '%s\n' "$f"; done
}

spec_mentions() {
    text_files | while IFS= read -r f; do
        grep -HnE "$spec_re" "$root/$f" | sed "s|^$root/||"
    done
    return 0
}

broken_links_in() {    # BASE FILE (FILE relative to BASE)
    local base=$1 f=$2 dir hit line target
    dir=$(dirname "$f")
    grep -onE '\]\([^)[:space:]]+\)' "$base/$f" | while IFS= read -r hit; do
        line=${hit%%:*}
        target=${hit#*:](}
        target=${target%)}
        case $target in
        http:* | https:* | mailto:* | '#'*) continue ;;
        esac
        target=${target%%#*}
        [ -e "$base/$dir/$target" ] || printf '%s:%s: link to %s: no such file\n' "$f" "$line" "$target"
    done
    return 0
}

broken_links() {
    text_files | grep '\.md$' | while IFS= read -r f; do broken_links_in "$root" "$f"; done
    return 0
}

# docs/x.md, formats/X.md, configs/x.ini … on standard input, not preceded by
# a path character; LABEL names the input in the report.
missing_paths_in() {   # LABEL
    local hit line path
    grep -onE '(^|[^A-Za-z0-9_./~-])(docs|formats|configs)/[A-Za-z0-9_-]+(\.[a-z]+)+' |
        sed -E 's#^([0-9]+:).*((docs|formats|configs)/)#\1\2#' | while IFS= read -r hit; do
            line=${hit%%:*}
            path=${hit#*:}
            case ${path#*/} in
            NAME.* | FILE.*) continue ;;
            esac
            [ -e "$root/$path" ] || printf '%s:%s: names %s: no such file\n' "$1" "$line" "$path"
        done
    return 0
}

missing_paths() {
    local f tool cmd
    text_files | while IFS= read -r f; do missing_paths_in "$f" <"$root/$f"; done
    for tool in ciat cdat tdat smait; do
        "$tool" --help 2>&1 | missing_paths_in "$tool --help"
    done
    for cmd in dump asm stat convert schedule; do
        smait "$cmd" --help 2>&1 | missing_paths_in "smait $cmd --help"
    done
    return 0
}

check "no file cites the specification by section" spec_mentions <<'END'
--- exit 0
END

check "every relative Markdown link names a file that exists" broken_links <<'END'
--- exit 0
END

check "every docs/, formats/, configs/ path named exists" missing_paths <<'END'
--- exit 0
END

mkdir -p plant/docs
printf 'See SPE%s §4, [x](nowhere.md), [y](a.md#top) and docs/no-such-document.md;\n' C >plant/docs/a.md
printf 'not: share/doc/dsmtrace/docs/installed.md, configs/NAME.ini; docs/scheduler.md is there.\n' >>plant/docs/a.md
check "a planted mention is found" grep -cE "$spec_re" plant/docs/a.md <<'END'
1
--- exit 0
END
check "a planted broken link is found" broken_links_in plant docs/a.md <<'END'
docs/a.md:1: link to nowhere.md: no such file
--- exit 0
END
STDIN=plant/docs/a.md check "a planted path to a missing document is found" missing_paths_in plant <<'END'
plant:1: names docs/no-such-document.md: no such file
--- exit 0
END
