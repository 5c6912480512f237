/* sem_pipeline.c — a three-stage pipeline joined by semaphores: a generator
 * writes samples into ring 1, a filter smooths them into ring 2, a
 * histogram stage counts them. Each ring has 8 slots and two semaphores
 * (free slots, filled slots): sem_post hands a slot over, sem_wait takes it.
 * Every sample moves from one stage to the next (RAW of degree 1 per hop),
 * and a slot is written again only after the next stage has read it (WAR
 * of degree 1 when the writer comes round). */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

#define ITEMS 512
#define SLOTS 8
#define BINS 16

static int ring1[SLOTS], ring2[SLOTS];
static sem_t free1, full1, free2, full2;
static int hist[BINS];

static void *generate(void *arg)
{
    (void)arg;
    unsigned v = 12345;
    for (int i = 0; i < ITEMS; i++) {
        v = v * 1103515245 + 12345;
        sem_wait(&free1);
        ring1[i % SLOTS] = (int)(v >> 16) % 1000;
        sem_post(&full1);
    }
    return NULL;
}

static void *filter(void *arg)
{
    (void)arg;
    int prev = 0;
    for (int i = 0; i < ITEMS; i++) {
        sem_wait(&full1);
        int s = ring1[i % SLOTS];
        sem_post(&free1);
        sem_wait(&free2);
        ring2[i % SLOTS] = (s + prev) / 2;
        sem_post(&full2);
        prev = s;
    }
    return NULL;
}

static void *count(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITEMS; i++) {
        sem_wait(&full2);
        int s = ring2[i % SLOTS];
        sem_post(&free2);
        hist[s * BINS / 1000]++;
    }
    return NULL;
}

int main(void)
{
    sem_init(&free1, 0, SLOTS);
    sem_init(&full1, 0, 0);
    sem_init(&free2, 0, SLOTS);
    sem_init(&full2, 0, 0);
    pthread_t t[3];
    pthread_create(&t[0], NULL, generate, NULL);
    pthread_create(&t[1], NULL, filter, NULL);
    pthread_create(&t[2], NULL, count, NULL);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], NULL);
    int most = 0;
    for (int b = 1; b < BINS; b++)
        if (hist[b] > hist[most])
            most = b;
    printf("sem_pipeline: %d samples, fullest bin %d (%d)\n", ITEMS, most, hist[most]);
    return 0;
}
