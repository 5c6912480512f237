/* work_queue.c — a work queue on a condition variable: the main thread puts
 * 32 tasks (blocks of rows of y = A x) in a queue, NTHREADS workers take them
 * as they come, wait on the queue's condition variable while it is empty,
 * and count the finished tasks; the main thread waits on a second condition
 * variable until all are done, then reads y. Which worker gets which block
 * is decided by the run; the traces record it, and the analysis replays it
 * (RAW: A's rows once each, x by every worker that took a task, y's rows
 * back to the main thread). */
#include <pthread.h>
#include <stdio.h>

#define N 256
#define TASKS 16
#define NTHREADS 4

static double A[N][N], x[N], y[N];
static int queue[TASKS], head, tail, finished;
static int closed;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t nonempty = PTHREAD_COND_INITIALIZER, all_done = PTHREAD_COND_INITIALIZER;

static void run(int task)
{
    for (int i = task * (N / TASKS); i < (task + 1) * (N / TASKS); i++) {
        double s = 0;
        for (int j = 0; j < N; j++)
            s += A[i][j] * x[j];
        y[i] = s;
    }
}

static void *worker(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&lock);
        while (head == tail && !closed)
            pthread_cond_wait(&nonempty, &lock);
        if (head == tail) {
            pthread_mutex_unlock(&lock);
            return NULL;
        }
        int task = queue[head++];
        pthread_mutex_unlock(&lock);
        run(task);
        pthread_mutex_lock(&lock);
        if (++finished == TASKS)
            pthread_cond_signal(&all_done);
        pthread_mutex_unlock(&lock);
    }
}

int main(void)
{
    for (int i = 0; i < N; i++)
        x[i] = 1.0 / (i + 1);
    pthread_t t[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int k = 0; k < TASKS; k++) {
        for (int i = k * (N / TASKS); i < (k + 1) * (N / TASKS); i++)
            for (int j = 0; j < N; j++)
                A[i][j] = i == j ? 2 : (i + j) % 7 == 0;
        pthread_mutex_lock(&lock);
        queue[tail++] = k;
        pthread_cond_signal(&nonempty);
        pthread_mutex_unlock(&lock);
    }
    pthread_mutex_lock(&lock);
    while (finished < TASKS)
        pthread_cond_wait(&all_done, &lock);
    closed = 1;
    pthread_cond_broadcast(&nonempty);
    pthread_mutex_unlock(&lock);
    double sum = 0;
    for (int i = 0; i < N; i++)
        sum += y[i];
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(t[i], NULL);
    printf("work_queue: sum of y = %.6f\n", sum);
    return 0;
}
