/* One configuration of the index benchmark (n_rows, distribution): every variant's lifecycle
 * build -> query -> query_random -> rebuild -> snapshot -> teardown, repeated round-robin. */
#ifndef BENCH_CSR_RUN_H
#define BENCH_CSR_RUN_H

#include "variants.h"

#define CSR_MAX_RUNS 16
#define CSR_MAX_VARIANTS 10

/* One variant's figures for one op. bytes: heap bytes the structure (for snapshot: the
 * snapshot) holds after the op; allocs/frees: calls made during the op, per repetition. */
typedef struct csr_result {
    int measured;
    int n;
    double ms[CSR_MAX_RUNS];
    double min, median;
    long long bytes;
    long allocs, frees;
} csr_result;

typedef struct csr_config {
    uint32_t n_rows, n_items;
    regiment_dist dist;
    int runs;  /* timed repetitions (after an untimed warm-up below 1M items) */
    int batch; /* lifecycles per repetition: each sample is the batch's time / batch */
    int n_variants;
    const csr_variant *variants[CSR_MAX_VARIANTS];
    csr_result r[CSR_MAX_VARIANTS][OP_COUNT];
    size_t requested[CSR_MAX_VARIANTS]; /* bytes asked of the allocator after build */
} csr_config;

/* Fill c->r: c->n_rows, dist, runs, variants must be set. Dies if any variant's query
 * disagrees with the reference (hack3_build plus seed_query_row). */
void csr_run_config(csr_config *c);

/* Index of the variant named `name` in c, or -1. */
int csr_find_variant(const csr_config *c, const char *name);

#endif
