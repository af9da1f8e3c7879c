/* Status names, the error hook and the default heap allocator. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#  define _POSIX_C_SOURCE 200112L /* posix_memalign */
#endif
#include "internal.h"
#include <stdio.h>
#include <stdlib.h>
#ifdef _WIN32
#  include <malloc.h>
#endif

const char *dod_status_str(dod_status status)
{
    switch (status) {
    case DOD_OK: return "ok";
    case DOD_E_INVALID: return "invalid argument";
    case DOD_E_RANGE: return "out of range";
    case DOD_E_OVERFLOW: return "size overflow";
    case DOD_E_NOMEM: return "out of memory";
    case DOD_E_CORRUPT: return "corrupt data";
    case DOD_E_IO: return "i/o error";
    case DOD_E_NOT_FOUND: return "not found";
    case DOD_E_BUSY: return "busy";
    case DOD_E_STATE: return "invalid state";
    case DOD_E_SYSTEM: return "system call failed";
    case DOD_E_FULL: return "capacity reached";
    case DOD_E_UNDECLARED: return "no single declared archetype has that component set";
    case DOD_STATUS_COUNT: break;
    }
    return "unknown status";
}

static struct {
    dod_error_hook hook;
    void *ctx;
} error_hook;

void dod_set_error_hook(dod_error_hook hook, void *ctx)
{
    error_hook.hook = hook;
    error_hook.ctx = ctx;
}

/* The hook's text is "call: condition"; the precisions bound each part so the
 * text always fits (and gcc's -Wformat-truncation can prove it). A release build calls it
 * through DOD__REPORT_IN only. */
void dod__refused(dod_status status, const char *file, int line, const char *call,
                  const char *condition)
{
    if (!error_hook.hook)
        return;
    char text[256];
    (void)snprintf(text, sizeof text, "%.63s: %.189s", call, condition);
    error_hook.hook(error_hook.ctx, status, file, line, text);
}

static void *heap_alloc(void *ctx, size_t size, size_t align)
{
    (void)ctx;
    if (align < sizeof(void *))
        align = sizeof(void *);
#ifdef _WIN32
    return _aligned_malloc(size, align);
#else
    void *p = NULL;
    return posix_memalign(&p, align, size) == 0 ? p : NULL;
#endif
}

static void heap_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    (void)size;
#ifdef _WIN32
    _aligned_free(ptr);
#else
    free(ptr);
#endif
}

dod_allocator dod_heap_allocator(void)
{
    dod_allocator a = { heap_alloc, heap_free, NULL };
    return a;
}
