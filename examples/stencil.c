/* stencil.c — 1-D Jacobi relaxation: NTHREADS threads own contiguous blocks of
 * the grid and meet at a barrier after every sweep; only the block edges are
 * communicated (RAW at the neighbours' boundary points). */
#include <pthread.h>
#include <stdio.h>

#define N 256
#define NTHREADS 4
#define SWEEPS 8

static double grid[2][N + 2];
static pthread_barrier_t bar;

static void *worker(void *arg)
{
    long id = (long)arg;
    int lo = 1 + (int)id * N / NTHREADS, hi = 1 + (int)(id + 1) * N / NTHREADS;
    for (int s = 0; s < SWEEPS; s++) {
        const double *in = grid[s & 1];
        double *out = grid[!(s & 1)];
        for (int i = lo; i < hi; i++)
            out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3;
        pthread_barrier_wait(&bar);
    }
    return NULL;
}

int main(void)
{
    grid[0][0] = grid[1][0] = 1000;
    pthread_barrier_init(&bar, NULL, NTHREADS);
    pthread_t t[NTHREADS];
    for (long i = 0; i < NTHREADS; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(t[i], NULL);
    printf("stencil: grid[1] = %.3f\n", grid[SWEEPS & 1][1]);
    return 0;
}
