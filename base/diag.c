/* diag.c — messages, fatal errors and checked allocation. */
#include "diag.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *tool_name = "dsmtrace";
static diag_trap *trap;

void diag_set_tool(const char *name) { tool_name = name; }
const char *diag_tool(void) { return tool_name; }
void diag_set_trap(diag_trap *t)
{
    trap = t;
    diag_lenient_reset();
}
bool diag_trapped(void) { return trap && trap->fatal; }

/* The trap's message function gets the formatted text instead of stderr. */
static void trap_message(const char *file, uint64_t offset, bool warning, const char *fmt, va_list ap)
{
    char small[1024];
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(small, sizeof small, fmt, aq);
    va_end(aq);
    if (n < 0) n = 0;
    char *text = small;
    if ((size_t)n >= sizeof small) {
        text = malloc((size_t)n + 1);
        if (text) vsnprintf(text, (size_t)n + 1, fmt, ap);
        else text = small;      /* out of memory: the message cut short */
    }
    trap->message(trap, file, offset, warning, text);
    if (text != small) free(text);
}

/* A fatal error ends the process once. cdat simulates machines on several
 * threads, and two of them can fail at once (a full disk under both machines'
 * traces): the first to get here prints its message, runs the cleanup hooks
 * (the unfinished outputs removed) and ends the process; any other waits for
 * that end. The others may still be writing into the outputs, so nothing
 * they use is closed or freed (DIAG_CLEANUP_EXIT: the temporaries are
 * unlinked), the standard streams are flushed, and the process ends with
 * _exit (exit would flush the outputs' streams under their feet).
 * A trap (fuzzing harnesses: one thread, many fatal errors) skips all this. */
static atomic_flag ending = ATOMIC_FLAG_INIT;

static void begin_fatal(void)
{
    if (trap && trap->fatal) return;
    if (atomic_flag_test_and_set(&ending))
        for (;;) pause();
}

/* ---- cleanup hooks ---- */

static diag_cleanup_hook hooks[DIAG_CLEANUP_HOOKS];
static atomic_int nhooks;      /* hooks[0 .. nhooks-1] are complete */
static pthread_mutex_t hooks_lock = PTHREAD_MUTEX_INITIALIZER;

void diag_on_fatal(diag_cleanup_hook hook)
{
    pthread_mutex_lock(&hooks_lock);
    int n = atomic_load(&nhooks);
    bool known = false;
    for (int i = 0; i < n; i++) known |= hooks[i] == hook;
    if (!known) {
        if (n == DIAG_CLEANUP_HOOKS) abort();   /* a programming error: raise DIAG_CLEANUP_HOOKS */
        hooks[n] = hook;
        atomic_store(&nhooks, n + 1);
    }
    pthread_mutex_unlock(&hooks_lock);
}

static void run_hooks(diag_cleanup how)
{
    int n = atomic_load(&nhooks);
    for (int i = 0; i < n; i++) hooks[i](how);
}

/* The end of every fatal path: the trap's fatal function when one is set
 * (it does not come back), else the process's end. */
static noreturn void finish(int status)
{
    if (trap && trap->fatal) {
        run_hooks(DIAG_CLEANUP_UNWIND);
        trap->fatal(trap, status);
    }
    run_hooks(DIAG_CLEANUP_EXIT);
    fflush(stdout);
    fflush(stderr);
    _exit(status);
}

