/* io.c — file reads and writes as I/O processor requests, processor copies
 * and disk waits (docs/cdat-io.md). */
#include "io.h"
#include "../formats/smait.h"

#include <stdio.h>
#include <string.h>

const char *io_param_parse(void *target, const char *value)
{
    static char why[160];
    io_param *p = target;
    uint64_t x = 0;
    bool big = false;
    if (!value[0]) return "an empty value (a whole number is expected)";
    for (const char *c = value; *c; c++) {
        if (*c < '0' || *c > '9') {
            snprintf(why, sizeof why, "'%s' is not a whole number of %s", value, p->unit);
            return why;
        }
        /* Saturate instead of wrapping: any value past max is out of range. */
        if (x > (UINT64_MAX - 9) / 10) big = true;
        else x = x * 10 + (uint64_t)(*c - '0');
    }
    if (big || x < p->min || x > p->max) {
        snprintf(why, sizeof why, "%s is out of range (%llu..%llu %s)", value, (unsigned long long)p->min,
                 (unsigned long long)p->max, p->unit);
        return why;
    }
    p->value = x;
    p->given = true;
    return NULL;
}

void io_options_init(io_options *o)
{
    memset(o, 0, sizeof *o);
    o->dma_bw = (io_param){ 20, 1, IO_MAX_DMA_BW, "MB/s", false };
    o->disk_latency = (io_param){ 10, 0, IO_MAX_LATENCY, "ms", false };
    o->ipc = (io_param){ 2, 1, IO_MAX_IPC, "instructions per cycle", false };
    o->mhz = (io_param){ 180, 1, IO_MAX_MHZ, "MHz", false };
    o->max_bytes = (io_param){ IO_DEFAULT_MAX_BYTES, 1, IO_MAX_MAX_BYTES, "bytes", false };
}

const char *io_options_orphan(const io_options *o)
{
    if (o->handle) return NULL;
    if (o->buffered) return "-buffered_io";
    if (o->asynch) return "-asynch_io";
    if (o->distributed) return "-distributed_io";
    if (o->dma_bw.given) return "-dma_bw";
    if (o->disk_latency.given) return "-disk_latency";
    if (o->ipc.given) return "-ipc";
    if (o->mhz.given) return "-mhz";
    if (o->max_bytes.given) return "-max_io_bytes";
    return NULL;
}

uint64_t io_disk_time(const io_options *o, uint64_t bytes)
{
    /* µs × mhz = cycles, × ipc = instructions. The latency is whole µs; the
     * transfer, bytes / bw µs, is exact as bytes × mhz × ipc / bw, rounded up.
     * With the options' ranges: rate <= 10^8, latency <= 10^9 µs × 10^8 =
     * 10^17, bytes × rate <= 2^32 × 10^8 < 4.3 × 10^17: the sum stays below
     * 2^59, no product overflows. */
    uint64_t rate = o->mhz.value * o->ipc.value;                 /* instructions per µs, <= 10^8 */
    uint64_t latency = o->disk_latency.value * 1000 * rate;
    uint64_t bw = o->dma_bw.value;
    uint64_t transfer = (bytes * rate + bw - 1) / bw;
    return latency + transfer;
}

void io_init(io_sim *s, machine *m, const io_options *o, io_copy_fn copy, void *ctx)
{
    s->m = m;
    s->o = o;
    s->nio = o->handle && o->distributed ? m->nodes : 1;
    s->copy = copy;
    s->ctx = ctx;
}

/* The I/O processor's request for every line of [addr, addr + n). */
static void requests(io_sim *s, int k, uint64_t clock, uint32_t addr, uint64_t n, bool write_purge)
{
    if (!n) return;
    uint32_t first = mach_line(s->m, addr);
    uint32_t last = mach_line(s->m, (uint32_t)(addr + n - 1));
    for (uint32_t l = first;; l++) {
        mach_io(s->m, k, k - 1, clock, l, write_purge);
        if (l == last) break;
    }
}

/* The processor copies n bytes from src to dst, IO_COPY_BYTES at a time
 * (the last access shorter): a load, then a store, per piece. */
static void copy(io_sim *s, int cpu, uint64_t clock, uint32_t src, uint32_t dst, uint64_t n)
{
    for (uint64_t off = 0; off < n; off += IO_COPY_BYTES) {
        unsigned size = n - off < IO_COPY_BYTES ? (unsigned)(n - off) : IO_COPY_BYTES;
        s->copy(s->ctx, cpu, clock, src + (uint32_t)off, size, false);
        s->copy(s->ctx, cpu, clock, dst + (uint32_t)off, size, true);
    }
}

/* The bytes of the buffer [arg1, arg1 + arg2), cut at the end of the address space. */
static uint64_t buffer_bytes(uint32_t arg1, uint32_t arg2)
{
    uint64_t n = arg2;
    if ((uint64_t)arg1 + n > (uint64_t)UINT32_MAX + 1) n = (uint64_t)UINT32_MAX + 1 - arg1;
    return n;
}

const char *io_refusal(const io_sim *s, unsigned call_type, uint32_t arg1, uint32_t arg2)
{
    static char why[256];
    if (!s->o->handle || (call_type != SMAIT_CT_READ && call_type != SMAIT_CT_WRITE)) return NULL;
    uint64_t n = buffer_bytes(arg1, arg2), max = s->o->max_bytes.value;
    if (n <= max) return NULL;
    snprintf(why, sizeof why, "a file %s of %llu bytes at 0x%08x: more than -max_io_bytes allows (%llu;"
             " -handle_io simulates one request per line of the buffer); a larger -max_io_bytes, up to %llu,"
             " lets it through", call_type == SMAIT_CT_READ ? "read" : "write", (unsigned long long)n, arg1,
             (unsigned long long)max, (unsigned long long)IO_MAX_MAX_BYTES);
    return why;
}

uint64_t io_call(io_sim *s, int cpu, uint64_t clock, unsigned call_type, uint32_t arg1, uint32_t arg2)
{
    if (!s->o->handle || (call_type != SMAIT_CT_READ && call_type != SMAIT_CT_WRITE)) return 0;
    bool read = call_type == SMAIT_CT_READ;
    uint64_t n = buffer_bytes(arg1, arg2);
    if (!n) return 0;           /* nothing reaches the disk: no request, no wait */
    int k = io_processor_of(s, cpu);
    if (!s->o->buffered) {
        /* A read lands in memory (write_purge); a write reads it (read_current). */
        requests(s, k, clock, arg1, n, read);
    } else {
        uint32_t kbuf = io_kernel_buffer(k);
        for (uint64_t done = 0; done < n; done += IO_KBUF_BYTES) {
            uint64_t piece = n - done < IO_KBUF_BYTES ? n - done : IO_KBUF_BYTES;
            uint32_t user = arg1 + (uint32_t)done;
            if (read) {
                requests(s, k, clock, kbuf, piece, true);
                copy(s, cpu, clock, kbuf, user, piece);
            } else {
                copy(s, cpu, clock, user, kbuf, piece);
                requests(s, k, clock, kbuf, piece, false);
            }
        }
    }
    return s->o->asynch ? 0 : io_disk_time(s->o, n);
}
