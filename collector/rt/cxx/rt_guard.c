/* rt_guard.c — C++ function-local statics (docs/collector.md §4.2); in
 * libsmait-rt-cxx.a, linked into C++ programs only (a C link has no
 * __cxa_guard_* to wrap).
 *
 * A static's initialisation is a one-time initialisation on its guard
 * variable: __cxa_guard_release, called when the initialiser has run, is
 * release 1 of the guard (numbered before the real call lets waiting threads
 * through); a __cxa_guard_acquire that returns 0 (another thread ran it)
 * acquires it. The inline check that clang emits before the call is an
 * acquire load of the guard's first byte: once the atomics are recorded it
 * acquires the same release, on the same address. */
#include "../rt.h"

int __real___cxa_guard_acquire(int64_t *);
void __real___cxa_guard_release(int64_t *);

int __wrap___cxa_guard_acquire(int64_t *g)
{
    uint32_t t0 = rt_now_us();
    int rc = __real___cxa_guard_acquire(g);
    if (rc == 0)
        rt_once_acquire(rt_self, g, t0);
    return rc;
}

void __wrap___cxa_guard_release(int64_t *g)
{
    rt_once_release(g, rt_now_us());
    __real___cxa_guard_release(g);
}
