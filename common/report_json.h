/* report_json.h — the JSON form of a report (--json; docs/json.md).
 *
 * One document per report: the format name and version, the tool, the
 * header lines as strings and every report line as an object with its tag,
 * name, text and fields (report_fields.h: the fields grammar). It is made
 * from the report's text lines, so the two cannot say different things. */
#ifndef DSM_COMMON_REPORT_JSON_H
#define DSM_COMMON_REPORT_JSON_H

#include "out_file.h"

/* The version of the document's layout (the "version" member). */
enum { REPORT_JSON_VERSION = 1 };

typedef struct report_json report_json;

/* Starts the document in f for a report of tool. */
report_json *report_json_begin(out_file *f, const char *tool);
/* A header line, without its '#' (and one blank after it); all before the
 * first report_json_line. */
void report_json_header(report_json *j, const char *text);
/* A report line (without its newline). */
void report_json_line(report_json *j, const char *line);
/* Ends the document and frees j (f stays open). */
void report_json_end(report_json *j);

/* A whole text report (header lines start with '#', the others are report
 * lines) as a JSON document into f. */
void report_json_text(out_file *f, const char *tool, const char *text, size_t len);

/* s as a JSON string (quotes included) into f: control characters and bytes
 * that are not UTF-8 escaped as \u00XX. */
void report_json_string(out_file *f, const char *s, size_t len);

#endif
