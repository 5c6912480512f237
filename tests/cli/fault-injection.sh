# fault-injection.sh — mutated inputs through the tools, meant for
# `make check SANITIZE=1` (it runs in plain `make check` too).
#
# The golden inputs of the other tests are mutated by $MUTATE
# (tests/tools/mutate.c: one to three mutations chosen by a seed alone, so
# every run tries the same cases) and run through the tools:
#   traces   one trace of a set (plain, or gzip-compressed then mutated)
#            through ciat (strict, --lenient with -ciat_events, slice mode),
#            cdat (with general and detailed traces), smait schedule, stat
#            and dump
#   configs  a configuration through cdat
#   usage    a memory usage file through cdat's oracle placement
#   events   an event trace (tdat's tests, ciat's events, cdat's general and
#            detailed traces) through tdat
#   texts    a text form through smait asm
# Every run must: end within FI_TIMEOUT seconds (no hang); exit 0, 1 or 2
# (never 3 or a signal); print no sanitizer report; when it fails (exit 2),
# name the input file and the place — a byte offset, a line (also after what
# the file is: "FILE: memory usage file (…): line N:"), file:line — or
# be one of the errors about a whole input listed in whole_input_error; and
# leave its output directory exactly as it was (the outputs of an "earlier
# run" are there, with the names this run would write) with no temporary
# anywhere. One "ok" line per kind of case; a failing case prints its seed,
# command and message (rerun it: the seed makes the same input).
#
# Cases not run, because they would only measure a limit (counted and named
# in the kind's ok line): texts whose repeat blocks multiply out to between
# 10^6 and 2^28 records (smait asm accepts up to 2^28 expanded lines:
# gigabytes here; beyond, it refuses them, and those cases run). tdat runs
# with --max-bins 4194304, so a stray large clock is its error, not a
# gigabyte of bins. Known open defects would be counted the same way, by
# name, in known_outcome (none at the moment).
MUT=${MUTATE:?set MUTATE to the built tests/tools/mutate (make check does)}
FI_TIMEOUT=${FI_TIMEOUT:-60}
here=$PWD

