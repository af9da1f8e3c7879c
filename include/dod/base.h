/* dod/base.h: status codes, the allocator interface and the macros every module shares.
 *
 * Every dod function that can fail returns a dod_status; DOD_OK is 0, so `if (st) ...` reads
 * as "if it failed". A failed call leaves its object exactly as it was. */
#ifndef DOD_BASE_H
#define DOD_BASE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Symbol export for shared builds (CMake defines DOD_SHARED and DOD_BUILDING). */
#if defined(DOD_SHARED) && defined(_WIN32)
#  ifdef DOD_BUILDING
#    define DOD_API __declspec(dllexport)
#  else
#    define DOD_API __declspec(dllimport)
#  endif
#elif defined(DOD_SHARED) && defined(__GNUC__)
#  define DOD_API __attribute__((visibility("default")))
#else
#  define DOD_API
#endif

/* Every buffer dod allocates for its own arrays is aligned to this (a cache line). */
#define DOD_ALIGN 64

/* For the X-macro headers: generated helpers a program does not call must not warn (clang's
 * -Wunused-function counts functions expanded in the main file). */
#if defined(__GNUC__) || defined(__clang__)
#  define DOD__GENERATED static inline __attribute__((unused))
#else
#  define DOD__GENERATED static inline
#endif

typedef enum dod_status {
    DOD_OK = 0,
    DOD_E_INVALID,   /* an argument is NULL, zero or malformed where that is not allowed */
    DOD_E_RANGE,     /* a key, row, column or index lies outside its bound */
    DOD_E_OVERFLOW,  /* a size, or the byte count it implies, does not fit its type */
    DOD_E_NOMEM,     /* the allocator returned NULL */
    DOD_E_CORRUPT,   /* input bytes (a file, a buffer) fail validation */
    DOD_E_IO,        /* a read or write on a stream failed or came up short */
    DOD_E_NOT_FOUND, /* a handle is null, stale, forged or from another object */
    DOD_E_BUSY,      /* every slot of a bounded resource is in use (for example held frames) */
    DOD_E_STATE,     /* the call is not valid in the object's current state (release twice, ...) */
    DOD_STATUS_COUNT
} dod_status;

/* A short constant English name for a status ("ok", "out of memory", ...); never NULL. */
DOD_API const char *dod_status_str(dod_status status);

/* Where memory comes from. `alloc` returns `size` bytes aligned to `align` (a power of two) or
 * NULL; `free` receives the pointer and the same size that was asked of `alloc`. dod never
 * calls alloc with size 0 and never calls free with NULL. Everywhere an allocator pointer is
 * taken, NULL means the default heap. */
typedef struct dod_allocator {
    void *(*alloc)(void *ctx, size_t size, size_t align);
    void (*free)(void *ctx, void *ptr, size_t size);
    void *ctx;
} dod_allocator;

/* The default heap allocator (aligned malloc/free). Thread-safe. */
DOD_API dod_allocator dod_heap_allocator(void);

/* Internal invariant checks: on when NDEBUG is not defined, or when DOD_DEBUG is 1.
 * Never used for bad input, which always gets a status. */
#ifndef DOD_DEBUG
#  ifdef NDEBUG
#    define DOD_DEBUG 0
#  else
#    define DOD_DEBUG 1
#  endif
#endif
#if DOD_DEBUG
#  include <assert.h>
#  define DOD_ASSERT(cond) assert(cond)
#else
#  define DOD_ASSERT(cond) ((void)0)
#endif

#ifdef __cplusplus
}
#endif

#endif /* DOD_BASE_H */
