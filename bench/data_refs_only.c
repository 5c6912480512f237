/* data_refs_only.c — a copy of a little-endian trace file with only its
 * memory-access records, for benchmarks of the data references alone:
 * without procedure starts and branches no instruction address is known, so
 * the tools fetch nothing (common/istream.h) and cdat's i-cache is idle.
 *
 *   data_refs_only IN OUT
 *
 * A benchmark helper, not a tool: it stops at the first short read or write. */
#include "../formats/smait.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: data_refs_only IN OUT\n");
        return 1;
    }
    FILE *in = fopen(argv[1], "rb"), *out = in ? fopen(argv[2], "wb") : NULL;
    if (!in || !out) {
        perror(in ? argv[2] : argv[1]);
        return 2;
    }
    static unsigned char buf[8 * 8192], keep[8 * 8192];
    size_t n;
    while ((n = fread(buf, 8, 8192, in)) > 0) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            smait_raw r = smait_load_raw(buf + 8 * i, SMAIT_ORDER_LITTLE);
            if (smait_classify(r.f1) != SMAIT_MEM) continue;
            for (int b = 0; b < 8; b++) keep[8 * k + b] = buf[8 * i + b];
            k++;
        }
        if (fwrite(keep, 8, k, out) != k) {
            perror(argv[2]);
            return 2;
        }
    }
    if (ferror(in) || fclose(out) != 0) {
        perror(argv[1]);
        return 2;
    }
    fclose(in);
    return 0;
}
