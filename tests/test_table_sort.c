/* Sorting and permuting a table: order of the radix keys, stability, handles kept. */
#include <dod/table.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

static const dod_table_column_desc COLS[3] = { { 4, 4, 0 }, { 4, 4, 0 }, { 8, 8, 1 } };

/* Push n rows with key column 0 from keys[], column 2 = the row's original number. */
static void make(dod_table *t, const uint32_t *keys, uint32_t n, dod_table_handle *h)
{
    CHECK_OK(dod_table_init(t, COLS, 3, NULL));
    for (uint32_t i = 0; i < n; ++i) {
        CHECK_OK(dod_table_push(t, &h[i]));
        ((uint32_t *)dod_table_column(t, 0))[i] = keys[i];
        ((uint32_t *)dod_table_column(t, 1))[i] = keys[i];
        ((uint64_t *)dod_table_column(t, 2))[i] = i;
    }
}

/* Rows are ordered by less(), ties in original order; every handle follows its row. */
static int sorted_ok(const dod_table *t, const dod_table_handle *h, uint32_t n,
                     int (*less)(uint32_t a, uint32_t b))
{
    const uint32_t *k = (const uint32_t *)dod_table_column(t, 0);
    const uint32_t *k2 = (const uint32_t *)dod_table_column(t, 1);
    const uint64_t *orig = (const uint64_t *)dod_table_column(t, 2);
    if (dod_table_count(t) != n)
        return 0;
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t row;
        if (dod_table_find(t, h[orig[i]], &row) != DOD_OK || row != i || k[i] != k2[i])
            return 0;
        if (i > 0 && (less(k[i], k[i - 1]) || (!less(k[i - 1], k[i]) && orig[i - 1] > orig[i])))
            return 0;
    }
    return 1;
}

static int less_u32(uint32_t a, uint32_t b) { return a < b; }
static int less_i32(uint32_t a, uint32_t b) { return (int32_t)a < (int32_t)b; }
/* The documented f32 order: the total order of the sign-magnitude bits. */
static int64_t f32_rank(uint32_t b)
{
    return (b & 0x80000000u) ? -(int64_t)(b & 0x7FFFFFFFu) - 1 : (int64_t)b;
}
static int less_f32(uint32_t a, uint32_t b) { return f32_rank(a) < f32_rank(b); }

static int cmp_u32_desc(const void *a, const void *b, void *ctx)
{
    uint32_t x, y;
    memcpy(&x, a, 4);
    memcpy(&y, b, 4);
    (void)ctx;
    return (x < y) - (x > y);
}
static int less_desc(uint32_t a, uint32_t b) { return a > b; }

static void test_random_keys(void)
{
    test_rng rng = { 99 };
    const uint32_t sizes[] = { 0, 1, 2, 15, 16, 17, 100, 1000, 5000 };
    for (int s = 0; s < 9; ++s) {
        for (int mode = 0; mode < 4; ++mode) {
            uint32_t n = sizes[s];
            uint32_t *keys = (uint32_t *)malloc((n + 1) * 4);
            dod_table_handle *h = (dod_table_handle *)malloc((n + 1) * sizeof(dod_table_handle));
            for (uint32_t i = 0; i < n; ++i) {
                uint64_t r = test_rng_next(&rng);
                keys[i] = mode == 0 ? (uint32_t)r               /* every byte varies */
                        : mode == 1 ? (uint32_t)(r % 7) << 16   /* one digit, many ties */
                        : mode == 2 ? (uint32_t)(r % 5) - 2u    /* small negatives */
                                    : 0x40000000u;              /* all equal */
            }
            dod_table t;
            make(&t, keys, n, h);
            CHECK_OK(dod_table_sort_u32(&t, 0));
            CHECK(sorted_ok(&t, h, n, less_u32));
            dod_table_free(&t);
            make(&t, keys, n, h);
            CHECK_OK(dod_table_sort_i32(&t, 0));
            CHECK(sorted_ok(&t, h, n, less_i32));
            dod_table_free(&t);
            make(&t, keys, n, h);
            CHECK_OK(dod_table_sort_by(&t, 0, cmp_u32_desc, NULL));
            CHECK(sorted_ok(&t, h, n, less_desc));
            dod_table_free(&t);
            free(keys);
            free(h);
        }
    }
}

