/* dod_csr_build_desc: every strategy on every thread count gives the bytes of the reference
 * model; bad input and failed allocations leave the index unchanged. */
#include <dod/csr_build.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "csr_model.h"
#include "csr_snap.h"

static csr_execs execs;

typedef struct input {
    unsigned char *base, *keys, *values;
    size_t ks, vs;
    uint32_t n_rows, n_items;
    uint32_t value_bound; /* every value is below it (0: no values) */
} input;

/* Keys (and optional values below value_bound) at the given strides, from an odd address
 * when `offset` is odd, so loads are unaligned. */
static input make_input(test_rng *rng, csr_keys d, uint32_t n_rows, uint32_t n_items, size_t ks,
                        size_t offset, uint32_t value_bound)
{
    input in;
    in.ks = ks;
    in.vs = ks; /* values interleaved with the keys, at key + 4 when the stride allows */
    in.n_rows = n_rows;
    in.n_items = n_items;
    in.value_bound = value_bound;
    size_t bytes = (size_t)n_items * ks + 2 * offset + 16;
    in.base = (unsigned char *)malloc(bytes);
    memset(in.base, 0xEE, bytes);
    in.keys = in.base + offset;
    in.values = NULL;
    csr_model_keys(rng, d, n_rows, in.keys, ks, n_items);
    if (value_bound) {
        if (ks >= 8) {
            in.values = in.keys + 4;
        } else {
            in.vs = 4;
            in.values = (unsigned char *)malloc((size_t)n_items * 4 + 4);
        }
        for (uint32_t i = 0; i < n_items; ++i) {
            uint32_t v = test_rng_below(rng, value_bound);
            memcpy(in.values + (size_t)i * in.vs, &v, 4);
        }
    }
    return in;
}

static void free_input(input *in)
{
    if (in->values && (in->values < in->base || in->values > in->keys + 4))
        free(in->values);
    free(in->base);
}

static dod_csr_desc desc_of(const input *in, const dod_executor *exec, dod_csr_build_strategy s)
{
    dod_csr_desc d;
    memset(&d, 0, sizeof d);
    d.n_rows = in->n_rows;
    d.n_items = in->n_items;
    d.keys = in->keys;
    d.key_stride = in->ks;
    d.values = in->values;
    d.value_stride = in->values ? in->vs : 0;
    d.exec = exec;
    d.strategy = s;
    return d;
}

/* ---- tests ---- */

/* Every strategy, with no executor and on every executor, gives the model's bytes. */
static int all_builds_match(const input *in, int sort, dod_csr *reused)
{
    csr_model m =
        csr_model_build(in->n_rows, in->keys, in->ks, in->values, in->vs, in->n_items, sort);
    int ok = 1;
    for (int s = DOD_CSR_BUILD_AUTO; s <= DOD_CSR_BUILD_PARTITIONED; ++s) {
        /* AUTO picks one of the other two, so it needs fewer executors. */
        for (int e = -1; e < (s == DOD_CSR_BUILD_AUTO ? 2 : CSR_EXECS); ++e) {
            dod_csr_desc d = desc_of(in, e < 0 ? NULL : &execs.e[e], (dod_csr_build_strategy)s);
            d.flags = sort ? DOD_CSR_BUILD_SORT_ROWS : 0;
            /* With the bound, values that fit beside the row go into the element (the narrow
             * value build), on every other executor. */
            d.value_bound = e % 2 ? in->value_bound : 0;
            dod_csr c;
            dod_csr_init(&c, NULL);
            ok = ok && dod_csr_build_desc(&c, &d) == DOD_OK;
            ok = ok && csr_model_matches(&c, &m);
            ok = ok && dod_csr_check(&c, 0) == DOD_OK;
            dod_csr_free(&c);
            /* And as a rebuild into an index that held something else. */
            if (e % 2 == 0) {
                ok = ok && dod_csr_build_desc(reused, &d) == DOD_OK;
                ok = ok && csr_model_matches(reused, &m);
            }
        }
    }
    csr_model_free(&m);
    return ok;
}

