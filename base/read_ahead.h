/* read_ahead.h — a producer of bytes run on its own thread, ahead of the
 * consumer: byte_source decompresses gzip and zstd input this way, so that
 * on a machine with a spare core the analysis does not wait for the
 * decompression.
 *
 * The producer fills a ring of fixed chunks; the consumer takes them in
 * order. The producer's result for each call (bytes, end, or an error with
 * its reason) reaches the consumer in the same order, so the bytes made
 * before a failure are handed out before it. A producer that finds the ring
 * full sleeps until half of it is free, so that a wake-up fills several
 * chunks (a wake-up for every chunk taken made many more context switches:
 * bench/README.md E21). Memory: RA_CHUNKS × RA_CHUNK
 * bytes, allocated at the start (the producer's thread allocates nothing of
 * its own). */
#ifndef DSM_BASE_READ_AHEAD_H
#define DSM_BASE_READ_AHEAD_H

#include <stddef.h>
#include <stdint.h>

enum { RA_CHUNKS = 4, RA_CHUNK = 64 << 10 };

/* Fills up to n bytes of buf: the count, 0 at the end, -1 with *why on a
 * failure (the last call either way); *mark is a position to report with
 * these bytes (byte_source: the compressed bytes consumed so far). Runs on
 * the read-ahead thread only. */
typedef long (*read_ahead_fill)(void *ctx, unsigned char *buf, size_t n, const char **why, uint64_t *mark);

typedef struct read_ahead read_ahead;

/* Starts the thread; NULL when no thread can be made (the caller then
 * produces in its own thread). */
read_ahead *read_ahead_start(read_ahead_fill fill, void *ctx);
/* As byte_source_read: up to n bytes, 0 at the end, -1 and *why after the
 * bytes made before a failure. */
long read_ahead_read(read_ahead *ra, void *buf, size_t n, const char **why);
/* The mark of the last chunk handed out, in full or in part. */
uint64_t read_ahead_mark(const read_ahead *ra);
/* Stops the thread (once its current chunk is made) and frees everything. */
void read_ahead_stop(read_ahead *ra);

#endif
