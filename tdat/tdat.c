/* tdat.c — Time Distribution Analysis Tool (docs/tdat.md).
 *
 *   tdat [options] event_trace time_file bin_width p > freq_file
 *
 * One pass over a text event trace (ciat's <prefix>.ciat_events, cdat's
 * general or detailed traces, any file whose records carry a clock field):
 * events are counted per clock bin (bins.c) in a growable array, so memory
 * depends on the largest clock / bin width, not on the number of events.
 * Then the time file (one line per bin), the frequency file on stdout
 * (summary, density and distribution of the bin rate: distrib.c) and, with
 * --svg, a picture (svg.c). Nothing is printed before the input has been
 * read without error; the time file and the SVG are temporaries until the
 * end, the frequency file is held in memory, and all three appear together
 * (out_file_commit_all) or not at all. */
#include "bins.h"
#include "distrib.h"
#include "record.h"
#include "svg.h"
#include "../common/diag.h"
#include "../common/line_reader.h"
#include "../common/options.h"
#include "../common/out_file.h"
#include "../common/version.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage_text[] =
    "Usage: tdat [options] event_trace time_file bin_width p > freq_file\n"
    "\n"
    "Time distribution of the events of a text trace (ciat's <prefix>.ciat_events,\n"
    "cdat's general and detailed traces, or any file with a clock field): counts\n"
    "the events in bins of bin_width clocks, bin i covering [i*w, (i+1)*w), from\n"
    "bin 0 to the bin of the largest clock (empty bins included; clocks need not\n"
    "be sorted), and writes\n"
    "  time_file  one line per bin: <bin start clock> <events>\n"
    "  stdout     '#' header, events, bins, bin_width, processors, avg_rate,\n"
    "             min_rate, max_rate, stddev of the bin rate (events per bin / p),\n"
    "             then per class 'density <lo> <hi> <bins> <fraction>' and\n"
    "             'distribution <hi> <cumulative fraction>'.\n"
    "event_trace may be plain, gzip-compressed or '-' (standard input).\n"
    "Blank lines and '#' lines are skipped; so are the lines before the first\n"
    "line whose clock field is an unsigned integer (a header). After that, a\n"
    "line whose clock field is missing or not an unsigned integer is an error\n"
    "(--lenient: skipped and counted). Clocks are decimal, at most 2^64-1. At most\n"
    "16777216 bins unless --max-bins says otherwise: a clock beyond the last bin\n"
    "stops tdat with the smallest bin width that would do. Lines are at most\n"
    "1048576 characters. Details: docs/tdat.md.\n"
    "Exit status: 0 ok, 1 usage error, 2 bad input, 3 internal error.\n";

typedef struct tdat_options {
    uint64_t classes;
    uint64_t clock_field;
    uint64_t max_bins;
    bool lenient;
    const char *svg;
    rec_filter *filters;
    size_t nfilters;
} tdat_options;

/* What is allocated while the run can still fail, at file scope: a fatal
 * error exits from deep inside the run, and LeakSanitizer must find these
 * reachable. volatile: the compiler would drop a variable only written to. */
static line_reader *volatile input_reader;
static bins counts;
static uint64_t *volatile class_hist;

/* What the pass over the input saw. */
typedef struct tdat_counts {
    uint64_t lines, blank, comment, header, bad, filtered;
    uint64_t first_bad;         /* line number of the first bad line (--lenient) */
} tdat_counts;

static const char *add_filter(void *target, const char *value)
{
    tdat_options *o = target;
    rec_filter f;
    const char *why = rec_filter_parse(value, &f);
    if (why) return why;
    o->filters = xrealloc(o->filters, (o->nfilters + 1) * sizeof *o->filters);
    o->filters[o->nfilters++] = f;
    return NULL;
}

/* bin_width and p: positive integers (docs/tdat.md: 0 is a usage error). */
static uint64_t positive_operand(const char *what, const char *text)
{
    uint64_t v;
    rec_num r = rec_parse_u64(text, strlen(text), &v);
    if (r == REC_NUM_BAD) diag_usage_error("%s '%s' is not a positive integer", what, text);
    if (r == REC_NUM_OVERFLOW) diag_usage_error("%s '%s' is larger than %" PRIu64, what, text, UINT64_MAX);
    if (v == 0) diag_usage_error("%s must be at least 1, not 0", what);
    return v;
}

/* An output must not replace the input or a device (out_file renames a
 * temporary over it: over /dev/null, that would be a disaster). */
