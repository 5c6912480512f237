/* ompwarn.c — OpenMP that synchronises and is not recorded, counted as
 * unmodelled (collector-omp.sh): in a region of 2 threads, a flush in each
 * thread (a fence: recorded, not counted); in a single, an untied task (it may move between
 * threads) and a task reduction (its partial results are combined inside
 * libomp): OpenMP constructs 2; then, with nesting on, a region of 2
 * threads whose threads each fork an inner region of 2 that meets at a
 * barrier: the inner teams are not traced (4 barrier waits). */
#include <omp.h>

int x, r;

int main(void)
{
#pragma omp parallel num_threads(2)
    {
#pragma omp flush
#pragma omp single
        {
#pragma omp task untied
            x = 1;
#pragma omp taskgroup task_reduction(+ : r)
            {
#pragma omp task in_reduction(+ : r)
                r += 1;
            }
        }
    }
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
#pragma omp parallel num_threads(2)
    {
#pragma omp barrier
    }
    return x != 1 || r != 1;
}
