/* world_tick: a strategy game's loop on the world, the rendering left out.
 *
 * The main thread owns the live world and changes it every tick: regiments march, tire, rout,
 * fall and are replaced (world_tick.h has the game: its entity types, its six systems, what a
 * frame holds, the workers' queries). Three workers want to read the world all the time: the
 * AI sizes up the armies, pathfinding plans routes, the UI follows the general. They must never
 * see a half-changed world, and the main thread must never wait for them. So a tick is:
 *   systems  the schedule runs the six systems on the pool, phase by phase, and applies the
 *            structural changes (routs, reinforcements, deaths) each phase recorded;
 *   begin    the main thread gets a frame slot that no worker holds and that is not the latest,
 *            so it may overwrite it (the slot keeps an older frame's memory: a steady tick
 *            allocates nothing);
 *   fill     copy the world into the slot's world (an exact copy: every handle of the live
 *            world resolves in it), rebuild location -> regiments and army -> regiments from
 *            the copy on the pool;
 *   publish  one atomic exchange makes the slot the latest: every write made before it is
 *            visible to whoever acquires it, so no worker ever sees half a frame.
 * A worker acquires the latest frame (one atomic add, no lock, no waiting), reads it through a
 * const dod_world * as long as it likes while the next ticks run, and releases it; only then
 * may begin hand that slot out again. A worker holds one frame at a time, so with a slot per
 * worker plus two (the latest and the one being written) begin always finds a free slot. */
#define _POSIX_C_SOURCE 200809L
#include "world_tick.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

enum { WORKERS = 3, POOL_THREADS = 2, TICKS = 30, TICK_NS = 16666667 /* 60 ticks a second */ };

typedef struct game {
    campaign campaign;
    campaign_ring ring;
    dod_entity general;  /* the player's own regiment, followed by the UI */
    atomic_int finished; /* set after the last publish */
} game;

typedef struct worker {
    game *game;
    pthread_t thread_id;
    void (*job)(struct worker *, campaign_frame *);
    const char *name;
    dod_graph_scratch scratch; /* pathfinding's */
    army_fields fields;        /* the AI's: health and mood in army order */
    float *strength, *morale;  /* the AI's, one per army */
    char report[128];          /* what it made of the last frame it read */
    long frames;
    int failed;
} worker;

static void nap(long ns)
{
    struct timespec t = { 0, ns };
    nanosleep(&t, NULL);
}

/* ---- the workers: each job reads the frame it holds, nothing else that changes ---- */

static void ai_job(worker *wk, campaign_frame *f)
{
    wk->failed |= campaign_army_report(f, &wk->fields, wk->strength, wk->morale) != DOD_OK;
    uint32_t best = 0;
    for (uint32_t a = 1; a < wk->game->campaign.armies; ++a)
        best = wk->strength[a] > wk->strength[best] ? a : best;
    snprintf(wk->report, sizeof wk->report, "army %u is the strongest (strength %.0f, morale %.2f)",
             best, (double)wk->strength[best], (double)wk->morale[best]);
}

static void path_job(worker *wk, campaign_frame *f)
{
    const campaign *g = &wk->game->campaign;
    map_march order = campaign_order_march(g, f, f->tick);
    dod_graph_route route;
    wk->failed |= map_route(&order, &wk->scratch, &route) != DOD_OK;
    char outcome[48] = "no way around the crowds";
    if (wk->scratch.n_order > 0)
        snprintf(outcome, sizeof outcome, "%u steps costing %.1f", wk->scratch.n_order - 1,
                 (double)route.cost);
    uint32_t width = g->map.width;
    snprintf(wk->report, sizeof wk->report, "a march from (%u, %u) to (%u, %u): %s",
             order.from % width, order.from / width, order.to % width, order.to / width, outcome);
}

static void ui_job(worker *wk, campaign_frame *f)
{
    /* The frame's world is a copy, and a copy resolves the live world's handles: the general's
     * handle finds it in the frame, or finds nothing once it has fallen. */
    const dod_world *w = f->world;
    const location *at = war_get_location(w, wk->game->general);
    if (!at) {
        snprintf(wk->report, sizeof wk->report, "the general has fallen");
        return;
    }
    uint32_t width = wk->game->campaign.map.width;
    float hp;
    uint32_t n = campaign_muster_at(f, at->cell, &hp);
    snprintf(wk->report, sizeof wk->report,
             "the general stands at (%u, %u)%s with %u regiments, total health %.1f",
             at->cell % width, at->cell / width, war_get_speed(w, wk->game->general) ? "" : ", routed,",
             n, (double)hp);
}

