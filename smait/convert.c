/* convert.c — `smait convert`: a file's bytes re-encoded as plain, gzip or
 * zstd, whatever its format now (formats/SMAIT.md §11).
 *
 * The bytes are copied as they are, not parsed, so a trace comes back byte
 * for byte and any input the tools read (event traces too) can be converted.
 * Each output is written through out_file and committed before the next file
 * is started, and its input removed only then: at every moment each file is
 * either its old or its new self, and since a trace set may mix names
 * (P.k, P.k.gz, P.k.zst) a set stays readable even when a run stops half way. */
#include "smait_cmd.h"
#include "../common/byte_source.h"
#include "../common/diag.h"
#include "../common/out_file.h"

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

static void convert_one(const char *in, const char *out, convert_to to, int level)
{
    const char *why = NULL;
    byte_source *s = byte_source_open(in, &why);
    if (!s) diag_data_error(in, DIAG_NO_OFFSET, "cannot read: %s", why);
    out_file *of = out_file_open(out, to == CONVERT_GZIP);
    ZSTD_CCtx *cc = NULL;
    size_t zcap = 0;
    void *zbuf = NULL;
    if (to == CONVERT_ZSTD) {
        cc = ZSTD_createCCtx();
        if (!cc) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "out of memory");
        /* The checksum lets a reader tell a damaged file from a good one. */
        if (ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, level)) ||
            ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1)))
            diag_fatal(EXIT_INTERNAL, out, DIAG_NO_OFFSET, "cannot set up zstd compression");
        zcap = ZSTD_CStreamOutSize();
        zbuf = xmalloc(zcap);
    }
    unsigned char *buf = xmalloc(CHUNK);
    uint64_t off = 0;
    for (;;) {
        long k = byte_source_read(s, buf, CHUNK, &why);
        if (k < 0)
            diag_data_error(in, off, "%s%s", byte_source_compressed(s) ? "corrupt compressed stream: "
                            : "read error: ", why);
        if (to == CONVERT_ZSTD) zstd_write(of, cc, zbuf, zcap, buf, (size_t)k, k == 0);
        else out_file_write(of, buf, (size_t)k);
        if (k == 0) break;
        off += (uint64_t)k;
    }
    free(buf);
    free(zbuf);
    ZSTD_freeCCtx(cc);
    byte_source_close(s);
    out_file_commit(of);
}

int smait_convert(char **paths, int n, convert_to to, int level, bool keep)
{
    char **outs = xmalloc((size_t)n * sizeof *outs);
    for (int i = 0; i < n; i++) {
        if (strcmp(paths[i], "-") == 0)
            diag_usage_error("convert: reads files, not standard input ('-')");
        outs[i] = output_name(paths[i], to);
    }
    check_distinct(outs, n);
    for (int i = 0; i < n; i++) {
        convert_one(paths[i], outs[i], to, level);
        if (!keep && unlink(paths[i]) != 0)
            diag_data_error(paths[i], DIAG_NO_OFFSET, "converted to %s, but cannot remove it: %s",
                            outs[i], strerror(errno));
    }
    for (int i = 0; i < n; i++) free(outs[i]);
    free(outs);
    return EXIT_OK;
}
