/* decimal.h — integers to decimal text without printf, for writers of one
 * line per page or per event (ciat's memory file and event trace), where
 * fprintf's format parsing cost thousands of instructions a line: on a
 * footprint touched at random the memory file has a line per 4 KiB page.
 * The text is exactly printf's "%llu" / "%lld". */
#ifndef DSM_BASE_DECIMAL_H
#define DSM_BASE_DECIMAL_H

#include <stdint.h>
#include <string.h>

enum { DECIMAL_MAX = 20 };      /* digits of UINT64_MAX; a sign more for int64 */

/* Writes v at p and returns the end (no NUL). */
static inline char *decimal_u64(char *p, uint64_t v)
{
    char tmp[DECIMAL_MAX];
    char *t = tmp + DECIMAL_MAX;
    do {
        *--t = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    size_t n = (size_t)(tmp + DECIMAL_MAX - t);
    memcpy(p, t, n);
    return p + n;
}

static inline char *decimal_i64(char *p, int64_t v)
{
    if (v >= 0) return decimal_u64(p, (uint64_t)v);
    *p++ = '-';
    return decimal_u64(p, (uint64_t)0 - (uint64_t)v);
}

#endif
