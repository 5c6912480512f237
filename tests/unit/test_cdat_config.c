/* test_cdat_config.c — cdat/config (configs/README.md): a full file read back, the
 * defaults, sizes with K/M/G, assoc full, the [mapping] section, memory_usage
 * resolved against the configuration's directory; every error with its exact
 * "cdat: FILE:LINE: reason" message and exit status 2 (config_load runs in a
 * child, tu_run); and every configuration shipped in configs/, which must load
 * and give caches that cdat/cache accepts. The unit tests run from the
 * repository root (make check), so configs/ is a relative path. */
#include "suites.h"
#include "../../cdat/cache.h"
#include "../../cdat/config.h"
#include "../../base/diag.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A fresh file name for each configuration written (tu_file keeps only a ring). */
static void write_cfg(char *path, size_t size, const char *text)
{
    static unsigned serial;
    snprintf(path, size, "%s/cfg-%ld-%u.ini", tu_dir, (long)getpid(), serial++);
    tu_write_str(path, text);
}

static void load_job(void *arg)
{
    diag_set_tool("cdat");
    cdat_config c;
    config_load(arg, &c);
    config_free(&c);
}

/* config_load(text) must fail at line with reason. A macro, so a failure names the caller. */
#define EXPECT_ERROR(text, line, reason) expect_error(__LINE__, (text), (line), (reason))

static void expect_error(int at, const char *text, unsigned line, const char *reason)
{
    char path[4096], want[8192];
    write_cfg(path, sizeof path, text);
    snprintf(want, sizeof want, "cdat: %s:%u: %s\n", path, line, reason);
    char *err = NULL;
    int st = tu_run(load_job, path, NULL, NULL, &err);
    ck_assert_msg(strcmp(err, want) == 0 && st == 2,
                  "test line %d: exit %d, stderr\n  %s  wanted\n  %s", at, st, err, want);
    free(err);
}

/* Load path in a child first (so an unexpected error shows its message), then here. */
static void load_path_ok(const char *path, cdat_config *c)
{
    char *err = NULL;
    int st = tu_run(load_job, (void *)path, NULL, NULL, &err);
    ck_assert_msg(st == 100 && err[0] == '\0', "%s: exit %d: %s", path, st, err);
    free(err);
    config_load(path, c);
}

static void load_ok(const char *text, cdat_config *c, char *path, size_t size)
{
    write_cfg(path, size, text);
    load_path_ok(path, c);
}

/* Every cache a valid configuration describes must be one cdat/cache can build. */
static void assert_caches_build(const cdat_config *c)
{
    cache k;
    ck_assert(cache_init(&k, c->dcache.size, c->dcache.assoc, c->line_size));
    cache_free(&k);
    ck_assert(cache_init(&k, c->icache.size, c->icache.assoc, c->line_size));
    cache_free(&k);
    if (c->icc.size) {
        ck_assert(cache_init(&k, c->icc.size, c->icc.assoc, c->line_size));
        cache_free(&k);
    }
}

/* ---- valid files ------------------------------------------------------------------------ */

START_TEST(full_file)
{
    char path[4096];
    cdat_config c;
    load_ok("; every section and every key\n"
            "# both comment prefixes\n"
            "[system]\n"
            "nodes = 2\n"
            "procs_per_node = 8\n"
            "banks_per_node = 4\n"
            "line_size = 32\n"
            "page_size = 8K\n"
            "protocol = 7\n"
            "allocation = oracle ; an inline comment\n"
            "memory_usage = mem/trace.16.memory\n"
            "\n"
            "[output]\n"
            "general = 1\n"
            "detailed = 0\n"
            "[dcache] ; comment after a section\n"
            "size = 1M\n"
            "assoc = 1\n"
            "[icache]\n"
            "size = 512K\n"
            "assoc = full\n"
            "[interconnect_cache]\n"
            "size = 16M\n"
            "assoc = 8\n"
            "[mapping]\n"
            "thread.0 = 1.7\n"
            "thread.3 = 0.0\n", &c, path, sizeof path);
    ck_assert_str_eq(c.path, path);
    ck_assert_uint_eq(c.nodes, 2);
    ck_assert_uint_eq(c.procs_per_node, 8);
    ck_assert_uint_eq(c.banks_per_node, 4);
    ck_assert_uint_eq(c.line_size, 32);
    ck_assert_uint_eq(c.page_size, 8192);
    ck_assert_uint_eq(c.protocol, 7);
    ck_assert_int_eq(c.allocation, ALLOC_ORACLE);
    ck_assert_str_eq(config_allocation_name(c.allocation), "oracle");
    char want[4096];
    snprintf(want, sizeof want, "%s/mem/trace.16.memory", tu_dir);
    ck_assert_str_eq(c.memory_usage, want);
    ck_assert(c.general);
    ck_assert(!c.detailed);
    ck_assert_uint_eq(c.dcache.size, 1u << 20);
    ck_assert_uint_eq(c.dcache.assoc, 1);
    ck_assert_uint_eq(c.icache.size, 512u << 10);
    ck_assert_uint_eq(c.icache.assoc, 0);
    ck_assert_uint_eq(c.icc.size, 16u << 20);
    ck_assert_uint_eq(c.icc.assoc, 8);
    ck_assert_uint_eq(config_total_procs(&c), 16);
    ck_assert_uint_eq(c.map_len, 4);
    ck_assert_int_eq(c.map_node[0], 1);
    ck_assert_int_eq(c.map_proc[0], 7);
    ck_assert_int_eq(c.map_node[1], -1);
    ck_assert_int_eq(c.map_node[2], -1);
    ck_assert_int_eq(c.map_node[3], 0);
    ck_assert_int_eq(c.map_proc[3], 0);
    ck_assert_uint_eq(c.map_line_max, 27);
    ck_assert_int_eq(config_thread_proc(&c, 0, 16), 15);   /* node 1, proc 7 */
    ck_assert_int_eq(config_thread_proc(&c, 1, 16), 1);    /* default */
    ck_assert_int_eq(config_thread_proc(&c, 2, 16), 2);
    ck_assert_int_eq(config_thread_proc(&c, 3, 16), 0);
    ck_assert_int_eq(config_thread_proc(&c, 15, 16), 15);
    ck_assert_int_eq(config_thread_proc(&c, 16, 17), -1);  /* no processor */
    assert_caches_build(&c);
    config_free(&c);
    ck_assert_ptr_null(c.path);
}
END_TEST

static void assert_defaults_except_system(const cdat_config *c)
{
    ck_assert_uint_eq(c->banks_per_node, 1);
    ck_assert_uint_eq(c->line_size, 64);
    ck_assert_uint_eq(c->page_size, 4096);
    ck_assert_uint_eq(c->protocol, 1);
    ck_assert_int_eq(c->allocation, ALLOC_RR1);
    ck_assert_ptr_null(c->memory_usage);
    ck_assert(!c->general);
    ck_assert(!c->detailed);
    ck_assert_uint_eq(c->dcache.size, 64 * 1024);
    ck_assert_uint_eq(c->dcache.assoc, 2);
    ck_assert_uint_eq(c->icache.size, 64 * 1024);
    ck_assert_uint_eq(c->icache.assoc, 2);
    ck_assert_uint_eq(c->icc.size, 0);
    ck_assert_uint_eq(c->icc.assoc, 4);
    ck_assert_uint_eq(c->map_len, 0);
    ck_assert_ptr_null(c->map_node);
}

