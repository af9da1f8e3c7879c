#include <dod/csr.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "csr_model.h"
#include "csr_snap.h"

/* Keys laid out at `stride` from an odd address, so loads are unaligned when offset is odd. */
static unsigned char *make_keys(test_rng *rng, csr_keys d, uint32_t n_rows, uint32_t n_items,
                                size_t stride, size_t offset, unsigned char **base)
{
    *base = (unsigned char *)malloc((size_t)n_items * stride + offset + 1);
    memset(*base, 0xEE, (size_t)n_items * stride + offset + 1);
    csr_model_keys(rng, d, n_rows, *base + offset, stride, n_items);
    return *base + offset;
}

/* Packed uint32 keys below n_rows, uniform. */
static uint32_t *uniform_keys(test_rng *rng, uint32_t n_rows, uint32_t n_items)
{
    uint32_t *keys = (uint32_t *)malloc(((size_t)n_items + 1) * sizeof(uint32_t));
    csr_model_keys(rng, CSR_KEYS_UNIFORM, n_rows, (unsigned char *)keys, 4, n_items);
    return keys;
}

/* The index holds the model of these keys. */
static int matches_model(const dod_csr *idx, uint32_t n_rows, const unsigned char *keys,
                         size_t stride, uint32_t n_items)
{
    csr_model m = csr_model_build(n_rows, keys, stride, NULL, 0, n_items, 0);
    int ok = csr_model_matches(idx, &m);
    csr_model_free(&m);
    return ok;
}

static void test_property(void)
{
    test_rng rng = { 42 };
    const size_t strides[] = { 4, 12, 16, 7, 5 };
    dod_csr reused;
    dod_csr_init(&reused, NULL);
    for (int iter = 0; iter < 405; ++iter) {
        csr_keys d = (csr_keys)(iter % CSR_KEYS_COUNT);
        uint32_t n_rows = 1 + test_rng_below(&rng, iter % 7 == 0 ? 5000 : 300);
        uint32_t n_items = test_rng_below(&rng, iter % 5 == 0 ? 20000 : 2000);
        size_t stride = strides[iter % 5];
        size_t offset = (size_t)(iter % 3);
        unsigned char *base;
        unsigned char *keys = make_keys(&rng, d, n_rows, n_items, stride, offset, &base);

        dod_csr idx;
        dod_csr_init(&idx, NULL);
        CHECK_OK(dod_csr_build(&idx, n_rows, keys, stride, n_items));
        CHECK(matches_model(&idx, n_rows, keys, stride, n_items));
        CHECK_OK(dod_csr_check(&idx, n_items));
        /* The same data rebuilt into a reused index gives byte-identical arrays. */
        CHECK_OK(dod_csr_build(&reused, n_rows, keys, stride, n_items));
        CHECK(dod_csr_equal(&idx, &reused));
        dod_csr copy;
        dod_csr_init(&copy, NULL);
        CHECK_OK(dod_csr_copy(&copy, &idx));
        CHECK(dod_csr_equal(&copy, &idx));
        dod_csr_free(&copy);
        dod_csr_free(&idx);
        free(base);
    }
    dod_csr_free(&reused);
}

static void test_edge_cases(void)
{
    dod_csr idx;
    dod_csr_init(&idx, NULL);
    CHECK(idx.n_rows == 0 && idx.n_items == 0 && idx.offsets == NULL && idx.items == NULL);
    CHECK_OK(dod_csr_check(&idx, 0));

    CHECK_OK(dod_csr_build(&idx, 0, NULL, 4, 0)); /* the valid empty index */
    CHECK(idx.offsets != NULL && idx.offsets[0] == 0 && idx.n_rows == 0);
    CHECK_OK(dod_csr_check(&idx, 0));

    CHECK_OK(dod_csr_build(&idx, 5, NULL, 4, 0)); /* rows but no items */
    for (uint32_t r = 0; r < 5; ++r)
        CHECK_EQ(dod_csr_row_len(&idx, r), 0);
    CHECK(dod_csr_row_begin(&idx, 4) == dod_csr_row_end(&idx, 4));

    uint32_t one[3] = { 0, 0, 0 };
    CHECK_OK(dod_csr_build(&idx, 1, one, 4, 3)); /* one row holding everything */
    CHECK(idx.offsets[0] == 0 && idx.offsets[1] == 3);
    CHECK(idx.items[0] == 0 && idx.items[1] == 1 && idx.items[2] == 2);

    uint32_t mid[4] = { 2, 1, 2, 1 }; /* empty rows at both ends */
    CHECK_OK(dod_csr_build(&idx, 4, mid, 4, 4));
    uint32_t want_off[5] = { 0, 0, 2, 4, 4 }, want_items[4] = { 1, 3, 0, 2 };
    CHECK(memcmp(idx.offsets, want_off, sizeof want_off) == 0);
    CHECK(memcmp(idx.items, want_items, sizeof want_items) == 0);

    dod_csr_clear(&idx);
    CHECK(idx.n_rows == 0 && idx.n_items == 0 && idx.offsets[0] == 0);
    dod_csr_free(&idx);
    CHECK(idx.offsets == NULL && idx.row_cap == 0);
}

