/* forked.c — a process that forks a child that exits normally, then goes on
 * (tests/cli/collector-onthefly.sh, collector-fork.sh): the child is not
 * traced, only the parent ends the traces and runs the analysis. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int data[4096];

int main(void)
{
    for (int i = 0; i < 4096; i++) data[i] = i;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) return 1;
    if (pid == 0) {
        data[0] = 7;
        exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    long sum = 0;
    for (int i = 0; i < 4096; i++) sum += data[i];
    printf("forked: child %d, sum %ld\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1, sum);
    return 0;
}