static void test_f32_order(void)
{
    const float vals[] = { 1.5f, -0.0f, 0.0f, -1.5f, INFINITY, -INFINITY, 1e-40f, -1e-40f,
                           3.0f, -3.0f, 0.0f, -0.0f, NAN, -NAN, 2.0f, 2.0f };
    enum { N = sizeof vals / sizeof vals[0] };
    uint32_t keys[N];
    memcpy(keys, vals, sizeof keys);
    dod_table_handle h[N];
    dod_table t;
    make(&t, keys, N, h);
    CHECK_OK(dod_table_sort_f32(&t, 0));
    CHECK(sorted_ok(&t, h, N, less_f32));
    const float *k = (const float *)dod_table_column(&t, 0);
    CHECK(isnan(k[0]) && signbit(k[0]) && k[1] == -INFINITY && k[14] == INFINITY);
    CHECK(isnan(k[15]) && !signbit(k[15]));
    CHECK(k[5] == 0.0f && signbit(k[5]) && signbit(k[6]) && !signbit(k[7]) && !signbit(k[8]));
    dod_table_free(&t);
}

/* A sort on a table with free slots and pushes after it: handles and the free list agree. */
static void test_sort_then_mutate(void)
{
    uint32_t keys[50];
    dod_table_handle h[50];
    for (uint32_t i = 0; i < 50; ++i)
        keys[i] = (i * 37) % 50;
    dod_table t;
    make(&t, keys, 50, h);
    CHECK_OK(dod_table_remove(&t, h[10]));
    CHECK_OK(dod_table_sort_u32(&t, 0));
    CHECK_OK(dod_table_remove(&t, h[20]));
    dod_table_handle extra;
    CHECK_OK(dod_table_push(&t, &extra));
    uint32_t row;
    CHECK_OK(dod_table_find(&t, extra, &row));
    CHECK(row == 48 && ((uint32_t *)dod_table_column(&t, 0))[row] == 0);
    for (uint32_t i = 0; i < 50; ++i) {
        dod_status st = dod_table_find(&t, h[i], &row);
        CHECK(i == 10 || i == 20 ? st == DOD_E_NOT_FOUND
                                 : st == DOD_OK && ((uint64_t *)dod_table_column(&t, 2))[row] == i);
    }
    dod_table_free(&t);
}

/* From 65536 rows the radix sort buckets by the top byte first: the same results. */
static void test_bucketed(void)
{
    test_rng rng = { 5 };
    const uint32_t n = 70000;
    uint32_t *keys = (uint32_t *)malloc(n * 4);
    dod_table_handle *h = (dod_table_handle *)malloc(n * sizeof(dod_table_handle));
    for (int mode = 0; mode < 4; ++mode) {
        for (uint32_t i = 0; i < n; ++i) {
            uint64_t r = test_rng_next(&rng);
            keys[i] = mode == 0 ? (uint32_t)r                          /* 256 buckets */
                    : mode == 1 ? 0x7F000000u | (uint32_t)(r % 1000)   /* one bucket */
                    : mode == 2 ? (uint32_t)((int32_t)(r % 2001) - 1000) /* negatives, ties */
                                : (uint32_t)(r % 3) << 30;             /* 3 buckets, all ties */
        }
        dod_table t;
        make(&t, keys, n, h);
        CHECK_OK(dod_table_remove(&t, h[n - 1])); /* a free slot and a moved row */
        CHECK_OK(dod_table_sort_u32(&t, 0));
        CHECK(sorted_ok(&t, h, n - 1, less_u32));
        dod_table_free(&t);
        make(&t, keys, n, h);
        CHECK_OK(dod_table_sort_i32(&t, 0));
        CHECK(sorted_ok(&t, h, n, less_i32));
        dod_table_free(&t);
        for (uint32_t i = 0; i < n; ++i) {
            float f = (float)(int32_t)keys[i] * 0.25f;
            memcpy(&keys[i], &f, 4);
        }
        make(&t, keys, n, h);
        CHECK_OK(dod_table_sort_f32(&t, 0));
        CHECK(sorted_ok(&t, h, n, less_f32));
        dod_table_free(&t);
    }
    free(keys);
    free(h);
}

int main(void)
{
    test_bucketed();
    test_random_keys();
    test_f32_order();
    test_sort_then_mutate();
    return check_summary("test_table_sort");
}
