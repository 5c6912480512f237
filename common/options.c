/* options.c — the table-driven command-line parser. */
#include "options.h"
#include "../base/diag.h"
#include "path.h"
#include "version.h"
#include "../formats/smait.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Compare a command-line word with a long name, folding case and '_' to '-'. */
static bool long_name_eq(const char *word, size_t len, const char *name)
{
    if (!name || strlen(name) != len) return false;
    for (size_t i = 0; i < len; i++) {
        char c = (char)tolower((unsigned char)word[i]);
        if (c == '_') c = '-';
        char d = (char)tolower((unsigned char)name[i]);
        if (d == '_') d = '-';
        if (c != d) return false;
    }
    return true;
}

static const option_spec *find_long(const option_spec *specs, const char *word, size_t len)
{
    for (const option_spec *s = specs; s->name || s->short_name; s++)
        if (long_name_eq(word, len, s->name) || long_name_eq(word, len, s->report_name))
            return s;
    return NULL;
}

static const option_spec *find_short(const option_spec *specs, char c)
{
    for (const option_spec *s = specs; s->name || s->short_name; s++)
        if (s->short_name && s->short_name == c)
            return s;
    return NULL;
}

static uint64_t parse_uint(const char *opt, const char *v, uint64_t min, uint64_t max)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)v[0]))
        diag_usage_error("option %s: '%s' is not a non-negative integer", opt, v);
    /* Decimal or 0x hex; a leading 0 is not octal (as in smait_text_u32). */
    unsigned long long x = strtoull(v, &end, v[0] == '0' && isdigit((unsigned char)v[1]) ? 10 : 0);
    if (*end)
        diag_usage_error("option %s: '%s' is not a non-negative integer", opt, v);
    if (errno == ERANGE && !max)    /* digits only, but more than 64 bits */
        diag_usage_error("option %s: %s is out of range (at most %llu)", opt, v,
                         (unsigned long long)UINT64_MAX);
    if (errno == ERANGE)
        x = UINT64_MAX;             /* above any max: the range message below */
    if (x < min && !max)
        diag_usage_error("option %s: %s is out of range (at least %llu)", opt, v,
                         (unsigned long long)min);
    if (x < min || (max && x > max))
        diag_usage_error("option %s: %s is out of range (%llu..%llu)", opt, v,
                         (unsigned long long)min, (unsigned long long)max);
    return x;
}

static void apply(const option_spec *s, const char *opt, const char *value)
{
    switch (s->type) {
    case OPT_FLAG: *(bool *)s->target = true; break;
    case OPT_STRING: *(const char **)s->target = value; break;
    case OPT_UINT: *(uint64_t *)s->target = parse_uint(opt, value, s->min, s->max); break;
    case OPT_CALL: {
        const char *why = s->handler(s->target, value);
        if (why) diag_usage_error("option %s: %s", opt, why);
        break;
    }
    }
}

int options_parse(const option_spec *specs, int argc, char **argv,
                  const char *usage_text, char **operands)
{
    int n = 0;
    bool only_operands = false;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (only_operands || a[0] != '-' || a[1] == '\0') {
            operands[n++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_operands = true;
            continue;
        }
        const char *word = a + (a[1] == '-' ? 2 : 1);
        const char *eq = strchr(word, '=');
        /* The single-dash form takes '=' only after a long name (-classes=4);
         * -s=5 stays a short option with the value "=5". */
        if (eq && a[1] != '-' && !(eq - word > 1 && find_long(specs, word, (size_t)(eq - word)))) eq = NULL;
        size_t len = eq ? (size_t)(eq - word) : strlen(word);
        if (long_name_eq(word, len, "help") || strcmp(a, "-h") == 0) {
            fputs(usage_text, stdout);
            options_print_help(specs, stdout);
            exit(EXIT_OK);
        }
        if (long_name_eq(word, len, "version")) {
            printf("%s (dsmtrace) %s\n", diag_tool(), DSMTRACE_VERSION);
            exit(EXIT_OK);
        }
        const option_spec *s = NULL;
        const char *value = NULL;
        if (a[1] != '-' && len >= 1 && (s = find_short(specs, word[0])) != NULL &&
            (len == 1 || s->arg_name) && !(len > 1 && find_long(specs, word, len))) {
            if (len > 1) value = word + 1;      /* attached value: -s20000 */
        } else {
            s = find_long(specs, word, len);
            if (!s) diag_usage_error("unknown option '%s'", a);
            if (eq) {
                if (!s->arg_name) diag_usage_error("option '%.*s' takes no value", (int)(eq - a), a);
                value = eq + 1;
            }
        }
        /* An optional value ("[=N]") is only ever attached with '='. */
        if (s->arg_name && !value && s->arg_name[0] != '[') {
            if (i + 1 >= argc) diag_usage_error("option '%s' needs a value (%s)", a, s->arg_name);
            value = argv[++i];
        }
        apply(s, a, value);
    }
    return n;
}

