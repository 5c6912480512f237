/* fencelate.c — a relaxed read made before the program's acquire fences are
 * known (collector-fences.sh): a constructor of the priority smait-cc's own
 * module constructors have (102), defined before them, reads x relaxed
 * after tracing has begun (the runtime starts at 101) but before this
 * module's constructor says that the program has acquire fences; main's
 * acquire fence then cannot be sure of its reads, and is counted. A second
 * read and fence in main are recorded as usual. */
#include <stdatomic.h>
#include <stdio.h>

atomic_int x;
int early;

__attribute__((constructor(102))) static void read_early(void)
{
    early = atomic_load_explicit(&x, memory_order_relaxed);
}

int main(void)
{
    atomic_thread_fence(memory_order_acquire);      /* counted: the early read was not noted */
    int v = atomic_load_explicit(&x, memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);      /* recorded (nothing to acquire: x has no release) */
    printf("x %p 4\nearly %p 4\n", (void *)&x, (void *)&early);
    return v + early;
}
