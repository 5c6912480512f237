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
#include "install_dirs.h"
#include "bins.h"
#include "distrib.h"
#include "record.h"
#include "svg.h"
#include "../base/diag.h"
#include "../base/line_reader.h"
#include "../common/options.h"
#include "../common/out_file.h"
#include "../common/report_json.h"
#include "../common/version.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage_text[] =
    "Usage: tdat [options] event_trace [time_file] bin_width p > freq_file\n"
    "\n"
    "Time distribution of the events of a text trace (ciat's <prefix>.ciat_events,\n"
    "cdat's general and detailed traces, or any file with a clock field): counts\n"
    "the events in bins of bin_width clocks, bin i covering [i*w, (i+1)*w), from\n"
    "bin 0 to the bin of the largest clock (empty bins included; clocks need not\n"
    "be sorted), and writes\n"
    "  time_file  (optional; '-': standard output, and then the frequency file\n"
    "             goes only to --freq FILE) one line per bin: <bin start clock>\n"
    "             <events>\n"
    "  stdout     the frequency file: '#' header, events, bins, bin_width,\n"
    "             processors, avg_rate, min_rate, max_rate, stddev of the bin rate\n"
    "             (events per bin / p), then per class 'density <lo> <hi> <bins>\n"
    "             <fraction>' and 'distribution <hi> <cumulative fraction>'.\n"
    "event_trace may be plain, gzip- or zstd-compressed or '-' (standard input).\n"
    "Blank lines and '#' lines are skipped; so are the lines before the first\n"
    "line whose clock field is an unsigned integer (a header). After that, a\n"
    "line whose clock field is missing or not an unsigned integer is an error\n"
    "(--lenient: skipped and counted). Clocks are decimal, at most 2^64-1. An\n"
    "input without events is a warning and a report of zero events. At most\n"
    "16777216 bins unless --max-bins says otherwise: a clock beyond the last bin\n"
    "stops tdat with the smallest bin width that would do. Lines are at most\n"
    "1048576 characters. Details: tdat(1), " DSM_DOCDIR "/docs/tdat.md; --json:\n"
    "docs/json.md.\n"
    "Exit status: 0 ok, 1 usage error, 2 bad input, 3 internal error.\n";

typedef struct tdat_options {
    uint64_t classes;           /* 0: as suits the number of bins */
    uint64_t clock_field;
    uint64_t max_bins;
    bool lenient;
    const char *svg;
    const char *freq;           /* the frequency file's path, or NULL: stdout */
    const char *json;
    rec_filter *filters;
    size_t nfilters;
    /* the picture */
    const char *title, *xlabel, *ylabel;
    uint64_t size[2];           /* width, height */
    bool log_y;
    uint64_t series_field;      /* 0: one series */
} tdat_options;

/* What is allocated while the run can still fail, at file scope: a fatal
 * error exits from deep inside the run, and LeakSanitizer must find these
 * reachable. volatile: the compiler would drop a variable only written to. */
static line_reader *volatile input_reader;
static bins counts;
static uint64_t *volatile class_hist;
/* --series: one set of bins per value of the field, names in order of first
 * appearance (sorted for the picture). */
static bins series_bins[SVG_MAX_SERIES];
static char *series_name[SVG_MAX_SERIES];
static int nseries;

