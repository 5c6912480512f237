/* c2c.h — perf c2c's view of the falsely shared lines (ciat --annotate
 * --false-sharing, docs/annotate.md): each top line of L19, each thread that
 * touched it with its bytes, then the thread's loads and stores of the line
 * by place in the code. Places the address map puts on one source line (the
 * unrolled copies of one statement) make one row, with their count of pcs;
 * other places one row each. Rows: the most accesses first, then in the order
 * given (fs_top_threads gives them by accesses, then pc), other code last. */
#ifndef DSM_CIAT_C2C_H
#define DSM_CIAT_C2C_H

#include "sharing.h"
#include "../common/out_file.h"
#include "../formats/addr_map.h"

#include <stdint.h>

typedef struct c2c_view c2c_view;

/* A view written to f, naming code through m (NULL: addresses) and bytes at
 * s's line and grain; it writes its heading. */
c2c_view *c2c_view_new(out_file *f, const addr_map *m, const sharing *s);
/* The rows, in the order of fs_c2c_fns (ctx: the view). */
extern const fs_c2c_fns c2c_view_fns;
/* Writes what is pending and frees the view. */
void c2c_view_end(c2c_view *v);

#endif