static void test_identical_builds(void)
{
    test_rng rng = { 7 };
    const size_t strides[] = { 4, 16, 12, 7, 5 };
    dod_csr reused;
    dod_csr_init(&reused, NULL);
    for (int iter = 0; iter < 45; ++iter) {
        csr_keys d = (csr_keys)(iter % CSR_KEYS_COUNT);
        int big = iter % 16 == 15; /* big enough for several blocks and partitions */
        uint32_t n_rows = 1 + test_rng_below(&rng, big ? 120000 : (iter % 3 ? 300 : 9000));
        uint32_t n_items = test_rng_below(&rng, big ? 140000 : 5000);
        if (iter == 0)
            n_items = 0;
        input in = make_input(&rng, d, n_rows, n_items, strides[iter % 5], (size_t)(iter % 3),
                              iter % 2 ? 1 + test_rng_below(&rng, 1u << 31) : 0);
        CHECK(all_builds_match(&in, 0, &reused));
        if (in.values)
            CHECK(all_builds_match(&in, 1, &reused));
        free_input(&in);
    }
    dod_csr_free(&reused);
}

/* Sizes where the two levels really split: partitions of several chunks, partitions too big
 * for the stage (one row, few rows), and with 1M rows partitions of 2^15 rows, so an element
 * keeps 17 bits of its item and 300000 items span three windows, some cut by block borders. */
static void test_large_partitioned(void)
{
    test_rng rng = { 99 };
    dod_csr reused;
    dod_csr_init(&reused, NULL);
    for (int d = CSR_KEYS_UNIFORM; d < CSR_KEYS_COUNT; ++d) {
        /* 240000 items: 7 blocks of at least 32768 on the 7-thread pool */
        input in = make_input(&rng, (csr_keys)d, 150000, d == CSR_KEYS_UNIFORM ? 240000 : 80000,
                              16, 1, 0);
        CHECK(all_builds_match(&in, 0, &reused));
        free_input(&in);
    }
    for (int values = 0; values < 2; ++values) {
        input in = make_input(&rng, CSR_KEYS_UNIFORM, 1u << 20, 300000, 12, 0,
                              values ? 1000 : 0);
        CHECK(all_builds_match(&in, 0, &reused));
        free_input(&in);
    }
    /* Value builds with a bound, 64K rows and 600000 items (partitions of 1024 rows): values
     * below 2^20 fit beside the row; below 2^24 the rows per partition drop to 256 so they
     * fit (more partitions, still less scratch than a value pool); below 2^26 that would take
     * more scratch than the pool, so the values go to the pool. */
    const uint32_t bounds[] = { 1u << 20, 1u << 24, 1u << 26 };
    for (int b = 0; b < 3; ++b) {
        input in = make_input(&rng, CSR_KEYS_UNIFORM, 1u << 16, 600000, 8, 0, bounds[b]);
        CHECK(all_builds_match(&in, 0, &reused));
        /* The held scratch says which build ran: a narrow one has no value pool. */
        dod_csr pool, narrow;
        dod_csr_init(&pool, NULL);
        dod_csr_init(&narrow, NULL);
        dod_csr_desc d = desc_of(&in, NULL, DOD_CSR_BUILD_PARTITIONED);
        CHECK_OK(dod_csr_build_desc(&pool, &d));
        d.value_bound = in.value_bound;
        CHECK_OK(dod_csr_build_desc(&narrow, &d));
        CHECK(dod_csr_equal(&pool, &narrow));
        CHECK(b < 2 ? dod_csr_bytes(&narrow) < dod_csr_bytes(&pool)
                    : dod_csr_bytes(&narrow) == dod_csr_bytes(&pool));
        dod_csr_free(&pool);
        dod_csr_free(&narrow);
        free_input(&in);
    }
    dod_csr_free(&reused);
}

/* Sorting rows: long rows go through the general sort, short ones through insertion sort. */
static void test_sorted_rows(void)
{
    test_rng rng = { 5 };
    dod_csr reused;
    dod_csr_init(&reused, NULL);
    input in = make_input(&rng, CSR_KEYS_FEW_ROWS, 3, 70000, 8, 0, 1000);
    CHECK(all_builds_match(&in, 1, &reused));
    free_input(&in);
    in = make_input(&rng, CSR_KEYS_UNIFORM, 70000, 140000, 4, 2, 70000);
    CHECK(all_builds_match(&in, 1, &reused));
    free_input(&in);
    dod_csr_free(&reused);
}

