/* The ecs_benchmark systems scenarios (ecs_bench.c), for main.c: only the entry point, since
 * ecs_systems.h's component types share names with world_bench.h's. */
#ifndef ECS_BENCH_H
#define ECS_BENCH_H

#include <stddef.h>

/* Every systems scenario at n entities; targets: print the verdicts (at 1M). */
void ecs_systems_bench(size_t n, int targets);

#endif
