/* out_file.h — output files that appear only when complete (SPEC §3).
 *
 * out_file_open writes to a temporary name in the target's directory;
 * out_file_commit renames it into place. Until then a fatal error, a signal
 * (INT, TERM, HUP, PIPE) or out_file_abort_all removes the temporary, so a
 * failed run never leaves a truncated file and never damages an earlier one. */
#ifndef DSM_COMMON_OUT_FILE_H
#define DSM_COMMON_OUT_FILE_H

#include <stdbool.h>
#include <stdio.h>

typedef struct out_file out_file;

/* Opens PATH for writing ("-" = standard output, written directly). With
 * gzip true the content is gzip-compressed (out_file_gz gives the handle).
 * Exits with status 2 if the directory is not writable. */
out_file *out_file_open(const char *path, bool gzip);

/* The stdio stream to write to (NULL for gzip files). */
FILE *out_file_stream(out_file *f);
/* Write bytes (works for plain and gzip files). */
void out_file_write(out_file *f, const void *buf, size_t n);
void out_file_printf(out_file *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *out_file_path(const out_file *f);

/* Flush, check for write errors, rename into place, free. Exits 2 on error. */
void out_file_commit(out_file *f);
/* Remove the temporary, free. */
void out_file_abort(out_file *f);
/* Remove every temporary still open (called by diag_fatal and signal handlers). */
void out_file_abort_all(void);

#endif
