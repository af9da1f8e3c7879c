/* bench_frames, the strategy tick on the world (examples/world_tick.h), phase by phase: the
 * systems on the schedule, the copy of the world into the frame, the two index builds, the
 * publish; then the workers' jobs on the frame just published, as the table's tick runs them.
 * The steps of campaign_publish, one by one, for tick_form_timed. */
#include <stdlib.h>
#include "bench.h"
#include "frames_bench.h"
#include "../../examples/world_tick.h"

struct world_tick_bench {
    campaign game;
    campaign_ring ring;
    campaign_frame held; /* the frame the jobs read */
    army_fields fields;  /* the AI job's */
    tick_form form;
};

static int step_update(void *self, uint64_t t)
{
    world_tick_bench *b = (world_tick_bench *)self;
    return campaign_run(&b->game, t) == DOD_OK;
}

static int step_copy(void *self, dod_frame *next)
{
    world_tick_bench *b = (world_tick_bench *)self;
    return campaign_copy(&b->game, dod_frame_world(next)) == DOD_OK;
}

static int step_build(void *self, dod_frame *next, uint64_t t)
{
    world_tick_bench *b = (world_tick_bench *)self;
    campaign_slot *x = &b->ring.slot[next->slot];
    int ok = campaign_build_indexes(&b->game, dod_frame_world(next), x) == DOD_OK;
    x->tick = t;
    return ok;
}

static uint64_t step_open(void *self, const dod_frame *held)
{
    world_tick_bench *b = (world_tick_bench *)self;
    b->held = campaign_frame_of(&b->game, &b->ring, held);
    return b->held.tick;
}

static int step_report(void *self, float *strength, float *morale)
{
    world_tick_bench *b = (world_tick_bench *)self;
    return campaign_army_report(&b->held, &b->fields, strength, morale) == DOD_OK;
}

static map_march step_order(void *self, uint64_t seed)
{
    world_tick_bench *b = (world_tick_bench *)self;
    return campaign_order_march(&b->game, &b->held, seed);
}

static uint32_t step_muster(void *self, uint32_t cell, float *hp)
{
    world_tick_bench *b = (world_tick_bench *)self;
    return campaign_muster_at(&b->held, cell, hp);
}

static const tick_steps world_steps = { step_update, step_copy,  step_build, step_open,
                                        step_report, step_order, step_muster };

void world_tick_bench_destroy(world_tick_bench *b)
{
    if (!b)
        return;
    tick_form_free(&b->form);
    army_fields_free(&b->fields);
    campaign_ring_destroy(&b->ring);
    campaign_destroy(&b->game);
    free(b);
}

world_tick_bench *world_tick_bench_create(uint32_t side)
{
    world_tick_bench *b = (world_tick_bench *)calloc(1, sizeof *b);
    if (!b)
        return NULL;
    int ok = campaign_create(&b->game, side, side, 6 * side * side, side, POOL_THREADS) == DOD_OK &&
             campaign_ring_create(&b->ring, &b->game, 3) == DOD_OK &&
             army_fields_reserve(&b->fields, b->game.regiments) == DOD_OK &&
             tick_form_init(&b->form, &world_steps, b, b->ring.frames, map_cells(&b->game.map),
                            side);
    if (!ok) {
        world_tick_bench_destroy(b);
        return NULL;
    }
    return b;
}

int world_tick_timed(world_tick_bench *b, uint64_t t, double *ms)
{
    return tick_form_timed(&b->form, t, ms);
}

uint32_t world_tick_routed(const world_tick_bench *b)
{
    return war_routed_count(b->game.live);
}

size_t world_tick_bytes(const world_tick_bench *b)
{
    return dod_world_bytes(b->game.live);
}
