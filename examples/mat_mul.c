/* mat_mul.c — the report's example kernel: C = A × B (doubles), the rows of C
 * split among NTHREADS workers. Traced by make demo (scripts/demo.sh). */
#include <pthread.h>
#include <stdio.h>

#ifndef N
#define N 32            /* bench/run-collector-bench.sh builds it with -DN=... */
#endif
#ifndef NTHREADS
#define NTHREADS 4      /* the bench also builds it with one worker */
#endif

static double A[N][N], B[N][N], C[N][N];

static void *worker(void *arg)
{
    long id = (long)arg;
    for (int i = (int)id * N / NTHREADS; i < (int)(id + 1) * N / NTHREADS; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < N; k++)
                s += A[i][k] * B[k][j];
            C[i][j] = s;
        }
    return NULL;
}

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = i + j;
            B[i][j] = i == j;
        }
    pthread_t t[NTHREADS];
    for (long i = 0; i < NTHREADS; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(t[i], NULL);
    printf("mat_mul: C[%d][%d] = %g\n", N - 1, N - 2, C[N - 1][N - 2]);
    return 0;
}
