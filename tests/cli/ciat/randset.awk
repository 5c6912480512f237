# randset.awk — a random trace set in the SMAIT text form, for the property
# tests of ciat (tests/cli/ciat-properties.sh).
#
#   awk -v seed=S -v threads=P -v n=N -f randset.awk >set.txt
#
# Every thread runs two parallel regions (spawn threads=0 by thread 0, join).
# In each region a thread alternates B random segments with barriers whose
# arg2 is 0 (all live threads), so every thread reaches every barrier once
# and the set never deadlocks. A segment holds about N/(2B+2) records:
# loads, stores and atomics of random sizes (0-8, 16, 32, 64 bytes; fixed,
# floating or vector registers) over a small address pool, so locations are
# shared by many threads, and loads of a few read-mostly words that only
# thread 0 writes (large sharing and invalidation degrees); procedure starts and taken branches (some gaps
# filled, some discontinuities) over code shared by all threads; short
# critical sections on one lock; calls. Thread 0 also runs serial segments
# before, between and after the regions, and drops markers, so the run has
# many phases. The generator is a Park-Miller LCG, the same under every awk.
function rnd(k) {               # an integer in [0, k)
    x = (x * 16807) % 2147483647
    return int(x / 2147483647 * k)
}
function addr(t,    r) {        # a data address from the pool
    r = rnd(100)
    if (r < 55) return 536870912 + 4 * rnd(24)             # 0x20000000: 24 shared words
    if (r < 70) return 536870912 + 4096 + 8 * rnd(8) + rnd(4)  # next page, unaligned too
    if (r < 85) return 805306368 + 4096 * t + 4 * rnd(8)   # 0x30000000 + t pages: private
    return 1073741824 + 64 * rnd(16)                       # 0x40000000: 16 lines
}
function access(t,    r, kind, size, reg, a) {
    r = rnd(100)
    kind = r < 50 ? "load" : r < 88 ? "store" : "atomic"
    size = sizes[rnd(nsizes)]
    r = rnd(10)
    reg = r < 6 ? "" : r < 9 ? " fp" : " vec"
    a = addr(t)
    if (rnd(100) < 8) {         # read-mostly words: many readers, written by thread 0
        a = 1342177280 + 4 * rnd(4)                        # 0x50000000
        kind = t == 0 && rnd(3) == 0 ? "store" : "load"
        size = 4
        reg = ""
    }
    printf "%s %d 0x%x%s\n", kind, size, a, reg
}
function segment(t, len,    i, r, next_) {
    for (i = 0; i < len; i++) {
        r = rnd(1000)
        if (r < 880) access(t)
        else if (r < 900) printf "proc 0x%x\n", 65536 + 64 * rnd(8)          # shared code
        else if (r < 950) {
            # a taken branch from somewhere in the code region: filled when
            # it is ahead of pc and close enough, else a discontinuity
            next_ = 65536 + 4 * rnd(600)
            printf "branch 0x%x 0x%x\n", next_, 65536 + 64 * rnd(8)
        } else if (r < 960) printf "pcall 0x%x 0x%x\n", 65536 + 4 * rnd(600), 69632 + 64 * rnd(4)
        else if (r < 975) {
            printf "begin_critical lock=0x9000 @%d:%d\n", rnd(1000), rnd(1000)
            access(t)
            access(t)
            printf "end_critical lock=0x9000\n"
        } else if (r < 985) printf "write buf=0x%x bytes=%d fd=1 @%d:%d\n", 536870912, rnd(5000), rnd(100000), rnd(100000)
        else if (r < 985 + 5 * (t > 0)) printf "syscall num=%d @%d\n", rnd(300), rnd(100000)
        else if (t == 0) printf "marker cmd=0 num=%d\n", rnd(100)
        else printf "ldcw addr=0x9004\n"
    }
}
BEGIN {
    x = seed + 0
    if (x <= 0) x = 1
    split("0 1 2 3 4 4 4 4 8 8 8 16 32 64", sizes, " ")
    nsizes = 14
    B = 3
    seg = int(n / (2 * B + 2))
    if (seg < 1) seg = 1
    printf "# random trace set: seed %d, %d threads\nthreads %d\n", seed, threads, threads
    for (t = 0; t < threads; t++) {
        printf "thread %d\n", t
        for (region = 1; region <= 2; region++) {
            if (t == 0) {
                segment(0, 1 + rnd(seg))            # serial part
                printf "spawn region=%d threads=0\n", region
            } else if (rnd(2)) printf "spawn region=%d threads=0\n", region
            for (b = 0; b < B; b++) {
                segment(t, 1 + rnd(2 * seg))
                printf "barrier var=0x%x threads=0\n", 32768 + 16 * region + 4 * b
            }
            segment(t, 1 + rnd(seg))
            if (region == 1 || t == 0) printf "join\n"
        }
        if (t == 0) segment(0, 1 + rnd(seg))        # the last serial part
    }
}
