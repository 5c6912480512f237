/* rt_new.c — C++'s operator new by allocation site (rt_heap.c); in
 * libsmait-rt-cxx.a, linked into C++ programs only (a C link has no
 * operator new). smait-instrument sends the program's calls of the eight
 * replaceable forms (plain and array, nothrow, aligned) here; an exception
 * thrown by new goes through the wrapper, which has unwind tables. */
#include <stddef.h>

#include "../rt.h"

#define WRAP __attribute__((visibility("default")))

void *_Znwm(size_t);
void *_Znam(size_t);
void *_ZnwmRKSt9nothrow_t(size_t, const void *);
void *_ZnamRKSt9nothrow_t(size_t, const void *);
void *_ZnwmSt11align_val_t(size_t, size_t);
void *_ZnamSt11align_val_t(size_t, size_t);
void *_ZnwmSt11align_val_tRKSt9nothrow_t(size_t, size_t, const void *);
void *_ZnamSt11align_val_tRKSt9nothrow_t(size_t, size_t, const void *);

static uint32_t take_site(void)
{
    uint32_t s = rt_alloc_site;
    rt_alloc_site = 0;
    return s;
}

#define NEW1(name)                                                     \
    WRAP void *__smait_##name(size_t n)                                \
    {                                                                  \
        uint32_t site = take_site();                                   \
        void *p = name(n);                                             \
        rt_heap_note(site, (uintptr_t)p, n);                                      \
        return p;                                                      \
    }
#define NEW2(name, T)                                                  \
    WRAP void *__smait_##name(size_t n, T b)                           \
    {                                                                  \
        uint32_t site = take_site();                                   \
        void *p = name(n, b);                                          \
        rt_heap_note(site, (uintptr_t)p, n);                                      \
        return p;                                                      \
    }
#define NEW3(name)                                                     \
    WRAP void *__smait_##name(size_t n, size_t al, const void *nt)     \
    {                                                                  \
        uint32_t site = take_site();                                   \
        void *p = name(n, al, nt);                                     \
        rt_heap_note(site, (uintptr_t)p, n);                                      \
        return p;                                                      \
    }

NEW1(_Znwm)
NEW1(_Znam)
NEW2(_ZnwmRKSt9nothrow_t, const void *)
NEW2(_ZnamRKSt9nothrow_t, const void *)
NEW2(_ZnwmSt11align_val_t, size_t)
NEW2(_ZnamSt11align_val_t, size_t)
NEW3(_ZnwmSt11align_val_tRKSt9nothrow_t)
NEW3(_ZnamSt11align_val_tRKSt9nothrow_t)