START_TEST(defaults)
{
    char path[4096];
    cdat_config c;
    load_ok("", &c, path, sizeof path);        /* an empty file is a valid machine */
    ck_assert_uint_eq(c.nodes, 1);
    ck_assert_uint_eq(c.procs_per_node, 1);
    assert_defaults_except_system(&c);
    ck_assert_int_eq(config_thread_proc(&c, 0, 1), 0);
    ck_assert_int_eq(config_thread_proc(&c, 1, 2), -1);
    assert_caches_build(&c);
    config_free(&c);

    load_ok("[system]\nnodes = 4\nprocs_per_node = 4\n[output]\n[dcache]\n", &c, path, sizeof path);
    ck_assert_uint_eq(c.nodes, 4);
    ck_assert_uint_eq(c.procs_per_node, 4);
    assert_defaults_except_system(&c);
    for (int t = 0; t < 16; t++) ck_assert_int_eq(config_thread_proc(&c, t, 16), t);
    ck_assert_int_eq(config_thread_proc(&c, 16, 17), -1);
    config_free(&c);
}
END_TEST

START_TEST(sizes)
{
    char path[4096];
    cdat_config c;
    load_ok("[system]\nline_size = 128\npage_size = 1G\n"
            "[dcache]\nsize = 65536\n[icache]\nsize = 2m\n[interconnect_cache]\nsize = 1g\nassoc = 64\n",
            &c, path, sizeof path);
    ck_assert_uint_eq(c.line_size, 128);
    ck_assert_uint_eq(c.page_size, 1u << 30);
    ck_assert_uint_eq(c.dcache.size, 65536);
    ck_assert_uint_eq(c.icache.size, 2u << 20);
    ck_assert_uint_eq(c.icc.size, 1ull << 30);
    ck_assert_uint_eq(c.icc.assoc, 64);
    config_free(&c);

    load_ok("[system]\nline_size = 4K\npage_size = 4k\n[dcache]\nsize = 1G\nassoc = FULL\n"
            "[icache]\nsize = 8K\nassoc = 2\n", &c, path, sizeof path);
    ck_assert_uint_eq(c.line_size, 4096);
    ck_assert_uint_eq(c.page_size, 4096);
    ck_assert_uint_eq(c.dcache.size, 1ull << 30);
    ck_assert_uint_eq(c.dcache.assoc, 0);
    config_free(&c);

    load_ok("[system]\nline_size = 4\npage_size = 64\n[dcache]\nsize = 12\nassoc = full\n"
            "[icache]\nsize = 4\nassoc = 1\n", &c, path, sizeof path);
    ck_assert_uint_eq(c.line_size, 4);
    ck_assert_uint_eq(c.dcache.size, 12);      /* 3 lines, fully associative: no power of two needed */
    assert_caches_build(&c);
    config_free(&c);

    /* Limits: 32 nodes of 4 and 1 node of 128 are both 128 processors. */
    load_ok("[system]\nnodes = 32\nprocs_per_node = 4\nbanks_per_node = 32\nprotocol = 8\n", &c, path, sizeof path);
    ck_assert_uint_eq(config_total_procs(&c), 128);
    config_free(&c);
    load_ok("[system]\nprocs_per_node = 128\nallocation = first_touch\n", &c, path, sizeof path);
    ck_assert_uint_eq(config_total_procs(&c), 128);
    ck_assert_int_eq(c.allocation, ALLOC_FIRST_TOUCH);
    config_free(&c);
}
END_TEST

START_TEST(mapping)
{
    char path[4096];
    cdat_config c;
    /* The mapping may come before [system]; threads may share a processor. */
    load_ok("[mapping]\nthread.2 = 3.1\nthread.0 = 0.1\nthread.5 = 0.1\n"
            "[system]\nnodes = 4\nprocs_per_node = 2\n", &c, path, sizeof path);
    ck_assert_uint_eq(c.map_len, 6);
    ck_assert_int_eq(config_thread_proc(&c, 0, 6), 1);
    ck_assert_int_eq(config_thread_proc(&c, 1, 6), 1);     /* balanced: node 0 runs threads 0, 1 */
    ck_assert_int_eq(config_thread_proc(&c, 2, 6), 7);     /* node 3, proc 1 */
    ck_assert_int_eq(config_thread_proc(&c, 3, 6), 4);     /* balanced: node 2 runs threads 3, 4 */
    ck_assert_int_eq(config_thread_proc(&c, 4, 6), 5);
    ck_assert_int_eq(config_thread_proc(&c, 5, 6), 1);
    ck_assert_int_eq(config_thread_proc(&c, 8, 9), -1);
    ck_assert_uint_eq(c.map_line_max, 4);
    config_free(&c);
}
END_TEST

/* Prints memory_usage after loading a path relative to the current directory. */
static void relative_job(void *arg)
{
    const char **a = arg;
    if (chdir(a[0]) != 0) _exit(97);
    cdat_config c;
    config_load(a[1], &c);
    printf("%s\n", c.memory_usage);
    config_free(&c);
}

START_TEST(memory_usage_path)
{
    char dir[2048], path[4096];
    snprintf(dir, sizeof dir, "%s/cfgdir", tu_dir);
    ck_assert(mkdir(dir, 0700) == 0 || errno == EEXIST);
    cdat_config c;

    snprintf(path, sizeof path, "%s/rel.ini", dir);
    tu_write_str(path, "[system]\nallocation = rr2\nmemory_usage = trace.4.memory\n");
    load_path_ok(path, &c);
    char want[4096];
    snprintf(want, sizeof want, "%s/trace.4.memory", dir);
    ck_assert_str_eq(c.memory_usage, want);
    ck_assert_int_eq(c.allocation, ALLOC_RR2);
    config_free(&c);

    tu_write_str(path, "[system]\nmemory_usage = ../up/m.memory\n");   /* rr1 may name one too */
    load_path_ok(path, &c);
    snprintf(want, sizeof want, "%s/../up/m.memory", dir);
    ck_assert_str_eq(c.memory_usage, want);
    config_free(&c);

    tu_write_str(path, "[system]\nallocation = oracle\nmemory_usage = /abs/t.memory\n");
    load_path_ok(path, &c);
    ck_assert_str_eq(c.memory_usage, "/abs/t.memory");
    config_free(&c);

    /* A configuration named without a directory: the path stays as written. */
    tu_write_str(path, "[system]\nmemory_usage = first.memory\nmemory_usage = t.memory\n");
    const char *args[] = { dir, "rel.ini" };
    char *out = NULL, *err = NULL;
    ck_assert_int_eq(tu_run(relative_job, args, NULL, &out, &err), 100);
    ck_assert_str_eq(err, "");
    ck_assert_str_eq(out, "t.memory\n");        /* the last one wins */
    free(out);
    free(err);
    args[1] = "./rel.ini";
    ck_assert_int_eq(tu_run(relative_job, args, NULL, &out, &err), 100);
    ck_assert_str_eq(out, "./t.memory\n");
    free(out);
    free(err);
}
END_TEST

