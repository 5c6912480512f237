/* fanout_replay.h — the fanout's recorded events and the loop that replays
 * them to a consumer's hooks (fanout.h).
 *
 * The fanout replays through the hooks' pointers, three indirect calls and
 * their prologues per event for every consumer. A consumer whose hooks are
 * plain functions can instead give the fanout its own copy of the loop
 * (sched_hints.replay), made from the always-inline fanout_replay_events
 * with a constant hooks value, so the compiler calls (and mostly inlines)
 * the hooks directly. Both copies are this one loop, so they cannot
 * disagree; CONSUMER_LOOPS_DEFINE (consumer_loops.h) makes the consumer's
 * hooks and its copy of the loop from one function, so the two always go
 * together. */
#ifndef DSM_COMMON_FANOUT_REPLAY_H
#define DSM_COMMON_FANOUT_REPLAY_H

#include "sched_hooks.h"

/* FANOUT_EV_FETCH_MEM: an access and the fetch of its instruction (same
 * thread, cpu and clock: the scheduler's pair for every memory record of an
 * instruction stream), one event instead of two. FANOUT_EV_CALL: a call
 * record; the next FANOUT_CALL_SLOTS events are FANOUT_EV_CALL_PARTS, which
 * hold its simple records (and so are never taken for an access by the
 * look-ahead). */
typedef enum fanout_ev_kind {
    FANOUT_EV_FETCH, FANOUT_EV_FETCH_RUN, FANOUT_EV_MEM, FANOUT_EV_FETCH_MEM, FANOUT_EV_STOP,
    FANOUT_EV_RESUME, FANOUT_EV_CALL, FANOUT_EV_CALL_PARTS
} fanout_ev_kind;

/* One event: 32 bytes. */
typedef struct fanout_event {
    uint64_t clock;
    uint32_t a;                 /* address (record f2); resume: idle (low 32 bits are enough: unused by cdat) */
    uint32_t b;                 /* run length, record f1, wait reason */
    uint32_t pc;                /* FANOUT_EV_FETCH_MEM: the fetch's address */
    int32_t cpu;
    uint32_t t_kind;            /* thread << 3 | kind */
    uint32_t unused;
} fanout_event;

_Static_assert(sizeof(fanout_event) == 32, "an event is 32 bytes");
enum { FANOUT_CALL_SLOTS = 2 };  /* FANOUT_EV_CALL_PARTS events after a call: 3 simple records each */
_Static_assert(3 * FANOUT_CALL_SLOTS == SMAIT_CALL_PARTS, "a call record fills its slots");

/* Simple records 3k..3k+2 of a call in slot k, and back: in clock, a and b,
 * pc and cpu, so that t_kind says what the slot is. */
static inline void fanout_parts_put(fanout_event *e, const smait_raw *r)
{
    *e = (fanout_event){ .clock = (uint64_t)r[0].f2 << 32 | r[0].f1, .a = r[1].f1, .b = r[1].f2,
                         .pc = r[2].f1, .cpu = (int32_t)r[2].f2, .t_kind = FANOUT_EV_CALL_PARTS };
}

static inline void fanout_parts_get(const fanout_event *e, smait_raw *r)
{
    r[0] = (smait_raw){ (uint32_t)e->clock, (uint32_t)(e->clock >> 32) };
    r[1] = (smait_raw){ e->a, e->b };
    r[2] = (smait_raw){ e->pc, (uint32_t)e->cpu };
}

/* Show hook the access `distance` events on from e, when it is in the batch
 * (`left` events from e on). */
static inline __attribute__((always_inline)) void
fanout_show_ahead(void (*hook)(void *, int, int, const smait_raw *), void *ctx, unsigned distance,
                  const fanout_event *e, size_t left)
{
    if (distance >= left) return;
    const fanout_event *a = e + distance;
    unsigned k = a->t_kind & 7;
    if (k != FANOUT_EV_MEM && k != FANOUT_EV_FETCH_MEM) return;
    smait_raw r = { .f1 = a->b, .f2 = a->a };
    hook(ctx, (int)(a->t_kind >> 3), a->cpu, &r);
}

