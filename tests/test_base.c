#include <dod/csr_build.h>
#include <dod/table.h>
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

/* The values are an ABI promise: pinned in the header, checked here so a reordering fails. */
static void test_status_values_pinned(void)
{
    CHECK(DOD_OK == 0 && DOD_E_INVALID == 1 && DOD_E_RANGE == 2 && DOD_E_OVERFLOW == 3);
    CHECK(DOD_E_NOMEM == 4 && DOD_E_CORRUPT == 5 && DOD_E_IO == 6 && DOD_E_NOT_FOUND == 7);
    CHECK(DOD_E_BUSY == 8 && DOD_E_STATE == 9 && DOD_E_SYSTEM == 10 && DOD_E_FULL == 11);
    CHECK(DOD_E_UNDECLARED == 12);
    CHECK(DOD_STATUS_COUNT == 13);
}

typedef struct hook_log {
    int calls;
    dod_status status;
    int line;
    char file[256], condition[256];
} hook_log;

static void record(void *ctx, dod_status status, const char *file, int line, const char *condition)
{
    hook_log *log = (hook_log *)ctx;
    ++log->calls;
    log->status = status;
    log->line = line;
    snprintf(log->file, sizeof log->file, "%s", file);
    snprintf(log->condition, sizeof log->condition, "%s", condition);
}

/* In a debug build every refusal reports which check failed; in release nothing is called. */
static void test_error_hook(void)
{
    hook_log log;
    memset(&log, 0, sizeof log);
    dod_set_error_hook(record, &log);
    uint32_t keys[2] = { 0, 1 };
    dod_csr idx;
    dod_csr_init(&idx, NULL);
    dod_csr_desc d;
    memset(&d, 0, sizeof d);
    d.n_rows = 2;
    d.n_items = 2;
    d.keys = keys;
    d.key_stride = 2; /* the one bad field among the desc's checks */
    CHECK_STATUS(dod_csr_build_desc(&idx, &d), DOD_E_INVALID);
    dod_table t;
    dod_table_column_desc bad = { 6, 4, 0 }; /* size not a multiple of align */
#if DOD_DEBUG
    CHECK_EQ(log.calls, 1);
    CHECK_EQ(log.status, DOD_E_INVALID);
    CHECK(strstr(log.file, "csr_build.c") != NULL && log.line > 0);
    /* the call that took the desc and the check, as the source wrote it (macros unexpanded) */
    CHECK(strcmp(log.condition, "dod_csr_build_desc: d->key_stride && d->key_stride < 4") == 0);
    d.key_stride = 0;
    d.flags = 2;
    CHECK_STATUS(dod_csr_build_desc(&idx, &d), DOD_E_INVALID);
    CHECK(strcmp(log.condition,
                 "dod_csr_build_desc: (d->flags & ~DOD_CSR_BUILD_SORT_ROWS) != 0") == 0);
    d.flags = 0;
    CHECK_STATUS(dod_table_init(&t, &bad, 1, NULL), DOD_E_INVALID);
    CHECK_EQ(log.calls, 3);
    CHECK(strstr(log.file, "table") != NULL && strstr(log.condition, "align") != NULL);
    CHECK(strncmp(log.condition, "dod_table_init: ", 16) == 0);
    d.key_stride = 0;
    keys[1] = 7;
    CHECK_STATUS(dod_csr_build_desc(&idx, &d), DOD_E_RANGE); /* found deep in the build */
    CHECK_EQ(log.calls, 4);
    CHECK_EQ(log.status, DOD_E_RANGE);
#else
    CHECK_STATUS(dod_table_init(&t, &bad, 1, NULL), DOD_E_INVALID);
    CHECK_EQ(log.calls, 0); /* compiled out */
    printf("test_base: release build of the library, the error hook is compiled out\n");
#endif
    dod_set_error_hook(NULL, NULL);
    d.key_stride = 3;
    CHECK_STATUS(dod_csr_build_desc(&idx, &d), DOD_E_INVALID);
    CHECK(log.calls <= 4); /* off again */
    dod_table_free(&t);
    dod_csr_free(&idx);
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
    test_status_values_pinned();
    test_error_hook();
    test_heap_alignment();
    return check_summary("test_base");
}
