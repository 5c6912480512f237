/* data_refs_only.c — a copy of a little-endian trace file with only its
 * memory-access records, for benchmarks of the data references alone:
 * without procedure starts and branches no instruction address is known, so
 * the tools fetch nothing (common/istream.h) and cdat's i-cache is idle.
 *
 *   data_refs_only [--dinero] IN OUT
 *
 * --dinero: the same accesses in Dinero IV's binary input form (-informat
 * b), so that a benchmark times Dinero IV on exactly the references cdat
 * simulates, and times its simulation rather than its parsing of text (the
 * din text form took about 3x as long on the irregular mix). Each access is
 * one 8-byte record: address (4 bytes), size in bytes (2), access type (1:
 * 0 read, 1 write; a store or an atomic read-modify-write is a write, as
 * cdat asks for ownership of both), a zero byte; all little-endian.
 *
 * A benchmark helper, not a tool: it stops at the first short read or write. */
#include "../formats/smait.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Record r (the 8 bytes at in) as its output record at out. */
static void put(unsigned char *out, const unsigned char *in, smait_raw r, bool dinero)
{
    if (!dinero) {
        memcpy(out, in, 8);
        return;
    }
    unsigned size = smait_size_bytes(smait_mem_size_code(r.f1));
    for (int b = 0; b < 4; b++) out[b] = (unsigned char)(r.f2 >> (8 * b));
    out[4] = (unsigned char)size;
    out[5] = (unsigned char)(size >> 8);
    out[6] = smait_mem_access(r.f1) != SMAIT_LOAD;
    out[7] = 0;
}

int main(int argc, char **argv)
{
    bool dinero = argc == 4 && strcmp(argv[1], "--dinero") == 0;
    if (argc != 3 + dinero) {
        fprintf(stderr, "usage: data_refs_only [--dinero] IN OUT\n");
        return 1;
    }
    const char *in_path = argv[1 + dinero], *out_path = argv[2 + dinero];
    FILE *in = fopen(in_path, "rb"), *out = in ? fopen(out_path, "wb") : NULL;
    if (!in || !out) {
        perror(in ? out_path : in_path);
        return 2;
    }
    static unsigned char buf[8 * 8192], keep[8 * 8192];
    size_t n;
    while ((n = fread(buf, 8, 8192, in)) > 0) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            smait_raw r = smait_load_raw(buf + 8 * i, SMAIT_ORDER_LITTLE);
            if (smait_classify(r.f1) != SMAIT_MEM) continue;
            put(keep + 8 * k++, buf + 8 * i, r, dinero);
        }
        if (fwrite(keep, 8, k, out) != k) {
            perror(out_path);
            return 2;
        }
    }
    if (ferror(in) || fclose(out) != 0) {
        perror(in_path);
        return 2;
    }
    fclose(in);
    return 0;
}
