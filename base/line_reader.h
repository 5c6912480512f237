/* line_reader.h — text input line by line (plain, gzip or stdin, via byte_source).
 *
 * Lines of any length, or up to a maximum (line_reader_set_max); the trailing
 * newline (and a CR before it) is removed. A line holding a NUL byte is an
 * error (exit 2, "PATH: line N: a NUL byte (not a text file?)"; the try_
 * functions return it instead).
 * Used for list files, the smait text form and tdat's event traces. */
#ifndef DSM_BASE_LINE_READER_H
#define DSM_BASE_LINE_READER_H

#include <stddef.h>
#include <stdint.h>

typedef struct line_reader line_reader;

/* Opens path ("-" = stdin); exits with status 2 when it cannot be read
 * ("PATH: cannot read: reason"). */
line_reader *line_reader_open(const char *path);
/* Next line (NUL-terminated, writable until the next call), or NULL at the end.
 * *len gets its length when len is not NULL. A read error exits with status 2
 * ("PATH: line N: reason"). */
char *line_reader_next(line_reader *r, size_t *len);

/* The same without exiting, for readers that return their errors (formats/):
 * line_reader_try_open gives NULL with the reason in *why (byte_source_open's);
 * line_reader_try_next gives NULL at the end or on an error, which
 * line_reader_error then describes ("line N: reason", the text
 * line_reader_next would print after "PATH: "; NULL at the end). After an
 * error every call gives NULL. */
line_reader *line_reader_try_open(const char *path, const char **why);
char *line_reader_try_next(line_reader *r, size_t *len);
const char *line_reader_error(const line_reader *r);
uint64_t line_reader_lineno(const line_reader *r);   /* 1-based number of the last line */
const char *line_reader_path(const line_reader *r);
/* Refuse lines of more than max characters (without the line end): the call
 * of line_reader_next that meets one exits with status 2, "PATH: line N:
 * longer than MAX characters", having buffered at most about 2·max + 192 KiB.
 * 0 (the default) allows any length. */
void line_reader_set_max(line_reader *r, size_t max);
void line_reader_close(line_reader *r);

#endif
