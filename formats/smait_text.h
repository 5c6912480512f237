/* smait_text.h — the readable text form of SMAIT records (formats/SMAIT-TEXT.md).
 *
 * One record per line, e.g.
 *     load 4 0x1000            store 8 0x2000 fp        atomic 4 0x3000
 *     proc 0x4c00              branch 0x4c18 0x4d20     pcall 0x542c 0x5630
 *     barrier var=0x8000 threads=4 @100:120             raw 0xffffffff 0
 * smait_text_format writes the canonical form that smait_text_parse reads back
 * to the same bits, so dump → asm reproduces a trace byte for byte. */
#ifndef DSM_FORMATS_SMAIT_TEXT_H
#define DSM_FORMATS_SMAIT_TEXT_H

#include <stddef.h>
#include "smait.h"

enum { SMAIT_TEXT_MAX = 200 };  /* longest canonical line, with room to spare */

/* Limits of a text (SMAIT-TEXT.md §1, §4): the longest line, without its
 * line end; and the most lines `smait asm` assembles, every line counted once
 * per repetition of the repeat blocks around it (blank and comment lines not
 * at all). 2^28 lines are at most 12 GiB of trace (call records) and about a
 * minute of work. */
enum { SMAIT_TEXT_LINE_MAX = 1023 };
#define SMAIT_TEXT_MAX_EXPANDED ((uint64_t)1 << 28)

/* Canonical text of the logical record at p (host order; 6 parts for a call
 * record). Returns the length written to buf (cap >= SMAIT_TEXT_MAX). */
size_t smait_text_format(const smait_raw *p, char *buf, size_t cap);

/* Parse one record line (comments and an optional leading "N:" index label
 * allowed). Returns the number of simple records written to out (1 or 6), 0
 * for a blank or comment-only line, -1 on error with a reason in err. */
int smait_text_parse(const char *line, smait_raw out[SMAIT_CALL_PARTS], char *err, size_t errcap);

/* Split a line into whitespace-separated words, dropping a '#' comment and an
 * optional leading "N:" index label. Modifies line. Returns the word count
 * (at most max). */
int smait_text_words(char *line, char **words, int max);

/* Parse a 32-bit unsigned value (decimal or 0x hex). Returns 0 on success. */
int smait_text_u32(const char *s, uint32_t *out);

#endif
