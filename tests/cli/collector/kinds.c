/* kinds.c — one access of each kind the collector distinguishes (the
 * collector test's expected records): float and double (register type fp),
 * int (fixed), a 16-byte vector, an atomic add, long double (10 bytes: split
 * 8 + 2), memcpy of 13 bytes (8 + 4 + 1) and memset of 6 bytes (4 + 2);
 * then a store while smait_marker has detailed tracing off. */
#include <stdio.h>
#include <string.h>

#include <smait_marker.h>

typedef float v4f __attribute__((vector_size(16)));

volatile float f;
volatile double d;
volatile int i;
volatile v4f v;
int counter;
volatile long double ld;
char src[16] = "hello, world!", dst[16];
volatile unsigned long n = 13, m = 6;

int main(void)
{
    f = 1.5f;                   /* store 4 fp */
    d = f;                      /* load 4 fp, store 8 fp */
    i = (int)d;                 /* load 8 fp, store 4 */
    v = v + v;                  /* load 16 vec (twice: volatile), store 16 vec */
    __atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST);      /* atomic 4 */
    ld = 2.5L;                  /* store 8 fp + store 2 fp */
    memcpy(dst, src, n);        /* load n, then 8 + 4 + 1 byte copies */
    memset(dst, 0, m);          /* load m, then 4 + 2 byte stores */
    smait_marker(1, 1);         /* detailed tracing off: this store is not written */
    i = 7;
    smait_marker(2, 2);         /* on again */
    printf("f %p\nd %p\ni %p\nv %p\ncounter %p\nld %p\nsrc %p\ndst %p\nn %p\nm %p\n",
           (void *)&f, (void *)&d, (void *)&i, (void *)&v, (void *)&counter, (void *)&ld,
           (void *)src, (void *)dst, (void *)&n, (void *)&m);
    return 0;
}