# ---- golden inputs -------------------------------------------------------------------------
mkdir gold
sets=()
n=0
for txt in "$CLI_DIR"/schedule/*.txt "$CLI_DIR"/slice/*.txt "$CLI_DIR"/ciat/*.txt \
           "$CLI_DIR"/../../examples/*.txt; do
    n=$((n + 1))
    smait asm "$txt" "gold/s$n" 2>/dev/null || continue
    if [ -f "gold/s$n" ]; then
        mv "gold/s$n" "gold/s$n.1.0"
        sets+=("s$n.1")
    else
        first=$(ls gold/s$n.*.0 2>/dev/null | head -n 1)
        [ -n "$first" ] || continue
        p=${first%.0}
        sets+=("s$n.${p##*.}")
    fi
done
# A 4-thread set that every tool runs cleanly, for the configuration and usage cases.
smait asm "$CLI_DIR/../../examples/producer-consumer.txt" gold/pc
printf '[system]\nnodes = 4\nprocs_per_node = 4\n[output]\ngeneral = 1\ndetailed = 1\n' >gold/out.ini
ciat -q -ciat_events -o gold gold/pc.4
cdat -q -o gold gold/pc.4 gold/out.ini
configs=("$CLI_DIR"/../../configs/*.ini "$CLI_DIR"/cdat/*.ini "$CLI_DIR"/cdat-iosim/*.ini gold/out.ini)
events=("$CLI_DIR"/tdat/*.events "$CLI_DIR"/tdat/*.trace gold/pc.4.ciat_events gold/pc.4.general.0 gold/pc.4.detailed)
texts=("$CLI_DIR"/schedule/*.txt "$CLI_DIR"/slice/*.txt "$CLI_DIR"/ciat/*.txt "$CLI_DIR"/cdat/*.txt
       "$CLI_DIR"/smait/*.txt "$CLI_DIR"/../../examples/*.txt)
check_true "golden inputs: $(echo ${#sets[@]}) trace sets, ${#configs[@]} configurations, ${#events[@]} event traces, ${#texts[@]} texts" \
    test ${#sets[@]} -gt 20 -a -s gold/pc.4.memory -a -s gold/pc.4.detailed

# ---- one case ------------------------------------------------------------------------------

# Checksums of every file below DIR.
snapshot() {
    find "$1" -type f -print0 | LC_ALL=C sort -z | xargs -0 -r cksum
}

# A message about a whole input, with no place: these are the only ones allowed.
whole_input_error() {   # MESSAGE (the first error line)
    case $1 in
        "ciat: inconsistent traces: no thread can run"*|"cdat: inconsistent traces: no thread can run"*|\
        "smait: inconsistent traces: no thread can run"*)
            return 0 ;;     # the next lines name each blocked thread's trace and record (checked below)
    esac
    local f
    for f in $FI_INPUTS; do
        case $1 in
            "tdat: $f: no events"*|*": $f: cannot read"*|"cdat: $f: memory usage file "*"no '# page_size N' header line"|\
            "cdat: $f: memory usage file has page_size "*" but "*" has page_size "*) return 0 ;;
        esac
    done
    return 1
}

# Does the error name an input file and a place?
names_place() {     # STDERR-FILE
    local msg f
    msg=$(grep -v '^[a-z]*: warning: ' "$1" | head -n 1)
    for f in $FI_INPUTS; do
        case $msg in
            *": $f: "[0-9]*": "*|*": $f:"[0-9]*": "*|*": $f: "*"line "[0-9]*": "*) return 0 ;;
        esac
    done
    if whole_input_error "$msg"; then
        case $msg in
            *"no thread can run"*)
                # every listed thread: "  thread T (PATH) waits for … at record N, clock C"
                ! grep '^  thread ' "$1" | grep -qv ' (.*) waits for .* at record [0-9]*, clock [0-9]*$' ;;
        esac
        return 0
    fi
    return 1
}

# known_outcome STATUS STDERR-FILE: the name of the open defect this outcome
# is, or nothing. (An entry: a case on $FI_KIND:STATUS and a grep of the
# message, echoing "issue N item M (what)"; none is open now.)
known_outcome() {
    :
}

declare -A kind_cases kind_known kind_failed kind_exit
fail_case() {   # LABEL WHY
    kind_failed[$FI_KIND]=$(( ${kind_failed[$FI_KIND]:-0} + 1 ))
    {
        echo "$2"
        echo "case: $1"
        echo "command: $FI_CMD"
        echo "--- stderr (first lines)"
        head -c 1500 fi.stderr
    } >.fi-detail
    _cli_result FAIL "fault injection: $1" .fi-detail
    rm -f .fi-detail
}

# run_case LABEL CMD...: FI_KIND, FI_INPUTS (input paths the message may
# name) and FI_OUT (the directory that must stay as it was on failure) set.
run_case() {
    local label=$1 before after status known why=""
    shift
    FI_CMD="$*"
    kind_cases[$FI_KIND]=$(( ${kind_cases[$FI_KIND]:-0} + 1 ))
    before=$(snapshot "$FI_OUT")
    timeout -k 5 "$FI_TIMEOUT" "$@" >fi.stdout 2>fi.stderr </dev/null
    status=$?
    after=$(snapshot "$FI_OUT")
    kind_exit[$FI_KIND:$status]=$(( ${kind_exit[$FI_KIND:$status]:-0} + 1 ))
    known=$(known_outcome "$status" fi.stderr)
    if [ -n "$known" ]; then
        kind_known[$FI_KIND]="${kind_known[$FI_KIND]:-}|$known"
        return
    fi
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        why="no answer within $FI_TIMEOUT s"
    elif grep -Eq 'Sanitizer|runtime error|^==[0-9]+==' fi.stderr; then
        why="sanitizer report"
    elif [ "$status" -gt 2 ]; then
        why="exit status $status (only 0, 1 and 2 are allowed)"
    elif [ "$status" -ne 0 ] && [ "$before" != "$after" ]; then
        why="the failed run changed its output directory: $(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | head -n 3)"
    elif [ "$status" -eq 2 ] && ! names_place fi.stderr; then
        why="the error names no input file and place"
    elif [ -n "$(find . -name '*.tmp.*' | head -n 1)" ]; then
        why="a temporary was left: $(find . -name '*.tmp.*' | head -n 3)"
    fi
    find . -name '*.tmp.*' -delete     # one failure only: not again in the next case
    [ -z "$why" ] || fail_case "$label" "$why"
}

# skip_case REASON: a case not run, counted by its reason.
skip_case() {
    kind_cases[$FI_KIND]=$(( ${kind_cases[$FI_KIND]:-0} + 1 ))
    kind_known[$FI_KIND]="${kind_known[$FI_KIND]:-}|$1"
}

# The kind's summary line.
report_kind() {     # KIND DESCRIPTION
    local k=$1 known="" e
    if [ -n "${kind_known[$k]:-}" ]; then
        known=$(echo "${kind_known[$k]#|}" | tr '|' '\n' | sort | uniq -c | sed 's/^ *//' | paste -sd ';' -)
        known="; $known"
    fi
    local exits=""
    for e in 0 1 2; do exits="$exits ${kind_exit[$k:$e]:-0}"; done
    if [ "${kind_failed[$k]:-0}" -eq 0 ]; then
        _cli_result ok "fault injection: $2: ${kind_cases[$k]:-0} cases, exit 0/1/2:$exits$known"
    else
        echo "     ($2: ${kind_failed[$k]} of ${kind_cases[$k]} cases failed)"
    fi
}

