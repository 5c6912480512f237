/* mutate.c — the fault-injection test's input mutator (tests/cli/fault-injection.sh).
 *
 *   mutate SEED bin|text IN OUT
 *
 * Writes IN with one to three mutations to OUT, chosen by SEED alone (a
 * splitmix64 sequence): the same SEED and IN give the same OUT on every
 * machine. `bin` mutations know 8-byte SMAIT records (little-endian, as
 * smait asm writes them): a flipped bit, an interesting byte, a record's f1
 * replaced by a call part or another kind, an f2 set to an extreme, a record
 * duplicated, dropped or swapped, bytes inserted, a cut at any byte. `text`
 * mutations know lines and numbers: a line dropped, duplicated or swapped, a
 * number replaced by an extreme (0, 2^32-1, 2^32, 2^64-1, 2^64, -1, …), a
 * word inserted, a NUL, CR or tab, a flipped byte, a cut. Not an installed
 * tool. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;

static uint64_t next(void)
{
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static size_t below(size_t n) { return n ? (size_t)(next() % n) : 0; }

typedef struct buf {
    unsigned char *p;
    size_t n, cap;
} buf;

static void reserve(buf *b, size_t n)
{
    if (n <= b->cap) return;
    while (b->cap < n) b->cap = b->cap ? 2 * b->cap : 4096;
    b->p = realloc(b->p, b->cap);
    if (!b->p) {
        perror("mutate");
        exit(3);
    }
}

static void insert(buf *b, size_t at, const void *s, size_t n)
{
    reserve(b, b->n + n);
    memmove(b->p + at + n, b->p + at, b->n - at);
    memcpy(b->p + at, s, n);
    b->n += n;
}

static void erase(buf *b, size_t at, size_t n)
{
    if (at > b->n) return;
    if (n > b->n - at) n = b->n - at;
    memmove(b->p + at, b->p + at + n, b->n - at - n);
    b->n -= n;
}

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

/* ---- binary traces ---- */

static void mutate_bin(buf *b)
{
    static const unsigned char bytes[] = { 0x00, 0xff, 0x10, 0x40, 0x80, 0xc0, 0x7f, 0x01 };
    static const uint32_t words[] = { 0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x1000, 0x0fffffff };
    static const uint32_t kinds[] = { 0x40000000, 0x80000000, 0xc0000000, 0x00000040, 0x00000bb2,
                                      0x20000000, 0x00001000 };
    size_t recs = b->n / 8;
    switch (below(10)) {
    case 0:     /* a bit */
        if (b->n) b->p[below(b->n)] ^= (unsigned char)(1u << below(8));
        break;
    case 1:     /* an interesting byte */
        if (b->n) b->p[below(b->n)] = bytes[below(sizeof bytes)];
        break;
    case 2:     /* f1 of a record: a call part of any type and index */
        if (recs) put32(b->p + 8 * below(recs), 0x1000u | (uint32_t)below(0x20) << 4 | (uint32_t)below(7));
        break;
    case 3:     /* f1 of a record: another kind (some invalid) */
        if (recs) put32(b->p + 8 * below(recs), kinds[below(sizeof kinds / sizeof *kinds)] | (uint32_t)below(16));
        break;
    case 4:     /* f2 of a record: an extreme (addresses, times, counts) */
        if (recs) put32(b->p + 8 * below(recs) + 4, words[below(sizeof words / sizeof *words)]);
        break;
    case 5: {   /* a run of records duplicated */
        if (!recs) break;
        size_t from = below(recs), n = 1 + below(recs - from < 12 ? recs - from : 12);
        unsigned char tmp[96];
        memcpy(tmp, b->p + 8 * from, 8 * n);
        insert(b, 8 * below(recs + 1), tmp, 8 * n);
        break;
    }
    case 6:     /* a run of records dropped */
        if (recs) erase(b, 8 * below(recs), 8 * (1 + below(12)));
        break;
    case 7:     /* two records swapped */
        if (recs >= 2) {
            size_t i = below(recs), j = below(recs);
            unsigned char tmp[8];
            memcpy(tmp, b->p + 8 * i, 8);
            memcpy(b->p + 8 * i, b->p + 8 * j, 8);
            memcpy(b->p + 8 * j, tmp, 8);
        }
        break;
    case 8: {   /* 1..9 bytes inserted anywhere: every record after it shifts */
        unsigned char tmp[9];
        size_t n = 1 + below(9);
        for (size_t i = 0; i < n; i++) tmp[i] = (unsigned char)next();
        insert(b, below(b->n + 1), tmp, n);
        break;
    }
    default:    /* cut at any byte */
        b->n = below(b->n + 1);
        break;
    }
}

/* ---- text ---- */

