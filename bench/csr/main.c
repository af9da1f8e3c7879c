/* bench_csr: the seed's jagged-index measurement (naive vector of vectors, the fragmented
 * heap, hacks 1-3) against the library's dod_csr and a plain memcpy, per size and key
 * distribution. Prints a line per configuration (DOD_BENCH_VERBOSE=1: the whole table), the
 * seed's closing sentence and the required checks as targets, and appends
 * bench/results/csr.jsonl (make bench draws the charts from it). DOD_BENCH_QUICK=1: two sizes,
 * three runs. Exits 0 whatever the targets say (timings on a shared machine are noisy); exits
 * 1 only if a variant computes a wrong index or memory runs out. */
#include "bench.h"
#include "meter.h"
#include "report.h"
#include <stdlib.h>

int main(void)
{
    static const uint32_t full_sizes[] = { 100, 1000, 65536, 131072, 1000000 };
    static const uint32_t quick_sizes[] = { 1000, 65536 };
    const int quick = bench_quick();
    const uint32_t *sizes = quick ? quick_sizes : full_sizes;
    const int n_sizes = quick ? 2 : 5;
    /* Runs per size: cheap sizes get more to tame a shared machine's noise; at 1M rows a
     * repetition of the naive variants takes seconds. */
    static const int full_runs[] = { 11, 11, 11, 9, 5 };
    static const int quick_runs[] = { 3, 3 };
    const int *runs = quick ? quick_runs : full_runs;
    const csr_variant *variants[] = { csr_naive(0), csr_naive(1),   &csr_hack1,
                                      &csr_hack2,   &csr_hack3,     &csr_dod,
                                      &csr_dod_auto, &csr_dod_auto2, &csr_memcpy };
    const int n_variants = (int)(sizeof variants / sizeof variants[0]);

    csr_heap_setup();
    const int n = n_sizes * DIST_COUNT;
    csr_config *cfgs = (csr_config *)calloc((size_t)n, sizeof *cfgs);
    if (!cfgs)
        bench_die("out of memory");
    FILE *json = bench_begin("csr", "csr");
    printf("bench_csr: Regiment {location, health, mood, speed}, 6 items per row, variants "
           "round-robin%s\n",
           quick ? " (quick)" : "");
    for (int s = 0; s < n_sizes; ++s)
        for (int d = 0; d < DIST_COUNT; ++d) {
            csr_config *c = &cfgs[s * DIST_COUNT + d];
            c->n_rows = sizes[s];
            c->dist = (regiment_dist)d;
            c->runs = runs[s];
            c->n_variants = n_variants;
            for (int v = 0; v < n_variants; ++v)
                c->variants[v] = variants[v];
            csr_run_config(c);
            if (bench_verbose())
                csr_print_table(c);
            csr_print_config(c);
            if (json)
                csr_write_json(json, c);
            fflush(stdout);
        }
    csr_print_sentence(cfgs, n);
    csr_targets(cfgs, n);
    free(cfgs);
    return bench_end(0);
}
