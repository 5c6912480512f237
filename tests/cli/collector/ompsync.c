/* ompsync.c — the OpenMP synchronisation the collector records
 * (collector-omp.sh); every access is known. Region 1, 3 threads, the same
 * records in every run (release numbers aside):
 *   each thread: counter++ under an OpenMP lock; nested++ under a nestable
 *   lock taken twice; a barrier; thread 0 alone (masked): tested = counter
 *   under omp_test_lock (nobody else holds it then); an ordered loop of 6
 *   iterations, schedule(static, 1) (thread i runs i and i + 3), each
 *   appending its number to order[] in its ordered section; a reduction of
 *   0 … 5 into red (libomp combines a team of 3 with atomics); a flush.
 * Regions 2, 3 and 4, 3 threads, decided at run time (which thread runs
 *   the single): a single (and its barrier); a single nowait; a copyprivate
 *   single, whose value every thread stores in copied[its number].
 * Region 5, 6 threads: a reduction (libomp's tree method for teams above 4
 *   is avoided: every thread combines and meets the same barriers).
 * Region 6, 1 thread: a reduction (libomp lets it combine alone, no lock).
 * It prints where its variables are. */
#include <omp.h>
#include <stdio.h>

omp_lock_t lock;
omp_nest_lock_t nest;
int counter, nested, tested, order[6], pos, red, red6, red1;
int once, once_nowait, copied[3];

int main(void)
{
    omp_init_lock(&lock);
    omp_init_nest_lock(&nest);
#pragma omp parallel num_threads(3)
    {
        omp_set_lock(&lock);
        counter++;
        omp_unset_lock(&lock);
        omp_set_nest_lock(&nest);
        omp_set_nest_lock(&nest);
        nested++;
        omp_unset_nest_lock(&nest);
        omp_unset_nest_lock(&nest);
#pragma omp barrier
#pragma omp masked
        if (omp_test_lock(&lock)) {
            tested = counter;
            omp_unset_lock(&lock);
        }
#pragma omp for ordered schedule(static, 1)
        for (int i = 0; i < 6; i++) {
#pragma omp ordered
            order[pos++] = i;
        }
#pragma omp for reduction(+ : red) schedule(static)
        for (int i = 0; i < 6; i++)
            red += i;
#pragma omp flush
    }
#pragma omp parallel num_threads(3)
#pragma omp single
    once = 1;
#pragma omp parallel num_threads(3)
#pragma omp single nowait
    once_nowait = 1;
#pragma omp parallel num_threads(3)
    {
        int v = 0;
#pragma omp single copyprivate(v)
        v = 7;
        copied[omp_get_thread_num()] = v;
    }
#pragma omp parallel num_threads(6)
#pragma omp for reduction(+ : red6)
    for (int i = 0; i < 6; i++)
        red6 += i;
#pragma omp parallel num_threads(1)
#pragma omp for reduction(+ : red1)
    for (int i = 0; i < 6; i++)
        red1 += i;
    printf("lock %p\nnest %p\ncounter %p\nnested %p\ntested %p\norder %p\npos %p\nred %p\n"
           "red6 %p\nred1 %p\nonce %p\nonce_nowait %p\ncopied %p\n",
           (void *)&lock, (void *)&nest, (void *)&counter, (void *)&nested, (void *)&tested,
           (void *)order, (void *)&pos, (void *)&red, (void *)&red6, (void *)&red1, (void *)&once,
           (void *)&once_nowait, (void *)copied);
    return counter != 3 || nested != 3 || tested != 3 || pos != 6 || red != 15 || red6 != 15 ||
           red1 != 15 || copied[0] + copied[1] + copied[2] != 21;
}
