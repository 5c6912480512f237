#!/usr/bin/env bash
# cdat-shards.sh — one cdat run (one machine) as a Slurm job array of N parts
# and a merge job that runs when every part has succeeded (docs/sharding.md §9).
#
#   cdat-shards.sh N OUT-DIR [CDAT-OPTIONS...] TRACE-SET CONFIG
#
# Submits, from a login node:
#   * an array of N tasks; task I runs  cdat -q -o OUT-DIR CDAT-OPTIONS
#     --shard I/N TRACE-SET CONFIG  (I = $SLURM_ARRAY_TASK_ID), writing
#     OUT-DIR/<prefix>.cdat_partial.I-of-N (<prefix>.NAME.… with --name NAME);
#   * a merge job, --dependency=afterok on the whole array, running
#     cdat --merge OUT-DIR/<prefix>.cdat_partial.*-of-N, which writes the
#     report (and JSON) of the run without --shard.
# N must be a power of two dividing every cache's sets (cdat refuses others
# in every task). Prints the two job ids ("ARRAY MERGE"). The traces, the
# configuration and OUT-DIR must be on a file system every node sees; the
# logs go to OUT-DIR/cdat-shard-I.log and OUT-DIR/cdat-merge.log.
#
# Environment: CDAT, the cdat to run (default: cdat on the PATH);
# SBATCH_ARGS, more sbatch options for both jobs (word-split).
set -euo pipefail
if [ $# -lt 4 ]; then
    echo "usage: $0 N OUT-DIR [CDAT-OPTIONS...] TRACE-SET CONFIG" >&2
    exit 1
fi
n=$1 out=$2
shift 2
case $n in '' | *[!0-9]*) echo "$0: N must be a number of parts, not '$n'" >&2; exit 1 ;; esac
if [ "$n" -lt 1 ] || [ "$n" -gt 4096 ]; then echo "$0: N must be 1..4096" >&2; exit 1; fi
[ -d "$out" ] || { echo "$0: $out: no such directory" >&2; exit 1; }
cdat=${CDAT:-$(command -v cdat || true)}
[ -n "$cdat" ] || { echo "$0: no cdat on the PATH (set CDAT)" >&2; exit 1; }
args=("$@")
set_name=${args[$# - 2]}            # the trace set, before the configuration: the outputs' prefix is its name
prefix=$(basename "$set_name")
for ((k = 0; k < $# - 2; k++)); do  # --name NAME: <prefix>.NAME
    case ${args[k]} in
    --name) prefix=$prefix.${args[k + 1]} ;;
    --name=*) prefix=$prefix.${args[k]#--name=} ;;
    esac
done
# The command lines, quoted for the shell that --wrap runs.
part_cmd="$(printf '%q ' "$cdat" -q -o "$out" "${args[@]:0:$# - 2}")--shard \"\$SLURM_ARRAY_TASK_ID/$n\" $(printf '%q ' "${args[@]: -2}")"
merge_cmd=$(printf '%q ' "$cdat" --merge)$(printf '%q' "$out/$prefix").cdat_partial.\*-of-$n
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_ARGS:-} --job-name=cdat-shard --array="0-$((n - 1))" \
    --output="$out/cdat-shard-%a.log" --wrap "$part_cmd")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_ARGS:-} --job-name=cdat-merge --dependency="afterok:$array" \
    --kill-on-invalid-dep=yes --output="$out/cdat-merge.log" --wrap "$merge_cmd")
echo "${array} ${merge%%;*}"
