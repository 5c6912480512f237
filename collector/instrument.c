/* instrument.c — smait-instrument: adds SMAIT trace calls to LLVM bitcode,
 * through the LLVM-C API (docs/collector.md).
 *
 *   smait-instrument [--level=1|2|3] IN.bc OUT.bc
 *
 * Level 2: a call of the runtime before every load, store and atomic (one
 * record per piece the machine accesses: exact size, fixed/floating/vector
 * register type; vectors cut to the target's vector width) and for every
 * llvm.memcpy/memmove/memset. Level 3 adds procedure starts, procedure
 * calls and taken branches over a synthetic code layout: every function is
 * laid out block after block, 4 bytes per recorded access, per call and per
 * terminator, so ciat's instruction-stream reconstruction (docs/scheduler.md §2) walks
 * exactly the recorded instructions. A slot no record would walk over before
 * the next access (a call of code that is not instrumented, an invoke's way
 * on, a branch falling through to a block that begins with an access) gets
 * a branch of its own, so every access is fetched at its own slot, whose
 * source line is its instruction's (docs/collector.md §5). At every level, atomics that
 * synchronise (acquire, release, seq_cst) are bracketed by runtime calls that
 * record their release/acquire (rt_atomic.c), relaxed atomics call the
 * runtime so that it can number them after a release fence and acquire what
 * they read at an acquire fence, and every fence calls it; level 1 adds
 * nothing else (the runtime's pthread wrappers still write call records).
 * At every level, calls of the allocation functions go to the
 * runtime's wrappers with their site's code address (heap lines of the
 * map), and the module's descriptor carries the source lines of the layout
 * (debug info) and the module's variables (line and object lines;
 * docs/collector.md §6.1). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>

#include "rt/rt.h"              /* the runtime's entry points: RT_AT_* modes, SMAIT_UM_* */

typedef struct inst {
    LLVMModuleRef m;
    LLVMContextRef c;
    LLVMTargetDataRef td;
    LLVMBuilderRef b;
    LLVMTypeRef i1, i8, i32, i64, p8, vd;
    LLVMTypeRef t_mem, t_call, t_br, t_xfer, t_abegin, t_aend, t_um, t_rbegin;    /* function types */
    LLVMValueRef f_mem, f_call, f_called, f_enter, f_ret, f_br, f_xfer, f_abegin, f_aend, f_um;
    LLVMValueRef f_rbegin, f_rend, f_fence;
    LLVMValueRef desc;                           /* the module descriptor, as i8* */
    LLVMValueRef f_site;                         /* __smait_alloc_site */
    LLVMTypeRef t_site;
    /* source lines of the layout (modules with debug info): runs of slots
     * from off on with one (line, file); line 0 = no line */
    struct { uint32_t off, line, file; } *lines;
    size_t nlines, cap_lines;
    char **files;
    size_t nfiles;
    int level;
    bool acq_fences;                             /* an acquire fence or an OpenMP flush: the ctor says so */
    const char *in;
    const char *triple;                          /* the module's target triple */
    unsigned vec_width;                          /* of the function being laid out: vector_rule */
    bool split32;
} inst;

/* Block start addresses of one function (pointer -> offset, open addressing). */
typedef struct bbmap { LLVMBasicBlockRef *k; uint32_t *v; size_t cap; } bbmap;

static void die(const char *file, const char *msg)
{
    fprintf(stderr, "smait-instrument: %s: %s\n", file, msg);
    exit(2);
}

static size_t bb_hash(LLVMBasicBlockRef b, size_t cap) { return ((uintptr_t)b >> 4) * 0x9E3779B97F4A7C15ull % cap; }

static void bb_put(bbmap *m, LLVMBasicBlockRef b, uint32_t v)
{
    size_t i = bb_hash(b, m->cap);
    while (m->k[i] && m->k[i] != b)
        i = (i + 1) % m->cap;
    m->k[i] = b;
    m->v[i] = v;
}

static uint32_t bb_get(const bbmap *m, LLVMBasicBlockRef b)
{
    size_t i = bb_hash(b, m->cap);
    while (m->k[i] && m->k[i] != b)
        i = (i + 1) % m->cap;
    return m->k[i] ? m->v[i] : 0;
}

/* ---- what an instruction records -------------------------------------------- */

enum { K_NONE, K_MEM, K_CALL, K_XFER };

typedef struct access {
    int kind;
    unsigned acc, reg;          /* K_MEM: SMAIT access kind and register type */
    uint64_t bytes;
    unsigned align;             /* K_MEM: the IR alignment (bytes; 0 = not given) */
    bool atomic;                /* an atomic instruction: one record, never split */
    LLVMValueRef ptr;
    unsigned xfer;              /* K_XFER: 0 memcpy, 1 memmove, 2 memset */
    unsigned sync;              /* RT_AT_* bits: bracketed by the atomic calls (any level) */
    unsigned relaxed;           /* RT_AT_READS/WRITES of a relaxed atomic: the relaxed calls (any level) */
    unsigned fence;             /* RT_FENCE_* of a fence: __smait_fence after it (any level) */
    unsigned um;                /* SMAIT_UM_* counted at run time before it, or 0 */
} access;

static unsigned reg_type(LLVMTypeRef t)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMHalfTypeKind: case LLVMBFloatTypeKind: case LLVMFloatTypeKind:
    case LLVMDoubleTypeKind: case LLVMX86_FP80TypeKind: case LLVMFP128TypeKind:
    case LLVMPPC_FP128TypeKind:
        return 1;
    case LLVMVectorTypeKind:
        return 2;
    default:
        return 0;
    }
}

static const char *callee_name(LLVMValueRef call)
{
    LLVMValueRef f = LLVMGetCalledValue(call);
    if (!f || !LLVMIsAFunction(f))
        return NULL;
    size_t len;
    return LLVMGetValueName2(f, &len);
}

/* ---- the target's vector accesses -------------------------------------------- */

static const char *fn_attr(LLVMValueRef f, const char *name, unsigned *len)
{
    LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, name,
                                                       (unsigned)strlen(name));
    *len = 0;
    return a ? LLVMGetStringAttributeValue(a, len) : NULL;
}

/* Whether the comma-separated list s (len bytes) holds the word w exactly. */
static bool has_word(const char *s, unsigned len, const char *w)
{
    size_t n = strlen(w);
    for (unsigned i = 0; s && i + n <= len; i++)
        if ((i == 0 || s[i - 1] == ',') && !memcmp(s + i, w, n) && (i + n == len || s[i + n] == ','))
            return true;
    return false;
}

static bool attr_is(LLVMValueRef f, const char *name, const char *const *values)
{
    unsigned len;
    const char *v = fn_attr(f, name, &len);
    for (; v && *values; values++)
        if (strlen(*values) == len && !memcmp(v, *values, len))
            return true;
    return false;
}

static unsigned attr_uint(LLVMValueRef f, const char *name, unsigned dflt)
{
    unsigned len;
    const char *v = fn_attr(f, name, &len);
    if (!v || len == 0 || len > 9)
        return dflt;
    unsigned n = 0;
    for (unsigned i = 0; i < len; i++) {
        if (v[i] < '0' || v[i] > '9')
            return dflt;
        n = n * 10 + (unsigned)(v[i] - '0');
    }
    return n;
}

