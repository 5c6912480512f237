/* omp_tasks.c — a merge sort with OpenMP tasks (smait-cc -fopenmp): a team
 * of 4 threads, one of which (single) starts the sort; every range longer
 * than CUTOFF is split into two tasks, and after a taskwait the task that
 * split it merges the two sorted halves through tmp[]. Which thread sorts
 * or merges what is decided at run time, so the sorted halves go from the
 * threads that sorted them to the one that merges them: the traces record
 * each task's creation, start and end, and the taskwait that waited for
 * them (docs/collector.md §4.1), so the analysis replays a merge after the
 * sorts it reads. */
#include <stdio.h>

#define N 2048
#define CUTOFF 128

static int a[N], tmp[N];

static void insertion_sort(int *v, int n)
{
    for (int i = 1; i < n; i++) {
        int x = v[i], j = i;
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

static void merge(int lo, int mid, int hi)
{
    int i = lo, j = mid, k = lo;
    while (i < mid && j < hi)
        tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
    while (i < mid)
        tmp[k++] = a[i++];
    while (j < hi)
        tmp[k++] = a[j++];
    for (k = lo; k < hi; k++)
        a[k] = tmp[k];
}

static void sort(int lo, int hi)
{
    if (hi - lo <= CUTOFF) {
        insertion_sort(a + lo, hi - lo);
        return;
    }
    int mid = lo + (hi - lo) / 2;
#pragma omp task
    sort(lo, mid);
#pragma omp task
    sort(mid, hi);
#pragma omp taskwait
    merge(lo, mid, hi);
}

int main(void)
{
    unsigned x = 12345;
    for (int i = 0; i < N; i++) {
        x = x * 1103515245 + 12345;
        a[i] = (int)(x >> 8) % 100000;
    }
#pragma omp parallel num_threads(4)
#pragma omp single
    sort(0, N);
    int sorted = 1;
    for (int i = 1; i < N; i++)
        sorted &= a[i - 1] <= a[i];
    printf("omp_tasks: %d values %s, a[0] %d, a[%d] %d\n", N, sorted ? "sorted" : "NOT sorted", a[0], N - 1,
           a[N - 1]);
    return !sorted;
}
