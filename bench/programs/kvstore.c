/* kvstore.c — a benchmark program for the tools (bench/run-programs-bench.sh
 * traces it with smait-cc): an in-memory key-value store, the commercial
 * kind of footprint. A chained hash table of KEYS entries, each a separately
 * allocated node (key, version, a 32-byte value, next pointer) reached through
 * a bucket array; NTHREADS workers each run OPS operations on keys drawn at
 * random: LOOKUP_PCT% lookups (walk the chain, read the value), the rest
 * updates (walk the chain, rewrite the value, bump the version), each under
 * the lock of the key's stripe (STRIPES mutexes). So: pointer chasing over a
 * heap of tens of MiB, locks taken by every thread, and data written by one
 * thread and read by others at random. The main thread builds the table
 * first (serial), then starts the workers and sums the versions at the end.
 * Sizes: -DKEYS=… -DOPS=… -DNTHREADS=… */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef KEYS
#define KEYS (1 << 18)
#endif
#ifndef BUCKETS
#define BUCKETS (KEYS / 2)      /* chains of 2 on average */
#endif
#ifndef OPS
#define OPS 200000              /* per worker */
#endif
#ifndef NTHREADS
#define NTHREADS 4
#endif
#define STRIPES 64
#define LOOKUP_PCT 80

typedef struct node {
    uint64_t key;
    uint64_t version;
    uint64_t value[4];
    struct node *next;
} node;

static node *buckets[BUCKETS];
static pthread_mutex_t stripe[STRIPES];
static volatile uint64_t sink;

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

static unsigned bucket_of(uint64_t key) { return (unsigned)(mix(key) % BUCKETS); }

static void insert(uint64_t key)
{
    node *n = malloc(sizeof *n);
    if (!n) {
        perror("kvstore: malloc");
        exit(1);
    }
    n->key = key;
    n->version = 0;
    for (int i = 0; i < 4; i++) n->value[i] = key * (uint64_t)(i + 1);
    unsigned b = bucket_of(key);
    n->next = buckets[b];
    buckets[b] = n;
}

static node *find(uint64_t key)
{
    for (node *n = buckets[bucket_of(key)]; n; n = n->next)
        if (n->key == key) return n;
    return NULL;
}

static void *worker(void *arg)
{
    uint64_t seed = (uint64_t)(uintptr_t)arg * 0x9E3779B97F4A7C15ull + 1, sum = 0;
    for (int i = 0; i < OPS; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t key = (seed >> 33) % KEYS;
        int update = (int)((seed >> 20) % 100) >= LOOKUP_PCT;
        pthread_mutex_t *m = &stripe[key % STRIPES];
        pthread_mutex_lock(m);
        node *n = find(key);
        if (update) {
            for (int k = 0; k < 4; k++) n->value[k] += key;
            n->version++;
        } else {
            sum += n->value[(seed >> 8) & 3];
        }
        pthread_mutex_unlock(m);
    }
    return (void *)(uintptr_t)sum;
}

int main(void)
{
    for (int i = 0; i < STRIPES; i++) pthread_mutex_init(&stripe[i], NULL);
    for (uint64_t k = 0; k < KEYS; k++) insert(k);
    pthread_t t[NTHREADS];
    for (intptr_t i = 0; i < NTHREADS; i++) pthread_create(&t[i], NULL, worker, (void *)i);
    uint64_t check = 0;
    for (int i = 0; i < NTHREADS; i++) {
        void *r;
        pthread_join(t[i], &r);
        check += (uint64_t)(uintptr_t)r;
    }
    uint64_t updates = 0;
    for (uint64_t k = 0; k < KEYS; k++) updates += find(k)->version;
    sink = check;               /* the lookups' sum depends on the interleaving: kept, not printed */
    printf("kvstore: %d keys, %d threads x %d operations: %llu updates\n", KEYS, NTHREADS, OPS,
           (unsigned long long)updates);
    return 0;
}
