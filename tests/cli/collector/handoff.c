/* handoff.c — a producer hands 1024 ints to 3 consumers after a long
 * computation, synchronising the way argv[1] says (collector-sync.sh):
 *   barrier   pthread_barrier_wait of all 4 threads (the reference)
 *   sem       a semaphore, posted once per consumer
 *   cond      a condition variable and a flag; the consumers are in their
 *             wait before the producer sets the flag (they post a semaphore
 *             with the mutex held, and the producer takes the mutex only
 *             after three posts: each consumer looks at the flag exactly
 *             once before it is set, whatever the timing)
 *   cbarrier  a barrier built from a mutex and a condition variable (as
 *             SPLASH-3's default macros build it)
 *   rwlock    a reader-writer lock the producer write-locks before it
 *             creates the consumers
 *   spin      a spin lock, likewise
 *   mutex     a mutex, likewise
 * The main thread (trace 0) is the producer; consumer i (trace i + 1) sums
 * the ints into result[i], which the main thread reads after the joins.
 * Prints "name 0xADDRESS" for the objects the test names. */
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { N = 1024, C = 3, WORK = 20000 };

int data[N];
int result[C];
static int work[64];            /* the producer's own: its long computation */
static const char *mode;

static pthread_barrier_t bar;
static sem_t sem, reg;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_spinlock_t spin;
struct cbarrier {
    pthread_mutex_t m;
    pthread_cond_t c;
    int count, cycle;
} cb = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0 };

static void cbarrier_wait(int n)
{
    pthread_mutex_lock(&cb.m);
    int my = cb.cycle;
    if (++cb.count == n) {
        cb.count = 0;
        cb.cycle = !my;
        pthread_cond_broadcast(&cb.c);
    } else {
        while (cb.cycle == my)
            pthread_cond_wait(&cb.c, &cb.m);
    }
    pthread_mutex_unlock(&cb.m);
}

static int is(const char *m_) { return strcmp(mode, m_) == 0; }

/* The consumer's side of the hand-over. */
static void receive(void)
{
    if (is("barrier")) {
        pthread_barrier_wait(&bar);
    } else if (is("sem")) {
        sem_wait(&sem);
    } else if (is("cond")) {
        pthread_mutex_lock(&m);
        sem_post(&reg);
        while (!ready)
            pthread_cond_wait(&cv, &m);
        pthread_mutex_unlock(&m);
    } else if (is("cbarrier")) {
        cbarrier_wait(C + 1);
    } else if (is("rwlock")) {
        pthread_rwlock_rdlock(&rw);
    } else if (is("spin")) {
        pthread_spin_lock(&spin);
    } else if (is("mutex")) {
        pthread_mutex_lock(&m);
    }
}

/* The consumer is done reading (the locks are let go). */
static void done(void)
{
    if (is("rwlock"))
        pthread_rwlock_unlock(&rw);
    else if (is("spin"))
        pthread_spin_unlock(&spin);
    else if (is("mutex"))
        pthread_mutex_unlock(&m);
}

static void *consumer(void *arg)
{
    int i = (int)(intptr_t)arg;
    receive();
    int sum = 0;
    for (int k = 0; k < N; k++)
        sum += data[k];
    done();
    result[i] = sum;
    return NULL;
}

int main(int argc, char **argv)
{
    mode = argc > 1 ? argv[1] : "barrier";
    pthread_barrier_init(&bar, NULL, C + 1);
    sem_init(&sem, 0, 0);
    sem_init(&reg, 0, 0);
    pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
    /* The locks the producer holds while it works. */
    if (is("rwlock"))
        pthread_rwlock_wrlock(&rw);
    else if (is("spin"))
        pthread_spin_lock(&spin);
    else if (is("mutex"))
        pthread_mutex_lock(&m);

    pthread_t th[C];
    for (int i = 0; i < C; i++)
        pthread_create(&th[i], NULL, consumer, (void *)(intptr_t)i);
    if (is("cond"))
        for (int i = 0; i < C; i++)
            sem_wait(&reg);

    for (int i = 0; i < WORK; i++)
        work[i & 63] += i;
    for (int k = 0; k < N; k++)
        data[k] = k + work[k & 63];

    if (is("barrier")) {
        pthread_barrier_wait(&bar);
    } else if (is("sem")) {
        for (int i = 0; i < C; i++)
            sem_post(&sem);
    } else if (is("cond")) {
        pthread_mutex_lock(&m);
        ready = 1;
        pthread_cond_broadcast(&cv);
        pthread_mutex_unlock(&m);
    } else if (is("cbarrier")) {
        cbarrier_wait(C + 1);
    } else {
        done();
    }
    for (int i = 0; i < C; i++)
        pthread_join(th[i], NULL);
    int total = 0;
    for (int i = 0; i < C; i++)
        total += result[i];
    printf("data %p\nresult %p\nready %p\ncb %p\nm %p\ncv %p\nsem %p\nreg %p\nrw %p\nspin %p\nbar %p\n",
           (void *)data, (void *)result, (void *)&ready, (void *)&cb, (void *)&m, (void *)&cv,
           (void *)&sem, (void *)&reg, (void *)&rw, (void *)&spin, (void *)&bar);
    return total == C * result[0] ? 0 : 1;     /* every consumer saw the same data */
}
