/* fuzz_cdat_sim.c — cdat end to end (its main on a small trace set and a
 * machine the option bytes describe), run twice: on one thread (--workers 1)
 * and with the simulation on a thread of its own beside the reading and
 * scheduling (--workers 2). The two must agree byte for byte, which puts the
 * pipeline between the threads (common/fanout.c, whose batches the fuzz
 * build makes small so that inputs of a few records cross their ends) under
 * every protocol variant and machine shape.
 *
 * Input: four option bytes, then up to MAX_TRACES traces separated by
 * "#TRACE#\n" (the set t.P.0 … t.P.(P-1)).
 *   byte 0: 0x07 protocol - 1, 0x18 nodes x processors (1x1, 2x1, 2x2, 4x2;
 *           the next that has a processor for every trace),
 *           0x20 a 512-byte interconnect cache, 0x40 --lenient, 0x80 -p
 *   byte 1: 0x03 line size (16, 32, 64, 16), 0x0c d- and i-cache lines
 *           (4, 8, 32, 128), 0x30 ways (1, 2, 4, full), 0x40 first_touch
 *           placement (else rr1), 0x80 pages of 4 lines (else 4096 bytes)
 *   byte 2: 0x01 general traces, 0x02 detailed trace, 0x04 --miss-classes,
 *           0x08 --handle-io, 0x10 mapping spread, 0x20 -z, 0x40
 *           --gap-limit 16, 0x80 two banks per node
 *   byte 3: 0x01 a third run (not with --handle-io, which cdat refuses
 *           there): this machine and the one with the next protocol
 *           (m.ini, m2.ini) in one pass, which replays every batch to both;
 *           0x06 an L2 of 4 times the d-cache's lines, 2 ways (0 none, then
 *           non_inclusive, inclusive, exclusive; --miss-classes is left out
 *           then, since cdat refuses it with an L2); 0x08 a memory-side
 *           L3 per node of 8 times the d-cache's lines, 4 ways
 *           (--miss-classes left out too)
 *
 * Checks, beyond "no crash, no sanitizer report, no hang":
 *   - the two runs end alike: both succeed, or both fail with the same
 *     status, file, offset and message;
 *   - a failed run exits 2 (bad input) naming one of the traces (with an
 *     offset, unless the trace cannot be read) or listing the blocked
 *     threads of a deadlock, and leaves no output file;
 *   - a successful run wrote a report, and the two runs wrote the same files
 *     with the same bytes, the report's "# command:" line aside (it names
 *     --workers and -o);
 *   - the third run ends as the first; its outputs for m.ini (named
 *     t.P.m.*) are the first run's (t.P.*) byte for byte, and those for
 *     m2.ini include a report. */
#include "fuzz_support.h"
#include "../base/diag.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int cdat_main(int argc, char **argv);

enum { MAX_TRACES = 8, MAX_FILES = 64 };
#define TRACE_SEP "#TRACE#\n"

/* The machine of the option bytes, as a configuration file; never fewer
 * processors than the n traces (cdat refuses a machine without a processor
 * for each thread). */
static const char *write_config(const char *file, uint8_t a, uint8_t b, uint8_t c, uint8_t d, int n)
{
    static const char *const inclusion[4] = { "", "non_inclusive", "inclusive", "exclusive" };
    static const char *const shapes[4][2] = { { "1", "1" }, { "2", "1" }, { "2", "2" }, { "4", "2" } };
    static const unsigned lines[4] = { 16, 32, 64, 16 }, sets_lines[4] = { 4, 8, 32, 128 };
    static const char *const ways[4] = { "1", "2", "4", "full" };
    unsigned line = lines[b & 3], cache = line * sets_lines[(b >> 2) & 3];
    int shape = (a >> 3) & 3;
    while ((1 << shape) < n) shape++;
    char text[1024];
    int len = snprintf(text, sizeof text,
             "[system]\nnodes = %s\nprocs_per_node = %s\nbanks_per_node = %d\nline_size = %u\n"
             "page_size = %u\nprotocol = %d\nallocation = %s\n"
             "[output]\ngeneral = %d\ndetailed = %d\n"
             "[dcache]\nsize = %u\nassoc = %s\n[icache]\nsize = %u\nassoc = %s\n"
             "[interconnect_cache]\nsize = %d\nassoc = 2\n[mapping]\npolicy = %s\n",
             shapes[shape][0], shapes[shape][1], c & 0x80 ? 2 : 1, line,
             b & 0x80 ? 4 * line : 4096, 1 + (a & 7), b & 0x40 ? "first_touch" : "rr1",
             c & 1, (c >> 1) & 1, cache, ways[(b >> 4) & 3], cache, ways[(b >> 4) & 3],
             a & 0x20 ? 512 : 0, c & 0x10 ? "spread" : "compact");
    if (d & 0x06)
        len += snprintf(text + len, sizeof text - (size_t)len, "[l2]\nsize = %u\nassoc = 2\ninclusion = %s\n",
                        4 * cache, inclusion[(d >> 1) & 3]);
    if (d & 0x08) snprintf(text + len, sizeof text - (size_t)len, "[l3]\nsize = %u\nassoc = 4\n", 8 * cache);
    return fz_write(file, text, strlen(text));
}

