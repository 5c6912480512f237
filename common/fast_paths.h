/* fast_paths.h — whether the build takes the fast paths.
 *
 * A module's fast path is a shortcut for a common case of its general path
 * (an inline hit check, a memo of repeated work, a short path of a protocol
 * step) and must give exactly what the general path gives. A build made
 * with -DDSM_SLOW_PATHS (make SLOW_PATHS=1) skips every one of them, so the
 * general paths alone make its outputs; make check SLOW_PATHS=1 checks that
 * they are byte for byte the normal build's (tests/cli/slow-paths.sh). Code
 * writes `if (FAST_PATHS && ...)`: in a normal build the test folds away. */
#ifndef DSM_COMMON_FAST_PATHS_H
#define DSM_COMMON_FAST_PATHS_H

#ifdef DSM_SLOW_PATHS
enum { FAST_PATHS = 0 };
#else
enum { FAST_PATHS = 1 };
#endif

#endif
