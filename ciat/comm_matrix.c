/* comm_matrix.c — the communication matrix: lines L16 comm and L17 inval. */
#include "comm_matrix.h"
#include "../base/diag.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cm_init(comm_matrix *m, int nthreads)
{
    m->n = nthreads;
    m->comm = xcalloc((size_t)nthreads, sizeof *m->comm);
    m->inval = xcalloc((size_t)nthreads, sizeof *m->inval);
}

static void row_free(cm_row *row)
{
    free(row->key);
    free(row->count);
}

void cm_free(comm_matrix *m)
{
    for (int t = 0; t < m->n; t++) {
        row_free(&m->comm[t]);
        row_free(&m->inval[t]);
    }
    free(m->comm);
    free(m->inval);
}

static void row_clear(cm_row *row)
{
    if (!row->used) return;
    memset(row->key, 0, (size_t)row->cap * sizeof *row->key);
    row->used = 0;
}

void cm_clear(comm_matrix *m)
{
    for (int t = 0; t < m->n; t++) {
        row_clear(&m->comm[t]);
        row_clear(&m->inval[t]);
    }
}

static inline uint32_t slot_of(uint32_t key, uint32_t cap)
{
    return (key * 0x9E3779B1u) & (cap - 1);
}

static void row_grow(cm_row *row)
{
    uint32_t cap = row->cap ? row->cap * 2 : 8;
    uint32_t *key = xcalloc(cap, sizeof *key);
    uint64_t *count = xcalloc(cap, sizeof *count);
    for (uint32_t i = 0; i < row->cap; i++) {
        if (!row->key[i]) continue;
        uint32_t j = slot_of(row->key[i], cap);
        while (key[j]) j = (j + 1) & (cap - 1);
        key[j] = row->key[i];
        count[j] = row->count[i];
    }
    row_free(row);
    row->key = key;
    row->count = count;
    row->cap = cap;
}

void cm_row_add(cm_row *row, int partner, uint64_t n)
{
    uint32_t k = (uint32_t)partner + 1;
    if (row->cap) {
        for (uint32_t j = slot_of(k, row->cap);; j = (j + 1) & (row->cap - 1)) {
            if (row->key[j] == k) {
                row->count[j] += n;
                return;
            }
            if (!row->key[j]) break;
        }
    }
    if (2 * (row->used + 1) > row->cap) row_grow(row);   /* at most half full */
    uint32_t j = slot_of(k, row->cap);
    while (row->key[j]) j = (j + 1) & (row->cap - 1);
    row->key[j] = k;
    row->count[j] = n;
    row->used++;
}

static void row_merge(cm_row *into, const cm_row *from)
{
    for (uint32_t i = 0; i < from->cap; i++)
        if (from->key[i]) cm_row_add(into, (int)from->key[i] - 1, from->count[i]);
}

void cm_add_thread(comm_matrix *into, const comm_matrix *from, int t)
{
    row_merge(&into->comm[t], &from->comm[t]);
    row_merge(&into->inval[t], &from->inval[t]);
}

void cm_inval(comm_matrix *m, const reader_sets *rs, uint32_t r, int t)
{
    cm_row *row = &m->inval[t];
    if (r & READER_ONE) {
        if ((int)(r & ~READER_ONE) != t) cm_row_add(row, (int)(r & ~READER_ONE), 1);
        return;
    }
    const uint64_t *bits = rs->bits + (uint64_t)r * (uint64_t)rs->words;
    for (int w = 0; w < rs->words; w++)
        for (uint64_t b = bits[w]; b; b &= b - 1) {
            int u = w * 64 + __builtin_ctzll(b);
            if (u != t) cm_row_add(row, u, 1);
        }
}

void cm_sum_rows(comm_matrix *sum, const comm_matrix *m, const bool *use)
{
    for (int t = 0; t < m->n; t++) {
        if (!use[t]) continue;
        row_merge(&sum->comm[0], &m->comm[t]);
        row_merge(&sum->inval[0], &m->inval[t]);
    }
}

static int key_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* "u:count" pairs by partner, ascending; only non-zero counts. */
static void row_line(report *rep, int phase, int thread, int ll, const char *name, const cm_row *row)
{
    uint32_t *keys = xcalloc(row->used + 1, sizeof *keys);
    uint32_t n = 0;
    for (uint32_t i = 0; i < row->cap; i++)
        if (row->key[i]) keys[n++] = row->key[i];
    qsort(keys, n, sizeof *keys, key_cmp);
    size_t cap = (size_t)n * 32 + 1, len = 0;
    char *s = xcalloc(cap, 1);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t c = 0;
        for (uint32_t j = slot_of(keys[i], row->cap);; j = (j + 1) & (row->cap - 1))
            if (row->key[j] == keys[i]) {
                c = row->count[j];
                break;
            }
        if (!c) continue;
        len += (size_t)snprintf(s + len, cap - len, "%s%" PRIu32 ":%" PRIu64, len ? " " : "", keys[i] - 1, c);
    }
    report_line(rep, phase, thread, ll, name, "%s", s);
    free(s);
    free(keys);
}

void cm_write_row(FILE *f, const cm_row *row)
{
    for (uint32_t i = 0; i < row->cap; i++)
        if (row->key[i] && row->count[i]) fprintf(f, " %" PRIu32 ":%" PRIu64, row->key[i] - 1, row->count[i]);
}

bool cm_add_row_text(cm_row *row, const char *text, int n)
{
    const char *s = text;
    while (*s) {
        char *end;
        if (*s++ != ' ' || *s < '0' || *s > '9') return false;
        errno = 0;
        unsigned long long u = strtoull(s, &end, 10);
        if (errno || *end != ':' || u >= (unsigned long long)n) return false;
        s = end + 1;
        if (*s < '0' || *s > '9') return false;
        unsigned long long c = strtoull(s, &end, 10);
        if (errno) return false;
        s = end;
        if (c) cm_row_add(row, (int)u, c);
    }
    return true;
}