static void check_output(const char *what, const char *path, const char *input)
{
    if (strcmp(path, "-") == 0)
        diag_usage_error("the %s cannot be '-': standard output carries the frequency file", what);
    struct stat out, in;
    if (stat(path, &out) != 0) return;
    if (!S_ISREG(out.st_mode))
        diag_usage_error("%s %s is not a regular file (outputs are written to a temporary file"
                         " and renamed into place)", what, path);
    if (strcmp(input, "-") != 0 && stat(input, &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
        diag_usage_error("%s %s is the event trace itself", what, path);
}

/* A field for a message: at most 40 characters, control characters as '?'. */
static void quote_field(char *buf, size_t cap, const char *s, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k + 4 < cap; i++) {
        if (i == 40) {
            memcpy(buf + k, "...", 3);
            k += 3;
            break;
        }
        buf[k++] = (unsigned char)s[i] < 0x20 ? '?' : s[i];
    }
    buf[k] = '\0';
}

/* A line whose clock field is bad: an error, or skipped and counted. */
static void bad_clock(line_reader *lr, const tdat_options *o, tdat_counts *c, const char *line,
                      const char *field, size_t len, rec_num why)
{
    uint64_t lineno = line_reader_lineno(lr);
    if (o->lenient) {
        if (c->bad++ == 0) c->first_bad = lineno;
        return;
    }
    const char *path = line_reader_path(lr);
    char q[64];
    if (!field)
        diag_data_error(path, DIAG_NO_OFFSET, "line %" PRIu64 ": no clock field %" PRIu64 " (the line has %u"
                        " field%s; --lenient skips such lines)", lineno, o->clock_field,
                        rec_field_count(line), rec_field_count(line) == 1 ? "" : "s");
    quote_field(q, sizeof q, field, len);
    if (why == REC_NUM_OVERFLOW)
        diag_data_error(path, DIAG_NO_OFFSET, "line %" PRIu64 ": clock %s is larger than %" PRIu64
                        " (--lenient skips such lines)", lineno, q, UINT64_MAX);
    diag_data_error(path, DIAG_NO_OFFSET, "line %" PRIu64 ": clock field %" PRIu64 " is not an unsigned"
                    " integer: '%s' (--lenient skips such lines)", lineno, o->clock_field, q);
}

/* A clock beyond the last bin allowed: what would do instead, a wider bin
 * or (when it can go that high) a higher --max-bins. */
static noreturn void too_many_bins(const line_reader *lr, const bins *b, uint64_t clock)
{
    uint64_t bin = bins_index(b, clock), w = bins_width_for(clock, b->max);
    char wider[80] = "", raise[128] = "";
    if (w) snprintf(wider, sizeof wider, "use a bin width of at least %" PRIu64, w);
    else snprintf(wider, sizeof wider, "no bin width puts it in bin 0: give --max-bins 2 or more");
    if (bin < BINS_MAX_LIMIT)
        snprintf(raise, sizeof raise, "%sraise the limit with --max-bins %" PRIu64 " (the time file has a line"
                 " per bin)", w ? ", or " : "", bin + 1);
    diag_data_error(line_reader_path(lr), DIAG_NO_OFFSET, "line %" PRIu64 ": clock %" PRIu64 " falls in bin %"
                    PRIu64 ", beyond the limit of %" PRIu64 " bin%s; %s%s", line_reader_lineno(lr), clock, bin,
                    b->max, b->max == 1 ? "" : "s", wider, raise);
}

/* The pass over the input: every kept event counted into b. */
static void read_events(const char *path, const tdat_options *o, bins *b, tdat_counts *c)
{
    line_reader *lr = input_reader = line_reader_open(path);
    line_reader_set_max(lr, REC_MAX_LINE);
    unsigned cf = (unsigned)o->clock_field;
    bool seen_data = false;
    char *line;
    while ((line = line_reader_next(lr, NULL)) != NULL) {
        c->lines++;
        const char *p;
        rec_kind k = rec_classify(line, &p);
        if (k != REC_FIELDS) {
            if (k == REC_BLANK) c->blank++;
            else c->comment++;
            continue;
        }
        const char *field = NULL;     /* stays NULL when the line has no field cf */
        size_t len = 0;
        uint64_t clock = 0;
        rec_num r = rec_field(p, cf, &field, &len) ? rec_parse_u64(field, len, &clock) : REC_NUM_BAD;
        if (!seen_data) {
            /* Before the first data line, a line without a numeric clock is
             * a header line; an overlong number is a data line gone bad. */
            if (r == REC_NUM_BAD) {
                c->header++;
                continue;
            }
            seen_data = true;
        }
        if (r != REC_NUM_OK) {
            bad_clock(lr, o, c, line, field, len, r);
            continue;
        }
        if (o->nfilters && !rec_filters_match(p, o->filters, o->nfilters)) {
            c->filtered++;
            continue;
        }
        if (!bins_add(b, clock)) too_many_bins(lr, b, clock);
    }
    line_reader_close(lr);
    input_reader = NULL;
}

/* Decimal digits of v at p; returns the end. */
static char *put_u64(char *p, uint64_t v)
{
    char tmp[20];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) *p++ = tmp[--n];
    return p;
}

