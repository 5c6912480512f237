/* rt_code.c — the synthetic code space: each instrumented module (one per
 * translation unit) registers from its constructor and gets the next range,
 * in constructor (link) order, so code addresses are the same in every run. */
#include "rt.h"

enum { MAX_MODULES = 4096 };

static rt_module *modules[MAX_MODULES];
static unsigned nmodules;
static uint32_t next_base = RT_CODE_BASE;
static atomic_flag code_lock = ATOMIC_FLAG_INIT;

__attribute__((visibility("default"))) void __smait_register(rt_module *m)
{
    rt_spin_lock(&code_lock);
    if (m->base == 0) {
        if ((uint64_t)next_base + m->size > RT_CODE_LIMIT)
            rt_fatal("%s: the synthetic code does not fit below 2^28", m->modname);
        m->base = next_base;
        next_base += (m->size + 255) & ~255u;
        if (nmodules < MAX_MODULES)
            modules[nmodules++] = m;
    }
    rt_spin_unlock(&code_lock);
}

void rt_code_map_write(FILE *f)
{
    fprintf(f, "code 0x%08x 0x%08x memcpy (runtime)\n", RT_CODE_MEMCPY, RT_CODE_MEMCPY + 16);
    fprintf(f, "code 0x%08x 0x%08x memmove (runtime)\n", RT_CODE_MEMMOVE, RT_CODE_MEMMOVE + 16);
    fprintf(f, "code 0x%08x 0x%08x memset (runtime)\n", RT_CODE_MEMSET, RT_CODE_MEMSET + 16);
    for (unsigned i = 0; i < nmodules; i++) {
        const rt_module *m = modules[i];
        for (uint32_t k = 0; k < m->nfunc; k++) {
            uint32_t end = k + 1 < m->nfunc ? m->offs[k + 1] : m->size;
            fprintf(f, "code 0x%08x 0x%08x %s %s\n", m->base + m->offs[k], m->base + end,
                    m->names[k], m->modname);
        }
    }
}
