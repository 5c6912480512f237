/* test_cdat_io.c — cdat's I/O subsystem (cdat/io.h) driven directly: option
 * values and their ranges, the disk time (exact, rounded up, no overflow at
 * the largest values), and the requests and copies of file reads and writes
 * (raw and buffered, the I/O processor chosen, buffers cut at 2^32, the
 * kernel buffer's pieces), on the 2 × 2 machine of test_machine.c. */
#include "suites.h"
#include "../../cdat/io.h"
#include "../../cdat/placement.h"
#include "../../base/diag.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct rig {
    cdat_config cfg;
    placement pl;
    private_ranges pr;
    machine m;
    io_options o;
    io_sim io;
    char log[8192];             /* one line per sequence or copy access */
    unsigned seqs, copies;
} rig;

static void on_seq(void *ctx, const mach_seq *s)
{
    rig *r = ctx;
    r->seqs++;
    size_t n = strlen(r->log);
    if (n + 64 > sizeof r->log) return;
    n += (size_t)snprintf(r->log + n, sizeof r->log - n, "%d@%d %x:", s->requester, s->req_node, s->addr);
    for (unsigned i = 0; i < s->n; i++) n += (size_t)snprintf(r->log + n, sizeof r->log - n, " %02u", s->tx[i].code);
    snprintf(r->log + n, sizeof r->log - n, "\n");
}

static void on_copy(void *ctx, int cpu, uint64_t clock, uint32_t addr, unsigned size, bool store)
{
    rig *r = ctx;
    r->copies++;
    size_t n = strlen(r->log);
    if (n + 64 > sizeof r->log) return;
    snprintf(r->log + n, sizeof r->log - n, "P%d %s %u %x @%llu\n", cpu, store ? "st" : "ld", size, addr,
             (unsigned long long)clock);
}

static void rig_init(rig *r)
{
    static unsigned serial;
    memset(r, 0, sizeof *r);
    char path[256];
    snprintf(path, sizeof path, "%s/io-%ld-%u.ini", tu_dir, (long)getpid(), serial++);
    tu_write_str(path, "[system]\nnodes = 2\nprocs_per_node = 2\nline_size = 64\npage_size = 4K\nprotocol = 1\n"
                 "allocation = rr1\n[dcache]\nsize = 1K\nassoc = 2\n[icache]\nsize = 1K\nassoc = 2\n");
    config_load(path, &r->cfg);
    placement_init(&r->pl, ALLOC_RR1, 2, 4096, &r->pr, NULL, NULL, 0);
    mach_init(&r->m, &r->cfg, &r->pl, on_seq, r);
    io_options_init(&r->o);
    r->o.handle = true;
}

static void rig_start(rig *r) { io_init(&r->io, &r->m, &r->o, on_copy, r); }

static void rig_free(rig *r)
{
    mach_free(&r->m);
    placement_free(&r->pl);
    config_free(&r->cfg);
}

static const char *take(rig *r)
{
    static char out[8192];
    strcpy(out, r->log);
    r->log[0] = 0;
    return out;
}

/* ---- options ---- */

START_TEST(defaults)
{
    io_options o;
    io_options_init(&o);
    ck_assert(!o.handle && !o.buffered && !o.asynch && !o.distributed);
    ck_assert_uint_eq(o.dma_bw.value, 20);
    ck_assert_uint_eq(o.disk_latency.value, 10);
    ck_assert_uint_eq(o.ipc.value, 2);
    ck_assert_uint_eq(o.mhz.value, 180);
    ck_assert_uint_eq(o.max_bytes.value, 67108864);
    ck_assert_ptr_null(io_options_orphan(&o));
}
END_TEST

