/* bench_frames, the strategy tick by hand on plain arrays (examples/plain_tick.h), phase by
 * phase as world_tick.c times the world's: the update (the six systems), the copy into the
 * frame, the two index builds, the publish; then the workers' jobs on the frame just
 * published. The steps of plain_publish, one by one, for tick_form_timed. */
#include <stdlib.h>
#include "bench.h"
#include "frames_bench.h"
#include "../../examples/plain_tick.h"

struct plain_tick_bench {
    plain_game game;
    plain_ring ring;
    const plain_frame *held; /* the frame the jobs read */
    tick_form form;
};

static int step_update(void *self, uint64_t t)
{
    plain_tick_bench *b = (plain_tick_bench *)self;
    return plain_run(&b->game, t) == DOD_OK;
}

static int step_copy(void *self, dod_frame *next)
{
    plain_tick_bench *b = (plain_tick_bench *)self;
    plain_copy(&b->game, (plain_frame *)next->data);
    return 1;
}

static int step_build(void *self, dod_frame *next, uint64_t t)
{
    plain_tick_bench *b = (plain_tick_bench *)self;
    plain_frame *f = (plain_frame *)next->data;
    int ok = plain_build_indexes(&b->game, f) == DOD_OK;
    f->tick = t;
    return ok;
}

static uint64_t step_open(void *self, const dod_frame *held)
{
    plain_tick_bench *b = (plain_tick_bench *)self;
    b->held = (const plain_frame *)held->data;
    return b->held->tick;
}

static int step_report(void *self, float *strength, float *morale)
{
    const plain_tick_bench *b = (const plain_tick_bench *)self;
    return plain_army_report(b->held, strength, morale) == DOD_OK;
}

static map_march step_order(void *self, uint64_t seed)
{
    const plain_tick_bench *b = (const plain_tick_bench *)self;
    return plain_order_march(&b->game, b->held, seed);
}

static uint32_t step_muster(void *self, uint32_t cell, float *hp)
{
    const plain_tick_bench *b = (const plain_tick_bench *)self;
    return plain_muster_at(b->held, cell, hp);
}

static const tick_steps plain_steps = { step_update, step_copy,  step_build, step_open,
                                        step_report, step_order, step_muster };

void plain_tick_bench_destroy(plain_tick_bench *b)
{
    if (!b)
        return;
    tick_form_free(&b->form);
    plain_ring_destroy(&b->ring);
    plain_destroy(&b->game);
    free(b);
}

plain_tick_bench *plain_tick_bench_create(uint32_t side)
{
    plain_tick_bench *b = (plain_tick_bench *)calloc(1, sizeof *b);
    if (!b)
        return NULL;
    int ok = plain_create(&b->game, side, side, 6 * side * side, side, POOL_THREADS) == DOD_OK &&
             plain_ring_create(&b->ring, &b->game, 3) == DOD_OK &&
             tick_form_init(&b->form, &plain_steps, b, b->ring.frames, map_cells(&b->game.map),
                            side);
    if (!ok) {
        plain_tick_bench_destroy(b);
        return NULL;
    }
    return b;
}

int plain_tick_timed(plain_tick_bench *b, uint64_t t, double *ms)
{
    return tick_form_timed(&b->form, t, ms);
}

uint32_t plain_tick_routed(const plain_tick_bench *b)
{
    return b->game.routed.n;
}