static void test_errors_leave_index_unchanged(void)
{
    uint32_t keys[6] = { 0, 1, 2, 1, 0, 2 };
    dod_csr idx;
    dod_csr_init(&idx, NULL);
    CHECK_OK(dod_csr_build(&idx, 3, keys, 4, 6));
    csr_snap s;

    s = csr_snap_take(&idx);
    uint32_t bad[6] = { 0, 1, 2, 3, 0, 0 }; /* key 3 >= 3 rows, found mid-count */
    CHECK_STATUS(dod_csr_build(&idx, 3, bad, 4, 6), DOD_E_RANGE);
    CHECK(csr_snap_unchanged(&idx, &s));

    s = csr_snap_take(&idx);
    uint32_t last_bad[6] = { 0, 0, 0, 0, 0, 99 };
    CHECK_STATUS(dod_csr_build(&idx, 3, last_bad, 4, 6), DOD_E_RANGE);
    CHECK(csr_snap_unchanged(&idx, &s));

    /* A bad key at every place in 1 - 9 items: either key of a pair the count pass reads
     * together, or the odd one at the end. */
    for (uint32_t n = 1; n <= 9; ++n) {
        for (uint32_t at = 0; at < n; ++at) {
            uint32_t one_bad[9] = { 0 };
            one_bad[at] = 3;
            s = csr_snap_take(&idx);
            CHECK_STATUS(dod_csr_build(&idx, 3, one_bad, 4, n), DOD_E_RANGE);
            CHECK(csr_snap_unchanged(&idx, &s));
        }
    }

    s = csr_snap_take(&idx); /* a bad key in a build that needs new, bigger blocks */
    uint32_t big_bad[64];
    for (int i = 0; i < 64; ++i)
        big_bad[i] = (uint32_t)i;
    CHECK_STATUS(dod_csr_build(&idx, 63, big_bad, 4, 64), DOD_E_RANGE);
    CHECK(csr_snap_unchanged(&idx, &s));

    s = csr_snap_take(&idx);
    CHECK_STATUS(dod_csr_build(&idx, 3, NULL, 4, 6), DOD_E_INVALID);
    CHECK_STATUS(dod_csr_build(&idx, 3, keys, 3, 6), DOD_E_INVALID);
    CHECK_STATUS(dod_csr_build(&idx, 3, keys, 0, 6), DOD_E_INVALID);
    CHECK_STATUS(dod_csr_build(&idx, UINT32_MAX, keys, 4, 6), DOD_E_OVERFLOW);
    CHECK_STATUS(dod_csr_build(&idx, 0, keys, 4, 6), DOD_E_RANGE);
    CHECK_STATUS(dod_csr_reserve(&idx, UINT32_MAX, 0), DOD_E_OVERFLOW);
    CHECK(csr_snap_unchanged(&idx, &s));

    CHECK_STATUS(dod_csr_build(NULL, 3, keys, 4, 6), DOD_E_INVALID);
    CHECK_STATUS(dod_csr_copy(NULL, &idx), DOD_E_INVALID);
    CHECK_STATUS(dod_csr_copy(&idx, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_csr_reserve(NULL, 1, 1), DOD_E_INVALID);
    CHECK_STATUS(dod_csr_shrink(NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_csr_check(NULL, 0), DOD_E_INVALID);
    s = csr_snap_take(&idx);
    CHECK_OK(dod_csr_copy(&idx, &idx));
    CHECK(csr_snap_unchanged(&idx, &s));
    dod_csr_free(&idx);
}

static void test_check_finds_corruption(void)
{
    uint32_t keys[6] = { 0, 1, 2, 1, 0, 2 };
    dod_csr idx;
    dod_csr_init(&idx, NULL);
    CHECK_OK(dod_csr_build(&idx, 3, keys, 4, 6));
    CHECK_OK(dod_csr_check(&idx, 6));
    CHECK_STATUS(dod_csr_check(&idx, 5), DOD_E_CORRUPT); /* item 5 is not below 5 */
    idx.offsets[1] = 5;                                    /* offsets decrease after it */
    CHECK_STATUS(dod_csr_check(&idx, 0), DOD_E_CORRUPT);
    idx.offsets[1] = 2;
    idx.offsets[0] = 1;
    CHECK_STATUS(dod_csr_check(&idx, 0), DOD_E_CORRUPT);
    idx.offsets[0] = 0;
    idx.offsets[3] = 5;
    CHECK_STATUS(dod_csr_check(&idx, 0), DOD_E_CORRUPT);
    dod_csr_free(&idx);
}

static void test_memory_contract(void)
{
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator a = test_alloc_get(&ta);
    enum { ROWS = 1000, ITEMS = 6000 };
    test_rng rng = { 7 };
    uint32_t *keys = uniform_keys(&rng, ROWS, ITEMS);

    dod_csr idx, snapshot;
    dod_csr_init(&idx, &a);
    dod_csr_init(&snapshot, &a);
    CHECK_EQ(ta.calls, 0);
    CHECK_OK(dod_csr_build(&idx, ROWS, keys, 4, ITEMS));
    CHECK(ta.calls <= 2); /* the first build: at most two blocks */
    CHECK(((uintptr_t)idx.offsets & 63) == 0 && ((uintptr_t)idx.items & 63) == 0);
    CHECK(dod_csr_bytes(&idx) >= (ROWS + 1) * 4 + ITEMS * 4);

    long calls = ta.calls;
    for (int frame = 0; frame < 5; ++frame) { /* steady state: rebuilds allocate nothing */
        csr_model_keys(&rng, CSR_KEYS_UNIFORM, ROWS - (uint32_t)frame, (unsigned char *)keys, 4,
                       ITEMS);
        CHECK_OK(dod_csr_build(&idx, ROWS - (uint32_t)frame, keys, 4, ITEMS - 100u * (uint32_t)frame));
        CHECK(((uintptr_t)idx.offsets & 63) == 0);
    }
    CHECK_EQ(ta.calls, calls);

    csr_model_keys(&rng, CSR_KEYS_UNIFORM, ROWS, (unsigned char *)keys, 4, ITEMS);
    CHECK_OK(dod_csr_build(&idx, ROWS, keys, 4, ITEMS));
    CHECK_OK(dod_csr_copy(&snapshot, &idx));
    calls = ta.calls;
    CHECK_OK(dod_csr_build(&idx, ROWS, keys, 4, ITEMS));
    CHECK_OK(dod_csr_copy(&snapshot, &idx)); /* the copy into held capacity allocates nothing */
    CHECK_EQ(ta.calls, calls);
    CHECK(dod_csr_equal(&snapshot, &idx));

    /* reserve then build bigger: no allocation in the build */
    CHECK_OK(dod_csr_reserve(&idx, 2 * ROWS, 2 * ITEMS));
    CHECK(dod_csr_equal(&snapshot, &idx)); /* contents kept */
    calls = ta.calls;
    uint32_t *keys2 = uniform_keys(&rng, 2 * ROWS, 2 * ITEMS);
    CHECK_OK(dod_csr_build(&idx, 2 * ROWS, keys2, 4, 2 * ITEMS));
    CHECK_EQ(ta.calls, calls);
    CHECK(matches_model(&idx, 2 * ROWS, (unsigned char *)keys2, 4, 2 * ITEMS));

    /* shrink gives capacity back and keeps contents */
    CHECK_OK(dod_csr_build(&idx, ROWS, keys, 4, ITEMS));
    size_t before = dod_csr_bytes(&idx);
    CHECK_OK(dod_csr_shrink(&idx));
    CHECK(dod_csr_bytes(&idx) < before);
    CHECK(dod_csr_equal(&snapshot, &idx));
    calls = ta.calls;
    CHECK_OK(dod_csr_shrink(&idx)); /* already tight */
    CHECK_EQ(ta.calls, calls);

    dod_csr_free(&idx);
    dod_csr_free(&snapshot);
    CHECK_EQ(ta.live, 0); /* free returns every byte */
    free(keys);
    free(keys2);
    test_alloc_finish(&ta);
}

/* Fail each allocation of an operation in turn: DOD_E_NOMEM, the object unchanged, no leak. */
typedef dod_status (*csr_op)(dod_csr *idx, dod_csr *other, const uint32_t *keys);

static dod_status op_build(dod_csr *idx, dod_csr *other, const uint32_t *keys)
{
    (void)other;
    return dod_csr_build(idx, 5000, keys, 4, 30000);
}
static dod_status op_copy(dod_csr *idx, dod_csr *other, const uint32_t *keys)
{
    (void)keys;
    return dod_csr_copy(idx, other);
}
static dod_status op_reserve(dod_csr *idx, dod_csr *other, const uint32_t *keys)
{
    (void)other;
    (void)keys;
    return dod_csr_reserve(idx, 9000, 90000);
}
static dod_status op_shrink(dod_csr *idx, dod_csr *other, const uint32_t *keys)
{
    (void)other;
    (void)keys;
    return dod_csr_shrink(idx);
}

static void walk_failures(csr_op op, int start_big)
{
    test_rng rng = { 99 };
    uint32_t *keys = uniform_keys(&rng, 5000, 30000);
    for (int start = 0; start < 2; ++start) { /* from an empty index, and from a built one */
        for (long n = 0;; ++n) {
            test_alloc ta;
            test_alloc_init(&ta);
            dod_allocator a = test_alloc_get(&ta);
            dod_csr idx, src;
            dod_csr_init(&idx, &a);
            dod_csr_init(&src, NULL);
            CHECK_OK(dod_csr_build(&src, 5000, keys, 4, 30000));
            if (start && start_big) /* a big capacity holding a small index */
                CHECK_OK(dod_csr_build(&idx, 5000, keys, 4, 30000));
            if (start)
                CHECK_OK(dod_csr_build(&idx, 10, keys, 4, 0));
            csr_snap s = csr_snap_take(&idx);
            test_alloc_fail_after(&ta, n);
            long live = ta.live;
            dod_status st = op(&idx, &src, keys);
            int hit = ta.failed > 0;
            if (hit) {
                CHECK_STATUS(st, DOD_E_NOMEM);
                CHECK(csr_snap_unchanged(&idx, &s));
                CHECK_EQ(ta.live, live);
            } else {
                CHECK_OK(st);
                free(s.offsets);
                free(s.items);
            }
            test_alloc_fail_after(&ta, -1);
            dod_csr_free(&idx);
            dod_csr_free(&src);
            test_alloc_finish(&ta);
            if (!hit)
                break;
        }
    }
    free(keys);
}

static void test_allocation_failures(void)
{
    walk_failures(op_build, 0);
    walk_failures(op_copy, 0);
    walk_failures(op_reserve, 1);
    walk_failures(op_shrink, 1);
}

/* The prefetch hint reads order[] and offsets[] ahead of the loop: for every length around
 * the look-ahead distances it must stay inside both (the sanitizer build checks the reads),
 * and a walk that uses it visits every row once. */
static void test_prefetch_rows(void)
{
    const uint32_t lengths[] = { 0, 1, 7, 8, 9, 15, 16, 17, 100 };
    for (size_t t = 0; t < sizeof lengths / sizeof lengths[0]; ++t) {
        uint32_t n = lengths[t];
        uint32_t *keys = (uint32_t *)malloc(((size_t)n * 3 + 1) * sizeof(uint32_t));
        uint32_t *order = (uint32_t *)malloc((n ? n : 1) * sizeof(uint32_t)); /* exactly n */
        for (uint32_t i = 0; i < n * 3; ++i)
            keys[i] = (i * 7u) % (n ? n : 1);
        for (uint32_t k = 0; k < n; ++k)
            order[k] = n - 1 - k;
        dod_csr c;
        dod_csr_init(&c, NULL);
        CHECK_OK(dod_csr_build(&c, n, keys, 4, n * 3));
        uint64_t seen = 0, sum = 0;
        for (uint32_t k = 0; k < n; ++k) {
            dod_csr_prefetch_rows(&c, order, n, k, c.items, sizeof(uint32_t));
            seen += dod_csr_row_len(&c, order[k]);
            const uint32_t *it = dod_csr_row_begin(&c, order[k]);
            for (const uint32_t *end = dod_csr_row_end(&c, order[k]); it != end; ++it)
                sum += *it;
        }
        CHECK_EQ(seen, (uint64_t)n * 3);
        CHECK_EQ(sum, n ? (uint64_t)n * 3 * (n * 3 - 1) / 2 : 0);
        dod_csr_free(&c);
        free(order);
        free(keys);
    }
}

int main(void)
{
    test_property();
    test_edge_cases();
    test_errors_leave_index_unchanged();
    test_check_finds_corruption();
    test_memory_contract();
    test_allocation_failures();
    test_prefetch_rows();
    return check_summary("test_csr");
}
