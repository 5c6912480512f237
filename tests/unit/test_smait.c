/* test_smait.c — formats/smait: record kinds, size codes, call grouping,
 * decoding, names, byte order and its detection (formats/SMAIT.md). */
#include "suites.h"

#include <string.h>

/* ---- classification ------------------------------------------------------ */

START_TEST(classify_memory_examples)
{
    /* The report's examples: load word fixed-point, store double-word float. */
    ck_assert_int_eq(smait_classify(0x00000040), SMAIT_MEM);
    ck_assert_int_eq(smait_classify(0x00000181), SMAIT_MEM);
    ck_assert_int_eq(smait_classify(0x00000000), SMAIT_MEM);   /* load 0 bytes */
    ck_assert_int_eq(smait_classify(0x00000010), SMAIT_MEM);   /* load 1 byte */
    ck_assert_int_eq(smait_classify(0x00000042), SMAIT_MEM);   /* atomic */
    ck_assert_int_eq(smait_classify(0x00000290), SMAIT_MEM);   /* 16 bytes, vector */
    ck_assert_int_eq(smait_classify(0x000002B2), SMAIT_MEM);   /* 64 bytes, atomic, vector */
}
END_TEST

START_TEST(classify_memory_invalid_nibbles)
{
    ck_assert_int_eq(smait_classify(0x00000043), SMAIT_INVALID);   /* access 3 */
    ck_assert_int_eq(smait_classify(0x0000004F), SMAIT_INVALID);   /* access 15 */
    ck_assert_int_eq(smait_classify(0x000000C0), SMAIT_INVALID);   /* size code 12 */
    ck_assert_int_eq(smait_classify(0x000000F0), SMAIT_INVALID);   /* size code 15 */
    ck_assert_int_eq(smait_classify(0x00000340), SMAIT_INVALID);   /* register type 3 */
    ck_assert_int_eq(smait_classify(0x00000F40), SMAIT_INVALID);   /* register type 15 */
    ck_assert_int_eq(smait_classify(0x00000FFF), SMAIT_INVALID);
}
END_TEST

START_TEST(classify_memory_exhaustive)
{
    /* Every f1 with f1 >> 12 == 0: valid exactly when access <= 2, size code
     * <= 11 and register type <= 2: 3 * 12 * 3 values. */
    unsigned valid = 0;
    for (uint32_t f1 = 0; f1 < 0x1000; f1++) {
        bool expect = (f1 & 0xF) <= 2 && ((f1 >> 4) & 0xF) <= 11 && ((f1 >> 8) & 0xF) <= 2;
        ck_assert_int_eq(smait_classify(f1), expect ? SMAIT_MEM : SMAIT_INVALID);
        valid += expect;
    }
    ck_assert_uint_eq(valid, 3 * 12 * 3);
}
END_TEST

START_TEST(classify_call_parts)
{
    for (unsigned i = 0; i < 6; i++)
        ck_assert_int_eq(smait_classify(0x00001030 | i), SMAIT_CALL_PART);
    for (unsigned i = 6; i < 16; i++)
        ck_assert_int_eq(smait_classify(0x00001030 | i), SMAIT_INVALID);
    ck_assert_int_eq(smait_classify(0x00001000), SMAIT_CALL_PART);     /* type 0x00 */
    ck_assert_int_eq(smait_classify(0x00001FF5), SMAIT_CALL_PART);     /* type 0xff */
    ck_assert_int_eq(smait_classify(0x00002000), SMAIT_INVALID);       /* f1 >> 12 == 2 */
    ck_assert_int_eq(smait_classify(0x0000F000), SMAIT_INVALID);
    ck_assert_int_eq(smait_classify(0x00010000), SMAIT_INVALID);
    ck_assert_int_eq(smait_classify(0x00011030), SMAIT_INVALID);
    ck_assert_int_eq(smait_classify(0x0FFFFFFF), SMAIT_INVALID);
}
END_TEST

