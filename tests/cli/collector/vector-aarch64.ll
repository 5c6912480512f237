; vector-aarch64.ll — a target other than x86: vectors of 16 bytes (NEON).
target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128"
target triple = "aarch64-unknown-linux-gnu"

define void @neon(<16 x float>* %a) {
  %1 = load <16 x float>, <16 x float>* %a, align 64
  ret void
}
