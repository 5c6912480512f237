/* smait_text.c — canonical text of SMAIT records and its parser. */
#include "smait_text.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Argument names per call type (NULL: printed and parsed as argN); 'x' marks
 * values printed in hex (addresses); 'o' in opt marks named arguments printed
 * only when not 0 (the extensions of §5.1, so older texts print as before). */
typedef struct call_args {
    const char *name[4];
    const char *hex;        /* "x..." one char per argument, 'x' = hex */
    const char *opt;        /* "...." one char per argument, 'o' = omitted when 0 */
} call_args;

static call_args args_of(unsigned type)
{
    call_args a = { { NULL, NULL, NULL, NULL }, "....", "...." };
    switch (type) {
    case SMAIT_CT_SPAWN: a.name[0] = "region"; a.name[1] = "threads"; break;
    case SMAIT_CT_BARRIER: a.name[0] = "var"; a.name[1] = "threads"; a.hex = "x..."; break;
    case SMAIT_CT_BEGIN_ORDER: case SMAIT_CT_END_ORDER:
    case SMAIT_CT_BEGIN_CRITICAL: case SMAIT_CT_END_CRITICAL:
        a.name[0] = "lock"; a.name[1] = "seq"; a.name[2] = "kind";
        if (type == SMAIT_CT_BEGIN_ORDER || type == SMAIT_CT_BEGIN_CRITICAL) a.name[3] = "wake";
        a.hex = "x..."; a.opt = ".ooo"; break;
    case SMAIT_CT_ACQUIRE: case SMAIT_CT_RELEASE:
        a.name[0] = "obj"; a.name[1] = "seq"; a.name[2] = "kind"; a.hex = "x..."; break;
    case SMAIT_CT_UNMODELLED: a.name[0] = "what"; a.name[1] = "count"; break;
    case SMAIT_CT_TRACING:
        a.name[0] = "cpus"; a.name[1] = "allowed"; a.name[2] = "ran_us"; a.name[3] = "waited_us"; break;
    case SMAIT_CT_START_TRACE: a.name[0] = "sync"; a.opt = "o..."; break;
    case SMAIT_CT_MARKER: a.name[0] = "cmd"; a.name[1] = "num"; break;
    case SMAIT_CT_READ: case SMAIT_CT_WRITE:
        a.name[0] = "buf"; a.name[1] = "bytes"; a.name[2] = "fd"; a.hex = "x..."; break;
    case SMAIT_CT_LDCW: a.name[0] = "addr"; a.hex = "x..."; break;
    case SMAIT_CT_SEMOP:
        a.name[0] = "semid"; a.name[1] = "semnum"; a.name[2] = "op"; a.name[3] = "flags"; break;
    case SMAIT_CT_SEMCTL:
        a.name[0] = "semid"; a.name[1] = "semnum"; a.name[2] = "cmd"; a.name[3] = "value"; break;
    case SMAIT_CT_SYSCALL: a.name[0] = "num"; break;
    default: break;
    }
    return a;
}

static const char *const regtype_names[] = { NULL, "fp", "vec" };