/* The widest vector access the code generator makes for f, and whether it
 * splits a 32-byte access not aligned to 32 into two 16-byte ones: the rules
 * of LLVM 14's x86 back end (docs/collector.md §3). An AVX-512 machine whose
 * tuning prefers 256-bit vectors (the Skylake-SP line and x86-64-v4) keeps
 * 64-byte vectors in pairs of 32-byte registers unless the function asks for
 * more. Other targets: 16 bytes. */
static void vector_rule(inst *s, LLVMValueRef f)
{
    static const char *const prefer256[] = {
        "skx", "skylake-avx512", "cascadelake", "cooperlake", "cannonlake", "icelake-client",
        "icelake-server", "tigerlake", "sapphirerapids", "rocketlake", "x86-64-v4", NULL };
    static const char *const slow_unaligned32[] = {
        "sandybridge", "corei7-avx", "ivybridge", "core-avx-i", NULL };
    s->vec_width = 16;
    s->split32 = false;
    bool x86 = !strncmp(s->triple, "x86_64", 6) || (s->triple[0] == 'i' && !strncmp(s->triple + 2, "86", 2));
    if (!x86)
        return;
    unsigned len;
    const char *feat = fn_attr(f, "target-features", &len);
    unsigned tlen;
    const char *tune_attr = LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "tune-cpu", 8)
                                ? "tune-cpu" : "target-cpu";
    (void)fn_attr(f, tune_attr, &tlen);
    if (has_word(feat, len, "+avx512f")) {
        unsigned prefer = attr_uint(f, "prefer-vector-width",
                                    attr_is(f, tune_attr, prefer256) ? 256 : UINT32_MAX);
        unsigned required = attr_uint(f, "min-legal-vector-width", UINT32_MAX);
        s->vec_width = !has_word(feat, len, "+avx512vl") || prefer >= 512 || required > 256 ? 64 : 32;
    } else if (has_word(feat, len, "+avx")) {
        s->vec_width = 32;
    } else if (!has_word(feat, len, "+sse") && !has_word(feat, len, "+sse2") &&
               strncmp(s->triple, "x86_64", 6)) {
        s->vec_width = 8;       /* 32-bit x86 without SSE: no vector registers */
    }
    s->split32 = s->vec_width >= 32 &&
                 (attr_is(f, tune_attr, slow_unaligned32) || has_word(feat, len, "+slow-unaligned-mem-32"));
}

/* The synchronisation an atomic instruction needs recorded (RT_AT_* bits),
 * or a cause to count (*um) when its ordering is not one the runtime
 * records. A cmpxchg releases only when it succeeded (RT_AT_REL with the
 * outcome), and acquires by its success or its failure ordering. Every
 * atomic says whether it reads and writes its object (RT_AT_READS,
 * RT_AT_WRITES: after a release fence its writes are releases, and an
 * acquire fence acquires what it read); a relaxed (monotonic) one has only
 * those, in a->relaxed. */
static bool acquires(LLVMAtomicOrdering o)
{
    return o == LLVMAtomicOrderingAcquire || o == LLVMAtomicOrderingAcquireRelease ||
           o == LLVMAtomicOrderingSequentiallyConsistent;
}

static bool releases(LLVMAtomicOrdering o)
{
    return o == LLVMAtomicOrderingRelease || o == LLVMAtomicOrderingAcquireRelease ||
           o == LLVMAtomicOrderingSequentiallyConsistent;
}

static bool known_ordering(LLVMAtomicOrdering o)
{
    return o == LLVMAtomicOrderingNotAtomic || o == LLVMAtomicOrderingUnordered ||
           o == LLVMAtomicOrderingMonotonic || acquires(o) || releases(o);
}

/* syncscope("singlethread"): it orders against signal handlers of its own
 * thread only, which no other thread's record could depend on. The C API of
 * LLVM 14 answers this for atomicrmw and cmpxchg only: loads, stores and
 * fences are read from their text. */
static bool single_thread(LLVMValueRef I)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(I);
    if (op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg)
        return LLVMIsAtomicSingleThread(I);
    char *text = LLVMPrintValueToString(I);
    bool st = strstr(text, "syncscope(\"singlethread\")") != NULL;
    LLVMDisposeMessage(text);
    return st;
}

/* A fence's ordering. LLVMGetOrdering of LLVM 14 does not know fences: it
 * is read from the text. */
static LLVMAtomicOrdering fence_ordering(LLVMValueRef I)
{
    char *text = LLVMPrintValueToString(I);
    LLVMAtomicOrdering o = strstr(text, " seq_cst") ? LLVMAtomicOrderingSequentiallyConsistent
                           : strstr(text, " acq_rel") ? LLVMAtomicOrderingAcquireRelease
                           : strstr(text, " acquire") ? LLVMAtomicOrderingAcquire
                           : strstr(text, " release") ? LLVMAtomicOrderingRelease
                                                      : LLVMAtomicOrderingNotAtomic;
    LLVMDisposeMessage(text);
    return o;
}

static void atomic_sync(LLVMValueRef I, access *a)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(I);
    LLVMAtomicOrdering ok, fail;
    if (op == LLVMAtomicCmpXchg) {
        ok = LLVMGetCmpXchgSuccessOrdering(I);
        fail = LLVMGetCmpXchgFailureOrdering(I);
    } else {
        ok = fail = LLVMGetOrdering(I);     /* load, store, atomicrmw */
    }
    if (ok == LLVMAtomicOrderingNotAtomic)
        return;
    a->atomic = true;
    bool seq_cst = ok == LLVMAtomicOrderingSequentiallyConsistent;
    if (!known_ordering(ok) || !known_ordering(fail) ||
        (op == LLVMLoad && releases(ok) && !seq_cst) || (op == LLVMStore && acquires(ok) && !seq_cst)) {
        a->um = SMAIT_UM_ORDERING;
        return;
    }
    if (ok == LLVMAtomicOrderingUnordered || single_thread(I))
        return;         /* no synchronisation: a plain record */
    unsigned m = 0;
    if (acquires(ok) && op != LLVMStore)
        m |= RT_AT_ACQ_OK;
    if (op == LLVMAtomicCmpXchg && acquires(fail))
        m |= RT_AT_ACQ_FAIL;
    if (releases(ok) && op != LLVMLoad)
        m |= RT_AT_REL;
    unsigned rw = (op != LLVMStore ? RT_AT_READS : 0) | (op != LLVMLoad ? RT_AT_WRITES : 0);
    if (m)
        a->sync = m | rw;
    else
        a->relaxed = rw;
}

/* A call of the atomic library (__atomic_load, __atomic_fetch_add_16, …:
 * what clang emits for atomics too large for the machine): its accesses are
 * not seen; an ordering other than relaxed (its last argument, the last two
 * for a compare-exchange) is counted as not recorded. */
static unsigned library_atomic(LLVMValueRef I, const char *n)
{
    if (strncmp(n, "__atomic_", 9) || !strcmp(n, "__atomic_is_lock_free"))
        return 0;
    unsigned nargs = (unsigned)LLVMGetNumArgOperands(I);
    unsigned k = strstr(n, "compare_exchange") ? 2 : 1;
    for (unsigned i = 0; i < k && i < nargs; i++) {
        LLVMValueRef o = LLVMGetOperand(I, nargs - 1 - i);
        if (!LLVMIsAConstantInt(o) || LLVMConstIntGetZExtValue(o) != 0)
            return SMAIT_UM_ORDERING;
    }
    return 0;
}

