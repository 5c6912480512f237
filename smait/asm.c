/* asm.c — `smait asm`: the text form (formats/SMAIT-TEXT.md) to binary traces.
 *
 * A text without thread sections becomes one trace file. With `thread N`
 * sections (and optionally `threads P`) it becomes a trace set OUT.P.0 …
 * OUT.P.(P-1). `repeat N` … `end` blocks repeat their lines and nest.
 *
 * The work is bounded before any of it is done: lines are at most
 * SMAIT_TEXT_LINE_MAX characters (refused while reading, before they are
 * buffered), and pass 1 counts the lines the repeat blocks expand to, refusing
 * a text beyond SMAIT_TEXT_MAX_EXPANDED. Blank and comment lines are dropped
 * as they are read, and a block with nothing in it is never iterated, so pass
 * 2 does work in proportion to that count. */
#include "smait_cmd.h"
#include "../base/diag.h"
#include "../base/line_reader.h"
#include "../common/out_file.h"
#include "../formats/smait_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct text_line {
    char *text;
    uint64_t lineno;
    size_t end;             /* a repeat line: the index of its matching end */
} text_line;

typedef struct assembler {
    const char *path;
    text_line *lines;       /* the lines that hold words (no blank or comment lines) */
    size_t nlines;
    uint64_t last_lineno;   /* of the text's last line, blank or not */
    smait_order order;
    bool order_fixed;       /* given on the command line */
    bool records_seen;
    int threads;            /* 0 = single-file mode */
    out_file **out;
    int current;            /* thread whose section we are in (0 in single mode) */
} assembler;