static void write_time_file(out_file *f, const bins *b)
{
    enum { CHUNK = 1 << 16 };
    char buf[CHUNK + 64], *p = buf;
    for (uint64_t i = 0; i < b->used; i++) {
        p = put_u64(p, i * b->width);
        *p++ = ' ';
        p = put_u64(p, b->count[i]);
        *p++ = '\n';
        if (p - buf >= CHUNK) {
            out_file_write(f, buf, (size_t)(p - buf));
            p = buf;
        }
    }
    out_file_write(f, buf, (size_t)(p - buf));
}

/* "bin width W, p processors, ..." for the SVG's subtitle. */
static char *describe_run(const tdat_options *o, const distrib_summary *s, uint64_t width)
{
    size_t cap = 256;
    for (size_t i = 0; i < o->nfilters; i++) cap += o->filters[i].len + 24;
    char *d = xmalloc(cap);
    int k = snprintf(d, cap, "%" PRIu64 " events in %" PRIu64 " bins of width %" PRIu64 ", p = %" PRIu64,
                     s->events, s->bins, width, s->processors);
    if (o->clock_field != 1) k += snprintf(d + k, cap - (size_t)k, ", clock field %" PRIu64, o->clock_field);
    for (size_t i = 0; i < o->nfilters; i++)
        k += snprintf(d + k, cap - (size_t)k, ", field %u = %s", o->filters[i].field, o->filters[i].value);
    return d;
}

static void print_freq(FILE *out, int argc, char **argv, const char *input, const tdat_options *o,
                       const tdat_counts *c, const distrib_summary *s, uint64_t width,
                       uint64_t nclasses, const uint64_t *hist)
{
    char *cmd = options_command_line(argc, argv);
    fprintf(out, "# tdat (dsmtrace) %s\n", DSMTRACE_VERSION);
    fprintf(out, "# command: %s\n", cmd);
    fprintf(out, "# input: %s\n", strcmp(input, "-") == 0 ? "standard input" : input);
    fprintf(out, "# options: clock_field %" PRIu64 " classes %" PRIu64 " lenient %s\n", o->clock_field,
            o->classes, o->lenient ? "yes" : "no");
    for (size_t i = 0; i < o->nfilters; i++)
        fprintf(out, "# filter: field %u = %s\n", o->filters[i].field, o->filters[i].value);
    fprintf(out, "# lines: total %" PRIu64 " blank %" PRIu64 " comment %" PRIu64 " header %" PRIu64
            " bad_skipped %" PRIu64 " filtered_out %" PRIu64 " events %" PRIu64 "\n", c->lines, c->blank,
            c->comment, c->header, c->bad, c->filtered, s->events);
    fprintf(out, "# rate = events in a bin / processors; bin i covers clocks [i*w, (i+1)*w);"
            " fractions are of the number of bins\n");
    free(cmd);
    fprintf(out, "events %" PRIu64 "\n", s->events);
    fprintf(out, "bins %" PRIu64 "\n", s->bins);
    fprintf(out, "bin_width %" PRIu64 "\n", width);
    fprintf(out, "processors %" PRIu64 "\n", s->processors);
    fprintf(out, "avg_rate %.4f\n", s->avg_rate);
    fprintf(out, "min_rate %.4f\n", s->min_rate);
    fprintf(out, "max_rate %.4f\n", s->max_rate);
    fprintf(out, "stddev %.4f\n", s->stddev);
    uint64_t cum = 0;
    for (uint64_t k = 0; k < nclasses; k++) {
        double lo = distrib_class_bound(s, nclasses, k), hi = distrib_class_bound(s, nclasses, k + 1);
        cum += hist[k];
        fprintf(out, "density %.4f %.4f %" PRIu64 " %.4f\n", lo, hi, hist[k],
                (double)hist[k] / (double)s->bins);
        fprintf(out, "distribution %.4f %.4f\n", hi, (double)cum / (double)s->bins);
    }
}