START_TEST(classify_top_nibble)
{
    for (uint32_t top = 0; top < 16; top++) {
        smait_kind want = top == 4 ? SMAIT_PROC_START : top == 8 ? SMAIT_BRANCH :
                          top == 0xC ? SMAIT_PROC_CALL : SMAIT_INVALID;
        if (top == 0) continue;     /* memory and call records, tested above */
        ck_assert_int_eq(smait_classify(top << 28), want);
        ck_assert_int_eq(smait_classify(top << 28 | 0x0FFFFFFF), want);
        ck_assert_int_eq(smait_classify(top << 28 | 0x00000040), want);
        ck_assert_int_eq(smait_classify(top << 28 | 0x00001030), want);
    }
}
END_TEST

START_TEST(field_accessors)
{
    uint32_t f1 = smait_mem_f1(SMAIT_STORE, 8, SMAIT_REG_FLOAT);
    ck_assert_uint_eq(f1, 0x181);
    ck_assert_uint_eq(smait_mem_access(f1), SMAIT_STORE);
    ck_assert_uint_eq(smait_mem_size_code(f1), 8);
    ck_assert_uint_eq(smait_mem_regtype(f1), SMAIT_REG_FLOAT);
    ck_assert_uint_eq(smait_mem_f1(SMAIT_ATOMIC, 11, SMAIT_REG_VECTOR), 0x2B2);

    ck_assert_uint_eq(smait_call_f1(0x03, 0), 0x1030);
    ck_assert_uint_eq(smait_call_f1(0xFF, 5), 0x1FF5);
    ck_assert_uint_eq(smait_call_type(0x1FF5), 0xFF);
    ck_assert_uint_eq(smait_call_index(0x1FF5), 5);
    ck_assert_uint_eq(smait_branch_src(0x8FFFFFFC), 0x0FFFFFFC);
    ck_assert_uint_eq(smait_branch_src(0xC0000004), 4);
}
END_TEST

/* ---- size codes ------------------------------------------------------------ */

START_TEST(size_codes)
{
    for (unsigned c = 0; c <= 8; c++) {
        ck_assert_uint_eq(smait_size_bytes(c), c);
        ck_assert_int_eq(smait_size_code_of(c), (int)c);
    }
    ck_assert_uint_eq(smait_size_bytes(9), 16);
    ck_assert_uint_eq(smait_size_bytes(10), 32);
    ck_assert_uint_eq(smait_size_bytes(11), 64);
    for (unsigned c = 12; c < 16; c++) ck_assert_uint_eq(smait_size_bytes(c), 0);
    for (unsigned c = 0; c < 16; c++) {
        unsigned bytes = smait_size_bytes(c);
        ck_assert_uint_eq(smait_size_last_byte(c), bytes ? bytes - 1 : 0);
    }
    ck_assert_int_eq(smait_size_code_of(16), 9);
    ck_assert_int_eq(smait_size_code_of(32), 10);
    ck_assert_int_eq(smait_size_code_of(64), 11);
    const unsigned bad[] = { 9, 10, 11, 12, 15, 17, 31, 33, 63, 65, 128, 4096, 0xFFFFFFFFu };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_int_eq(smait_size_code_of(bad[i]), -1);
}
END_TEST

/* ---- call grouping, decoding, spans ---------------------------------------- */

static void call_group(smait_raw g[6], unsigned type)
{
    for (unsigned i = 0; i < 6; i++) {
        g[i].f1 = smait_call_f1(type, i);
        g[i].f2 = 1000 + i;
    }
}

START_TEST(call_grouping)
{
    smait_raw g[6];
    call_group(g, 0x03);
    ck_assert(smait_call_group_ok(g));
    call_group(g, 0x00);
    ck_assert(smait_call_group_ok(g));
    call_group(g, 0xFF);
    ck_assert(smait_call_group_ok(g));

    /* Any part with the wrong index, type or kind breaks the group. */
    for (unsigned j = 0; j < 6; j++) {
        call_group(g, 0x03);
        g[j].f1 = smait_call_f1(0x03, (j + 1) % 6);             /* wrong index */
        ck_assert_msg(!smait_call_group_ok(g), "index of part %u", j);
        call_group(g, 0x03);
        g[j].f1 = smait_call_f1(0x06, j);                       /* mixed call types */
        ck_assert_msg(!smait_call_group_ok(g), "type of part %u", j);
        call_group(g, 0x03);
        g[j].f1 = 0x40;                                         /* not a call part */
        ck_assert_msg(!smait_call_group_ok(g), "kind of part %u", j);
    }
    /* Parts 0..5 of one type in order, but starting at part 1: not a group. */
    call_group(g, 0x03);
    for (unsigned i = 0; i < 6; i++) g[i].f1 = smait_call_f1(0x03, i == 0 ? 1 : i);
    ck_assert(!smait_call_group_ok(g));
}
END_TEST