# fresh_out DIR NAME...: DIR holds only the "earlier run" outputs NAME….
fresh_out() {
    local d=$1 f
    shift
    rm -rf "$d"
    mkdir -p "$d"
    for f in "$@"; do echo "an earlier run's $f" >"$d/$f"; done
}

# ---- traces ----------------------------------------------------------------------------------
FI_KIND=traces
for ((i = 0; i < 150; i++)); do
    set=${sets[$(( (i * 7) % ${#sets[@]} ))]}
    p=${set##*.}
    k=$(( i % p ))
    rm -rf in
    mkdir in
    for ((t = 0; t < p; t++)); do cp "gold/$set.$t" "in/t.$p.$t"; done
    if [ $((i % 10)) -eq 9 ]; then
        gzip -c "gold/$set.$k" >in/orig
        "$MUT" "$i" bin in/orig "in/t.$p.$k"
        rm in/orig
    else
        "$MUT" "$i" bin "gold/$set.$k" "in/t.$p.$k"
    fi
    FI_INPUTS=$(for ((t = 0; t < p; t++)); do echo "in/t.$p.$t"; done)
    FI_OUT=out
    label="seed $i, trace $k of $set"
    case $((i % 7)) in
        0)  fresh_out out "t.$p.ciat_report" "t.$p.memory"
            run_case "$label, ciat" ciat -q -o out "in/t.$p" ;;
        1)  fresh_out out "t.$p.ciat_report" "t.$p.memory" "t.$p.ciat_events"
            run_case "$label, ciat --lenient -ciat_events" ciat -q --lenient -ciat_events -o out "in/t.$p" ;;
        2)  fresh_out out "t.$p.ciat_report" "t.$p.memory"
            run_case "$label, ciat -i 2" ciat -q -i 2 -o out "in/t.$p" ;;
        3)  if [ "$p" -le 16 ]; then
                fresh_out out "t.$p.cdat_report" "t.$p.general.0" "t.$p.general.1" "t.$p.detailed"
                run_case "$label, cdat" cdat -q -o out "in/t.$p" gold/out.ini
            else
                fresh_out out "t.$p.ciat_report" "t.$p.memory"
                run_case "$label, ciat" ciat -q -o out "in/t.$p"
            fi ;;
        4)  fresh_out out
            run_case "$label, smait schedule" smait schedule "in/t.$p" ;;
        5)  fresh_out out
            run_case "$label, smait stat" smait stat "in/t.$p.$k" ;;
        6)  fresh_out out
            run_case "$label, smait dump --lenient" smait dump --lenient "in/t.$p.$k" ;;
    esac
