# collector-vectors.sh — vector accesses are recorded as the pieces the
# machine makes (docs/collector.md §3): no piece wider than the target's
# vector registers, and where the target splits a 32-byte access that is not
# aligned to 32, two 16-byte pieces. vectors.c runs built for the default
# x86-64 target (16-byte SSE vectors) and with -mavx2 (32 bytes; only where
# the processor has AVX2); the rules for other targets are checked on
# hand-written IR (vector-cases.ll: the attributes clang writes for
# -march=x86-64, -mavx2, -march=sandybridge, -mavx512f, -march=x86-64-v4
# with and without -mprefer-vector-width=512, and none; vector-aarch64.ll).
collector_setup || return 0
CLANG=${SMAIT_CLANG:-$(sed -n 's/^DEFAULT_CLANG=//p' "$BIN/smait-cc")}
export D CLANG

# run NAME OPTIONS...: build vectors.c with smait-cc OPTIONS, run it, print
# its records (no branches) with addresses named.
run() {
    local name=$1
    shift
    smait-cc -O1 "$@" "$D/vectors.c" -o "$name" && TRACE_FILE_NAME=$name SMAIT_QUIET=1 "./$name" >"$name.syms" &&
        smait dump --set "$name.1" | awk -v SYMS="$name.syms" -v MAP="$name.1.map" -f "$D/hex.awk" -f "$D/normalize.awk" \
            "$name.syms" "$name.1.map" - | grep -Ev '^(branch|proc|pcall) '
}
export -f run

# Default target: every 32- and 64-byte vector is 16-byte pieces; s.y's two
# pieces are at s+48 (line 0 of s) and s+64 (line 1): neither crosses a
# line, where one 32-byte record at s+48 would seem to.
check "default x86-64 target: 16-byte pieces" run sse <<'EOF'
start_trace sync=1
load 16 s+48 vec
load 16 s+64 vec
store 16 s+48 vec
store 16 s+64 vec
load 16 x+0 vec
load 16 x+16 vec
store 16 x+0 vec
store 16 x+16 vec
load 16 z+0 vec
load 16 z+16 vec
load 16 z+32 vec
load 16 z+48 vec
store 16 z+0 vec
store 16 z+16 vec
store 16 z+32 vec
store 16 z+48 vec
end_trace
--- exit 0
EOF
# Every piece is one instruction slot: the instruction stream still walks
# exactly the recorded instructions.
check "default target: ciat finds the branch stream consistent" bash -c '
    ciat -q sse.1 && awk "\$1 == \"RxTxL06:\" { print (\$4 == \$6 && \$4 > 0) ? \"consistent\" : \"NOT\", \"discontinuities\", \$NF }" sse.1.ciat_report' <<'EOF'
consistent discontinuities 0
--- exit 0
EOF
if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
    # AVX2: s.y is one 32-byte access (vmovups; it does cross the line), x
    # one, z two.
    check "-mavx2: 32-byte pieces" run avx2 -mavx2 <<'EOF'
start_trace sync=1
load 32 s+48 vec
store 32 s+48 vec
load 32 x+0 vec
store 32 x+0 vec
load 32 z+0 vec
load 32 z+32 vec
store 32 z+0 vec
store 32 z+32 vec
end_trace
--- exit 0
EOF
else
    echo "(this processor has no AVX2: the -mavx2 run is skipped)"
fi

# ircalls FILE.ll [CLANG-OPTIONS]: the records smait-instrument (level 2)
# makes of FILE's accesses, decoded (ircalls.awk). The options give clang
# the module's target (else it would replace the triple with its own).
ircalls() {
    local f=$1
    shift
    "$CLANG" "$@" -c -emit-llvm "$D/$f" -o in.bc && smait-instrument --level=2 in.bc out.bc &&
        "$CLANG" "$@" -S -emit-llvm out.bc -o - | awk -f "$D/ircalls.awk"
}
export -f ircalls

# The rules (vector_rule in collector/instrument.c), from LLVM 14's x86 code
# generator: SSE 16 bytes; AVX and AVX2 32; AVX-512 64, except where the
# tuning prefers 256-bit vectors (x86-64-v4, the Skylake-SP line) and the
# function does not ask for more (prefer-vector-width=512); Sandy and Ivy
# Bridge split 32-byte accesses aligned below 32. 24 bytes are 16 + 8, 12
# bytes 8 + 4 (pieces at increasing addresses); 8 bytes and less: one piece.
check "IR: the pieces under each target's attributes" ircalls vector-cases.ll <<'EOF'
sse2
  mem load 16 vec
  mem load 16 vec +16
  mem load 16 vec +32
  mem load 16 vec +48
  | % = load <16 x float>, <16 x float>* %a, align 64
  mem load 16 vec
  mem load 16 vec +16
  | % = load <8 x float>, <8 x float>* %b, align 16
  mem load 16 vec
  mem load 16 vec +16
  | % = load <8 x float>, <8 x float>* %c, align 32
  mem load 16 vec
  mem load 8 vec +16
  | % = load <6 x float>, <6 x float>* %d, align 8
  mem load 8 vec
  mem load 4 vec +8
  | % = load <3 x float>, <3 x float>* %e, align 16
  mem load 8 vec
  | % = load <2 x float>, <2 x float>* %f, align 8