static void test_bad_input(void)
{
    test_rng rng = { 3 };
    input in = make_input(&rng, CSR_KEYS_UNIFORM, 100000, 140000, 8, 1, 0);
    dod_csr c;
    dod_csr_init(&c, NULL);
    uint32_t small_keys[3] = { 0, 1, 0 };
    CHECK_OK(dod_csr_build(&c, 2, small_keys, 4, 3));
    const uint32_t positions[3] = { 0, 70001, 139999 };
    for (int s = DOD_CSR_BUILD_AUTO; s <= DOD_CSR_BUILD_PARTITIONED; ++s) {
        for (int e = -1; e < CSR_EXECS; ++e) {
            for (int p = 0; p < 3; ++p) {
                unsigned char *at = in.keys + (size_t)positions[p] * in.ks;
                uint32_t saved = csr_model_load(at), bad = p == 1 ? UINT32_MAX : in.n_rows;
                memcpy(at, &bad, 4);
                const dod_executor *ex = e < 0 ? NULL : &execs.e[e];
                dod_csr_desc d = desc_of(&in, ex, (dod_csr_build_strategy)s);
                csr_snap snap = csr_snap_take(&c);
                CHECK_STATUS(dod_csr_build_desc(&c, &d), DOD_E_RANGE);
                CHECK(csr_snap_unchanged(&c, &snap));
                memcpy(at, &saved, 4);
            }
        }
    }
    /* Values at or above value_bound. */
    uint32_t *vals = (uint32_t *)malloc((size_t)in.n_items * 4);
    for (uint32_t i = 0; i < in.n_items; ++i)
        vals[i] = i % 1000;
    for (int s = DOD_CSR_BUILD_AUTO; s <= DOD_CSR_BUILD_PARTITIONED; ++s) {
        for (int e = -1; e < CSR_EXECS; e += 2) {
            for (int p = 0; p < 3; ++p) {
                const dod_executor *ex = e < 0 ? NULL : &execs.e[e];
                dod_csr_desc d = desc_of(&in, ex, (dod_csr_build_strategy)s);
                d.values = vals;
                d.value_stride = 4;
                d.value_bound = 1000;
                vals[positions[p]] = 1000 + (uint32_t)p;
                csr_snap snap = csr_snap_take(&c);
                CHECK_STATUS(dod_csr_build_desc(&c, &d), DOD_E_RANGE);
                CHECK(csr_snap_unchanged(&c, &snap));
                vals[positions[p]] = 7;
                d.value_bound = 0; /* no bound: any value is fine */
                vals[positions[p]] = UINT32_MAX;
                dod_csr t;
                dod_csr_init(&t, NULL);
                CHECK_OK(dod_csr_build_desc(&t, &d));
                CHECK(t.item_bound == (uint64_t)1 << 32);
                dod_csr_free(&t);
                vals[positions[p]] = 7;
            }
        }
    }
    free(vals);

    /* Malformed descriptions. */
    dod_csr_desc d = desc_of(&in, NULL, DOD_CSR_BUILD_AUTO);
    csr_snap snap = csr_snap_take(&c);
    CHECK_STATUS(dod_csr_build_desc(NULL, &d), DOD_E_INVALID);
    CHECK_STATUS(dod_csr_build_desc(&c, NULL), DOD_E_INVALID);
    d.keys = NULL;
    CHECK_STATUS(dod_csr_build_desc(&c, &d), DOD_E_INVALID);
    d = desc_of(&in, NULL, DOD_CSR_BUILD_AUTO);
    d.key_stride = 3;
    CHECK_STATUS(dod_csr_build_desc(&c, &d), DOD_E_INVALID);
    d.key_stride = in.ks;
    d.values = in.keys;
    d.value_stride = 2;
    CHECK_STATUS(dod_csr_build_desc(&c, &d), DOD_E_INVALID);
    d = desc_of(&in, NULL, DOD_CSR_BUILD_AUTO);
    d.flags = 2;
    CHECK_STATUS(dod_csr_build_desc(&c, &d), DOD_E_INVALID);
    d.flags = 0;
    d.strategy = (dod_csr_build_strategy)3;
    CHECK_STATUS(dod_csr_build_desc(&c, &d), DOD_E_INVALID);
    dod_executor broken = { NULL, NULL, 2 }, no_threads = execs.e[1];
    no_threads.n_threads = 0;
    d = desc_of(&in, &broken, DOD_CSR_BUILD_AUTO);
    CHECK_STATUS(dod_csr_build_desc(&c, &d), DOD_E_INVALID);
    d = desc_of(&in, &no_threads, DOD_CSR_BUILD_AUTO);
    CHECK_STATUS(dod_csr_build_desc(&c, &d), DOD_E_INVALID);
    d = desc_of(&in, NULL, DOD_CSR_BUILD_AUTO);
    d.n_rows = UINT32_MAX;
    CHECK_STATUS(dod_csr_build_desc(&c, &d), DOD_E_OVERFLOW);
    d.n_rows = 0;
    CHECK_STATUS(dod_csr_build_desc(&c, &d), DOD_E_RANGE);
    CHECK(csr_snap_unchanged(&c, &snap));

    /* Zero strides mean 4, and 0 rows with 0 items is a valid empty index. */
    d = desc_of(&in, NULL, DOD_CSR_BUILD_AUTO);
    uint32_t packed[4] = { 1, 0, 1, 1 };
    d.keys = packed;
    d.key_stride = 0;
    d.n_rows = 2;
    d.n_items = 4;
    CHECK_OK(dod_csr_build_desc(&c, &d));
    CHECK(c.offsets[1] == 1 && c.items[0] == 1 && c.items[3] == 3);
    d.n_rows = 0;
    d.n_items = 0;
    CHECK_OK(dod_csr_build_desc(&c, &d));
    CHECK(c.n_rows == 0 && c.n_items == 0 && c.offsets[0] == 0);
    dod_csr_free(&c);
    free_input(&in);
}

