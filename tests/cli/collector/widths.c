/* widths.c — the same data flow whatever the compiler's access width: four
 * workers each write a quarter of a[] (4-byte ints) and of c[] (1-byte chars),
 * then, after a barrier, every worker reads all of both; after a second
 * barrier each rewrites its quarter (its stores take the copies of the three
 * others); main reads everything after the joins. Built at -O1 the loops are
 * scalar (4- and 1-byte accesses), at -O3 vectorised (16 or, with -mavx2, 32
 * bytes): ciat's communication figures must be the same (collector-widths.sh). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

enum { N = 4096, T = 4 };
static int a[N];
static unsigned char c[N];
static int out[T];
static pthread_barrier_t bar;

static void *worker(void *arg)
{
    int id = (int)(intptr_t)arg, lo = id * (N / T), hi = lo + N / T;
    for (int i = lo; i < hi; i++) a[i] = i * 3 + 1;
    for (int i = lo; i < hi; i++) c[i] = (unsigned char)(i ^ 0x5a);
    pthread_barrier_wait(&bar);
    int s = 0;
    for (int i = 0; i < N; i++) s += a[i];
    for (int i = 0; i < N; i++) s += c[i];
    out[id] = s;
    pthread_barrier_wait(&bar);
    for (int i = lo; i < hi; i++) a[i] = a[i] * 2;
    for (int i = lo; i < hi; i++) c[i] = (unsigned char)(c[i] + 1);
    return NULL;
}

int main(void)
{
    pthread_t th[T];
    pthread_barrier_init(&bar, NULL, T);
    for (int i = 0; i < T; i++) pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i);
    for (int i = 0; i < T; i++) pthread_join(th[i], NULL);
    long s = 0;
    for (int i = 0; i < N; i++) s += a[i] + c[i];
    for (int i = 0; i < T; i++) s += out[i];
    printf("%ld\n", s);
    return 0;
}