START_TEST(decode_records)
{
    smait_record d;
    smait_raw m = { 0x00000181, 0x2000 };
    smait_decode(&m, &d);
    ck_assert_int_eq(d.kind, SMAIT_MEM);
    ck_assert_uint_eq(d.access, SMAIT_STORE);
    ck_assert_uint_eq(d.size_code, 8);
    ck_assert_uint_eq(d.regtype, SMAIT_REG_FLOAT);
    ck_assert_uint_eq(d.f1, 0x181);
    ck_assert_uint_eq(d.f2, 0x2000);

    smait_raw g[6];
    call_group(g, SMAIT_CT_BARRIER);
    smait_decode(g, &d);
    ck_assert_int_eq(d.kind, SMAIT_CALL_PART);
    ck_assert_uint_eq(d.call_type, SMAIT_CT_BARRIER);
    for (unsigned i = 0; i < 6; i++) ck_assert_uint_eq(d.call[i], 1000 + i);
    ck_assert_uint_eq(d.call[SMAIT_CALL_START], 1000);
    ck_assert_uint_eq(d.call[SMAIT_CALL_END], 1001);
    ck_assert_uint_eq(d.call[SMAIT_CALL_ARG1], 1002);

    smait_raw b = { 0x80004c18, 0x4d20 };
    smait_decode(&b, &d);
    ck_assert_int_eq(d.kind, SMAIT_BRANCH);
    ck_assert_uint_eq(d.f1, 0x80004c18);
    ck_assert_uint_eq(d.f2, 0x4d20);
    ck_assert_uint_eq(d.call_type, 0);

    smait_raw bad = { 0x20000000, 1 };
    smait_decode(&bad, &d);
    ck_assert_int_eq(d.kind, SMAIT_INVALID);
}
END_TEST

START_TEST(record_span)
{
    ck_assert_uint_eq(smait_record_span(0x00001030), 6);
    ck_assert_uint_eq(smait_record_span(0x00001035), 6);
    ck_assert_uint_eq(smait_record_span(0x00000040), 1);
    ck_assert_uint_eq(smait_record_span(0x40000000), 1);
    ck_assert_uint_eq(smait_record_span(0x80000000), 1);
    ck_assert_uint_eq(smait_record_span(0xC0000000), 1);
    ck_assert_uint_eq(smait_record_span(0x20000000), 1);
    ck_assert_uint_eq(smait_record_span(0x00001036), 1);     /* invalid part index */
}
END_TEST

/* ---- names -------------------------------------------------------------------- */

START_TEST(call_names)
{
    static const struct { unsigned type; const char *name; } named[] = {
        { 0x01, "spawn" }, { 0x02, "join" }, { 0x03, "barrier" },
        { 0x04, "begin_order" }, { 0x05, "end_order" },
        { 0x06, "begin_critical" }, { 0x07, "end_critical" },
        { 0x10, "marker" }, { 0x11, "read" }, { 0x12, "write" }, { 0x13, "ldcw" },
        { 0x14, "semop" }, { 0x15, "semctl" }, { 0x16, "syscall" },
        { 0x17, "start_trace" }, { 0x18, "end_trace" },
        { 0x20, "acquire" }, { 0x21, "release" }, { 0x22, "unmodelled" }, { 0x23, "tracing" },
    };
    unsigned nnamed = 0;
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        ck_assert_str_eq(smait_call_name(named[i].type), named[i].name);
        ck_assert_int_eq(smait_call_type_of(named[i].name), (int)named[i].type);
    }
    for (unsigned t = 0; t < 300; t++) nnamed += smait_call_name(t) != NULL;
    ck_assert_uint_eq(nnamed, 20);
    ck_assert_ptr_null(smait_call_name(0x00));
    ck_assert_ptr_null(smait_call_name(0x08));
    ck_assert_ptr_null(smait_call_name(0x0F));
    ck_assert_ptr_null(smait_call_name(0x19));
    ck_assert_ptr_null(smait_call_name(0x1F));
    ck_assert_ptr_null(smait_call_name(0x24));
    ck_assert_str_eq(smait_sync_kind_name(SMAIT_SK_SEM), "semaphore");
    ck_assert_ptr_null(smait_sync_kind_name(SMAIT_SK_COUNT));
    ck_assert_str_eq(smait_unmodelled_name(SMAIT_UM_FUTEX), "futex");
    ck_assert_ptr_null(smait_unmodelled_name(0));
    ck_assert_ptr_null(smait_call_name(0xFF));
}
END_TEST