/* Every allocation of every strategy failed in turn: DOD_E_NOMEM, unchanged, no leak; then
 * the steady-state rebuild allocates nothing, and shrink returns the scratch. */
static void test_alloc_failures(void)
{
    test_rng rng = { 11 };
    input in = make_input(&rng, CSR_KEYS_UNIFORM, 300000, 100000, 4, 0, 0);
    for (int s = DOD_CSR_BUILD_AUTO; s <= DOD_CSR_BUILD_PARTITIONED; ++s) {
        for (int e = -1; e < 2; ++e) {
            dod_csr_desc d = desc_of(&in, e < 0 ? NULL : &execs.e[e], (dod_csr_build_strategy)s);
            long walked = 0;
            for (long fail = 0;; ++fail) {
                test_alloc t;
                test_alloc_init(&t);
                dod_allocator a = test_alloc_get(&t);
                dod_csr c;
                dod_csr_init(&c, &a);
                uint32_t keys[2] = { 0, 1 };
                CHECK_OK(dod_csr_build(&c, 2, keys, 4, 2)); /* holds too little */
                test_alloc_fail_after(&t, fail);
                csr_snap snap = csr_snap_take(&c);
                dod_status st = dod_csr_build_desc(&c, &d);
                if (st == DOD_OK) {
                    csr_snap_drop(&snap);
                    test_alloc_fail_after(&t, -1);
                    long before = t.calls;
                    CHECK_OK(dod_csr_build_desc(&c, &d));
                    CHECK_EQ(t.calls, before); /* steady state: nothing allocated */
                    size_t held = dod_csr_bytes(&c);
                    CHECK_OK(dod_csr_shrink(&c));
                    CHECK(c.scratch == NULL && c.scratch_bytes == 0);
                    CHECK(dod_csr_bytes(&c) < held || s == DOD_CSR_BUILD_PLAIN);
                    dod_csr_free(&c);
                    CHECK_EQ(t.live, 0);
                    test_alloc_finish(&t);
                    break;
                }
                CHECK_STATUS(st, DOD_E_NOMEM);
                CHECK(csr_snap_unchanged(&c, &snap));
                walked++;
                dod_csr_free(&c);
                test_alloc_finish(&t);
            }
            /* the row block and the items block, which carries any scratch at its end */
            CHECK_EQ(walked, 2);
        }
    }
    free_input(&in);
}

/* dod_csr_build is the plain scatter: two blocks, no scratch, however large; dod_csr_reserve
 * holds exactly what it needs (every allocation failed in turn leaves the index unchanged). */
