/* vectors.c — vector accesses as the machine makes them (the collector test,
 * docs/collector.md §3), built with the default target (16-byte SSE
 * vectors) and with -mavx2 (32-byte vectors):
 *   s.y  32 bytes aligned to 16, at offset 48 of a 64-byte aligned object:
 *        SSE: two 16-byte pieces at +48 and +64, neither crossing a 64-byte
 *        line; AVX2: one 32-byte access at +48, which does cross it;
 *   x    32 bytes aligned to 32: SSE two pieces, AVX2 one;
 *   z    64 bytes aligned to 64: SSE four 16-byte pieces, AVX2 two 32-byte. */
#include <stdio.h>

typedef float v8f __attribute__((vector_size(32)));
typedef float v8f_a16 __attribute__((vector_size(32), aligned(16)));
typedef float v16f __attribute__((vector_size(64)));

struct line_pair {
    char pad[48];
    v8f_a16 y;
} __attribute__((aligned(64)));

volatile struct line_pair s;
volatile v8f x;
volatile v16f z;

int main(void)
{
    s.y = s.y * 2;
    x = x + 1;
    z = z + 1;
    printf("s %p 128\nx %p\nz %p\n", (void *)&s, (void *)&x, (void *)&z);
    return 0;
}
