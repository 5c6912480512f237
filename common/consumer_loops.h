/* consumer_loops.h — a consumer's own copies of the two loops that deliver
 * events to its hooks one by one: the scheduler's loop over a thread's
 * records (sched_hints.records; sched_loop.h's run_records_with) and the
 * fanout's replay of recorded events (sched_hints.replay; fanout_replay.h's
 * fanout_replay_events).
 *
 * Both loops call the hooks through their pointers: an indirect call and
 * the hook's prologue per record, for hit paths of a few instructions. Each
 * is an always-inline function taking the hooks as a parameter, so a copy
 * made with a constant hooks value calls them directly, and the compiler
 * inlines the small ones. The copies are the same source as the loops the
 * scheduler and the fanout run for consumers without one, so they cannot
 * deliver differently. */
#ifndef DSM_COMMON_CONSUMER_LOOPS_H
#define DSM_COMMON_CONSUMER_LOOPS_H

#include "fanout_replay.h"
#include "sched_loop.h"

/* Define `static sched_hooks name(void *ctx)`: make_hooks(ctx) with its own
 * loops in .hint.records (`name##_records`) and .hint.replay
 * (`name##_replay`). The
 * loops call exactly the hooks make_hooks returns, and the three come from
 * one call, so they cannot be paired wrongly; a caller that then clears a
 * hint (ciat on one thread) is still obeyed, since both loops take whether
 * to look ahead from the scheduler or the fanout. make_hooks must be `static
 * inline __attribute__((always_inline))`, with constant hook pointers: the
 * hooks are called directly only if it is inlined before the early inliner
 * looks at them (when cdat's grew by two fields, GCC inlined it too late and
 * called every hook out of line: bench/README.md E15). tests/cli/inlining.sh
 * checks that the hit paths stay inline. */
#define CONSUMER_LOOPS_DEFINE(name, make_hooks)                                                   \
    static uint64_t name##_records(void *ctx, sched_lane *lane, uint64_t limit, const smait_raw **last, \
                                   bool look)                                                   \
    {                                                                                           \
        const sched_hooks h_ = make_hooks(ctx);                                                 \
        return run_records_with(&h_, lane, limit, last, look && h_.hint.ahead);                 \
    }                                                                                           \
    static void name##_replay(void *ctx, const fanout_event *e, size_t n, bool ahead, bool far) \
    {                                                                                           \
        const sched_hooks h_ = make_hooks(ctx);                                                 \
        fanout_replay_events(&h_, e, n, ahead, far);                                            \
    }                                                                                           \
    static __attribute__((unused)) sched_hooks name(void *ctx)                                  \
    {                                                                                           \
        sched_hooks h_ = make_hooks(ctx);                                                       \
        h_.hint.records = name##_records;                                                       \
        h_.hint.replay = name##_replay;                                                         \
        return h_;                                                                              \
    }

#endif
