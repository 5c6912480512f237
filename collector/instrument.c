/* instrument.c — smait-instrument: adds SMAIT trace calls to LLVM bitcode,
 * through the LLVM-C API (docs/collector.md).
 *
 *   smait-instrument [--level=1|2|3] IN.bc OUT.bc
 *
 * Level 2: a call of the runtime before every load, store and atomic (one
 * record per piece: exact size, fixed/floating/vector register type) and for
 * every llvm.memcpy/memmove/memset. Level 3 adds procedure starts, procedure
 * calls and taken branches over a synthetic code layout: every function is
 * laid out block after block, 4 bytes per recorded access, per call and per
 * terminator, so ciat's instruction-stream reconstruction (SPEC §4) walks
 * exactly the recorded instructions. Level 1 leaves the code alone (the
 * runtime's pthread wrappers still write call records). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

typedef struct inst {
    LLVMModuleRef m;
    LLVMContextRef c;
    LLVMTargetDataRef td;
    LLVMBuilderRef b;
    LLVMTypeRef i1, i8, i32, i64, p8, vd;
    LLVMTypeRef t_mem, t_call, t_br, t_xfer;     /* function types */
    LLVMValueRef f_mem, f_call, f_enter, f_ret, f_br, f_xfer;
    LLVMValueRef desc;                           /* the module descriptor, as i8* */
    int level;
    const char *in;
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
    LLVMValueRef ptr;
    unsigned xfer;              /* K_XFER: 0 memcpy, 1 memmove, 2 memset */
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

static access classify(inst *s, LLVMValueRef I)
{
    access a = { K_NONE, 0, 0, 0, NULL, 0 };
    LLVMTypeRef t = NULL;
    switch (LLVMGetInstructionOpcode(I)) {
    case LLVMLoad: a.acc = 0; a.ptr = LLVMGetOperand(I, 0); t = LLVMTypeOf(I); break;
    case LLVMStore: a.acc = 1; a.ptr = LLVMGetOperand(I, 1); t = LLVMTypeOf(LLVMGetOperand(I, 0)); break;
    case LLVMAtomicRMW: a.acc = 2; a.ptr = LLVMGetOperand(I, 0); t = LLVMTypeOf(LLVMGetOperand(I, 1)); break;
    case LLVMAtomicCmpXchg: a.acc = 2; a.ptr = LLVMGetOperand(I, 0); t = LLVMTypeOf(LLVMGetOperand(I, 1)); break;
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
        if (s->level >= 3)
            a.kind = K_CALL;
        return a;
    }
    default:
        return a;
    }
    if (s->level < 2)
        return a;
    LLVMTypeRef pt = LLVMTypeOf(a.ptr);
    if (LLVMGetTypeKind(pt) != LLVMPointerTypeKind || LLVMGetPointerAddressSpace(pt) != 0)
        return a;               /* other address spaces: not plain memory */
    if (LLVMGetTypeKind(t) == LLVMScalableVectorTypeKind)
        return a;
    a.kind = K_MEM;
    a.reg = reg_type(t);
    a.bytes = LLVMStoreSizeOfType(s->td, t);
    return a;
}

/* The next piece of an access of `left` bytes: one record up to 8 bytes (any
 * size 0..8 has a size code), vectors also 16/32/64 (SPEC §2.2), else split. */
static unsigned piece(uint64_t left, unsigned reg)
{
    if (left <= 8)
        return (unsigned)left;
    if (reg == 2)
        return left >= 64 ? 64 : left >= 32 ? 32 : left >= 16 ? 16 : 8;
    return 8;
}

static unsigned size_code(unsigned bytes) { return bytes <= 8 ? bytes : bytes == 16 ? 9 : bytes == 32 ? 10 : 11; }

