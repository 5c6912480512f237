/* rt_cxx.c — the pthread calls that libstdc++ makes from its own code
 * (docs/collector.md §4.2).
 *
 * ld --wrap redirects the calls of the objects in the link, so a C++
 * program's own calls (and the inline parts of <mutex>, <shared_mutex>,
 * <condition_variable>: std::mutex::lock is pthread_mutex_lock in the
 * program's code) reach the wrappers. But std::thread's pthread_create and
 * pthread_join, and std::condition_variable's wait, notify_one and
 * notify_all, run inside libstdc++.so, which calls the C library through its
 * own GOT. At start-up the runtime points those GOT entries at the wrappers:
 * only libstdc++'s calls change (no other library's, and tail calls too),
 * the wrappers reach the C library through ld --wrap's __real_ names as
 * always, and a program without libstdc++.so (C, or libstdc++ linked
 * statically, whose objects ld --wrap reaches) is left alone. libomp.so's
 * pthread_create is pointed the same way at rt_omp_pthread_create, which
 * makes its workers' arenas in creation order (rt_omp.c). */
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt.h"

int __wrap_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
int __wrap_pthread_join(pthread_t, void **);
int __wrap_pthread_detach(pthread_t);
int __wrap_pthread_mutex_lock(pthread_mutex_t *);
int __wrap_pthread_mutex_unlock(pthread_mutex_t *);
int __wrap_pthread_cond_wait(pthread_cond_t *, pthread_mutex_t *);
int __wrap_pthread_cond_signal(pthread_cond_t *);
int __wrap_pthread_cond_broadcast(pthread_cond_t *);
int __wrap_pthread_once(pthread_once_t *, void (*)(void));
int __wrap_pthread_rwlock_rdlock(pthread_rwlock_t *);
int __wrap_pthread_rwlock_wrlock(pthread_rwlock_t *);
int __wrap_pthread_rwlock_unlock(pthread_rwlock_t *);
long __wrap_syscall(long, ...);

typedef struct redirection {
    const char *name;
    uintptr_t to;
} redirection;

#define ENTRY(f) { #f, (uintptr_t)__wrap_##f }
static const redirection redirect[] = {
    ENTRY(pthread_create), ENTRY(pthread_join), ENTRY(pthread_detach),
    ENTRY(pthread_mutex_lock), ENTRY(pthread_mutex_unlock),
    ENTRY(pthread_cond_wait), ENTRY(pthread_cond_signal), ENTRY(pthread_cond_broadcast),
    ENTRY(pthread_once),
    ENTRY(pthread_rwlock_rdlock), ENTRY(pthread_rwlock_wrlock), ENTRY(pthread_rwlock_unlock),
    ENTRY(syscall),
};

/* libomp starts its worker threads itself: their creation only (rt_omp.c). */
static const redirection redirect_omp[] = {
    { "pthread_create", (uintptr_t)rt_omp_pthread_create },
};

#if defined(__x86_64__)
enum { REL_JUMP_SLOT = R_X86_64_JUMP_SLOT, REL_GLOB_DAT = R_X86_64_GLOB_DAT };
#elif defined(__aarch64__)
enum { REL_JUMP_SLOT = R_AARCH64_JUMP_SLOT, REL_GLOB_DAT = R_AARCH64_GLOB_DAT };
#else
enum { REL_JUMP_SLOT = -1, REL_GLOB_DAT = -1 };
#endif

#if __ELF_NATIVE_CLASS == 64
#define REL_TYPE(info) ELF64_R_TYPE(info)
#define REL_SYM(info) ELF64_R_SYM(info)
#else
#define REL_TYPE(info) ELF32_R_TYPE(info)
#define REL_SYM(info) ELF32_R_SYM(info)
#endif

typedef struct lib {
    ElfW(Addr) base, relro_lo, relro_hi;
    const ElfW(Sym) *symtab;
    const char *strtab;
    int patched;
    bool omp;                           /* libomp: redirect_omp, else redirect */
} lib;

/* Point one GOT slot at its wrapper; slots in the RELRO range are read-only
 * once relocated (with BIND_NOW): opened for the write and closed again. */
