/* convert.c — `smait convert`: a file's bytes re-encoded as plain, gzip or
 * zstd, whatever its format now (formats/SMAIT.md §11).
 *
 * The bytes are copied as they are, not parsed, so a trace comes back byte
 * for byte and any input the tools read (event traces too) can be converted;
 * with --records the trace's records are read and written again, plain or
 * delta coded (§11.1).
 * Each output is written through out_file and committed before the next file
 * is started, and its input removed only then: at every moment each file is
 * either its old or its new self, and since a trace set may mix names
 * (P.k, P.k.gz, P.k.zst) a set stays readable even when a run stops half way. */
#include "smait_cmd.h"
#include "../base/byte_source.h"
#include "../base/diag.h"
#include "../common/out_file.h"
#include "../common/trace_reader.h"
#include "../formats/smait_delta.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

enum { CHUNK = 1 << 20 };

static const char *const SUFFIX[] = { [CONVERT_PLAIN] = "", [CONVERT_GZIP] = ".gz",
                                      [CONVERT_ZSTD] = ".zst" };

/* in without a trailing .gz or .zst, plus the suffix of the target format. */
static char *output_name(const char *in, convert_to to)
{
    size_t n = strlen(in), base = n;
    if (n >= 3 && strcmp(in + n - 3, ".gz") == 0) base = n - 3;
    else if (n >= 4 && strcmp(in + n - 4, ".zst") == 0) base = n - 4;
    if (base == 0 || in[base - 1] == '/')
        diag_usage_error("convert: cannot name the output of '%s'", in);
    char *out = xmalloc(base + 5);
    memcpy(out, in, base);
    strcpy(out + base, SUFFIX[to]);
    if (strcmp(out, in) == 0)
        diag_usage_error("convert: the output of '%s' would be the file itself (give a file named"
                         " .gz or .zst to convert it to plain)", in);
    return out;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Two inputs written to one output (also the same file given twice) would
 * lose one of them. */
static void check_distinct(char **outs, int n)
{
    char **sorted = xmalloc((size_t)n * sizeof *sorted);
    memcpy(sorted, outs, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_str);
    for (int i = 1; i < n; i++)
        if (strcmp(sorted[i - 1], sorted[i]) == 0)
            diag_usage_error("convert: two inputs would both be written to '%s'", sorted[i]);
    free(sorted);
}

static void zstd_write(out_file *of, ZSTD_CCtx *cc, void *zbuf, size_t zcap, const void *in,
                       size_t n, bool last)
{
    ZSTD_inBuffer zin = { in, n, 0 };
    ZSTD_EndDirective mode = last ? ZSTD_e_end : ZSTD_e_continue;
    size_t left;
    do {
        ZSTD_outBuffer zo = { zbuf, zcap, 0 };
        left = ZSTD_compressStream2(cc, &zo, &zin, mode);
        if (ZSTD_isError(left))
            diag_fatal(EXIT_INTERNAL, out_file_path(of), DIAG_NO_OFFSET, "zstd compression failed: %s",
                       ZSTD_getErrorName(left));
        out_file_write(of, zbuf, zo.pos);
    } while (last ? left != 0 : zin.pos < zin.size);
}

/* Where a conversion writes: the output, through zstd when asked. */
typedef struct sink {
    out_file *of;
    ZSTD_CCtx *cc;
    void *zbuf;
    size_t zcap;
} sink;

static void sink_open(sink *k, const char *out, convert_to to, int level)
{
    *k = (sink){ .of = out_file_open(out, to == CONVERT_GZIP) };
    if (to != CONVERT_ZSTD) return;
    k->cc = ZSTD_createCCtx();
    if (!k->cc) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "out of memory");
    /* The checksum lets a reader tell a damaged file from a good one. */
    if (ZSTD_isError(ZSTD_CCtx_setParameter(k->cc, ZSTD_c_compressionLevel, level)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(k->cc, ZSTD_c_checksumFlag, 1)))
        diag_fatal(EXIT_INTERNAL, out, DIAG_NO_OFFSET, "cannot set up zstd compression");
    k->zcap = ZSTD_CStreamOutSize();
    k->zbuf = xmalloc(k->zcap);
}