START_TEST(param_values)
{
    io_options o;
    io_options_init(&o);
    ck_assert_ptr_null(io_param_parse(&o.dma_bw, "1000000"));
    ck_assert_uint_eq(o.dma_bw.value, 1000000);
    ck_assert(o.dma_bw.given);
    ck_assert_str_eq(io_param_parse(&o.dma_bw, "0"), "0 is out of range (1..1000000 MB/s)");
    ck_assert_str_eq(io_param_parse(&o.dma_bw, "1000001"), "1000001 is out of range (1..1000000 MB/s)");
    ck_assert_str_eq(io_param_parse(&o.dma_bw, "18446744073709551616"),
                     "18446744073709551616 is out of range (1..1000000 MB/s)");
    ck_assert_str_eq(io_param_parse(&o.dma_bw, "0x10"), "'0x10' is not a whole number of MB/s");
    ck_assert_str_eq(io_param_parse(&o.dma_bw, ""), "an empty value (a whole number is expected)");
    ck_assert_uint_eq(o.dma_bw.value, 1000000);             /* a refused value changes nothing */
    ck_assert_ptr_null(io_param_parse(&o.disk_latency, "0"));
    ck_assert_uint_eq(o.disk_latency.value, 0);
    ck_assert_str_eq(io_param_parse(&o.ipc, "0"), "0 is out of range (1..1000 instructions per cycle)");
    ck_assert_str_eq(io_param_parse(&o.mhz, "100001"), "100001 is out of range (1..100000 MHz)");
}
END_TEST

START_TEST(orphans)
{
    io_options o;
    io_options_init(&o);
    o.asynch = true;
    ck_assert_str_eq(io_options_orphan(&o), "-asynch_io");
    io_options_init(&o);
    ck_assert_ptr_null(io_param_parse(&o.mhz, "180"));      /* the default, but given */
    ck_assert_str_eq(io_options_orphan(&o), "-mhz");
    o.handle = true;
    ck_assert_ptr_null(io_options_orphan(&o));
}
END_TEST

/* ---- the disk time ---- */

START_TEST(disk_time)
{
    io_options o;
    io_options_init(&o);
    /* (10000 µs + bytes / 20) × 360 */
    ck_assert_uint_eq(io_disk_time(&o, 0), 3600000);
    ck_assert_uint_eq(io_disk_time(&o, 4096), 3600000 + 73728);
    ck_assert_uint_eq(io_disk_time(&o, 1), 3600000 + 18);
    o.disk_latency.value = 0;
    o.ipc.value = 1;
    o.mhz.value = 1;
    o.dma_bw.value = 3;
    ck_assert_uint_eq(io_disk_time(&o, 1000), 334);         /* 333.33 rounded up */
    ck_assert_uint_eq(io_disk_time(&o, 999), 333);          /* exact */
    ck_assert_uint_eq(io_disk_time(&o, 1), 1);
    /* The largest values: no overflow. */
    o.disk_latency.value = IO_MAX_LATENCY;
    o.ipc.value = IO_MAX_IPC;
    o.mhz.value = IO_MAX_MHZ;
    o.dma_bw.value = 1;
    ck_assert_uint_eq(io_disk_time(&o, (uint64_t)UINT32_MAX + 1), 100000000000000000ull + 429496729600000000ull);
    o.dma_bw.value = IO_MAX_DMA_BW;
    ck_assert_uint_eq(io_disk_time(&o, 3), 100000000000000000ull + 300);
}
END_TEST

/* ---- requests ---- */

START_TEST(raw_read_lines)
{
    rig r;
    rig_init(&r);
    rig_start(&r);
    /* 0x1030..0x10af: lines 0x1000, 0x1040, 0x1080 (page 1: home node 1). */
    ck_assert_uint_eq(io_call(&r.io, 0, 7, SMAIT_CT_READ, 0x1030, 0x80), 3600000 + 0x80 * 18);
    ck_assert_str_eq(take(&r), "-1@0 1000: 06 14\n-1@0 1040: 06 14\n-1@0 1080: 06 14\n");
    ck_assert_uint_eq(r.copies, 0);
    rig_free(&r);
}
END_TEST

START_TEST(raw_write_read_current)
{
    rig r;
    rig_init(&r);
    rig_start(&r);
    mach_store(&r.m, 3, 1, 0x40);          /* P3 holds line 0x1000 dirty */
    take(&r);
    ck_assert_uint_eq(io_call(&r.io, 1, 2, SMAIT_CT_WRITE, 0x1000, 64), 3600000 + 64 * 18);
    ck_assert_str_eq(take(&r), "-1@0 1000: 05 31 56 11\n");
    rig_free(&r);
}
END_TEST

