/* strategy_world.h: the world of examples/strategy_tick.c, in one place for the example, its
 * stress test (tests/test_tick_stress.c) and its benchmark (bench/frames): the regiments in
 * armies on the map of strategy_map.h, what a frame of them holds, and the three jobs workers
 * do on a frame.
 *
 * The regiments are a typed table. A frame is a copy of the table and two indexes rebuilt from
 * the copy: location -> regiments and army -> regiments. (examples/world_tick.h is the same
 * game with the regiments as world entities.) */
#ifndef STRATEGY_WORLD_H
#define STRATEGY_WORLD_H

#include "strategy_map.h"

/* One regiment. Group 0 (location, army) is what the indexes are built from; group 1 is what
 * the jobs read. */
#define REGIMENT(X)                                                                            \
    X(uint32_t, location, 0) X(uint32_t, army, 0) X(float, health, 1) X(float, mood, 1)
DOD_TABLE_TYPED(regiment, REGIMENT)

typedef struct world_size {
    uint32_t width, height, regiments, armies;
} world_size;

typedef struct world {
    world_size size;
    strategy_map map;
    dod_table regiments;     /* the live regiments: only the main thread touches them */
    dod_threadpool *pool;    /* the main thread's rebuilds run on it */
    dod_executor exec;
    dod_arena scratch;       /* the rebuilds' scratch: grows in the first frame, then reused */
} world;

/* What a frame holds: the regiments as of a tick and both indexes built from that copy. */
typedef struct world_frame {
    dod_table regiments;
    dod_csr by_location; /* cell -> the regiments standing there */
    dod_csr by_army;     /* army -> its regiments */
    uint64_t tick;       /* written last by the main thread */
} world_frame;

static inline uint32_t world_cells(const world *w)
{
    return map_cells(&w->map);
}

/* Each army stands together in its muster square (strategy_map.h). */
static inline dod_status world_spawn(world *w)
{
    const world_size *s = &w->size;
    uint32_t side = map_muster_side(&w->map, s->armies);
    dod_status st = dod_table_reserve(&w->regiments, s->regiments);
    for (uint32_t i = 0; st == DOD_OK && i < s->regiments; ++i) {
        uint32_t army = (uint32_t)((uint64_t)i * s->armies / s->regiments);
        uint64_t r = strategy_dice(i);
        regiment_row row = { map_muster_cell(&w->map, army, side, r), army,
                             (float)((r >> 16) % 1000) / 1000.0f,
                             (float)((r >> 32) % 1000) / 1000.0f };
        regiment_handle h;
        st = regiment_push(&w->regiments, &row, &h);
    }
    return st;
}

/* Release everything; a second call, or a call after a failed world_create, does nothing. */
static inline void world_destroy(world *w)
{
    dod_threadpool_destroy(w->pool);
    w->pool = NULL;
    dod_arena_free(&w->scratch);
    dod_table_free(&w->regiments);
    map_destroy(&w->map);
}

/* The map, the regiments, and a pool of pool_threads for the rebuilds. On failure everything
 * is released. */
static inline dod_status world_create(world *w, world_size size, uint32_t pool_threads)
{
    *w = (world){ .size = size };
    dod_arena_init(&w->scratch, 0, NULL);
    dod_status st = map_create(&w->map, size.width, size.height, size.regiments);
    if (st == DOD_OK)
        st = regiment_init(&w->regiments, NULL);
    if (st == DOD_OK)
        st = dod_threadpool_create(&w->pool, pool_threads, NULL);
    w->exec = dod_threadpool_executor(w->pool);
    if (st == DOD_OK)
        st = world_spawn(w);
    if (st != DOD_OK)
        world_destroy(w);
    return st;
}

/* One regiment in `every` steps to a neighbouring cell, a little tired by the march. */
static inline void world_march(world *w, uint64_t tick, uint32_t every)
{
    regiment_cols c = regiment_columns(&w->regiments);
    for (uint32_t i = 0; i < dod_table_count(&w->regiments); ++i) {
        uint64_t r = strategy_dice(tick * 0x9E3779B97F4A7C15ull + i);
        if (r % every != 0)
            continue;
        const dod_csr *next = &w->map.adjacency;
        uint32_t n = dod_csr_row_len(next, c.location[i]);
        c.location[i] = dod_csr_row_begin(next, c.location[i])[(r >> 32) % n];
        c.mood[i] = c.mood[i] > 0.01f ? c.mood[i] - 0.01f : 0.0f;
    }
}

/* location -> regiments and army -> regiments from the frame's own copy of the table, straight
 * into the frame, on the pool, with the scratch borrowed from the arena. */