static void test_plain_api_blocks(void)
{
    test_rng rng = { 17 };
    input in = make_input(&rng, CSR_KEYS_UNIFORM, 300000, 200000, 16, 0, 0);
    csr_model m = csr_model_build(in.n_rows, in.keys, in.ks, NULL, 0, in.n_items, 0);
    test_alloc t;
    test_alloc_init(&t);
    dod_allocator a = test_alloc_get(&t);
    dod_csr c;
    dod_csr_init(&c, &a);
    CHECK_OK(dod_csr_build(&c, in.n_rows, in.keys, in.ks, in.n_items));
    CHECK_EQ(t.calls, 2);
    CHECK(c.scratch == NULL && c.scratch_bytes == 0);
    CHECK(csr_model_matches(&c, &m));
    long held = t.calls;
    CHECK_OK(dod_csr_build(&c, in.n_rows, in.keys, in.ks, in.n_items));
    CHECK_EQ(t.calls, held);
    dod_csr_free(&c);

    long walked = 0;
    for (long fail = 0;; ++fail) {
        dod_csr_init(&c, &a);
        uint32_t keys[2] = { 0, 1 };
        CHECK_OK(dod_csr_build(&c, 2, keys, 4, 2));
        test_alloc_fail_after(&t, fail);
        csr_snap snap = csr_snap_take(&c);
        dod_status st = dod_csr_reserve(&c, in.n_rows, in.n_items);
        test_alloc_fail_after(&t, -1);
        if (st == DOD_OK) {
            csr_snap_drop(&snap);
            break;
        }
        CHECK_STATUS(st, DOD_E_NOMEM);
        CHECK(csr_snap_unchanged(&c, &snap));
        dod_csr_free(&c);
        walked++;
    }
    CHECK_EQ(walked, 2);
    CHECK(c.scratch == NULL);
    long before = t.calls;
    CHECK_OK(dod_csr_build(&c, in.n_rows, in.keys, in.ks, in.n_items));
    CHECK(csr_model_matches(&c, &m));
    CHECK_OK(dod_csr_reserve(&c, in.n_rows, in.n_items));
    CHECK_EQ(t.calls, before);
    dod_csr_free(&c);
    CHECK_EQ(t.live, 0);
    test_alloc_finish(&t);
    csr_model_free(&m);
    free_input(&in);
}

/* Scratch from a frame arena: the index holds only its two blocks, the output is the same as
 * with held scratch, the arena is rewound before the call returns, a second frame allocates
 * nothing anywhere, and an arena that cannot grow fails with the index unchanged. */
static void test_arena_scratch(void)
{
    test_rng rng = { 23 };
    input in = make_input(&rng, CSR_KEYS_UNIFORM, 300000, 600000, 4, 0, 0);
    for (int e = -1; e < 2; ++e) {
        const dod_executor *exec = e < 0 ? NULL : &execs.e[e];
        dod_csr_desc d = desc_of(&in, exec, DOD_CSR_BUILD_PARTITIONED);
        dod_csr held;
        dod_csr_init(&held, NULL);
        CHECK_OK(dod_csr_build_desc(&held, &d));

        test_alloc ta, tc;
        test_alloc_init(&ta);
        test_alloc_init(&tc);
        dod_allocator aa = test_alloc_get(&ta), ac = test_alloc_get(&tc);
        dod_arena arena;
        dod_arena_init(&arena, 0, &aa);
        void *first = NULL;
        CHECK_OK(dod_arena_push(&arena, 40, 8, &first));
        size_t used = dod_arena_used(&arena);
        dod_csr c;
        dod_csr_init(&c, &ac);
        d.scratch = &arena;
        CHECK_OK(dod_csr_build_desc(&c, &d));
        CHECK(dod_csr_equal(&c, &held));
        CHECK(c.scratch == NULL && c.scratch_bytes == 0);
        CHECK_EQ(tc.calls, 2);
        CHECK_EQ(dod_arena_used(&arena), used);
        long arena_calls = ta.calls, index_calls = tc.calls;
        CHECK_OK(dod_csr_build_desc(&c, &d));
        CHECK(dod_csr_equal(&c, &held));
        CHECK_EQ(ta.calls, arena_calls);
        CHECK_EQ(tc.calls, index_calls);
        CHECK_EQ(dod_arena_used(&arena), used);
        dod_arena_free(&arena);

        /* a fresh arena whose parent fails: DOD_E_NOMEM, the index and the arena as they were */
        dod_arena_init(&arena, 0, &aa);
        CHECK_OK(dod_arena_push(&arena, 40, 8, &first));
        used = dod_arena_used(&arena);
        test_alloc_fail_after(&ta, 0);
        csr_snap snap = csr_snap_take(&c);
        CHECK_STATUS(dod_csr_build_desc(&c, &d), DOD_E_NOMEM);
        CHECK(csr_snap_unchanged(&c, &snap));
        CHECK_EQ(tc.calls, index_calls);
        CHECK_EQ(dod_arena_used(&arena), used);
        test_alloc_fail_after(&ta, -1);
        dod_arena_free(&arena);

        dod_csr_free(&c);
        dod_csr_free(&held);
        CHECK_EQ(tc.live, 0);
        CHECK_EQ(ta.live, 0);
        test_alloc_finish(&ta);
        test_alloc_finish(&tc);
    }
    free_input(&in);
}

