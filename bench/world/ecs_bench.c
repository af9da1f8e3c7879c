/* The ecs_benchmark systems scenarios (ecs_systems.h): the uniform and the mixed setup, 2 and
 * 7 systems, one frame timed, min and median of 21 frames, variants alternating frame by frame:
 *   raw                   the systems as raw loops over plain arrays per group (ecs_raw.c)
 *   raw_2t                the same loops split by hand across a pool of 2 threads (Render on
 *                         one): the floor of a 2-thread frame on this machine
 *   world_fixed_1t / _2t  the world, archetypes fixed at the setup's counts, the schedule on a
 *                         thread pool of 1 / 2 threads
 *   world_chunked_1t / _2t  every archetype chunked at the default blocks
 *   world_fixed_pps_1t / _2t  fixed, a pass per system (DOD_SCHEDULE_PASS_PER_SYSTEM): against
 *                         the default, one pass over a task's rows for every system of a phase
 *   world_fixed_seq_1t / _2t  fixed, no system DOD_SYSTEM_PARALLEL (the schedule's default:
 *                         each system's tasks one job, in order): what the safe default costs
 *                         against the variants above, whose systems but Render are parallel
 * dt = 1/60, read from a volatile each frame. Every variant runs the same frames, so at the
 * end every world must equal the raw arrays byte for byte (every column, and the
 * framebuffer): across thread counts and against the raw loops. */
#include <stdio.h>
#include <dod/exec.h>
#include <dod/world_systems.h>
#include "bench.h"
#include "ecs_bench.h"
#include "ecs_systems.h"

#define FRAMES 21
enum { V_RAW, V_RAW_2T, V_FIXED_1T, V_FIXED_2T, V_CHUNKED_1T, V_CHUNKED_2T, V_PPS_1T, V_PPS_2T,
       V_SEQ_1T, V_SEQ_2T, N_VARIANTS };
static const char *const variant_names[N_VARIANTS] = {
    "raw", "raw_2t", "world_fixed_1t", "world_fixed_2t", "world_chunked_1t", "world_chunked_2t",
    "world_fixed_pps_1t", "world_fixed_pps_2t", "world_fixed_seq_1t", "world_fixed_seq_2t"
};

static volatile float frame_dt = 1.0f / 60.0f;

/* wb_emit and wb_require of harness.c (world_bench.h declares them beside component types of
 * the same names as ecs_systems.h's). */
double wb_emit(const char *op, const char *variant, size_t n, double per, const double *ms,
               int passes);
void wb_require(int ok, const char *what);

typedef struct scenario_result {
    double min[N_VARIANTS], median[N_VARIANTS];
} scenario_result;

