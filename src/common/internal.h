/* Helpers shared by the library's own .c files; not installed. */
#ifndef DOD_INTERNAL_H
#define DOD_INTERNAL_H

#include <dod/base.h>
#include <string.h>

/* Every refusal returns through these, so the error hook (dod_set_error_hook) can say which
 * check of which call failed. DOD__FAIL(status, "what") returns the status from an expression;
 * DOD__REFUSE_IF(cond, status) returns it when cond holds, naming cond. Both name the function
 * they are written in (__func__): the public call, when the check sits in it. A static helper
 * that checks the arguments of one public call names that call instead, with
 * DOD__FAIL_IN("dod_x_y", status, "what") and DOD__REFUSE_IF_IN("dod_x_y", cond, status).
 * In a release build (DOD_DEBUG 0) all four are the bare status. DOD__REPORT_IN is
 * DOD__FAIL_IN in every build: for the few refusals a program may meet only in release, whose
 * reason it cannot learn otherwise (a copy between worlds of different declarations). */
void dod__refused(dod_status status, const char *file, int line, const char *call,
                  const char *condition);
/* The status is the expression's value itself (not the hook's return), so static analysers
 * and the optimiser see which status a path returns. `status` is always a constant. */
#define DOD__REPORT_IN(call, status, what)                                                     \
    (dod__refused((status), __FILE__, __LINE__, (call), (what)), (status))
#if DOD_DEBUG
#  define DOD__FAIL_IN(call, status, what) DOD__REPORT_IN(call, status, what)
#else
#  define DOD__FAIL_IN(call, status, what) (status)
#endif
#define DOD__FAIL(status, what) DOD__FAIL_IN(__func__, status, what)
/* cond is stringified here, where it is still the text the source wrote (an argument passed on
 * to another macro would be expanded first). */
#define DOD__REFUSE_IF_IN(call, cond, status)                                                  \
    do {                                                                                       \
        if (cond)                                                                              \
            return DOD__FAIL_IN(call, (status), #cond);                                        \
    } while (0)
#define DOD__REFUSE_IF(cond, status)                                                           \
    do {                                                                                       \
        if (cond)                                                                              \
            return DOD__FAIL((status), #cond);                                                 \
    } while (0)

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

/* The rule for an element of a column (a table's column, a world's component): size a
 * non-zero multiple of align, align a power of two <= DOD_ALIGN. NULL when it holds, else the
 * rule it breaks, for the error hook. */
static inline const char *dod__element_rule_broken(size_t size, size_t align)
{
    if (size == 0)
        return "size == 0";
    if (align == 0 || (align & (align - 1)) != 0)
        return "align is not a power of two";
    if (align > DOD_ALIGN)
        return "align > DOD_ALIGN";
    if (size % align != 0)
        return "size is not a multiple of align";
    return NULL;
}

/* Copy one element of a column (a table's, a world's) of `size` bytes; src and dst do not
 * overlap. The common sizes are single moves, any other size a few overlapping moves: never
 * a call, so a loop over columns keeps its values in registers. */
static inline void dod__copy_elem(unsigned char *dst, const unsigned char *src, size_t size)
{
    switch (size) {
    case 4: memcpy(dst, src, 4); return;
    case 8: memcpy(dst, src, 8); return;
    case 16: memcpy(dst, src, 16); return;
    default: break;
    }
    if (size >= 32) {
        for (size_t at = 0; at + 32 < size; at += 32)
            memcpy(dst + at, src + at, 32);
        memcpy(dst + size - 32, src + size - 32, 32);
    } else if (size >= 16) {
        memcpy(dst, src, 16);
        memcpy(dst + size - 16, src + size - 16, 16);
    } else if (size >= 8) {
        memcpy(dst, src, 8);
        memcpy(dst + size - 8, src + size - 8, 8);
    } else if (size >= 4) {
        memcpy(dst, src, 4);
        memcpy(dst + size - 4, src + size - 4, 4);
    } else { /* 1 to 3 bytes */
        dst[0] = src[0];
        dst[size / 2] = src[size / 2];
        dst[size - 1] = src[size - 1];
    }
}

/* Zero one element of `size` bytes, as dod__copy_elem copies (no call). */
static inline void dod__zero_elem(unsigned char *dst, size_t size)
{
    static const unsigned char zero[DOD_ALIGN];
    if (size <= sizeof zero) {
        dod__copy_elem(dst, zero, size);
        return;
    }
    for (size_t at = 0; at + 32 < size; at += 32)
        memset(dst + at, 0, 32);
    memset(dst + size - 32, 0, 32);
}

/* Read a possibly unaligned uint32_t in host byte order. */
static inline uint32_t dod__load_u32(const void *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Bit i of a set kept in 64-bit words (components, archetypes). */
static inline int dod__bit_test(const uint64_t *bits, uint32_t i)
{
    return (int)(bits[i / 64] >> (i % 64) & 1u);
}

static inline void dod__bit_set(uint64_t *bits, uint32_t i)
{
    bits[i / 64] |= 1ull << (i % 64);
}

#endif /* DOD_INTERNAL_H */