static access classify(inst *s, LLVMValueRef I)
{
    access a = { .kind = K_NONE };
    LLVMTypeRef t = NULL;
    switch (LLVMGetInstructionOpcode(I)) {
    case LLVMLoad: a.acc = 0; a.ptr = LLVMGetOperand(I, 0); t = LLVMTypeOf(I); break;
    case LLVMStore: a.acc = 1; a.ptr = LLVMGetOperand(I, 1); t = LLVMTypeOf(LLVMGetOperand(I, 0)); break;
    case LLVMAtomicRMW: a.acc = 2; a.ptr = LLVMGetOperand(I, 0); t = LLVMTypeOf(LLVMGetOperand(I, 1)); break;
    case LLVMAtomicCmpXchg: a.acc = 2; a.ptr = LLVMGetOperand(I, 0); t = LLVMTypeOf(LLVMGetOperand(I, 1)); break;
    case LLVMFence:
        /* Its release makes the thread's later writes releases; its
         * acquire acquires what the thread read before it (rt_atomic.c).
         * Fences cannot be relaxed. */
        if (!single_thread(I)) {
            LLVMAtomicOrdering o = fence_ordering(I);
            a.fence = (acquires(o) ? RT_FENCE_ACQ : 0) | (releases(o) ? RT_FENCE_REL : 0);
            s->acq_fences |= acquires(o);
        }
        return a;
    case LLVMCall: {
        LLVMValueRef f = LLVMGetCalledValue(I);
        if (LLVMIsAInlineAsm(f))
            return a;
        const char *n = callee_name(I);
        if (n && !strncmp(n, "llvm.", 5)) {
            if (s->level >= 2 && (!strncmp(n, "llvm.memcpy", 11) || !strncmp(n, "llvm.memmove", 12) ||
                                  !strncmp(n, "llvm.memset", 11))) {
                a.kind = K_XFER;
                a.xfer = !strncmp(n, "llvm.memcpy", 11) ? 0 : !strncmp(n, "llvm.memmove", 12) ? 1 : 2;
            }
            return a;
        }
        if (n && !strncmp(n, "__smait_", 8))
            return a;
        if (n && !strcmp(n, "__kmpc_flush"))
            s->acq_fences = true;       /* a fence both ways (rt_omp.c) */
        if (n)
            a.um = library_atomic(I, n);
        if (s->level >= 3)
            a.kind = K_CALL;
        return a;
    }
    default:
        return a;
    }
    atomic_sync(I, &a);
    LLVMTypeRef pt = LLVMTypeOf(a.ptr);
    if (LLVMGetTypeKind(pt) != LLVMPointerTypeKind || LLVMGetPointerAddressSpace(pt) != 0 ||
        LLVMGetTypeKind(t) == LLVMScalableVectorTypeKind) {
        /* other address spaces: not plain memory; scalable vectors: no size */
        if (a.sync)
            a.um = SMAIT_UM_ORDERING;
        a.sync = a.relaxed = 0;
        return a;
    }
    a.bytes = LLVMStoreSizeOfType(s->td, t);
    if ((a.sync || a.relaxed) && a.bytes > 64) {
        if (a.sync)
            a.um = SMAIT_UM_ORDERING;   /* no single record for it (only hand-written IR) */
        a.sync = a.relaxed = 0;
    }
    if (s->level < 2)
        return a;
    a.kind = K_MEM;
    a.reg = reg_type(t);
    a.align = LLVMGetAlignment(I);
    return a;
}

/* The size of the piece of access a at offset off: the accesses the machine
 * makes. Up to 8 bytes: one record (any size 0..8 has a size code). An
 * atomic: one record (it is one indivisible access; LLVM's atomics have
 * power-of-two sizes, and those above 64 bytes are not bracketed). A vector:
 * the largest of 64/32/16/8 bytes that fits what is left and the target's
 * vector width, a 32-byte piece whose alignment is below 32 as two 16-byte
 * ones where the target splits those (vector_rule). Anything else: 8 bytes
 * at a time, the tail (< 8) as one piece. Pieces go up in address. */
static unsigned piece(const inst *s, const access *a, uint64_t off)
{
    uint64_t left = a->bytes - off;
    if (left <= 8)
        return (unsigned)left;
    if (a->atomic && off == 0 && (left == 16 || left == 32 || left == 64))
        return (unsigned)left;
    if (a->reg != 2)
        return 8;
    unsigned p = 64;
    while (p > left || p > s->vec_width)
        p /= 2;
    if (p < 8)
        p = 8;
    if (p == 32 && s->split32) {
        uint64_t align = a->align ? a->align : 1;
        if (off && (off & -off) < align)
            align = off & -off;
        if (align < 32)
            p = 16;
    }
    return p;
}

static unsigned size_code(unsigned bytes) { return bytes <= 8 ? bytes : bytes == 16 ? 9 : bytes == 32 ? 10 : 11; }

/* Instruction slots (4 bytes each) the instruction takes in the layout. */
static unsigned slots(inst *s, LLVMValueRef I)
{
    access a = classify(s, I);
    if (a.kind == K_MEM) {
        unsigned n = 0;
        for (uint64_t off = 0; off < a.bytes; off += piece(s, &a, off))
            n++;
        return n;
    }
    return a.kind == K_NONE ? 0 : 1;
}

/* ---- source lines of the layout (debug info) ------------------------------------ */

/* A new run from off on when (line, file) differs from the last run's. */
static void note_line(inst *s, uint32_t off, uint32_t line, uint32_t file)
{
    while (s->nlines && s->lines[s->nlines - 1].off == off)
        s->nlines--;            /* a run of no slot: replaced */
    if (s->nlines ? s->lines[s->nlines - 1].line == line && s->lines[s->nlines - 1].file == file
                  : line == 0)
        return;
    if (s->nlines == s->cap_lines) {
        s->cap_lines = s->cap_lines ? 2 * s->cap_lines : 256;
        s->lines = realloc(s->lines, s->cap_lines * sizeof *s->lines);
        if (!s->lines)
            die(s->in, "out of memory");
    }
    s->lines[s->nlines].off = off;
    s->lines[s->nlines].line = line;
    s->lines[s->nlines].file = file;
    s->nlines++;
}

/* The file of a debug location: its name, under its directory when the name
 * is relative; an index into s->files. */
static uint32_t file_index(inst *s, const char *name, unsigned nlen, const char *dir, unsigned dlen)
{
    bool join = nlen && name[0] != '/' && dlen;
    char *path = malloc((size_t)nlen + dlen + 2);
    if (!path)
        die(s->in, "out of memory");
    if (join)
        snprintf(path, (size_t)nlen + dlen + 2, "%.*s/%.*s", (int)dlen, dir, (int)nlen, name);
    else
        snprintf(path, (size_t)nlen + 1, "%.*s", (int)nlen, name);
    for (size_t i = s->nfiles; i-- > 0;)
        if (!strcmp(s->files[i], path)) {
            free(path);
            return (uint32_t)i;
        }
    char **f = realloc(s->files, (s->nfiles + 1) * sizeof *f);
    if (!f)
        die(s->in, "out of memory");
    s->files = f;
    s->files[s->nfiles] = path;
    return (uint32_t)s->nfiles++;
}

/* The source line of the slots of instruction I from off on (none: a run of
 * line 0, which the map leaves out). Modules without debug info have none. */
