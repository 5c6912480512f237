# jobs.sh — sourced by run-cli-tests.sh and run-unit-tests.sh: how many test
# files or suites run at a time, and running them so.
#
#   jobs_from_args TOOL "$@"   sets jobs (-j N first in the arguments, else
#                              $CLI_JOBS, else one per processor) and
#                              jobs_shift (how many arguments -j N took);
#                              exits 1 on a bad value, naming TOOL
#   run_limited FN N [AFTER]   runs FN 0 … FN N-1 in the background, jobs at a
#                              time; AFTER (if given) after each one ends; waits
#                              for all

jobs_from_args() {
    local tool=$1
    shift
    jobs=${CLI_JOBS:-$(nproc 2>/dev/null || echo 1)}
    jobs_shift=0
    if [ "${1:-}" = -j ]; then
        jobs=${2:-}
        jobs_shift=2
    fi
    case $jobs in
        '' | *[!0-9]* | 0)
            echo "$tool: -j (or CLI_JOBS) must be a positive number, not '$jobs'" >&2
            exit 1
            ;;
    esac
}

run_limited() {
    local fn=$1 n=$2 after=${3:-} i running=0
    for ((i = 0; i < n; i++)); do
        if [ "$running" -ge "$jobs" ]; then
            wait -n
            running=$((running - 1))
            [ -n "$after" ] && "$after"
        fi
        "$fn" "$i" &
        running=$((running + 1))
    done
    wait
}
