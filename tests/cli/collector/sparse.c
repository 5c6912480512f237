/* sparse.c — a footprint of many separate page runs (collector-map.sh).
 * Stores one long into every other page of a large block, in an order that
 * sends pages 256 apart (one entry of the runtime's page cache) one after
 * the other, then loads them back in the reverse order. Prints the block's
 * address and a local variable's, with their sizes. */
#include <stdio.h>
#include <stdlib.h>

enum { RUNS = 1024, PAGE = 4096 };

/* The k-th page written (every other page: each its own run). */
static size_t page_of(unsigned k) { return 2 * (size_t)((k * 257u) % RUNS); }

int main(void)
{
    volatile long local = 0;
    char *block = malloc((size_t)2 * RUNS * PAGE);
    if (!block)
        return 1;
    for (unsigned k = 0; k < RUNS; k++)
        *(volatile long *)(block + page_of(k) * PAGE + 8 * (k % 8)) = k;
    for (unsigned k = RUNS; k-- > 0;)
        local += *(volatile long *)(block + page_of(k) * PAGE + 8 * (k % 8));
    printf("block %p %zu\nlocal %p %zu\n", (void *)block, (size_t)2 * RUNS * PAGE, (void *)&local, sizeof local);
    return local == (long)RUNS * (RUNS - 1) / 2 ? 0 : 1;
}
