/* rt_main.c — start and end of a traced run: TRACE_FILE_NAME and
 * TRACE_FILE_TYPE, the fixed address layout (rt_exec.c), trace 0, and at
 * exit the final names NAME.P.t (P is known only then), the address map and
 * a summary; on the fly (rt_onthefly.c), the analysis instead of the names. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt.h"

_Thread_local rt_slot *rt_self __attribute__((tls_model("initial-exec")));
int rt_type = RT_TYPE_NORMAL;
atomic_int rt_all_off;
bool rt_child;

static pid_t traced_pid;                /* the process whose traces these are */

static const char *trace_name = "trace";
static struct timespec t_start;
static char path_buf[4096];

void rt_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("smait: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    _exit(2);
}

uint32_t rt_now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint32_t)((t.tv_sec - t_start.tv_sec) * 1000000 + (t.tv_nsec - t_start.tv_nsec) / 1000);
}

const char *rt_partial_path(int slot)
{
    if (rt_type == RT_TYPE_SUPPRESSED)
        return NULL;
    if (rt_otf_active())
        rt_otf_partial(trace_name, slot, path_buf, sizeof path_buf);
    else
        snprintf(path_buf, sizeof path_buf, "%s.%d.partial", trace_name, slot);
    return path_buf;
}

static void read_env(void)
{
    const char *n = getenv("TRACE_FILE_NAME");
    if (n) {
        if (!*n)
            rt_fatal("TRACE_FILE_NAME is empty: set it to the trace name (files NAME.P.t)");
        if (strlen(n) > 4000)
            rt_fatal("TRACE_FILE_NAME is longer than 4000 characters");
        trace_name = n;
    }
    const char *ty = getenv("TRACE_FILE_TYPE");
    if (!ty || !strcmp(ty, "normal"))
        rt_type = RT_TYPE_NORMAL;
    else if (!strcmp(ty, "compressed"))
        rt_type = RT_TYPE_COMPRESSED;
    else if (!strcmp(ty, "suppressed"))
        rt_type = RT_TYPE_SUPPRESSED;
    else if (!strcmp(ty, "to_ciat") || !strcmp(ty, "to_cdat"))
        rt_otf_read_env(ty);
    else
        rt_fatal("TRACE_FILE_TYPE=%s: unknown trace type (normal, compressed, suppressed, to_ciat or to_cdat)", ty);
}

static void at_exit(void);

/* In a child of fork (pthread_atfork: fork and the calls made of it, not
 * vfork or a raw clone): the traces, spill files and map are the parent's,
 * so the child records nothing from here on and leaves them alone at its
 * exit; its records before the fork are in the parent's buffers too. The
 * runtime's spin locks may have been held by a thread of the parent that
 * the child does not have. */
static void fork_child(void)
{
    rt_child = true;
    rt_self = NULL;
    rt_locks_after_fork();
}

__attribute__((constructor(101))) static void rt_ctor(int argc, char **argv, char **envp)
{
    (void)argc;
    read_env();
    rt_exec_fixed(argv, envp);
    if (rt_otf_active())
        rt_otf_start(trace_name);
    rt_fold_init();
    rt_heap_init();
    /* The release counts' table is mapped now, in this thread, not at a
     * moment a worker's timing decides (an mmap then could move a thread
     * stack, and the folded addresses with it). */
    rt_sync_seq(0);
    rt_cxx_redirect();
    clock_gettime(CLOCK_MONOTONIC, &t_start);
    rt_self = rt_slot_new(0);
    rt_sched_begin(rt_self);
    traced_pid = getpid();
    if (pthread_atfork(NULL, NULL, fork_child) != 0)
        rt_fatal("pthread_atfork failed");
    atexit(at_exit);
}

static void at_exit(void)
{
    /* A child of fork (or of a clone that ran no fork handlers): the
     * traces are its parent's, which alone ends them. */
    if (rt_child || getpid() != traced_pid)
        return;
    rt_slot *self = rt_self;
    if (!self && rt_slot_count() > 0)
        rt_self = rt_slot_get(0);   /* exit from a thread we do not know: trace 0 ends */
    rt_threads_finish();
    int P = rt_slot_count();
    uint64_t records = 0, dropped = 0;
    for (int i = 0; i < P; i++) {
        rt_slot *t = rt_slot_get(i);
        records += t->records;
        dropped += t->dropped;
        int err = t->sink->close(t->sink);
        if (err) {
            if (rt_otf_active())
                rt_otf_abandon(P, trace_name);
            rt_fatal("%s: cannot write trace: %s", t->path ? t->path : "trace", strerror(err));
        }
    }
    bool quiet = getenv("SMAIT_QUIET") != NULL;
    /* Synchronisation after this (other exit handlers, destructors) is
     * after the end of the traces. */
    rt_self = NULL;
    if (rt_type == RT_TYPE_SUPPRESSED) {
        if (!quiet)
            fprintf(stderr, "smait: traces suppressed: %d thread%s, %llu records\n", P, P == 1 ? "" : "s",
                    (unsigned long long)records);
        rt_unmodelled_summary(stderr);      /* warnings, even when quiet */
        return;
    }
    char final[4200];
    if (rt_otf_active()) {
        snprintf(final, sizeof final, "%s.%d.map", trace_name, P);
        int err = rt_fold_write_map(final);
        if (err) {
            rt_otf_abandon(P, trace_name);
            rt_fatal("%s: cannot write the address map: %s", final, strerror(err));
        }
        rt_unmodelled_summary(stderr);
        rt_otf_finish(P, trace_name, records, quiet);
        return;
    }
    if (!quiet)
        fprintf(stderr, "smait: trace output stored in:\n");
    for (int i = 0; i < P; i++) {
        rt_slot *t = rt_slot_get(i);
        snprintf(final, sizeof final, "%s.%d.%d", trace_name, P, i);
        if (rename(t->path, final) != 0)
            rt_fatal("%s: cannot rename to %s: %s", t->path, final, strerror(errno));
        if (!quiet)
            fprintf(stderr, "        file %s for thread %d\n", final, i);
    }
    snprintf(final, sizeof final, "%s.%d.map", trace_name, P);
    int err = rt_fold_write_map(final);
    if (err)
        rt_fatal("%s: cannot write the address map: %s", final, strerror(err));
    if (!quiet) {
        fprintf(stderr, "        address map %s\n", final);
        fprintf(stderr, "smait: %d thread%s, %llu records", P, P == 1 ? "" : "s", (unsigned long long)records);
        if (dropped)
            fprintf(stderr, " (%llu not written: detailed tracing off)", (unsigned long long)dropped);
        fputc('\n', stderr);
    }
    rt_unmodelled_summary(stderr);          /* warnings, even when quiet */
}

/* smait_marker(cmd, num): a marker call record (type 10); commands 1-4 stop
 * and resume detailed tracing of this thread (1, 2) or of all threads (3, 4;
 * other threads see it at their next call record). */
__attribute__((visibility("default"))) void smait_marker(int cmd, int num)
{
    rt_slot *t = rt_self;
    if (!t)
        return;
    if (cmd == 1 || cmd == 2)
        t->detail_on = cmd == 2;
    if (cmd == 3 || cmd == 4)
        atomic_store(&rt_all_off, cmd == 3);
    uint32_t now = rt_now_us();
    rt_call(t, SMAIT_CT_MARKER, now, now, (uint32_t)cmd, false, (uint32_t)num);
}