/* The consumer's look-ahead: the access `ahead_distance` events on, and
 * with far the access `ahead_far_distance` on (the events are in the order
 * the consumer sees them, so the distances are exact, whatever thread the
 * access belongs to). Called before every event, not only before accesses,
 * so that every access of the batch past its first ahead_distance events is
 * shown once: from accesses only, one whose event that far back was a
 * fetch, a call or a stop went unshown, which costs where calls and fetch
 * runs are frequent, as in traces of compiled programs (bench/README.md
 * E11; make bench's "ciat kvstore" lines). */
static inline __attribute__((always_inline)) void
fanout_look_ahead(const sched_hooks *h, const fanout_event *e, size_t left, bool far)
{
    if (far && h->hint.ahead_far) fanout_show_ahead(h->hint.ahead_far, h->ctx, h->hint.ahead_far_distance, e, left);
    if (h->hint.ahead) fanout_show_ahead(h->hint.ahead, h->ctx, h->hint.ahead_distance, e, left);
}

/* Replay n events to h, with its look-ahead when ahead (and its far hint
 * when far too; a hint h lacks is skipped, so a copy made with constant
 * hooks never calls a null one). */
static inline __attribute__((always_inline)) void
fanout_replay_events(const sched_hooks *h, const fanout_event *e, size_t n, bool ahead, bool far)
{
    for (size_t i = 0; i < n; i++, e++) {
        int t = (int)(e->t_kind >> 3);
        if (ahead) fanout_look_ahead(h, e, n - i, far);
        switch ((fanout_ev_kind)(e->t_kind & 7)) {
        case FANOUT_EV_FETCH:
            h->fetch(h->ctx, t, e->cpu, e->clock, e->a);
            break;
        case FANOUT_EV_FETCH_RUN:
            if (h->hint.fetch_run) {
                h->hint.fetch_run(h->ctx, t, e->cpu, e->clock, e->a, e->b);
                break;
            }
            for (uint32_t k = 0; k < e->b; k++) h->fetch(h->ctx, t, e->cpu, e->clock + k, e->a + 4 * k);
            break;
        case FANOUT_EV_FETCH_MEM:
            h->fetch(h->ctx, t, e->cpu, e->clock, e->pc);
            /* fall through */
        case FANOUT_EV_MEM: {
            smait_raw r = { .f1 = e->b, .f2 = e->a };
            h->mem(h->ctx, t, e->cpu, e->clock, &r);
            break;
        }
        case FANOUT_EV_CALL: {
            smait_raw r[SMAIT_CALL_PARTS];
            for (int k = 0; k < FANOUT_CALL_SLOTS; k++) fanout_parts_get(e + 1 + k, r + 3 * k);
            if (h->call) h->call(h->ctx, t, e->cpu, e->clock, r);
            /* the look-ahead of the events its parts take */
            for (size_t k = 1; ahead && k <= FANOUT_CALL_SLOTS; k++) fanout_look_ahead(h, e + k, n - i - k, far);
            i += FANOUT_CALL_SLOTS;
            e += FANOUT_CALL_SLOTS;
            break;
        }
        case FANOUT_EV_CALL_PARTS:      /* read with their call */
            break;
        case FANOUT_EV_STOP:
            if (h->thread_stop) h->thread_stop(h->ctx, t, e->cpu, e->clock, (sched_wait)e->b);
            break;
        case FANOUT_EV_RESUME:
            if (h->thread_resume) h->thread_resume(h->ctx, t, e->cpu, e->clock, e->a);
            break;
        }
    }
}

/* The first statement of a hint hook (ahead, ahead_far) whose only effect
 * is a prefetch: once the consumer's replay loop called ciat's hints
 * directly, GCC at -O2 left neither a call nor a prefetch of them, as it
 * deletes a prefetch under a condition elsewhere (cdat/directory.h;
 * bench/README.md E14). An empty volatile asm is an effect it must keep,
 * and costs nothing; tests/cli/inlining.sh checks that the prefetches stay. */
#define FANOUT_HINT_KEEP() __asm__ volatile("")

#endif
