/* rt_exec.c — the same data addresses in every run of a deterministic
 * program: before main, the runtime executes the program again with address
 * space randomisation off, and with the environment padded so that the
 * initial stack pointer is at the same place whatever the size of the
 * arguments and the environment.
 *
 * Why the padding: the kernel puts the argument and environment strings at
 * the top of the stack, the stack pointer below them, so main's locals move
 * by 16 bytes whenever the strings' total length crosses a multiple of 16 —
 * a run with TRACE_FILE_NAME=again (2 bytes more than =toy), another working
 * directory or a longer PATH would give other stack addresses.
 *
 * How: a variable SMAIT_STACK_PAD=<n>xxx… is added (n = how many times the
 * runtime has executed the program) whose length puts the initial stack
 * pointer (the address of argc, just below argv) at the top of the stack
 * minus ROOM. Its length is exact once the program runs with randomisation
 * off and the padding present (a change of 16·k bytes of padding moves the
 * stack pointer by 16·k): so at most three executions; then the variable is
 * removed from the environment (not from the stack) before main, so the
 * program and its children do not see it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/personality.h>
#include <unistd.h>

#include "rt.h"

#define PAD_NAME "SMAIT_STACK_PAD"
enum { ROOM_STEP = 64 << 10, MAX_EXECS = 3, PAD_FIXED = sizeof PAD_NAME + 1 + sizeof(char *) };

static void warn(const char *what)
{
    if (!getenv("SMAIT_QUIET"))
        fprintf(stderr, "smait: warning: %s\n", what);
}

/* The top of the stack: the program's file name (AT_EXECFN) is the highest
 * string, just below the top's last 8 bytes. */
static uintptr_t stack_top(void)
{
    const char *fn = (const char *)getauxval(AT_EXECFN);
    if (!fn)
        return 0;
    return ((uintptr_t)fn + strlen(fn) + 1 + sizeof(char *) + 4095) & ~(uintptr_t)4095;
}

/* Run the program again with environment envp plus a padding of len bytes
 * (len >= 1) carrying the execution count n. Returns only on failure. */
static void again(char **argv, char **envp, size_t len, int n)
{
    size_t envc = 0;
    while (envp[envc])
        envc++;
    char **env = malloc((envc + 2) * sizeof *env);
    char *pad = malloc(sizeof PAD_NAME + len + 1);
    if (!env || !pad)
        return;
    size_t k = 0;
    for (size_t i = 0; i < envc; i++)
        if (strncmp(envp[i], PAD_NAME "=", sizeof PAD_NAME) != 0)
            env[k++] = envp[i];
    memcpy(pad, PAD_NAME "=", sizeof PAD_NAME);
    memset(pad + sizeof PAD_NAME, 'x', len);
    pad[sizeof PAD_NAME] = (char)('0' + n);
    pad[sizeof PAD_NAME + len] = 0;
    env[k++] = pad;
    env[k] = NULL;
    execve("/proc/self/exe", argv, env);
    free(env);
    free(pad);
}

void rt_exec_fixed(char **argv, char **envp)
{
    if (getenv("SMAIT_KEEP_ASLR") || !argv || !argv[0] || !envp)
        return;
    int p = personality(0xffffffff);
    bool off = p != -1 && (p & ADDR_NO_RANDOMIZE);
    const char *padv = getenv(PAD_NAME);
    int n = padv && *padv >= '1' && *padv <= '9' ? *padv - '0' : 0;
    size_t len = padv ? strlen(padv) : 0;
    uintptr_t sp = (uintptr_t)argv - sizeof(char *), top = stack_top();
    if (!top || top <= sp) {            /* not the layout we know: ASLR off only */
        if (!off && n == 0)
            again(argv, envp, 1, MAX_EXECS);
        else if (off)
            unsetenv(PAD_NAME);
        if (!off)
            warn("cannot turn address randomisation off: data addresses will differ between runs");
        return;
    }
    /* room: 64 KiB, or a multiple when the arguments and environment need more */
    size_t used = top - sp - (padv ? len + PAD_FIXED : 0);
    size_t room = (used + 256 + ROOM_STEP - 1) / ROOM_STEP * ROOM_STEP;
    uintptr_t want = top - room;
    if (off && sp == want) {
        unsetenv(PAD_NAME);
        return;
    }
    if (n >= MAX_EXECS) {
        unsetenv(PAD_NAME);
        if (off)
            warn("cannot fix the initial stack position: stack addresses may differ between runs");
        else
            warn("cannot turn address randomisation off: data addresses will differ between runs");
        return;
    }
    /* With randomisation off and the padding there, the correction is exact
     * (sp and want are 16-byte aligned); else a guess the next run corrects. */
    intptr_t next = off && padv ? (intptr_t)len + (intptr_t)(sp - want)
                                : (intptr_t)room - (intptr_t)used - (intptr_t)PAD_FIXED;
    if (next < 1)
        next = 1;
    if (off || personality((unsigned long)p | ADDR_NO_RANDOMIZE) != -1)
        again(argv, envp, (size_t)next, n + 1);
    unsetenv(PAD_NAME);
    warn("cannot turn address randomisation off: data addresses will differ between runs");
}