/* Instruction slots (4 bytes each) the instruction takes in the layout. */
static unsigned slots(inst *s, LLVMValueRef I)
{
    access a = classify(s, I);
    if (a.kind == K_MEM) {
        unsigned n = 0;
        for (uint64_t off = 0; off < a.bytes; off += piece(a.bytes - off, a.reg))
            n++;
        return n;
    }
    return a.kind == K_NONE ? 0 : 1;
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
        unsigned k = piece(a->bytes - off, a->reg);
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

/* Taken-branch call before a terminator; rel(b) = 0 for the layout-next block. */
static void record_terminator(inst *s, LLVMValueRef T, uint32_t src, const bbmap *bm,
                              LLVMBasicBlockRef next)
{
#define REL(bb) ((bb) == next ? 0u : bb_get(bm, (bb)))
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

/* Lay out function f from module offset `at`; instrument it when doit. Returns
 * the offset after it. */
static uint32_t do_function(inst *s, LLVMValueRef f, uint32_t at, bool doit)
{
    unsigned nbb = LLVMCountBasicBlocks(f);
    bbmap bm = { calloc(2 * nbb + 1, sizeof *bm.k), calloc(2 * nbb + 1, sizeof *bm.v), 2 * nbb + 1 };
    if (!bm.k || !bm.v)
        die(s->in, "out of memory");
    uint32_t pc = at;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
        bb_put(&bm, bb, pc);
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I))
            pc += 4 * slots(s, I);
        pc += 4;                /* the terminator */
    }
    uint32_t end = pc;
    if (!doit)
        goto out;
    if (s->level >= 3) {
        LLVMValueRef first = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f));
        LLVMPositionBuilderBefore(s->b, first);
        LLVMValueRef args[] = { s->desc, c32(s, at) };
        call(s, s->t_call, s->f_enter, args, 2);
    }
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
        pc = bb_get(&bm, bb);
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I)) {
            if (I == term)
                break;
            access a = classify(s, I);
            if (a.kind == K_NONE)
                continue;
            LLVMPositionBuilderBefore(s->b, I);
            if (a.kind == K_MEM) {
                record_access(s, &a);
                pc += 4 * slots(s, I);
            } else if (a.kind == K_XFER) {
                record_xfer(s, I, a.xfer, s->level >= 3 ? pc + 4 : 0);
                pc += 4;
            } else {
                LLVMValueRef args[] = { s->desc, c32(s, pc + 4) };
                call(s, s->t_call, s->f_call, args, 2);
                pc += 4;
            }
        }
        if (term && s->level >= 3) {
            LLVMPositionBuilderBefore(s->b, term);
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
    LLVMTypeRef dfields[] = { s.i32, s.i32, s.i32, s.i32, LLVMPointerType(s.i32, 0),
                              LLVMPointerType(s.p8, 0), s.p8 };
    LLVMTypeRef dt = LLVMStructTypeInContext(s.c, dfields, 7, 0);
    LLVMValueRef dvals[] = { c32(&s, 0), c32(&s, size), c32(&s, nf), c32(&s, 0),
                             LLVMConstBitCast(g_offs, LLVMPointerType(s.i32, 0)),
                             LLVMConstBitCast(g_names, LLVMPointerType(s.p8, 0)),
                             const_string(&s, srcname ? srcname : "?", "__smait_modname") };
    LLVMValueRef desc = LLVMAddGlobal(s.m, dt, "__smait_module_desc");
    LLVMSetInitializer(desc, LLVMConstNamedStruct(dt, dvals, 7));
    LLVMSetLinkage(desc, LLVMInternalLinkage);
    s.desc = LLVMConstBitCast(desc, s.p8);

    s.f_mem = declare(&s, "__smait_mem", s.t_mem);
    s.f_call = declare(&s, "__smait_call", s.t_call);
    s.f_enter = declare(&s, "__smait_enter", s.t_call);
    s.f_ret = declare(&s, "__smait_ret", s.t_call);
    s.f_br = declare(&s, "__smait_br", s.t_br);
    s.f_xfer = declare(&s, "__smait_xfer", s.t_xfer);

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
    free(fs), free(names), free(offs), free(at), free(srcname);
    LLVMDisposeBuilder(s.b);
    LLVMDisposeTargetData(s.td);
    LLVMDisposeModule(s.m);
    LLVMContextDispose(s.c);
    return 0;
}
