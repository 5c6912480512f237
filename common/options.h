/* options.h — one table of options drives parsing, validation and --help.
 *
 * Both spellings (docs/trace-sets.md §4) are accepted for every long option: the report's
 * single-dash form (-ciat_events, -HPUX, -dma_bw 20) and the GNU form
 * (--ciat-events, --hpux, --dma-bw=20); a long name's value may be attached
 * with '=' in both (-dma_bw=20). Long names are matched after folding case
 * and '_' to '-'. Short options take their value from the next argument or
 * attached (-s20000). "--" ends the options; "-" alone is an operand. */
#ifndef DSM_COMMON_OPTIONS_H
#define DSM_COMMON_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum opt_type {
    OPT_FLAG,       /* bool *target = true */
    OPT_STRING,     /* const char **target = value */
    OPT_UINT,       /* uint64_t *target, checked against [min, max] */
    OPT_CALL        /* handler(target, value); value NULL for flags (arg_name NULL) */
} opt_type;

typedef struct option_spec {
    const char *name;       /* GNU long name without dashes ("ciat-events"); may be NULL */
    char short_name;        /* or 0 */
    const char *report_name;/* the report's spelling when it is not name with '_' ("HPUX") */
    opt_type type;
    const char *arg_name;   /* "FILE", "N"; NULL when the option takes no value; "[=N]":
                             * an optional value, only as --name=N (OPT_CALL; NULL without) */
    void *target;
    /* OPT_CALL: return NULL when fine, else a reason for the usage error. */
    const char *(*handler)(void *target, const char *value);
    uint64_t min, max;      /* OPT_UINT range (max 0 = no limit) */
    const char *help;
} option_spec;

/* Parses argv[1..argc-1]. Operands are collected, in order, into operands
 * (which must have room for argc entries); their count is returned. Usage
 * errors exit with status 1. -h/--help and --version are handled here:
 * usage_text is printed before the option table, then the process exits 0. */
int options_parse(const option_spec *specs, int argc, char **argv,
                  const char *usage_text, char **operands);

/* Prints the option table (as used by --help). */
void options_print_help(const option_spec *specs, FILE *out);

/* The command line as one string, the program's directory left out (for
 * report headers, which must not depend on where the tool is installed),
 * each argument quoted as a POSIX shell needs it ('a b' for a blank, '' for
 * an empty argument), so that it can be run again as it is. Caller frees. */
char *options_command_line(int argc, char **argv);

/* Common handler: parse "little|big|auto" into a smait_order. */
const char *options_byte_order(void *target, const char *value);

#endif
