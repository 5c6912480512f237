/* rt.h — internals of the SMAIT collector runtime (docs/collector.md).
 *
 * Instrumented code appends entries to the buffer of its thread's trace slot
 * (rt_record.c) without locks; a full buffer, thread exit and program exit
 * flush it: addresses are folded to 32 bits (rt_fold.c) and the SMAIT records
 * go to the slot's sink (rt_sink.c). Threads map onto slots and regions in
 * rt_thread.c; the environment and program exit are rt_main.c. */
#ifndef SMAIT_RT_H
#define SMAIT_RT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../formats/smait.h"

/* One buffered simple record. fold = 1: v is a 64-bit data address to fold
 * at flush time (memory records, lock and barrier addresses); else v < 2^32. */
typedef struct rt_ent {
    uint32_t f1, fold;
    uint64_t v;
} rt_ent;

/* RT_FOLD_CACHE: pages a thread's flush remembers folded (rt_fold): a
 * kernel walking a few arrays at once, or down a column of a matrix, finds
 * its pages there and not in the process's table. */
enum { RT_BUF_ENTS = 1 << 16, RT_STACK = 256, RT_FOLD_CACHE = 256 };

/* Where a slot's records go: records arrive per thread, folded, in trace
 * order. */
typedef struct rt_sink rt_sink;
struct rt_sink {
    bool wants_records;     /* false: records are dropped unfolded (suppressed) */
    int (*write)(rt_sink *s, const smait_raw *r, size_t n);   /* 0 or errno */
    int (*close)(rt_sink *s);
    struct smait_delta *delta;  /* the sink takes delta-coded records (formats/SMAIT.md
                                 * §11.1): rt_flush codes them as it folds them, in
                                 * this state; NULL: as they are */
};
rt_sink *rt_sink_open(int type, const char *path, int *err);

enum { RT_TYPE_NORMAL, RT_TYPE_COMPRESSED, RT_TYPE_SUPPRESSED };

typedef struct rt_fold_entry { uint64_t page64; uint32_t page32; } rt_fold_entry;

/* One trace file (thread slot). Slot 0 is the main thread; a worker takes
 * the lowest slot not used yet in the current region (rt_thread.c). */
typedef struct rt_slot {
    rt_ent *cur, *lim, *end, *buf;      /* hot: lim = end, or buf when detail is off */
    uint32_t stack[RT_STACK];           /* return addresses of instrumented calls */
    uint32_t site[RT_STACK];            /* per frame: its call under way (site + 4), or 0 */
    unsigned depth;
    uint32_t pending;                   /* call site + 4 of the last call not yet entered, or 0 */
    bool detail_on;
    int slot;
    rt_sink *sink;
    uint64_t records, dropped;          /* simple records written / dropped (detail off) */
    uint64_t unmodelled[SMAIT_UM_COUNT];    /* rt_unmodelled: written before end_trace */
    uint32_t phases;                    /* spawn and join records written: a new phase
                                         * orders all before it (rt_atomic.c's fences) */
    /* the folding's page cache, only touched by the flushing thread:
     * direct-mapped by the page's low bits (page32 0: empty) */
    rt_fold_entry fold_cache[RT_FOLD_CACHE];
    /* thread management (under the slots lock) */
    unsigned done_region;               /* last region with a spawn in this trace */
    unsigned used_region;               /* region of the current worker */
    bool join_pending;                  /* the last region's join is not yet written */
    uint32_t join_time;
    bool running, detached, live, ended;
    uint32_t exit_time;
    /* rt_sched.c: the time the slot's threads ran and waited for a processor */
    int sched_tid;                      /* the kernel's id of the thread being measured */
    bool sched_live, sched_unknown;     /* measuring; the kernel did not tell */
    uint64_t sched_run0, sched_wait0;   /* ns at its start */
    uint64_t sched_run, sched_wait;     /* ns, over the slot's threads so far */
    /* the start of the slot's current thread (no malloc: see rt_thread.c) */
    void *(*start_fn)(void *);
    void *start_arg;
    uint32_t created;
    pthread_t tid;
    char *path;                         /* file being written (renamed at exit) */
} rt_slot;

