/* partial.h — the partial results of sharded runs (--shard I/N, --merge),
 * the framing ciat's and cdat's share (formats/CIAT-PARTIAL.md,
 * formats/CDAT-PARTIAL.md, docs/sharding.md).
 *
 * A partial result is text, one record a line: a tag, a blank, its fields.
 * Its first records identify it: the format's magic and version with the
 * tool and the build's version, the part (I of N), the whole run's command
 * line (the run's options), --json, and every trace's size (the trace set).
 * partial_open reads them from every part given to --merge and refuses, by
 * name and with exit status 2, a file that is no partial result, one of
 * another tool or build, of another split (N), a part given twice or
 * missing, one of another run (command) or trace set; the tools read and
 * check the rest of the records side by side (partial_next, partial_expect,
 * partial_expect_alike). */
#ifndef DSM_COMMON_PARTIAL_H
#define DSM_COMMON_PARTIAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "out_file.h"

enum { PARTIAL_PART_MAX = 4096 };

/* --shard I/N: part i of n; NULL, or the reason the value is wrong. */
const char *partial_part_parse(const char *value, uint32_t *i, uint32_t *n);

/* The command line of the whole run a shard is part of: argv without its
 * --shard option (or -shard, as options.c takes it; options_command_line's
 * quoting). Caller frees. */
char *partial_whole_command(int argc, char **argv);

/* The partial result's file name: <prefix>.<tool>_partial.I-of-N. Caller frees. */
char *partial_file_path(const char *prefix_path, const char *tool, uint32_t i, uint32_t n);

/* The outputs' prefix of a merge: part path's name without
 * ".<tool>_partial.I-of-N", in out_dir when given (NULL: beside the part).
 * Exits 2 when the name has no such tail. Caller frees. */
char *partial_merge_prefix(const char *path, const char *tool, const char *out_dir);

/* --merge: the only options beside the parts are -o DIR and -q (the run's
 * options are in its parts); another is a usage error. */
void partial_merge_args(int argc, char **argv);
/* --merge -o DIR: DIR must be an existing directory (exit 2); NULL: none given. */
void partial_merge_out_dir(const char *out_dir);

/* ---- writing ---- */

/* The first records: format, tool and version, the part, the whole run's
 * command, --json, and every trace's size in bytes. */
void partial_begin(out_file *f, const char *tool, uint32_t i, uint32_t n, const char *command, bool json,
                   const char *const *paths, int ntraces);
/* "TAG [INDEX] V V …" (index < 0: none). */
void partial_u64s(out_file *f, const char *tag, long index, const uint64_t *v, size_t n);
/* One "TAG LINE" record per line of src (a temporary file written so far),
 * then src closed; `what` names its lines in the message of a read error. */
void partial_lines(out_file *f, FILE *src, const char *tag, const char *what);
/* "TAG TEXT"; text NULL: "TAG" alone. */
void partial_text(out_file *f, const char *tag, const char *text);

/* ---- reading ---- */

typedef struct partial_in partial_in;

/* One record of a part: its tag and the rest of the line (writable until
 * the next call). */
typedef struct partial_rec {
    const char *tag;
    char *rest;
} partial_rec;

/* Opens the parts given to --merge and reads their first records (up to
 * "traces"; the "trace" records follow): they must be the n parts 0..n-1 of
 * one run of tool, each once, written by this build. Exits 2 naming the file
 * otherwise. */
partial_in *partial_open(const char *tool, char **paths, int n);
int partial_parts(const partial_in *in);
const char *partial_path(const partial_in *in, int k);
const char *partial_command(const partial_in *in);     /* the whole run's command line */
bool partial_json(const partial_in *in);
int partial_traces(const partial_in *in);

/* The next record of part k; exits 2 at the end of the file ("ended
 * early") or on a read error. */
partial_rec partial_next(partial_in *in, int k);
/* The next record of part k, which must have the tag: its fields. */
char *partial_expect(partial_in *in, int k, const char *tag);
/* Part 0's record r0 read: the next record of every other part must be the
 * same, else exit 2 naming the part (not a part of the same run). */
void partial_expect_alike(partial_in *in, const partial_rec *r0);
/* Part k's record beside part 0's r (k 0: r itself): the same tag, else exit 2. */
partial_rec partial_beside(partial_in *in, int k, const partial_rec *r);
/* Stop with exit status 2: part k's current record is wrong (why). */
_Noreturn void partial_fail(const partial_in *in, int k, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Fields of a record (exit 2 naming the record when they are not n
 * numbers). */
void partial_parse_u64s(const partial_in *in, int k, const char *text, uint64_t *v, size_t n);
/* The n numbers that begin text, each followed by a blank (exit 2 with the
 * message `bad` when they are not): returns the blank after the last. */
const char *partial_lead_u64s(const partial_in *in, int k, const char *text, uint64_t *v, size_t n, const char *bad);
/* One unsigned decimal number at *s (moved past it); false when none. */
bool partial_u64(const char **s, uint64_t *v);

/* The records `tag` of every part, up to `end_tag` in each, in the order of
 * the nkey (1 or 2) numbers that begin them (each part's are in that order,
 * and a key is in one part only, or, equal in several parts, taken from the
 * lowest part first): put(ctx, part, text) for each, text its whole line (whole)
 * or what follows the keys. A key out of order stops the merge (key_name:
 * "KEY N again, or out of order", no key given twice; else out_of_order). */
typedef struct partial_sorted {
    const char *tag, *end_tag;
    int nkey;
    bool whole;
    const char *expected, *bad, *key_name, *out_of_order;
} partial_sorted;
void partial_merge_sorted(partial_in *in, const partial_sorted *sr, void (*put)(void *ctx, int part, const char *text),
                          void *ctx);

void partial_close(partial_in *in);

#endif
