/* forkwork.c — a traced process whose child of fork does traced work
 * (tests/cli/collector-fork.sh). The parent's work is the same whatever the
 * child does: a worker thread that runs across the fork (stores and seq_cst
 * atomic adds), and main's stores before the fork and loads after it. The
 * child, by argv[1]:
 *   none      exits at once (the reference: no traced work);
 *   work      more than 64 K records (buffers fill), atomics on the worker's
 *             counter, a mutex, malloc and free, a thread of its own, then
 *             prints its sum;
 *   exec      executes sh, which prints a line;
 *   exectrace executes this program again as "alone" under the trace name
 *             argv[2] (a traced run of its own);
 *   alone     (no fork) stores and prints a line.
 * The child exits with status 5, the parent prints it. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int data[4096], wdata[4096], cdata[4096];
static atomic_long counter;
static pthread_mutex_t child_mu = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
    (void)arg;
    for (int r = 0; r < 4; r++)
        for (int i = 0; i < 4096; i++) {
            wdata[i] += i;
            atomic_fetch_add(&counter, 1);
        }
    return NULL;
}

static void *child_thread(void *arg)
{
    for (int i = 0; i < 4096; i++)
        cdata[i] = i;
    return arg;
}

static void child(char **argv)
{
    const char *mode = argv[1];
    if (!strcmp(mode, "work")) {
        long sum = 0;
        for (int r = 0; r < 20; r++)
            for (int i = 0; i < 4096; i++) {
                cdata[i] += data[i];
                sum += cdata[i];
            }
        atomic_fetch_add(&counter, 1);
        pthread_mutex_lock(&child_mu);
        int *p = malloc(64 * sizeof *p);
        for (int i = 0; i < 64 && p; i++)
            p[i] = i;
        free(p);
        pthread_mutex_unlock(&child_mu);
        pthread_t t;
        if (pthread_create(&t, NULL, child_thread, NULL) == 0)
            pthread_join(t, NULL);
        printf("child: sum %ld\n", sum);
    } else if (!strcmp(mode, "exec")) {
        execl("/bin/sh", "sh", "-c", "echo child: sh; exit 5", (char *)NULL);
        _exit(127);
    } else if (!strcmp(mode, "exectrace")) {
        setenv("TRACE_FILE_NAME", argv[2], 1);
        execl("/proc/self/exe", argv[0], "alone", (char *)NULL);
        _exit(127);
    }
    exit(5);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 1;
    if (!strcmp(argv[1], "alone")) {
        for (int i = 0; i < 4096; i++)
            cdata[i] = i;
        printf("alone: stored\n");
        return 5;
    }
    for (int i = 0; i < 4096; i++)
        data[i] = i;
    pthread_t w;
    if (pthread_create(&w, NULL, worker, NULL) != 0)
        return 1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0)
        child(argv);
    int st;
    waitpid(pid, &st, 0);
    pthread_join(w, NULL);
    long sum = 0;
    for (int i = 0; i < 4096; i++)
        sum += data[i] + wdata[i];
    printf("parent: child exit %d, sum %ld, counter %ld\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1, sum,
           (long)atomic_load(&counter));
    return 0;
}