static void note_line_of(inst *s, uint32_t off, LLVMValueRef I)
{
    static const char *last_name, *last_dir;
    static uint32_t last_file;
    unsigned line = I ? LLVMGetDebugLocLine(I) : 0, nlen = 0, dlen = 0;
    if (line == 0) {
        note_line(s, off, 0, 0);
        return;
    }
    const char *name = LLVMGetDebugLocFilename(I, &nlen), *dir = LLVMGetDebugLocDirectory(I, &dlen);
    if (!name)
        name = "", nlen = 0;
    if (!dir)
        dir = "", dlen = 0;
    if (!s->nfiles || name != last_name || dir != last_dir) {
        last_file = file_index(s, name, nlen, dir, dlen);
        last_name = name, last_dir = dir;
    }
    note_line(s, off, line, last_file);
}

static bool skip_function(LLVMValueRef f)
{
    if (LLVMIsDeclaration(f) || LLVMGetLinkage(f) == LLVMAvailableExternallyLinkage)
        return true;
    size_t len;
    const char *n = LLVMGetValueName2(f, &len);
    if (!strncmp(n, "__smait_", 8))
        return true;
    unsigned naked = LLVMGetEnumAttributeKindForName("naked", 5);
    return LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, naked) != NULL;
}

/* ---- inserting the calls ------------------------------------------------------- */

static LLVMValueRef c32(inst *s, uint32_t v) { return LLVMConstInt(s->i32, v, 0); }

static LLVMValueRef declare(inst *s, const char *name, LLVMTypeRef t)
{
    LLVMValueRef f = LLVMGetNamedFunction(s->m, name);
    return f ? f : LLVMAddFunction(s->m, name, t);
}

static void call(inst *s, LLVMTypeRef t, LLVMValueRef f, LLVMValueRef *args, unsigned n)
{
    LLVMBuildCall2(s->b, t, f, args, n, "");
}

static void record_access(inst *s, const access *a)
{
    LLVMValueRef p = LLVMBuildPointerCast(s->b, a->ptr, s->p8, "");
    for (uint64_t off = 0; off < a->bytes;) {
        unsigned k = piece(s, a, off);
        LLVMValueRef q = p;
        if (off) {
            LLVMValueRef idx = LLVMConstInt(s->i64, off, 0);
            q = LLVMBuildGEP2(s->b, s->i8, p, &idx, 1, "");
        }
        uint32_t f1 = a->reg << 8 | size_code(k) << 4 | a->acc;
        LLVMValueRef args[] = { c32(s, f1), q };
        call(s, s->t_mem, s->f_mem, args, 2);
        off += k;
    }
}

/* The access record of a bracketed atomic (one piece; 0 at level 1: none). */
static uint32_t atomic_f1(const access *a)
{
    return a->reg << 8 | size_code((unsigned)a->bytes) << 4 | a->acc;
}

/* An atomic that synchronises: __smait_atomic_begin(p) before it (the
 * runtime takes the address's lock, so that no other bracketed atomic on it
 * comes between), __smait_atomic_end(p, f1, mode) after it, which writes
 * [acquire] access [release] and lets go of the lock. A cmpxchg passes its
 * outcome in the mode (RT_AT_OK). The access record is written by the end
 * call, so it keeps its place between the two. */
static void bracket_atomic(inst *s, LLVMValueRef I, const access *a, LLVMValueRef after)
{
    LLVMPositionBuilderBefore(s->b, I);
    LLVMValueRef p = LLVMBuildPointerCast(s->b, a->ptr, s->p8, "");
    call(s, s->t_abegin, s->f_abegin, &p, 1);
    LLVMPositionBuilderBefore(s->b, after);
    LLVMSetCurrentDebugLocation2(s->b, LLVMInstructionGetDebugLoc(I));  /* I's, not after's */
    unsigned mode = a->sync | (a->kind == K_MEM ? 0 : RT_AT_NO_ACCESS);
    LLVMValueRef m;
    if (LLVMGetInstructionOpcode(I) == LLVMAtomicCmpXchg) {
        LLVMValueRef ok = LLVMBuildExtractValue(s->b, I, 1, "");
        m = LLVMBuildSelect(s->b, ok, c32(s, mode | RT_AT_OK), c32(s, mode), "");
    } else {
        m = c32(s, mode | RT_AT_OK);
    }
    LLVMValueRef args[] = { p, c32(s, a->kind == K_MEM ? atomic_f1(a) : 0), m };
    call(s, s->t_aend, s->f_aend, args, 3);
}

/* A relaxed atomic: one call, __smait_relaxed_end(p, f1, mode), which
 * writes the access record, before a load; around one that writes,
 * __smait_relaxed_begin(p) before it (the runtime takes the address's lock
 * when the thread has made a release fence, and says so in what it
 * returns) and the end call after it, with that in its mode and a
 * cmpxchg's outcome. */
static void relaxed_atomic(inst *s, LLVMValueRef I, const access *a, LLVMValueRef after)
{
    LLVMPositionBuilderBefore(s->b, I);
    LLVMValueRef p = LLVMBuildPointerCast(s->b, a->ptr, s->p8, "");
    unsigned mode = a->relaxed | RT_AT_OK | (a->kind == K_MEM ? 0 : RT_AT_NO_ACCESS);
    LLVMValueRef f1 = c32(s, a->kind == K_MEM ? atomic_f1(a) : 0);
    if (!(a->relaxed & RT_AT_WRITES)) {
        LLVMValueRef args[] = { p, f1, c32(s, mode) };
        call(s, s->t_aend, s->f_rend, args, 3);
        return;
    }
    LLVMValueRef got = LLVMBuildCall2(s->b, s->t_rbegin, s->f_rbegin, &p, 1, "");
    LLVMPositionBuilderBefore(s->b, after);
    LLVMSetCurrentDebugLocation2(s->b, LLVMInstructionGetDebugLoc(I));  /* I's, not after's */
    LLVMValueRef m;
    if (LLVMGetInstructionOpcode(I) == LLVMAtomicCmpXchg) {
        LLVMValueRef ok = LLVMBuildExtractValue(s->b, I, 1, "");
        m = LLVMBuildSelect(s->b, ok, c32(s, mode), c32(s, mode & ~(unsigned)RT_AT_OK), "");
    } else {
        m = c32(s, mode);
    }
    LLVMValueRef args[] = { p, f1, LLVMBuildOr(s->b, got, m, "") };
    call(s, s->t_aend, s->f_rend, args, 3);
}

static void record_xfer(inst *s, LLVMValueRef I, unsigned kind, uint32_t next)
{
    LLVMValueRef dst = LLVMBuildPointerCast(s->b, LLVMGetOperand(I, 0), s->p8, "");
    LLVMValueRef src = kind == 2 ? LLVMConstNull(s->p8)
                                 : LLVMBuildPointerCast(s->b, LLVMGetOperand(I, 1), s->p8, "");
    LLVMValueRef len = LLVMBuildZExtOrBitCast(s->b, LLVMGetOperand(I, 2), s->i64, "");
    LLVMValueRef args[] = { s->desc, c32(s, next), c32(s, kind), dst, src, len };
    call(s, s->t_xfer, s->f_xfer, args, 6);
}

static void branch(inst *s, uint32_t src, LLVMValueRef tgt)
{
    LLVMValueRef args[] = { s->desc, c32(s, src), tgt };
    call(s, s->t_br, s->f_br, args, 3);
}

/* Whether the first instruction of bb's layout is an access: then a
 * terminator that falls through into it has to be walked over before the
 * access, or the access would be fetched at the terminator's slot (an
 * instrumented call, a memcpy or a taken branch walks over the slots before
 * it by itself). */