/* -max_io_bytes: the buffer's size after the cut at 2^32 against the limit. */
START_TEST(refusal_above_max_bytes)
{
    rig r;
    rig_init(&r);
    rig_start(&r);
    ck_assert_uint_eq(r.o.max_bytes.value, 67108864);
    ck_assert_ptr_null(io_refusal(&r.io, SMAIT_CT_READ, 0x1000, 67108864));
    ck_assert_str_eq(io_refusal(&r.io, SMAIT_CT_READ, 0x1000, 67108865),
                     "a file read of 67108865 bytes at 0x00001000: more than -max_io_bytes allows (67108864;"
                     " -handle_io simulates one request per line of the buffer); a larger -max_io_bytes, up to"
                     " 4294967296, lets it through");
    /* 0xffffffc8 + 4294967295 is cut at 2^32: 56 bytes. */
    ck_assert_ptr_null(io_refusal(&r.io, SMAIT_CT_WRITE, 0xffffffc8u, UINT32_MAX));
    ck_assert_ptr_nonnull(io_refusal(&r.io, SMAIT_CT_WRITE, 0, UINT32_MAX));
    ck_assert_ptr_null(io_refusal(&r.io, SMAIT_CT_SYSCALL, 0, UINT32_MAX));    /* not a transfer */
    r.o.max_bytes.value = IO_MAX_MAX_BYTES;                                     /* everything through */
    ck_assert_ptr_null(io_refusal(&r.io, SMAIT_CT_READ, 0, UINT32_MAX));
    r.o.max_bytes.value = 64;
    ck_assert_ptr_null(io_refusal(&r.io, SMAIT_CT_WRITE, 0x1000, 64));
    ck_assert_ptr_nonnull(io_refusal(&r.io, SMAIT_CT_WRITE, 0x1000, 65));
    r.o.handle = false;                                                         /* only under -handle_io */
    ck_assert_ptr_null(io_refusal(&r.io, SMAIT_CT_WRITE, 0x1000, 65));
    ck_assert_uint_eq(r.seqs, 0);
    rig_free(&r);
}
END_TEST

START_TEST(other_calls_and_off)
{
    rig r;
    rig_init(&r);
    rig_start(&r);
    ck_assert_uint_eq(io_call(&r.io, 0, 1, SMAIT_CT_BARRIER, 0x1000, 64), 0);
    ck_assert_uint_eq(io_call(&r.io, 0, 1, SMAIT_CT_SYSCALL, 0x1000, 64), 0);
    ck_assert_uint_eq(io_call(&r.io, 0, 1, SMAIT_CT_READ, 0x1000, 0), 0);      /* no bytes */
    ck_assert_uint_eq(r.seqs, 0);
    r.o.handle = false;
    ck_assert_uint_eq(io_call(&r.io, 0, 1, SMAIT_CT_READ, 0x1000, 64), 0);
    ck_assert_uint_eq(r.seqs, 0);
    rig_free(&r);
}
END_TEST

START_TEST(asynch_no_wait)
{
    rig r;
    rig_init(&r);
    r.o.asynch = true;
    rig_start(&r);
    ck_assert_uint_eq(io_call(&r.io, 0, 1, SMAIT_CT_READ, 0x1000, 64), 0);
    ck_assert_uint_eq(r.seqs, 1);
    rig_free(&r);
}
END_TEST

START_TEST(distributed_choice)
{
    rig r;
    rig_init(&r);
    rig_start(&r);
    ck_assert_uint_eq(r.io.nio, 1);
    ck_assert_int_eq(io_processor_of(&r.io, 3), 1);
    rig_free(&r);
    rig_init(&r);
    r.o.distributed = true;
    rig_start(&r);
    ck_assert_uint_eq(r.io.nio, 2);
    ck_assert_int_eq(io_processor_of(&r.io, 0), 1);
    ck_assert_int_eq(io_processor_of(&r.io, 1), 1);
    ck_assert_int_eq(io_processor_of(&r.io, 2), 2);
    ck_assert_int_eq(io_processor_of(&r.io, 3), 2);
    io_call(&r.io, 2, 5, SMAIT_CT_READ, 0x2000, 1);
    ck_assert_str_eq(take(&r), "-2@1 2000: 06 14\n");
    rig_free(&r);
}
END_TEST