/* [start, end) of line k (0-based) of b, or false when there are fewer lines. */
static int line_span(const buf *b, size_t k, size_t *start, size_t *end)
{
    size_t s = 0;
    for (size_t i = 0; i < k; i++) {
        unsigned char *nl = memchr(b->p + s, '\n', b->n - s);
        if (!nl) return 0;
        s = (size_t)(nl - b->p) + 1;
    }
    if (s >= b->n) return 0;
    unsigned char *nl = memchr(b->p + s, '\n', b->n - s);
    *start = s;
    *end = nl ? (size_t)(nl - b->p) + 1 : b->n;
    return 1;
}

static size_t count_lines(const buf *b)
{
    size_t n = 0;
    for (size_t i = 0; i < b->n; i++) n += b->p[i] == '\n';
    return n + (b->n && b->p[b->n - 1] != '\n');
}

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static void mutate_text(buf *b)
{
    static const char *const numbers[] = { "0", "1", "4294967295", "4294967296", "18446744073709551615",
                                           "18446744073709551616", "-1", "65536", "0x7fffffff", "0xffffffff",
                                           "99999999999999999999999", "3", "1000000" };
    static const char *const words[] = { " x", " 0", " =", " #", " [", " ]", " ;", " 7 7", "=", " -" };
    static const char *const chars[] = { "\0", "\r", "\t", "\n", " ", "\xff" };
    size_t lines = count_lines(b), s, e, s2, e2;
    switch (below(10)) {
    case 0:     /* a line dropped */
        if (line_span(b, below(lines), &s, &e)) erase(b, s, e - s);
        break;
    case 1:     /* a line duplicated */
        if (line_span(b, below(lines), &s, &e)) {
            buf tmp = { 0 };
            insert(&tmp, 0, b->p + s, e - s);
            if (tmp.p[tmp.n - 1] != '\n') insert(&tmp, tmp.n, "\n", 1);
            if (line_span(b, below(lines), &s2, &e2)) insert(b, s2, tmp.p, tmp.n);
            free(tmp.p);
        }
        break;
    case 2:     /* a line moved elsewhere */
        if (line_span(b, below(lines), &s, &e)) {
            buf tmp = { 0 };
            insert(&tmp, 0, b->p + s, e - s);
            if (tmp.p[tmp.n - 1] != '\n') insert(&tmp, tmp.n, "\n", 1);
            erase(b, s, e - s);
            size_t at = line_span(b, below(lines), &s2, &e2) ? s2 : b->n;
            insert(b, at, tmp.p, tmp.n);
            free(tmp.p);
        }
        break;
    case 3: case 4: case 5: {   /* a number replaced by an extreme */
        size_t starts[4096], n = 0;
        for (size_t i = 0; i < b->n && n < 4096; i++)
            if (is_digit(b->p[i]) && (i == 0 || !is_digit(b->p[i - 1]))) starts[n++] = i;
        if (!n) break;
        size_t at = starts[below(n)], end = at;
        while (end < b->n && (is_digit(b->p[end]) || b->p[end] == 'x' || b->p[end] == 'X' ||
                              (b->p[end] >= 'a' && b->p[end] <= 'f') || (b->p[end] >= 'A' && b->p[end] <= 'F')))
            end++;
        const char *w = numbers[below(sizeof numbers / sizeof *numbers)];
        erase(b, at, end - at);
        insert(b, at, w, strlen(w));
        break;
    }
    case 6: {   /* a word inserted */
        const char *w = words[below(sizeof words / sizeof *words)];
        insert(b, below(b->n + 1), w, strlen(w));
        break;
    }
    case 7: {   /* a NUL, CR, tab, newline, blank or high byte */
        size_t k = below(sizeof chars / sizeof *chars);
        insert(b, below(b->n + 1), chars[k], 1);
        break;
    }
    case 8:     /* a byte changed */
        if (b->n) b->p[below(b->n)] = (unsigned char)(0x20 + below(0x60));
        break;
    default:    /* cut at any byte */
        b->n = below(b->n + 1);
        break;
    }
}

int main(int argc, char **argv)
{
    if (argc != 5 || (strcmp(argv[2], "bin") != 0 && strcmp(argv[2], "text") != 0)) {
        fprintf(stderr, "usage: mutate SEED bin|text IN OUT\n");
        return 1;
    }
    state = strtoull(argv[1], NULL, 10) * 0x2545f4914f6cdd1dull + 1;
    buf b = { 0 };
    FILE *in = fopen(argv[3], "rb");
    if (!in) {
        perror(argv[3]);
        return 2;
    }
    size_t k;
    do {
        reserve(&b, b.n + 65536);
        k = fread(b.p + b.n, 1, 65536, in);
        b.n += k;
    } while (k > 0);
    fclose(in);
    int text = strcmp(argv[2], "text") == 0;
    for (size_t m = 1 + below(3); m > 0; m--) {
        if (text) mutate_text(&b);
        else mutate_bin(&b);
    }
    FILE *out = fopen(argv[4], "wb");
    if (!out || fwrite(b.p, 1, b.n, out) != b.n || fclose(out) != 0) {
        perror(argv[4]);
        return 2;
    }
    free(b.p);
    return 0;
}
