/* Helpers shared by the library's own .c files; not installed. */
#ifndef DOD_INTERNAL_H
#define DOD_INTERNAL_H

#include <dod/base.h>
#include <string.h>

/* The allocator an object keeps: the user's, or the heap when they gave NULL. */
static inline dod_allocator dod__allocator_or_heap(const dod_allocator *alloc)
{
    return alloc ? *alloc : dod_heap_allocator();
}

static inline void *dod__alloc(const dod_allocator *a, size_t size)
{
    DOD_ASSERT(size > 0);
    return a->alloc(a->ctx, size, DOD_ALIGN);
}

static inline void dod__free(const dod_allocator *a, void *ptr, size_t size)
{
    if (ptr)
        a->free(a->ctx, ptr, size);
}

/* Overflow-checked size arithmetic: return 0 on overflow, else store the result. */
static inline int dod__mul(size_t a, size_t b, size_t *out)
{
    if (b != 0 && a > SIZE_MAX / b)
        return 0;
    *out = a * b;
    return 1;
}

static inline int dod__add(size_t a, size_t b, size_t *out)
{
    if (a > SIZE_MAX - b)
        return 0;
    *out = a + b;
    return 1;
}

/* Round up to a multiple of DOD_ALIGN, checked. */
static inline int dod__align_up(size_t n, size_t *out)
{
    if (n > SIZE_MAX - (DOD_ALIGN - 1))
        return 0;
    *out = (n + (DOD_ALIGN - 1)) & ~(size_t)(DOD_ALIGN - 1);
    return 1;
}

/* Read a possibly unaligned uint32_t in host byte order. */
static inline uint32_t dod__load_u32(const void *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

#endif /* DOD_INTERNAL_H */