START_TEST(syntax_variants)
{
    char path[4096];
    cdat_config c;
    /* A UTF-8 byte-order mark, ':' as separator, spaces around values, a last line without newline. */
    load_ok("\xEF\xBB\xBF[system]\nnodes: 2\n  \n[output]\ngeneral   =   1", &c, path, sizeof path);
    ck_assert_uint_eq(c.nodes, 2);
    ck_assert(c.general);
    config_free(&c);

    /* A line of exactly 199 characters (inih's limit) is fine, and line numbers after it hold. */
    char text[512];
    memset(text, 'x', 199);
    text[0] = ';';
    strcpy(text + 199, "\n[system]\nbogus = 1\n");
    EXPECT_ERROR(text, 3, "[system]: unknown key 'bogus'");
}
END_TEST

/* ---- errors -------------------------------------------------------------------------- */

START_TEST(unknown_sections_and_keys)
{
    static const char list[] = "(system, output, dcache, icache, interconnect_cache, l2, l3, mapping, timing)";
    char reason[256];
    snprintf(reason, sizeof reason, "unknown section [bogus] %s", list);
    EXPECT_ERROR("[system]\nnodes = 2\n[bogus]\nx = 1\n", 3, reason);
    EXPECT_ERROR("[bogus]\n[system]\nnodes = 2\n", 1, reason);         /* even with no keys */
    EXPECT_ERROR("[system]\n[bogus] ; c\n", 2, reason);
    snprintf(reason, sizeof reason, "unknown section [System] %s", list);
    EXPECT_ERROR("[System]\nnodes = 2\n", 1, reason);                  /* names are case-sensitive */
    snprintf(reason, sizeof reason, "unknown section [] %s", list);
    EXPECT_ERROR("[]\n", 1, reason);

    EXPECT_ERROR("[system]\nnodes = 2\ncpus = 4\n", 3, "[system]: unknown key 'cpus'");
    EXPECT_ERROR("[output]\ngeneral = 1\nsummary = 1\n", 3, "[output]: unknown key 'summary' (general, detailed)");
    EXPECT_ERROR("[dcache]\nline_size = 32\n", 2, "[dcache]: unknown key 'line_size' (size, assoc, replacement, write_policy)");
    EXPECT_ERROR("[icache]\nways = 2\n", 2, "[icache]: unknown key 'ways' (size, assoc, replacement)");
    EXPECT_ERROR("[interconnect_cache]\nsize = 0\nenabled = 1\n", 3,
                 "[interconnect_cache]: unknown key 'enabled' (size, assoc, replacement)");
    EXPECT_ERROR("[l2]\nsize = 1M\nreplacement = LRU\n", 3, "[l2] replacement: 'LRU' must be lru, fifo or random");
    EXPECT_ERROR("[dcache]\nreplacement = plru\n", 2, "[dcache] replacement: 'plru' must be lru, fifo or random");
    EXPECT_ERROR("[mapping]\nproc.0 = 0.0\n", 2, "[mapping]: key 'proc.0' must be thread.N or policy");
    EXPECT_ERROR("[mapping]\nthread.x = 0.0\n", 2, "[mapping]: key 'thread.x' must be thread.N or policy");
    EXPECT_ERROR("[mapping]\nthread. = 0.0\n", 2, "[mapping]: key 'thread.' must be thread.N or policy");
    EXPECT_ERROR("[mapping]\nthread.-1 = 0.0\n", 2, "[mapping]: key 'thread.-1' must be thread.N or policy");
}
END_TEST

START_TEST(outside_and_syntax)
{
    EXPECT_ERROR("nodes = 4\n[system]\n", 1, "'nodes' is outside any section");
    EXPECT_ERROR("; comment\n\nprotocol = 2\n", 3, "'protocol' is outside any section");
    const char *syntax = "syntax error (expected [section], key = value, or ; comment)";
    EXPECT_ERROR("[system]\nnodes 4\n", 2, syntax);
    EXPECT_ERROR("[system\nnodes = 4\n", 1, syntax);
    /* The first error wins, whichever kind. */
    EXPECT_ERROR("[system]\ngarbage\nbogus = 1\n", 2, syntax);
    EXPECT_ERROR("[system]\nbogus = 1\ngarbage\n", 2, "[system]: unknown key 'bogus'");
    EXPECT_ERROR("[system]\nnodes = 0\nprotocol = 9\n", 2, "nodes: 0 is out of range (1..32)");
    /* A line longer than inih reads is an error, not two lines. */
    char text[1024];
    strcpy(text, "[system]\nmemory_usage = ");
    size_t n = strlen(text);
    memset(text + n, 'a', 300);
    strcpy(text + n + 300, "\nallocation = oracle\nbogus = 1\n");
    EXPECT_ERROR(text, 2, "line longer than 199 characters");
}
END_TEST

START_TEST(malformed_numbers)
{
    EXPECT_ERROR("[system]\nnodes = four\n", 2, "nodes: 'four' is not a whole number");
    EXPECT_ERROR("[system]\nnodes = 4x\n", 2, "nodes: '4x' is not a whole number");
    EXPECT_ERROR("[system]\nnodes = -1\n", 2, "nodes: '-1' is not a whole number");
    EXPECT_ERROR("[system]\nnodes = +2\n", 2, "nodes: '+2' is not a whole number");
    EXPECT_ERROR("[system]\nnodes = 1.5\n", 2, "nodes: '1.5' is not a whole number");
    EXPECT_ERROR("[system]\nnodes = 4K\n", 2, "nodes: '4K' is not a whole number");
    EXPECT_ERROR("[system]\nnodes =\n", 2, "nodes: '' is not a whole number");
    EXPECT_ERROR("[system]\nnodes = 99999999999999999999999\n", 2,
                 "nodes: '99999999999999999999999' is not a whole number");
    EXPECT_ERROR("[system]\nprocs_per_node = 0x10\n", 2, "procs_per_node: '0x10' is not a whole number");
    EXPECT_ERROR("[system]\nbanks_per_node = two\n", 2, "banks_per_node: 'two' is not a whole number");
    EXPECT_ERROR("[system]\nprotocol = 1a\n", 2, "protocol: '1a' is not a whole number");
    EXPECT_ERROR("[dcache]\nsize = 64Q\n", 2, "[dcache] size: '64Q' is not a size (e.g. 64K, 1M)");
    EXPECT_ERROR("[icache]\nsize = K\n", 2, "[icache] size: 'K' is not a size (e.g. 64K, 1M)");
    EXPECT_ERROR("[icache]\nsize = 64KB\n", 2, "[icache] size: '64KB' is not a size (e.g. 64K, 1M)");
    EXPECT_ERROR("[interconnect_cache]\nsize = -1\n", 2,
                 "[interconnect_cache] size: '-1' is not a size (e.g. 64K, 1M)");
    EXPECT_ERROR("[dcache]\nsize = 99999999999999G\n", 2,
                 "[dcache] size: '99999999999999G' is not a size (e.g. 64K, 1M)");
    EXPECT_ERROR("[system]\nline_size = abc\n", 2, "line_size: 'abc' must be a power of two from 4 to 4096 bytes");
    EXPECT_ERROR("[system]\npage_size = 4096x\n", 2,
                 "page_size: '4096x' must be a power of two from 64 bytes to 1G");
    EXPECT_ERROR("[output]\ngeneral = yes\n", 2, "general: 'yes' must be 0 or 1");
    EXPECT_ERROR("[output]\ndetailed = 2\n", 2, "detailed: '2' must be 0 or 1");
    EXPECT_ERROR("[dcache]\nassoc = two\n", 2, "[dcache] assoc: 'two' must be 1..64 or full");
    EXPECT_ERROR("[mapping]\nthread.0 = 1\n", 2, "thread.0: '1' must be node.proc");
    EXPECT_ERROR("[mapping]\nthread.0 = a.b\n", 2, "thread.0: 'a.b' must be node.proc (two whole numbers)");
    EXPECT_ERROR("[mapping]\nthread.0 = 0.1.2\n", 2, "thread.0: '0.1.2' must be node.proc (two whole numbers)");
    EXPECT_ERROR("[mapping]\nthread.0 = 0.\n", 2, "thread.0: '0.' must be node.proc (two whole numbers)");
}
END_TEST

