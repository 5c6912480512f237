/* diag.h — messages and exit statuses shared by every tool (README.md, "Exit status and messages").
 *
 * Messages go to stderr as "tool: file: offset: reason". A fatal error first
 * runs the cleanup hooks registered with diag_on_fatal (common/out_file's
 * removes every unfinished output file), then exits. diag calls nothing
 * above it: what must be undone on the way out is registered from above. */
#ifndef DSM_BASE_DIAG_H
#define DSM_BASE_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdnoreturn.h>

enum {
    EXIT_OK = 0,
    EXIT_USAGE = 1,     /* bad command line */
    EXIT_DATA = 2,      /* bad input or data */
    EXIT_INTERNAL = 3   /* out of memory or internal error */
};

/* Set once by main(); prefixes every message. */
void diag_set_tool(const char *name);
const char *diag_tool(void);

/* Sentinel for "no offset" in the calls below. */
#define DIAG_NO_OFFSET UINT64_MAX

/* "tool: file: offset: reason" (file and offset left out when NULL / DIAG_NO_OFFSET). */
void diag_vmessage(const char *file, uint64_t offset, const char *fmt, va_list ap);
void diag_warn(const char *file, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* --lenient warnings, by kind (README.md, "Exit status and messages"). Of
 * each kind the first DIAG_LENIENT_SHOWN are printed as warnings (with the
 * next one a note that the rest are only counted); diag_lenient_summary
 * then prints one line with the count of every kind that happened:
 *     ciat: --lenient: 1234 bad records skipped (10 shown), 3 bad unlocks ignored
 * Callers pass the warning's text; the kind only counts it. Thread-safe. */
typedef enum diag_lenient_kind {
    DIAG_LENIENT_BAD_RECORD,    /* an invalid record or malformed call record skipped */
    DIAG_LENIENT_TRUNCATED,     /* the 1..7 bytes of a truncated final record dropped */
    DIAG_LENIENT_STREAM,        /* a compressed stream broken: its trace ends there */
    DIAG_LENIENT_CUT,           /* a cut trace (no end_trace) read to its last record */
    DIAG_LENIENT_CALLS,         /* a call trace not paired to its end */
    DIAG_LENIENT_BAD_UNLOCK,    /* a section ended on a lock not held: ignored */
    DIAG_LENIENT_DUP_RELEASE,   /* a release replayed a second time: ignored */
    DIAG_LENIENT_DEADLOCK,      /* a deadlock: blocked threads released */
    DIAG_LENIENT_KINDS
} diag_lenient_kind;
enum { DIAG_LENIENT_SHOWN = 10 };
void diag_lenient(diag_lenient_kind kind, const char *file, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* How many of a kind so far. */
uint64_t diag_lenient_count(diag_lenient_kind kind);
/* The summary line, when any kind happened (else nothing); the counts stay. */
void diag_lenient_summary(void);
/* Every count back to 0 (for code that runs a tool's work more than once in
 * one process: the unit tests; diag_set_trap does it for the harnesses). */
void diag_lenient_reset(void);

/* Print, run the cleanup hooks (removing unfinished outputs), exit with the given status. */
noreturn void diag_fatal(int status, const char *file, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Shorthands: bad input data (2) and usage (1, followed by a hint to --help). */
noreturn void diag_data_error(const char *file, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
noreturn void diag_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The exit status of a usage error from now on (EXIT_USAGE unless set):
 * smait diff exits 2 on one, as diff(1) does, so that 1 means "different". */
void diag_set_usage_status(int status);

/* Cleanup on a fatal error: a module that leaves something behind when a run
 * ends half way registers a hook (common/out_file: its unfinished outputs).
 * A fatal error runs every hook, in the order registered, after its
 * message:
 *   DIAG_CLEANUP_EXIT    the process ends right after (_exit). Other threads
 *                        may still be at work with what the module owns, so
 *                        the hook only undoes what would outlive the process
 *                        (removes files): it closes and frees nothing, and
 *                        takes no lock.
 *   DIAG_CLEANUP_UNWIND  a trap (below) unwinds the run next, on the one
 *                        thread there is: the hook also closes and frees.
 * Registering a hook again does nothing; at most DIAG_CLEANUP_HOOKS hooks.
 * Thread-safe. */
typedef enum diag_cleanup { DIAG_CLEANUP_EXIT, DIAG_CLEANUP_UNWIND } diag_cleanup;
typedef void (*diag_cleanup_hook)(diag_cleanup how);
enum { DIAG_CLEANUP_HOOKS = 8 };
void diag_on_fatal(diag_cleanup_hook hook);

/* Test-only: a trap for the fuzzing harnesses (fuzz/), which run a tool's code
 * many times in one process. With a trap set, messages and warnings go to
 * `message` (the text without "tool: ", file or offset, and without the
 * newline) instead of stderr, and a fatal error, after running the
 * cleanup hooks (DIAG_CLEANUP_UNWIND), calls `fatal`, which must not return (it
 * longjmps back into the harness). A trap function that is NULL, or a `fatal`
 * that returns, leaves the normal behaviour. The tools never set a trap. */
typedef struct diag_trap diag_trap;
struct diag_trap {
    void (*message)(diag_trap *trap, const char *file, uint64_t offset, bool warning, const char *text);
    void (*fatal)(diag_trap *trap, int status);
};
/* NULL: print and exit, as without a trap. Setting or clearing a trap also
 * sets the --lenient counts back to 0 (each trapped run counts its own). */
void diag_set_trap(diag_trap *trap);
/* A trap with a fatal function is set: a fatal error unwinds the calling
 * thread alone, so nothing may run on another thread (common/fanout.h). */
bool diag_trapped(void);

/* Allocation that never returns NULL (exit 3 instead). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* xcalloc in whole 64-byte cache lines of their own (free with free): for
 * state one thread writes all the time while another thread works beside it
 * (common/fanout.h), which must share no line with the other's. */
void *xcalloc_lines(size_t n, size_t size);
char *xstrdup(const char *s);
/* Grow-array helper: returns new capacity >= need, reallocating *p. */
size_t xgrow(void **p, size_t cap, size_t need, size_t elem);

#endif
