/* diag.c — messages, fatal errors and checked allocation. */
#include "diag.h"
#include "out_file.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *tool_name = "dsmtrace";
static diag_trap *trap;

void diag_set_tool(const char *name) { tool_name = name; }
const char *diag_tool(void) { return tool_name; }
void diag_set_trap(diag_trap *t) { trap = t; }
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
 * traces): the first to get here prints its message, removes the unfinished
 * outputs and ends the process; any other waits for that end. The others may
 * still be writing into the outputs, so nothing they use is closed or freed:
 * the temporaries are unlinked, the standard streams flushed, and the process
 * ends with _exit (exit would flush the outputs' streams under their feet).
 * A trap (fuzzing harnesses: one thread, many fatal errors) skips all this. */
static atomic_flag ending = ATOMIC_FLAG_INIT;

static void begin_fatal(void)
{
    if (trap && trap->fatal) return;
    if (atomic_flag_test_and_set(&ending))
        for (;;) pause();
}

/* The end of every fatal path: the trap's fatal function when one is set
 * (it does not come back), else the process's end. */
static noreturn void finish(int status)
{
    if (trap && trap->fatal) {
        out_file_abort_all();
        trap->fatal(trap, status);
    }
    out_file_unlink_all();
    fflush(stdout);
    fflush(stderr);
    _exit(status);
}

void diag_vmessage(const char *file, uint64_t offset, const char *fmt, va_list ap)
{
    if (trap && trap->message) {
        trap_message(file, offset, false, fmt, ap);
        return;
    }
    fflush(stdout);
    fprintf(stderr, "%s: ", tool_name);
    if (file)
        fprintf(stderr, "%s: ", file);
    if (offset != DIAG_NO_OFFSET)
        fprintf(stderr, "%" PRIu64 ": ", offset);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void diag_warn(const char *file, uint64_t offset, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (trap && trap->message) {
        trap_message(file, offset, true, fmt, ap);
        va_end(ap);
        return;
    }
    fflush(stdout);     /* keep the order when both streams go to one place */
    fprintf(stderr, "%s: warning: ", tool_name);
    if (file)
        fprintf(stderr, "%s: ", file);
    if (offset != DIAG_NO_OFFSET)
        fprintf(stderr, "%" PRIu64 ": ", offset);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
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

noreturn void diag_usage_error(const char *fmt, ...)
{
    begin_fatal();
    va_list ap;
    va_start(ap, fmt);
    diag_vmessage(NULL, DIAG_NO_OFFSET, fmt, ap);
    va_end(ap);
    if (!trap || !trap->message)
        fprintf(stderr, "%s: try '%s --help'\n", tool_name, tool_name);
    finish(EXIT_USAGE);
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