done
report_kind traces "mutated traces through ciat, cdat and smait"

# ---- configurations --------------------------------------------------------------------------
FI_KIND=configs
for ((i = 0; i < 50; i++)); do
    src=${configs[$(( i % ${#configs[@]} ))]}
    rm -rf in
    mkdir in
    cp gold/pc.4.* in/ 2>/dev/null
    "$MUT" "$((1000 + i))" text "$src" in/machine.ini
    FI_INPUTS="in/machine.ini in/pc.4.0 in/pc.4.1 in/pc.4.2 in/pc.4.3"
    FI_OUT=out
    fresh_out out pc.4.cdat_report pc.4.general.0 pc.4.detailed
    run_case "seed $((1000 + i)), $(basename "$src")" cdat -q -o out in/pc.4 in/machine.ini
done
report_kind configs "mutated configurations through cdat"

# ---- memory usage files ------------------------------------------------------------------------
FI_KIND=usage
for ((i = 0; i < 20; i++)); do
    rm -rf in
    mkdir in
    cp gold/pc.4.[0-3] in/
    "$MUT" "$((2000 + i))" text gold/pc.4.memory in/usage.memory
    printf '[system]\nnodes = 4\nprocs_per_node = 4\nallocation = %s\nmemory_usage = usage.memory\n' \
        "$( [ $((i % 2)) -eq 0 ] && echo oracle || echo rr2)" >in/machine.ini
    FI_INPUTS="in/usage.memory in/machine.ini"
    FI_OUT=out
    fresh_out out pc.4.cdat_report
    run_case "seed $((2000 + i)), oracle/rr2 placement" cdat -q -o out in/pc.4 in/machine.ini
done
report_kind usage "mutated memory usage files through cdat"

# ---- event traces ------------------------------------------------------------------------------
FI_KIND=events
widths=(1 10 1000 17592186044416)     # the last one 2^44: 64-bit clocks in 2^20 bins
for ((i = 0; i < 80; i++)); do
    src=${events[$(( i % ${#events[@]} ))]}
    w=${widths[$(( i % 4 ))]}
    rm -rf in
    mkdir in
    "$MUT" "$((3000 + i))" text "$src" in/events
    FI_INPUTS=in/events
    FI_OUT=out
    fresh_out out time picture.svg
    opts=(--max-bins 4194304)
    [ $((i % 3)) -eq 1 ] && opts+=(--lenient)
    [ $((i % 3)) -eq 2 ] && opts+=(--svg out/picture.svg -f 2=RAW)
    run_case "seed $((3000 + i)), $(basename "$src"), width $w" tdat "${opts[@]}" in/events out/time "$w" 2
done
report_kind events "mutated event traces through tdat"

# ---- texts -------------------------------------------------------------------------------------
# Records a text's repeat blocks multiply out to (awk: doubles are enough).
repeat_product() {
    awk '{ sub(/#.*/, "") } $1 == "repeat" { d++; m[d] = (d > 1 ? m[d - 1] : 1) * ($2 + 0); if (m[d] > big) big = m[d] }
         $1 == "end" && d > 0 { d-- } END { printf "%.0f\n", big + 0 }' "$1"
}
FI_KIND=texts
for ((i = 0; i < 40; i++)); do
    src=${texts[$(( (i * 3) % ${#texts[@]} ))]}
    rm -rf in
    mkdir in
    "$MUT" "$((4000 + i))" text "$src" in/x.txt
    FI_INPUTS=in/x.txt
    FI_OUT=out
    if awk -v b="$(repeat_product in/x.txt)" 'BEGIN { exit !(b > 1000000 && b <= 268435456) }'; then
        skip_case "repeat blocks of 10^6 to 2^28 records (not run)"
        continue
    fi
    fresh_out out y y.2.0 y.2.1 y.4.0
    run_case "seed $((4000 + i)), $(basename "$src")" smait asm in/x.txt out/y
done
report_kind texts "mutated text forms through smait asm"
rm -rf in out fi.stdout fi.stderr
