/* bench_world: the world (dod/world.h, issue 13) against the seed's OOP baseline and a raw SoA
 * floor (seed_update.c), the common ECS benchmark scenarios (scenarios.c) and frag_iter
 * (frag.c). Sizes 64K and 1M entities, 15 passes, min and median ns per entity; JSON lines to
 * bench/results/world.jsonl; PASS/MISS per target (bench_target). DOD_BENCH_QUICK=1: 64K only.
 * A timing miss is printed and recorded but exits 0; a wrong result exits 1. */
#include "world_bench.h"

int main(void)
{
    int quick = bench_quick();
    const size_t sizes[2] = { WB_64K, WB_1M };
    int n_sizes = quick ? 1 : 2, passes = WB_MAX_PASSES;
    wb_open();
    printf("bench_world: %d passes%s\n", passes, quick ? " (quick: 64K only)" : "");
    for (int i = 0; i < n_sizes; ++i)
        seed_update_bench(sizes[i], passes);
    for (int i = 0; i < n_sizes; ++i)
        scenarios_bench(sizes[i], passes, sizes[i] == WB_1M);
    frag_bench(passes);
    return wb_close();
}