/* n bytes more; last: the end of the output. */
static void sink_write(sink *k, const void *p, size_t n, bool last)
{
    if (k->cc) zstd_write(k->of, k->cc, k->zbuf, k->zcap, p, n, last);
    else if (n) out_file_write(k->of, p, n);       /* the end: p may be NULL */
}

static void sink_commit(sink *k)
{
    free(k->zbuf);
    ZSTD_freeCCtx(k->cc);
    out_file_commit(k->of);
}

/* The bytes as they are. */
static void copy_bytes(const char *in, sink *k)
{
    const char *why = NULL;
    byte_source *s = byte_source_open(in, &why);
    if (!s) diag_data_error(in, DIAG_NO_OFFSET, "cannot read: %s", why);
    byte_source_read_ahead(s);
    unsigned char *buf = xmalloc(CHUNK);
    uint64_t off = 0;
    for (;;) {
        long n = byte_source_read(s, buf, CHUNK, &why);
        if (n < 0)
            diag_data_error(in, off, "%s%s", byte_source_compressed(s) ? "corrupt compressed stream: "
                            : "read error: ", why);
        sink_write(k, buf, (size_t)n, n == 0);
        if (n == 0) break;
        off += (uint64_t)n;
    }
    free(buf);
    byte_source_close(s);
}

/* The records, read and validated as every tool reads them, written in
 * the input's byte order with the coding asked (formats/SMAIT.md §11.1). */
static void recode(const char *in, sink *k, convert_records records, smait_order order)
{
    trace_reader_opts ro = { .order = order };
    trace_reader *r = trace_reader_open(in, &ro);
    smait_order file_order = trace_reader_order(r);
    smait_delta *d = NULL;
    if (records == RECORDS_DELTA) {
        d = xmalloc(sizeof *d);
        smait_delta_init(d);
        unsigned char marker[8];
        smait_store_raw(marker, (smait_raw){ SMAIT_DELTA_F1, SMAIT_DELTA_VERSION }, file_order);
        sink_write(k, marker, sizeof marker, false);
    }
    enum { RUN = CHUNK / sizeof(smait_raw) };
    smait_raw *buf = xmalloc(RUN * sizeof *buf);
    const smait_raw *p, *end;
    while ((p = trace_reader_next_run(r, &end)) != NULL) {
        while (p < end) {
            size_t n = (size_t)(end - p) < RUN ? (size_t)(end - p) : RUN;
            if (d) smait_delta_encode(d, buf, p, n);
            else memcpy(buf, p, n * sizeof *buf);
            smait_to_host(buf, n, file_order);      /* host to file order: the same swap */
            sink_write(k, buf, n * sizeof *buf, false);
            p += n;
        }
    }
    sink_write(k, NULL, 0, true);
    free(buf);
    free(d);
    trace_reader_close(r);
}

static void convert_one(const char *in, const char *out, const convert_opts *o)
{
    sink k;
    sink_open(&k, out, o->to, o->level);
    if (o->records == RECORDS_AS_THEY_ARE) copy_bytes(in, &k);
    else recode(in, &k, o->records, o->order);
    sink_commit(&k);
}

int smait_convert(char **paths, int n, const convert_opts *o)
{
    convert_to to = o->to;
    char **outs = xmalloc((size_t)n * sizeof *outs);
    for (int i = 0; i < n; i++) {
        if (strcmp(paths[i], "-") == 0)
            diag_usage_error("convert: reads files, not standard input ('-')");
        outs[i] = output_name(paths[i], to);
    }
    check_distinct(outs, n);
    for (int i = 0; i < n; i++) {
        convert_one(paths[i], outs[i], o);
        if (!o->keep && unlink(paths[i]) != 0)
            diag_data_error(paths[i], DIAG_NO_OFFSET, "converted to %s, but cannot remove it: %s",
                            outs[i], strerror(errno));
    }
    for (int i = 0; i < n; i++) free(outs[i]);
    free(outs);
    return EXIT_OK;
}
