/* rt_sched.c — the conditions a trace is taken under (formats/SMAIT.md §5.2):
 * the processors online and those the process may run on, and per trace the
 * time its threads ran and the time they were ready to run but waited for a
 * processor, from the kernel's per-thread schedstat
 * (/proc/self/task/TID/schedstat: ns on a processor, ns waiting in a run
 * queue). A thread the kernel has no figures for makes its trace's times
 * unknown. No heap: rt_sched_begin runs at a thread's start (rt_thread.c). */
#include "rt.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The next decimal number of *s, or false. */
static bool number(const char **s, uint64_t *v)
{
    const char *p = *s;
    while (*p == ' ')
        p++;
    if (*p < '0' || *p > '9')
        return false;
    uint64_t x = 0;
    while (*p >= '0' && *p <= '9')
        x = x * 10 + (uint64_t)(*p++ - '0');
    *s = p;
    *v = x;
    return true;
}

/* The thread's ns on a processor and ns waiting for one, or false. */
static bool read_schedstat(int tid, uint64_t *run, uint64_t *wait)
{
    char path[64], buf[128];
    snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", tid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    const char *p = buf;
    return number(&p, run) && number(&p, wait);
}

void rt_sched_begin(rt_slot *t)
{
    if (t->sched_live)
        return;
    t->sched_tid = (int)syscall(SYS_gettid);
    if (!read_schedstat(t->sched_tid, &t->sched_run0, &t->sched_wait0))
        t->sched_unknown = true;
    t->sched_live = true;
}

void rt_sched_end(rt_slot *t)
{
    if (!t->sched_live)
        return;
    t->sched_live = false;
    uint64_t run, wait;
    if (t->sched_unknown || !read_schedstat(t->sched_tid, &run, &wait) || run < t->sched_run0 ||
        wait < t->sched_wait0) {
        t->sched_unknown = true;
        return;
    }
    t->sched_run += run - t->sched_run0;
    t->sched_wait += wait - t->sched_wait0;
}

static uint32_t us32(uint64_t ns)
{
    uint64_t us = ns / 1000;
    return us < SMAIT_TRACING_UNKNOWN ? (uint32_t)us : SMAIT_TRACING_UNKNOWN - 1;
}

void rt_sched_write(rt_slot *t, uint32_t now)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t set;
    int allowed = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : (int)online;
    uint32_t ran = t->sched_unknown ? SMAIT_TRACING_UNKNOWN : us32(t->sched_run);
    uint32_t waited = t->sched_unknown ? SMAIT_TRACING_UNKNOWN : us32(t->sched_wait);
    rt_call4(t, SMAIT_CT_TRACING, now, now, online > 0 ? (uint64_t)online : 0, false,
             allowed > 0 ? (uint32_t)allowed : 0, ran, waited);
}
