/* strategy_tick: a strategy game's loop, the rendering left out.
 *
 * The main thread owns the live world and changes it every tick (regiments march). Three
 * workers want to read the world all the time: the AI sizes up the armies, pathfinding plans
 * routes, the UI shows who stands where. They must never see a half-moved world, and the main
 * thread must never wait for them. So each tick the main thread makes a frame, a copy of the
 * regiments with the two indexes the workers need rebuilt from that copy, and publishes it; a
 * worker reads the latest published frame as long as it likes while the next one is made.
 *
 * The frame protocol (dod/frame.h), and why each step is there:
 *   begin    the main thread gets a slot that no worker holds and that is not the latest, so
 *            it may overwrite it (the slot still has an older frame's memory: a steady tick
 *            allocates nothing);
 *   fill     copy the table in, rebuild the indexes straight into the slot on the pool;
 *   publish  one atomic exchange makes the slot the latest: every write made before it is
 *            visible to whoever acquires it, so no worker ever sees half a frame;
 *   acquire  a worker pins the latest frame: one atomic add, no lock, no waiting;
 *   release  the worker lets go; only then may begin hand that slot out again.
 * A worker holds one frame at a time, so with a slot per worker plus two (the latest and the
 * one being written) begin always finds a free slot: the main thread never waits either.
 *
 * The world itself (the map, the regiments, what a frame holds, the workers' queries) is in
 * strategy_world.h. */
#define _POSIX_C_SOURCE 200809L
#include "strategy_world.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

enum { WORKERS = 3, POOL_THREADS = 2, TICKS = 30, TICK_NS = 16666667 /* 60 ticks a second */ };

typedef struct game {
    world world;
    world_ring ring;
    regiment_handle general; /* the player's own regiment, followed by the UI */
    atomic_int finished;     /* set after the last publish */
} game;

typedef struct worker {
    game *game;
    pthread_t thread_id;
    void (*job)(struct worker *, const world_frame *);
    const char *name;
    dod_graph_scratch scratch; /* pathfinding's */
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

static void ai_job(worker *wk, const world_frame *f)
{
    wk->failed |= world_army_report(f, wk->strength, wk->morale) != DOD_OK;
    uint32_t best = 0;
    for (uint32_t a = 1; a < wk->game->world.size.armies; ++a)
        best = wk->strength[a] > wk->strength[best] ? a : best;
    snprintf(wk->report, sizeof wk->report, "army %u is the strongest (strength %.0f, morale %.2f)",
             best, (double)wk->strength[best], (double)wk->morale[best]);
}

static void path_job(worker *wk, const world_frame *f)
{
    const world *w = &wk->game->world;
    map_march order = world_order_march(w, f, f->tick);
    dod_graph_route route;
    wk->failed |= map_route(&order, &wk->scratch, &route) != DOD_OK;
    char outcome[48] = "no way around the crowds";
    if (wk->scratch.n_order > 0)
        snprintf(outcome, sizeof outcome, "%u steps costing %.1f", wk->scratch.n_order - 1,
                 (double)route.cost);
    uint32_t width = w->size.width;
    snprintf(wk->report, sizeof wk->report, "a march from (%u, %u) to (%u, %u): %s",
             order.from % width, order.from / width, order.to % width, order.to / width, outcome);
}

static void ui_job(worker *wk, const world_frame *f)
{
    /* the frame's table is a copy, and a copy keeps the live table's handles */
    uint32_t row;
    if (regiment_find(&f->regiments, wk->game->general, &row) != DOD_OK) {
        wk->failed = 1;
        return;
    }
    uint32_t cell = regiment_columns(&f->regiments).location[row];
    uint32_t width = wk->game->world.size.width;
    float health;
    uint32_t n = world_muster(f, cell, &health);
    snprintf(wk->report, sizeof wk->report,
             "the general stands at (%u, %u) with %u regiments, total health %.1f",
             cell % width, cell / width, n, (double)health);
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
        wk->job(wk, (const world_frame *)held.data);
        seen = held.seq;
        ++wk->frames;
        wk->failed |= dod_frames_release(frames, &held) != DOD_OK;
    }
}

/* ---- the main thread ---- */

static dod_status tick(game *g, uint64_t t)
{
    world_march(&g->world, t, 16);
    dod_frame next = { 0 };
    dod_status st = dod_frames_begin(g->ring.frames, &next);
    if (st != DOD_OK)
        return st;
    st = world_fill_frame(&g->world, (world_frame *)next.data, next.seq);
    if (st != DOD_OK) {
        dod_frames_cancel(g->ring.frames, &next);
        return st;
    }
    return dod_frames_publish(g->ring.frames, &next);
}

static void free_worker(worker *w)
{
    dod_graph_scratch_free(&w->scratch);
    free(w->strength);
    free(w->morale);
}

/* Give the worker its memory and its thread; on failure it holds nothing. */
static dod_status start_worker(worker *w)
{
    uint32_t armies = w->game->world.size.armies;
    dod_graph_scratch_init(&w->scratch, NULL);
    w->strength = (float *)calloc(armies, sizeof(float));
    w->morale = (float *)calloc(armies, sizeof(float));
    dod_status st = w->strength && w->morale
                        ? dod_graph_scratch_reserve(&w->scratch, world_cells(&w->game->world))
                        : DOD_E_NOMEM;
    if (st == DOD_OK && pthread_create(&w->thread_id, NULL, worker_main, w) != 0)
        st = DOD_E_SYSTEM;
    if (st != DOD_OK)
        free_worker(w);
    return st;
}

static dod_status setup(game *g)
{
    const world_size size = { 128, 128, 6 * 128 * 128, 64 };
    dod_status st = world_create(&g->world, size, POOL_THREADS);
    if (st != DOD_OK)
        return st;
    regiment_row general = { map_cell(&g->world.map, 64, 64), 0, 1.0f, 1.0f };
    st = regiment_push(&g->world.regiments, &general, &g->general);
    if (st == DOD_OK)
        st = world_ring_create(&g->ring, &g->world, WORKERS + 2);
    atomic_init(&g->finished, 0);
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
    printf("strategy_tick: %d ticks of a %u x %u map, %u regiments in %u armies\n", TICKS,
           g.world.size.width, g.world.size.height, dod_table_count(&g.world.regiments),
           g.world.size.armies);
    for (uint32_t i = 0; i < started; ++i) {
        pthread_join(wk[i].thread_id, NULL);
        printf("  %-4s read %2ld frames; the last: %s\n", wk[i].name, wk[i].frames, wk[i].report);
        failed |= wk[i].failed;
        free_worker(&wk[i]);
    }
    if (failed)
        fprintf(stderr, "strategy_tick: a dod call failed (the main thread's: %s)\n",
                dod_status_str(st));
    world_ring_destroy(&g.ring);
    world_destroy(&g.world);
    return failed;
}
