/* index_map.h — open addressing from a 64-bit key to an index into an array
 * of the caller's (the tables of locks.c, barriers.c and critpath.c). */
#ifndef DSM_CIAT_INDEX_MAP_H
#define DSM_CIAT_INDEX_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../base/diag.h"

typedef struct index_map {
    uint64_t *keys;
    uint32_t *at;               /* index + 1; 0: empty */
    size_t cap, used;
} index_map;

static inline size_t index_map_slot(const index_map *m, uint64_t key)
{
    size_t j = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & (m->cap - 1);
    while (m->at[j] && m->keys[j] != key) j = (j + 1) & (m->cap - 1);
    return j;
}

/* The index of key; *fresh: it was not there (then it is the next index, n).
 * what names the table in the message when it outgrows 32-bit indexes. */
static inline uint32_t index_map_get(index_map *m, uint64_t key, size_t n, bool *fresh, const char *what)
{
    if (4 * (m->used + 1) > 3 * m->cap) {       /* keep it at most 3/4 full */
        index_map g = { xcalloc(m->cap ? 2 * m->cap : 64, sizeof *g.keys), NULL, m->cap ? 2 * m->cap : 64, m->used };
        g.at = xcalloc(g.cap, sizeof *g.at);
        for (size_t i = 0; i < m->cap; i++)
            if (m->at[i]) {
                size_t j = index_map_slot(&g, m->keys[i]);
                g.keys[j] = m->keys[i];
                g.at[j] = m->at[i];
            }
        free(m->keys);
        free(m->at);
        *m = g;
    }
    size_t j = index_map_slot(m, key);
    *fresh = !m->at[j];
    if (*fresh) {
        if (n >= UINT32_MAX) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "%s: too many table entries", what);
        m->keys[j] = key;
        m->at[j] = (uint32_t)n + 1;
        m->used++;
    }
    return m->at[j] - 1;
}

/* The entry of key in the caller's array *arr of *n entries of size bytes
 * (room for *cap): the one there, or a new one at index *n, zeroed, the
 * array grown as needed (*fresh: it is new; the caller fills it in). */
static inline uint32_t index_map_entry(index_map *m, uint64_t key, void **arr, size_t *n, size_t *cap, size_t size,
                                       bool *fresh, const char *what)
{
    uint32_t i = index_map_get(m, key, *n, fresh, what);
    if (*fresh) {
        *cap = xgrow(arr, *cap, *n + 1, size);
        memset((char *)*arr + (size_t)i * size, 0, size);
        (*n)++;
    }
    return i;
}

/* The index of key, or -1 when it is not there. */
static inline int64_t index_map_find(const index_map *m, uint64_t key)
{
    if (!m->cap) return -1;
    size_t j = index_map_slot(m, key);
    return m->at[j] ? (int64_t)m->at[j] - 1 : -1;
}

static inline void index_map_free(index_map *m)
{
    free(m->keys);
    free(m->at);
    *m = (index_map){ 0 };
}

#endif
