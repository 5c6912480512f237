/* mono_time.h — the monotonic clock in seconds, for measuring intervals
 * (the progress meter's rate, the replay's batch times). */
#ifndef DSM_COMMON_MONO_TIME_H
#define DSM_COMMON_MONO_TIME_H

#include <time.h>

static inline double mono_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
