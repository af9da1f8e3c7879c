/* dod/base.h: status codes, the allocator interface, the error hook and the macros every module
 * shares.
 *
 * The one contract every dod module follows (docs/api.md has the whole of it):
 *   - Lifecycle. `dod_x_init` / `dod_x_free` for objects the caller owns (a plain struct on the
 *     stack, in an arena, embedded); `dod_x_create` / `dod_x_destroy` for opaque objects the
 *     library allocates. init never allocates: it returns void and cannot fail, unless it
 *     validates a description, and then it returns a dod_status and says so (dod_table_init).
 *     Resources of the operating system are opened and closed (dod_file_map_open / _close).
 *   - NULL. free, destroy, close, clear and pure getters (counts, sizes, lookups) accept NULL
 *     and do nothing or return 0 / NULL; every other call returns DOD_E_INVALID for a NULL it
 *     cannot use.
 *   - Status. Every call that can fail returns a dod_status; DOD_OK is 0, so `if (st) ...` reads
 *     as "if it failed". A failed call leaves its object exactly as it was and leaks nothing.
 *   - Options travel in a `dod_x_desc` struct where zero means "default".
 *   - Names carry their module: dod_<module>_<thing>, DOD_<MODULE>_<CONSTANT>.
 *   - Thread safety is stated per function: any number of readers, or one writer. */
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

/* A prefetch hint for the cache line at p (private, for dod's inline code and sources): it
 * never faults, and compiles to nothing where the compiler has no prefetch. */
#if defined(__GNUC__) || defined(__clang__)
/* The empty asm that uses the address keeps GCC 12's backend from folding away all but one
 * of several prefetches in a loop (it emits no instruction). */
#    define DOD__PREFETCH(p)                                                                 \
        do {                                                                                 \
            const void *dod__prefetch_p = (p);                                               \
            __builtin_prefetch(dod__prefetch_p);                                             \
            __asm__ __volatile__("" : : "r"(dod__prefetch_p));                               \
        } while (0)
#else
#    define DOD__PREFETCH(p) ((void)(p))
#endif

/* A prefetch hint for the cache line at p, for a game's own loops (a system that reads the map
 * or other entities at random: fetch what a later row will need while this row is worked on).
 * It never faults, whatever p is, and compiles to nothing where the compiler has no prefetch. A
 * statement, not an expression. */
#define DOD_PREFETCH(p) DOD__PREFETCH(p)

/* The values are pinned: they are part of the ABI and never change or get reused; new codes
 * are added at the end. */
typedef enum dod_status {
    DOD_OK = 0,
    DOD_E_INVALID = 1,     /* an argument is NULL, zero or malformed where that is not allowed */
    DOD_E_RANGE = 2,       /* a key, row, column or index lies outside its bound */
    DOD_E_OVERFLOW = 3,    /* a size, or the byte count it implies, does not fit its type */
    DOD_E_NOMEM = 4,       /* the allocator returned NULL */
    DOD_E_CORRUPT = 5,     /* input bytes (a file, a buffer) fail validation */
    DOD_E_IO = 6,          /* a read or write on a stream failed or came up short */
    DOD_E_NOT_FOUND = 7,   /* a handle is null, stale, forged or from another object */
    DOD_E_BUSY = 8,        /* every slot of a bounded resource is in use (for example held frames) */
    DOD_E_STATE = 9,       /* the call is not valid in the object's current state (release twice, ...) */
    DOD_E_SYSTEM = 10,     /* an operating-system call failed (thread, mutex, file mapping) */
    DOD_E_FULL = 11,       /* a fixed capacity or a memory cap is reached */
    DOD_E_UNDECLARED = 12, /* a world's add or remove: no declared archetype, or more than one,
                              has exactly the component set asked for */
    DOD_STATUS_COUNT       /* not a status: one past the last */
} dod_status;

/* A short constant English name for a status ("ok", "out of memory", ...); never NULL. */
DOD_API const char *dod_status_str(dod_status status);

/* The error hook: in a debug build of the library (DOD_DEBUG 1, the default without NDEBUG)
 * every call that refuses its input or fails reports, just before it returns the status, the
 * source file and line of the check and, as `condition`, the call and the check that failed:
 * "dod_world_spawn: archetype >= w->n_archetypes", "dod_world_despawn: e is not alive in w".
 * The call is the public function the check belongs to, or, for a check shared by several
 * calls (an allocation that grows storage, ...), the library's private helper that made it;
 * the text is cut at 255 bytes. So a DOD_E_INVALID from a desc with eight checks says which
 * one. In a release build of the library the reports are compiled out, and a refusal costs
 * nothing more than returning its status, but for a copy refused for another declaration
 * (dod_world_copy, dod_world_copy_with, dod_world_frames_create_from), whose report names the
 * first difference in every build: a program may meet it only in release, with no other way
 * to learn which field differs. A status that is a
 * normal answer, not a refusal, is never reported: dod_frames_acquire before the first publish
 * (DOD_E_STATE: nothing to read yet) and dod_frames_begin while readers hold every other slot
 * (DOD_E_BUSY: the writer skips a frame), which a game meets every frame at start-up or under
 * load and would otherwise see flood its log.
 *
 * hook NULL turns reporting off (the default). The hook and ctx are process-wide: set them
 * before other threads call into dod (setting them while another thread runs a dod call is a
 * data race). The hook runs on the thread that made the refused call; it must not call dod;
 * `condition` is valid until it returns. */
typedef void (*dod_error_hook)(void *ctx, dod_status status, const char *file, int line,
                               const char *condition);
DOD_API void dod_set_error_hook(dod_error_hook hook, void *ctx);

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
