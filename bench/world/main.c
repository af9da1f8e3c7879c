/* bench_world: the world (dod/world.h, issue 13) against the seed's OOP baseline and a raw SoA
 * floor (seed_update.c), the common ECS benchmark scenarios (scenarios.c) and frag_iter
 * (frag.c), cold spawns (cold.c), command buffers (commands.c), the ecs_benchmark systems
 * scenarios on a schedule (ecs_bench.c), a frame of structural changes through a schedule's
 * command buffers (cmds_frame.c), relation indexes (index.c) at the seed's 1M locations and
 * 6M regiments, and the world's snapshots (snapshots.c) and files (files.c). Sizes 64K and 1M
 * entities, 15 passes (the systems: 21 frames; the indexes: 9, quick 3), min and median ns per
 * entity; JSON lines to bench/results/world.jsonl; PASS/MISS per target (bench_target).
 * DOD_BENCH_QUICK=1: 64K only. `bench_world systems` runs the systems and the frame of commands
 * alone, `bench_world snapshots` the snapshots and files alone, `bench_world index` the relation
 * indexes alone (slot items at the seed's sizes, then row numbers at 1M regiments, quick
 * 256K), `bench_world commands` the command buffers alone (recording and despawns at 64K and
 * 1M, then applying 2% of 2M entities, quick 256K).
 * A timing miss is printed and recorded but exits 0; a wrong result exits 1. */
#include <string.h>
#include "ecs_bench.h"
#include "world_bench.h"

int main(int argc, char **argv)
{
    int quick = bench_quick();
    const size_t sizes[2] = { WB_64K, WB_1M };
    int n_sizes = quick ? 1 : 2, passes = WB_MAX_PASSES;
    wb_open("world");
    printf("bench_world: %d passes%s\n", passes, quick ? " (quick: 64K only)" : "");
    int systems_only = argc > 1 && strcmp(argv[1], "systems") == 0;
    int snapshots_only = argc > 1 && strcmp(argv[1], "snapshots") == 0;
    if (argc > 1 && strcmp(argv[1], "commands") == 0) {
        for (int i = 0; i < n_sizes; ++i)
            commands_bench(sizes[i], passes, sizes[i] == WB_1M);
        commands_scale_bench((uint32_t)(quick ? WB_256K : 2 * WB_1M), passes, !quick);
        return wb_close();
    }
    if (argc > 1 && strcmp(argv[1], "index") == 0) {
        index_bench(quick ? 3 : 9);
        index_rows_bench((uint32_t)(quick ? WB_256K : WB_1M), quick ? 3 : 9, !quick);
        return wb_close();
    }
    for (int i = 0; i < n_sizes && !systems_only; ++i) {
        snapshots_bench(sizes[i], passes);
        files_bench(sizes[i], passes);
    }
    if (snapshots_only) {
        return wb_close();
    }
    for (int i = 0; i < n_sizes && !systems_only; ++i)
        seed_update_bench(sizes[i], passes);
    for (int i = 0; i < n_sizes && !systems_only; ++i)
        scenarios_bench(sizes[i], passes, sizes[i] == WB_1M);
    if (!systems_only) {
        frag_bench(passes);
        cold_bench(sizes[n_sizes - 1], passes);
        index_bench(quick ? 3 : 9);
        index_rows_bench((uint32_t)(quick ? WB_256K : WB_1M), quick ? 3 : 9, !quick);
    }
    for (int i = 0; i < n_sizes && !systems_only; ++i)
        commands_bench(sizes[i], passes, sizes[i] == WB_1M);
    if (!systems_only)
        commands_scale_bench((uint32_t)(quick ? WB_256K : 2 * WB_1M), passes, !quick);
    for (int i = 0; i < n_sizes; ++i)
        ecs_systems_bench(sizes[i], sizes[i] == WB_1M);
    for (int i = 0; i < n_sizes; ++i)
        cmds_frame_bench(sizes[i]);
    return wb_close();
}