/* "TOOL: [warning: ][FILE: ][OFFSET: ]MESSAGE" on stderr, or to the trap. */
static void vprint(bool warning, const char *file, uint64_t offset, const char *fmt, va_list ap)
{
    if (trap && trap->message) {
        trap_message(file, offset, warning, fmt, ap);
        return;
    }
    fflush(stdout);     /* keep the order when both streams go to one place */
    fprintf(stderr, "%s: %s", tool_name, warning ? "warning: " : "");
    if (file)
        fprintf(stderr, "%s: ", file);
    if (offset != DIAG_NO_OFFSET)
        fprintf(stderr, "%" PRIu64 ": ", offset);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void diag_vmessage(const char *file, uint64_t offset, const char *fmt, va_list ap)
{
    vprint(false, file, offset, fmt, ap);
}

static void vwarn(const char *file, uint64_t offset, const char *fmt, va_list ap)
{
    vprint(true, file, offset, fmt, ap);
}

void diag_warn(const char *file, uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vwarn(file, offset, fmt, ap);
    va_end(ap);
}

/* ---- --lenient warnings: capped per kind, counted, summed up ---- */

static _Atomic uint64_t lenient_counts[DIAG_LENIENT_KINDS];

/* What one of each kind is, for the note and the summary: "N <plural>". */
static const char *const lenient_what[DIAG_LENIENT_KINDS][2] = {
    [DIAG_LENIENT_BAD_RECORD] = { "bad record skipped", "bad records skipped" },
    [DIAG_LENIENT_TRUNCATED] = { "truncated final record dropped", "truncated final records dropped" },
    [DIAG_LENIENT_STREAM] = { "broken compressed stream ended early", "broken compressed streams ended early" },
    [DIAG_LENIENT_CUT] = { "cut trace read to its last record", "cut traces read to their last record" },
    [DIAG_LENIENT_CALLS] = { "call trace not paired to its end", "call traces not paired to their end" },
    [DIAG_LENIENT_BAD_UNLOCK] = { "bad unlock ignored", "bad unlocks ignored" },
    [DIAG_LENIENT_DUP_RELEASE] = { "release replayed twice ignored", "releases replayed twice ignored" },
    [DIAG_LENIENT_DEADLOCK] = { "deadlock released", "deadlocks released" },
};

void diag_lenient_reset(void)
{
    for (int k = 0; k < DIAG_LENIENT_KINDS; k++)
        atomic_store(&lenient_counts[k], 0);
}

void diag_lenient(diag_lenient_kind kind, const char *file, uint64_t offset, const char *fmt, ...)
{
    uint64_t n = atomic_fetch_add(&lenient_counts[kind], 1);
    if (n < DIAG_LENIENT_SHOWN) {
        va_list ap;
        va_start(ap, fmt);
        vwarn(file, offset, fmt, ap);
        va_end(ap);
    } else if (n == DIAG_LENIENT_SHOWN) {
        diag_warn(NULL, DIAG_NO_OFFSET, "--lenient: more %s than the %d shown: the rest are only counted",
                  lenient_what[kind][1], DIAG_LENIENT_SHOWN);
    }
}

uint64_t diag_lenient_count(diag_lenient_kind kind)
{
    return atomic_load(&lenient_counts[kind]);
}

void diag_lenient_summary(void)
{
    char line[1024];
    size_t len = 0;
    for (int k = 0; k < DIAG_LENIENT_KINDS; k++) {
        uint64_t n = atomic_load(&lenient_counts[k]);
        if (!n) continue;
        int w = snprintf(line + len, sizeof line - len, "%s%" PRIu64 " %s", len ? ", " : "", n,
                         lenient_what[k][n != 1]);
        if (w > 0 && (size_t)w < sizeof line - len) len += (size_t)w;
        if (n > DIAG_LENIENT_SHOWN) {
            w = snprintf(line + len, sizeof line - len, " (%d shown)", DIAG_LENIENT_SHOWN);
            if (w > 0 && (size_t)w < sizeof line - len) len += (size_t)w;
        }
    }
    if (!len) return;
    if (trap && trap->message) {
        char text[1100];
        snprintf(text, sizeof text, "--lenient: %s", line);
        trap->message(trap, NULL, DIAG_NO_OFFSET, true, text);
        return;
    }
    fflush(stdout);
    fprintf(stderr, "%s: --lenient: %s\n", tool_name, line);
}

noreturn void diag_fatal(int status, const char *file, uint64_t offset, const char *fmt, ...)
{
    begin_fatal();
    va_list ap;
    va_start(ap, fmt);
    diag_vmessage(file, offset, fmt, ap);
    va_end(ap);
    finish(status);
}

noreturn void diag_data_error(const char *file, uint64_t offset, const char *fmt, ...)
{
    begin_fatal();
    va_list ap;
    va_start(ap, fmt);
    diag_vmessage(file, offset, fmt, ap);
    va_end(ap);
    finish(EXIT_DATA);
}

static int usage_status = EXIT_USAGE;

void diag_set_usage_status(int status) { usage_status = status; }

noreturn void diag_usage_error(const char *fmt, ...)
{
    begin_fatal();
    va_list ap;
    va_start(ap, fmt);
    diag_vmessage(NULL, DIAG_NO_OFFSET, fmt, ap);
    va_end(ap);
    if (!trap || !trap->message)
        fprintf(stderr, "%s: try '%s --help'\n", tool_name, tool_name);
    finish(usage_status);
}

static noreturn void out_of_memory(size_t n)
{
    diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "out of memory (allocating %zu bytes)", n);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) out_of_memory(n);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) out_of_memory(n * size);
    return p;
}

void *xcalloc_lines(size_t n, size_t size)
{
    if (size && n > (SIZE_MAX - 63) / size) out_of_memory(SIZE_MAX);
    size_t bytes = (n * size + 63) & ~(size_t)63;
    if (!bytes) bytes = 64;
    void *p = aligned_alloc(64, bytes);
    if (!p) out_of_memory(bytes);
    return memset(p, 0, bytes);
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) out_of_memory(n);
    return q;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

size_t xgrow(void **p, size_t cap, size_t need, size_t elem)
{
    if (need <= cap)
        return cap;
    size_t ncap = cap ? cap : 16;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2 / elem) out_of_memory(SIZE_MAX);
        ncap *= 2;
    }
    *p = xrealloc(*p, ncap * elem);
    return ncap;
}