START_TEST(system_ranges)
{
    EXPECT_ERROR("[system]\nnodes = 0\n", 2, "nodes: 0 is out of range (1..32)");
    EXPECT_ERROR("[system]\nnodes = 33\n", 2, "nodes: 33 is out of range (1..32)");
    EXPECT_ERROR("[system]\nprocs_per_node = 0\n", 2, "procs_per_node: 0 is out of range (1..128)");
    EXPECT_ERROR("[system]\nprocs_per_node = 129\n", 2, "procs_per_node: 129 is out of range (1..128)");
    /* nodes x procs_per_node > 128: the line of whichever key came later. */
    EXPECT_ERROR("[system]\nnodes = 2\nprotocol = 1\nprocs_per_node = 65\n", 4,
                 "nodes x procs_per_node = 2 x 65 = 130 processors; at most 128");
    EXPECT_ERROR("[system]\nprocs_per_node = 128\n\nnodes = 2\n", 4,
                 "nodes x procs_per_node = 2 x 128 = 256 processors; at most 128");
    EXPECT_ERROR("[system]\nnodes = 32\n[dcache]\n[system]\nprocs_per_node = 5\n", 5,
                 "nodes x procs_per_node = 32 x 5 = 160 processors; at most 128");
    EXPECT_ERROR("[system]\nbanks_per_node = 0\n", 2, "banks_per_node: 0 is out of range (1..32)");
    EXPECT_ERROR("[system]\nbanks_per_node = 33\n", 2, "banks_per_node: 33 is out of range (1..32)");
    EXPECT_ERROR("[system]\nprotocol = 0\n", 2, "protocol: 0 is out of range (1..8)");
    EXPECT_ERROR("[system]\nprotocol = 9\n", 2, "protocol: 9 is out of range (1..8)");
    const char *alloc = "must be rr1, rr2, oracle or first_touch";
    char reason[256];
    snprintf(reason, sizeof reason, "allocation: 'rr3' %s", alloc);
    EXPECT_ERROR("[system]\nallocation = rr3\n", 2, reason);
    snprintf(reason, sizeof reason, "allocation: 'RR1' %s", alloc);
    EXPECT_ERROR("[system]\nallocation = RR1\n", 2, reason);
    snprintf(reason, sizeof reason, "allocation: '1touch' %s", alloc);
    EXPECT_ERROR("[system]\nallocation = 1touch\n", 2, reason);
    EXPECT_ERROR("[system]\nnodes = 2\nallocation = rr2\n", 3,
                 "allocation rr2 needs memory_usage = <file written by ciat>");
    EXPECT_ERROR("[system]\nallocation = oracle\n", 2,
                 "allocation oracle needs memory_usage = <file written by ciat>");
    EXPECT_ERROR("[system]\nmemory_usage =\n", 2, "memory_usage: empty path");
    const char *ls = "must be a power of two from 4 to 4096 bytes";
    snprintf(reason, sizeof reason, "line_size: '48' %s", ls);
    EXPECT_ERROR("[system]\nline_size = 48\n", 2, reason);
    snprintf(reason, sizeof reason, "line_size: '0' %s", ls);
    EXPECT_ERROR("[system]\nline_size = 0\n", 2, reason);
    snprintf(reason, sizeof reason, "line_size: '2' %s", ls);
    EXPECT_ERROR("[system]\nline_size = 2\n", 2, reason);
    snprintf(reason, sizeof reason, "line_size: '8K' %s", ls);
    EXPECT_ERROR("[system]\nline_size = 8K\n", 2, reason);
    EXPECT_ERROR("[system]\npage_size = 3000\n", 2, "page_size: '3000' must be a power of two from 64 bytes to 1G");
    EXPECT_ERROR("[system]\npage_size = 32\n", 2, "page_size: '32' must be a power of two from 64 bytes to 1G");
    EXPECT_ERROR("[system]\npage_size = 2G\n", 2, "page_size: '2G' must be a power of two from 64 bytes to 1G");
    EXPECT_ERROR("[system]\nline_size = 256\npage_size = 128\n", 3, "page_size 128 is smaller than line_size 256");
}
END_TEST

START_TEST(cache_geometry)
{
    EXPECT_ERROR("[dcache]\nsize = 100\n", 2, "[dcache] size: 100 bytes is not a whole number of 64-byte lines");
    EXPECT_ERROR("[icache]\nsize = 32\n", 2, "[icache] size: 32 bytes is not a whole number of 64-byte lines");
    /* the line size can be what breaks it: the later of the two lines */
    EXPECT_ERROR("[dcache]\nsize = 96\n[system]\nline_size = 64\n", 4,
                 "[dcache] size: 96 bytes is not a whole number of 64-byte lines");
    EXPECT_ERROR("[interconnect_cache]\nsize = 1000\n", 2,
                 "[interconnect_cache] size: 1000 bytes is not a whole number of 64-byte lines");
    EXPECT_ERROR("[dcache]\nsize = 0\n", 2, "[dcache] size: a processor cache needs a size > 0");
    EXPECT_ERROR("[icache]\nsize = 0\n", 2, "[icache] size: a processor cache needs a size > 0");
    EXPECT_ERROR("[icache]\nsize = 3K\nassoc = 1\n", 3,     /* the later of size and assoc */
                 "[icache]: 48 lines in 1 ways do not make a power-of-two number of sets");
    EXPECT_ERROR("[interconnect_cache]\nsize = 96K\n", 2,
                 "[interconnect_cache]: 1536 lines in 4 ways do not make a power-of-two number of sets");
    /* only assoc given (the size is the default): the assoc line */
    EXPECT_ERROR("[system]\nnodes = 1\n[dcache]\nassoc = 3\n", 4,
                 "[dcache]: 1024 lines in 3 ways do not make a power-of-two number of sets");
    EXPECT_ERROR("[dcache]\nassoc = 64\nsize = 64\n", 3,
                 "[dcache]: 1 lines in 64 ways do not make a power-of-two number of sets");
    EXPECT_ERROR("[dcache]\nassoc = 0\n", 2, "[dcache] assoc: '0' must be 1..64 or full");
    EXPECT_ERROR("[icache]\nassoc = 65\n", 2, "[icache] assoc: '65' must be 1..64 or full");
    EXPECT_ERROR("[interconnect_cache]\nassoc = 128\n", 2, "[interconnect_cache] assoc: '128' must be 1..64 or full");
    EXPECT_ERROR("[dcache]\nassoc = fully\n", 2, "[dcache] assoc: 'fully' must be 1..64 or full");
}
END_TEST

