/* omp.c — the collector test's OpenMP program: every access is known.
 * Thread 0 writes a[0..2]; a parallel region of 3 threads: thread i adds 10
 * to a[i], all meet at a barrier, then each adds a[(i+1) % 3] to total in
 * the unnamed critical section and counts itself in named in the critical
 * section "other"; thread 0 reads both after the region. It prints where
 * a, total and named are (uninstrumented printf). */
#include <omp.h>
#include <stdio.h>

int a[3];
int total, named;

int main(void)
{
    for (int i = 0; i < 3; i++)
        a[i] = i;
#pragma omp parallel num_threads(3)
    {
        int id = omp_get_thread_num();
        a[id] += 10;
#pragma omp barrier
#pragma omp critical
        total += a[(id + 1) % 3];
#pragma omp critical(other)
        named++;
    }
    printf("a %p\ntotal %p\nnamed %p\n", (void *)a, (void *)&total, (void *)&named);
    return total != 33 || named != 3;
}
