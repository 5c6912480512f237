/* private_ranges.c — parsing and lookup of private address ranges. */
#include "private_ranges.h"
#include "../base/diag.h"

#include <stdlib.h>
#include <string.h>

static void add(private_ranges *pr, uint32_t lo, uint32_t hi)
{
    pr->r = xrealloc(pr->r, (size_t)(pr->n + 1) * sizeof *pr->r);
    pr->r[pr->n++] = (addr_range){ lo, hi };
}

const char *private_ranges_parse(void *target, const char *v)
{
    const char *colon = strchr(v, ':');
    if (!colon) return "expects LO:HI (addresses, e.g. 0x40000000:0x7fffffff)";
    char *end;
    unsigned long long lo = strtoull(v, &end, 0), hi;
    if (end != colon || v == colon) return "bad LO (a 32-bit address)";
    hi = strtoull(colon + 1, &end, 0);
    if (*end || !colon[1]) return "bad HI (a 32-bit address)";
    if (lo > UINT32_MAX || hi > UINT32_MAX || lo > hi) return "needs LO <= HI <= 0xffffffff";
    add(target, (uint32_t)lo, (uint32_t)hi);
    return NULL;
}

void private_ranges_add_hpux(private_ranges *pr) { add(pr, 0x40000000u, 0x7fffffffu); }

bool private_ranges_contain(const private_ranges *pr, uint64_t addr)
{
    for (int i = 0; i < pr->n; i++)
        if (addr >= pr->r[i].lo && addr <= pr->r[i].hi) return true;
    return false;
}

void private_ranges_free(private_ranges *pr)
{
    free(pr->r);
    pr->r = NULL;
    pr->n = 0;
}