static void *worker_main(void *arg)
{
    worker *wk = (worker *)arg;
    dod_frames *frames = wk->game->ring.frames;
    uint64_t seen = 0;
    for (;;) {
        /* read `finished` before looking for news: a frame published before it was set is seen */
        int finished = atomic_load(&wk->game->finished);
        if (dod_frames_latest_seq(frames) <= seen) { /* nothing new (yet) */
            if (finished)
                return NULL;
            nap(100000);
            continue;
        }
        dod_frame held = { 0 };
        if (dod_frames_acquire(frames, &held) != DOD_OK) {
            wk->failed = 1;
            return NULL;
        }
        campaign_frame f = campaign_frame_of(&wk->game->campaign, &wk->game->ring, &held);
        wk->job(wk, &f);
        seen = held.seq;
        ++wk->frames;
        wk->failed |= dod_frames_release(frames, &held) != DOD_OK;
    }
}

/* ---- the main thread ---- */

static dod_status tick(game *g, uint64_t t)
{
    dod_status st = campaign_run(&g->campaign, t);
    return st != DOD_OK ? st : campaign_publish(&g->campaign, &g->ring, t);
}

static void free_worker(worker *w)
{
    dod_graph_scratch_free(&w->scratch);
    army_fields_free(&w->fields);
    free(w->strength);
    free(w->morale);
}

/* Give the worker its memory and its thread; on failure it holds nothing. */
static dod_status start_worker(worker *w)
{
    const campaign *g = &w->game->campaign;
    dod_graph_scratch_init(&w->scratch, NULL);
    w->strength = (float *)calloc(g->armies, sizeof(float));
    w->morale = (float *)calloc(g->armies, sizeof(float));
    dod_status st = w->strength && w->morale ? army_fields_reserve(&w->fields, g->regiments)
                                             : DOD_E_NOMEM;
    if (st == DOD_OK)
        st = dod_graph_scratch_reserve(&w->scratch, map_cells(&g->map));
    if (st == DOD_OK && pthread_create(&w->thread_id, NULL, worker_main, w) != 0)
        st = DOD_E_SYSTEM;
    if (st != DOD_OK)
        free_worker(w);
    return st;
}

static dod_status setup(game *g)
{
    atomic_init(&g->finished, 0);
    dod_status st = campaign_create(&g->campaign, 128, 128, 6 * 128 * 128, 64, POOL_THREADS);
    war_marching_cols first;
    if (st == DOD_OK && war_marching_block(g->campaign.live, 0, &first)) {
        g->general = first.entities[0]; /* the first regiment of army 0, in high spirits */
        war_get_mood(g->campaign.live, g->general)->value = 1.0f;
    }
    if (st == DOD_OK)
        st = campaign_ring_create(&g->ring, &g->campaign, WORKERS + 2);
    return st;
}

int main(void)
{
    static game g; /* static: zeroed, and its frame ring is too big for some stacks */
    dod_status st = setup(&g);
    worker wk[WORKERS] = { { .game = &g, .job = ai_job, .name = "AI" },
                           { .game = &g, .job = path_job, .name = "path" },
                           { .game = &g, .job = ui_job, .name = "UI" } };
    uint32_t started = 0;
    for (uint32_t i = 0; st == DOD_OK && i < WORKERS; ++i)
        if ((st = start_worker(&wk[i])) == DOD_OK)
            started = i + 1;
    for (uint64_t t = 1; st == DOD_OK && t <= TICKS; ++t) {
        st = tick(&g, t);
        nap(TICK_NS); /* the rest of the frame: input, sound, rendering */
    }
    atomic_store(&g.finished, 1); /* the workers finish the latest frame, then leave */
    int failed = st != DOD_OK;
    const dod_world *live = g.campaign.live;
    printf("world_tick: %d ticks of a %u x %u map, %u regiments in %u armies (%u marching, %u "
           "routed)\n", TICKS, g.campaign.map.width, g.campaign.map.height, g.campaign.regiments,
           g.campaign.armies, war_marching_count(live), war_routed_count(live));
    for (uint32_t i = 0; i < started; ++i) {
        pthread_join(wk[i].thread_id, NULL);
        printf("  %-4s read %2ld frames; the last: %s\n", wk[i].name, wk[i].frames, wk[i].report);
        failed |= wk[i].failed;
        free_worker(&wk[i]);
    }
    if (failed)
        fprintf(stderr, "world_tick: a dod call failed (the main thread's: %s)\n",
                dod_status_str(st));
    campaign_ring_destroy(&g.ring);
    campaign_destroy(&g.campaign);
    return failed;
}
