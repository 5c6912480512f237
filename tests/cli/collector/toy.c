/* toy.c — the collector test's program: every access is known.
 * Thread 0 writes a[0..15] (16 ints), then two readers sum them after a
 * barrier of 3; each stores its sum; thread 0 reads both sums after joins.
 * It prints the addresses of a, sum and bar (uninstrumented printf). */
#include <pthread.h>
#include <stdio.h>

int a[16];
int sum[2];
pthread_barrier_t bar;

static void *reader(void *p)
{
    long id = (long)p;
    pthread_barrier_wait(&bar);
    int s = 0;
    for (int i = 0; i < 16; i++)
        s += a[i];
    sum[id] = s;
    return 0;
}

int main(void)
{
    pthread_t t[2];
    pthread_barrier_init(&bar, 0, 3);
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], 0, reader, (void *)i);
    for (int i = 0; i < 16; i++)
        a[i] = i;
    pthread_barrier_wait(&bar);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
    /* For the test: where the data is (it checks the address map with it). */
    printf("a %p\nsum %p\nbar %p\n", (void *)a, (void *)sum, (void *)&bar);
    return sum[0] - sum[1];
}
