/* out_file.h — a run's output files appear together and only when complete
 * (README, "Exit status and messages").
 *
 * out_file_open writes to a temporary name beside the target,
 * "<target>.tmp.<pid>.<host tag>.XXXXXX". out_file_commit_all then makes
 * every output of the run appear at once, all or nothing:
 *   1. each temporary is flushed and closed, its write errors checked (a full
 *      disk, a quota, a file size limit);
 *   2. under an exclusive lock on each output directory, an existing target is
 *      linked to a backup name, then every temporary is renamed over its target;
 *   3. the backups are removed.
 * A failure in 1 removes every temporary; a failure in 2 also puts the
 * backups back (a target that did not exist is removed again): the earlier
 * outputs stay as they were, byte for byte. Outputs are not fsync'ed: a full
 * disk or quota is reported by write and close on local file systems (and by
 * close on NFS); fsync would add the wait for the disk to every run (a
 * large share of the time of a run that writes gigabytes) for a guarantee
 * against system crashes that nothing here promises.
 *
 * Until then a fatal error (the cleanup hook out_file registers with
 * diag_on_fatal, base/diag.h), a signal (INT, TERM, HUP, PIPE) or
 * out_file_abort_all removes the temporaries. A run killed outright (SIGKILL)
 * leaves them behind: the next out_file_open into the same directory removes
 * those whose process is gone (same host tag, kill(pid, 0) says no such
 * process); temporaries of a live run, of another host or of other programs
 * are never touched.
 *
 * Two runs committing into one directory at the same time take turns (the
 * lock), so the directory ends up with the complete set of one of them,
 * never a mix. */
#ifndef DSM_COMMON_OUT_FILE_H
#define DSM_COMMON_OUT_FILE_H

#include <stdbool.h>
#include <stdio.h>

typedef struct out_file out_file;

/* Opens PATH for writing ("-" = standard output, written directly). With
 * gzip true the content is gzip-compressed (write with out_file_write or
 * out_file_printf).
 * Exits with status 2 if the directory is not writable. */
out_file *out_file_open(const char *path, bool gzip);
/* The same for any of the formats the readers take (zstd: level 3, with a
 * content checksum). */
typedef enum out_format { OUT_PLAIN, OUT_GZIP, OUT_ZSTD } out_format;
out_file *out_file_open_format(const char *path, out_format format);

/* Standard output as one of the run's outputs: what is written to it is held
 * in memory and given to standard output by out_file_commit_all. When
 * standard output is a regular file it is written before the renames and cut
 * back to its length at the start if anything fails, so it is part of the
 * all-or-nothing commit; otherwise (a pipe, a terminal) it is written after
 * the files are in place, so a failed run never shows a complete-looking
 * output there. */
out_file *out_file_open_stdout(void);

/* The stdio stream to write to (NULL for gzip and zstd files). */
FILE *out_file_stream(out_file *f);
/* Write bytes (works for every format). */
void out_file_write(out_file *f, const void *buf, size_t n);
void out_file_printf(out_file *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *out_file_path(const out_file *f);
/* s as XML character data: & < > escaped, a control character as a blank
 * (the titles of ciat's SVG pictures). */
void out_file_xml_text(out_file *f, const char *s);

/* Commit every output still open (in the order opened) as described above,
 * and free them. Exits 2 on error, having removed every temporary and kept
 * every earlier output. */
void out_file_commit_all(void);
/* The same for f alone. */
void out_file_commit(out_file *f);
/* Remove the temporary, free. */
void out_file_abort(out_file *f);
/* Remove every temporary still open, close and free (what a fatal error
 * under a trap does, base/diag.h). */
void out_file_abort_all(void);

#endif
