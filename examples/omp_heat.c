/* omp_heat.c — the stencil of stencil.c written with OpenMP (smait-cc
 * -fopenmp): a 1-D heat relaxation whose sweeps are `omp for` loops over a
 * team of 4 threads (static schedule: each thread keeps its block, so only
 * the block edges are communicated), and a residual summed in a critical
 * section after every sweep (a migratory variable). */
#include <omp.h>
#include <stdio.h>

#define N 256
#define SWEEPS 8

static double grid[2][N + 2];
static double residual;

int main(void)
{
    grid[0][0] = grid[1][0] = 1000;
    #pragma omp parallel num_threads(4)
    for (int s = 0; s < SWEEPS; s++) {
        const double *in = grid[s & 1];
        double *out = grid[!(s & 1)], mine = 0;
        #pragma omp for schedule(static)
        for (int i = 1; i <= N; i++) {
            out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3;
            mine += out[i] > in[i] ? out[i] - in[i] : in[i] - out[i];
        }
        #pragma omp critical
        residual += mine;
        #pragma omp barrier
    }
    printf("omp_heat: residual %.3f, grid[1] %.3f\n", residual, grid[SWEEPS & 1][1]);
    return 0;
}
