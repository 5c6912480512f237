/* test_contention.c — the banks and links as servers that keep their busy
 * periods (cdat/contention.c): what each kind of sequence visits, in
 * which order, who is charged the waits, that a later resource sees the
 * earlier waits, and that sequences arriving out of order add up to first
 * come first served's total wait, and a phase's start forgets the periods
 * before it. Every number is derived in the comments. */
#include "suites.h"
#include "../../cdat/contention.h"

/* A machine of 2 nodes with 2 banks each, 64-byte lines; bank_busy 10,
 * link_busy 4. Resources: banks (0,0) (0,1) (1,0) (1,1), then links 0, 1. */
static void setup(contention *ct)
{
    cdat_config c = { .nodes = 2, .procs_per_node = 1, .banks_per_node = 2, .line_size = 64 };
    c.timing.on = true;
    c.timing.bank_busy = 10;
    c.timing.link_busy = 4;
    contention_init(ct, &c);
}

/* A sequence of code `code` (then `second`, 0: none) of processor 0 of node
 * req_node for line `line` (bank line mod 2) whose home is `home`. */
static mach_seq seq(cdat_txn *tx, uint8_t code, uint8_t second, int req_node, int home, uint32_t line)
{
    tx[0].code = code;
    tx[1].code = second;
    return (mach_seq){ .requester = 0, .req_node = req_node, .code = code, .addr = line << 6, .home = home,
                       .n = second ? 2 : 1, .tx = tx };
}

START_TEST(in_order)
{
    contention ct;
    setup(&ct);
    cdat_txn tx[2];
    /* Three local requests to bank (0,0) at time 5: waits 0, 10, 20. */
    mach_seq q = seq(tx, TX_READ_SHAR_OR_PRIV, TX_DATA_PRIV, 0, 0, 0);
    ck_assert_uint_eq(contention_seq(&ct, &q, 5), 0);
    ck_assert_uint_eq(contention_seq(&ct, &q, 5), 10);
    ck_assert_uint_eq(contention_seq(&ct, &q, 5), 20);
    /* One arriving at 100, after the bank freed (35): no wait. */
    ck_assert_uint_eq(contention_seq(&ct, &q, 100), 0);
    /* Line 1 is bank (0,1): free. */
    mach_seq q1 = seq(tx, TX_READ_SHAR_OR_PRIV, TX_DATA_PRIV, 0, 0, 1);
    ck_assert_uint_eq(contention_seq(&ct, &q1, 5), 0);
    ck_assert_uint_eq(ct.res[0].requests, 4);
    ck_assert_uint_eq(ct.res[0].busy, 40);
    ck_assert_uint_eq(ct.res[0].wait, 30);
    ck_assert_uint_eq(ct.res[0].max_wait, 20);
    ck_assert_uint_eq(ct.res[1].requests, 1);
    contention_free(&ct);
}
END_TEST

START_TEST(out_of_order)
{
    contention ct;
    setup(&ct);
    cdat_txn tx[2];
    mach_seq q = seq(tx, TX_READ_SHAR_OR_PRIV, TX_DATA_PRIV, 0, 0, 0);      /* bank (0,0), busy 10 */
    /* A processor far ahead: a period [1000, 1010). One far behind, at 100:
     * the bank was free then, no wait (a period [100, 110)). */
    ck_assert_uint_eq(contention_seq(&ct, &q, 1000), 0);
    ck_assert_uint_eq(contention_seq(&ct, &q, 100), 0);
    /* At 1005: in the period [1000, 1010), served after it: 5 ([1000, 1020), 2 sequences). */
    ck_assert_uint_eq(contention_seq(&ct, &q, 1005), 5);
    /* At 995: a new period [995, 1005) reaches [1000, 1020): its 2
     * sequences are pushed back 5 each, charged to it: 10 (first come
     * first served: it goes first, the other two 5 later); [995, 1025), 3. */
    ck_assert_uint_eq(contention_seq(&ct, &q, 995), 10);
    /* At 990: [990, 1000) reaches [995, 1025): 3 × 5 = 15; [990, 1030), 4. */
    ck_assert_uint_eq(contention_seq(&ct, &q, 990), 15);
    /* At 105: in [100, 110): 5; [100, 120), 2. */
    ck_assert_uint_eq(contention_seq(&ct, &q, 105), 5);
    ck_assert_uint_eq(ct.res[0].n, 2);
    ck_assert_uint_eq(ct.res[0].p[0].start, 100);
    ck_assert_uint_eq(ct.res[0].p[0].count, 2);
    ck_assert_uint_eq(ct.res[0].p[1].start, 990);
    ck_assert_uint_eq(ct.res[0].p[1].count, 4);
    /* The total, 35, is first come first served's for these 6 arrivals:
     * 100 → 0, 105 → 5, 990 → 0, 995 → 5, 1000 → 10, 1005 → 15. */
    ck_assert_uint_eq(ct.res[0].wait, 35);
    ck_assert_uint_eq(ct.res[0].max_wait, 15);
    /* A phase starting at 2000: every period has ended, all forgotten at
     * the next use; an arrival at 2000 waits for nothing. */
    contention_phase(&ct, 2000);
    ck_assert_uint_eq(contention_seq(&ct, &q, 2000), 0);
    ck_assert_uint_eq(ct.res[0].n, 1);
    contention_free(&ct);
}
END_TEST

