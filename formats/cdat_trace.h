/* cdat_trace.h — cdat's transaction codes and the records of its general and
 * detailed traces (formats/CDAT-TRACES.md, the report's Appendix C; field by field in
 * formats/CDAT-TRACES.md).
 *
 * A transaction's class is its code's tens digit, and the class decides the
 * order of the endpoint fields in a detailed record:
 *   0 request, 2 return, 5 recall response:  clock addr code proc node bank hnode
 *   1 memory response, 3 memory recall:      clock addr code bank hnode proc node
 *   4 cache-to-cache:                        clock addr code proc node proc node
 * General records: clock addr code proc node bank hnode status s_0 … s_{N-1} -1,
 * and status changes clock 0 91|92 proc node 0 0 0 -1.
 * Processors are named by (proc in node, node); I/O processors by (-k, node)
 * for I/O processor k >= 1; a node's interconnect cache by (procs_per_node, node). */
#ifndef DSM_FORMATS_CDAT_TRACE_H
#define DSM_FORMATS_CDAT_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cdat_code {
    TX_READ_SHAR = 1, TX_READ_SHAR_OR_PRIV = 2, TX_READ_PRIV_OWN = 3, TX_REQ_INV = 4,
    TX_READ_CURRENT = 5, TX_WRITE_PURGE = 6,
    TX_DATA_SHAR = 11, TX_DATA_PRIV = 12, TX_ALLOC_DONE = 13, TX_WRITE_PURGE_DONE = 14,
    TX_WRITE_BACK = 21, TX_UPDATE_DATA = 22, TX_UPDATE_TAG = 23,
    TX_FLUSH = 24,          /* [l2] non-inclusive: an owner's dirty data home; it keeps the line */
    TX_RECALL_SHAR = 31, TX_RECALL_SHAR_OR_PRIV = 32, TX_RECALL_PRIV_OWN = 33, TX_INV = 34,
    TX_C2C_DATA_SHAR = 41, TX_C2C_DATA_PRIV = 42, TX_C2C_DATA_PRIV_OWN = 43,
    TX_RECALL_C2C_DATA = 51, TX_RECALL_C2C_DONE = 52, TX_INV_DONE = 53,
    TX_RECALL_NACK_SHAR = 54, TX_RECALL_NACK_INV = 55, TX_RECALL_DATA = 56,
    TX_START_ACTIVE = 91, TX_START_IDLE = 92
};
enum { CDAT_CODE_LIMIT = 93 };          /* codes are below this */

/* General-trace line status (the home's view). */
enum cdat_status { ST_IDLE = 1, ST_SHARED = 2, ST_EXCLUSIVE = 3, ST_DIRTY = 4 };

/* The endpoints as the detailed record names them: (proc, node) is the
 * processor side (the sender of classes 0, 2, 5 and 4, the receiver of 1 and
 * 3); (proc2, node2) the receiver of class 4. */
typedef struct cdat_txn {
    uint64_t clock;
    uint32_t addr;              /* the line's first byte address */
    uint8_t code;
    int proc, node;
    int bank, hnode;
    int proc2, node2;           /* class 4 only */
} cdat_txn;

/* "read_shar" … for a valid code, NULL otherwise. */
const char *cdat_code_name(unsigned code);
/* A transaction code of Appendix C (not 91/92). */
bool cdat_code_valid(unsigned code);
static inline unsigned cdat_code_class(unsigned code) { return code / 10; }
static inline bool cdat_code_is_request(unsigned code) { return code >= 1 && code <= 6; }
static inline bool cdat_code_is_return(unsigned code) { return code == TX_WRITE_BACK || code == TX_UPDATE_TAG; }

/* Longest record text, newline included (general records with 160 holders). */
enum { CDAT_RECORD_MAX = 512 };

/* One detailed record with its newline into buf (CDAT_RECORD_MAX bytes);
 * returns its length. */
size_t cdat_format_detailed(char *buf, const cdat_txn *t);

/* One general record: t's request or return fields, then status and the
 * sharing list of n entries. */
size_t cdat_format_general(char *buf, const cdat_txn *t, unsigned status, const uint8_t *sharing, unsigned n);
/* A status change record (code 91 or 92). */
size_t cdat_format_status(char *buf, uint64_t clock, unsigned code, int proc, int node);

/* Parse one detailed record (no newline needed). On failure returns false
 * with a reason in why. */
bool cdat_parse_detailed(const char *line, cdat_txn *t, char *why, size_t whycap);

#endif