static inline dod_status world_build_indexes(world *w, world_frame *f)
{
    regiment_cols c = regiment_columns(&f->regiments);
    dod_csr_desc d = { .n_rows = world_cells(w), .n_items = dod_table_count(&f->regiments),
                       .keys = c.location, .exec = &w->exec, .scratch = &w->scratch };
    dod_status st = dod_csr_build_desc(&f->by_location, &d);
    d.n_rows = w->size.armies;
    d.keys = c.army;
    return st != DOD_OK ? st : dod_csr_build_desc(&f->by_army, &d);
}

/* The main thread's share of a tick, into the frame it has begun: copy, rebuild, then the
 * tick number, last. */
static inline dod_status world_fill_frame(world *w, world_frame *f, uint64_t tick)
{
    dod_status st = dod_table_copy(&f->regiments, &w->regiments);
    if (st == DOD_OK)
        st = world_build_indexes(w, f);
    f->tick = tick;
    return st;
}

/* The frames: n_slots world_frames handed around by a dod_frames object. */
typedef struct world_ring {
    dod_frames *frames;
    world_frame slot[DOD_FRAME_MAX_SLOTS];
    uint32_t n_slots;
} world_ring;

/* Release everything; a second call, or a call after a failed world_ring_create, does nothing. */
static inline void world_ring_destroy(world_ring *r)
{
    dod_frames_destroy(r->frames);
    r->frames = NULL;
    for (uint32_t s = 0; s < r->n_slots; ++s) {
        dod_table_free(&r->slot[s].regiments);
        dod_csr_free(&r->slot[s].by_location);
        dod_csr_free(&r->slot[s].by_army);
    }
    r->n_slots = 0;
}

/* n_slots frames of the world (at most DOD_FRAME_MAX_SLOTS). Each slot is filled once here,
 * so that allocation and first-touch page faults happen before the first tick; from then on
 * a tick allocates nothing. On failure everything is released. */
static inline dod_status world_ring_create(world_ring *r, world *w, uint32_t n_slots)
{
    void *payload[DOD_FRAME_MAX_SLOTS];
    dod_status st = n_slots <= DOD_FRAME_MAX_SLOTS ? DOD_OK : DOD_E_RANGE;
    r->frames = NULL;
    r->n_slots = 0;
    for (; st == DOD_OK && r->n_slots < n_slots; ++r->n_slots) {
        world_frame *f = &r->slot[r->n_slots];
        dod_csr_init(&f->by_location, NULL);
        dod_csr_init(&f->by_army, NULL);
        st = regiment_init(&f->regiments, NULL);
        if (st == DOD_OK)
            st = world_fill_frame(w, f, 0);
        payload[r->n_slots] = f;
    }
    if (st == DOD_OK)
        st = dod_frames_create(&r->frames, n_slots, payload, NULL);
    if (st != DOD_OK)
        world_ring_destroy(r);
    return st;
}

/* ---- the jobs workers do on a frame they hold (read only) ---- */

/* AI: every army's strength (its total health) and morale (its mean mood), by one segmented
 * reduction each over army -> regiments. Both arrays hold size.armies floats. */
static inline dod_status world_army_report(const world_frame *f, float *strength, float *morale)
{
    regiment_cols c = regiment_columns(&f->regiments);
    uint32_t n = dod_table_count(&f->regiments);
    dod_reduce_out sums = { .sum = strength }, means = { .mean = morale };
    dod_status st = dod_reduce_rows(&f->by_army, c.health, sizeof(float), n, &sums, NULL);
    return st != DOD_OK ? st : dod_reduce_rows(&f->by_army, c.mood, sizeof(float), n, &means, NULL);
}

/* UI: how many regiments stand in `cell`, and their total health (the seed's query loop). */
static inline uint32_t world_muster(const world_frame *f, uint32_t cell, float *health)
{
    const float *h = regiment_columns(&f->regiments).health;
    *health = 0.0f;
    for (const uint32_t *it = dod_csr_row_begin(&f->by_location, cell);
         it != dod_csr_row_end(&f->by_location, cell); ++it)
        *health += h[*it];
    return dod_csr_row_len(&f->by_location, cell);
}

/* Path: a march for an army, from where its first regiment stands to a cell up to 48 steps
 * away each way, both picked by `seed`. */
static inline map_march world_order_march(const world *w, const world_frame *f, uint64_t seed)
{
    uint32_t army = (uint32_t)(strategy_dice(seed) % w->size.armies);
    uint32_t first = *dod_csr_row_begin(&f->by_army, army); /* armies are never empty */
    uint32_t from = regiment_columns(&f->regiments).location[first];
    return map_order_march(&w->map, &f->by_location, from, seed + 1);
}

#endif /* STRATEGY_WORLD_H */