void cm_report(report *rep, int phase, int thread, const comm_matrix *m, int row)
{
    row_line(rep, phase, thread, 16, "comm", &m->comm[row]);
    row_line(rep, phase, thread, 17, "inval", &m->inval[row]);
}

/* ---- the heatmap (--matrix-svg) ---- */

/* The colour of a count on the log scale, light yellow (1) to dark red (max). */
static void heat_colour(char *buf, size_t n, uint64_t v, double lmax)
{
    double x = lmax > 0 ? log1p((double)v) / lmax : 1;
    int r = (int)(255 - 100 * x + 0.5), g = (int)(230 - 230 * x + 0.5), b = (int)(150 - 150 * x + 0.5);
    snprintf(buf, n, "#%02x%02x%02x", r, g, b);
}

/* Cells of 32 px up to 16 threads, down to 4 px from 128 (the picture stays
 * between about 128 and 1024 px wide), or side / threads px when the side
 * is given; labels every `step` threads. Up to 16 threads, with cells of at
 * least 24 px, each cell shows its count; every cell's count is also its
 * hover title. A colour bar with the scale's ticks (1, 10, 100, ..., the
 * largest count) is beside the matrix. */
void cm_write_svg(out_file *f, const comm_matrix *m, const char *title, unsigned side_px)
{
    int n = m->n;
    int cell = n <= 16 ? 32 : n <= 32 ? 16 : n <= 64 ? 8 : 4;
    if (side_px) cell = (int)side_px / n > 1 ? (int)side_px / n : 1;
    int step = n <= 16 ? 1 : n <= 64 ? 8 : n <= 256 ? 16 : 64;
    int left = 70, top = 70, side = cell * n;
    int title_w = 70 + (int)strlen(title) * 7;
    int width = left + side + 150 > title_w ? left + side + 150 : title_w;
    int height = top + (side > 160 ? side : 160) + 30;
    uint64_t max = 0;
    for (int t = 0; t < n; t++)
        for (uint32_t i = 0; i < m->comm[t].cap; i++)
            if (m->comm[t].key[i] && m->comm[t].count[i] > max) max = m->comm[t].count[i];
    out_file_printf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\""
                    " font-size=\"11\">\n", width, height);
    out_file_printf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    out_file_printf(f, "<text x=\"%d\" y=\"18\" font-size=\"13\">", left);
    out_file_xml_text(f, title);
    out_file_printf(f, "</text>\n<text x=\"%d\" y=\"33\" fill=\"#555\">row: the consumer, which reads a value;"
                    " column: the producer, which wrote it</text>\n", left);
    out_file_printf(f, "<text x=\"%d\" y=\"%d\">producer thread</text>\n", left, top - 22);
    out_file_printf(f, "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\">consumer thread</text>\n",
                    top + side / 2 + 40, top + side / 2 + 40);
    out_file_printf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f4f4f4\" stroke=\"#999\"/>\n",
                    left, top, side, side);
    double lmax = log1p((double)max);
    bool counts = n <= 16 && cell >= 24;
    char colour[16];
    for (int t = 0; t < n; t++)
        for (uint32_t i = 0; i < m->comm[t].cap; i++) {
            if (!m->comm[t].key[i] || !m->comm[t].count[i]) continue;
            int u = (int)m->comm[t].key[i] - 1;
            uint64_t v = m->comm[t].count[i];
            heat_colour(colour, sizeof colour, v, lmax);
            out_file_printf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\">"
                            "<title>%d reads %d: %" PRIu64 "</title></rect>\n",
                            left + u * cell, top + t * cell, cell, cell, colour, t, u, v);
            if (counts) {
                double x = lmax > 0 ? log1p((double)v) / lmax : 1;
                out_file_printf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"%d\" fill=\"%s\">%"
                                PRIu64 "</text>\n", left + u * cell + cell / 2, top + t * cell + cell / 2 + 4,
                                v >= 10000 ? 8 : 10, x > 0.5 ? "white" : "black", v);
            }
        }
    for (int k = 0; k < n; k += step) {
        out_file_printf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text>\n",
                        left + k * cell + cell / 2, top - 6, k);
        out_file_printf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>\n",
                        left - 6, top + k * cell + cell / 2 + 4, k);
    }
    /* The colour bar: 1 at the top to the largest count at the bottom, 128 px. */
    int lx = left + side + 24, bar = 128;
    out_file_printf(f, "<text x=\"%d\" y=\"%d\">reads (log)</text>\n", lx, top - 6);
    for (int y = 0; y < bar; y += 4) {
        uint64_t v = max ? (uint64_t)(expm1(lmax * (y + 2) / bar) + 0.5) : 1;
        heat_colour(colour, sizeof colour, v ? v : 1, lmax);
        out_file_printf(f, "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"4\" fill=\"%s\"/>\n", lx, top + y, colour);
    }
    out_file_printf(f, "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>\n",
                    lx, top, bar);
    for (uint64_t v = 1;; v *= 10) {
        bool last = v >= max;
        uint64_t shown = last ? (max ? max : 1) : v;
        int y = lmax > 0 ? (int)(bar * log1p((double)shown) / lmax) : 0;
        out_file_printf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>"
                        "<text x=\"%d\" y=\"%d\">%" PRIu64 "</text>\n",
                        lx + 16, top + y, lx + 20, top + y, lx + 24, top + y + 4, shown);
        if (last || v > UINT64_MAX / 10) break;
    }
    out_file_printf(f, "</svg>\n");
}