/* [dcache] write_policy (docs/cdat-protocol.md §12): back (the default) or
 * through, which needs an L2 that holds the d-cache's lines; an error names
 * the later of the keys involved. */
START_TEST(write_policy)
{
    char path[4096];
    cdat_config c;
    load_ok("[l2]\nsize = 64K\n[dcache]\nwrite_policy = through\n", &c, path, sizeof path);
    ck_assert(c.dcache_write_through);
    config_free(&c);
    load_ok("[dcache]\nwrite_policy = through\nwrite_policy = back\n", &c, path, sizeof path);
    ck_assert(!c.dcache_write_through);
    config_free(&c);
    load_ok("[dcache]\nwrite_policy = through\n[l2]\nsize = 64K\ninclusion = inclusive\n", &c, path, sizeof path);
    ck_assert(c.dcache_write_through && c.l2_inclusion == INCL_INCLUSIVE);
    config_free(&c);
    EXPECT_ERROR("[dcache]\nwrite_policy = through\n", 2,
                 "[dcache] write_policy = through: the machine has no L2 ([l2] size = 0); a write-through d-cache"
                 " writes into its processor's L2 (docs/cdat-protocol.md §12)");
    EXPECT_ERROR("[dcache]\nwrite_policy = through\n[l2]\nsize = 1M\nsize = 0\n", 5,
                 "[dcache] write_policy = through: the machine has no L2 ([l2] size = 0); a write-through d-cache"
                 " writes into its processor's L2 (docs/cdat-protocol.md §12)");
    EXPECT_ERROR("[dcache]\nwrite_policy = through\n[l2]\nsize = 1M\ninclusion = exclusive\n", 5,
                 "[dcache] write_policy = through: an exclusive L2 does not hold the d-cache's lines, so it cannot"
                 " take their stores; use [l2] inclusion = inclusive or non_inclusive");
    EXPECT_ERROR("[dcache]\nwrite_policy = Through\n", 2, "[dcache] write_policy: 'Through' must be back or through");
    EXPECT_ERROR("[icache]\nwrite_policy = back\n", 2, "[icache]: unknown key 'write_policy' (size, assoc, replacement)");
    EXPECT_ERROR("[l3]\nsize = 1M\nwrite_policy = back\n", 3, "[l3]: unknown key 'write_policy' (size, assoc, replacement)");
}
END_TEST

/* The limits of what cdat can build: no cache larger than the 4G address
 * space, and at most 1G of cdat's memory for the caches of the whole machine
 * (cache_memory: 4 bytes a line; a fully associative cache of more than 64
 * lines 16 a line plus 4 a hash bucket). Each at the limit and one past it. */
START_TEST(cache_limits)
{
    char path[4096];
    cdat_config c;
    ck_assert_uint_eq(cache_memory(64 * 1024, 2, 64), 4096);
    ck_assert_uint_eq(cache_memory(12, 0, 4), 12);                 /* 3 lines, full: the array layout */
    ck_assert_uint_eq(cache_memory(64 * 64, 0, 64), 256);          /* 64 lines: still the array */
    ck_assert_uint_eq(cache_memory(65 * 64, 0, 64), 65 * 16 + 128 * 4);   /* hashed: 128 buckets */
    ck_assert_uint_eq(cache_memory(4ull << 30, 0, 64), 1280u << 20);
    ck_assert_uint_eq(cache_memory(0, 4, 64), 0);

    /* 4G: the whole address space (2^26 lines of 64 bytes, 256M each). */
    load_ok("[dcache]\nsize = 4G\n[icache]\nsize = 4194304K\n", &c, path, sizeof path);
    ck_assert_uint_eq(c.dcache.size, 1ull << 32);
    ck_assert_uint_eq(c.icache.size, 1ull << 32);
    config_free(&c);
    EXPECT_ERROR("[dcache]\nsize = 4194305K\n", 2,
                 "[dcache] size: 4194305K is larger than 4G, the whole 32-bit address space");
    EXPECT_ERROR("[system]\nline_size = 4K\n[dcache]\nsize = 4096G\n", 4,
                 "[dcache] size: 4096G is larger than 4G, the whole 32-bit address space");
    EXPECT_ERROR("[icache]\nsize = 8G\nassoc = full\n", 2,
                 "[icache] size: 8G is larger than 4G, the whole 32-bit address space");
    EXPECT_ERROR("[interconnect_cache]\nsize = 4294967360\n", 2,
                 "[interconnect_cache] size: 4294967360 is larger than 4G, the whole 32-bit address space");

    /* Memory: 2 processors x (256M + 256M) is 1G exactly; one more line of 4
     * bytes anywhere is too much. The line of the last key involved. */
    load_ok("[system]\nprocs_per_node = 2\n[dcache]\nsize = 4G\n[icache]\nsize = 4G\n", &c, path, sizeof path);
    assert_caches_build(&c);
    config_free(&c);
    EXPECT_ERROR("[system]\nprocs_per_node = 2\n[dcache]\nsize = 4G\n[icache]\nsize = 4G\n"
                 "[interconnect_cache]\nsize = 64\nassoc = 1\n[output]\ngeneral = 1\n", 9,
                 "the caches need 1073741828 bytes of cdat's memory, more than the 1G it allows: 2 processors"
                 " x (dcache 256M + icache 256M) + 1 node x interconnect_cache 4 bytes");
    EXPECT_ERROR("[dcache]\nsize = 4G\n[icache]\nsize = 4G\n[system]\nprocs_per_node = 3\nnodes = 1\n", 7,
                 "the caches need 1536M of cdat's memory, more than the 1G it allows: 3 processors"
                 " x (dcache 256M + icache 256M)");
    /* The fully associative layout: 2^25 lines of 32 bytes take 16 x 2^25 +
     * 4 x 2^25 = 640M, with a 3G 3-way d-cache (384M) 1G exactly. One line
     * more takes 16 bytes and doubles the hash buckets. */
    load_ok("[system]\nline_size = 32\n[dcache]\nsize = 3G\nassoc = 3\n[icache]\nsize = 1G\nassoc = full\n",
            &c, path, sizeof path);
    config_free(&c);
    EXPECT_ERROR("[system]\nline_size = 32\n[dcache]\nsize = 3G\nassoc = 3\n[icache]\nassoc = full\n"
                 "size = 1073741856\n", 8,
                 "the caches need 1207959568 bytes of cdat's memory, more than the 1G it allows: 1 processor"
                 " x (dcache 384M + icache 805306384 bytes)");
    /* The case: a 4G fully associative i-cache is 1280M alone. */
    EXPECT_ERROR("[icache]\nsize = 4G\nassoc = full\n", 3,
                 "the caches need 1310724K of cdat's memory, more than the 1G it allows: 1 processor"
                 " x (dcache 4K + icache 1280M)");
    /* 32 nodes of 4: the interconnect caches count once per node. */
    EXPECT_ERROR("[system]\nnodes = 32\nprocs_per_node = 4\n[interconnect_cache]\nsize = 2G\nassoc = 8\n", 6,
                 "the caches need 4097M of cdat's memory, more than the 1G it allows: 128 processors"
                 " x (dcache 4K + icache 4K) + 32 nodes x interconnect_cache 128M");
}
END_TEST

