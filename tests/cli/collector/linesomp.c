/* linesomp.c — collector-lines.sh: accesses between calls of the OpenMP
 * runtime (critical sections, locks, barriers, single, tasks run inside a
 * barrier or a taskwait, a dynamic loop, a reduction) and allocation, in a
 * team of three. Which line each access is reported at is checked against
 * the compiler's debug locations, not against this file. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { T = 3, N = 20, M = 12 };

static long counter, total;
static long percpu[T];
static long cells[M];
static omp_lock_t lock;
static int *volatile keep;

static void bump(long *x, long by)
{
    *x += by;
}

int main(void)
{
    omp_init_lock(&lock);
#pragma omp parallel num_threads(T)
    {
        int id = omp_get_thread_num();
        for (int i = 0; i < N; i++) {
#pragma omp critical
            counter++;
            percpu[id]++;
            omp_set_lock(&lock);
            counter += 2;
            omp_unset_lock(&lock);
            percpu[id] += 2;
        }
#pragma omp barrier
        percpu[id] *= 3;
#pragma omp single
        for (int k = 0; k < M; k++) {
#pragma omp task firstprivate(k)
            {
                cells[k] = k * 7;
                bump(&cells[k], k);
            }
        }
        percpu[id]--;
#pragma omp for schedule(dynamic, 2) reduction(+ : total)
        for (int k = 0; k < M; k++) {
            total += cells[k];
            percpu[id] ^= k;
        }
        percpu[id] += total;
#pragma omp master
        {
            for (int k = 0; k < 4; k++) {
#pragma omp task firstprivate(k)
                bump(&cells[k], 1);
            }
#pragma omp taskwait
            counter += cells[3];
        }
        int *p = malloc(8 * sizeof *p);
        p[id] = id;
        keep = p;
        percpu[id] += p[id];
        free(p);
#pragma omp critical(named)
        total += percpu[id];
        percpu[id] = 0;
    }
    omp_destroy_lock(&lock);
    printf("%ld %ld\n", counter, total);
    return 0;
}
