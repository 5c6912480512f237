/* sigchld.c — a program that ignores SIGCHLD (tests/cli/collector-onthefly.sh):
 * its children are reaped by the kernel, but the on-the-fly analyser's exit
 * status must still reach the runtime. */
#include <signal.h>
#include <stdio.h>

int main(void)
{
    signal(SIGCHLD, SIG_IGN);
    puts("sigchld: ignored");
    return 0;
}
