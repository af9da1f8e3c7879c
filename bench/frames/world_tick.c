/* bench_frames, the strategy tick on the world (examples/world_tick.h), phase by phase: the
 * systems on the schedule, the copy of the world into the frame, the two index builds, the
 * publish; then the workers' jobs on the frame just published, as the table's tick runs them. */
#include <stdlib.h>
#include "bench.h"
#include "frames_bench.h"
#include "../../examples/world_tick.h"

struct world_tick_bench {
    campaign game;
    campaign_ring ring;
    dod_graph_scratch scratch; /* the path job's */
    army_fields fields;        /* the AI job's */
    float *strength, *morale;
};

void world_tick_bench_destroy(world_tick_bench *b)
{
    if (!b)
        return;
    dod_graph_scratch_free(&b->scratch);
    army_fields_free(&b->fields);
    free(b->strength);
    free(b->morale);
    campaign_ring_destroy(&b->ring);
    campaign_destroy(&b->game);
    free(b);
}

world_tick_bench *world_tick_bench_create(uint32_t side)
{
    world_tick_bench *b = (world_tick_bench *)calloc(1, sizeof *b);
    if (!b)
        return NULL;
    dod_graph_scratch_init(&b->scratch, NULL);
    int ok = campaign_create(&b->game, side, side, 6 * side * side, side, POOL_THREADS) == DOD_OK &&
             campaign_ring_create(&b->ring, &b->game, 3) == DOD_OK;
    b->strength = (float *)malloc(side * sizeof(float));
    b->morale = (float *)malloc(side * sizeof(float));
    ok = ok && b->strength && b->morale &&
         army_fields_reserve(&b->fields, b->game.regiments) == DOD_OK &&
         dod_graph_scratch_reserve(&b->scratch, map_cells(&b->game.map)) == DOD_OK;
    if (!ok) {
        world_tick_bench_destroy(b);
        return NULL;
    }
    return b;
}

/* The main thread's share of tick t (campaign_run, then campaign_publish's steps one by one to
 * time them). */
static int timed_main(world_tick_bench *b, uint64_t t, double *ms)
{
    double t0 = bench_now_ms();
    int ok = campaign_run(&b->game, t) == DOD_OK;
    double t1 = bench_now_ms();
    dod_frame next = { 0 };
    if (!ok || dod_frames_begin(b->ring.frames, &next) != DOD_OK)
        return 0;
    campaign_slot *x = &b->ring.slot[next.slot];
    ok = campaign_copy(&b->game, dod_frame_world(&next)) == DOD_OK;
    double t2 = bench_now_ms();
    ok = ok && campaign_build_indexes(&b->game, dod_frame_world(&next), x) == DOD_OK;
    x->tick = t;
    double t3 = bench_now_ms();
    if (ok)
        ok = dod_frames_publish(b->ring.frames, &next) == DOD_OK;
    else
        dod_frames_cancel(b->ring.frames, &next);
    double t4 = bench_now_ms();
    ms[PH_UPDATE] = t1 - t0;
    ms[PH_COPY] = t2 - t1;
    ms[PH_REBUILD] = t3 - t2;
    ms[PH_PUBLISH] = (t4 - t3) * 1e3;
    return ok;
}

/* The workers' jobs on the latest frame, one after another. */
static int timed_jobs(world_tick_bench *b, double *ms)
{
    dod_frame held = { 0 };
    if (dod_frames_acquire(b->ring.frames, &held) != DOD_OK)
        return 0;
    campaign_frame f = campaign_frame_of(&b->game, &b->ring, &held);
    double t0 = bench_now_ms();
    int ok = campaign_army_report(&f, &b->fields, b->strength, b->morale) == DOD_OK;
    double t1 = bench_now_ms();
    for (uint32_t k = 0; k < ROUTES; ++k) {
        map_march order = campaign_order_march(&b->game, &f, f.tick * ROUTES + k);
        dod_graph_route route;
        ok &= map_route(&order, &b->scratch, &route) == DOD_OK;
    }
    double t2 = bench_now_ms();
    float hp;
    for (uint32_t k = 0; k < MUSTERS; ++k) {
        uint64_t cell = strategy_dice(f.tick * MUSTERS + k) % map_cells(&b->game.map);
        bench_sink += campaign_muster_at(&f, (uint32_t)cell, &hp);
    }
    double t3 = bench_now_ms();
    ms[PH_AI] = t1 - t0;
    ms[PH_PATH] = t2 - t1;
    ms[PH_UI] = t3 - t2;
    return (dod_frames_release(b->ring.frames, &held) == DOD_OK) & ok;
}

int world_tick_timed(world_tick_bench *b, uint64_t t, double *ms)
{
    return timed_main(b, t, ms) && timed_jobs(b, ms);
}

uint32_t world_tick_routed(const world_tick_bench *b)
{
    return war_routed_count(b->game.live);
}

size_t world_tick_bytes(const world_tick_bench *b)
{
    return dod_world_bytes(b->game.live);
}
