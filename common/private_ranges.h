/* private_ranges.h — address ranges reserved for private pages, shared by
 * ciat (memory usage, docs/ciat-report.md L20–L39) and cdat (placement,
 * docs/cdat-placement.md): the options
 * -private_range LO:HI (repeatable) and -HPUX (0x40000000-0x7fffffff). */
#ifndef DSM_COMMON_PRIVATE_RANGES_H
#define DSM_COMMON_PRIVATE_RANGES_H

#include <stdbool.h>
#include <stdint.h>

typedef struct addr_range {
    uint32_t lo, hi;            /* inclusive */
} addr_range;

typedef struct private_ranges {
    addr_range *r;
    int n;
} private_ranges;

/* Option handler (OPT_CALL) for -private_range: target is a private_ranges;
 * returns NULL or the reason the value is bad. */
const char *private_ranges_parse(void *target, const char *value);
/* The range -HPUX stands for. */
void private_ranges_add_hpux(private_ranges *pr);
/* addr lies in one of the ranges. */
bool private_ranges_contain(const private_ranges *pr, uint64_t addr);
void private_ranges_free(private_ranges *pr);

#endif