static bool starts_with_access(inst *s, LLVMBasicBlockRef bb)
{
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I && I != term; I = LLVMGetNextInstruction(I))
        if (slots(s, I))
            return classify(s, I).kind == K_MEM;
    return false;
}

/* Taken-branch call before a terminator; rel(b) = 0 for the layout-next
 * block (falls through: no record), unless that block starts with an
 * access: then the fall-through is a branch to the next slot too, which
 * executes the terminator (docs/collector.md §5). */
static void record_terminator(inst *s, LLVMValueRef T, uint32_t src, const bbmap *bm,
                              LLVMBasicBlockRef next)
{
    bool step = next && starts_with_access(s, next);
#define REL(bb) ((bb) == next && !step ? 0u : bb_get(bm, (bb)))
    switch (LLVMGetInstructionOpcode(T)) {
    case LLVMBr:
        if (!LLVMIsConditional(T)) {
            uint32_t t = REL(LLVMGetSuccessor(T, 0));
            if (t)
                branch(s, src, c32(s, t));
        } else {
            uint32_t t = REL(LLVMGetSuccessor(T, 0)), f = REL(LLVMGetSuccessor(T, 1));
            if (t == f && t == 0)
                break;
            LLVMValueRef v = t == f ? c32(s, t)
                                    : LLVMBuildSelect(s->b, LLVMGetCondition(T), c32(s, t), c32(s, f), "");
            branch(s, src, v);
        }
        break;
    case LLVMSwitch: {
        /* operands: condition, default, then (value, destination) pairs */
        LLVMValueRef cond = LLVMGetOperand(T, 0);
        LLVMValueRef v = c32(s, REL(LLVMValueAsBasicBlock(LLVMGetOperand(T, 1))));
        unsigned n = (unsigned)LLVMGetNumOperands(T);
        for (unsigned i = 2; i + 1 < n; i += 2) {
            LLVMValueRef eq = LLVMBuildICmp(s->b, LLVMIntEQ, cond, LLVMGetOperand(T, i), "");
            LLVMValueRef d = c32(s, REL(LLVMValueAsBasicBlock(LLVMGetOperand(T, i + 1))));
            v = LLVMBuildSelect(s->b, eq, d, v, "");
        }
        branch(s, src, v);
        break;
    }
    case LLVMRet: {
        LLVMValueRef args[] = { s->desc, c32(s, src) };
        call(s, s->t_call, s->f_ret, args, 2);
        break;
    }
    default:
        break;          /* unreachable, indirectbr, …: no record */
    }
#undef REL
}

/* An invoke (a C++ call that may throw) at the terminator slot src - 4:
 * __smait_call before it, as for a call, and at the start of its normal
 * destination __smait_called(src, destination): a callee that is not
 * instrumented leaves the invoke's slot unwalked and a callee that is
 * returns to src, the layout-next slot, so the runtime records the way on to
 * the destination. The destination may have other predecessors: the hook
 * gets src through a phi, 0 on their edges (nothing to record). Unwinding
 * into the landing pad is not recorded. */
static void record_invoke(inst *s, LLVMValueRef f, LLVMBasicBlockRef from, LLVMValueRef T, uint32_t src,
                          const bbmap *bm)
{
    LLVMValueRef args[] = { s->desc, c32(s, src) };
    call(s, s->t_call, s->f_call, args, 2);
    LLVMBasicBlockRef n = LLVMGetNormalDest(T);
    bool others = false;
    for (LLVMBasicBlockRef p = LLVMGetFirstBasicBlock(f); p && !others; p = LLVMGetNextBasicBlock(p)) {
        LLVMValueRef pt = LLVMGetBasicBlockTerminator(p);
        for (unsigned i = 0, k = pt ? LLVMGetNumSuccessors(pt) : 0; i < k; i++)
            others |= p != from && LLVMGetSuccessor(pt, i) == n;
    }
    LLVMValueRef first = LLVMGetFirstInstruction(n), ip = first;
    while (ip && LLVMGetInstructionOpcode(ip) == LLVMPHI)
        ip = LLVMGetNextInstruction(ip);
    LLVMValueRef v = c32(s, src);
    if (others) {
        LLVMPositionBuilderBefore(s->b, first);
        v = LLVMBuildPhi(s->b, s->i32, "");
        for (LLVMBasicBlockRef p = LLVMGetFirstBasicBlock(f); p; p = LLVMGetNextBasicBlock(p)) {
            LLVMValueRef pt = LLVMGetBasicBlockTerminator(p);
            for (unsigned i = 0, k = pt ? LLVMGetNumSuccessors(pt) : 0; i < k; i++)
                if (LLVMGetSuccessor(pt, i) == n) {
                    LLVMValueRef in = c32(s, p == from ? src : 0);
                    LLVMAddIncoming(v, &in, &p, 1);
                }
        }
    }
    LLVMPositionBuilderBefore(s->b, ip);
    LLVMSetCurrentDebugLocation2(s->b, LLVMInstructionGetDebugLoc(T));
    LLVMValueRef back[] = { s->desc, v, c32(s, bb_get(bm, n)) };
    call(s, s->t_br, s->f_called, back, 3);
}

/* ---- allocation sites (heap lines of the map) ------------------------------------ */

static const char *const alloc_names[] = {
    "malloc", "calloc", "realloc", "aligned_alloc", "posix_memalign",
    "_Znwm", "_Znam", "_ZnwmRKSt9nothrow_t", "_ZnamRKSt9nothrow_t",
    "_ZnwmSt11align_val_t", "_ZnamSt11align_val_t",
    "_ZnwmSt11align_val_tRKSt9nothrow_t", "_ZnamSt11align_val_tRKSt9nothrow_t", NULL };

/* The allocation function I calls directly (declared, not defined here), or NULL. */
static LLVMValueRef alloc_callee(LLVMValueRef I)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(I);
    if (op != LLVMCall && op != LLVMInvoke)
        return NULL;
    LLVMValueRef f = LLVMGetCalledValue(I);
    if (!f || !LLVMIsAFunction(f) || !LLVMIsDeclaration(f))
        return NULL;
    size_t len;
    const char *n = LLVMGetValueName2(f, &len);
    for (unsigned i = 0; alloc_names[i]; i++)
        if (!strcmp(n, alloc_names[i]))
            return f;
    return NULL;
}

/* The call's site (module-relative code address) is stored for the runtime
 * (__smait_alloc_site), and the call goes to the runtime's wrapper
 * __smait_NAME, of the same type, which records the block. A call marked
 * builtin (C++ new) loses the mark: the wrapper is no builtin. */
static void redirect_alloc(inst *s, LLVMValueRef I, LLVMValueRef f, uint32_t site)
{
    size_t len;
    const char *n = LLVMGetValueName2(f, &len);
    char w[80];
    snprintf(w, sizeof w, "__smait_%s", n);
    LLVMValueRef wf = declare(s, w, LLVMGlobalGetValueType(f));
    LLVMPositionBuilderBefore(s->b, I);
    LLVMValueRef args[] = { s->desc, c32(s, site) };
    call(s, s->t_site, s->f_site, args, 2);
    LLVMSetOperand(I, (unsigned)LLVMGetNumOperands(I) - 1, wf);
    LLVMRemoveCallSiteEnumAttribute(I, LLVMAttributeFunctionIndex,
                                    LLVMGetEnumAttributeKindForName("builtin", 7));
}

/* Lay out function f from module offset `at`; instrument it when doit. Returns
 * the offset after it. */
