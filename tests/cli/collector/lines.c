/* lines.c — collector-lines.sh: accesses between wrapped calls (mutex lock,
 * trylock and unlock, condition variables, semaphores, reader-writer and
 * spin locks, barriers, allocation, an atomic), calls of the C library that
 * are not wrapped, and a callback from it (qsort). Three workers update a
 * counter under the locks and their own counters, which share a cache line,
 * after them. Which line each access is reported at is checked against the
 * compiler's debug locations, not against this file. */
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

enum { T = 3, N = 30 };

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_spinlock_t spin;
static pthread_barrier_t bar;
static sem_t tokens, done;
static long counter, busy, shared_sum;
static long percpu[T];
static int turn;
static _Atomic long tickets;
static int *volatile keep;
static int order[T][8];

static int by_value(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void *work(void *arg)
{
    long id = (long)arg;
    for (int i = 0; i < N; i++) {
        pthread_mutex_lock(&m);
        counter++;
        pthread_mutex_unlock(&m);
        percpu[id]++;
        while (pthread_mutex_trylock(&m) != 0)
            percpu[id] += 2;
        counter += 3;
        busy = counter;
        pthread_mutex_unlock(&m);
        percpu[id] -= 1;
    }
    sem_post(&done);
    sem_wait(&tokens);
    percpu[id] *= 3;
    pthread_mutex_lock(&m);
    while (turn != id)
        pthread_cond_wait(&cv, &m);
    turn++;
    counter += turn;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&m);
    percpu[id] ^= 5;
    int *p = malloc(16 * sizeof *p);
    p[0] = (int)id;
    percpu[id] += p[0];
    p = realloc(p, 64 * sizeof *p);
    p[63] = p[0] + 1;
    keep = p;
    percpu[id] += p[63];
    free(p);
    percpu[id]++;
    pthread_rwlock_rdlock(&rw);
    percpu[id] += counter;
    pthread_rwlock_unlock(&rw);
    pthread_rwlock_wrlock(&rw);
    shared_sum += percpu[id];
    pthread_rwlock_unlock(&rw);
    pthread_spin_lock(&spin);
    counter--;
    pthread_spin_unlock(&spin);
    percpu[id] += atomic_fetch_add(&tickets, 1);
    percpu[id]--;
    pthread_barrier_wait(&bar);
    percpu[id] += 7;
    for (int k = 0; k < 8; k++)
        order[id][k] = (int)((k * 5 + id) % 8);
    qsort(order[id], 8, sizeof order[id][0], by_value);
    percpu[id] += order[id][7];
    sched_yield();
    percpu[id] += 11;
    return NULL;
}

int main(void)
{
    pthread_t th[T];
    sem_init(&tokens, 0, 0);
    sem_init(&done, 0, 0);
    pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
    pthread_barrier_init(&bar, NULL, T);
    for (long t = 0; t < T; t++)
        pthread_create(&th[t], NULL, work, (void *)t);
    for (int t = 0; t < T; t++)
        sem_wait(&done);
    counter *= 2;
    for (int t = 0; t < T; t++)
        sem_post(&tokens);
    for (int t = 0; t < T; t++)
        pthread_join(th[t], NULL);
    printf("%ld %ld %ld\n", counter, shared_sum, percpu[0] + percpu[1] + percpu[2]);
    return 0;
}