static void patch(lib *l, ElfW(Addr) slot, uintptr_t to)
{
    uintptr_t *p = (uintptr_t *)slot;
    if (*p == to)
        return;
    bool ro = slot >= l->relro_lo && slot < l->relro_hi;
    uintptr_t page = slot & ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1);
    if (ro && mprotect((void *)page, sizeof *p + (slot - page), PROT_READ | PROT_WRITE) != 0)
        rt_fatal("cannot redirect %s's pthread calls: mprotect: %s", l->omp ? "libomp" : "libstdc++",
                 strerror(errno));
    __atomic_store_n(p, to, __ATOMIC_RELEASE);
    if (ro)
        mprotect((void *)page, sizeof *p + (slot - page), PROT_READ);
    l->patched++;
}

static void patch_relocs(lib *l, const ElfW(Rela) *r, size_t bytes)
{
    for (size_t i = 0; i < bytes / sizeof *r; i++) {
        long type = (long)REL_TYPE(r[i].r_info);
        if (type != REL_JUMP_SLOT && type != REL_GLOB_DAT)
            continue;
        const char *name = l->strtab + l->symtab[REL_SYM(r[i].r_info)].st_name;
        const redirection *to = l->omp ? redirect_omp : redirect;
        size_t n = l->omp ? sizeof redirect_omp / sizeof redirect_omp[0] : sizeof redirect / sizeof redirect[0];
        for (size_t k = 0; k < n; k++)
            if (!strcmp(name, to[k].name))
                patch(l, l->base + r[i].r_offset, to[k].to);
    }
}

static int each_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    const char *name = strrchr(info->dlpi_name, '/');
    name = name ? name + 1 : info->dlpi_name;
    bool omp = !strncmp(name, "libomp.so", 9) || !strncmp(name, "libiomp5.so", 11);
    if (strncmp(name, "libstdc++.so", 12) != 0 && !omp)
        return 0;
    if (REL_JUMP_SLOT < 0) {
        if (omp)
            return 0;               /* its workers' arenas may then vary (docs/collector.md §4.1) */
        rt_fatal("C++ programs are not supported on this architecture "
                 "(libstdc++'s pthread calls cannot be redirected)");
    }
    lib l = { .base = info->dlpi_addr, .omp = omp };
    const ElfW(Dyn) *dyn = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_DYNAMIC)
            dyn = (const ElfW(Dyn) *)(l.base + ph->p_vaddr);
        if (ph->p_type == PT_GNU_RELRO) {
            l.relro_lo = l.base + ph->p_vaddr;
            l.relro_hi = l.relro_lo + ph->p_memsz;
        }
    }
    if (!dyn)
        return 0;
    const ElfW(Rela) *jmprel = NULL, *rela = NULL;
    size_t jmprel_size = 0, rela_size = 0;
    /* The dynamic linker relocates these addresses in place on most
     * targets, not on all: an address below the load base is an offset. */
#define ADDR(v) ((v) < l.base ? l.base + (v) : (v))
    for (; dyn->d_tag != DT_NULL; dyn++) {
        switch (dyn->d_tag) {
        case DT_SYMTAB: l.symtab = (const ElfW(Sym) *)ADDR(dyn->d_un.d_ptr); break;
        case DT_STRTAB: l.strtab = (const char *)ADDR(dyn->d_un.d_ptr); break;
        case DT_JMPREL: jmprel = (const ElfW(Rela) *)ADDR(dyn->d_un.d_ptr); break;
        case DT_PLTRELSZ: jmprel_size = dyn->d_un.d_val; break;
        case DT_RELA: rela = (const ElfW(Rela) *)ADDR(dyn->d_un.d_ptr); break;
        case DT_RELASZ: rela_size = dyn->d_un.d_val; break;
        }
    }
#undef ADDR
    if (!l.symtab || !l.strtab)
        return 0;
    if (jmprel)
        patch_relocs(&l, jmprel, jmprel_size);
    if (rela)
        patch_relocs(&l, rela, rela_size);
    if (l.patched == 0 && !omp)
        fprintf(stderr, "smait: warning: %s: none of its pthread calls found: "
                "they are not recorded\n", info->dlpi_name);
    return 0;
}

/* At start-up (rt_main.c), before the program runs any thread: every
 * libstdc++ and libomp loaded with the program. */
void rt_cxx_redirect(void)
{
    dl_iterate_phdr(each_object, NULL);
}
