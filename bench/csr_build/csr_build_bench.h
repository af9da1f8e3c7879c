/* bench_csr_build's two sections (builds.c, grouped.c) and what they share. */
#ifndef BENCH_CSR_BUILD_H
#define BENCH_CSR_BUILD_H

#include <dod/csr_build.h>
#include "bench.h"
#include "regiments.h"

#define BENCH_MAX_RUNS 9

/* Every build strategy against hack 3 and the floor, over every key distribution at n_rows. */
void builds_run(FILE *out, uint32_t n_rows, int runs, const dod_executor *exec2);

/* The build plus queries, with and without the payload gathered into row order. */
void grouped_run(FILE *out, uint32_t n_rows, regiment_dist dist, int runs,
                 const dod_executor *exec2);

#endif
