# cdat-protocol.sh — cdat's coherence protocol, case by case: one golden test
# per case (row) of docs/cdat-protocol.md §§1-6 and of its table of
# "references that need no transaction".
#
# tests/cli/cdat/NAME.txt is a tiny trace set in the text form
# (formats/SMAIT-TEXT.md, assembled here by `smait asm`) whose comment block
# derives by hand every transaction of the detailed trace and every number of
# the compared report lines. The machines are tests/cli/cdat/2x2-*.ini: 2 nodes
# of 2 processors, rr1 placement (0x2000, 0x4000 on node 0; 0x3000, 0x5000 on
# node 1), 64-byte lines, 2 banks, two-line d- and i-caches (and, for the
# -ic ones, a two-line interconnect cache per node). Every run uses -p, so
# all threads start in one parallel phase; barriers and the scheduler's
# round robin of equal clocks order the steps (`smait schedule -p`).
#
# For each run LABEL (a trace under one configuration):
#   LABEL.detailed.expected  the whole detailed trace;
#   LABEL.report.expected    the report's "# directory: lines N" (lines ever
#                            requested, §8) and its RxTx lines L01-L04,
#                            L10-L12, L15 (misses and their sources, traffic,
#                            transaction types, the state table, evictions);
#   LABEL.general.expected   (some runs) every general trace, "== general.N"
#                            before each.
#
# §7 (I/O processors, codes 05 and 06) is covered by cdat-io.sh, which drives
# it with -handle_io. The internal errors of
# §3 (04 meeting a view other than shared) and §4c (a recalled owner holding
# the line shared) cannot be reached from any trace.
D=$CLI_DIR/cdat

# run LABEL TEXT CONFIG [EXPECTED]: assemble TEXT.txt (once), run cdat -p on it
# with the machine CONFIG (tests/cli/cdat/CONFIG.ini, or a path ending in .ini)
# into the directory LABEL, and compare the outputs with EXPECTED.*.expected
# (EXPECTED defaults to LABEL).
run() {
    local label=$1 text=$2 cfg=$3 exp=${4:-$1} p f
    [ "${cfg%.ini}" = "$cfg" ] && cfg=$D/$cfg.ini
    p=$(awk '$1 == "threads" { print $2; exit }' "$D/$text.txt")
    if [ ! -e "$text.$p.0" ]; then
        check "$text: smait asm" smait asm "$D/$text.txt" "$text" <<'EOT'
--- exit 0
EOT
    fi
    rm -rf "$label"
    mkdir "$label"
    # An idle thread's empty trace is a warning naming it.
    local warn="" t
    for ((t = 0; t < p; t++)); do
        [ -s "$text.$p.$t" ] || warn+="cdat: warning: $text.$p.$t: empty trace (no records)"$'\n'
    done
    check "$label: cdat -p $text.$p ${cfg##*/}" cdat -p -o "$label" "$text.$p" "$cfg" <<EOT
${warn:+--- stderr
$warn}--- exit 0
EOT
    check_file "$label: detailed trace" "$D/$exp.detailed.expected" "$label/$text.$p.detailed"
    grep -E '^(# directory: |RxTxL(0[1-4]|1[0-2]|15):)' "$label/$text.$p.cdat_report" >"$label/report" 2>/dev/null
    check_file "$label: report lines" "$D/$exp.report.expected" "$label/report"
    if [ -f "$D/$exp.general.expected" ]; then
        for ((f = 0; f < 4; f++)); do
            echo "== general.$f"
            cat "$label/$text.$p.general.$f"
        done >"$label/general" 2>&1
        check_file "$label: general traces" "$D/$exp.general.expected" "$label/general"
    fi
}

# The 2x2 machine of 2x2-p1.ini under protocols 2-8 (for cases that do not
# depend on the protocol): p2.ini ... p8.ini here.
for n in 2 3 4 5 6 7 8; do
    sed "s/^protocol = 1\$/protocol = $n/" "$D/2x2-p1.ini" >"p$n.ini"
done
check_true "p8.ini is protocol 8" grep -qx 'protocol = 8' p8.ini

# ---- references that need no transaction ----------------------------------------
run hits-p1 hits 2x2-p1               # hits; a store to an exclusive line; general traces
run fetch-own-p1 fetch-own 2x2-p1     # a fetch miss served by the own d-cache
run span-p1 span 2x2-p1               # two lines per reference; an atomic; update_tag
run atomic-p1 atomic 2x2-p1           # atomics: one ownership request (03, 04) or a hit
run atomic-p2 atomic 2x2-p2
run clocks-p1 clocks 2x2-p1           # §8: clocks of fetches filled in by a branch

# ---- §1: the local snoop (every protocol) ---------------------------------------
for t in snoop-load snoop-store snoop-fetch; do
    run "$t-p1" "$t" 2x2-p1
    for n in 2 3 4 5 6 7 8; do run "$t-p$n" "$t" "p$n.ini" "$t-p1"; done
done

# ---- §2: the home sees the line idle ---------------------------------------------
run idle-p1 idle 2x2-p1
run idle-p2 idle 2x2-p2
run reidle-p4 reidle 2x2-p4        # P asks again for a line it dropped silently

# ---- §3: the home sees the line shared -------------------------------------------
run shared-p1 shared 2x2-p1               # 01, 02 (also as the only holder), 04 k = 2
run shared-store-p2 shared-store 2x2-p2   # 03 with k = 3 (a stale holder) and k = 0
run upgrade-p2 upgrade 2x2-p2             # 04 with k = 2 (a stale holder) and k = 0

# ---- §4a: recall from a dirty owner (DT yes / no, RL A / B) ---------------------
run recall-dirty-p1 recall-dirty 2x2-p1
run recall-dirty-p6 recall-dirty 2x2-p6
run recall-dirty-p8 recall-dirty 2x2-p8
run recall-dirty-p2 recall-dirty 2x2-p2

# ---- §4b, §4c: the owner holds the line clean, or dropped it silently ------------
run recall-clean-p1 recall-clean 2x2-p1
run recall-dropped-p4 recall-dropped 2x2-p4   # RL A: 02 ends exclusive
run recall-dropped-p3 recall-dropped 2x2-p3   # RL B: 02 on a remote line ends shared

# ---- §5: replacements ---------------------------------------------------------------
run evict-p2 evict 2x2-p2      # ER announced: write_back, update_tag, silent shared
run evict-p3 evict 2x2-p3      # ER not announced: the exclusive victim is silent
run victim-states-p1 victim-states 2x2-p1  # a silently dirtied line: 21; a recalled-in one: clean
run victim-states-p4 victim-states 2x2-p4
run evict-icache-p1 evict-icache 2x2-p1   # i-cache victims: silent, a stale holder
run icache-drop-p4 icache-drop 2x2-p4     # a clean exclusive line leaves the i-cache too
run icache-drop-p1 icache-drop 2x2-p1

# ---- §6: the interconnect cache -----------------------------------------------------
run ic-p2 ic 2x2-p2-ic          # fill by 11, hits, inv answering for the node, stores
run ic-p8 ic 2x2-p8-ic          # fill by 41 (DT)
run ic-victim-p2 ic-victim 2x2-p2-ic   # silent IC victims, a stale IC holder; general traces
run ic-excl-p1 ic-excl 2x2-p1-ic       # RL A: an exclusive grant is not kept, a shared one is
run ic-order-p2 ic-order 2x2-p2-ic     # IC0 between node 0's and node 1's processors
