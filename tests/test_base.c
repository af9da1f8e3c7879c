#include <dod/base.h>
#include <string.h>
#include "check.h"

static void test_status_names(void)
{
    CHECK(strcmp(dod_status_str(DOD_OK), "ok") == 0);
    CHECK(strcmp(dod_status_str(DOD_E_NOMEM), "out of memory") == 0);
    for (int s = 0; s < DOD_STATUS_COUNT; ++s) {
        const char *name = dod_status_str((dod_status)s);
        CHECK(name != NULL && strcmp(name, "unknown status") != 0);
        for (int t = 0; t < s; ++t)
            CHECK(strcmp(name, dod_status_str((dod_status)t)) != 0);
    }
    CHECK(strcmp(dod_status_str(DOD_STATUS_COUNT), "unknown status") == 0);
    CHECK(strcmp(dod_status_str((dod_status)-1), "unknown status") == 0);
}

static void test_heap_alignment(void)
{
    dod_allocator heap = dod_heap_allocator();
    size_t aligns[] = { 1, 8, 64, 4096 };
    for (size_t i = 0; i < sizeof aligns / sizeof aligns[0]; ++i) {
        void *p = heap.alloc(heap.ctx, 100, aligns[i]);
        CHECK(p != NULL);
        CHECK(((uintptr_t)p & (aligns[i] - 1)) == 0);
        memset(p, 1, 100);
        heap.free(heap.ctx, p, 100);
    }
}

int main(void)
{
    test_status_names();
    test_heap_alignment();
    return check_summary("test_base");
}