int main(int argc, char **argv)
{
    diag_set_tool("tdat");
    tdat_options o = { .classes = 20, .clock_field = 1, .max_bins = BINS_DEFAULT_MAX };
    const option_spec specs[] = {
        { "classes", 0, NULL, OPT_UINT, "C", &o.classes, NULL, 1, DISTRIB_MAX_CLASSES,
          "classes of the density and distribution functions, 1..1000000 (default 20)" },
        { "filter", 'f', NULL, OPT_CALL, "N=VALUE", &o, add_filter, 0, 0,
          "keep only records whose field N (from 1) is VALUE, e.g. -f 2=WAR (repeatable: all must match)" },
        { "clock-field", 'c', NULL, OPT_UINT, "N", &o.clock_field, NULL, 1, REC_MAX_FIELD,
          "the clock is field N (from 1; default 1)" },
        { "max-bins", 0, NULL, OPT_UINT, "N", &o.max_bins, NULL, 1, BINS_MAX_LIMIT,
          "at most N bins, 1..4294967296 (default 16777216; 8 bytes of memory and a time file line each)" },
        { "lenient", 0, NULL, OPT_FLAG, NULL, &o.lenient, NULL, 0, 0,
          "skip and count lines with a missing or non-numeric clock (counts on stderr and in the header)" },
        { "svg", 0, NULL, OPT_STRING, "FILE", &o.svg, NULL, 0, 0,
          "also draw events per bin over the clock and the density into the SVG picture FILE" },
        { 0 }
    };
    char **ops = xcalloc((size_t)argc + 1, sizeof *ops);
    int nops = options_parse(specs, argc, argv, usage_text, ops);
    if (nops < 4)
        diag_usage_error("missing %s (usage: tdat [options] event_trace time_file bin_width p)",
                         nops == 0 ? "the event trace" : nops == 1 ? "the time file" : nops == 2 ? "the bin width"
                         : "p, the number of processors");
    if (nops > 4) diag_usage_error("too many operands ('%s')", ops[4]);
    const char *input = ops[0], *time_path = ops[1];
    uint64_t width = positive_operand("bin width", ops[2]);
    uint64_t p = positive_operand("p (processors)", ops[3]);
    free(ops);      /* the operands point into argv */
    check_output("time file", time_path, input);
    if (o.svg) {
        check_output("SVG file", o.svg, input);
        if (strcmp(o.svg, time_path) == 0) diag_usage_error("the SVG file and the time file are both %s", o.svg);
    }

    /* Outputs are opened first (an unwritable place fails before a long
     * read); they stay temporaries until the end, removed on any error. */
    out_file *ff = out_file_open_stdout();      /* first: a closed stdout's fd 1 goes to no file */
    out_file *tf = out_file_open(time_path, false);
    out_file *sf = o.svg ? out_file_open(o.svg, false) : NULL;

    bins *b = &counts;
    bins_init(b, width, o.max_bins);
    tdat_counts c = { 0 };
    read_events(input, &o, b, &c);
    if (c.bad) {
        diag_warn(input, DIAG_NO_OFFSET, "skipped %" PRIu64 " line%s with a bad clock field (the first: line %"
                  PRIu64 ")", c.bad, c.bad == 1 ? "" : "s", c.first_bad);
    }
    if (b->events == 0) {
        uint64_t data = c.filtered;
        if (data)
            diag_data_error(input, DIAG_NO_OFFSET, "no events: the filters (-f) kept none of the %" PRIu64
                            " data line%s", data, data == 1 ? "" : "s");
        diag_data_error(input, DIAG_NO_OFFSET, "no events: the trace has no data lines (%" PRIu64 " line%s"
                        " read, none with an unsigned integer in field %" PRIu64 ")", c.lines,
                        c.lines == 1 ? "" : "s", o.clock_field);
    }

    distrib_summary s;
    distrib_summarize(b->count, b->used, p, &s);
    uint64_t nclasses = distrib_class_count(&s, o.classes);
    uint64_t *hist = class_hist = xmalloc((size_t)nclasses * sizeof *hist);
    distrib_classes(&s, b->count, nclasses, hist);

    write_time_file(tf, b);
    if (sf) {
        char *sub = describe_run(&o, &s, width);
        svg_input si = { strcmp(input, "-") == 0 ? "standard input" : input, sub, b, &s, nclasses, hist };
        svg_write(sf, &si);
        free(sub);
    }
    print_freq(out_file_stream(ff), argc, argv, input, &o, &c, &s, width, nclasses, hist);
    /* Everything succeeded: make the outputs appear, all or none. */
    out_file_commit_all();

    free(hist);
    bins_free(b);
    free(o.filters);
    return EXIT_OK;
}
