/* fuzz_smait_asm.c — the text form: formats/smait_text and `smait asm`.
 *
 * Input: a text (formats/SMAIT-TEXT.md), assembled with smait_asm into
 * "out" or the set out.P.t in the scratch directory.
 *
 * Checks: every record line that parses to a logical record formats to
 * text that parses back to the same bits (parse ∘ format = identity); a
 * successful run writes exactly 8 bytes per simple record the text asks
 * for (repeat blocks multiplied out); an error is exit 2 naming the text
 * file and a line ("line N: ").
 *
 * A text whose repeat blocks multiply out to more than REPEAT_LIMIT records
 * is not run: smait asm allows 2^28 expanded lines, gigabytes written to the
 * scratch directory. Nor is one with more than THREAD_LIMIT
 * thread sections (up to 65536 are allowed, one output file each: slow
 * without finding more). */
#include "fuzz_support.h"
#include "../base/diag.h"
#include "../formats/smait_text.h"
#include "../smait/smait_cmd.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

enum { REPEAT_LIMIT = 5000, DEPTH_MAX = 64, THREAD_LIMIT = 64 };

typedef struct job {
    char text[4096], out[4096];
} job;

static int assemble(void *arg)
{
    job *j = arg;
    return smait_asm(j->text, j->out, SMAIT_ORDER_AUTO);
}

/* Sum of the sizes of out* in the scratch directory; removes them. */
static uint64_t take_outputs(void)
{
    uint64_t total = 0;
    DIR *d = opendir(fz_dir());
    FZ_CHECK(d != NULL, "scratch directory gone");
    struct dirent *e;
    char names[256][64];
    int n = 0;
    while ((e = readdir(d)) != NULL)
        if (strncmp(e->d_name, "out", 3) == 0 && n < 256) snprintf(names[n++], sizeof names[0], "%s", e->d_name);
    closedir(d);
    for (int i = 0; i < n; i++) {
        struct stat st;
        if (stat(fz_path(names[i]), &st) == 0) total += (uint64_t)st.st_size;
        fz_remove(names[i]);
    }
    return total;
}

/* One line: parse ∘ format = identity for a record line; the simple records
 * it asks for (0 for directives and bad lines). */
static unsigned check_line(const char *line)
{
    smait_raw a[SMAIT_CALL_PARTS], b[SMAIT_CALL_PARTS];
    char err[256], text[SMAIT_TEXT_MAX + 64];
    int k = smait_text_parse(line, a, err, sizeof err);
    if (k <= 0) return 0;
    /* A call part alone (from "raw") is not a logical record: format reads
     * six parts, so it has no text of its own. */
    if (k == 1 && smait_classify(a[0].f1) == SMAIT_CALL_PART) return 1;
    size_t n = smait_text_format(a, text, sizeof text);
    FZ_CHECK(n < sizeof text, "formatted text too long (%zu)", n);
    int k2 = smait_text_parse(text, b, err, sizeof err);
    FZ_CHECK(k2 == k, "'%s' -> '%s' does not parse back (%s)", line, text, k2 < 0 ? err : "count");
    FZ_CHECK(memcmp(a, b, (size_t)k * sizeof *a) == 0, "'%s' -> '%s' parses to other bits", line, text);
    return (unsigned)k;
}

/* The simple records the text asks for, repeat blocks multiplied out
 * (saturating at UINT64_MAX; UINT64_MAX too beyond THREAD_LIMIT threads); checks every record line on the way. Lines as
 * asm sees them: split at newlines, a CR before the newline dropped, cut at
 * a NUL byte. */
static uint64_t planned_records(const uint8_t *data, size_t size)
{
    uint64_t mult[DEPTH_MAX + 1] = { 1 }, total = 0;
    int depth = 0;
    char line[1100];
    for (size_t at = 0; at < size;) {
        const uint8_t *nl = memchr(data + at, '\n', size - at);
        size_t len = nl ? (size_t)(nl - (data + at)) : size - at;
        const uint8_t *p = data + at;
        at += len + 1;
        if (len && p[len - 1] == '\r') len--;
        if (len >= 1024 && !memchr(p, 0, 1024)) continue;     /* asm refuses it: "line too long" */
        if (len > 1023) len = 1023;
        memcpy(line, p, len);
        line[len] = '\0';
        unsigned k = check_line(line);
        char *w[4];
        int nw = smait_text_words(line, w, 4);
        if (nw >= 1 && strcmp(w[0], "repeat") == 0) {
            uint32_t count = 1;
            if (nw == 2) smait_text_u32(w[1], &count);
            if (depth == DEPTH_MAX) return UINT64_MAX;
            uint64_t m = mult[depth];
            mult[++depth] = count && m > UINT64_MAX / count ? UINT64_MAX : m * count;
        } else if (nw == 2 && (strcmp(w[0], "thread") == 0 || strcmp(w[0], "threads") == 0)) {
            uint32_t t = 0;
            if (smait_text_u32(w[1], &t) == 0 && t >= THREAD_LIMIT) return UINT64_MAX;
        } else if (nw >= 1 && strcmp(w[0], "end") == 0) {
            if (depth > 0) depth--;
        } else if (k) {
            uint64_t add = mult[depth] > UINT64_MAX / k ? UINT64_MAX : mult[depth] * k;
            total = total > UINT64_MAX - add ? UINT64_MAX : total + add;
        }
    }
    return total;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t planned = planned_records(data, size);
    if (planned > REPEAT_LIMIT) return 0;

    job j;
    snprintf(j.text, sizeof j.text, "%s", fz_write("in.txt", data, size));
    snprintf(j.out, sizeof j.out, "%s", fz_path("out"));
    fz_result res;
    fz_run(assemble, &j, &res);
    uint64_t written = take_outputs();
    if (res.status) {
        FZ_CHECK(res.status == EXIT_DATA, "%s", fz_describe(&res));
        FZ_CHECK(strcmp(res.file, j.text) == 0, "the error does not name the text: %s", fz_describe(&res));
        /* Only a refusal of the whole file (zstd) has no line. */
        FZ_CHECK(strncmp(res.text, "line ", 5) == 0 || strncmp(res.text, "cannot read: ", 13) == 0,
                 "the error names no line: %s", fz_describe(&res));
        FZ_CHECK(written == 0, "a failed run left %llu bytes of output", (unsigned long long)written);
        return 0;
    }
    FZ_CHECK(written == 8 * planned, "wrote %llu bytes for %llu simple records",
                 (unsigned long long)written, (unsigned long long)planned);
    return 0;
}
