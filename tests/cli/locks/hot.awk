# hot.awk — a trace set with one hot lock and several cold ones, for the
# property tests of ciat --locks (tests/cli/ciat-locks.sh).
#
#   awk -v seed=S -v threads=P -v n=N -f hot.awk >set.txt
#
# Each of P threads runs N rounds: a few loads of its own, then either (3 in
# 4) a long critical section (4-11 loads) on the hot lock 0xa000, which all
# threads share, or (1 in 4) a short one (1 load) on one of four cold locks
# 0xb000, 0xb010, 0xb020, 0xb030 (thread t uses 0xb000 + 16 * (t mod 4)).
# With two threads or more the hot lock is held most of the time, so threads
# wait for it; it must rank first. Park-Miller LCG, as randset.awk.
function rnd(k) {
    x = (x * 16807) % 2147483647
    return int(x / 2147483647 * k)
}
BEGIN {
    x = seed + 0
    if (x <= 0) x = 1
    printf "threads %d\n", threads
    for (t = 0; t < threads; t++) {
        printf "thread %d\n", t
        for (i = 0; i < n; i++) {
            for (k = 1 + rnd(3); k > 0; k--) printf "load 4 0x%x\n", 805306368 + 4096 * t + 4 * rnd(8)
            if (rnd(4) < 3) {
                printf "begin_critical lock=0xa000 @%d:%d\n", 10 * i, 10 * i + rnd(3)
                for (k = 4 + rnd(8); k > 0; k--) printf "store 4 0x%x\n", 536870912 + 4 * rnd(16)
                printf "end_critical lock=0xa000 @%d\n", 10 * i + 5
            } else {
                printf "begin_critical lock=0x%x @%d\n", 45056 + 16 * (t % 4), 10 * i
                printf "load 4 0x%x\n", 536870912 + 4 * rnd(16)
                printf "end_critical lock=0x%x @%d\n", 45056 + 16 * (t % 4), 10 * i + 1
            }
        }
    }
}
