#!/usr/bin/env bash
# ciat-shards.sh — one ciat run as a Slurm job array of N parts and a merge
# job that runs when every part has succeeded (docs/sharding.md §6).
#
#   ciat-shards.sh N OUT-DIR [CIAT-OPTIONS...] TRACE-SET
#
# Submits, from a login node:
#   * an array of N tasks; task I runs  ciat -q -o OUT-DIR CIAT-OPTIONS
#     --shard I/N TRACE-SET  (I = $SLURM_ARRAY_TASK_ID), writing
#     OUT-DIR/<prefix>.ciat_partial.I-of-N;
#   * a merge job, --dependency=afterok on the whole array, running
#     ciat --merge OUT-DIR/<prefix>.ciat_partial.*-of-N, which writes the
#     report, memory usage file (and JSON) of the run without --shard.
# Prints the two job ids ("ARRAY MERGE"). The traces and OUT-DIR must be on a
# file system every node sees; the logs go to OUT-DIR/ciat-shard-I.log and
# OUT-DIR/ciat-merge.log.
#
# Environment: CIAT, the ciat to run (default: ciat on the PATH);
# SBATCH_ARGS, more sbatch options for both jobs (e.g. "--partition=long
# --mem=8G"; word-split).
set -euo pipefail
if [ $# -lt 3 ]; then
    echo "usage: $0 N OUT-DIR [CIAT-OPTIONS...] TRACE-SET" >&2
    exit 1
fi
n=$1 out=$2
shift 2
case $n in '' | *[!0-9]*) echo "$0: N must be a number of parts, not '$n'" >&2; exit 1 ;; esac
if [ "$n" -lt 1 ] || [ "$n" -gt 4096 ]; then echo "$0: N must be 1..4096" >&2; exit 1; fi
[ -d "$out" ] || { echo "$0: $out: no such directory" >&2; exit 1; }
ciat=${CIAT:-$(command -v ciat || true)}
[ -n "$ciat" ] || { echo "$0: no ciat on the PATH (set CIAT)" >&2; exit 1; }
set_name=${*: -1}                   # the trace set, last: the outputs' prefix is its name
prefix=$(basename "$set_name")
opts=("${@:1:$#-1}")
# The command lines, quoted for the shell that --wrap runs.
part_cmd="$(printf '%q ' "$ciat" -q -o "$out" "${opts[@]}")--shard \"\$SLURM_ARRAY_TASK_ID/$n\" $(printf '%q' "$set_name")"
merge_cmd=$(printf '%q ' "$ciat" --merge)$(printf '%q' "$out/$prefix").ciat_partial.\*-of-$n
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_ARGS:-} --job-name=ciat-shard --array="0-$((n - 1))" \
    --output="$out/ciat-shard-%a.log" --wrap "$part_cmd")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_ARGS:-} --job-name=ciat-merge --dependency="afterok:$array" \
    --kill-on-invalid-dep=yes --output="$out/ciat-merge.log" --wrap "$merge_cmd")
echo "${array} ${merge%%;*}"
