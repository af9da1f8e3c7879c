/* bench_csr_build: the index build beyond the seed's hack 3, against hack 3 and against the
 * floor of any build, in one process; then grouped payloads (gather into row order).
 *
 * Sections: builds.c (every strategy, 1 and 2 threads, every key distribution) and grouped.c
 * (frames and random queries over the gathered payload). Appends to bench/results/csr.jsonl;
 * prints the targets of issues 16 and earlier, PASS or MISS (ratios of minima; exit status 0
 * either way: timings are not correctness; 1 only when a build is wrong or memory runs out).
 * DOD_BENCH_VERBOSE=1 also prints every variant's min and median.
 * DOD_BENCH_QUICK=1: 64K and 1M rows, 3 runs. With arguments `bench_csr_build ROWS [RUNS]`: only
 * the build section at ROWS rows (to look at one size while tuning). */
#include "csr_build_bench.h"
#include <stdlib.h>

int main(int argc, char **argv)
{
    const int quick = bench_quick();
    static const uint32_t builds_full[] = { 1u << 16, 1u << 18, 1u << 20, 8u << 20 };
    static const uint32_t builds_quick[] = { 1u << 16, 1u << 20 };
    static const uint32_t grouped_full[] = { 1u << 20, 8u << 20 };
    static const uint32_t grouped_quick[] = { 1u << 16, 1u << 20 };
    const uint32_t *builds = quick ? builds_quick : builds_full;
    const uint32_t *grouped = quick ? grouped_quick : grouped_full;
    int n_builds = quick ? 2 : 4, n_grouped = 2;
    /* At 8M rows one repetition of the builds takes seconds. */
    int runs = quick ? 3 : 5, runs_8m = 3;
    uint32_t only[1];
    if (argc > 1) {
        only[0] = (uint32_t)strtoul(argv[1], NULL, 10);
        builds = only;
        n_builds = 1;
        n_grouped = 0;
        runs = runs_8m = argc > 2 ? atoi(argv[2]) : runs;
        if (only[0] < 64 || runs < 1 || runs > BENCH_MAX_RUNS)
            bench_die("usage: bench_csr_build [ROWS >= 64 [RUNS 1..9]]");
    }

    dod_threadpool *pool = NULL;
    if (dod_threadpool_create(&pool, 2, NULL) != DOD_OK)
        bench_die("cannot start the thread pool");
    dod_executor exec2 = dod_threadpool_executor(pool);
    FILE *out = bench_begin("csr_build", "csr");
    printf("bench_csr_build: Regiment keys at stride 16, 6 items per row%s\n",
           quick ? " (quick)" : "");
    for (int s = 0; s < n_builds; ++s)
        builds_run(out, builds[s], builds[s] >= (8u << 20) ? runs_8m : runs, &exec2);
    for (int s = 0; s < n_grouped; ++s) {
        const regiment_dist dists[] = { DIST_UNIFORM, DIST_LONGTAIL, DIST_CLUSTERED };
        for (int d = 0; d < 3; ++d)
            grouped_run(out, grouped[s], dists[d], grouped[s] >= (8u << 20) ? runs_8m : runs,
                        &exec2);
    }
    dod_threadpool_destroy(pool);
    return bench_end(0);
}
