/* linelog.c — for collector-lines.sh: compiled by the system's compiler
 * (not instrumented) and linked into a program built by smait-cc with
 * -Wl,--wrap=__smait_mem,--wrap=__smait_atomic_end,--wrap=__smait_relaxed_end.
 * Every access record the instrumented code asks the runtime for
 * (__smait_mem, and the access of an atomic, __smait_atomic_end and
 * __smait_relaxed_end) is also logged, in the calling
 * thread's file $LINELOG_DIR/TID.log, as
 *
 *     KIND SIZE ADDRESS CALL
 *
 * KIND SIZE as smait dump names the record (load, store, atomic; bytes),
 * ADDRESS the 64-bit address before folding, CALL the return address of the
 * call that asked for it, relative to the start of the executable: the
 * binary's line table (addr2line on CALL - 1 plus the executable's start)
 * gives the source line the compiler put on that call, which smait-instrument
 * gives the debug location of the instruction it records. Each call asks
 * for exactly one record, in program order, so a thread's log and its
 * trace's access records correspond one to one. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

void __real___smait_mem(uint32_t f1, const void *addr);
void __real___smait_atomic_end(const void *addr, uint32_t f1, uint32_t mode);
void __real___smait_relaxed_end(const void *addr, uint32_t f1, uint32_t mode);
extern char __executable_start[];

static _Thread_local int log_fd = -1;

static void log_access(uint32_t f1, const void *addr, const void *ret)
{
    static const char *const kinds[] = { "load", "store", "atomic", "?" };
    static const unsigned sizes[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 32, 64, 0, 0, 0, 0 };
    if (log_fd < 0) {
        const char *dir = getenv("LINELOG_DIR");
        char path[4096];
        snprintf(path, sizeof path, "%s/%ld.log", dir ? dir : ".", (long)syscall(SYS_gettid));
        log_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
        if (log_fd < 0) {
            perror(path);
            _exit(99);
        }
    }
    char line[128];
    int n = snprintf(line, sizeof line, "%s %u 0x%lx 0x%lx\n", kinds[f1 & 3], sizes[f1 >> 4 & 15],
                     (unsigned long)(uintptr_t)addr, (unsigned long)((const char *)ret - __executable_start));
    if (write(log_fd, line, (size_t)n) != n)
        _exit(99);
}

/* The runtime's atomic end calls make their access record through
 * __smait_mem, which the link wraps too: the record is the atomic's, logged
 * at the end call's site. */
static _Thread_local const void *atomic_call;

void __wrap___smait_mem(uint32_t f1, const void *addr)
{
    log_access(f1, addr, atomic_call ? atomic_call : __builtin_return_address(0));
    __real___smait_mem(f1, addr);
}

void __wrap___smait_atomic_end(const void *addr, uint32_t f1, uint32_t mode)
{
    atomic_call = __builtin_return_address(0);
    __real___smait_atomic_end(addr, f1, mode);
    atomic_call = NULL;
}

/* The relaxed end call writes its access record itself (mode bit 16: none,
 * level 1). */
void __wrap___smait_relaxed_end(const void *addr, uint32_t f1, uint32_t mode)
{
    if (!(mode & 16))
        log_access(f1, addr, __builtin_return_address(0));
    __real___smait_relaxed_end(addr, f1, mode);
}