/* The adaptive rule, observed through the scratch it leaves in the index: none for the plain
 * scatter on one thread, a row histogram per block for the parallel plain scatter (8 bytes a
 * row on 2 threads; the cases have 3+ items a row), at least 4 bytes an item for the
 * partitioned build. */
enum chosen { PLAIN_ONE_THREAD, PLAIN_PARALLEL, PARTITIONED };

static enum chosen auto_chooses(csr_keys d, uint32_t n_rows, uint32_t n_items,
                                const dod_executor *exec)
{
    test_rng rng = { 1 };
    input in = make_input(&rng, d, n_rows, n_items, 4, 0, 0);
    dod_csr c;
    dod_csr_init(&c, NULL);
    dod_csr_desc desc = desc_of(&in, exec, DOD_CSR_BUILD_AUTO);
    CHECK_OK(dod_csr_build_desc(&c, &desc));
    size_t scratch = c.scratch_bytes;
    dod_csr_free(&c);
    free_input(&in);
    return scratch == 0 ? PLAIN_ONE_THREAD
           : scratch < (size_t)n_items * 4 ? PLAIN_PARALLEL
                                           : PARTITIONED;
}

static void test_adaptive_choice(void)
{
    const dod_executor *two = &execs.e[1];
    /* Many rows, scattered keys: partitioned, on one thread or two. */
    CHECK_EQ(auto_chooses(CSR_KEYS_UNIFORM, 300000, 600000, NULL), PARTITIONED);
    CHECK_EQ(auto_chooses(CSR_KEYS_LONGTAIL, 300000, 600000, NULL), PARTITIONED);
    CHECK_EQ(auto_chooses(CSR_KEYS_CLUSTERED, 300000, 600000, NULL), PARTITIONED); /* 5% moved */
    CHECK_EQ(auto_chooses(CSR_KEYS_RUNS, 300000, 600000, NULL), PARTITIONED); /* 1 in 64 far */
    /* Small builds: plain on one thread; on threads the parallel plain a little longer. */
    CHECK_EQ(auto_chooses(CSR_KEYS_UNIFORM, 300000, 60000, NULL), PLAIN_ONE_THREAD);
    CHECK_EQ(auto_chooses(CSR_KEYS_UNIFORM, 120000, 600000, NULL), PLAIN_ONE_THREAD);
    CHECK_EQ(auto_chooses(CSR_KEYS_UNIFORM, 120000, 600000, two), PARTITIONED);
    CHECK_EQ(auto_chooses(CSR_KEYS_UNIFORM, 30000, 600000, two), PLAIN_ONE_THREAD);
    CHECK_EQ(auto_chooses(CSR_KEYS_UNIFORM, 60000, 600000, two), PLAIN_PARALLEL);
    /* Keys in order: plain; a few rows, out of order: partitioned. */
    CHECK_EQ(auto_chooses(CSR_KEYS_ONE_ROW, 300000, 600000, NULL), PLAIN_ONE_THREAD);
    CHECK_EQ(auto_chooses(CSR_KEYS_ONE_ROW, 300000, 900000, two), PLAIN_PARALLEL);
    CHECK_EQ(auto_chooses(CSR_KEYS_SORTED, 300000, 900000, two), PLAIN_PARALLEL);
    CHECK_EQ(auto_chooses(CSR_KEYS_FEW_ROWS, 300000, 600000, NULL), PARTITIONED);
    CHECK_EQ(auto_chooses(CSR_KEYS_FEW_ROWS, 300000, 600000, two), PARTITIONED);
}

int main(void)
{
    csr_execs_start(&execs);
    test_identical_builds();
    test_large_partitioned();
    test_sorted_rows();
    test_bad_input();
    test_adaptive_choice();
    test_plain_api_blocks();
    test_arena_scratch();
    test_alloc_failures();
    csr_execs_stop(&execs);
    return check_summary("test_csr_build");
}