/* The files a run left in its output directory, sorted by name. */
typedef struct listing {
    int n;
    char name[MAX_FILES][256];
} listing;

static int by_name(const void *x, const void *y) { return strcmp(x, y); }

static void list_dir(const char *dir, listing *l)
{
    l->n = 0;
    DIR *d = opendir(fz_path(dir));
    FZ_CHECK(d, "cannot list %s", dir);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        FZ_CHECK(l->n < MAX_FILES, "more than %d outputs", MAX_FILES);
        snprintf(l->name[l->n++], sizeof l->name[0], "%s", e->d_name);
    }
    closedir(d);
    qsort(l->name, (size_t)l->n, sizeof l->name[0], by_name);
}

/* Output files fa and fb (paths in the scratch directory) must both exist
 * and hold the same bytes, a report's "# command:" line aside; what names
 * the comparison in a failure. */
static void check_same_output(const char *fa, const char *fb, const char *what)
{
    size_t na = 0, nb = 0;
    unsigned char *pa = fz_read(fa, &na), *pb = fz_read(fb, &nb);
    FZ_CHECK(pa && pb, "%s: %s or %s is missing", what, fa, fb);
    if (strstr(fa, ".cdat_report")) {
        na = fz_drop_line(pa, na, "# command: ");
        nb = fz_drop_line(pb, nb, "# command: ");
    }
    FZ_CHECK(na == nb && memcmp(pa, pb, na) == 0, "%s: %s and %s differ", what, fa, fb);
    free(pa);
    free(pb);
}

/* Compares the two runs' outputs and empties both directories. */
static void compare_outputs(const listing *l1, const listing *l2)
{
    static char f1[300], f2[300];
    FZ_CHECK(l1->n == l2->n, "--workers 1 wrote %d files, --workers 2 %d", l1->n, l2->n);
    for (int i = 0; i < l1->n; i++) {
        FZ_CHECK(strcmp(l1->name[i], l2->name[i]) == 0, "outputs differ in name: %s, %s", l1->name[i],
                 l2->name[i]);
        snprintf(f1, sizeof f1, "w1/%s", l1->name[i]);
        snprintf(f2, sizeof f2, "w2/%s", l2->name[i]);
        check_same_output(f1, f2, "--workers 1 and 2");
        fz_remove(f1);
        fz_remove(f2);
    }
}

/* base's command line, then --workers workers -o dir, then the set and
 * the configurations (ncfg of them). */
static void run_with(const fz_job *base, const char *workers, const char *dir, const char *prefix,
                     char *const *cfgs, int ncfg, fz_result *res)
{
    fz_job j = *base;
    j.argv[j.argc++] = "--workers";
    j.argv[j.argc++] = (char *)workers;
    j.argv[j.argc++] = "-o";
    j.argv[j.argc++] = (char *)dir;
    j.argv[j.argc++] = (char *)prefix;
    for (int k = 0; k < ncfg; k++) j.argv[j.argc++] = cfgs[k];
    j.argv[j.argc] = NULL;
    fz_run(fz_job_run, &j, res);
}

/* The two-machine pass's files in w3 (l3): m.ini's (t.P.m.REST) equal the
 * first run's (t.P.REST, in l1); m2.ini's include a report. Empties w3. */