START_TEST(mapping_errors)
{
    EXPECT_ERROR("[system]\nnodes = 2\nprocs_per_node = 4\n[mapping]\nthread.0 = 1.3\nthread.1 = 2.0\nthread.2 = 0.0\n",
                 6, "thread.1 = 2.0: the machine has nodes 0..1 with processors 0..3");
    EXPECT_ERROR("[system]\nnodes = 2\nprocs_per_node = 4\n[mapping]\nthread.7 = 1.4\n",
                 5, "thread.7 = 1.4: the machine has nodes 0..1 with processors 0..3");
    /* before [system]; and of two bad mappings, the first in the file */
    EXPECT_ERROR("[mapping]\nthread.5 = 0.4\nthread.1 = 0.9\n[system]\nprocs_per_node = 4\n",
                 2, "thread.5 = 0.4: the machine has nodes 0..0 with processors 0..3");
    EXPECT_ERROR("[mapping]\nthread.0 = 0.0\nthread.3 = 1.0\n", 3,
                 "thread.3 = 1.0: the machine has nodes 0..0 with processors 0..0");
    EXPECT_ERROR("[mapping]\nthread.0 = 33.0\n", 2, "thread.0: 33.0 is out of range");
    EXPECT_ERROR("[mapping]\nthread.0 = 0.129\n", 2, "thread.0: 0.129 is out of range");
    EXPECT_ERROR("[mapping]\nthread.2 = 0.0\nthread.1 = 0.0\nthread.2 = 0.0\n", 4, "thread.2 is mapped twice");
    EXPECT_ERROR("[mapping]\nthread.2 = 0.0\nthread.02 = 0.0\n", 3, "thread.02 is mapped twice");
}
END_TEST

START_TEST(missing_file)
{
    char path[4096], want[8192];
    snprintf(path, sizeof path, "%s/no-such.ini", tu_dir);
    snprintf(want, sizeof want, "cdat: %s: cannot read the configuration: No such file or directory\n", path);
    tu_assert_fatal(load_job, path, 2, want);
}
END_TEST

/* ---- the shipped configurations ------------------------------------------------------- */

static const struct shipped {
    const char *path;
    unsigned nodes, procs_per_node;
} shipped[] = {
    { "configs/1x1.ini", 1, 1 },
    { "configs/spp1600.ini", 2, 8 },
    { "configs/4x4.ini", 4, 4 },
    { "configs/32x4.ini", 32, 4 },
};

START_TEST(shipped_configs)
{
    const struct shipped *s = &shipped[_i];
    ck_assert_msg(access(s->path, R_OK) == 0, "%s: %s (the unit tests run from the repository root)",
                  s->path, strerror(errno));
    cdat_config c;
    load_path_ok(s->path, &c);
    ck_assert_uint_eq(c.nodes, s->nodes);
    ck_assert_uint_eq(c.procs_per_node, s->procs_per_node);
    assert_caches_build(&c);
    /* A shipped machine must run on any trace: no allocation that needs a memory usage file. */
    ck_assert(c.allocation == ALLOC_RR1 || c.allocation == ALLOC_FIRST_TOUCH);
    ck_assert_ptr_null(c.memory_usage);
    config_free(&c);
}
END_TEST

/* ---- --set SECTION.KEY=VALUE ------------------------------------------------------------------- */

/* Every key, with a good and a bad value. */
static const struct set_case {
    const char *section, *key, *good, *bad;
} set_cases[] = {
    { "system", "nodes", "4", "33" },
    { "system", "procs_per_node", "2", "0" },
    { "system", "banks_per_node", "3", "x" },
    { "system", "line_size", "32", "48" },
    { "system", "page_size", "8K", "32" },
    { "system", "protocol", "7", "9" },
    { "system", "allocation", "first_touch", "random" },
    { "system", "memory_usage", "/nowhere/m.memory", "" },
    { "output", "general", "1", "yes" },
    { "output", "detailed", "1", "2" },
    { "dcache", "size", "128K", "64X" },
    { "dcache", "assoc", "full", "65" },
    { "icache", "size", "32K", "8G" },
    { "icache", "assoc", "4", "0" },
    { "interconnect_cache", "size", "1M", "-1" },
    { "interconnect_cache", "assoc", "8", "many" },
    { "dcache", "replacement", "fifo", "LRU" },
    { "icache", "replacement", "random", "mru" },
    { "interconnect_cache", "replacement", "fifo", "" },
    { "dcache", "write_policy", "back", "wt" },
    { "mapping", "thread.3", "0.0", "1" },
    { "mapping", "policy", "spread", "scatter" },
};

typedef struct set_job {
    const char *path;           /* NULL: no file */
    char *sets[3];
    unsigned nsets;
} set_job;

static void load_sets_job(void *arg)
{
    set_job *j = arg;
    diag_set_tool("cdat");
    cdat_config c;
    config_load_sets(j->path, j->sets, j->nsets, &c);
    config_free(&c);
}

static void assert_same_config(const cdat_config *a, const cdat_config *b)
{
    ck_assert_uint_eq(a->nodes, b->nodes);
    ck_assert_uint_eq(a->procs_per_node, b->procs_per_node);
    ck_assert_uint_eq(a->banks_per_node, b->banks_per_node);
    ck_assert_uint_eq(a->line_size, b->line_size);
    ck_assert_uint_eq(a->page_size, b->page_size);
    ck_assert_uint_eq(a->protocol, b->protocol);
    ck_assert_int_eq(a->allocation, b->allocation);
    ck_assert_int_eq(!a->memory_usage, !b->memory_usage);
    if (a->memory_usage) ck_assert_str_eq(a->memory_usage, b->memory_usage);
    ck_assert_int_eq(a->general, b->general);
    ck_assert_int_eq(a->detailed, b->detailed);
    ck_assert_mem_eq(&a->dcache, &b->dcache, sizeof a->dcache);
    ck_assert_mem_eq(&a->icache, &b->icache, sizeof a->icache);
    ck_assert_mem_eq(&a->icc, &b->icc, sizeof a->icc);
    ck_assert_int_eq(a->dcache_write_through, b->dcache_write_through);
    ck_assert_int_eq(a->map_policy, b->map_policy);
    for (int t = 0; t < 16; t++) ck_assert_int_eq(config_thread_proc(a, t, 16), config_thread_proc(b, t, 16));
}

/* A key's good value: the same machine from --set (over no file, and over a
 * file without the key) as from a file line. Machines with 4 nodes of 2 so
 * mapping entries and policies have somewhere to go. */