static scenario_result run_scenario(size_t n, int mixed, int n_systems, const dod_executor *one,
                                    const dod_executor *two)
{
    ecs_raw raw, raw2;
    ecs_raw_init(&raw, n, mixed);
    ecs_raw_init(&raw2, n, mixed);
    ecs_world *worlds[N_VARIANTS] = { NULL };
    for (int v = V_FIXED_1T; v < N_VARIANTS; ++v)
        worlds[v] = ecs_world_make(n, mixed, v <= V_FIXED_2T || v >= V_PPS_1T, n_systems,
                                   v == V_PPS_1T || v == V_PPS_2T ? DOD_SCHEDULE_PASS_PER_SYSTEM
                                                                  : 0u,
                                   v >= V_SEQ_1T ? 0u : DOD_SYSTEM_PARALLEL);
    const dod_executor *exec[N_VARIANTS] = { NULL, two, one, two, one, two, one, two, one, two };
    double t[N_VARIANTS][FRAMES];
    for (int f = -1; f < FRAMES; ++f) /* frame -1: a warm-up, untimed */
        for (int k = 0; k < N_VARIANTS; ++k) {
            int v = (k + f + 1) % N_VARIANTS;
            float dt = frame_dt;
            double t0 = bench_now_ms();
            if (v == V_RAW)
                ecs_raw_frame(&raw, n_systems, dt);
            else if (v == V_RAW_2T)
                ecs_raw_frame_par(&raw2, n_systems, dt, exec[v]);
            else
                ecs_world_frame(worlds[v], exec[v], dt);
            if (f >= 0)
                t[v][f] = bench_now_ms() - t0;
        }
    char op[32];
    snprintf(op, sizeof op, "%s_%dsys", mixed ? "mixed" : "uniform", n_systems);
    scenario_result r;
    for (int v = 0; v < N_VARIANTS; ++v) {
        r.min[v] = wb_emit(op, variant_names[v], n, (double)n, t[v], FRAMES);
        r.median[v] = bench_median(t[v], FRAMES) * 1e6 / (double)n;
    }
    for (int v = V_FIXED_1T; v < N_VARIANTS; ++v) {
        char what[96];
        snprintf(what, sizeof what, "%s %s: final state equals raw's byte for byte", op,
                 variant_names[v]);
        wb_require(ecs_world_same_as_raw(worlds[v], &raw), what);
        ecs_world_free(worlds[v]);
    }
    wb_require(ecs_raw_same(&raw2, &raw), "raw_2t: final state equals raw's byte for byte");
    ecs_raw_free(&raw2);
    ecs_raw_free(&raw);
    printf("  %s n %zu (min, median): fixed_1t / raw %.3f %.3f; chunked_1t / raw %.3f %.3f; "
           "fixed 2t / 1t %.3f %.3f; chunked 2t / 1t %.3f %.3f; raw 2t / 1t %.3f %.3f; "
           "fixed_2t / raw_2t %.3f %.3f; one pass / pass per system 1t %.3f %.3f, 2t %.3f %.3f\n",
           op, n, r.min[V_FIXED_1T] / r.min[V_RAW], r.median[V_FIXED_1T] / r.median[V_RAW],
           r.min[V_CHUNKED_1T] / r.min[V_RAW], r.median[V_CHUNKED_1T] / r.median[V_RAW],
           r.min[V_FIXED_2T] / r.min[V_FIXED_1T], r.median[V_FIXED_2T] / r.median[V_FIXED_1T],
           r.min[V_CHUNKED_2T] / r.min[V_CHUNKED_1T],
           r.median[V_CHUNKED_2T] / r.median[V_CHUNKED_1T], r.min[V_RAW_2T] / r.min[V_RAW],
           r.median[V_RAW_2T] / r.median[V_RAW], r.min[V_FIXED_2T] / r.min[V_RAW_2T],
           r.median[V_FIXED_2T] / r.median[V_RAW_2T], r.min[V_FIXED_1T] / r.min[V_PPS_1T],
           r.median[V_FIXED_1T] / r.median[V_PPS_1T], r.min[V_FIXED_2T] / r.min[V_PPS_2T],
           r.median[V_FIXED_2T] / r.median[V_PPS_2T]);
    printf("  %s n %zu (min, median): no system parallel / parallel (fixed) 1t %.3f %.3f, "
           "2t %.3f %.3f; no system parallel 2t / 1t %.3f %.3f\n",
           op, n, r.min[V_SEQ_1T] / r.min[V_FIXED_1T], r.median[V_SEQ_1T] / r.median[V_FIXED_1T],
           r.min[V_SEQ_2T] / r.min[V_FIXED_2T], r.median[V_SEQ_2T] / r.median[V_FIXED_2T],
           r.min[V_SEQ_2T] / r.min[V_SEQ_1T], r.median[V_SEQ_2T] / r.median[V_SEQ_1T]);
    return r;
}

void ecs_systems_bench(size_t n, int targets)
{
    dod_threadpool *p1 = NULL, *p2 = NULL;
    if (dod_threadpool_create(&p1, 1, NULL) || dod_threadpool_create(&p2, 2, NULL))
        bench_die("threadpool create");
    dod_executor one = dod_threadpool_executor(p1), two = dod_threadpool_executor(p2);
    printf("ecs_benchmark systems, n %zu: ns per entity of one frame, min and median of %d "
           "frames\n",
           n, FRAMES);
    for (int mixed = 0; mixed < 2; ++mixed)
        for (int n_systems = 2; n_systems <= 7; n_systems += 5) {
            scenario_result r = run_scenario(n, mixed, n_systems, &one, &two);
            if (n_systems != 7)
                continue;
            printf("  7 systems, 1 thread, fixed: %.2f - %.2f ns/entity (min - median); flecs "
                   "4.1 on this kind of VM: 15 - 27\n",
                   r.min[V_FIXED_1T], r.median[V_FIXED_1T]);
            if (!targets)
                continue;
            const char *setup = mixed ? "mixed" : "uniform";
            bench_target("x", r.min[V_FIXED_1T] / r.min[V_RAW], BENCH_AT_MOST, 1.15,
                         "7 systems %s, world fixed 1 thread / raw (min), n %zu", setup, n);
            bench_target("x", r.min[V_FIXED_2T] / r.min[V_FIXED_1T], BENCH_AT_MOST, 0.65,
                         "7 systems %s, world fixed 2 threads / 1 thread (min), n %zu", setup, n);
        }
    dod_threadpool_destroy(p2);
    dod_threadpool_destroy(p1);
}
