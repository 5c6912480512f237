/* omptasks.c — OpenMP tasks (collector-omp.sh). A region of 3 threads; the
 * thread that runs the single makes:
 *   4 tasks, task k writing out[k] = in[k] + k (in[] was written by thread 0
 *   before the region), a taskwait, then reads out[];
 *   a taskgroup holding a task that writes grp[0] and makes a child task
 *   that writes grp[1]; reads both after the taskgroup;
 *   3 tasks chained by depend(): dep[0] = 1; dep[1] = dep[0] + 1;
 *   dep[2] = dep[1] + 1; an if(0) task with depend(in: dep[2]) that copies
 *   dep[2] to dep[3];
 *   a taskloop of 6 iterations, grainsize 1 (6 tasks), writing loop[i];
 *   reads loop[] after it (clang wraps it in a taskgroup).
 * Which thread runs which task is decided at run time. It prints where its
 * arrays are. */
#include <stdio.h>

int in[4], out[4], grp[2], dep[4], loop[6];

int main(void)
{
    for (int k = 0; k < 4; k++)
        in[k] = 10 * k;
    int sum = 0;
#pragma omp parallel num_threads(3)
#pragma omp single
    {
        for (int k = 0; k < 4; k++) {
#pragma omp task firstprivate(k)
            out[k] = in[k] + k;
        }
#pragma omp taskwait
        for (int k = 0; k < 4; k++)
            sum += out[k];
#pragma omp taskgroup
        {
#pragma omp task
            {
                grp[0] = 1;
#pragma omp task
                grp[1] = 2;
            }
        }
        sum += grp[0] + grp[1];
#pragma omp task depend(out : dep[0])
        dep[0] = 1;
#pragma omp task depend(in : dep[0]) depend(out : dep[1])
        dep[1] = dep[0] + 1;
#pragma omp task depend(in : dep[1]) depend(out : dep[2])
        dep[2] = dep[1] + 1;
#pragma omp task if (0) depend(in : dep[2])
        dep[3] = dep[2];
        sum += dep[3];
#pragma omp taskloop grainsize(1)
        for (int i = 0; i < 6; i++)
            loop[i] = i;
        for (int i = 0; i < 6; i++)
            sum += loop[i];
    }
    printf("in %p\nout %p\ngrp %p\ndep %p\nloop %p\n", (void *)in, (void *)out, (void *)grp, (void *)dep,
           (void *)loop);
    return sum != 66 + 3 + 3 + 15;
}
