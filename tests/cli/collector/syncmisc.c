/* syncmisc.c — one thread's synchronisation calls whose records are known
 * exactly (collector-sync.sh), and one thing done by an untraced thread.
 * Prints "name 0xADDRESS" for the objects the test names. */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t rec, plain = PTHREAD_MUTEX_INITIALIZER, check;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static sem_t sem, late;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_spinlock_t spin;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int word, inits;

static void init(void) { inits++; }
static void post_late(union sigval v) { sem_post(v.sival_ptr); }

#define CHECK(e) do { if (!(e)) { fprintf(stderr, "line %d: %s\n", __LINE__, #e); return 1; } } while (0)

int main(void)
{
    struct timespec past = { 0, 0 };
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&rec, &a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&check, &a);

    /* A recursive mutex: only the outermost lock and unlock. */
    CHECK(pthread_mutex_lock(&rec) == 0);
    CHECK(pthread_mutex_lock(&rec) == 0);
    CHECK(pthread_mutex_trylock(&rec) == 0);
    CHECK(pthread_mutex_unlock(&rec) == 0);
    CHECK(pthread_mutex_unlock(&rec) == 0);
    CHECK(pthread_mutex_unlock(&rec) == 0);
    /* Busy, timed out, not the owner: nothing, a timeout, nothing. */
    CHECK(pthread_mutex_lock(&plain) == 0);
    CHECK(pthread_mutex_trylock(&plain) == EBUSY);
    CHECK(pthread_mutex_timedlock(&plain, &past) == ETIMEDOUT);
    /* A wait that times out: the mutex is let go and taken again, no wake-up. */
    CHECK(pthread_cond_timedwait(&cv, &plain, &past) == ETIMEDOUT);
    CHECK(pthread_mutex_unlock(&plain) == 0);
    CHECK(pthread_mutex_unlock(&check) == EPERM);
    pthread_cond_signal(&cv);

    /* A semaphore of value 2: two waits take the initial tokens, the third
     * the first post. */
    sem_init(&sem, 0, 2);
    CHECK(sem_wait(&sem) == 0);
    CHECK(sem_trywait(&sem) == 0);
    CHECK(sem_trywait(&sem) == -1 && errno == EAGAIN);
    CHECK(sem_timedwait(&sem, &past) == -1 && errno == ETIMEDOUT);
    CHECK(sem_post(&sem) == 0);
    CHECK(sem_wait(&sem) == 0);

    CHECK(pthread_rwlock_rdlock(&rw) == 0);
    CHECK(pthread_rwlock_trywrlock(&rw) == EBUSY);
    CHECK(pthread_rwlock_timedwrlock(&rw, &past) == ETIMEDOUT);
    CHECK(pthread_rwlock_unlock(&rw) == 0);
    CHECK(pthread_rwlock_wrlock(&rw) == 0);
    CHECK(pthread_rwlock_unlock(&rw) == 0);

    pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
    CHECK(pthread_spin_trylock(&spin) == 0);
    CHECK(pthread_spin_trylock(&spin) == EBUSY);
    CHECK(pthread_spin_unlock(&spin) == 0);

    /* The thread that ran the routine has its release: no acquire. */
    pthread_once(&once, init);
    pthread_once(&once, init);
    CHECK(inits == 1);

    /* Raw futexes: a wait (the value differs: it returns at once) only
     * sleeps; a wake of a word no recorded atomic released is unmodelled. */
    CHECK(syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0) == -1 && errno == EAGAIN);
    CHECK(syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0) == 0);

    /* A timer's thread (started by the C library: untraced) posts: its token
     * is one no trace releases, so the wait acquires nothing. */
    sem_init(&late, 0, 0);
    timer_t timer;
    struct sigevent ev = { .sigev_notify = SIGEV_THREAD, .sigev_notify_function = post_late,
                           .sigev_value.sival_ptr = &late };
    struct itimerspec when = { .it_value = { 0, 1000000 } };
    CHECK(timer_create(CLOCK_MONOTONIC, &ev, &timer) == 0 && timer_settime(timer, 0, &when, NULL) == 0);
    while (sem_wait(&late) != 0)
        ;
    printf("rec %p\nplain %p\ncheck %p\ncv %p\nsem %p\nlate %p\nrw %p\nspin %p\nonce %p\n",
           (void *)&rec, (void *)&plain, (void *)&check, (void *)&cv, (void *)&sem, (void *)&late,
           (void *)&rw, (void *)&spin, (void *)&once);
    return 0;
}
