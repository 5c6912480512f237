/* comm_matrix.h — who communicates with whom (report lines L16 comm, L17 inval).
 *
 * Row t of `comm` counts the RAW accesses of consumer t by the writer u of
 * the value it loaded; row t of `inval` counts, per reader u, the copies that
 * t's WAR stores invalidated. So row t of comm sums to t's RAW (L10) and row
 * t of inval to Σ k·I[k] of t's L13. Rows are small hash tables of the
 * non-zero pairs only, made on a thread's first count: memory grows with the
 * pairs that communicate, not with threads squared. */
#ifndef DSM_CIAT_COMM_MATRIX_H
#define DSM_CIAT_COMM_MATRIX_H

#include "reader_sets.h"
#include "../common/out_file.h"
#include "../common/report.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct cm_row {
    uint32_t cap, used;         /* cap a power of two, 0 = no table yet */
    uint32_t *key;              /* partner thread + 1; 0 = empty slot */
    uint64_t *count;
} cm_row;

typedef struct comm_matrix {
    int n;
    cm_row *comm, *inval;       /* n rows each */
} comm_matrix;

void cm_init(comm_matrix *m, int nthreads);
void cm_free(comm_matrix *m);
/* Every count back to zero (tables kept). */
void cm_clear(comm_matrix *m);
void cm_row_add(cm_row *row, int partner, uint64_t n);
/* into += row t of from (both matrices, both kinds). */
void cm_add_thread(comm_matrix *into, const comm_matrix *from, int t);
/* A RAW load by t of a value written by u. */
static inline void cm_raw(comm_matrix *m, int t, int u) { cm_row_add(&m->comm[t], u, 1); }
/* A WAR store by t that invalidates the copies of the readers in r other than t. */
void cm_inval(comm_matrix *m, const reader_sets *rs, uint32_t r, int t);
/* Lines L16 and L17 of thread t (thread = REPORT_ALL_THREADS: of `sum`'s row 0). */
void cm_report(report *rep, int phase, int thread, const comm_matrix *m, int row);
/* Σ of the rows t with use[t] into row 0 of sum (the Tx lines: counts by partner). */
void cm_sum_rows(comm_matrix *sum, const comm_matrix *m, const bool *use);
/* A row as text, " PARTNER:COUNT" per non-zero pair, in no order (ciat's
 * partial results, formats/CIAT-PARTIAL.md). */
void cm_write_row(FILE *f, const cm_row *row);
/* Adds the pairs of such a text to row (partners below n); false when the
 * text is not one. */
bool cm_add_row_text(cm_row *row, const char *text, int n);
/* The comm rows as an SVG heatmap (consumer rows, producer columns, log
 * colour scale, a colour bar), titled title; side_px: the matrix's side in
 * pixels (0: by the thread count). */
void cm_write_svg(out_file *f, const comm_matrix *m, const char *title, unsigned side_px);

#endif
