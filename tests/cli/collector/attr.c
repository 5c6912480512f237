/* attr.c — what the address map says about code and data (collector-map.sh).
 * Comments "LINE:x", "OBJ:x" and "SITE:x" mark the lines the test expects
 * the map's line, object and heap lines to name. The program prints each
 * block's original address and size ("name 0xADDRESS SIZE"). With an
 * argument: also two threads that allocate 100 blocks each from one site. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int grid[3000];                                 /* OBJ:grid */
static long total;                              /* OBJ:total */

__attribute__((noinline)) static void fill(int *v, int n)
{
    for (int i = 0; i < n; i++)
        v[i] = i;                               /* LINE:store */
}

__attribute__((noinline)) static char *site_a(size_t n)
{
    return malloc(n);                           /* SITE:a */
}

__attribute__((noinline)) static char *site_b(size_t n)
{
    return malloc(n);                           /* SITE:b */
}

static void show(const char *name, const void *p, size_t n)
{
    printf("%s %p %zu\n", name, p, n);
}

static void *worker(void *arg)
{
    char **v = arg;
    for (int i = 0; i < 100; i++) {
        v[i] = malloc(24);                      /* SITE:worker */
        memset(v[i], i, 24);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    static int calls;                           /* OBJ:calls */
    calls++;
    fill(grid, 3000);
    total += grid[2999];

    char *a1 = site_a(64), *a2 = site_a(64);
    memset(a1, 1, 64);
    memset(a2, 2, 64);
    show("a2", a2, 64);
    free(a1);                                   /* a1's place: a, a again, then b */
    a1 = site_a(64);
    memset(a1, 3, 64);
    free(a1);
    char *b = site_b(64);
    memset(b, 4, 64);
    show("reused", b, 64);
    char *c = calloc(4, 16);                    /* SITE:calloc */
    c[5] = 5;
    show("c", c, 64);
    char *r = site_b(100);
    memset(r, 6, 100);
    r = realloc(r, 9000);                       /* SITE:realloc */
    memset(r, 7, 9000);
    show("r", r, 9000);
    total += a2[1] + b[2] + c[3] + r[8999];

    if (argc > 1) {
        static char *blocks[2][100];
        pthread_t t[2];
        for (int i = 0; i < 2; i++)
            pthread_create(&t[i], NULL, worker, blocks[i]);
        for (int i = 0; i < 2; i++)
            pthread_join(t[i], NULL);
    }
    return total == 0;
}
