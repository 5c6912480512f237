# slow-paths.sh — the fast paths give exactly what the general paths give
# (common/fast_paths.h). Under `make check SLOW_PATHS=1` BIN is the build
# that skips every fast path (-DDSM_SLOW_PATHS, build-slow/) and FAST_BIN the
# normal build: ciat and cdat run with both on the differential sets — random
# sets of 4, 16 and 128 threads (tests/cli/ciat/randset.awk: every record
# kind, accesses of 0-64 bytes, sections, barriers, phases) and small sets of
# the bench generators (BENCH_BIN: irregular, mat_mul-like, FFT-like, pointer
# chasing) — with options that take other paths (grains, false sharing,
# attribution, the matrix; several machines, miss classes, traces), and every
# output file must be byte for byte the same. The rest of make check then runs
# on the slow build too: its golden files are the same for both builds. In a
# plain make check there is nothing to compare with: skipped.
if [ -z "${FAST_BIN:-}" ] || [ "$FAST_BIN" -ef "$BIN" ]; then
    echo "(slow-paths: runs under make check SLOW_PATHS=1)"
    return 0
fi
D=$CLI_DIR/ciat

# both NAME TOOL ARGS...: TOOL ARGS with each build, -o fast/ and -o slow/;
# every file written must be the same (reports but for '# command:').
both() {
    local name=$1 tool=$2 f ok=1
    shift 2
    rm -rf fast slow
    mkdir fast slow
    "$FAST_BIN/$tool" -q -o fast "$@" >fast.out 2>&1 || ok=0
    "$BIN/$tool" -q -o slow "$@" >slow.out 2>&1 || ok=0
    check_true "$name: both builds run" test "$ok" = 1
    check_true "$name: the same files" diff <(ls fast) <(ls slow)
    for f in fast/*; do
        case $f in
            *_report) same_but_command "$name: ${f#fast/}" "$f" "slow/${f#fast/}" ;;
            *) check_same "$name: ${f#fast/}" "$f" "slow/${f#fast/}" ;;
        esac
    done
}

sets=()
for spec in "4 901 20000" "16 902 5000" "128 903 1500"; do
    read -r p seed n <<<"$spec"
    awk -v seed="$seed" -v threads="$p" -v n="$n" -f "$D/randset.awk" >"r$seed.txt"
    smait asm "r$seed.txt" "r$seed"
    sets+=("r$seed.$p")
done
if [ -n "${BENCH_BIN:-}" ] && [ -x "$BENCH_BIN/gen_irregular" ]; then
    "$BENCH_BIN/gen_irregular" irr 4 100 >/dev/null
    "$BENCH_BIN/gen_kernel" mm 4 1 >/dev/null
    "$BENCH_BIN/gen_fft" fft 16 1 >/dev/null
    "$BENCH_BIN/gen_chase" chase 8 50 >/dev/null
    sets+=(irr.4 mm.4 fft.16 chase.8)
else
    echo "(slow-paths: no BENCH_BIN: the bench generators' sets are left out)"
fi

cat >m.ini <<'EOF'
[system]
nodes = 8
procs_per_node = 16
protocol = 5
[output]
general = 1
detailed = 1
EOF
# The memory-side L3 (docs/cdat-protocol.md §10): behind L2s on 8 nodes, and
# alone on one node of 128, where most misses take the short path.
printf '[system]\nnodes = 8\nprocs_per_node = 16\n[dcache]\nsize = 1K\n[icache]\nsize = 1K\n[l2]\nsize = 4K\n[l3]\nsize = 16K\nassoc = 4\n' >l3a.ini
printf '[system]\nnodes = 1\nprocs_per_node = 128\n[dcache]\nsize = 2K\n[l3]\nsize = 64K\nassoc = 8\n' >l3b.ini
for s in "${sets[@]}"; do
    both "$s: ciat" ciat -p -ciat_events "$s"
    both "$s: ciat, grain 1, false sharing, matrix" ciat -p -grain 1 --false-sharing --comm-matrix "$s"
    both "$s: ciat, grain 16, lines of 128" ciat -p -grain 16 --line-size 128 "$s"
    both "$s: ciat, locks and intervals" ciat -p --locks --intervals "$s"
    both "$s: ciat, barriers and the critical path" ciat -p --barriers --critical-path "$s"
    both "$s: cdat, two machines, traces" cdat -p "$s" "$SRC/configs/32x4.ini" m.ini
    both "$s: cdat, miss classes, by code and data" cdat -p --miss-classes --by-code --by-data "$s" "$SRC/configs/32x4.ini"
    both "$s: cdat, L3s (with L2s, and alone)" cdat -p "$s" l3a.ini l3b.ini
done