static void compare_pass(int n, const listing *l1, const listing *l3)
{
    static char base[64], f1[300], f3[300];
    snprintf(base, sizeof base, "t.%d.", n);
    size_t k = strlen(base);
    int m_files = 0;
    bool m2_report = false;
    for (int i = 0; i < l3->n; i++) {
        const char *rest = l3->name[i] + k;
        FZ_CHECK(strncmp(l3->name[i], base, k) == 0, "the pass wrote %s", l3->name[i]);
        snprintf(f3, sizeof f3, "w3/%s", l3->name[i]);
        if (strncmp(rest, "m.", 2) == 0) {
            m_files++;
            snprintf(f1, sizeof f1, "w1/%s%s", base, rest + 2);
            check_same_output(f1, f3, "the first run and the two-machine pass");
        } else {
            FZ_CHECK(strncmp(rest, "m2.", 3) == 0, "the pass wrote %s", l3->name[i]);
            m2_report |= strcmp(rest, "m2.cdat_report") == 0;
        }
        fz_remove(f3);
    }
    FZ_CHECK(m_files == l1->n, "the pass wrote %d files for m.ini, the first run %d", m_files, l1->n);
    FZ_CHECK(m2_report, "the pass wrote no report for m2.ini");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4) return 0;
    uint8_t a = data[0], b = data[1], c = data[2], d = data[3];
    if (d & 0x0e) c &= (uint8_t)~0x04;          /* no --miss-classes with an L2 or an L3 */
    const uint8_t *part[MAX_TRACES];
    size_t len[MAX_TRACES];
    int n = fz_split(data + 4, size - 4, TRACE_SEP, sizeof TRACE_SEP - 1, MAX_TRACES, part, len);
    bool pass = (d & 0x01) && !(c & 0x08);

    static char prefix[FZ_PATH], cfg[FZ_PATH], cfg2[FZ_PATH], dir1[FZ_PATH], dir2[FZ_PATH], dir3[FZ_PATH],
        paths[MAX_TRACES][FZ_PATH], name[64];
    for (int t = 0; t < n; t++) {
        snprintf(name, sizeof name, "t.%d.%d", n, t);
        snprintf(paths[t], sizeof paths[t], "%s", fz_write(name, part[t], len[t]));
    }
    snprintf(name, sizeof name, "t.%d", n);
    snprintf(prefix, sizeof prefix, "%s", fz_path(name));
    snprintf(cfg, sizeof cfg, "%s", write_config("m.ini", a, b, c, d, n));
    if (pass) snprintf(cfg2, sizeof cfg2, "%s", write_config("m2.ini", (uint8_t)((a & ~7) | ((a + 1) & 7)), b, c, d, n));
    snprintf(dir1, sizeof dir1, "%s", fz_path("w1"));
    snprintf(dir2, sizeof dir2, "%s", fz_path("w2"));
    snprintf(dir3, sizeof dir3, "%s", fz_path("w3"));
    mkdir(dir1, 0700);
    mkdir(dir2, 0700);
    mkdir(dir3, 0700);

    static char gap[8] = "16";
    fz_job j = { .main = cdat_main };
    j.argv[j.argc++] = "cdat";
    j.argv[j.argc++] = "-q";
    if (a & 0x40) j.argv[j.argc++] = "--lenient";
    if (a & 0x80) j.argv[j.argc++] = "-p";
    if (c & 0x04) j.argv[j.argc++] = "--miss-classes";
    if (c & 0x08) j.argv[j.argc++] = "--handle-io";
    if (c & 0x20) j.argv[j.argc++] = "-z";
    if (c & 0x40) {
        j.argv[j.argc++] = "--gap-limit";
        j.argv[j.argc++] = gap;
    }

    char *cfgs[2] = { cfg, cfg2 };
    fz_result r1, r2, r3;
    run_with(&j, "1", dir1, prefix, cfgs, 1, &r1);
    run_with(&j, "2", dir2, prefix, cfgs, 1, &r2);
    if (pass) run_with(&j, "1", dir3, prefix, cfgs, 2, &r3);
    for (int t = 0; t < n; t++) {
        snprintf(name, sizeof name, "t.%d.%d", n, t);
        fz_remove(name);
    }
    listing l1, l2, l3;
    list_dir("w1", &l1);
    list_dir("w2", &l2);
    list_dir("w3", &l3);

    FZ_CHECK(fz_same_end(&r1, &r2), "the runs ended differently: --workers 1 %s | --workers 2 %s",
             fz_describe(&r1), fz_describe(&r2));
    FZ_CHECK(!pass || fz_same_end(&r1, &r3), "the two-machine pass ended otherwise: %s", fz_describe(&r3));
    if (r1.status) {
        fz_check_set_error(&r1, paths, n);
        FZ_CHECK(l1.n == 0 && l2.n == 0 && l3.n == 0, "a failed run left an output (%s)",
                 l1.n ? l1.name[0] : l2.n ? l2.name[0] : l3.name[0]);
        return 0;
    }
    bool report = false;
    for (int i = 0; i < l1.n; i++) report |= strstr(l1.name[i], ".cdat_report") != NULL;
    FZ_CHECK(report, "a successful run wrote no report");
    if (pass) compare_pass(n, &l1, &l3);
    compare_outputs(&l1, &l2);
    return 0;
}
