/* record.h — one line of an event trace as tdat sees it (docs/tdat.md).
 *
 * A line is a list of fields separated by blanks and tabs. tdat needs only
 * the clock field (a decimal unsigned 64-bit number, parsed here without
 * scanf, overflow detected) and the fields named by the -f N=VALUE filters
 * (compared as strings). Kept apart from tdat.c so the unit tests can reach
 * the parser and the field lookup. */
#ifndef DSM_TDAT_RECORD_H
#define DSM_TDAT_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Largest field number of -c N and -f N=VALUE. */
enum { REC_MAX_FIELD = 65535 };

/* The longest line tdat reads, 1 MiB (lines of event traces are short; this
 * leaves room for 65535 fields): a longer one is refused before it is
 * buffered whole. */
enum { REC_MAX_LINE = 1 << 20 };

/* What rec_parse_u64 found. */
typedef enum rec_num {
    REC_NUM_OK,         /* digits only, fits in 64 bits */
    REC_NUM_BAD,        /* empty, or a character other than 0-9 */
    REC_NUM_OVERFLOW    /* digits only, but more than 18446744073709551615 */
} rec_num;

/* Parses s[0, n) as a decimal unsigned integer (leading zeros allowed; no
 * sign, blank, "0x" or suffix). *out is set only for REC_NUM_OK. */
rec_num rec_parse_u64(const char *s, size_t n, uint64_t *out);

/* Line kinds that are skipped everywhere: blank (only blanks and tabs) and
 * comment (first non-blank character '#'). *first (when not NULL) gets the
 * first non-blank character. */
typedef enum rec_kind { REC_BLANK, REC_COMMENT, REC_FIELDS } rec_kind;
rec_kind rec_classify(const char *line, const char **first);

/* Field n (1-based) of the NUL-terminated line: true with its start and
 * length, false when the line has fewer than n fields. */
bool rec_field(const char *line, unsigned n, const char **start, size_t *len);
/* Number of fields of the line. */
unsigned rec_field_count(const char *line);

/* -f N=VALUE: a record is kept when every filter's field N exists and equals
 * VALUE exactly (a line without field N does not match). */
typedef struct rec_filter {
    unsigned field;         /* 1-based */
    const char *value;      /* not empty, no blank or tab */
    size_t len;
} rec_filter;

/* Parses "N=VALUE" into f (value points into text). NULL when fine, else a
 * reason for the usage error. */
const char *rec_filter_parse(const char *text, rec_filter *f);
bool rec_filters_match(const char *line, const rec_filter *f, size_t n);

#endif