extern _Thread_local rt_slot *rt_self __attribute__((tls_model("initial-exec")));

/* rt_main.c */
extern int rt_type;
extern atomic_int rt_all_off;           /* smait_marker 3/4 */
extern bool rt_child;                   /* a child of fork: nothing is traced */
uint32_t rt_now_us(void);
void rt_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void rt_init(void);
const char *rt_partial_path(int slot);     /* NULL when suppressed */

/* rt_record.c */
void rt_slow_mem(rt_slot *t, uint32_t f1, uint64_t v, uint32_t fold);
void rt_call(rt_slot *t, unsigned type, uint32_t start, uint32_t end,
             uint64_t arg1, bool fold1, uint32_t arg2);
void rt_call4(rt_slot *t, unsigned type, uint32_t start, uint32_t end,
              uint64_t arg1, bool fold1, uint32_t arg2, uint32_t arg3, uint32_t arg4);
/* The same call record put before the buffered record t->buf[at] (the
 * records from there on move up); false, and nothing written, when the
 * buffer has no room for it. */
bool rt_call4_before(rt_slot *t, size_t at, unsigned type, uint32_t start, uint32_t end,
                     uint64_t arg1, bool fold1, uint32_t arg2, uint32_t arg3, uint32_t arg4);
void rt_flush(rt_slot *t);
void rt_buffer_init(rt_slot *t);

/* rt_sched.c — the conditions the trace is taken under (formats/SMAIT.md
 * §5.2). rt_sched_begin in the thread itself when it starts to run for a
 * slot, rt_sched_end when it stops (from any thread: it reads the kernel's
 * figures of the thread by its id); rt_sched_write the tracing record, before
 * end_trace. */
void rt_sched_begin(rt_slot *t);
void rt_sched_end(rt_slot *t);
void rt_sched_write(rt_slot *t, uint32_t now);

/* rt_sync.c — recorded synchronisation (formats/SMAIT.md §5.1).
 * Every object (by its unfolded address) has a count of its releases so far.
 * A release takes the next number atomically with the operation it records
 * (the caller makes it so: under the object's own lock, or before the
 * operation lets anyone else through); an acquire records the count it saw. */
uint32_t rt_sync_release_seq(uint64_t obj);     /* count += 1; the new count */
uint32_t rt_sync_seq(uint64_t obj);             /* the count now */
/* The records: acquire (0x20) / release (0x21) of obj, with seq and kind
 * (SMAIT_SK_*), start/end times of the call. */
void rt_sync_acquire(rt_slot *t, uint64_t obj, uint32_t seq, unsigned kind,
                     uint32_t start, uint32_t end);
void rt_sync_release(rt_slot *t, uint64_t obj, uint32_t seq, unsigned kind,
                     uint32_t start, uint32_t end);
/* Something that synchronises but is not recorded (SMAIT_UM_*): counted per
 * thread (written as unmodelled records before end_trace by
 * rt_unmodelled_write) and in the run's summary. t may be NULL (an
 * untraced thread): counted in the summary only. */
void rt_unmodelled(rt_slot *t, unsigned what);
void rt_unmodelled_write(rt_slot *t, uint32_t now);
/* One line per cause with a non-zero total, for the summary. */
void rt_unmodelled_summary(FILE *f);