static uint32_t do_function(inst *s, LLVMValueRef f, uint32_t at, bool doit)
{
    unsigned nbb = LLVMCountBasicBlocks(f);
    bbmap bm = { calloc(2 * nbb + 1, sizeof *bm.k), calloc(2 * nbb + 1, sizeof *bm.v), 2 * nbb + 1 };
    if (!bm.k || !bm.v)
        die(s->in, "out of memory");
    uint32_t pc = at;
    vector_rule(s, f);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
        bb_put(&bm, bb, pc);
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I)) {
            unsigned n = slots(s, I);
            if (n && !doit)
                note_line_of(s, pc, I);
            pc += 4 * n;
        }
        if (!doit)
            note_line_of(s, pc, LLVMGetBasicBlockTerminator(bb));
        pc += 4;                /* the terminator */
    }
    uint32_t end = pc;
    if (!doit) {
        note_line(s, end, 0, 0);        /* the padding to the next function */
        goto out;
    }
    if (s->level >= 3) {
        LLVMValueRef first = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f));
        LLVMPositionBuilderBefore(s->b, first);
        LLVMValueRef args[] = { s->desc, c32(s, at) };
        call(s, s->t_call, s->f_enter, args, 2);
    }
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
        pc = bb_get(&bm, bb);
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        LLVMValueRef next;
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I && I != term; I = next) {
            next = LLVMGetNextInstruction(I);       /* before anything is added after I */
            access a = classify(s, I);
            LLVMValueRef af = alloc_callee(I);
            if (af)
                redirect_alloc(s, I, af, pc);
            if (a.kind == K_NONE && !a.sync && !a.relaxed && !a.fence && !a.um)
                continue;
            LLVMPositionBuilderBefore(s->b, I);
            if (a.um) {
                LLVMValueRef what = c32(s, a.um);
                call(s, s->t_um, s->f_um, &what, 1);
            }
            if (a.fence) {
                /* after it: what the thread read before it is read */
                LLVMPositionBuilderBefore(s->b, next);
                LLVMSetCurrentDebugLocation2(s->b, LLVMInstructionGetDebugLoc(I));
                LLVMValueRef kind = c32(s, a.fence);
                call(s, s->t_um, s->f_fence, &kind, 1);
            } else if (a.sync || a.relaxed) {
                if (a.sync)
                    bracket_atomic(s, I, &a, next);
                else
                    relaxed_atomic(s, I, &a, next);
                if (a.kind == K_MEM)
                    pc += 4 * slots(s, I);
            } else if (a.kind == K_NONE) {
                continue;
            } else if (a.kind == K_MEM) {
                record_access(s, &a);
                pc += 4 * slots(s, I);
            } else if (a.kind == K_XFER) {
                record_xfer(s, I, a.xfer, s->level >= 3 ? pc + 4 : 0);
                pc += 4;
            } else {
                /* __smait_call before the call, __smait_called after it
                 * (with the call's debug location): a callee that is not
                 * instrumented leaves its slot to the second (rt_record.c) */
                LLVMValueRef args[] = { s->desc, c32(s, pc + 4) };
                call(s, s->t_call, s->f_call, args, 2);
                LLVMPositionBuilderBefore(s->b, next);
                LLVMSetCurrentDebugLocation2(s->b, LLVMInstructionGetDebugLoc(I));
                LLVMValueRef back[] = { s->desc, c32(s, pc + 4), c32(s, pc + 4) };
                call(s, s->t_br, s->f_called, back, 3);
                pc += 4;
            }
        }
        LLVMValueRef af = term ? alloc_callee(term) : NULL;      /* an invoke of new */
        if (af)
            redirect_alloc(s, term, af, pc);
        if (term && s->level >= 3) {
            LLVMPositionBuilderBefore(s->b, term);
            if (LLVMGetInstructionOpcode(term) == LLVMInvoke)
                record_invoke(s, f, bb, term, pc + 4, &bm);
            else
                record_terminator(s, term, pc + 4, &bm, LLVMGetNextBasicBlock(bb));
        }
    }
out:
    free(bm.k);
    free(bm.v);
    return end;
}

/* ---- the module descriptor and its constructor --------------------------------- */

static LLVMValueRef const_string(inst *s, const char *str, const char *name)
{
    LLVMValueRef init = LLVMConstStringInContext(s->c, str, (unsigned)strlen(str), 0);
    LLVMValueRef g = LLVMAddGlobal(s->m, LLVMTypeOf(init), name);
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    return LLVMConstBitCast(g, s->p8);
}

static void add_ctor(inst *s, LLVMValueRef desc_global)
{
    LLVMTypeRef vt = LLVMFunctionType(s->vd, NULL, 0, 0);
    LLVMValueRef ctor = LLVMAddFunction(s->m, "__smait_module_ctor", vt);
    LLVMSetLinkage(ctor, LLVMInternalLinkage);
    LLVMPositionBuilderAtEnd(s->b, LLVMAppendBasicBlockInContext(s->c, ctor, "entry"));
    LLVMTypeRef rt = LLVMFunctionType(s->vd, &s->p8, 1, 0);
    LLVMValueRef reg = declare(s, "__smait_register", rt);
    LLVMValueRef arg = LLVMConstBitCast(desc_global, s->p8);
    call(s, rt, reg, &arg, 1);
    if (s->acq_fences) {
        /* the runtime notes relaxed reads for acquire fences only in
         * programs that have one */
        LLVMTypeRef ft = LLVMFunctionType(s->vd, NULL, 0, 0);
        call(s, ft, declare(s, "__smait_acquire_fences", ft), NULL, 0);
    }
    LLVMBuildRetVoid(s->b);

    LLVMTypeRef et_fields[] = { s->i32, LLVMPointerType(vt, 0), s->p8 };
    LLVMTypeRef et = LLVMStructTypeInContext(s->c, et_fields, 3, 0);
    LLVMValueRef mine_f[] = { c32(s, 102), ctor, LLVMConstNull(s->p8) };
    LLVMValueRef mine = LLVMConstNamedStruct(et, mine_f, 3);
    LLVMValueRef old = LLVMGetNamedGlobal(s->m, "llvm.global_ctors");
    unsigned n = 0;
    LLVMValueRef elems[1024];
    if (old) {
        LLVMValueRef init = LLVMGetInitializer(old);
        unsigned k = (unsigned)LLVMGetNumOperands(init);
        if (k >= 1023)
            die(s->in, "too many constructors");
        for (unsigned i = 0; i < k; i++)
            elems[n++] = LLVMGetOperand(init, i);
        if (n)
            et = LLVMTypeOf(elems[0]);
        mine = LLVMConstNamedStruct(et, mine_f, 3);
        LLVMDeleteGlobal(old);
    }
    elems[n++] = mine;
    LLVMValueRef arr = LLVMConstArray(et, elems, n);
    LLVMValueRef g = LLVMAddGlobal(s->m, LLVMTypeOf(arr), "llvm.global_ctors");
    LLVMSetInitializer(g, arr);
    LLVMSetLinkage(g, LLVMAppendingLinkage);
}

/* ---- the module's variables (object lines of the map) ---------------------------- */

/* A global or static variable of the program, defined here, one address for
 * all threads (not string literals, LLVM's own or ours). */
