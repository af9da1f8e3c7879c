/* The failing allocator on every growth, reserve, copy, permute and sort of a table. */
#include <dod/table.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "table_snap.h"

static const dod_table_column_desc COLS[4] = { { 4, 4, 0 }, { 4, 4, 0 }, { 16, 8, 1 }, { 2, 2, 2 } };

static void fill(dod_table *t, uint32_t n, uint32_t seed)
{
    dod_table_handle h;
    for (uint32_t i = 0; i < n; ++i) {
        CHECK_OK(dod_table_push(t, &h));
        uint32_t row = dod_table_count(t) - 1;
        ((uint32_t *)dod_table_column(t, 0))[row] = (row * 2654435761u + seed) % 97;
        ((float *)dod_table_column(t, 1))[row] = (float)((int)(row % 13) - 6);
        if (t->n_cols == 4)
            memset((char *)dod_table_column(t, 2) + row * 16, (int)row, 16);
    }
    /* Some free slots, so pushes reuse them. */
    for (uint32_t i = 0; i < n / 4; ++i)
        CHECK_OK(dod_table_remove(t, dod_table_handle_at(t, i * 3 % dod_table_count(t))));
}

typedef dod_status (*table_op)(dod_table *t, void *arg);

static int cmp_u16(const void *a, const void *b, void *ctx)
{
    (void)ctx;
    uint16_t x, y;
    memcpy(&x, a, 2);
    memcpy(&y, b, 2);
    return (x > y) - (x < y);
}

static dod_status op_push_many(dod_table *t, void *arg)
{
    uint32_t n = *(uint32_t *)arg;
    dod_table_handle h;
    for (uint32_t i = 0; i < n; ++i) {
        table_snap s = snap_take(t);
        dod_status st = dod_table_push(t, &h);
        if (st != DOD_OK) {
            CHECK(snap_unchanged(t, &s));
            return st;
        }
        snap_unchanged(t, &s);
    }
    return DOD_OK;
}
static dod_status op_reserve(dod_table *t, void *arg)
{
    return dod_table_reserve(t, *(uint32_t *)arg);
}
static dod_status op_permute(dod_table *t, void *arg)
{
    return dod_table_permute(t, (const uint32_t *)arg);
}
static dod_status op_sort_u32(dod_table *t, void *arg)
{
    (void)arg;
    return dod_table_sort_u32(t, 0);
}
static dod_status op_sort_i32(dod_table *t, void *arg)
{
    (void)arg;
    return dod_table_sort_i32(t, 0);
}
static dod_status op_sort_f32(dod_table *t, void *arg)
{
    (void)arg;
    return dod_table_sort_f32(t, 1);
}
static dod_status op_sort_by(dod_table *t, void *arg)
{
    (void)arg;
    return dod_table_sort_by(t, 3, cmp_u16, NULL);
}
static dod_status op_copy_from(dod_table *t, void *arg)
{
    return dod_table_copy(t, (const dod_table *)arg);
}

/* Fail the k-th allocation of op for k = 0, 1, ... until it succeeds: every failure is
 * DOD_E_NOMEM and leaves the table as it was; nothing leaks. Returns the allocations the
 * successful run made. */
static long walk(const char *what, uint32_t rows, table_op op, void *arg,
                 const dod_table_column_desc *cols, uint32_t n_cols)
{
    long made = -1;
    for (long k = 0; k < 100; ++k) {
        test_alloc ta;
        test_alloc_init(&ta);
        dod_allocator a = test_alloc_get(&ta);
        dod_table t;
        CHECK_OK(dod_table_init(&t, cols, n_cols, &a));
        fill(&t, rows, 5);
        long before = ta.calls;
        test_alloc_fail_after(&ta, k);
        table_snap s = snap_take(&t);
        dod_status st = op(&t, arg);
        if (st == DOD_OK) {
            snap_unchanged(&t, &s);
            made = ta.calls - before;
            CHECK(ta.failed == 0);
            dod_table_free(&t);
            test_alloc_finish(&ta);
            break;
        }
        if (st != DOD_E_NOMEM)
            fprintf(stderr, "  %s: failing allocation %ld gave %s\n", what, k, dod_status_str(st));
        CHECK(st == DOD_E_NOMEM);
        int same = snap_unchanged(&t, &s);
        CHECK(op == op_push_many || same); /* push_many checks each push itself */
        dod_table_free(&t);
        test_alloc_finish(&ta);
    }
    CHECK(made >= 0);
    return made;
}