START_TEST(call_type_of_hex_names)
{
    ck_assert_int_eq(smait_call_type_of("type_0x42"), 0x42);
    ck_assert_int_eq(smait_call_type_of("type_0x00"), 0x00);
    ck_assert_int_eq(smait_call_type_of("type_0xff"), 0xFF);
    ck_assert_int_eq(smait_call_type_of("type_0xFF"), 0xFF);
    ck_assert_int_eq(smait_call_type_of("type_0x03"), 0x03);   /* named types too */
    ck_assert_int_eq(smait_call_type_of("type_0x4"), -1);
    ck_assert_int_eq(smait_call_type_of("type_0x1ff"), -1);
    ck_assert_int_eq(smait_call_type_of("type_0x4g"), -1);
    ck_assert_int_eq(smait_call_type_of("type_0x+1"), -1);
    ck_assert_int_eq(smait_call_type_of("type_0x-1"), -1);
    ck_assert_int_eq(smait_call_type_of("type_0x 1"), -1);
    ck_assert_int_eq(smait_call_type_of("type_42"), -1);
    ck_assert_int_eq(smait_call_type_of("Barrier"), -1);
    ck_assert_int_eq(smait_call_type_of(""), -1);
    ck_assert_int_eq(smait_call_type_of("load"), -1);
}
END_TEST

START_TEST(kind_access_order_names)
{
    ck_assert_str_eq(smait_kind_name(SMAIT_INVALID), "invalid");
    ck_assert_str_eq(smait_kind_name(SMAIT_MEM), "memory");
    ck_assert_str_eq(smait_kind_name(SMAIT_CALL_PART), "call");
    ck_assert_str_eq(smait_kind_name(SMAIT_PROC_START), "proc_start");
    ck_assert_str_eq(smait_kind_name(SMAIT_BRANCH), "branch");
    ck_assert_str_eq(smait_kind_name(SMAIT_PROC_CALL), "proc_call");
    ck_assert_str_eq(smait_kind_name(SMAIT_KIND_COUNT), "invalid");
    ck_assert_str_eq(smait_access_name(0), "load");
    ck_assert_str_eq(smait_access_name(1), "store");
    ck_assert_str_eq(smait_access_name(2), "atomic");
    ck_assert_str_eq(smait_access_name(3), "invalid");

    ck_assert_str_eq(smait_order_name(SMAIT_ORDER_AUTO), "auto");
    ck_assert_str_eq(smait_order_name(SMAIT_ORDER_LITTLE), "little");
    ck_assert_str_eq(smait_order_name(SMAIT_ORDER_BIG), "big");
    smait_order o = SMAIT_ORDER_AUTO;
    ck_assert_int_eq(smait_order_parse("big", &o), 0);
    ck_assert_int_eq(o, SMAIT_ORDER_BIG);
    ck_assert_int_eq(smait_order_parse("little", &o), 0);
    ck_assert_int_eq(o, SMAIT_ORDER_LITTLE);
    ck_assert_int_eq(smait_order_parse("auto", &o), 0);
    ck_assert_int_eq(o, SMAIT_ORDER_AUTO);
    o = SMAIT_ORDER_BIG;
    ck_assert_int_eq(smait_order_parse("Big", &o), -1);
    ck_assert_int_eq(smait_order_parse("", &o), -1);
    ck_assert_int_eq(smait_order_parse("middle", &o), -1);
    ck_assert_int_eq(o, SMAIT_ORDER_BIG);   /* unchanged on error */
}
END_TEST

/* ---- byte order ------------------------------------------------------------------ */

