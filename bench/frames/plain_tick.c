/* bench_frames, the strategy tick by hand on plain arrays (examples/plain_tick.h), phase by
 * phase as world_tick.c times the world's: the update (the six systems), the copy into the
 * frame, the two index builds, the publish; then the workers' jobs on the frame just
 * published. */
#include <stdlib.h>
#include "bench.h"
#include "frames_bench.h"
#include "../../examples/plain_tick.h"

struct plain_tick_bench {
    plain_game game;
    plain_ring ring;
    dod_graph_scratch scratch; /* the path job's */
    float *strength, *morale;  /* the AI job's */
};

void plain_tick_bench_destroy(plain_tick_bench *b)
{
    if (!b)
        return;
    dod_graph_scratch_free(&b->scratch);
    free(b->strength);
    free(b->morale);
    plain_ring_destroy(&b->ring);
    plain_destroy(&b->game);
    free(b);
}

plain_tick_bench *plain_tick_bench_create(uint32_t side)
{
    plain_tick_bench *b = (plain_tick_bench *)calloc(1, sizeof *b);
    if (!b)
        return NULL;
    dod_graph_scratch_init(&b->scratch, NULL);
    int ok = plain_create(&b->game, side, side, 6 * side * side, side, POOL_THREADS) == DOD_OK &&
             plain_ring_create(&b->ring, &b->game, 3) == DOD_OK;
    b->strength = (float *)malloc(side * sizeof(float));
    b->morale = (float *)malloc(side * sizeof(float));
    ok = ok && b->strength && b->morale &&
         dod_graph_scratch_reserve(&b->scratch, map_cells(&b->game.map)) == DOD_OK;
    if (!ok) {
        plain_tick_bench_destroy(b);
        return NULL;
    }
    return b;
}

/* The main thread's share of tick t (plain_run, then plain_publish's steps one by one to time
 * them). */
static int timed_main(plain_tick_bench *b, uint64_t t, double *ms)
{
    double t0 = bench_now_ms();
    int ok = plain_run(&b->game, t) == DOD_OK;
    double t1 = bench_now_ms();
    dod_frame next = { 0 };
    if (!ok || dod_frames_begin(b->ring.frames, &next) != DOD_OK)
        return 0;
    plain_frame *f = (plain_frame *)next.data;
    plain_copy(&b->game, f);
    double t2 = bench_now_ms();
    ok = plain_build_indexes(&b->game, f) == DOD_OK;
    f->tick = t;
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
static int timed_jobs(plain_tick_bench *b, double *ms)
{
    dod_frame held = { 0 };
    if (dod_frames_acquire(b->ring.frames, &held) != DOD_OK)
        return 0;
    const plain_frame *f = (const plain_frame *)held.data;
    double t0 = bench_now_ms();
    int ok = plain_army_report(f, b->strength, b->morale) == DOD_OK;
    double t1 = bench_now_ms();
    for (uint32_t k = 0; k < ROUTES; ++k) {
        map_march order = plain_order_march(&b->game, f, f->tick * ROUTES + k);
        dod_graph_route route;
        ok &= map_route(&order, &b->scratch, &route) == DOD_OK;
    }
    double t2 = bench_now_ms();
    float hp;
    for (uint32_t k = 0; k < MUSTERS; ++k) {
        uint64_t cell = strategy_dice(f->tick * MUSTERS + k) % map_cells(&b->game.map);
        bench_sink += plain_muster_at(f, (uint32_t)cell, &hp);
    }
    double t3 = bench_now_ms();
    ms[PH_AI] = t1 - t0;
    ms[PH_PATH] = t2 - t1;
    ms[PH_UI] = t3 - t2;
    return (dod_frames_release(b->ring.frames, &held) == DOD_OK) & ok;
}

int plain_tick_timed(plain_tick_bench *b, uint64_t t, double *ms)
{
    return timed_main(b, t, ms) && timed_jobs(b, ms);
}

uint32_t plain_tick_routed(const plain_tick_bench *b)
{
    return b->game.routed.n;
}
