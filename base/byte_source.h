/* byte_source.h — the bytes of an input file: plain, gzip or zstd (by magic
 * bytes, whatever the name) or stdin.
 *
 * One interface for the trace reader and for text inputs (tdat, list files),
 * so compressed input works the same everywhere. Gzip streams are inflated with
 * zlib, zstd streams decompressed with libzstd; concatenated gzip members, and
 * concatenated zstd frames (skippable frames skipped), are read one after
 * another. */
#ifndef DSM_BASE_BYTE_SOURCE_H
#define DSM_BASE_BYTE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct byte_source byte_source;

/* Opens path ("-" = standard input). Returns NULL and sets *why (a static
 * string or strerror text) when the file cannot be opened. */
byte_source *byte_source_open(const char *path, const char **why);
void byte_source_close(byte_source *s);

/* From now on, decompress on a thread of its own ahead of the reads
 * (read_ahead.h); nothing for plain input, or when no thread can be made.
 * The trace reader asks for it after its first read unless the records are
 * delta coded (formats/SMAIT.md §11.1), which decompress so fast that the
 * hand-overs cost more than they save. */
void byte_source_read_ahead(byte_source *s);

/* Reads up to n bytes; returns the count, 0 at the end. Returns -1 on a read
 * error or a corrupt / truncated compressed stream, with a reason in *why; the
 * bytes decompressed before such a failure are handed out first, so the
 * failure comes with the call after them. */
long byte_source_read(byte_source *s, void *buf, size_t n, const char **why);

/* For a plain regular file (standard input too, when it is one): the n
 * bytes that end at the size the file had when it was opened (fewer when it
 * is shorter), read into buf without moving the read position. Returns the
 * count read and sets *size to that size; -1 for compressed input, a pipe or
 * a terminal, whose end is only known once it is read, or on a read error
 * (the sequential reads then say what it is). */
long byte_source_tail(byte_source *s, void *buf, size_t n, uint64_t *size);

bool byte_source_compressed(const byte_source *s);
/* "gzip" or "zstd", or NULL for a plain file. */
const char *byte_source_format(const byte_source *s);
/* Bytes of the underlying file consumed so far, and its size (0 if unknown). */
uint64_t byte_source_consumed(const byte_source *s);
uint64_t byte_source_size(const byte_source *s);
/* Bytes handed out by byte_source_read so far (decompressed, for a compressed file). */
uint64_t byte_source_produced(const byte_source *s);

#endif