START_TEST(load_store_both_orders)
{
    const unsigned char b[8] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 };
    smait_raw l = smait_load_raw(b, SMAIT_ORDER_LITTLE);
    ck_assert_uint_eq(l.f1, 0x04030201);
    ck_assert_uint_eq(l.f2, 0x08070605);
    smait_raw g = smait_load_raw(b, SMAIT_ORDER_BIG);
    ck_assert_uint_eq(g.f1, 0x01020304);
    ck_assert_uint_eq(g.f2, 0x05060708);

    unsigned char out[8];
    smait_store_raw(out, l, SMAIT_ORDER_LITTLE);
    ck_assert_mem_eq(out, b, 8);
    smait_store_raw(out, g, SMAIT_ORDER_BIG);
    ck_assert_mem_eq(out, b, 8);

    smait_raw r = { 0x00001030, 0xDEADBEEF };
    smait_store_raw(out, r, SMAIT_ORDER_BIG);
    ck_assert_mem_eq(out, "\x00\x00\x10\x30\xDE\xAD\xBE\xEF", 8);
    smait_store_raw(out, r, SMAIT_ORDER_LITTLE);
    ck_assert_mem_eq(out, "\x30\x10\x00\x00\xEF\xBE\xAD\xDE", 8);
}
END_TEST

