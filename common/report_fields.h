/* report_fields.h — the grammar of report lines, shared by the JSON form of
 * the reports (report_json) and smait diff (docs/json.md, "Fields").
 *
 * A report line is "R<r>T<t>L<ll>: <name> <fields>" (ciat, cdat) or
 * "<name> <fields>" (tdat's frequency file); its fields are tokens between
 * single blanks, each one of the kinds below. */
#ifndef DSM_COMMON_REPORT_FIELDS_H
#define DSM_COMMON_REPORT_FIELDS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* The x of a tag: every phase (r = x), every thread (t = x). */
enum { REPORT_ALL_PHASES = -1 };
enum { REPORT_ALL_THREADS = INT_MIN };

typedef enum rf_kind {
    RF_WORD,        /* anything else: a key, a label or a value in words */
    RF_INT,         /* [-]digits */
    RF_DEC,         /* [-]digits.digits */
    RF_PCT,         /* [-]digits.digits% */
    RF_BIN          /* digits[-digits]:digits, a histogram entry */
} rf_kind;

rf_kind rf_classify(const char *tok, size_t len);
/* A number (RF_INT, RF_DEC, RF_PCT): what a key's value is made of. */
static inline bool rf_is_value(rf_kind k) { return k == RF_INT || k == RF_DEC || k == RF_PCT; }

/* The tag of a line: phase (REPORT_ALL_PHASES for x), thread
 * (REPORT_ALL_THREADS for x), level and where the name starts; false when
 * line has no tag. */
typedef struct rf_tag {
    int phase, thread, level;
    size_t len;             /* of "R..T..L..", without ": " */
} rf_tag;
bool rf_parse_tag(const char *line, rf_tag *tag, const char **rest);

/* The next token of *p (leading blanks skipped): start and length, or false
 * at the end. */
bool rf_next(const char **p, const char **tok, size_t *len);

#endif