START_TEST(set_good_values)
{
    const struct set_case *k = &set_cases[_i];
    const char *base = strcmp(k->key, "nodes") == 0 || strcmp(k->key, "procs_per_node") == 0 ? "" :
                       "[system]\nnodes = 4\nprocs_per_node = 2\n";
    char text[512], path[4096], plain[4096], set[256];
    snprintf(text, sizeof text, "%s[%s]\n%s = %s\n", base, k->section, k->key, k->good);
    cdat_config want, got, over;
    load_ok(text, &want, path, sizeof path);
    snprintf(set, sizeof set, "%s.%s=%s", k->section, k->key, k->good);
    load_ok(base, &over, plain, sizeof plain);
    config_free(&over);
    set_job j = { plain, { set }, 1 };
    char *err = NULL;
    int st = tu_run(load_sets_job, &j, NULL, NULL, &err);
    ck_assert_msg(st == 100 && err[0] == '\0', "--set %s: exit %d: %s", set, st, err);
    free(err);
    config_load_sets(plain, j.sets, 1, &over);
    assert_same_config(&want, &over);
    ck_assert_uint_eq(over.nsets, 1);
    ck_assert_str_eq(over.sets[0], set);
    config_free(&over);
    /* With no file: the base as settings too. */
    char *sets[3] = { "system.nodes=4", "system.procs_per_node=2", set };
    unsigned first = *base ? 0 : 2;
    config_load_sets(NULL, sets + first, 3 - first, &got);
    assert_same_config(&want, &got);
    ck_assert_ptr_null(got.path);
    config_free(&got);
    config_free(&want);
}
END_TEST

/* A key's bad value: the file's message, naming the option instead of
 * file:line, as a usage error. */
START_TEST(set_bad_values)
{
    const struct set_case *k = &set_cases[_i];
    char text[512], path[4096], set[256];
    snprintf(text, sizeof text, "[system]\nnodes = 4\nprocs_per_node = 2\n[%s]\n%s = %s\n", k->section, k->key,
             k->bad);
    write_cfg(path, sizeof path, text);
    char *ferr = NULL;
    ck_assert_int_eq(tu_run(load_job, path, NULL, NULL, &ferr), 2);
    char prefix[4200];
    snprintf(prefix, sizeof prefix, "cdat: %s:", path);
    ck_assert_msg(strncmp(ferr, prefix, strlen(prefix)) == 0, "%s", ferr);
    const char *reason = strchr(ferr + strlen(prefix), ' ') + 1;    /* after "LINE: " */
    snprintf(set, sizeof set, "%s.%s=%s", k->section, k->key, k->bad);
    set_job j = { NULL, { "system.nodes=4", "system.procs_per_node=2", set }, 3 };
    char want[1024];
    snprintf(want, sizeof want, "cdat: --set %s: %scdat: try 'cdat --help'\n", set, reason);
    char *err = NULL;
    int st = tu_run(load_sets_job, &j, NULL, NULL, &err);
    ck_assert_msg(st == 1 && strcmp(err, want) == 0, "exit %d\n  %s  wanted\n  %s", st, err, want);
    free(err);
    free(ferr);
}
END_TEST

static void expect_set_error(const char *path, char *set1, char *set2, const char *reason, int status)
{
    set_job j = { path, { set1, set2 }, set2 ? 2 : 1 };
    char want[1024];
    if (status == 1) snprintf(want, sizeof want, "cdat: %s\ncdat: try 'cdat --help'\n", reason);
    else snprintf(want, sizeof want, "cdat: %s\n", reason);
    char *err = NULL;
    int st = tu_run(load_sets_job, &j, NULL, NULL, &err);
    ck_assert_msg(st == status && strcmp(err, want) == 0, "--set %s: exit %d\n  %s  wanted\n  %s", set1, st,
                  err, want);
    free(err);
}

#define FORM "expected SECTION.KEY=VALUE (e.g. system.protocol=3)"

/* The option's own form, and checks of several keys together. */
START_TEST(set_form_and_combinations)
{
    expect_set_error(NULL, "protocol=3", NULL, "--set protocol=3: " FORM, 1);
    expect_set_error(NULL, "system.protocol", NULL, "--set system.protocol: " FORM, 1);
    expect_set_error(NULL, ".protocol=3", NULL, "--set .protocol=3: " FORM, 1);
    expect_set_error(NULL, "system.=3", NULL, "--set system.=3: " FORM, 1);
    expect_set_error(NULL, "cpu.protocol=3", NULL, "--set cpu.protocol=3: unknown section [cpu] (system, output,"
                     " dcache, icache, interconnect_cache, l2, l3, mapping, timing)", 1);
    expect_set_error(NULL, "system.speed=3", NULL, "--set system.speed=3: [system]: unknown key 'speed'", 1);
    /* A check of several keys names the last one involved: the setting. */
    expect_set_error(NULL, "system.line_size=128", "system.page_size=64", "--set system.page_size=64: page_size 64"
                     " is smaller than line_size 128", 1);
    expect_set_error(NULL, "system.allocation=oracle", NULL, "--set system.allocation=oracle: allocation oracle"
                     " needs memory_usage = <file written by ciat>", 1);
    expect_set_error(NULL, "mapping.thread.0=1.0", NULL, "--set mapping.thread.0=1.0: thread.0 = 1.0: the machine"
                     " has nodes 0..0 with processors 0..0", 1);
    /* Not involved: the file's line is named, as without --set. */
    char path[4096], want[4200];
    write_cfg(path, sizeof path, "[dcache]\nsize = 1000\n");
    snprintf(want, sizeof want, "%s:2: [dcache] size: 1000 bytes is not a whole number of 64-byte lines", path);
    expect_set_error(path, "system.protocol=2", NULL, want, 2);
    /* A setting replaces the file's value, a mapping entry included. */
    write_cfg(path, sizeof path, "[system]\nnodes = 2\nprotocol = 4\n[mapping]\nthread.0 = 1.0\n");
    cdat_config c;
    char *sets[] = { "system.protocol=6", "mapping.thread.0=0.0", "system.protocol=2" };
    config_load_sets(path, sets, 3, &c);
    ck_assert_uint_eq(c.protocol, 2);
    ck_assert_int_eq(config_thread_proc(&c, 0, 1), 0);
    config_free(&c);
}
END_TEST

