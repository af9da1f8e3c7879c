#include <dod/reduce.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

/* An executor that runs the tasks on the calling thread, last index first: any dependence on
 * task order or on running the tasks inline in order shows up as a difference. */
static void reverse_run(void *ctx, uint32_t n_tasks, void (*task)(void *, uint32_t), void *arg)
{
    long *runs = (long *)ctx;
    ++*runs;
    for (uint32_t i = n_tasks; i-- > 0;)
        task(arg, i);
}

typedef struct rec {
    uint32_t army;
    float health, mood, speed;
} rec;

/* Reference: for each row, walk all records, keep those of the row, in record order. */
static void reference(const rec *recs, uint32_t n, uint32_t n_rows, float *sum, float *lo,
                      float *hi, float *mean)
{
    for (uint32_t r = 0; r < n_rows; ++r) {
        float s = 0.0f, a = INFINITY, b = -INFINITY;
        uint32_t c = 0;
        for (uint32_t i = 0; i < n; ++i)
            if (recs[i].army == r) {
                s += recs[i].mood;
                a = recs[i].mood < a ? recs[i].mood : a;
                b = recs[i].mood > b ? recs[i].mood : b;
                ++c;
            }
        sum[r] = s;
        lo[r] = a;
        hi[r] = b;
        mean[r] = c ? s / (float)c : 0.0f;
    }
}

static int same_bits(const float *a, const float *b, uint32_t n)
{
    return memcmp(a, b, (size_t)n * sizeof(float)) == 0;
}

static void test_property(void)
{
    test_rng rng = { 99 };
    long runs = 0;
    dod_executor reverse = { reverse_run, &runs, 4 };
    dod_threadpool *pool = NULL;
    CHECK_OK(dod_threadpool_create(&pool, 3, NULL));
    dod_executor pool_exec = dod_threadpool_executor(pool);
    dod_executor one = { reverse_run, &runs, 1 };
    const dod_executor *execs[] = { NULL, &one, &reverse, &pool_exec };
    int ok = 1;
    for (int iter = 0; iter < 120; ++iter) {
        uint32_t n_rows = 1 + test_rng_below(&rng, iter % 10 == 0 ? 3000 : 60);
        uint32_t n = test_rng_below(&rng, 4000);
        rec *recs = (rec *)malloc((size_t)n * sizeof(rec) + sizeof(rec));
        for (uint32_t i = 0; i < n; ++i) {
            /* long tail: many rows empty */
            double u = (double)test_rng_below(&rng, 1u << 20) / (double)(1u << 20);
            recs[i].army = (uint32_t)((double)n_rows * u * u);
            recs[i].mood = (float)test_rng_below(&rng, 2000) / 1000.0f - 0.5f;
            recs[i].health = 1.0f;
            recs[i].speed = 2.0f;
        }
        dod_csr groups;
        dod_csr_init(&groups, NULL);
        ok &= dod_csr_build(&groups, n_rows, &recs[0].army, sizeof(rec), n) == DOD_OK;
        size_t bytes = (size_t)n_rows * sizeof(float);
        float *ref[4], *got[4][4];
        for (int k = 0; k < 4; ++k) {
            ref[k] = (float *)malloc(bytes);
            for (int e = 0; e < 4; ++e)
                got[e][k] = (float *)malloc(bytes);
        }
        reference(recs, n, n_rows, ref[0], ref[1], ref[2], ref[3]);
        for (int e = 0; e < 4; ++e) {
            dod_reduce_out out = { got[e][0], got[e][1], got[e][2], got[e][3] };
            ok &= dod_reduce_rows(&groups, &recs[0].mood, sizeof(rec), n, &out, execs[e]) ==
                  DOD_OK;
            for (int k = 0; k < 4; ++k)
                ok &= same_bits(got[e][k], ref[k], n_rows);
        }
        /* only some outputs wanted */
        float *mean_only = (float *)malloc(bytes);
        dod_reduce_out partial = { NULL, NULL, NULL, mean_only };
        ok &= dod_reduce_rows(&groups, &recs[0].mood, sizeof(rec), n, &partial, &reverse) == DOD_OK;
        ok &= same_bits(mean_only, ref[3], n_rows);
        free(mean_only);
        for (int k = 0; k < 4; ++k) {
            free(ref[k]);
            for (int e = 0; e < 4; ++e)
                free(got[e][k]);
        }
        dod_csr_free(&groups);
        free(recs);
    }
    CHECK(ok);
    CHECK(runs > 0); /* the multi-thread executor was used */
    dod_threadpool_destroy(pool);
}

