/* fuzz_tdat.c — tdat end to end (tdat/tdat.c with tdat/record and bins).
 *
 * Input: one flag byte, then the event trace. Flags: 0x01 --lenient, 0x02
 * the clock in field 2 (-c 2), 0x04 the filter -f 2=RAW, 0x08 --classes 3,
 * 0x10 --svg, 0x60 the bin width (1, 7, 1000, 65536), 0x80 p = 4 (else 1).
 *
 * Checks: the time file has one line per bin, bin i starting at i x width,
 * and its counts add up to the events the harness counts itself (lines with
 * a clock field that is an unsigned integer, kept by the filter; none:
 * an empty time file, as tdat warns and reports zero events); a failure
 * is exit 2 naming the trace and a line, or one of the whole-trace errors
 * ("cannot read"), and leaves no time file or SVG.
 *
 * tdat runs with --max-bins BIN_LIMIT (its default, 2^24 bins, would write
 * time files of hundreds of MB); a clock beyond is its error naming the
 * line. Not run: gzip input (the harness could not see its clocks; the
 * byte_source under it is the trace reader harness's). */
#include "fuzz_support.h"
#include "../base/diag.h"
#include "../tdat/record.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tdat_main(int argc, char **argv);

enum { BIN_LIMIT = 1 << 16 };

/* What tdat should count: the events kept, and their largest clock. Lines as the
 * line reader gives them (a CR before the newline dropped), read as C
 * strings (to the first NUL). */
static void plan(const uint8_t *data, size_t size, unsigned cf, const rec_filter *f, size_t nf,
                 uint64_t *events, uint64_t *max_clock)
{
    char *line = malloc(size + 1);
    *events = *max_clock = 0;
    for (size_t at = 0; at < size;) {
        const uint8_t *nl = memchr(data + at, '\n', size - at);
        size_t len = nl ? (size_t)(nl - (data + at)) : size - at;
        memcpy(line, data + at, len);
        at += len + 1;
        if (len && line[len - 1] == '\r') len--;
        line[len] = '\0';
        const char *p, *field;
        size_t flen;
        uint64_t clock;
        if (rec_classify(line, &p) != REC_FIELDS || !rec_field(p, cf, &field, &flen) ||
            rec_parse_u64(field, flen, &clock) != REC_NUM_OK)
            continue;
        if (nf && !rec_filters_match(p, f, nf)) continue;
        if (clock > *max_clock) *max_clock = clock;
        (*events)++;
    }
    free(line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    uint8_t flags = data[0];
    data++, size--;
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) return 0;
    static const uint64_t widths[] = { 1, 7, 1000, 65536 };
    uint64_t width = widths[(flags >> 5) & 3];
    unsigned cf = flags & 0x02 ? 2 : 1;
    rec_filter filter = { 2, "RAW", 3 };
    uint64_t events, max_clock;
    plan(data, size, cf, &filter, flags & 0x04 ? 1 : 0, &events, &max_clock);

    static char in[4096], time[4096], svg[4096], w[32];
    snprintf(in, sizeof in, "%s", fz_write("events", data, size));
    snprintf(time, sizeof time, "%s", fz_path("time"));
    snprintf(svg, sizeof svg, "%s", fz_path("picture.svg"));
    snprintf(w, sizeof w, "%" PRIu64, width);
    fz_job j = { .main = tdat_main };
    j.argv[j.argc++] = "tdat";
    j.argv[j.argc++] = "--max-bins=65536";
    if (flags & 0x01) j.argv[j.argc++] = "--lenient";
    if (flags & 0x02) j.argv[j.argc++] = "-c2";
    if (flags & 0x04) j.argv[j.argc++] = "-f2=RAW";
    if (flags & 0x08) j.argv[j.argc++] = "--classes=3";
    if (flags & 0x10) {
        j.argv[j.argc++] = "--svg";
        j.argv[j.argc++] = svg;
    }
    j.argv[j.argc++] = in;
    j.argv[j.argc++] = time;
    j.argv[j.argc++] = w;
    j.argv[j.argc++] = flags & 0x80 ? "4" : "1";
    j.argv[j.argc] = NULL;

    fz_result res;
    fz_run(fz_job_run, &j, &res);
    size_t tlen = 0;
    char *tf = (char *)fz_read("time", &tlen);
    size_t slen = 0;
    unsigned char *sf = fz_read("picture.svg", &slen);
    fz_remove("time");
    fz_remove("picture.svg");
    if (res.status) {
        FZ_CHECK(res.status == EXIT_DATA, "%s", fz_describe(&res));
        FZ_CHECK(strcmp(res.file, in) == 0, "the error does not name the trace: %s", fz_describe(&res));
        FZ_CHECK(strncmp(res.text, "line ", 5) == 0 || strncmp(res.text, "no events", 9) == 0 ||
                 strncmp(res.text, "cannot read: ", 13) == 0, "the error names no line: %s", fz_describe(&res));
        FZ_CHECK(!tf && !sf, "a failed run left its time file or SVG");
        return 0;
    }
    FZ_CHECK(tf != NULL, "no time file");
    FZ_CHECK(!(flags & 0x10) || sf, "no SVG");
    uint64_t bins = events ? max_clock / width + 1 : 0, sum = 0, i = 0;  /* no events: no bins */
    char *save = NULL;
    tf = realloc(tf, tlen + 1);
    tf[tlen] = '\0';
    for (char *l = strtok_r(tf, "\n", &save); l; l = strtok_r(NULL, "\n", &save), i++) {
        unsigned long long start, count;
        FZ_CHECK(sscanf(l, "%llu %llu", &start, &count) == 2, "time file line %" PRIu64 ": '%s'", i + 1, l);
        FZ_CHECK(start == i * width, "time file line %" PRIu64 " starts at %llu", i + 1, start);
        sum += count;
    }
    FZ_CHECK(i == bins, "time file has %" PRIu64 " bins, the largest clock %" PRIu64 " needs %" PRIu64,
             i, max_clock, bins);
    FZ_CHECK(sum == events, "time file counts %" PRIu64 " events, the trace has %" PRIu64, sum, events);
    free(tf);
    free(sf);
    return 0;
}