size_t smait_text_format(const smait_raw *p, char *buf, size_t cap)
{
    uint32_t f1 = p->f1, f2 = p->f2;
    int n = 0;
    switch (smait_classify(f1)) {
    case SMAIT_MEM: {
        unsigned rt = smait_mem_regtype(f1);
        n = snprintf(buf, cap, "%s %u 0x%08x%s%s", smait_access_name(smait_mem_access(f1)),
                     smait_size_bytes(smait_mem_size_code(f1)), f2,
                     rt ? " " : "", rt ? regtype_names[rt] : "");
        break;
    }
    case SMAIT_PROC_START:
        n = snprintf(buf, cap, "proc 0x%08x", f2);
        if (f1 & SMAIT_BRANCH_ADDR_MASK)
            n += snprintf(buf + n, cap - (size_t)n, " low=0x%07x", f1 & SMAIT_BRANCH_ADDR_MASK);
        break;
    case SMAIT_BRANCH:
        n = snprintf(buf, cap, "branch 0x%08x 0x%08x", smait_branch_src(f1), f2);
        break;
    case SMAIT_PROC_CALL:
        n = snprintf(buf, cap, "pcall 0x%08x 0x%08x", smait_branch_src(f1), f2);
        break;
    case SMAIT_CALL_PART: {
        unsigned type = smait_call_type(f1);
        const char *name = smait_call_name(type);
        n = name ? snprintf(buf, cap, "%s", name) : snprintf(buf, cap, "type_0x%02x", type);
        call_args a = args_of(type);
        for (int i = 0; i < 4; i++) {
            uint32_t v = p[SMAIT_CALL_ARG1 + i].f2;
            if ((!a.name[i] || a.opt[i] == 'o') && v == 0) continue;
            char key[8];
            snprintf(key, sizeof key, "arg%d", i + 1);
            n += snprintf(buf + n, cap - (size_t)n, a.hex[i] == 'x' ? " %s=0x%08x" : " %s=%u",
                          a.name[i] ? a.name[i] : key, v);
        }
        if (p[SMAIT_CALL_START].f2 || p[SMAIT_CALL_END].f2)
            n += snprintf(buf + n, cap - (size_t)n, " @%u:%u", p[SMAIT_CALL_START].f2,
                          p[SMAIT_CALL_END].f2);
        break;
    }
    default:
        n = snprintf(buf, cap, "raw 0x%08x 0x%08x", f1, f2);
        break;
    }
    return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

int smait_text_u32(const char *s, uint32_t *out)
{
    if (!isdigit((unsigned char)s[0])) return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    /* strtoull's base 0 reads a leading 0 as octal; we want plain decimal. */
    if (s[0] == '0' && isdigit((unsigned char)s[1])) v = strtoull(s, &end, 10);
    if (errno || *end || v > UINT32_MAX) return -1;
    *out = (uint32_t)v;
    return 0;
}

int smait_text_words(char *line, char **words, int max)
{
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    int n = 0;
    char *p = line;
    for (;;) {
        while (isspace((unsigned char)*p)) p++;
        if (!*p) break;
        char *w = p;
        while (*p && !isspace((unsigned char)*p)) p++;
        if (*p) *p++ = '\0';
        if (n == 0) {   /* optional "N:" label, as smait dump writes */
            size_t k = strlen(w);
            if (k > 1 && w[k - 1] == ':' && strspn(w, "0123456789") == k - 1) continue;
        }
        if (n < max) words[n] = w;
        n++;
    }
    return n;
}

static int fail(char *err, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
    return -1;
}

static int parse_mem(char **w, int n, unsigned access, smait_raw *out, char *err, size_t ecap)
{
    if (n < 3 || n > 4)
        return fail(err, ecap, "'%s' takes SIZE ADDR [fp|vec]", w[0]);
    uint32_t size, addr;
    if (smait_text_u32(w[1], &size) || smait_size_code_of(size) < 0)
        return fail(err, ecap, "bad size '%s' (0..8, 16, 32 or 64 bytes)", w[1]);
    if (smait_text_u32(w[2], &addr))
        return fail(err, ecap, "bad address '%s' (a 32-bit number)", w[2]);
    unsigned rt = SMAIT_REG_FIXED;
    if (n == 4) {
        if (strcmp(w[3], "fp") == 0) rt = SMAIT_REG_FLOAT;
        else if (strcmp(w[3], "vec") == 0) rt = SMAIT_REG_VECTOR;
        else if (strcmp(w[3], "fix") != 0)
            return fail(err, ecap, "bad register type '%s' (fix, fp or vec)", w[3]);
    }
    out[0].f1 = smait_mem_f1(access, (unsigned)smait_size_code_of(size), rt);
    out[0].f2 = addr;
    return 1;
}

static int parse_pair(char **w, int n, uint32_t top, smait_raw *out, char *err, size_t ecap)
{
    uint32_t a, b;
    if (n != 3) return fail(err, ecap, "'%s' takes NEXT_ADDR TARGET", w[0]);
    if (smait_text_u32(w[1], &a) || a > SMAIT_BRANCH_ADDR_MASK)
        return fail(err, ecap, "bad address '%s' (branch addresses hold 28 bits)", w[1]);
    if (smait_text_u32(w[2], &b)) return fail(err, ecap, "bad target '%s'", w[2]);
    out[0].f1 = top | a;
    out[0].f2 = b;
    return 1;
}

static int parse_call(char **w, int n, int type, smait_raw *out, char *err, size_t ecap)
{
    uint32_t v[SMAIT_CALL_PARTS] = { 0 };
    call_args a = args_of((unsigned)type);
    int next_pos = 0;
    for (int i = 1; i < n; i++) {
        char *word = w[i];
        if (word[0] == '@') {
            char *colon = strchr(word, ':');
            if (colon) *colon = '\0';
            if (smait_text_u32(word + 1, &v[SMAIT_CALL_START]) ||
                (colon && smait_text_u32(colon + 1, &v[SMAIT_CALL_END]))) {
                if (colon) *colon = ':';    /* quote the word as written */
                return fail(err, ecap, "bad time '%s' (@START or @START:END in microseconds)", word);
            }
            if (!colon) v[SMAIT_CALL_END] = v[SMAIT_CALL_START];
            continue;
        }
        char *eq = strchr(word, '=');
        int slot = -1;
        const char *val = word;
        if (eq) {
            *eq = '\0';
            val = eq + 1;
            for (int k = 0; k < 4; k++) {
                char key[8];
                snprintf(key, sizeof key, "arg%d", k + 1);
                if ((a.name[k] && strcmp(a.name[k], word) == 0) || strcmp(key, word) == 0) slot = k;
            }
            if (slot < 0) return fail(err, ecap, "'%s' has no argument named '%s'", w[0], word);
        } else {
            if (next_pos >= 4) return fail(err, ecap, "'%s' takes at most 4 arguments", w[0]);
            slot = next_pos++;
        }
        if (smait_text_u32(val, &v[SMAIT_CALL_ARG1 + slot]))
            return fail(err, ecap, "bad value '%s' (a 32-bit number)", val);
    }
    for (unsigned i = 0; i < SMAIT_CALL_PARTS; i++) {
        out[i].f1 = smait_call_f1((unsigned)type, i);
        out[i].f2 = v[i];
    }
    return SMAIT_CALL_PARTS;
}

int smait_text_parse(const char *line, smait_raw out[SMAIT_CALL_PARTS], char *err, size_t errcap)
{
    char copy[1024];
    if (strlen(line) >= sizeof copy) return fail(err, errcap, "line too long");
    strcpy(copy, line);
    char *w[12];
    int n = smait_text_words(copy, w, 12);
    if (n == 0) return 0;
    if (n > 12) return fail(err, errcap, "too many words");
    const char *op = w[0];
    if (strcmp(op, "load") == 0) return parse_mem(w, n, SMAIT_LOAD, out, err, errcap);
    if (strcmp(op, "store") == 0) return parse_mem(w, n, SMAIT_STORE, out, err, errcap);
    if (strcmp(op, "atomic") == 0) return parse_mem(w, n, SMAIT_ATOMIC, out, err, errcap);
    if (strcmp(op, "branch") == 0) return parse_pair(w, n, 0x80000000u, out, err, errcap);
    if (strcmp(op, "pcall") == 0) return parse_pair(w, n, 0xC0000000u, out, err, errcap);
    if (strcmp(op, "proc") == 0) {
        uint32_t addr, low = 0;
        if (n < 2 || n > 3 || smait_text_u32(w[1], &addr))
            return fail(err, errcap, "'proc' takes ADDR [low=BITS]");
        if (n == 3 && (strncmp(w[2], "low=", 4) || smait_text_u32(w[2] + 4, &low) ||
                       low > SMAIT_BRANCH_ADDR_MASK))
            return fail(err, errcap, "bad '%s' (low=BITS, 28 bits)", w[2]);
        out[0].f1 = 0x40000000u | low;
        out[0].f2 = addr;
        return 1;
    }
    if (strcmp(op, "raw") == 0) {
        if (n != 3 || smait_text_u32(w[1], &out[0].f1) || smait_text_u32(w[2], &out[0].f2))
            return fail(err, errcap, "'raw' takes F1 F2 (32-bit numbers)");
        return 1;
    }
    int type = smait_call_type_of(op);
    if (type >= 0) return parse_call(w, n, type, out, err, errcap);
    return fail(err, errcap, "unknown record '%s'", op);
}