/* rt_atomic.c — atomics that synchronise, and fences (docs/collector.md §3).
 * smait-instrument brackets every acquire, release, acq_rel or seq_cst atomic
 * instruction: __smait_atomic_begin(addr) before it takes the address's lock
 * (striped, by address), __smait_atomic_end(addr, f1, mode) after it writes
 * [acquire] [the access record f1] [release] and lets go, so the release
 * number and the version an acquire saw are taken atomically with the
 * instruction. A relaxed (monotonic) atomic that writes is bracketed by
 * __smait_relaxed_begin(addr), which takes the lock only when the thread has
 * made a release fence and returns RT_AT_LOCKED then, and
 * __smait_relaxed_end(addr, f1, mode | that); a relaxed load makes only the
 * end call (before it). __smait_fence(RT_FENCE_*) follows every fence (not
 * singlethread); the constructor of a module with an acquire fence (or an
 * OpenMP flush) calls __smait_acquire_fences(). __smait_unmodelled(what)
 * counts an ordering it cannot record. The mode's bits: */
enum {
    RT_AT_ACQ_OK = 1,           /* acquire when it succeeded (loads and RMWs always do) */
    RT_AT_ACQ_FAIL = 2,         /* acquire when a cmpxchg failed */
    RT_AT_REL = 4,              /* release when it succeeded */
    RT_AT_OK = 8,               /* it succeeded */
    RT_AT_NO_ACCESS = 16,       /* no access record (level 1) */
    RT_AT_READS = 32,           /* it reads the object (a load, an RMW, a cmpxchg) */
    RT_AT_WRITES = 64,          /* it writes the object when it succeeded (a store, an RMW, a cmpxchg) */
    RT_AT_LOCKED = 128,         /* __smait_relaxed_begin took the lock: a release */
    RT_ACQ_CACHE = 64,          /* per-thread versions already acquired (spin loops) */
    RT_FENCE_ACQ = 1,           /* __smait_fence: acquire, acq_rel, seq_cst */
    RT_FENCE_REL = 2,           /* release, acq_rel, seq_cst */
    RT_FENCE_READS = 64,        /* objects read relaxed between two acquire fences, recorded */
};
void __smait_atomic_begin(const void *addr);
void __smait_atomic_end(const void *addr, uint32_t f1, uint32_t mode);
uint32_t __smait_relaxed_begin(const void *addr);
void __smait_relaxed_end(const void *addr, uint32_t f1, uint32_t mode);
void __smait_fence(uint32_t kind);
void __smait_acquire_fences(void);      /* a module's constructor: it has acquire fences */
void __smait_unmodelled(uint32_t what);
void __smait_mem(uint32_t f1, const void *addr);    /* rt_record.c: one memory record */

/* rt_onthefly.c — TRACE_FILE_TYPE=to_ciat/to_cdat: spill files in a private
 * directory, the analyser run on them at exit. */
bool rt_otf_active(void);
void rt_otf_read_env(const char *type);        /* "to_ciat" or "to_cdat" */
void rt_otf_start(const char *trace_name);
void rt_otf_partial(const char *trace_name, int slot, char *out, size_t n);
void rt_otf_finish(int P, const char *trace_name, uint64_t records, bool quiet);
void rt_otf_abandon(int P, const char *trace_name);    /* remove the spill files, no analysis */

/* rt_exec.c */
void rt_exec_fixed(char **argv, char **envp);

/* rt_fold.c */
void rt_fold_init(void);
void rt_fold_lock(void);
void rt_fold_unlock(void);
enum { RT_PAGE_SHIFT = 12 };
uint32_t rt_fold_slow(rt_slot *t, uint64_t addr);
/* addr folded to 32 bits: from the thread's page cache when it has the
 * page (no lock: the cache is the flushing thread's, and a page's folded
 * place never changes), else through the table (rt_fold_slow, which takes
 * the fold lock). */
static inline uint32_t rt_fold(rt_slot *t, uint64_t addr)
{
    uint64_t page64 = addr >> RT_PAGE_SHIFT;
    const rt_fold_entry *c = &t->fold_cache[page64 & (RT_FOLD_CACHE - 1)];
    if (c->page32 && c->page64 == page64)
        return c->page32 << RT_PAGE_SHIFT | (uint32_t)(addr & ((1u << RT_PAGE_SHIFT) - 1));
    return rt_fold_slow(t, addr);
}
/* The folded page of a page already written (with the fold lock held). */
bool rt_fold_peek(uint64_t page64, uint32_t *page32);
/* The original range [lo, hi) folded (with the fold lock held): piece(ctx,
 * start, end) for each run of its touched pages that is contiguous once
 * folded, in the range's order; a nonzero return stops it (-1). */