START_TEST(to_host_both_orders)
{
    const unsigned char b[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
    smait_order orders[] = { SMAIT_ORDER_LITTLE, SMAIT_ORDER_BIG };
    for (int k = 0; k < 2; k++) {
        smait_raw recs[2];
        memcpy(recs, b, sizeof recs);
        smait_to_host(recs, 2, orders[k]);
        for (int i = 0; i < 2; i++) {
            smait_raw want = smait_load_raw(b + 8 * i, orders[k]);
            ck_assert_uint_eq(recs[i].f1, want.f1);
            ck_assert_uint_eq(recs[i].f2, want.f2);
        }
    }
    smait_raw one;
    memcpy(&one, b, 8);
    smait_to_host(&one, 0, SMAIT_ORDER_BIG);    /* n = 0 touches nothing */
    ck_assert_mem_eq(&one, b, 8);
}
END_TEST

/* File bytes of recs in order o (at most 32 records). */
static size_t bytes_of(const tu_recs *t, smait_order o, unsigned char *out)
{
    for (size_t i = 0; i < t->n; i++) smait_store_raw(out + 8 * i, t->r[i], o);
    return 8 * t->n;
}

START_TEST(detect_order_clear_cases)
{
    tu_recs t = { 0 };
    tu_all_kinds(&t);
    unsigned char b[8 * 64];
    size_t n = bytes_of(&t, SMAIT_ORDER_LITTLE, b);
    ck_assert_int_eq(smait_detect_order(b, n), SMAIT_ORDER_LITTLE);
    n = bytes_of(&t, SMAIT_ORDER_BIG, b);
    ck_assert_int_eq(smait_detect_order(b, n), SMAIT_ORDER_BIG);
    tu_recs_free(&t);

    /* A call record first: 0x00001xx0 is valid in one order only. */
    tu_add_call(&t, SMAIT_CT_START_TRACE, 1, 2, 0, 0, 0, 0);
    n = bytes_of(&t, SMAIT_ORDER_BIG, b);
    ck_assert_int_eq(smait_detect_order(b, n), SMAIT_ORDER_BIG);
    n = bytes_of(&t, SMAIT_ORDER_LITTLE, b);
    ck_assert_int_eq(smait_detect_order(b, n), SMAIT_ORDER_LITTLE);
    /* ... also when the call record is cut by the end of the bytes looked at. */
    ck_assert_int_eq(smait_detect_order(b, 16), SMAIT_ORDER_LITTLE);
    n = bytes_of(&t, SMAIT_ORDER_BIG, b);
    ck_assert_int_eq(smait_detect_order(b, 16), SMAIT_ORDER_BIG);
    tu_recs_free(&t);

    /* One branch: 0x80004c18 read big-endian from little bytes is 0x184c0080. */
    tu_add(&t, 0x80004c18, 0x4d20);
    n = bytes_of(&t, SMAIT_ORDER_BIG, b);
    ck_assert_int_eq(smait_detect_order(b, n), SMAIT_ORDER_BIG);
    tu_recs_free(&t);
}
END_TEST

START_TEST(detect_order_both_valid)
{
    unsigned char b[8 * 32];
    tu_recs t = { 0 };
    /* Word loads: big-endian 00000040 reads little-endian as 40000000, a
     * procedure start. Both orders decode, so formats/SMAIT.md §2 says little-endian,
     * whichever order the bytes were written in. */
    for (int i = 0; i < 20; i++) tu_add_mem(&t, SMAIT_LOAD, 4, SMAIT_REG_FIXED, 0x1000u + 4u * (unsigned)i);
    size_t n = bytes_of(&t, SMAIT_ORDER_BIG, b);
    ck_assert_int_eq(smait_detect_order(b, n), SMAIT_ORDER_LITTLE);
    n = bytes_of(&t, SMAIT_ORDER_LITTLE, b);
    ck_assert_int_eq(smait_detect_order(b, n), SMAIT_ORDER_LITTLE);
    tu_recs_free(&t);

    /* Little-endian proc, load 8 fp, store 8 fp also decode big-endian (a load
     * and two branches): both valid -> little-endian, the right answer here. */
    tu_add(&t, 0x40000000, 0x4c00);
    tu_add_mem(&t, SMAIT_LOAD, 8, SMAIT_REG_FLOAT, 0x100);
    tu_add_mem(&t, SMAIT_STORE, 8, SMAIT_REG_FLOAT, 0x108);
    n = bytes_of(&t, SMAIT_ORDER_LITTLE, b);
    ck_assert_int_eq(smait_detect_order(b, n), SMAIT_ORDER_LITTLE);
    tu_recs_free(&t);

    /* A big-endian trace that starts with a start_trace call record (as SMAIT
     * traces do) is decided by it: 00001170 is invalid little-endian. */
    for (unsigned i = 0; i < SMAIT_CALL_PARTS; i++) tu_add(&t, smait_call_f1(SMAIT_CT_START_TRACE, i), i);
    for (int i = 0; i < 10; i++) tu_add_mem(&t, SMAIT_LOAD, 4, SMAIT_REG_FIXED, 0x1000u + 4u * (unsigned)i);
    n = bytes_of(&t, SMAIT_ORDER_BIG, b);
    ck_assert_int_eq(smait_detect_order(b, n), SMAIT_ORDER_BIG);
    tu_recs_free(&t);
}
END_TEST

START_TEST(detect_order_ambiguous_or_neither)
{
    unsigned char b[8 * 32];
    tu_recs t = { 0 };
    /* Both orders valid with as many procedure starts: little. Zero-byte loads
     * (f1 00000000) and a palindromic procedure start (40000040) read the same
     * either way round. */
    for (int i = 0; i < 10; i++) tu_add(&t, 0x00000000, 0x1000u + (unsigned)i);
    tu_add(&t, 0x40000040, 0x4c00);
    size_t n = bytes_of(&t, SMAIT_ORDER_BIG, b);
    ck_assert_int_eq(smait_detect_order(b, n), SMAIT_ORDER_LITTLE);
    n = bytes_of(&t, SMAIT_ORDER_LITTLE, b);
    ck_assert_int_eq(smait_detect_order(b, n), SMAIT_ORDER_LITTLE);
    tu_recs_free(&t);

    /* Neither order: 0x20000020 is invalid both ways. */
    tu_add(&t, 0x20000020, 0);
    tu_add(&t, 0x80000000, 0);
    n = bytes_of(&t, SMAIT_ORDER_BIG, b);
    ck_assert_int_eq(smait_detect_order(b, n), SMAIT_ORDER_LITTLE);
    tu_recs_free(&t);

    /* Nothing (or less than one record) to look at. */
    ck_assert_int_eq(smait_detect_order(b, 0), SMAIT_ORDER_LITTLE);
    ck_assert_int_eq(smait_detect_order((const unsigned char *)"\0\0\x10\x30\0\0\0", 7),
                     SMAIT_ORDER_LITTLE);
}
END_TEST

START_TEST(detect_order_first_16_records)
{
    unsigned char b[8 * 32];
    tu_recs t = { 0 };
    /* 16 records that read the same both ways, then a branch that only
     * big-endian decodes: only the first 16 records count, so it is a tie →
     * little. */
    for (int i = 0; i < 16; i++) tu_add(&t, 0x00000000, 0x1000);
    tu_add(&t, 0x80004c18, 0x4d20);
    size_t n = bytes_of(&t, SMAIT_ORDER_BIG, b);
    ck_assert_int_eq(smait_detect_order(b, n), SMAIT_ORDER_LITTLE);
    tu_recs_free(&t);
    /* The same branch as record 15 decides. */
    for (int i = 0; i < 15; i++) tu_add(&t, 0x00000000, 0x1000);
    tu_add(&t, 0x80004c18, 0x4d20);
    n = bytes_of(&t, SMAIT_ORDER_BIG, b);
    ck_assert_int_eq(smait_detect_order(b, n), SMAIT_ORDER_BIG);
    tu_recs_free(&t);
}
END_TEST

START_TEST(valid_prefix)
{
    unsigned char b[8 * 32];
    tu_recs t = { 0 };
    tu_add_mem(&t, SMAIT_LOAD, 4, 0, 0);
    tu_add_call(&t, SMAIT_CT_BARRIER, 0, 0, 0, 0, 0, 0);
    tu_add(&t, 0x20000000, 0);          /* record 7: invalid */
    tu_add_mem(&t, SMAIT_LOAD, 4, 0, 0);
    size_t n = bytes_of(&t, SMAIT_ORDER_LITTLE, b) / 8;
    ck_assert_uint_eq(smait_valid_prefix(b, n, SMAIT_ORDER_LITTLE), 7);
    ck_assert_uint_eq(smait_valid_prefix(b, 4, SMAIT_ORDER_LITTLE), 4);  /* call cut: ok */
    ck_assert_uint_eq(smait_valid_prefix(b, 0, SMAIT_ORDER_LITTLE), 0);
    tu_recs_free(&t);

    tu_add_call(&t, SMAIT_CT_BARRIER, 0, 0, 0, 0, 0, 0);
    t.r[3].f1 = smait_call_f1(SMAIT_CT_JOIN, 3);    /* mixed call types */
    n = bytes_of(&t, SMAIT_ORDER_LITTLE, b) / 8;
    ck_assert_uint_eq(smait_valid_prefix(b, n, SMAIT_ORDER_LITTLE), 0);
    ck_assert_uint_eq(smait_valid_prefix(b, 3, SMAIT_ORDER_LITTLE), 3);
    tu_recs_free(&t);

    tu_add(&t, smait_call_f1(SMAIT_CT_BARRIER, 2), 0);  /* a part without part 0 */
    n = bytes_of(&t, SMAIT_ORDER_LITTLE, b) / 8;
    ck_assert_uint_eq(smait_valid_prefix(b, n, SMAIT_ORDER_LITTLE), 0);
    tu_recs_free(&t);
}
END_TEST

Suite *smait_suite(void)
{
    Suite *s = suite_create("smait");
    TCase *tc = tcase_create("classify");
    tcase_add_test(tc, classify_memory_examples);
    tcase_add_test(tc, classify_memory_invalid_nibbles);
    tcase_add_test(tc, classify_memory_exhaustive);
    tcase_add_test(tc, classify_call_parts);
    tcase_add_test(tc, classify_top_nibble);
    tcase_add_test(tc, field_accessors);
    tcase_add_test(tc, size_codes);
    suite_add_tcase(s, tc);

    tc = tcase_create("records");
    tcase_add_test(tc, call_grouping);
    tcase_add_test(tc, decode_records);
    tcase_add_test(tc, record_span);
    tcase_add_test(tc, call_names);
    tcase_add_test(tc, call_type_of_hex_names);
    tcase_add_test(tc, kind_access_order_names);
    suite_add_tcase(s, tc);

    tc = tcase_create("byte_order");
    tcase_add_test(tc, load_store_both_orders);
    tcase_add_test(tc, to_host_both_orders);
    tcase_add_test(tc, detect_order_clear_cases);
    tcase_add_test(tc, detect_order_both_valid);
    tcase_add_test(tc, detect_order_ambiguous_or_neither);
    tcase_add_test(tc, detect_order_first_16_records);
    tcase_add_test(tc, valid_prefix);
    suite_add_tcase(s, tc);
    return s;
}
