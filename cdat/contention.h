/* contention.h — queueing at the home banks and the network links in the
 * accounting timing model ([timing] bank_busy, link_busy; docs/cdat-report.md,
 * "Contention", lines L19 `queue` and L24).
 *
* Each resource is one server, first come first served by arrival time.
 * Arrivals are accounted times, which the simulation (the pseudo clock's
 * order) reveals out of order, so the server keeps its busy periods, each
 * a start and the number of sequences it serves back to back (a period
 * ends start + count × busy cycles later): a sequence arriving at a joins
 * the period a falls in (at its end) or starts one in the gap, and the
 * periods after it that it now reaches are joined to it, their sequences
 * pushed back. The sequence is charged what it adds to the server's total
 * wait: its own wait in its place plus what it pushes the later arrivals
 * back. Summed over a run that is exactly the first come first served
 * total of the same arrivals, whatever order they came in (with equal
 * service times every order of service without idling has the same total
 * wait); a server remembering only when it is next free would instead make
 * a processor behind in accounted time wait for all that one ahead had
 * queued. Periods that end before every processor's latest arrival can
 * take no one any more and are forgotten (at each phase's start, when
 * every processor starts together, and as the phase goes on); at most
 * CONT_PERIODS_MAX are kept, the oldest forgotten first. What a sequence
visits, in this order (each later resource sees the earlier waits):
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

enum { CONT_PERIODS_MAX = 1 << 16, CONT_FLOOR_EVERY = 1024 };

typedef struct cont_period {
    uint64_t start, count;      /* busy from start for count × busy cycles */
} cont_period;

typedef struct cont_resource {
    cont_period *p;             /* the periods kept, by start, disjoint */
    size_t n, cap;
    uint64_t requests, returns; /* the sequences that used it */
    uint64_t busy;              /* cycles it was busy */
    uint64_t wait, max_wait;    /* the requests' waits */
} cont_resource;

typedef struct contention {
    unsigned nodes, banks, line_shift;
    unsigned bank_busy, link_busy;
    cont_resource *res;         /* nodes × banks banks (node h's bank b at h × banks + b), then nodes links */
    unsigned nprocs;
    uint64_t *last;             /* per processor: its latest arrival (the phase's start before it has one) */
    uint64_t floor;             /* no arrival is before it: periods ending by then are forgotten */
    unsigned since_floor;       /* sequences since floor was last raised */
} contention;

void contention_init(contention *ct, const cdat_config *cfg);
void contention_free(contention *ct);

/* A phase starts at accounted time start, every processor with it. */
void contention_phase(contention *ct, uint64_t start);

/* Sequence q, arriving at time arrival (its requester's accounted time,
 * which only grows within a phase):
 * the servers it visits, in order; returns the cycles the requester is
 * charged (0 for a return: nobody waits for it, though it occupies the
 * servers and may push others back). */
uint64_t contention_seq(contention *ct, const mach_seq *q, uint64_t arrival);

/* Line L24 (whole run only): the most loaded resources, at most
 * CONT_REPORT_TOP of them by wait (ties: bank before link, lower number
 * first), those that served anything; utilization against est_time, the
 * run's estimated time. */
enum { CONT_REPORT_TOP = 8 };
void contention_report(report *r, const contention *ct, uint64_t est_time);

#endif
