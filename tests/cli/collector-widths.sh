# collector-widths.sh — ciat's communication figures depend on the program,
# not on the width of the accesses the compiler chose (docs/ciat-report.md,
# "Wide accesses"). widths.c (four workers write quarters of an int and a char
# array, all read everything, each rewrites its quarter, main reads it all) is
# built scalar (-O1, -O3 -fno-tree-vectorize), vectorised (-O2, -O3: 16-byte
# accesses; -O3 -mavx2: 32 bytes, where the processor has AVX2) and with -g;
# at grains 4, 8 and 16 every build gives the same L10-L15 (RAW, WAR, WAW,
# RAR and their degrees, per thread and in all) and the same shared bytes in
# the data pages (the memory file's pages without code: the code, and so
# L26, which counts its shared bytes too, differs between builds).
#
# At grain 4 the figures are known by hand (N = 4096 ints in a[], N chars in
# c[] = 1024 locations, out[] 4 locations; 5120 + 4 locations in all):
#   RAW: each worker reads the 3/4 of a[] and c[] the others wrote
#        (4 x 3/4 x 5120 = 15360), main all of both after the second writes
#        (5120) and out[] (4): 20484.
#   WAR: each worker's second write of its quarter finds the three others
#        reading: 5120 stores of degree 3 (war_degree 3:5120).
#   raw_degree (the writers' values): 5120 values read by 3 (the first
#        writes), 5120 + 4 read by 1 (main): 1:5124 3:5120. No WAW, no RAR.
#   shared data bytes: a (16384) + c (4096) + out (16) = 20496.
collector_setup || return 0

builds=("O1:-O1" "O1g:-O1 -g" "O3nv:-O3 -fno-tree-vectorize" "O2:-O2" "O3:-O3")
if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
    builds+=("O3avx2:-O3 -mavx2")
else
    echo "(this processor has no AVX2: the -mavx2 build is skipped)"
fi

# figures NAME GRAIN: ciat's L10-L15 Rx lines and the data pages' shared bytes.
figures() {
    ciat -q -grain "$2" "$1.5" &&
        grep -E '^RxT[0-9x]+L1[0-5]:' "$1.5.ciat_report" &&
        awk '!/^#/ && $3 == 0 { s += $4 } END { print "data_shared_bytes", s + 0 }' "$1.5.memory"
}
# widest NAME: the widest data access of the run's traces ("scalar": 8 bytes
# or less, a pointer's or a long's).
widest() {
    local f
    for f in "$1".5.[0-4]; do smait dump "$f"; done |
        awk '$2 == "load" || $2 == "store" || $2 == "atomic" { if ($3 + 0 > w) w = $3 + 0 } END { print (w > 8 ? w : "scalar") }'
}
export -f figures widest

for b in "${builds[@]}"; do
    name=${b%%:*}
    check "$name: builds and runs" bash -c "smait-cc ${b#*:} -pthread \"\$D/widths.c\" -o $name &&
        TRACE_FILE_NAME=$name SMAIT_QUIET=1 ./$name" <<'EOF'
153593856
--- exit 0
EOF
done

# The builds are what they claim: the scalar ones have no vector accesses,
# the vectorised ones have 16- (or 32-) byte ones.
check "the scalar builds have no vector access" bash -c 'widest O1; widest O3nv' <<'EOF'
scalar
scalar
--- exit 0
EOF
check "-O3's widest access: 16 bytes" widest O3 <<'EOF'
16
--- exit 0
EOF
if [[ " ${builds[*]} " == *" O3avx2:"* ]]; then
    check "-O3 -mavx2's widest access: 32 bytes" widest O3avx2 <<'EOF'
32
--- exit 0
EOF
fi

check "-O1, grain 4: the figures derived by hand" bash -c 'figures O1 4 | grep -E "^RxTx|data_shared"' <<'EOF'
RxTxL10: raw 20484
RxTxL11: raw_degree 1:5124 3:5120
RxTxL12: war 5120
RxTxL13: war_degree 3:5120
RxTxL14: waw 0
RxTxL15: rar 0
data_shared_bytes 20496
--- exit 0
EOF

for g in 4 8 16; do
    figures O1 "$g" >"O1.$g"
    for b in "${builds[@]:1}"; do
        name=${b%%:*}
        figures "$name" "$g" >"$name.$g"
        check_same "grain $g: $name's L10-L15 and shared data bytes are -O1's" "O1.$g" "$name.$g"
    done
done
