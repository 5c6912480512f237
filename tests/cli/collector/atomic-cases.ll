; atomic-cases.ll — one function per case; the test lists the runtime calls
; smait-instrument puts around each instruction.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define i32 @load_monotonic(i32* %p) { %v = load atomic i32, i32* %p monotonic, align 4
  ret i32 %v }
define i32 @load_unordered(i32* %p) { %v = load atomic i32, i32* %p unordered, align 4
  ret i32 %v }
define i32 @load_acquire(i32* %p) { %v = load atomic i32, i32* %p acquire, align 4
  ret i32 %v }
define i32 @load_seq_cst(i32* %p) { %v = load atomic i32, i32* %p seq_cst, align 4
  ret i32 %v }
define void @store_monotonic(i32* %p) { store atomic i32 1, i32* %p monotonic, align 4
  ret void }
define void @store_release(i32* %p) { store atomic i32 1, i32* %p release, align 4
  ret void }
define void @store_seq_cst(i64* %p) { store atomic i64 1, i64* %p seq_cst, align 8
  ret void }
define i32 @rmw_monotonic(i32* %p) { %v = atomicrmw add i32* %p, i32 1 monotonic
  ret i32 %v }
define i32 @rmw_acquire(i32* %p) { %v = atomicrmw add i32* %p, i32 1 acquire
  ret i32 %v }
define i32 @rmw_release(i32* %p) { %v = atomicrmw xchg i32* %p, i32 1 release
  ret i32 %v }
define i32 @rmw_acq_rel(i32* %p) { %v = atomicrmw add i32* %p, i32 1 acq_rel
  ret i32 %v }
define float @rmw_seq_cst_float(float* %p) { %v = atomicrmw fadd float* %p, float 1.0 seq_cst
  ret float %v }
define i32 @rmw_singlethread(i32* %p) { %v = atomicrmw add i32* %p, i32 1 syncscope("singlethread") seq_cst
  ret i32 %v }
define i128 @rmw_16_bytes(i128* %p) { %v = atomicrmw add i128* %p, i128 1 seq_cst, align 16
  ret i128 %v }
define i1 @cmpxchg_acq_rel_monotonic(i32* %p) { %r = cmpxchg i32* %p, i32 0, i32 1 acq_rel monotonic
  %ok = extractvalue { i32, i1 } %r, 1
  ret i1 %ok }
define i1 @cmpxchg_seq_cst_seq_cst(i32* %p) { %r = cmpxchg i32* %p, i32 0, i32 1 seq_cst seq_cst
  %ok = extractvalue { i32, i1 } %r, 1
  ret i1 %ok }
define i1 @cmpxchg_release_monotonic(i32* %p) { %r = cmpxchg i32* %p, i32 0, i32 1 release monotonic
  %ok = extractvalue { i32, i1 } %r, 1
  ret i1 %ok }
define i1 @cmpxchg_monotonic_acquire(i32* %p) { %r = cmpxchg i32* %p, i32 0, i32 1 monotonic acquire
  %ok = extractvalue { i32, i1 } %r, 1
  ret i1 %ok }
define i1 @cmpxchg_monotonic_monotonic(i32* %p) { %r = cmpxchg weak i32* %p, i32 0, i32 1 monotonic monotonic
  %ok = extractvalue { i32, i1 } %r, 1
  ret i1 %ok }
define void @fence_seq_cst() { fence seq_cst
  ret void }
define void @fence_acquire() { fence acquire
  ret void }
define void @fence_release() { fence release
  ret void }
define void @fence_acq_rel() { fence acq_rel
  ret void }
define void @fence_singlethread() { fence syncscope("singlethread") seq_cst
  ret void }
define i32 @load_monotonic_addrspace256(i32 addrspace(256)* %p) { %v = load atomic i32, i32 addrspace(256)* %p monotonic, align 4
  ret i32 %v }
define i32 @load_acquire_addrspace256(i32 addrspace(256)* %p) { %v = load atomic i32, i32 addrspace(256)* %p acquire, align 4
  ret i32 %v }
define i1024 @load_seq_cst_128_bytes(i1024* %p) { %v = load atomic i1024, i1024* %p seq_cst, align 128
  ret i1024 %v }
declare void @__atomic_load(i64, i8*, i8*, i32)
declare i1 @__atomic_compare_exchange(i64, i8*, i8*, i8*, i32, i32)
declare i1 @__atomic_is_lock_free(i64, i8*)
define void @library_load_seq_cst(i8* %p, i8* %r) { call void @__atomic_load(i64 32, i8* %p, i8* %r, i32 5)
  ret void }
define void @library_load_relaxed(i8* %p, i8* %r) { call void @__atomic_load(i64 32, i8* %p, i8* %r, i32 0)
  ret void }
define i1 @library_cas_relaxed_acquire(i8* %p, i8* %e, i8* %d) { %ok = call i1 @__atomic_compare_exchange(i64 32, i8* %p, i8* %e, i8* %d, i32 0, i32 2)
  ret i1 %ok }
define i1 @library_is_lock_free(i8* %p) { %ok = call i1 @__atomic_is_lock_free(i64 32, i8* %p)
  ret i1 %ok }