/* What the pass over the input saw. */
typedef struct tdat_counts {
    uint64_t lines, blank, comment, header, bad, filtered;
    uint64_t first_bad;         /* line number of the first bad line (--lenient) */
    uint64_t first_header;      /* line number of the first header line */
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

/* --size WxH: the picture's width and height in pixels. */
static const char *parse_size(void *target, const char *value)
{
    uint64_t *wh = target;
    const char *x = strchr(value, 'x');
    if (!x || rec_parse_u64(value, (size_t)(x - value), &wh[0]) != REC_NUM_OK ||
        rec_parse_u64(x + 1, strlen(x + 1), &wh[1]) != REC_NUM_OK)
        return "must be WIDTHxHEIGHT in pixels, e.g. 1200x900";
    if (wh[0] < SVG_MIN_WIDTH || wh[1] < SVG_MIN_HEIGHT || wh[0] > SVG_MAX_SIZE || wh[1] > SVG_MAX_SIZE)
        return "width and height must be from 400 to 20000 pixels";
    return NULL;
}

/* The series of a data line (--series N): its field N, a new series at the
 * first sight of a value; NULL when the line has no field N. */
static bins *series_of(line_reader *lr, const tdat_options *o, const char *fields, const bins *total)
{
    const char *v;
    size_t len;
    if (!rec_field(fields, (unsigned)o->series_field, &v, &len)) {
        if (o->lenient) return NULL;
        diag_data_error(line_reader_path(lr), DIAG_NO_OFFSET, "line %" PRIu64 ": no field %" PRIu64
                        " for --series (the line has %u field%s)", line_reader_lineno(lr), o->series_field,
                        rec_field_count(fields), rec_field_count(fields) == 1 ? "" : "s");
    }
    for (int k = 0; k < nseries; k++)
        if (strlen(series_name[k]) == len && memcmp(series_name[k], v, len) == 0) return &series_bins[k];
    if (nseries == SVG_MAX_SERIES)
        diag_data_error(line_reader_path(lr), DIAG_NO_OFFSET, "line %" PRIu64 ": field %" PRIu64 " has more"
                        " than %d values; --series draws at most %d series (keep fewer with -f)",
                        line_reader_lineno(lr), o->series_field, SVG_MAX_SERIES, SVG_MAX_SERIES);
    char *name = xmalloc(len + 1);
    memcpy(name, v, len);
    name[len] = '\0';
    series_name[nseries] = name;
    bins_init(&series_bins[nseries], total->width, total->max);
    return &series_bins[nseries++];
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
        diag_usage_error("the %s cannot be '-': standard output carries the %s", what,
                         strcmp(what, "time file") == 0 ? "frequency file" : "frequency or time file");
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
                if (!c->header++) c->first_header = c->lines;
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
        if (o->series_field) {
            bins *sb = series_of(lr, o, p, b);
            if (sb && !bins_add(sb, clock)) too_many_bins(lr, sb, clock);
        }
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

/* Sorts the series by name, for a legend in a fixed order whatever the
 * order of the input. */
static void sort_series(svg_series *ser, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && strcmp(ser[j - 1].name, ser[j].name) > 0; j--) {
            svg_series t = ser[j];
            ser[j] = ser[j - 1];
            ser[j - 1] = t;
        }
}

int main(int argc, char **argv)
{
    diag_set_tool("tdat");
    tdat_options o = { .classes = 0, .clock_field = 1, .max_bins = BINS_DEFAULT_MAX, .size = { 960, 780 } };
    const option_spec specs[] = {
        { "classes", 0, NULL, OPT_UINT, "C", &o.classes, NULL, 1, DISTRIB_MAX_CLASSES,
          "classes of the density and distribution functions, 1..1000000 (default: as suits the number of"
          " bins, ceil(log2 bins) + 1, at most 20)" },
        { "filter", 'f', NULL, OPT_CALL, "N=VALUE", &o, add_filter, 0, 0,
          "keep only records whose field N (from 1) is VALUE, e.g. -f 2=WAR (repeatable: all must match)" },
        { "clock-field", 'c', NULL, OPT_UINT, "N", &o.clock_field, NULL, 1, REC_MAX_FIELD,
          "the clock is field N (from 1; default 1)" },
        { "max-bins", 0, NULL, OPT_UINT, "N", &o.max_bins, NULL, 1, BINS_MAX_LIMIT,
          "at most N bins, 1..4294967296 (default 16777216; 8 bytes of memory and a time file line each)" },
        { "lenient", 0, NULL, OPT_FLAG, NULL, &o.lenient, NULL, 0, 0,
          "skip and count lines with a missing or non-numeric clock (counts on stderr and in the header)" },
        { "freq", 0, NULL, OPT_STRING, "FILE", &o.freq, NULL, 0, 0,
          "write the frequency file to FILE instead of standard output" },
        { "svg", 0, NULL, OPT_STRING, "FILE", &o.svg, NULL, 0, 0,
          "also draw the rate per bin over the clock and its density into the SVG picture FILE" },
        { "title", 0, NULL, OPT_STRING, "TEXT", &o.title, NULL, 0, 0,
          "the picture's title (default 'tdat: <event_trace>')" },
        { "xlabel", 0, NULL, OPT_STRING, "TEXT", &o.xlabel, NULL, 0, 0,
          "the clock axis' label (default 'clock (pseudo-clock instructions)': the clock of ciat's event"
          " traces and of cdat's traces alike)" },
        { "ylabel", 0, NULL, OPT_STRING, "TEXT", &o.ylabel, NULL, 0, 0,
          "the rate axis' label (default 'rate (events per bin per processor)')" },
        { "size", 0, NULL, OPT_CALL, "WxH", o.size, parse_size, 0, 0,
          "the picture's size in pixels, 400..20000 each (default 960x780)" },
        { "log", 0, NULL, OPT_FLAG, NULL, &o.log_y, NULL, 0, 0,
          "the rate over the clock on a log scale (bins without events on the axis)" },
        { "series", 0, NULL, OPT_UINT, "N", &o.series_field, NULL, 1, REC_MAX_FIELD,
          "one series per value of field N in the picture, with a legend (e.g. --series 2: RAW, WAR, WAW;"
          " at most 10)" },
        { "json", 0, NULL, OPT_STRING, "FILE", &o.json, NULL, 0, 0,
          "also write the frequency file as JSON into FILE (docs/json.md)" },
        { 0 }
    };
    char **ops = xcalloc((size_t)argc + 1, sizeof *ops);
    int nops = options_parse(specs, argc, argv, usage_text, ops);
    if (nops < 3)
        diag_usage_error("missing %s (usage: tdat [options] event_trace [time_file] bin_width p)",
                         nops == 0 ? "the event trace" : nops == 1 ? "the bin width"
                         : "p, the number of processors");
    if (nops > 4) diag_usage_error("extra operand '%s'", ops[4]);
    const char *input = ops[0], *time_path = nops == 4 ? ops[1] : NULL;
    uint64_t width = positive_operand("bin width", ops[nops - 2]);
    uint64_t p = positive_operand("p (processors)", ops[nops - 1]);
    free(ops);      /* the operands point into argv */
    bool time_stdout = time_path && strcmp(time_path, "-") == 0;
    if (time_path && !time_stdout) check_output("time file", time_path, input);
    if (o.freq) check_output("frequency file", o.freq, input);
    if (o.svg) check_output("SVG file", o.svg, input);
    if (o.json) check_output("JSON file", o.json, input);
    const char *outs[4] = { time_stdout ? NULL : time_path, o.freq, o.svg, o.json };
    static const char *const out_names[4] = { "time file", "frequency file", "SVG file", "JSON file" };
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++)
            if (outs[i] && outs[j] && strcmp(outs[i], outs[j]) == 0)
                diag_usage_error("the %s and the %s are both %s", out_names[j], out_names[i], outs[i]);
    if (!o.svg && (o.title || o.xlabel || o.ylabel || o.log_y || o.series_field || o.size[0] != 960 ||
                   o.size[1] != 780))
        diag_usage_error("--title, --xlabel, --ylabel, --size, --log and --series are for the picture:"
                         " give --svg FILE");

    /* Outputs are opened first (an unwritable place fails before a long
     * read); they stay temporaries until the end, removed on any error.
     * Standard output carries the time file when it is '-', else the
     * frequency file unless --freq names another place. */
    out_file *so = (time_stdout || !o.freq) ? out_file_open_stdout() : NULL;  /* first: fd 1 */
    out_file *tf = time_stdout ? so : time_path ? out_file_open(time_path, false) : NULL;
    out_file *ff = o.freq ? out_file_open(o.freq, false) : time_stdout ? NULL : so;
    out_file *sf = o.svg ? out_file_open(o.svg, false) : NULL;
    out_file *jf = o.json ? out_file_open(o.json, false) : NULL;

    bins *b = &counts;
    bins_init(b, width, o.max_bins);
    tdat_counts c = { 0 };
    read_events(input, &o, b, &c);
    if (c.bad) {
        diag_warn(input, DIAG_NO_OFFSET, "skipped %" PRIu64 " line%s with a bad clock field (the first: line %"
                  PRIu64 ")", c.bad, c.bad == 1 ? "" : "s", c.first_bad);
    }
    /* No events: as every tool does with an empty trace, a warning naming
     * the input and a report of zero events (no bins, no classes). */
    distrib_summary s = { .processors = p };
    uint64_t nclasses = 0;
    /* Lines of fields, none a data line, more than a column header: not an
     * event trace with its clock in that field (a wrong -c, or not an event
     * trace at all: a source file, a report). */
    if (b->events == 0 && !c.filtered && c.header > 1)
        diag_data_error(input, DIAG_NO_OFFSET, "line %" PRIu64 ": not an event trace with its clock in field %"
                        PRIu64 ": none of its %" PRIu64 " lines of fields has an unsigned integer there (-c N"
                        " names the clock field; ciat's and cdat's event traces have it in field 1)",
                        c.first_header, o.clock_field, c.header);
    if (b->events == 0) {
        if (c.filtered)
            diag_warn(input, DIAG_NO_OFFSET, "no events: the filters (-f) kept none of the %" PRIu64
                      " data line%s", c.filtered, c.filtered == 1 ? "" : "s");
        else
            diag_warn(input, DIAG_NO_OFFSET, "no events: the trace has no data lines (%" PRIu64 " line%s"
                      " read, none with an unsigned integer in field %" PRIu64 ")", c.lines,
                      c.lines == 1 ? "" : "s", o.clock_field);
    } else {
        distrib_summarize(b->count, b->used, p, &s);
    }
    if (!o.classes) o.classes = distrib_default_classes(b->used);
    if (b->events) nclasses = distrib_class_count(&s, o.classes);
    uint64_t *hist = class_hist = xmalloc((size_t)(nclasses ? nclasses : 1) * sizeof *hist);
    if (nclasses) distrib_classes(&s, b->count, nclasses, hist);

    if (tf) write_time_file(tf, b);
    if (sf) {
        char *sub = describe_run(&o, &s, width);
        const char *shown = strcmp(input, "-") == 0 ? "standard input" : input;
        char *title = NULL;
        if (!o.title) {
            size_t n = strlen(shown) + 8;
            title = xmalloc(n);
            snprintf(title, n, "tdat: %s", shown);
        }
        svg_series ser[SVG_MAX_SERIES];
        for (int k = 0; k < nseries; k++) ser[k] = (svg_series){ series_name[k], &series_bins[k] };
        sort_series(ser, nseries);
        svg_input si = { o.title ? o.title : title, sub,
                         o.xlabel ? o.xlabel : "clock (pseudo-clock instructions)",
                         o.ylabel ? o.ylabel : "rate (events per bin per processor)",
                         (int)o.size[0], (int)o.size[1], o.log_y, b, ser, nseries, &s, nclasses, hist };
        svg_write(sf, &si);
        free(sub);
        free(title);
    }
    /* The frequency file is made once, as text; the JSON form is made from it. */
    if (ff || jf) {
        char *freq = NULL;
        size_t freq_len = 0;
        FILE *fm = open_memstream(&freq, &freq_len);
        if (!fm) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "out of memory");
        print_freq(fm, argc, argv, input, &o, &c, &s, width, nclasses, hist);
        if (fclose(fm) != 0) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "out of memory");
        if (ff) out_file_write(ff, freq, freq_len);
        if (jf) report_json_text(jf, "tdat", freq, freq_len);
        free(freq);
    }
    /* Everything succeeded: make the outputs appear, all or none. */
    out_file_commit_all();

    free(hist);
    bins_free(b);
    for (int k = 0; k < nseries; k++) {
        bins_free(&series_bins[k]);
        free(series_name[k]);
    }
    free(o.filters);
    return EXIT_OK;
}