avx2
  mem load 32 vec
  mem load 32 vec +32
  | % = load <16 x float>, <16 x float>* %a, align 64
  mem load 32 vec
  | % = load <8 x float>, <8 x float>* %b, align 16
  mem load 32 vec
  | % = load <8 x float>, <8 x float>* %c, align 32
  mem load 16 vec
  mem load 8 vec +16
  | % = load <6 x float>, <6 x float>* %d, align 8
  mem load 8 vec
  mem load 4 vec +8
  | % = load <3 x float>, <3 x float>* %e, align 16
  mem load 8 vec
  | % = load <2 x float>, <2 x float>* %f, align 8
sandybridge
  mem load 32 vec
  mem load 32 vec +32
  | % = load <16 x float>, <16 x float>* %a, align 64
  mem load 16 vec
  mem load 16 vec +16
  | % = load <8 x float>, <8 x float>* %b, align 16
  mem load 32 vec
  | % = load <8 x float>, <8 x float>* %c, align 32
  mem load 16 vec
  mem load 8 vec +16
  | % = load <6 x float>, <6 x float>* %d, align 8
  mem load 8 vec
  mem load 4 vec +8
  | % = load <3 x float>, <3 x float>* %e, align 16
  mem load 8 vec
  | % = load <2 x float>, <2 x float>* %f, align 8
avx512f
  mem load 64 vec
  | % = load <16 x float>, <16 x float>* %a, align 64
  mem load 32 vec
  | % = load <8 x float>, <8 x float>* %b, align 16
  mem load 32 vec
  | % = load <8 x float>, <8 x float>* %c, align 32
  mem load 16 vec
  mem load 8 vec +16
  | % = load <6 x float>, <6 x float>* %d, align 8
  mem load 8 vec
  mem load 4 vec +8
  | % = load <3 x float>, <3 x float>* %e, align 16
  mem load 8 vec
  | % = load <2 x float>, <2 x float>* %f, align 8
x86_64_v4
  mem load 32 vec
  mem load 32 vec +32
  | % = load <16 x float>, <16 x float>* %a, align 64
  mem load 32 vec
  | % = load <8 x float>, <8 x float>* %b, align 16
  mem load 32 vec
  | % = load <8 x float>, <8 x float>* %c, align 32
  mem load 16 vec
  mem load 8 vec +16
  | % = load <6 x float>, <6 x float>* %d, align 8
  mem load 8 vec
  mem load 4 vec +8
  | % = load <3 x float>, <3 x float>* %e, align 16
  mem load 8 vec
  | % = load <2 x float>, <2 x float>* %f, align 8
x86_64_v4_prefer512
  mem load 64 vec
  | % = load <16 x float>, <16 x float>* %a, align 64
  mem load 32 vec
  | % = load <8 x float>, <8 x float>* %b, align 16
  mem load 32 vec
  | % = load <8 x float>, <8 x float>* %c, align 32
  mem load 16 vec
  mem load 8 vec +16
  | % = load <6 x float>, <6 x float>* %d, align 8
  mem load 8 vec
  mem load 4 vec +8
  | % = load <3 x float>, <3 x float>* %e, align 16
  mem load 8 vec
  | % = load <2 x float>, <2 x float>* %f, align 8
no_attributes
  mem load 16 vec
  mem load 16 vec +16
  mem load 16 vec +32
  mem load 16 vec +48
  | % = load <16 x float>, <16 x float>* %a, align 64
  mem load 16 vec
  mem load 16 vec +16
  | % = load <8 x float>, <8 x float>* %b, align 16
  mem load 16 vec
  mem load 16 vec +16
  | % = load <8 x float>, <8 x float>* %c, align 32
  mem load 16 vec
  mem load 8 vec +16
  | % = load <6 x float>, <6 x float>* %d, align 8
  mem load 8 vec
  mem load 4 vec +8
  | % = load <3 x float>, <3 x float>* %e, align 16
  mem load 8 vec
  | % = load <2 x float>, <2 x float>* %f, align 8
--- exit 0
EOF
check "IR: another target (aarch64): 16-byte vectors" ircalls vector-aarch64.ll --target=aarch64-unknown-linux-gnu <<'EOF'
neon
  mem load 16 vec
  mem load 16 vec +16
  mem load 16 vec +32
  mem load 16 vec +48
  | % = load <16 x float>, <16 x float>* %a, align 64
--- exit 0
EOF