START_TEST(remote_visits_two_links)
{
    contention ct;
    setup(&ct);
    cdat_txn tx[2];
    /* A request of node 0 for a line of node 1 (bank (1,0)), at 0: link 0
     * (0..4), bank (1,0) (0..10), link 1 (0..4): no wait. */
    mach_seq q = seq(tx, TX_READ_PRIV_OWN, TX_DATA_PRIV, 0, 1, 0);
    ck_assert_uint_eq(contention_seq(&ct, &q, 0), 0);
    /* The same again at 0: link 0 waits 4 (starts 4, until 8); the bank,
     * reached at 4, is busy until 10: waits 6 more (starts 10, until 20);
     * link 1, reached at 10, is free (since 4): 4 + 6 = 10 in all. */
    ck_assert_uint_eq(contention_seq(&ct, &q, 0), 10);
    ck_assert_uint_eq(ct.res[4].requests, 2);           /* link 0 */
    ck_assert_uint_eq(ct.res[4].wait, 4);
    ck_assert_uint_eq(ct.res[2].wait, 6);               /* bank (1,0) */
    ck_assert_uint_eq(ct.res[5].wait, 0);               /* link 1 */
    ck_assert_uint_eq(ct.res[5].requests, 2);
    contention_free(&ct);
}
END_TEST

START_TEST(returns_and_snoops)
{
    contention ct;
    setup(&ct);
    cdat_txn tx[2];
    /* A write_back of node 0 to node 1's bank (1,1), at 0: it occupies link
     * 0 and the bank but not link 1 (no answer), and is charged nothing. */
    mach_seq wb = seq(tx, TX_WRITE_BACK, 0, 0, 1, 1);
    ck_assert_uint_eq(contention_seq(&ct, &wb, 0), 0);
    ck_assert_uint_eq(contention_seq(&ct, &wb, 0), 0);  /* it waited 4 and 6, uncharged */
    ck_assert_uint_eq(ct.res[3].returns, 2);
    ck_assert_uint_eq(ct.res[3].wait, 0);
    ck_assert_uint_eq(ct.res[4].returns, 2);
    ck_assert_uint_eq(ct.res[5].returns + ct.res[5].requests, 0);
    /* A request behind them at 0 waits for both: link 0 until 8 (wait 8),
     * the bank until 20 (wait 12 more). */
    mach_seq q = seq(tx, TX_READ_SHAR, TX_DATA_SHAR, 0, 1, 1);
    ck_assert_uint_eq(contention_seq(&ct, &q, 0), 20);
    /* A local snoop [02, 22] (node 1's line, answered in node 1) visits
     * nothing, whatever the queues. */
    mach_seq sn = seq(tx, TX_READ_SHAR_OR_PRIV, TX_UPDATE_DATA, 1, 1, 1);
    ck_assert_uint_eq(contention_seq(&ct, &sn, 0), 0);
    ck_assert_uint_eq(ct.res[3].requests, 1);
    contention_free(&ct);
}
END_TEST

Suite *contention_suite(void)
{
    Suite *s = suite_create("contention");
    TCase *tc = tcase_create("servers");
    tcase_add_test(tc, in_order);
    tcase_add_test(tc, out_of_order);
    tcase_add_test(tc, remote_visits_two_links);
    tcase_add_test(tc, returns_and_snoops);
    suite_add_tcase(s, tc);
    return s;
}
