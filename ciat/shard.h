/* shard.h — one part of ciat's analysis (--shard I/N) and the partial result
 * it writes, read back by --merge (docs/sharding.md).
 *
 * The analysis splits exactly: what ciat keeps per location, per line and
 * per page belongs to the part that owns the page (page number mod N), and
 * what it keeps per thread of the accesses themselves (classes, strings,
 * calls) to the part that owns the thread (thread number mod N). Every part
 * runs the whole interleaving and sees every event; it does the work of what
 * it owns. Every figure of the report is then a sum over the parts, and the
 * merge sums them and writes the report the whole run writes.
 *
 * A partial result is text, one record a line: a tag, a blank, its fields.
 * The merge reads the parts side by side, record by record: the records
 * every part must have alike (the interleaving's counts, the header lines)
 * are compared, so a part of another run, trace set, option set or build is
 * refused, naming it; the others are summed. */
#ifndef DSM_CIAT_SHARD_H
#define DSM_CIAT_SHARD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"
#include "../common/out_file.h"
#include "../common/scheduler.h"

enum { CIAT_PART_MAX = 4096 };

/* The part analysed: part i of n (n = 0: the whole, no sharding). */
typedef struct ciat_part {
    uint32_t i, n;
    uint32_t page_shift;        /* log2 of --page-size */
} ciat_part;

static inline bool part_all(const ciat_part *p) { return p->n <= 1; }
static inline bool part_thread(const ciat_part *p, int t) { return p->n <= 1 || (uint32_t)t % p->n == p->i; }
static inline bool part_page(const ciat_part *p, uint32_t addr)
{
    return p->n <= 1 || (addr >> p->page_shift) % p->n == p->i;
}

/* --shard I/N (an OPT_CALL handler and its "# options:" value). */
const char *ciat_part_parse(void *target, const char *value);

/* The command line of the whole run a shard is part of: argv without its
 * --shard option (options_command_line's quoting). Caller frees. */
char *shard_whole_command(int argc, char **argv);

/* The partial result's file name: <prefix>.ciat_partial.I-of-N. Caller frees. */
char *shard_partial_path(const char *prefix_path, const ciat_part *p);

/* ---- writing ---- */

/* The first records: format, tool and version, the part, the whole run's
 * command, --json, and every trace's size in bytes. */
void partial_begin(out_file *f, const ciat_part *p, const char *command, bool json, const char *const *paths,
                   int ntraces);
/* "TAG [INDEX] V V …" (index < 0: none). */
void partial_u64s(out_file *f, const char *tag, long index, const uint64_t *v, size_t n);
void partial_counts(out_file *f, const char *tag, int t, const sched_counts *sc);
void partial_stats(out_file *f, int t, const thread_stats *s);
/* One "TAG LINE" record per line of src (a temporary file written so far),
 * then src closed; `what` names its lines in the message of a read error. */
void partial_lines(out_file *f, FILE *src, const char *tag, const char *what);
/* "TAG TEXT"; text NULL: "TAG" alone. */
void partial_text(out_file *f, const char *tag, const char *text);

/* ---- reading ---- */

typedef struct partial_in partial_in;

/* One record of a part: its tag and the rest of the line (writable until
 * the next call). */
typedef struct partial_rec {
    const char *tag;
    char *rest;
} partial_rec;

/* Opens the parts given to --merge and reads their first records: they
 * must be the n parts 0..n-1 of one run, each once, written by this build.
 * Exits 2 naming the file otherwise. */
partial_in *partial_open(char **paths, int n);
int partial_parts(const partial_in *in);
const char *partial_path(const partial_in *in, int k);
const char *partial_command(const partial_in *in);     /* the whole run's command line */
bool partial_json(const partial_in *in);
int partial_traces(const partial_in *in);

/* The next record of part k; exits 2 at the end of the file ("ended
 * early") or on a read error. */
partial_rec partial_next(partial_in *in, int k);
/* Stop with exit status 2: part k's current record is wrong (why). */
_Noreturn void partial_fail(const partial_in *in, int k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Fields of a record (exit 2 naming the record when they are not n
 * numbers, or not the index and n numbers). */
void partial_parse_u64s(const partial_in *in, int k, char *text, uint64_t *v, size_t n);
/* The n numbers that begin text, each followed by a blank (exit 2 with the
 * message `bad` when they are not): returns the blank after the last. */
const char *partial_lead_u64s(const partial_in *in, int k, const char *text, uint64_t *v, size_t n, const char *bad);
void partial_parse_counts(const partial_in *in, int k, char *text, int *t, sched_counts *sc);
/* Adds the stats record's counters to s[t] (t < nthreads). */
void partial_add_stats(const partial_in *in, int k, char *text, thread_stats *s, int nthreads);

void partial_close(partial_in *in);

#endif
