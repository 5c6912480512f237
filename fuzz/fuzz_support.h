/* fuzz_support.h — what the libFuzzer harnesses of fuzz/ share.
 *
 * A harness turns libFuzzer's bytes into input files in a scratch directory
 * and runs a tool's own code on them, many times in one process. The tools
 * end a run with a fatal error by exiting (base/diag); fz_run sets diag's
 * trap instead, so an expected input error comes back as the exit status the
 * tool would have had, with its message. What the failed run left behind is
 * released then: every allocation it made that is still live (found through
 * the sanitizer allocator's hooks), every file descriptor it opened and
 * every file window it mapped — the tools leave that to exit, a harness
 * cannot. A broken invariant calls
 * fz_fail, which aborts: libFuzzer saves the input as a crash. */
#ifndef DSM_FUZZ_SUPPORT_H
#define DSM_FUZZ_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdnoreturn.h>

/* The process's scratch directory ($FUZZ_TMPDIR, else /dev/shm, else $TMPDIR
 * or /tmp), made on first use and removed at exit. */
const char *fz_dir(void);
/* "<dir>/<name>" (a ring of static buffers: valid for the next 16 calls). */
const char *fz_path(const char *name);
/* Writes data to fz_path(name) and returns that path. */
const char *fz_write(const char *name, const void *data, size_t n);
/* Removes fz_path(name) if it exists. */
void fz_remove(const char *name);
/* Whole file fz_path(name) into a new buffer (NULL when missing); *n its size. */
unsigned char *fz_read(const char *name, size_t *n);

/* How a run ended. */
typedef struct fz_result {
    int status;                 /* 0: returned; else the exit status of the fatal error */
    char file[512];             /* the error's file, "" when none */
    uint64_t offset;            /* its offset, UINT64_MAX (DIAG_NO_OFFSET) when none */
    char text[1024];            /* its text (cut at 1023 bytes) */
    unsigned warnings;          /* warnings during the run */
} fz_result;

/* Runs fn(arg) with diag's trap set; a fatal error ends it with that error's
 * status in res->status. Returns res->status (fn's own return value when it
 * returns, normally 0). FUZZ_VERBOSE=1 prints every message to stderr. */
int fz_run(int (*fn)(void *arg), void *arg, fz_result *res);

/* A tool's command line, and its main (a harness's fz_run(fz_job_run, &job)). */
enum { FZ_ARGS = 32, FZ_PATH = 4096 };
typedef struct fz_job {
    int (*main)(int argc, char **argv);
    int argc;
    char *argv[FZ_ARGS];
} fz_job;
int fz_job_run(void *job);

/* The two runs ended alike: the same status, file, offset and message. */
bool fz_same_end(const fz_result *a, const fz_result *b);

/* A failed run over the trace set paths[0..n-1] must be bad input (exit 2)
 * naming one of the traces, with an offset unless the trace cannot be read,
 * or a deadlock listing between 1 and n blocked threads (each with its trace
 * and record); else fz_fail. */
void fz_check_set_error(const fz_result *res, char paths[][FZ_PATH], int n);

/* TOOL --merge (main: its main) on the parts in data, separated by lines
 * "#PART#" (at most FZ_MAX_PARTS): part K written as
 * p.TOOL_partial.K-of-N, the merge run into *res, the parts removed. A
 * failed merge must be a usage error (1) or bad input (2) naming one of the
 * parts; else fz_fail. The caller reads and removes the merge's outputs. */
enum { FZ_MAX_PARTS = 4 };
void fz_merge_parts(int (*main)(int argc, char **argv), const char *tool, const uint8_t *data, size_t size,
                    fz_result *res);

/* An invariant does not hold: print and abort. */
noreturn void fz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define FZ_CHECK(cond, ...) do { if (!(cond)) fz_fail(__VA_ARGS__); } while (0)

/* The text of a result ("file: offset: text"), for fz_fail messages. */
const char *fz_describe(const fz_result *res);

/* Removes from the n bytes at p the first line that begins with prefix (a
 * report's "# command: " line, which names the run's options); returns the
 * bytes left. */
size_t fz_drop_line(unsigned char *p, size_t n, const char *prefix);

/* Splits data at every occurrence of sep (sep_len bytes) into at most max
 * parts; returns the count (at least 1). part[i], len[i] point into data. */
int fz_split(const uint8_t *data, size_t n, const char *sep, size_t sep_len, int max,
             const uint8_t **part, size_t *len);

#endif