/* [timing]: off without the section; each key sets its cycles (others 0). */
START_TEST(timing)
{
    char path[4096];
    cdat_config c;
    load_ok("[system]\nnodes = 2\n", &c, path, sizeof path);
    ck_assert(!c.timing.on);
    config_free(&c);
    load_ok("[timing]\nremote_memory = 300\nhop = 20\nlocal_memory = 0\n", &c, path, sizeof path);
    ck_assert(c.timing.on);
    ck_assert_uint_eq(c.timing.cycles[TIMING_REMOTE_MEMORY], 300);
    ck_assert_uint_eq(c.timing.cycles[TIMING_HOP], 20);
    ck_assert_uint_eq(c.timing.cycles[TIMING_LOCAL_MEMORY], 0);
    ck_assert_uint_eq(c.timing.cycles[TIMING_UPGRADE], 0);
    config_free(&c);
    EXPECT_ERROR("[timing]\nupgrade = -1\n", 2, "upgrade: '-1' is not a whole number");
    EXPECT_ERROR("[timing]\nhop = 1000001\n", 2, "hop: 1000001 is out of range (0..1000000)");
    EXPECT_ERROR("[timing]\nbus = 3\n", 2, "[timing]: unknown key 'bus' (local_memory, local_cache, remote_memory,"
                 " remote_cache, upgrade, hop, l2_hit, local_l3, remote_l3, bank_busy, link_busy, mode)");
    /* the contention keys: cycles of occupancy, in the same range */
    load_ok("[timing]\nbank_busy = 20\nlink_busy = 7\n", &c, path, sizeof path);
    ck_assert(c.timing.on);
    ck_assert_uint_eq(c.timing.bank_busy, 20);
    ck_assert_uint_eq(c.timing.link_busy, 7);
    config_free(&c);
    EXPECT_ERROR("[timing]\nbank_busy = -5\n", 2, "bank_busy: '-5' is not a whole number");
    EXPECT_ERROR("[timing]\nlink_busy = 1000001\n", 2, "link_busy: 1000001 is out of range (0..1000000)");
    /* mode: accounting by default; feedback; the last one given wins; alone it is a [timing] section */
    load_ok("[timing]\nhop = 3\n", &c, path, sizeof path);
    ck_assert(!c.timing.feedback);
    config_free(&c);
    load_ok("[timing]\nmode = feedback\n", &c, path, sizeof path);
    ck_assert(c.timing.on && c.timing.feedback);
    ck_assert_uint_eq(c.timing.cycles[TIMING_LOCAL_MEMORY], 0);
    config_free(&c);
    load_ok("[timing]\nmode = feedback\nmode = accounting\n", &c, path, sizeof path);
    ck_assert(c.timing.on && !c.timing.feedback);
    config_free(&c);
    EXPECT_ERROR("[timing]\nmode = Feedback\n", 2, "[timing] mode: 'Feedback' must be accounting or feedback");
}
END_TEST

/* [mapping] policy: compact fills node 0 first; spread goes round the nodes;
 * balanced makes one block of threads per node; entries still win. */
START_TEST(mapping_policy)
{
    char path[4096];
    cdat_config c;
    load_ok("[system]\nnodes = 4\nprocs_per_node = 4\n[mapping]\npolicy = spread\nthread.5 = 3.3\n", &c, path,
            sizeof path);
    ck_assert_int_eq(c.map_policy, MAP_SPREAD);
    static const int want[] = { 0, 4, 8, 12, 1, 15, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15 };
    for (int t = 0; t < 16; t++) ck_assert_int_eq(config_thread_proc(&c, t, 16), want[t]);
    ck_assert_int_eq(config_thread_proc(&c, 16, 17), -1);
    config_free(&c);
    load_ok("[system]\nnodes = 4\nprocs_per_node = 4\n[mapping]\npolicy = compact\n", &c, path, sizeof path);
    for (int t = 0; t < 16; t++) ck_assert_int_eq(config_thread_proc(&c, t, 16), t);
    config_free(&c);
    /* balanced, the default: T threads in contiguous blocks, one per node;
     * node k runs threads ceil(kT/N) … ceil((k+1)T/N) - 1. */
    load_ok("[system]\nnodes = 4\nprocs_per_node = 4\n", &c, path, sizeof path);
    ck_assert_int_eq(c.map_policy, MAP_BALANCED);
    static const int five[] = { 0, 1, 4, 8, 12 };         /* 5 threads: blocks 0-1, 2, 3, 4 */
    for (int t = 0; t < 5; t++) ck_assert_int_eq(config_thread_proc(&c, t, 5), five[t]);
    static const int eight[] = { 0, 1, 4, 5, 8, 9, 12, 13 };  /* 8 threads: two per node */
    for (int t = 0; t < 8; t++) ck_assert_int_eq(config_thread_proc(&c, t, 8), eight[t]);
    static const int seven[] = { 0, 1, 4, 5, 8, 9, 12 };     /* 7 threads: 2, 2, 2, 1 */
    for (int t = 0; t < 7; t++) ck_assert_int_eq(config_thread_proc(&c, t, 7), seven[t]);
    for (int t = 0; t < 15; t++) ck_assert_int_eq(config_thread_proc(&c, t, 15), t);  /* 4, 4, 4, 3 */
    for (int t = 0; t < 16; t++) ck_assert_int_eq(config_thread_proc(&c, t, 16), t);  /* full: compact */
    ck_assert_int_eq(config_thread_proc(&c, 16, 17), -1);
    config_free(&c);
    /* Every T below the machine's size: each node gets floor or ceil T / N
     * threads, on distinct processors, in thread order. */
    load_ok("[system]\nnodes = 3\nprocs_per_node = 5\n", &c, path, sizeof path);
    for (int nt = 1; nt < 15; nt++) {
        int per[3] = { 0, 0, 0 }, last = -1;
        for (int t = 0; t < nt; t++) {
            int p = config_thread_proc(&c, t, nt);
            ck_assert_int_gt(p, last);
            last = p;
            per[p / 5]++;
        }
        for (int k = 0; k < 3; k++) {
            ck_assert_int_le(per[k], (nt + 2) / 3);
            ck_assert_int_ge(per[k], nt / 3);
        }
    }
    config_free(&c);
    EXPECT_ERROR("[mapping]\npolicy = scatter\n", 2, "policy: 'scatter' must be balanced, compact or spread");
}
END_TEST

Suite *cdat_config_suite(void)
{
    Suite *s = suite_create("cdat_config");
    TCase *tc = tcase_create("valid");
    tcase_add_test(tc, full_file);
    tcase_add_test(tc, defaults);
    tcase_add_test(tc, sizes);
    tcase_add_test(tc, mapping);
    tcase_add_test(tc, memory_usage_path);
    tcase_add_test(tc, syntax_variants);
    tcase_add_test(tc, mapping_policy);
    tcase_add_test(tc, timing);
    suite_add_tcase(s, tc);

    tc = tcase_create("set");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, set_good_values, 0, (int)(sizeof set_cases / sizeof set_cases[0]));
    tcase_add_loop_test(tc, set_bad_values, 0, (int)(sizeof set_cases / sizeof set_cases[0]));
    tcase_add_test(tc, set_form_and_combinations);
    suite_add_tcase(s, tc);

    tc = tcase_create("errors");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, unknown_sections_and_keys);
    tcase_add_test(tc, outside_and_syntax);
    tcase_add_test(tc, malformed_numbers);
    tcase_add_test(tc, system_ranges);
    tcase_add_test(tc, cache_geometry);
    tcase_add_test(tc, write_policy);
    tcase_add_test(tc, cache_limits);
    tcase_add_test(tc, mapping_errors);
    tcase_add_test(tc, missing_file);
    suite_add_tcase(s, tc);

    tc = tcase_create("shipped");
    tcase_add_loop_test(tc, shipped_configs, 0, (int)(sizeof shipped / sizeof shipped[0]));
    suite_add_tcase(s, tc);
    return s;
}