static bool is_variable(LLVMValueRef g)
{
    if (LLVMIsDeclaration(g) || LLVMIsThreadLocal(g))
        return false;
    LLVMLinkage l = LLVMGetLinkage(g);
    if (l == LLVMPrivateLinkage || l == LLVMAppendingLinkage || l == LLVMAvailableExternallyLinkage)
        return false;
    size_t len;
    const char *n = LLVMGetValueName2(g, &len);
    const char *sec = LLVMGetSection(g);
    return len && strncmp(n, "llvm.", 5) && strncmp(n, "__smait_", 8) &&
           !(sec && !strcmp(sec, "llvm.metadata")) && LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == 0;
}

/* The variable's name in its debug info (a function's static: its plain
 * name, not the IR's "function.name"), or NULL. */
static char *debug_name(inst *s, LLVMValueRef g)
{
    size_t n;
    LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(g, &n);
    unsigned dbg = LLVMGetMDKindIDInContext(s->c, "dbg", 3);
    char *name = NULL;
    for (unsigned i = 0; i < n && !name; i++) {
        if (LLVMValueMetadataEntriesGetKind(md, i) != dbg)
            continue;
        LLVMMetadataRef var = LLVMDIGlobalVariableExpressionGetVariable(LLVMValueMetadataEntriesGetMetadata(md, i));
        if (!var)
            continue;
        LLVMValueRef v = LLVMMetadataAsValue(s->c, var);
        unsigned k = LLVMGetMDNodeNumOperands(v);
        LLVMValueRef *ops = k >= 2 ? calloc(k, sizeof *ops) : NULL;
        if (!ops)
            continue;
        LLVMGetMDNodeOperands(v, ops);      /* a DIVariable: scope, name, file, type, … */
        unsigned len = 0;
        const char *str = ops[1] ? LLVMGetMDString(ops[1], &len) : NULL;
        if (str && len)
            name = strndup(str, len);
        free(ops);
    }
    if (md)
        LLVMDisposeValueMetadataEntries(md);
    return name;
}

/* The descriptor's table of variables: { address, size, name, source }, source
 * "FILE:LINE" of the declaration with debug info, else the module's name. */
static LLVMValueRef variables(inst *s, LLVMTypeRef ot, const char *modname, unsigned *count)
{
    unsigned n = 0, cap = 0;
    LLVMValueRef *v = NULL;
    for (LLVMValueRef g = LLVMGetFirstGlobal(s->m); g; g = LLVMGetNextGlobal(g)) {
        if (!is_variable(g))
            continue;
        uint64_t size = LLVMABISizeOfType(s->td, LLVMGlobalGetValueType(g));
        if (size == 0)
            continue;
        char *name = debug_name(s, g);
        size_t len;
        const char *irname = LLVMGetValueName2(g, &len), *dot = strchr(irname, '.');
        if (dot && LLVMGetLinkage(g) == LLVMInternalLinkage) {
            /* clang's "function.name" of a static in a function: the plain name */
            char *fn = strndup(irname, (size_t)(dot - irname));
            if (fn && LLVMGetNamedFunction(s->m, fn))
                irname = dot + 1;
            free(fn);
        }
        unsigned line = LLVMGetDebugLocLine(g), nlen = 0, dlen = 0;
        char *src = NULL;
        if (line) {
            const char *f = LLVMGetDebugLocFilename(g, &nlen), *d = LLVMGetDebugLocDirectory(g, &dlen);
            uint32_t k = file_index(s, f ? f : "", f ? nlen : 0, d ? d : "", d ? dlen : 0);
            size_t cap_src = strlen(s->files[k]) + 16;
            src = malloc(cap_src);
            if (src)
                snprintf(src, cap_src, "%s:%u", s->files[k], line);
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            v = realloc(v, cap * sizeof *v);
            if (!v)
                die(s->in, "out of memory");
        }
        LLVMValueRef f[] = { LLVMConstBitCast(g, s->p8), LLVMConstInt(s->i64, size, 0),
                             const_string(s, name ? name : irname, "__smait_vname"),
                             const_string(s, src ? src : modname, "__smait_vsrc") };
        v[n++] = LLVMConstNamedStruct(ot, f, 4);
        free(name);
        free(src);
    }
    *count = n;
    LLVMValueRef arr = LLVMConstArray(ot, v, n);
    free(v);
    LLVMValueRef g = LLVMAddGlobal(s->m, LLVMTypeOf(arr), "__smait_vars");
    LLVMSetInitializer(g, arr);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    return LLVMConstBitCast(g, LLVMPointerType(ot, 0));
}

static void usage(void)
{
    fprintf(stderr, "usage: smait-instrument [--level=1|2|3] IN.bc OUT.bc\n");
    exit(1);
}