static void test_walks(void)
{
    uint32_t n = 300;
    CHECK(walk("push", 0, op_push_many, &n, COLS, 4) > 0);
    CHECK(walk("push over free slots", 40, op_push_many, &n, COLS, 4) > 0);
    uint32_t r = 1000;
    CHECK(walk("reserve", 40, op_reserve, &r, COLS, 4) == 5); /* 4 blocks and the slots */
    r = 10;
    CHECK(walk("reserve within capacity", 40, op_reserve, &r, COLS, 4) == 0);
    uint32_t perm[30];
    for (uint32_t i = 0; i < 30; ++i)
        perm[i] = (i * 7) % 30;
    CHECK(walk("permute", 40, op_permute, perm, COLS, 4) == 1); /* one scratch block */
    CHECK(walk("sort_u32", 40, op_sort_u32, NULL, COLS, 4) == 1); /* one scratch block */
    CHECK(walk("sort_i32", 40, op_sort_i32, NULL, COLS, 4) == 1);
    CHECK(walk("sort_f32", 40, op_sort_f32, NULL, COLS, 4) == 1);
    CHECK(walk("sort_by", 40, op_sort_by, NULL, COLS, 4) == 1);

    dod_table src;
    CHECK_OK(dod_table_init(&src, COLS, 4, NULL));
    fill(&src, 200, 9);
    CHECK(walk("copy into a smaller table", 10, op_copy_from, &src, COLS, 4) == 5);
    CHECK(walk("copy into other columns", 10, op_copy_from, &src, COLS + 1, 2) == 5);
    CHECK(walk("copy into enough capacity", 300, op_copy_from, &src, COLS, 4) == 0);
    dod_table_free(&src);
    CHECK_OK(dod_table_init(&src, COLS, 2, NULL)); /* one group: dst loses two */
    fill(&src, 50, 3);
    CHECK(walk("copy into more columns", 100, op_copy_from, &src, COLS, 4) == 2);
    dod_table empty;
    CHECK_OK(dod_table_init(&empty, COLS, 1, NULL));
    CHECK(walk("copy of a table that never allocated", 100, op_copy_from, &empty, COLS, 4) == 0);
    dod_table_free(&empty);
    dod_table_free(&src);
}

/* Within capacity nothing allocates: pushes after reserve, copies into a same-shaped table. */
static void test_steady_state(void)
{
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator a = test_alloc_get(&ta);
    dod_table t, snap;
    CHECK_OK(dod_table_init(&t, COLS, 4, &a));
    CHECK_OK(dod_table_init(&snap, COLS, 4, &a));
    CHECK(ta.calls == 0);
    CHECK_OK(dod_table_reserve(&t, 500));
    long calls = ta.calls;
    dod_table_handle h;
    for (int frame = 0; frame < 5; ++frame) {
        while (dod_table_count(&t) < 500)
            CHECK_OK(dod_table_push(&t, &h));
        for (uint32_t i = 0; i < 100; ++i)
            CHECK_OK(dod_table_remove(&t, dod_table_handle_at(&t, i)));
        CHECK_OK(dod_table_copy(&snap, &t));
        if (frame == 0)
            calls = ta.calls; /* the first copy sized the snapshot */
        uint32_t row;
        CHECK_OK(dod_table_find(&snap, h, &row));
        CHECK(row == dod_table_count(&t) - 1 || dod_table_handle_at(&t, row).bits == h.bits);
    }
    CHECK(ta.calls == calls);
    dod_table_free(&t);
    dod_table_free(&snap);
    test_alloc_finish(&ta);
}

int main(void)
{
    test_walks();
    test_steady_state();
    return check_summary("test_table_alloc");
}