START_TEST(cut_at_4g)
{
    rig r;
    rig_init(&r);
    rig_start(&r);
    /* 0xffffffc8 + 200 passes 2^32: 56 bytes, one line. */
    ck_assert_uint_eq(io_call(&r.io, 0, 1, SMAIT_CT_WRITE, 0xffffffc8, 200), 3600000 + 56 * 18);
    ck_assert_str_eq(take(&r), "-1@0 ffffffc0: 05 11\n");
    rig_free(&r);
}
END_TEST

START_TEST(buffered_read_copy)
{
    rig r;
    rig_init(&r);
    r.o.buffered = true;
    rig_start(&r);
    /* 20 bytes to 0x2004: write_purge of the kernel buffer's first line, then
     * the copy: 8 + 8 + 4 bytes, a load from the buffer then a store. */
    ck_assert_uint_eq(io_call(&r.io, 1, 9, SMAIT_CT_READ, 0x2004, 20), 3600000 + 20 * 18);
    ck_assert_str_eq(take(&r), "-1@0 f0000000: 06 14\n"
                     "P1 ld 8 f0000000 @9\nP1 st 8 2004 @9\n"
                     "P1 ld 8 f0000008 @9\nP1 st 8 200c @9\n"
                     "P1 ld 4 f0000010 @9\nP1 st 4 2014 @9\n");
    rig_free(&r);
}
END_TEST

START_TEST(buffered_write_copy)
{
    rig r;
    rig_init(&r);
    r.o.buffered = true;
    r.o.distributed = true;
    rig_start(&r);
    ck_assert_uint_eq(io_kernel_buffer(2), 0xf0010000u);
    io_call(&r.io, 3, 4, SMAIT_CT_WRITE, 0x3000, 8);
    ck_assert_str_eq(take(&r), "P3 ld 8 3000 @4\nP3 st 8 f0010000 @4\n-2@1 f0010000: 05 11\n");
    rig_free(&r);
}
END_TEST

START_TEST(buffered_pieces)
{
    rig r;
    rig_init(&r);
    r.o.buffered = true;
    rig_start(&r);
    /* 64 KiB + 100 bytes: 1024 + 2 lines purged, (65536 + 100) / 8 rounded
     * up = 8205 loads and as many stores. */
    io_call(&r.io, 0, 1, SMAIT_CT_READ, 0x40000, IO_KBUF_BYTES + 100);
    ck_assert_uint_eq(r.seqs, 1024 + 2);
    ck_assert_uint_eq(r.copies, 2 * 8205);
    rig_free(&r);
}
END_TEST

Suite *cdat_io_suite(void)
{
    Suite *s = suite_create("cdat_io");
    TCase *c = tcase_create("options");
    tcase_add_test(c, defaults);
    tcase_add_test(c, param_values);
    tcase_add_test(c, orphans);
    suite_add_tcase(s, c);
    c = tcase_create("disk_time");
    tcase_add_test(c, disk_time);
    suite_add_tcase(s, c);
    c = tcase_create("requests");
    tcase_add_test(c, raw_read_lines);
    tcase_add_test(c, raw_write_read_current);
    tcase_add_test(c, refusal_above_max_bytes);
    tcase_add_test(c, other_calls_and_off);
    tcase_add_test(c, asynch_no_wait);
    tcase_add_test(c, distributed_choice);
    tcase_add_test(c, cut_at_4g);
    tcase_add_test(c, buffered_read_copy);
    tcase_add_test(c, buffered_write_copy);
    tcase_add_test(c, buffered_pieces);
    suite_add_tcase(s, c);
    return s;
}
