/* suites.h — the unit-test suites and the helpers they share.
 *
 * Every .c file of tests/unit is linked into one runner (build/tests/unit_tests);
 * main.c builds it from the xxx_suite() functions declared here. Helpers live
 * in testutil.c: a scratch directory for the whole run, file writers (plain and
 * gzip), trace builders, and tu_run(), which runs a function in a child process
 * with stdout/stderr captured, so fatal errors (exit 1/2) and their exact
 * messages can be checked without ending the test. */
#ifndef DSM_TESTS_SUITES_H
#define DSM_TESTS_SUITES_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../formats/smait.h"
#include "../../common/trace_reader.h"

Suite *smait_suite(void);
Suite *smait_text_suite(void);
Suite *trace_reader_suite(void);
Suite *trace_set_suite(void);
Suite *options_suite(void);
Suite *io_suite(void);
Suite *clock_queue_suite(void);
Suite *scheduler_suite(void);
Suite *scheduler_replay_suite(void);
Suite *slice_mode_suite(void);
Suite *report_suite(void);
Suite *fanout_suite(void);
Suite *cache_suite(void);
Suite *cdat_config_suite(void);
Suite *machine_suite(void);
Suite *cdat_io_suite(void);
Suite *tdat_suite(void);
Suite *read_ahead_suite(void);
Suite *ciat_suite(void);
Suite *ciat_reader_sets_suite(void);
Suite *miss_class_suite(void);
Suite *addr_map_suite(void);
Suite *attribution_suite(void);
Suite *huge_arena_suite(void);
Suite *decimal_suite(void);
Suite *cdat_partial_suite(void);
Suite *contention_suite(void);

/* ---- scratch files ------------------------------------------------------- */

/* The run's scratch directory (made by main with mkdtemp, removed at the end). */
extern char *tu_dir;
/* "<tu_dir>/<name>"; the result lives in a small ring of static buffers. */
const char *tu_file(const char *name);
void tu_write(const char *path, const void *data, size_t n);
void tu_write_str(const char *path, const char *text);
/* Gzip-compress data into path; mode "wb" (new file) or "ab" (append a member). */
void tu_write_gz(const char *path, const void *data, size_t n, const char *mode);
/* Zstd-compress data into path as one frame with a checksum; mode "wb" (new
 * file) or "ab" (append a frame). */
void tu_write_zst(const char *path, const void *data, size_t n, const char *mode);
/* Whole file; caller frees. *n gets its size. Fails the test if unreadable. */
unsigned char *tu_read(const char *path, size_t *n);
bool tu_exists(const char *path);
void tu_truncate(const char *path, size_t size);
/* Remove a directory tree (files and subdirectories). */
void tu_rmtree(const char *dir);
/* Number of entries of dir (without . and ..). */
int tu_count_entries(const char *dir);

/* ---- traces ---------------------------------------------------------------- */

/* A growable list of simple records in host order. */
typedef struct tu_recs {
    smait_raw *r;
    size_t n, cap;
} tu_recs;

void tu_add(tu_recs *t, uint32_t f1, uint32_t f2);
void tu_add_mem(tu_recs *t, unsigned access, unsigned bytes, unsigned regtype, uint32_t addr);
void tu_add_call(tu_recs *t, unsigned type, uint32_t start, uint32_t end,
                 uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4);
void tu_recs_free(tu_recs *t);
/* The records as file bytes in order o (followed by 16 zero bytes, room to
 * append a fragment); caller frees. */
unsigned char *tu_bytes(const tu_recs *t, smait_order o);
void tu_write_trace(const char *path, const tu_recs *t, smait_order o);
void tu_write_trace_gz(const char *path, const tu_recs *t, smait_order o);
void tu_write_trace_zst(const char *path, const tu_recs *t, smait_order o);

/* A trace of every record kind (14 logical records, 34 simple records). */
void tu_all_kinds(tu_recs *t);

/* "index: text\n" for each logical record of recs (the expected dump), and the
 * same for what a reader hands out. Callers free. */
char *tu_dump_recs(const tu_recs *t);
char *tu_dump_reader(trace_reader *r);
/* Open path, dump it all, close; problems counts into *pr when not NULL. */
char *tu_dump_path(const char *path, const trace_reader_opts *opts, trace_reader_problems *pr);

/* ---- child processes -------------------------------------------------------- */

/* Runs fn(arg) in a child process with stdout and stderr captured (and stdin
 * from stdin_path when not NULL). Returns the exit status; 100 when fn returned
 * normally; 128+N when the child died of signal N. *out and *err (when not
 * NULL) get the captured text; callers free. */
int tu_run(void (*fn)(void *), void *arg, const char *stdin_path, char **out, char **err);

/* Redirect this process's stderr into a file until tu_capture_end, which
 * returns what was written (caller frees). For warnings of non-fatal paths. */
void tu_capture_begin(void);
char *tu_capture_end(void);

/* Assert that tu_run(fn, arg) exits with status and prints exactly err_text. */
#define tu_assert_fatal(fn, arg, status, err_text) do { \
        char *tu_err_ = NULL; \
        int tu_st_ = tu_run((fn), (arg), NULL, NULL, &tu_err_); \
        ck_assert_str_eq(tu_err_, (err_text)); \
        ck_assert_int_eq(tu_st_, (status)); \
        free(tu_err_); \
    } while (0)

#endif