void options_print_help(const option_spec *specs, FILE *out)
{
    /* The spelling note shows one of this tool's own options. */
    const option_spec *ex = specs;
    while ((ex->name || ex->short_name) && !(ex->name && ex->arg_name && ex->arg_name[0] != '[')) ex++;
    if (ex->name) {
        char single[64];
        snprintf(single, sizeof single, "%s", ex->name);
        for (char *c = single; *c; c++)
            if (*c == '-') *c = '_';
        fprintf(out, "\nOptions (the report's single-dash spelling works too: -%s %s = --%s=%s):\n", single,
                ex->arg_name, ex->name, ex->arg_name);
    } else {
        fputs("\nOptions (the report's single-dash spelling works too):\n", out);
    }
    for (const option_spec *s = specs; s->name || s->short_name; s++) {
        char left[96];
        int k = 0;
        if (s->short_name)
            k += snprintf(left + k, sizeof left - (size_t)k, "-%c%s", s->short_name, s->name ? ", " : "");
        if (s->name)
            k += snprintf(left + k, sizeof left - (size_t)k, "--%s", s->name);
        if (s->report_name)     /* the report's spelling, where it is not just '-' → '_' */
            k += snprintf(left + k, sizeof left - (size_t)k, ", -%s", s->report_name);
        if (s->arg_name)
            snprintf(left + k, sizeof left - (size_t)k, s->arg_name[0] == '[' ? "%s" : " %s", s->arg_name);
        if (strlen(left) > 28)
            fprintf(out, "  %s\n  %-28s %s\n", left, "", s->help);
        else
            fprintf(out, "  %-28s %s\n", left, s->help);
    }
    fprintf(out, "  %-28s %s\n", "-h, --help", "print this help and exit");
    fprintf(out, "  %-28s %s\n", "--version", "print the version and exit");
}

/* An argument as the shell would need it: as it is when it holds only
 * characters no shell treats specially, else in single quotes (a quote
 * inside as '\''); the empty argument as ''. */
static bool shell_plain(const char *a)
{
    if (!*a) return false;
    for (; *a; a++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=,+%@-", *a)) return false;
    return true;
}

char *options_command_line(int argc, char **argv)
{
    size_t n = 1;
    for (int i = 0; i < argc; i++) n += 4 * strlen(argv[i]) + 3;     /* each ' may become '\'' */
    char *s = xmalloc(n), *p = s;
    for (int i = 0; i < argc; i++) {
        const char *a = i == 0 ? path_base(argv[0]) : argv[i];
        if (shell_plain(a)) {
            size_t k = strlen(a);
            memcpy(p, a, k);
            p += k;
        } else {
            *p++ = '\'';
            for (; *a; a++) {
                if (*a == '\'') {
                    memcpy(p, "'\\''", 4);
                    p += 4;
                } else {
                    *p++ = *a;
                }
            }
            *p++ = '\'';
        }
        *p++ = i + 1 < argc ? ' ' : '\0';
    }
    if (argc == 0) *p = '\0';
    return s;
}

const char *options_byte_order(void *target, const char *value)
{
    return smait_order_parse(value, target) == 0 ? NULL : "must be little, big or auto";
}