int main(int argc, char **argv)
{
    inst s = { .level = 3 };
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--level=1") || !strcmp(argv[i], "--level=2") || !strcmp(argv[i], "--level=3"))
            s.level = argv[i][8] - '0';
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
            usage();
        else {
            fprintf(stderr, "smait-instrument: unknown option %s\n", argv[i]);
            usage();
        }
    }
    if (argc - i != 2)
        usage();
    s.in = argv[i];
    const char *out = argv[i + 1];

    char *msg = NULL;
    LLVMMemoryBufferRef buf;
    if (LLVMCreateMemoryBufferWithContentsOfFile(s.in, &buf, &msg))
        die(s.in, msg);
    s.c = LLVMContextCreate();
    if (LLVMParseBitcodeInContext2(s.c, buf, &s.m))
        die(s.in, "not an LLVM bitcode file (or from a newer LLVM)");
    LLVMDisposeMemoryBuffer(buf);
    if (LLVMGetNamedGlobal(s.m, "__smait_module_desc"))
        die(s.in, "already instrumented");
    s.td = LLVMCreateTargetData(LLVMGetDataLayoutStr(s.m));
    s.triple = LLVMGetTarget(s.m);
    s.b = LLVMCreateBuilderInContext(s.c);
    s.i1 = LLVMInt1TypeInContext(s.c);
    s.i8 = LLVMInt8TypeInContext(s.c);
    s.i32 = LLVMInt32TypeInContext(s.c);
    s.i64 = LLVMInt64TypeInContext(s.c);
    s.p8 = LLVMPointerType(s.i8, 0);
    s.vd = LLVMVoidTypeInContext(s.c);
    LLVMTypeRef mem_args[] = { s.i32, s.p8 }, call_args[] = { s.p8, s.i32 },
                br_args[] = { s.p8, s.i32, s.i32 }, x_args[] = { s.p8, s.i32, s.i32, s.p8, s.p8, s.i64 };
    s.t_mem = LLVMFunctionType(s.vd, mem_args, 2, 0);
    s.t_call = LLVMFunctionType(s.vd, call_args, 2, 0);
    s.t_br = LLVMFunctionType(s.vd, br_args, 3, 0);
    s.t_xfer = LLVMFunctionType(s.vd, x_args, 6, 0);
    LLVMTypeRef aend_args[] = { s.p8, s.i32, s.i32 };
    s.t_abegin = LLVMFunctionType(s.vd, &s.p8, 1, 0);
    s.t_aend = LLVMFunctionType(s.vd, aend_args, 3, 0);
    s.t_um = LLVMFunctionType(s.vd, &s.i32, 1, 0);
    s.t_rbegin = LLVMFunctionType(s.i32, &s.p8, 1, 0);
    s.t_site = LLVMFunctionType(s.vd, call_args, 2, 0);

    /* Pass 1: layout (before any call is added, so the counts are the code's). */
    unsigned nf = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(s.m); f; f = LLVMGetNextFunction(f))
        nf += !skip_function(f);
    LLVMValueRef *fs = calloc(nf + 1, sizeof *fs), *names = calloc(nf + 1, sizeof *names);
    LLVMValueRef *offs = calloc(nf + 1, sizeof *offs);
    uint32_t *at = calloc(nf + 1, sizeof *at), size = 0;
    if (!fs || !names || !offs || !at)
        die(s.in, "out of memory");
    unsigned k = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(s.m); f; f = LLVMGetNextFunction(f)) {
        if (skip_function(f))
            continue;
        fs[k] = f;
        at[k] = size;
        size = (do_function(&s, f, size, false) + 15) & ~15u;
        k++;
    }

    /* The descriptor (rt_module in collector/rt/rt.h), filled in at start-up. */
    size_t len;
    const char *src = LLVMGetSourceFileName(s.m, &len);
    for (k = 0; k < nf; k++) {
        offs[k] = c32(&s, at[k]);
        size_t nl;
        names[k] = const_string(&s, LLVMGetValueName2(fs[k], &nl), "__smait_fname");
    }
    LLVMValueRef offs_arr = LLVMConstArray(s.i32, offs, nf);
    LLVMValueRef names_arr = LLVMConstArray(s.p8, names, nf);
    LLVMValueRef g_offs = LLVMAddGlobal(s.m, LLVMTypeOf(offs_arr), "__smait_offs");
    LLVMSetInitializer(g_offs, offs_arr);
    LLVMSetLinkage(g_offs, LLVMPrivateLinkage);
    LLVMValueRef g_names = LLVMAddGlobal(s.m, LLVMTypeOf(names_arr), "__smait_names");
    LLVMSetInitializer(g_names, names_arr);
    LLVMSetLinkage(g_names, LLVMPrivateLinkage);
    char *srcname = strndup(src, len);
    const char *modname = srcname ? srcname : "?";
    /* Version 2 (rt_module): the source lines, files and variables follow. */
    LLVMTypeRef ofields[] = { s.p8, s.i64, s.p8, s.p8 };
    LLVMTypeRef ot = LLVMStructTypeInContext(s.c, ofields, 4, 0);
    unsigned nvars;
    LLVMValueRef vars = variables(&s, ot, modname, &nvars);
    LLVMValueRef *lv = calloc(3 * s.nlines + 1, sizeof *lv), *fv = calloc(s.nfiles + 1, sizeof *fv);
    if (!lv || !fv)
        die(s.in, "out of memory");
    for (size_t j = 0; j < s.nlines; j++) {
        lv[3 * j] = c32(&s, s.lines[j].off);
        lv[3 * j + 1] = c32(&s, s.lines[j].line);
        lv[3 * j + 2] = c32(&s, s.lines[j].file);
    }
    for (size_t j = 0; j < s.nfiles; j++)
        fv[j] = const_string(&s, s.files[j], "__smait_file");
    LLVMValueRef lines = LLVMConstNull(LLVMPointerType(s.i32, 0)), files = LLVMConstNull(LLVMPointerType(s.p8, 0));
    if (s.nlines) {
        LLVMValueRef a = LLVMConstArray(s.i32, lv, (unsigned)(3 * s.nlines));
        LLVMValueRef g = LLVMAddGlobal(s.m, LLVMTypeOf(a), "__smait_lines");
        LLVMSetInitializer(g, a);
        LLVMSetLinkage(g, LLVMPrivateLinkage);
        lines = LLVMConstBitCast(g, LLVMPointerType(s.i32, 0));
    }
    if (s.nfiles) {
        LLVMValueRef a = LLVMConstArray(s.p8, fv, (unsigned)s.nfiles);
        LLVMValueRef g = LLVMAddGlobal(s.m, LLVMTypeOf(a), "__smait_files");
        LLVMSetInitializer(g, a);
        LLVMSetLinkage(g, LLVMPrivateLinkage);
        files = LLVMConstBitCast(g, LLVMPointerType(s.p8, 0));
    }
    LLVMTypeRef dfields[] = { s.i32, s.i32, s.i32, s.i32, LLVMPointerType(s.i32, 0),
                              LLVMPointerType(s.p8, 0), s.p8,
                              s.i32, s.i32, s.i32, s.i32, LLVMPointerType(s.i32, 0),
                              LLVMPointerType(s.p8, 0), LLVMPointerType(ot, 0) };
    LLVMTypeRef dt = LLVMStructTypeInContext(s.c, dfields, 14, 0);
    LLVMValueRef dvals[] = { c32(&s, 0), c32(&s, size), c32(&s, nf), c32(&s, 2),
                             LLVMConstBitCast(g_offs, LLVMPointerType(s.i32, 0)),
                             LLVMConstBitCast(g_names, LLVMPointerType(s.p8, 0)),
                             const_string(&s, modname, "__smait_modname"),
                             c32(&s, (uint32_t)s.nlines), c32(&s, (uint32_t)s.nfiles), c32(&s, nvars),
                             c32(&s, 0), lines, files, vars };
    LLVMValueRef desc = LLVMAddGlobal(s.m, dt, "__smait_module_desc");
    LLVMSetInitializer(desc, LLVMConstNamedStruct(dt, dvals, 14));
    LLVMSetLinkage(desc, LLVMInternalLinkage);
    s.desc = LLVMConstBitCast(desc, s.p8);

    s.f_mem = declare(&s, "__smait_mem", s.t_mem);
    s.f_call = declare(&s, "__smait_call", s.t_call);
    s.f_called = declare(&s, "__smait_called", s.t_br);
    s.f_enter = declare(&s, "__smait_enter", s.t_call);
    s.f_ret = declare(&s, "__smait_ret", s.t_call);
    s.f_br = declare(&s, "__smait_br", s.t_br);
    s.f_xfer = declare(&s, "__smait_xfer", s.t_xfer);
    s.f_abegin = declare(&s, "__smait_atomic_begin", s.t_abegin);
    s.f_aend = declare(&s, "__smait_atomic_end", s.t_aend);
    s.f_um = declare(&s, "__smait_unmodelled", s.t_um);
    s.f_rbegin = declare(&s, "__smait_relaxed_begin", s.t_rbegin);
    s.f_rend = declare(&s, "__smait_relaxed_end", s.t_aend);
    s.f_fence = declare(&s, "__smait_fence", s.t_um);
    s.f_site = declare(&s, "__smait_alloc_site", s.t_site);

    /* Pass 2: the same walk, now adding the calls. */
    for (k = 0; k < nf; k++)
        do_function(&s, fs[k], at[k], true);
    add_ctor(&s, desc);

    if (LLVMVerifyModule(s.m, LLVMReturnStatusAction, &msg)) {
        fprintf(stderr, "smait-instrument: %s: internal error, the instrumented module does not verify:\n%s",
                s.in, msg);
        return 3;
    }
    LLVMDisposeMessage(msg);        /* allocated even when the module verifies */
    if (LLVMWriteBitcodeToFile(s.m, out))
        die(out, "cannot write the bitcode");
    free(fs), free(names), free(offs), free(at), free(srcname), free(lv), free(fv), free(s.lines);
    for (size_t j = 0; j < s.nfiles; j++)
        free(s.files[j]);
    free(s.files);
    LLVMDisposeBuilder(s.b);
    LLVMDisposeTargetData(s.td);
    LLVMDisposeModule(s.m);
    LLVMContextDispose(s.c);
    return 0;
}