static noreturn void text_error(const assembler *a, uint64_t lineno, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static noreturn void text_error(const assembler *a, uint64_t lineno, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_data_error(a->path, DIAG_NO_OFFSET, "line %llu: %s", (unsigned long long)lineno, msg);
}

/* Words of line i (a scratch copy). */
static int words_of(const assembler *a, size_t i, char *scratch, size_t cap, char **w, int max)
{
    if (strlen(a->lines[i].text) >= cap) text_error(a, a->lines[i].lineno, "line too long");
    strcpy(scratch, a->lines[i].text);
    return smait_text_words(scratch, w, max);
}

static int thread_number(const assembler *a, size_t i, const char *s, int lo)
{
    uint32_t v;
    if (smait_text_u32(s, &v) || v > 65536 || (int)v < lo)
        text_error(a, a->lines[i].lineno, "bad thread number '%s'", s);
    return (int)v;
}

/* The count of a repeat line. */
static uint32_t repeat_count(const assembler *a, size_t i, char **w, int n)
{
    uint32_t count;
    if (n != 2 || smait_text_u32(w[1], &count)) text_error(a, a->lines[i].lineno, "'repeat' takes a count");
    return count;
}

/* Pass 1: find the thread sections, check the block structure, pair each
 * repeat with its end and bound the expansion: every line but an end counts
 * once per time pass 2 assembles it, the product of the counts of the blocks
 * around it (saturating just past the limit, so nothing overflows). */
static void scan(assembler *a)
{
    int depth = 0, max_thread = -1, declared = 0;
    uint64_t max_line = 0;      /* line of the section with the largest number */
    char buf[1024], *w[4];
    size_t *open = NULL;        /* the open repeat lines, innermost last */
    uint64_t *mult = NULL;      /* the times a line inside each of them is assembled */
    size_t cap = 0;
    uint64_t times = 1, expanded = 0;
    for (size_t i = 0; i < a->nlines; i++) {
        int n = words_of(a, i, buf, sizeof buf, w, 4);
        uint64_t ln = a->lines[i].lineno;
        if (strcmp(w[0], "end") == 0) {     /* pass 2 skips it: it does not count */
            if (--depth < 0) text_error(a, ln, "'end' without 'repeat'");
            a->lines[open[depth]].end = i;
            times = depth ? mult[depth - 1] : 1;
            continue;
        }
        expanded += times;
        if (expanded > SMAIT_TEXT_MAX_EXPANDED)
            text_error(a, ln, "the text expands to more than %llu lines (each line counts once per"
                       " repetition of the repeat blocks around it)",
                       (unsigned long long)SMAIT_TEXT_MAX_EXPANDED);
        if (strcmp(w[0], "repeat") == 0) {
            uint64_t count = repeat_count(a, i, w, n);
            size_t had = cap;
            cap = xgrow((void **)&open, cap, (size_t)depth + 1, sizeof *open);
            if (cap != had) mult = xrealloc(mult, cap * sizeof *mult);
            open[depth] = i;
            /* times * count, at most SMAIT_TEXT_MAX_EXPANDED + 1 */
            times = count && times > (SMAIT_TEXT_MAX_EXPANDED + 1) / count ? SMAIT_TEXT_MAX_EXPANDED + 1
                    : times * count;
            mult[depth++] = times;
        } else if (strcmp(w[0], "thread") == 0) {
            if (n != 2) text_error(a, ln, "'thread' takes one number");
            if (depth) text_error(a, ln, "'thread' inside a repeat block");
            int t = thread_number(a, i, w[1], 0);
            if (t > max_thread) {
                max_thread = t;
                max_line = ln;
            }
        } else if (strcmp(w[0], "threads") == 0) {
            if (n != 2) text_error(a, ln, "'threads' takes one number");
            if (declared) text_error(a, ln, "'threads' given twice");
            declared = thread_number(a, i, w[1], 1);
        }
    }
    free(open);
    free(mult);
    if (depth) text_error(a, a->last_lineno, "%d 'repeat' block(s) not closed with 'end'", depth);
    if (declared && max_thread >= declared)
        text_error(a, max_line, "section 'thread %d' but 'threads %d'", max_thread, declared);
    a->threads = declared ? declared : max_thread + 1;
}

static void emit(assembler *a, const smait_raw *recs, int n, uint64_t ln)
{
    if (a->threads && a->current < 0)
        text_error(a, ln, "record before the first 'thread' section");
    int t = a->threads ? a->current : 0;
    unsigned char bytes[8 * SMAIT_CALL_PARTS];
    for (int i = 0; i < n; i++)
        smait_store_raw(bytes + 8 * i, recs[i], a->order);
    out_file_write(a->out[t], bytes, 8 * (size_t)n);
    a->records_seen = true;
}

/* Pass 2: assemble lines [from, to) `times` times. Returns nothing; nested
 * repeats recurse. An empty block is not iterated: its lines would not count
 * in pass 1's bound. */
static void run(assembler *a, size_t from, size_t to, uint64_t times)
{
    char buf[1024], *w[4];
    if (from == to) return;
    for (uint64_t rep = 0; rep < times; rep++) {
        for (size_t i = from; i < to; i++) {
            int n = words_of(a, i, buf, sizeof buf, w, 4);
            uint64_t ln = a->lines[i].lineno;
            if (strcmp(w[0], "repeat") == 0) {
                size_t j = a->lines[i].end;
                run(a, i + 1, j, repeat_count(a, i, w, n));
                i = j;
            } else if (strcmp(w[0], "thread") == 0) {
                a->current = thread_number(a, i, w[1], 0);
            } else if (strcmp(w[0], "threads") == 0) {
                continue;
            } else if (strcmp(w[0], "byteorder") == 0) {
                smait_order o;
                if (n != 2 || smait_order_parse(w[1], &o) || o == SMAIT_ORDER_AUTO)
                    text_error(a, ln, "'byteorder' takes little or big");
                if (a->records_seen && o != a->order)
                    text_error(a, ln, "'byteorder' after the first record");
                if (!a->order_fixed) a->order = o;
            } else {
                smait_raw recs[SMAIT_CALL_PARTS];
                char err[256];
                int k = smait_text_parse(a->lines[i].text, recs, err, sizeof err);
                if (k < 0) text_error(a, ln, "%s", err);
                emit(a, recs, k, ln);
            }
        }
    }
}

int smait_asm(const char *text_path, const char *out, smait_order order)
{
    assembler a = { .path = text_path, .order = SMAIT_ORDER_LITTLE, .current = -1 };
    if (order != SMAIT_ORDER_AUTO) {
        a.order = order;
        a.order_fixed = true;
    }
    line_reader *lr = line_reader_open(text_path);
    line_reader_set_max(lr, SMAIT_TEXT_LINE_MAX);
    size_t cap = 0;
    char *line, scratch[SMAIT_TEXT_LINE_MAX + 1], *w[1];
    while ((line = line_reader_next(lr, NULL)) != NULL) {
        a.last_lineno = line_reader_lineno(lr);
        strcpy(scratch, line);
        if (smait_text_words(scratch, w, 1) == 0) continue;    /* blank or comment only */
        cap = xgrow((void **)&a.lines, cap, a.nlines + 1, sizeof *a.lines);
        a.lines[a.nlines].text = xstrdup(line);
        a.lines[a.nlines].lineno = a.last_lineno;
        a.lines[a.nlines].end = 0;
        a.nlines++;
    }
    line_reader_close(lr);
    scan(&a);
    int files = a.threads ? a.threads : 1;
    a.out = xcalloc((size_t)files, sizeof *a.out);
    /* OUT '-': standard output holds one trace, so one thread at most. */
    bool to_stdout = strcmp(out, "-") == 0;
    if (to_stdout && files > 1)
        diag_usage_error("OUT '-' (standard output) takes one trace, but %s has %d thread sections:"
                         " give a name (OUT.%d.0 ... OUT.%d.%d are written)", text_path, files, files, files, files - 1);
    if (to_stdout && isatty(STDOUT_FILENO))
        diag_usage_error("OUT '-': standard output is a terminal; redirect it (> FILE, | smait dump -)");
    for (int t = 0; t < files; t++) {
        if (to_stdout) {
            a.out[t] = out_file_open_stdout();
        } else if (a.threads) {
            size_t n = strlen(out) + 32;
            char *p = xmalloc(n);
            snprintf(p, n, "%s.%d.%d", out, a.threads, t);
            a.out[t] = out_file_open(p, false);
            free(p);
        } else {
            a.out[t] = out_file_open(out, false);
        }
    }
    run(&a, 0, a.nlines, 1);
    out_file_commit_all();     /* every thread's trace, or none */
    for (size_t i = 0; i < a.nlines; i++) free(a.lines[i].text);
    free(a.lines);
    free(a.out);
    return EXIT_OK;
}
