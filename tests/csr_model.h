/* The index tests' shared scaffolding: the key distributions, the reference model every build
 * is compared against, and the executors the parallel paths run on. */
#ifndef DOD_TEST_CSR_MODEL_H
#define DOD_TEST_CSR_MODEL_H

#include <dod/csr.h>
#include <dod/exec.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

/* ---- keys ---- */

/* The benchmark's eight distributions (bench/csr_build) and one edge shape. */
typedef enum csr_keys {
    CSR_KEYS_UNIFORM,
    CSR_KEYS_LONGTAIL,  /* floor(n_rows * u^2): a few low rows hold most items */
    CSR_KEYS_CLUSTERED, /* sorted, then 5% moved anywhere */
    CSR_KEYS_SORTED,
    CSR_KEYS_REVERSE,
    CSR_KEYS_FEW_ROWS,  /* every key on one of 64 random rows */
    CSR_KEYS_ONE_ROW,   /* every key on the last row */
    CSR_KEYS_RUNS,      /* runs of 64 equal keys, each run's key uniform */
    CSR_KEYS_GAPS,      /* every other row empty, and both ends (from 4 rows on) */
    CSR_KEYS_COUNT
} csr_keys;

#define CSR_MODEL_FEW 64u
#define CSR_MODEL_RUN 64u

/* Write n_items keys below n_rows (> 0) from `keys` on, `stride` bytes apart, at any
 * alignment. */
static inline void csr_model_keys(test_rng *rng, csr_keys d, uint32_t n_rows, unsigned char *keys,
                                  size_t stride, uint32_t n_items)
{
    uint32_t few[CSR_MODEL_FEW], run = 0;
    for (uint32_t j = 0; j < CSR_MODEL_FEW; ++j)
        few[j] = test_rng_below(rng, n_rows);
    for (uint32_t i = 0; i < n_items; ++i) {
        uint32_t k = 0;
        double u;
        switch (d) {
        case CSR_KEYS_UNIFORM: k = test_rng_below(rng, n_rows); break;
        case CSR_KEYS_LONGTAIL:
            u = (double)test_rng_below(rng, 1u << 30) / (double)(1u << 30);
            k = (uint32_t)((double)n_rows * u * u);
            break;
        case CSR_KEYS_CLUSTERED:
            k = test_rng_below(rng, 100) < 5 ? test_rng_below(rng, n_rows)
                                             : (uint32_t)((uint64_t)i * n_rows / n_items);
            break;
        case CSR_KEYS_SORTED: k = (uint32_t)((uint64_t)i * n_rows / n_items); break;
        case CSR_KEYS_REVERSE: k = (uint32_t)((uint64_t)(n_items - 1 - i) * n_rows / n_items); break;
        case CSR_KEYS_FEW_ROWS: k = few[test_rng_below(rng, CSR_MODEL_FEW)]; break;
        case CSR_KEYS_ONE_ROW: k = n_rows - 1; break;
        case CSR_KEYS_RUNS:
            run = i % CSR_MODEL_RUN ? run : test_rng_below(rng, n_rows);
            k = run;
            break;
        case CSR_KEYS_GAPS: k = n_rows >= 4 ? 1 + 2 * test_rng_below(rng, (n_rows - 2) / 2) : 0; break;
        case CSR_KEYS_COUNT: break;
        }
        memcpy(keys + (size_t)i * stride, &k, sizeof k);
    }
}

/* ---- the reference model: each item appended to its row, in item order ---- */

typedef struct csr_model {
    uint32_t n_rows, n_items;
    uint32_t *offsets, *items;
} csr_model;

static inline uint32_t csr_model_load(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline int csr_model_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Item i has row key(i) and stores value(i), or i when values is NULL; with `sort`, each row's
 * values ascending. Keys must be below n_rows. */
static inline csr_model csr_model_build(uint32_t n_rows, const unsigned char *keys, size_t ks,
                                        const unsigned char *values, size_t vs, uint32_t n_items,
                                        int sort)
{
    csr_model m;
    m.n_rows = n_rows;
    m.n_items = n_items;
    m.offsets = (uint32_t *)calloc((size_t)n_rows + 1, sizeof(uint32_t));
    m.items = (uint32_t *)malloc(((size_t)n_items + 1) * sizeof(uint32_t));
    uint32_t *next = (uint32_t *)calloc((size_t)n_rows + 1, sizeof(uint32_t));
    for (uint32_t i = 0; i < n_items; ++i)
        m.offsets[csr_model_load(keys + (size_t)i * ks) + 1]++;
    for (uint32_t r = 0; r < n_rows; ++r) {
        m.offsets[r + 1] += m.offsets[r];
        next[r] = m.offsets[r];
    }
    for (uint32_t i = 0; i < n_items; ++i) {
        uint32_t k = csr_model_load(keys + (size_t)i * ks);
        m.items[next[k]++] = values ? csr_model_load(values + (size_t)i * vs) : i;
    }
    if (sort)
        for (uint32_t r = 0; r < n_rows; ++r)
            qsort(m.items + m.offsets[r], m.offsets[r + 1] - m.offsets[r], sizeof(uint32_t),
                  csr_model_cmp_u32);
    free(next);
    return m;
}

/* The index holds exactly the model's rows. */
static inline int csr_model_matches(const dod_csr *c, const csr_model *m)
{
    return c->n_rows == m->n_rows && c->n_items == m->n_items &&
           memcmp(c->offsets, m->offsets, ((size_t)m->n_rows + 1) * sizeof(uint32_t)) == 0 &&
           (m->n_items == 0 || memcmp(c->items, m->items, (size_t)m->n_items * sizeof(uint32_t)) == 0);
}

static inline void csr_model_free(csr_model *m)
{
    free(m->offsets);
    free(m->items);
}

/* ---- executors: pools of 1, 2, 3, 4 and 7 threads and one that runs tasks backwards ---- */

#define CSR_POOLS 5
#define CSR_EXECS (CSR_POOLS + 1)

typedef struct csr_execs {
    dod_threadpool *pools[CSR_POOLS];
    dod_executor e[CSR_EXECS]; /* e[1] is the 2-thread pool */
} csr_execs;

static inline void csr_reverse_run(void *ctx, uint32_t n, void (*task)(void *, uint32_t),
                                   void *arg)
{
    (void)ctx;
    for (uint32_t i = n; i-- > 0;)
        task(arg, i);
}

static inline void csr_execs_start(csr_execs *x)
{
    static const uint32_t threads[CSR_POOLS] = { 1, 2, 3, 4, 7 };
    for (int p = 0; p < CSR_POOLS; ++p) {
        CHECK_OK(dod_threadpool_create(&x->pools[p], threads[p], NULL));
        x->e[p] = dod_threadpool_executor(x->pools[p]);
    }
    x->e[CSR_POOLS].run = csr_reverse_run;
    x->e[CSR_POOLS].ctx = NULL;
    x->e[CSR_POOLS].n_threads = 5;
}

static inline void csr_execs_stop(csr_execs *x)
{
    for (int p = 0; p < CSR_POOLS; ++p)
        dod_threadpool_destroy(x->pools[p]);
}

#endif
