/* contention.h — queueing at the home banks and the network links in the
 * accounting timing model ([timing] bank_busy, link_busy; docs/cdat-report.md,
 * "Contention", lines L19 `queue` and L24).
 *
 * Each resource is one FIFO server taking sequences in the simulation's
 * order: a sequence arriving at time a starts at max(a, free_at), waits
 * start - a, and keeps the server busy for its busy cycles. What a sequence
 * visits, in this order (each later resource sees the earlier waits):
 *   the link of the requester's node (when the home is another node),
 *   the home bank, (addr / line_size) mod banks_per_node of the home node,
 *   the link of the home node, for the answer (requests only, when the home
 *   is another node).
 * A local snoop ([0x, 22], served inside the requester's node) visits none.
 * A request's waits are the requester's (contention_seq's result); a return
 * (write_back, update_tag, flush) occupies the servers but nobody waits for
 * it, so its waits are neither charged nor in the resources' wait.
 *
 * Only set up when bank_busy or link_busy is not 0 (config_contention):
 * without them cdat calls nothing here. */
#ifndef DSM_CDAT_CONTENTION_H
#define DSM_CDAT_CONTENTION_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "machine.h"
#include "../common/report.h"

typedef struct cont_resource {
    uint64_t free_at;           /* when the server is free again */
    uint64_t requests, returns; /* the sequences that used it */
    uint64_t busy;              /* cycles it was busy */
    uint64_t wait, max_wait;    /* the requests' waits */
} cont_resource;

typedef struct contention {
    unsigned nodes, banks, line_shift;
    unsigned bank_busy, link_busy;
    cont_resource *res;         /* nodes × banks banks (node h's bank b at h × banks + b), then nodes links */
} contention;

void contention_init(contention *ct, const cdat_config *cfg);
void contention_free(contention *ct);

/* Sequence q, arriving at time arrival (its requester's accounted time):
 * the servers it visits, in order; returns the cycles the requester waits
 * (0 for a return). */
uint64_t contention_seq(contention *ct, const mach_seq *q, uint64_t arrival);

/* Line L24 (whole run only): the most loaded resources, at most
 * CONT_REPORT_TOP of them by wait (ties: bank before link, lower number
 * first), those that served anything; utilization against est_time, the
 * run's estimated time. */
enum { CONT_REPORT_TOP = 8 };
void contention_report(report *r, const contention *ct, uint64_t est_time);

#endif
