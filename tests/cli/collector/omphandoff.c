/* omphandoff.c — one producer hands 1024 ints to 3 consumers (collector-omp.sh).
 * A region of 4 threads: thread 0 works a long time (its private array
 * work[] swept 16 times), then writes data[0..1023]; threads 1..3 then read
 * them all and each leaves its sum in sums[id]; thread 0 reads the sums
 * after the region. argv[1] says how the consumers learn that the data is
 * there:
 *   barrier   an omp barrier (the reference)
 *   lock      a flag set under an OpenMP lock, polled under the lock (every
 *             thread polls once before a barrier, so that every run reads
 *             the flag unset before the producer sets it)
 *   critical  the same with a critical section
 *   ordered   an ordered loop of 4 iterations (static,1): iteration 0 is the
 *             producer's, 1..3 the consumers'
 *   tasks     one task produces, taskwait, then 3 tasks consume (which
 *             thread runs which is decided at run time)
 * It prints where data, flag, sums and work are. */
#include <omp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define N 1024

int data[N], flag, sums[4];
static int work[N];
static omp_lock_t lock;

static void produce(void)
{
    for (int r = 0; r < 16; r++)
        for (int i = 0; i < N; i++)
            work[i] += i ^ r;
    for (int i = 0; i < N; i++)
        data[i] = work[i] + i;
}

static void consume(int id)
{
    int s = 0;
    for (int i = 0; i < N; i++)
        s += data[i];
    sums[id] = s;
}

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "barrier";
    omp_init_lock(&lock);
    if (!strcmp(how, "tasks")) {
#pragma omp parallel num_threads(4)
#pragma omp single
        {
#pragma omp task
            produce();
#pragma omp taskwait
            for (int c = 1; c <= 3; c++) {
#pragma omp task firstprivate(c)
                consume(c);
            }
        }
    } else if (!strcmp(how, "ordered")) {
#pragma omp parallel num_threads(4)
#pragma omp for ordered schedule(static, 1)
        for (int i = 0; i < 4; i++) {
#pragma omp ordered
            if (i == 0)
                produce();
            else
                consume(i);
        }
    } else {
#pragma omp parallel num_threads(4)
        {
            int id = omp_get_thread_num();
            if (!strcmp(how, "barrier")) {
                if (id == 0)
                    produce();
#pragma omp barrier
            } else if (!strcmp(how, "lock")) {
                int f0;
                omp_set_lock(&lock);            /* a first poll before the work */
                f0 = flag;
                omp_unset_lock(&lock);
#pragma omp barrier
                if (id == 0) {
                    produce();
                    omp_set_lock(&lock);
                    flag = 1;
                    omp_unset_lock(&lock);
                }
                for (int f = f0; !f; usleep(200)) {
                    omp_set_lock(&lock);
                    f = flag;
                    omp_unset_lock(&lock);
                }
            } else {
                int f0;
#pragma omp critical
                f0 = flag;                      /* a first poll before the work */
#pragma omp barrier
                if (id == 0) {
                    produce();
#pragma omp critical
                    flag = 1;
                }
                for (int f = f0; !f; usleep(200)) {
#pragma omp critical
                    f = flag;
                }
            }
            if (id != 0)
                consume(id);
        }
    }
    printf("data %p\nflag %p\nsums %p\nwork %p\n", (void *)data, (void *)&flag, (void *)sums, (void *)work);
    return sums[1] != sums[2] || sums[2] != sums[3];
}
