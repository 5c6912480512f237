/* line_reader.h — text input line by line (plain, gzip or stdin, via byte_source).
 *
 * Lines of any length; the trailing newline (and a CR before it) is removed.
 * Used for list files, the smait text form and tdat's event traces. */
#ifndef DSM_COMMON_LINE_READER_H
#define DSM_COMMON_LINE_READER_H

#include <stddef.h>
#include <stdint.h>

typedef struct line_reader line_reader;

/* Opens path ("-" = stdin); exits with status 2 when it cannot be read. */
line_reader *line_reader_open(const char *path);
/* Next line (NUL-terminated, writable until the next call), or NULL at the end.
 * *len gets its length when len is not NULL. A read error exits with status 2. */
char *line_reader_next(line_reader *r, size_t *len);
uint64_t line_reader_lineno(const line_reader *r);   /* 1-based number of the last line */
const char *line_reader_path(const line_reader *r);
void line_reader_close(line_reader *r);

#endif
