/* bench_frames: one timer for every form of the strategy tick (frames_bench.h). */
#include <stdlib.h>
#include "bench.h"
#include "frames_bench.h"

int tick_form_init(tick_form *f, const tick_steps *steps, void *self, dod_frames *frames,
                   uint32_t cells, uint32_t armies)
{
    f->steps = steps;
    f->self = self;
    f->frames = frames;
    f->cells = cells;
    dod_graph_scratch_init(&f->scratch, NULL);
    f->strength = (float *)malloc(armies * sizeof(float));
    f->morale = (float *)malloc(armies * sizeof(float));
    return f->strength && f->morale && dod_graph_scratch_reserve(&f->scratch, cells) == DOD_OK;
}

void tick_form_free(tick_form *f)
{
    if (!f->steps)
        return;
    dod_graph_scratch_free(&f->scratch);
    free(f->strength);
    free(f->morale);
}

/* The main thread's share of tick t. */
static int timed_main(tick_form *f, uint64_t t, double *ms)
{
    const tick_steps *s = f->steps;
    double t0 = bench_now_ms();
    int ok = s->update(f->self, t);
    double t1 = bench_now_ms();
    dod_frame next = { 0 };
    if (!ok || dod_frames_begin(f->frames, &next) != DOD_OK)
        return 0;
    ok = s->copy(f->self, &next);
    double t2 = bench_now_ms();
    ok = ok && s->build(f->self, &next, t);
    double t3 = bench_now_ms();
    if (ok)
        ok = dod_frames_publish(f->frames, &next) == DOD_OK;
    else
        dod_frames_cancel(f->frames, &next);
    double t4 = bench_now_ms();
    ms[PH_UPDATE] = t1 - t0;
    ms[PH_COPY] = t2 - t1;
    ms[PH_REBUILD] = t3 - t2;
    ms[PH_PUBLISH] = (t4 - t3) * 1e3;
    return ok;
}

/* The workers' jobs on the latest frame, one after another. */
static int timed_jobs(tick_form *f, double *ms)
{
    const tick_steps *s = f->steps;
    dod_frame held = { 0 };
    if (dod_frames_acquire(f->frames, &held) != DOD_OK)
        return 0;
    uint64_t tick = s->open(f->self, &held);
    double t0 = bench_now_ms();
    int ok = s->report(f->self, f->strength, f->morale);
    double t1 = bench_now_ms();
    for (uint32_t k = 0; k < ROUTES; ++k) {
        map_march order = s->order(f->self, tick * ROUTES + k);
        dod_graph_route route;
        ok &= map_route(&order, &f->scratch, &route) == DOD_OK;
    }
    double t2 = bench_now_ms();
    float hp, total_hp = 0.0f; /* kept, so no form's health sums are optimised away */
    for (uint32_t k = 0; k < MUSTERS; ++k) {
        uint64_t cell = strategy_dice(tick * MUSTERS + k) % f->cells;
        bench_sink += s->muster(f->self, (uint32_t)cell, &hp);
        total_hp += hp;
    }
    double t3 = bench_now_ms();
    bench_sink += (uint64_t)total_hp;
    ms[PH_AI] = t1 - t0;
    ms[PH_PATH] = t2 - t1;
    ms[PH_UI] = t3 - t2;
    return (dod_frames_release(f->frames, &held) == DOD_OK) & ok;
}

int tick_form_timed(tick_form *f, uint64_t t, double *ms)
{
    return timed_main(f, t, ms) && timed_jobs(f, ms);
}
