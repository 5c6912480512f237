; vector-cases.ll — vector accesses under the target attributes clang sets
; (collector-atomics.sh lists the records smait-instrument makes of them).
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Each function loads a 64-byte vector (align 64), a 32-byte one aligned to
; 16 and one aligned to 32, a 24-byte and a 12-byte one, and an 8-byte one.
define void @sse2(<16 x float>* %a, <8 x float>* %b, <8 x float>* %c, <6 x float>* %d, <3 x float>* %e, <2 x float>* %f) #0 {
  %1 = load <16 x float>, <16 x float>* %a, align 64
  %2 = load <8 x float>, <8 x float>* %b, align 16
  %3 = load <8 x float>, <8 x float>* %c, align 32
  %4 = load <6 x float>, <6 x float>* %d, align 8
  %5 = load <3 x float>, <3 x float>* %e, align 16
  %6 = load <2 x float>, <2 x float>* %f, align 8
  ret void
}
define void @avx2(<16 x float>* %a, <8 x float>* %b, <8 x float>* %c, <6 x float>* %d, <3 x float>* %e, <2 x float>* %f) #1 {
  %1 = load <16 x float>, <16 x float>* %a, align 64
  %2 = load <8 x float>, <8 x float>* %b, align 16
  %3 = load <8 x float>, <8 x float>* %c, align 32
  %4 = load <6 x float>, <6 x float>* %d, align 8
  %5 = load <3 x float>, <3 x float>* %e, align 16
  %6 = load <2 x float>, <2 x float>* %f, align 8
  ret void
}
define void @sandybridge(<16 x float>* %a, <8 x float>* %b, <8 x float>* %c, <6 x float>* %d, <3 x float>* %e, <2 x float>* %f) #2 {
  %1 = load <16 x float>, <16 x float>* %a, align 64
  %2 = load <8 x float>, <8 x float>* %b, align 16
  %3 = load <8 x float>, <8 x float>* %c, align 32
  %4 = load <6 x float>, <6 x float>* %d, align 8
  %5 = load <3 x float>, <3 x float>* %e, align 16
  %6 = load <2 x float>, <2 x float>* %f, align 8
  ret void
}
define void @avx512f(<16 x float>* %a, <8 x float>* %b, <8 x float>* %c, <6 x float>* %d, <3 x float>* %e, <2 x float>* %f) #3 {
  %1 = load <16 x float>, <16 x float>* %a, align 64
  %2 = load <8 x float>, <8 x float>* %b, align 16
  %3 = load <8 x float>, <8 x float>* %c, align 32
  %4 = load <6 x float>, <6 x float>* %d, align 8
  %5 = load <3 x float>, <3 x float>* %e, align 16
  %6 = load <2 x float>, <2 x float>* %f, align 8
  ret void
}
define void @x86_64_v4(<16 x float>* %a, <8 x float>* %b, <8 x float>* %c, <6 x float>* %d, <3 x float>* %e, <2 x float>* %f) #4 {
  %1 = load <16 x float>, <16 x float>* %a, align 64
  %2 = load <8 x float>, <8 x float>* %b, align 16
  %3 = load <8 x float>, <8 x float>* %c, align 32
  %4 = load <6 x float>, <6 x float>* %d, align 8
  %5 = load <3 x float>, <3 x float>* %e, align 16
  %6 = load <2 x float>, <2 x float>* %f, align 8
  ret void
}
define void @x86_64_v4_prefer512(<16 x float>* %a, <8 x float>* %b, <8 x float>* %c, <6 x float>* %d, <3 x float>* %e, <2 x float>* %f) #5 {
  %1 = load <16 x float>, <16 x float>* %a, align 64
  %2 = load <8 x float>, <8 x float>* %b, align 16
  %3 = load <8 x float>, <8 x float>* %c, align 32
  %4 = load <6 x float>, <6 x float>* %d, align 8
  %5 = load <3 x float>, <3 x float>* %e, align 16
  %6 = load <2 x float>, <2 x float>* %f, align 8
  ret void
}
define void @no_attributes(<16 x float>* %a, <8 x float>* %b, <8 x float>* %c, <6 x float>* %d, <3 x float>* %e, <2 x float>* %f) {
  %1 = load <16 x float>, <16 x float>* %a, align 64
  %2 = load <8 x float>, <8 x float>* %b, align 16
  %3 = load <8 x float>, <8 x float>* %c, align 32
  %4 = load <6 x float>, <6 x float>* %d, align 8
  %5 = load <3 x float>, <3 x float>* %e, align 16
  %6 = load <2 x float>, <2 x float>* %f, align 8
  ret void
}

attributes #0 = { "min-legal-vector-width"="0" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { "min-legal-vector-width"="0" "target-cpu"="x86-64" "target-features"="+avx,+avx2,+crc32,+cx8,+fxsr,+mmx,+popcnt,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87,+xsave" "tune-cpu"="generic" }
attributes #2 = { "min-legal-vector-width"="0" "target-cpu"="sandybridge" "target-features"="+avx,+crc32,+cx16,+cx8,+fxsr,+mmx,+pclmul,+popcnt,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87,+xsave,+xsaveopt" }
attributes #3 = { "min-legal-vector-width"="0" "target-cpu"="x86-64" "target-features"="+avx,+avx2,+avx512f,+crc32,+cx8,+f16c,+fma,+fxsr,+mmx,+popcnt,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87,+xsave" "tune-cpu"="generic" }
attributes #4 = { "min-legal-vector-width"="0" "target-cpu"="x86-64-v4" "target-features"="+avx,+avx2,+avx512bw,+avx512cd,+avx512dq,+avx512f,+avx512vl,+bmi,+bmi2,+crc32,+cx16,+cx8,+f16c,+fma,+fxsr,+lzcnt,+mmx,+movbe,+popcnt,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87,+xsave" }
attributes #5 = { "min-legal-vector-width"="0" "prefer-vector-width"="512" "target-cpu"="x86-64-v4" "target-features"="+avx,+avx2,+avx512bw,+avx512cd,+avx512dq,+avx512f,+avx512vl,+bmi,+bmi2,+crc32,+cx16,+cx8,+f16c,+fma,+fxsr,+lzcnt,+mmx,+movbe,+popcnt,+sahf,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+x87,+xsave" }