int rt_fold_range(uint64_t lo, uint64_t hi, int (*piece)(void *ctx, uint64_t start, uint64_t end), void *ctx);
int rt_fold_write_map(const char *path);       /* 0 or errno */

/* rt_thread.c */
rt_slot *rt_slot_new(int slot);
void rt_threads_finish(void);
int rt_slot_count(void);
rt_slot *rt_slot_get(int i);
void rt_spin_lock(atomic_flag *f);
void rt_spin_unlock(atomic_flag *f);
/* In a child of fork, which has one thread: every spin lock of the runtime
 * let go (a thread of the parent may have held one). */
void rt_locks_after_fork(void);
void rt_atomic_locks_after_fork(void);
void rt_fold_locks_after_fork(void);
void rt_heap_locks_after_fork(void);
void rt_code_locks_after_fork(void);
/* OpenMP teams (rt_omp.c) share the regions and slots of rt_thread.c. */
unsigned rt_team_begin(int n);                 /* a region number, or 0 */
void rt_team_size(unsigned region, int n);
rt_slot *rt_team_enter(int slot, unsigned region);
void rt_team_leave(rt_slot *t, uint32_t now);

/* rt_pthread_sync.c — a one-time initialisation on obj (pthread_once, a
 * C++ guarded static): its end is release 1 of obj; a thread that did not
 * run it acquires that release (once per thread and object). */
void rt_once_release(const void *obj, uint32_t t0);
void rt_once_acquire(rt_slot *t, const void *obj, uint32_t t0);
/* rt_cxx.c — point libstdc++.so's pthread calls at the wrappers, and
 * libomp's pthread_create at rt_omp_pthread_create (start-up). */
void rt_cxx_redirect(void);
/* rt_omp.c — libomp's thread creation: returns once the new thread has its
 * malloc arena. */
int rt_omp_pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg);

/* Module descriptor emitted by smait-instrument (one per translation unit).
 * Version 2 adds the source lines (debug info) and the variables; a module
 * instrumented before (version 0) ends at modname. */
typedef struct rt_line { uint32_t off, line, file; } rt_line;   /* from off on; line 0: none */
typedef struct rt_object {
    const void *addr;
    uint64_t size;
    const char *name, *source;          /* source: "FILE:LINE", or the module's name */
} rt_object;
typedef struct rt_module {
    uint32_t base, size, nfunc, version;
    const uint32_t *offs;               /* function start, module-relative */
    const char *const *names;
    const char *modname;
    uint32_t nlines, nfiles, nobjs, pad;
    const rt_line *lines;               /* sorted by off */
    const char *const *files;
    const rt_object *objs;
} rt_module;
void rt_code_map_write(FILE *f);
void rt_line_map_write(FILE *f);
void rt_object_map_write(FILE *f);      /* with the fold lock held */

/* rt_heap.c — heap blocks by allocation site: the wrappers __smait_malloc,
 * … that smait-instrument calls instead of the allocation functions. */
extern _Thread_local uint32_t rt_alloc_site __attribute__((tls_model("initial-exec")));
void rt_heap_init(void);
void rt_heap_note(uint32_t site, uintptr_t p, uint64_t size);    /* p 0: none */
void rt_heap_map_write(FILE *f);        /* with the fold lock held */

/* Synthetic code: runtime pseudo-procedures, then modules from RT_CODE_BASE. */
enum { RT_CODE_MEMCPY = 0x1000, RT_CODE_MEMMOVE = 0x1010, RT_CODE_MEMSET = 0x1020,
       RT_CODE_BASE = 0x10000, RT_CODE_LIMIT = 0x10000000 };

#endif
