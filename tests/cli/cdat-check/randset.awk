# randset.awk — a random trace set in the SMAIT text form for cdat's protocol
# checks (tests/cli/cdat-protocol-check.sh): few lines, many conflicts.
#
#   awk -v seed=S -v threads=P -v n=N [-v nocode=1] -f randset.awk >set.txt
#
# Run it with -p (no spawn/join: every thread is active from the start). Each
# thread does about N records in B segments separated by barriers (threads=0,
# every thread reaches every one), thread 0 drops markers, so there are
# phases. The addresses are chosen for the protocol, not for realism:
#   * code: 32 lines at 0x10000, run by every thread (procedure starts,
#     taken branches); data accesses hit the code lines too (5%), so fetches
#     find lines dirty elsewhere (recall_shar, c2c_data_shar) or in the
#     processor's own d-cache (not with nocode=1: those accesses go to the
#     shared lines instead);
#   * 24 shared lines spread over 6 pages (different homes under rr1 and
#     oracle), 3 hot lines every thread writes (migratory: recalls, c2c,
#     local snoops), 2 read-mostly lines all threads load and thread 0
#     sometimes stores (invalidations of many sharers);
#   * 8 private lines per thread on its own page;
#   * unaligned accesses of up to 64 bytes, some spanning two lines.
# With 1K data caches this evicts often (write_back, update_tag, silent drops,
# then recall_nack_inv). A Park-Miller LCG: the same set under every awk.
function rnd(k) {               # an integer in [0, k)
    x = (x * 16807) % 2147483647
    return int(x / 2147483647 * k)
}
function addr(t,    r) {
    r = rnd(100)
    if (r < 5 && !nocode) return 65536 + 64 * rnd(32) + 4 * rnd(16)       # code lines
    if (r < 40) return 536870912 + 4096 * rnd(6) + 64 * rnd(4) + rnd(64)  # 0x20000000: shared
    if (r < 60) return 545259520 + 64 * rnd(3) + 8 * rnd(8)              # 0x20800000: hot
    if (r < 70) return 553648128 + 64 * rnd(2) + 4 * rnd(16)             # 0x21000000: read-mostly
    return 805306368 + 4096 * t + 64 * rnd(8) + 8 * rnd(8)               # 0x30000000 + t pages: private
}
function access(t,    r, kind, size, a) {
    a = addr(t)
    r = rnd(100)
    kind = r < 50 ? "load" : r < 85 ? "store" : "atomic"
    if (a >= 553648128 && a < 553648128 + 128 && !(t == 0 && rnd(4) == 0)) kind = "load"
    size = sizes[1 + rnd(nsizes)]
    printf "%s %d 0x%x\n", kind, size, a
}
function segment(t, len,    i, r) {
    for (i = 0; i < len; i++) {
        r = rnd(100)
        if (r < 80) access(t)
        else if (r < 88) printf "proc 0x%x\n", 65536 + 64 * rnd(32)
        else if (r < 97) printf "branch 0x%x 0x%x\n", 65536 + 4 * rnd(512), 65536 + 64 * rnd(32)
        else if (t == 0) printf "marker cmd=0 num=%d\n", rnd(100)
        else access(t)
    }
}
BEGIN {
    x = seed + 0
    if (x <= 0) x = 1
    nsizes = split("1 2 4 4 4 8 8 8 16 64", sizes, " ")
    B = 4
    printf "# cdat protocol-check set: seed %d, %d threads, about %d records each\nthreads %d\n", seed, threads, n, threads
    for (t = 0; t < threads; t++) {
        printf "thread %d\n", t
        printf "proc 0x%x\n", 65536 + 64 * rnd(32)
        for (b = 0; b < B; b++) {
            segment(t, 1 + rnd(2 * int(n / B)))
            # time-stamped (1 ms apart) so that slice mode runs the segments side by side
            printf "barrier var=0x%x threads=0 @%d:%d\n", 36864 + 4 * b, 1000 * (b + 1), 1000 * (b + 1)
        }
        segment(t, 1 + rnd(int(n / B)))
    }
}