/* Packed floats (stride 4) and an odd, unaligned stride give the same results. */
static void test_strides(void)
{
    enum { N = 100, ROWS = 7 };
    uint32_t keys[N];
    float packed[N];
    unsigned char raw[N * 7 + 1];
    for (uint32_t i = 0; i < N; ++i) {
        keys[i] = (i * 5) % ROWS;
        packed[i] = (float)i * 0.25f;
        memcpy(raw + 1 + (size_t)i * 7, &packed[i], 4);
    }
    dod_csr g;
    dod_csr_init(&g, NULL);
    CHECK_OK(dod_csr_build(&g, ROWS, keys, 4, N));
    float s1[ROWS], s2[ROWS], m1[ROWS], m2[ROWS];
    dod_reduce_out o1 = { s1, NULL, m1, NULL }, o2 = { s2, NULL, m2, NULL };
    CHECK_OK(dod_reduce_rows(&g, packed, 4, N, &o1, NULL));
    CHECK_OK(dod_reduce_rows(&g, raw + 1, 7, N, &o2, NULL));
    CHECK(same_bits(s1, s2, ROWS) && same_bits(m1, m2, ROWS));
    float want0 = 0.0f;
    for (uint32_t i = 0; i < N; i += 7)
        want0 += (float)i * 0.25f;
    CHECK(s1[0] == want0);
    CHECK(m1[0] == (float)98 * 0.25f);
    dod_csr_free(&g);
}

static void test_errors(void)
{
    uint32_t keys[4] = { 0, 1, 1, 2 };
    float vals[4] = { 1, 2, 3, 4 };
    dod_csr g;
    dod_csr_init(&g, NULL);
    CHECK_OK(dod_csr_build(&g, 3, keys, 4, 4));
    float sum[3] = { -7, -7, -7 };
    const float untouched[3] = { -7, -7, -7 };
    dod_reduce_out out = { sum, NULL, NULL, NULL };
    long runs = 0;
    dod_executor bad_run = { NULL, &runs, 2 }, no_threads = { reverse_run, &runs, 0 };
    dod_executor reverse = { reverse_run, &runs, 2 };
    CHECK_STATUS(dod_reduce_rows(NULL, vals, 4, 4, &out, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_reduce_rows(&g, NULL, 4, 4, &out, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_reduce_rows(&g, vals, 4, 4, NULL, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_reduce_rows(&g, vals, 3, 4, &out, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_reduce_rows(&g, vals, 4, 4, &out, &bad_run), DOD_E_INVALID);
    CHECK_STATUS(dod_reduce_rows(&g, vals, 4, 4, &out, &no_threads), DOD_E_INVALID);
    /* an item (3) outside the 3 values given: nothing written, sequential or on the executor */
    CHECK_STATUS(dod_reduce_rows(&g, vals, 4, 3, &out, NULL), DOD_E_RANGE);
    CHECK_STATUS(dod_reduce_rows(&g, vals, 4, 3, &out, &reverse), DOD_E_RANGE);
    CHECK(memcmp(sum, untouched, sizeof sum) == 0);
    CHECK_OK(dod_reduce_rows(&g, vals, 4, 4, &out, &reverse));
    CHECK(sum[0] == 1.0f && sum[1] == 5.0f && sum[2] == 4.0f);
    /* empty rows: the identities; mean 0 */
    dod_csr e;
    dod_csr_init(&e, NULL);
    CHECK_OK(dod_csr_build(&e, 2, NULL, 4, 0));
    float s[2], lo[2], hi[2], mean[2];
    dod_reduce_out all = { s, lo, hi, mean };
    CHECK_OK(dod_reduce_rows(&e, NULL, 4, 0, &all, &reverse));
    CHECK(s[1] == 0.0f && isinf(lo[1]) && lo[1] > 0 && isinf(hi[1]) && hi[1] < 0 && mean[1] == 0.0f);
    /* zero rows */
    dod_csr z;
    dod_csr_init(&z, NULL);
    CHECK_OK(dod_reduce_rows(&z, NULL, 4, 0, &all, &reverse));
    dod_csr_free(&e);
    dod_csr_free(&g);
}

int main(void)
{
    test_property();
    test_strides();
    test_errors();
    return check_summary("reduce");
}
