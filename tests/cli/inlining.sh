# inlining.sh — the hot paths the tools' speed rests on are still inline
# (docs/scheduler.md §12 and §14: each consumer's own copy of the replay
# loop, with the hooks' common cases inside it). A refactor that turns one
# of them into a call still gives the same outputs, so only this check sees
# it: objdump's disassembly of the named functions must call none of the
# inlined functions, must call the slow path they leave the rest to (so the
# function looked at is the right one), and must keep its prefetches. The
# rules are for the project's compiler, GCC at -O2: with another compiler,
# a sanitizer build or a build without fast paths the check is skipped.
if [ "${SANITIZE:-}" = 1 ] || [ -n "${FAST_BIN:-}" ]; then
    echo "(inlining: not for sanitizer or slow-path builds)"
    return 0
fi
if ! command -v objdump >/dev/null || ! readelf -p .comment "$BIN/ciat" 2>/dev/null | grep -q 'GCC: '; then
    echo "(inlining: needs objdump and tools built by GCC)"
    return 0
fi

# calls TOOL FUNCTION: the functions FUNCTION calls or jumps to (one per
# line, sorted, unique; GCC's clone suffixes such as .constprop.0 and .isra.0
# dropped), then "prefetch" if it has a prefetch instruction; "no FUNCTION"
# when the binary has no such function. The first function of that name
# (the tool's own, before the library's).
calls() {
    objdump -d --no-show-raw-insn "$BIN/$1" | awk -v f="<$2>:" '
        $2 == f && !seen { on = 1; seen = 1; next }
        on && /^$/ { on = 0 }
        on && match($0, /(call|jmp) +[0-9a-f]+ <[^>+]+>/) {
            s = substr($0, RSTART, RLENGTH); sub(/.*</, "", s); sub(/>$/, "", s); sub(/\..*/, "", s)
            if (s != substr(f, 2, length(f) - 3)) print s
        }
        on && /prefetch/ { p = 1 }
        END { if (!seen) print "no " substr(f, 2, length(f) - 3); if (p) print "prefetch" }' | sort -u
}
export -f calls

# rule NAME TOOL FUNCTION MUST MUSTNOT: FUNCTION of TOOL calls every
# function of MUST (words; "prefetch": has a prefetch) and none of MUSTNOT.
rule() {
    local name=$1 tool=$2 fn=$3 must=$4 mustnot=$5 got w bad=""
    got=$(calls "$tool" "$fn")
    for w in $must; do grep -qx "$w" <<<"$got" || bad="$bad missing:$w"; done
    for w in $mustnot; do grep -qx "$w" <<<"$got" && bad="$bad calls:$w"; done
    grep -q '^no ' <<<"$got" && bad="$bad $(grep '^no ' <<<"$got")"
    if [ -z "$bad" ]; then
        _cli_result ok "$name"
    else
        printf '%s %s:%s\ncalls: %s\n' "$tool" "$fn" "$bad" "$(tr '\n' ' ' <<<"$got")" >.cli-diff
        _cli_result FAIL "$name" .cli-diff
        rm -f .cli-diff
    fi
}

cdat_inline="on_mem on_fetch on_fetch_run on_ahead mach_hit mach_data_probe mach_data_hits cache_hit data_access mach_line stats_of"
for loop in direct_plain_hooks_replay direct_plain_hooks_records; do
    rule "cdat $loop: hit paths inline, misses out of line" cdat "$loop" \
        "fetch_slow mem_slow mem_line_slow" "$cdat_inline"
done
rule "cdat's replay loop keeps its prefetch (the look-ahead's directory hint)" cdat direct_plain_hooks_replay \
    "prefetch" ""
ciat_inline="on_fetch fetch_one code_block locmap_block locmap_fast_data fast_unchanged fast_commit rs_contains locmap_locs_covered"
for loop in direct_plain_hooks_replay direct_plain_hooks_records; do
    rule "ciat $loop: fetches inline (the memo), the rest through on_mem" ciat "$loop" \
        "fetch_miss on_mem on_fetch_run" "$ciat_inline"
done
rule "ciat on_mem: its fast case inline, the rest a tail call" ciat on_mem \
    "on_mem_slow fast_switch" "$ciat_inline locmap_touch locmap_count_access"
rule "ciat's look-ahead hints keep their prefetches" ciat on_ahead "prefetch" ""
rule "ciat's far hint keeps its prefetch" ciat on_ahead_far "prefetch" ""
