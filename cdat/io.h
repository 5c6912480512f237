/* io.h — cdat's I/O subsystem (docs/cdat-io.md; the I/O processors' requests:
 * docs/cdat-protocol.md §7): what a file read (call type 11) or file write (12) does under
 * -handle_io, and how long the process waits for the disk.
 *
 * A read lands in memory by DMA: the I/O processor sends write_purge for every
 * line of the buffer; a write is read from memory: read_current per line.
 * With -buffered_io the DMA uses the I/O processor's kernel buffer and the
 * requesting processor copies between it and the user buffer (its loads and
 * stores are simulated like the trace's). The rules, the kernel buffer's
 * place and every rounding are in docs/cdat-io.md. */
#ifndef DSM_CDAT_IO_H
#define DSM_CDAT_IO_H

#include <stdbool.h>
#include <stdint.h>

#include "machine.h"

/* A numeric I/O option: its value, its range, whether the command line gave it. */
typedef struct io_param {
    uint64_t value;
    uint64_t min, max;
    const char *unit;           /* for messages: "MB/s" */
    bool given;
} io_param;

/* Option handler (common/options.h OPT_CALL) for an io_param target: a
 * decimal integer in [min, max]; NULL when fine, else the reason. */
const char *io_param_parse(void *target, const char *value);

typedef struct io_options {
    bool handle;                /* -handle_io: file reads and writes are simulated */
    bool buffered;              /* -buffered_io: DMA through a kernel buffer, the processor copies */
    bool asynch;                /* -asynch_io: the process never waits */
    bool distributed;           /* -distributed_io: each node's own I/O processor */
    io_param dma_bw;            /* MB/s (10^6 bytes per second = bytes per µs) */
    io_param disk_latency;      /* ms */
    io_param ipc;               /* instructions per cycle */
    io_param mhz;               /* processor clock, MHz = cycles per µs */
    io_param max_bytes;         /* the largest transfer a call may ask for */
} io_options;

/* The option ranges: every disk time fits 64 bits with room to spare (docs/cdat-io.md). */
enum {
    IO_MAX_DMA_BW = 1000000,    /* MB/s: 1 TB/s */
    IO_MAX_LATENCY = 1000000,   /* ms: 1000 s */
    IO_MAX_IPC = 1000,
    IO_MAX_MHZ = 100000         /* 100 GHz */
};

/* -max_io_bytes: a transfer costs one request (and under -buffered_io 2
 * copy accesses per 8 bytes) per line of its buffer, so one call record could
 * ask for 2^32 bytes, tens of millions of requests; a larger transfer than
 * this is refused, not simulated (docs/cdat-io.md §2). The largest value,
 * 2^32, lets every buffer through. */
#define IO_DEFAULT_MAX_BYTES ((uint64_t)64 << 20)
#define IO_MAX_MAX_BYTES ((uint64_t)1 << 32)

/* Defaults (docs/cdat-io.md): off; 20 MB/s, 10 ms, 2 instructions per cycle, 180 MHz. */
void io_options_init(io_options *o);
/* The report's name of the first I/O option given without -handle_io, or NULL. */
const char *io_options_orphan(const io_options *o);

/* Disk time of a transfer of `bytes` in pseudo-clock instructions:
 * (latency + bytes / bandwidth) × mhz × ipc, exact, the transfer's fraction
 * of an instruction rounded up. */
uint64_t io_disk_time(const io_options *o, uint64_t bytes);

/* The kernel buffer of -buffered_io: one per I/O processor k (k = 1, 2, …),
 * IO_KBUF_BYTES at IO_KBUF_BASE + (k - 1) × IO_KBUF_BYTES; transfers larger
 * than it go through it in pieces. The copy moves IO_COPY_BYTES per access. */
enum { IO_KBUF_BYTES = 64 * 1024, IO_COPY_BYTES = 8 };
#define IO_KBUF_BASE 0xF0000000u
static inline uint32_t io_kernel_buffer(int k) { return IO_KBUF_BASE + (uint32_t)(k - 1) * IO_KBUF_BYTES; }

/* One data access of the copy by processor cpu: size bytes at addr, a load or a store. */
typedef void (*io_copy_fn)(void *ctx, int cpu, uint64_t clock, uint32_t addr, unsigned size, bool store);

typedef struct io_sim {
    machine *m;
    const io_options *o;
    unsigned nio;               /* I/O processors: nodes with -distributed_io, else 1 */
    io_copy_fn copy;
    void *ctx;
} io_sim;

void io_init(io_sim *s, machine *m, const io_options *o, io_copy_fn copy, void *ctx);

/* The I/O processor k (named -k, on node k - 1) that serves processor cpu. */
static inline int io_processor_of(const io_sim *s, int cpu)
{
    return s->o->distributed ? s->m->p[cpu].node + 1 : 1;
}

/* NULL when io_call may simulate this call, else why it is refused: a file
 * read or write under -handle_io whose buffer (cut at 2^32) is larger than
 * -max_io_bytes. */
const char *io_refusal(const io_sim *s, unsigned call_type, uint32_t arg1, uint32_t arg2);

/* A call record of type call_type (args arg1 = buffer, arg2 = bytes) reached
 * by processor cpu at clock. File reads and writes under -handle_io generate
 * their requests (and copies) now, all stamped with clock; returns the cycles
 * the process waits: the disk time of a synchronous read or write, else 0. */
uint64_t io_call(io_sim *s, int cpu, uint64_t clock, unsigned call_type, uint32_t arg1, uint32_t arg2);

#endif
