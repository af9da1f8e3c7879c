/* world_tick.h: the game of examples/world_tick.c, in one place for the example, its stress
 * test (tests/test_world_tick_stress.c) and its benchmark (bench/frames): the regiments as
 * entities of a world on the map of strategy_map.h, the systems of a tick, what a frame holds,
 * and the three jobs workers do on a frame.
 *
 * A regiment is an entity of one of two archetypes, declared once: marching {location, army,
 * health, mood, speed}, or routed, the same without speed (a routed regiment does not march).
 * A tick runs five systems on a schedule, which groups them into two phases by what they write
 * and read (the lists below):
 *   march, morale, losses  at once, one pass over each task's rows running them all: a
 *              marching regiment steps to a neighbouring cell with the chance its speed gives,
 *              and its mood wears down; one whose mood broke routs (morale records its move to
 *              routed); a routed one is cut down as it flees (its health)
 *   reinforce, deaths  at once: for each routed regiment cut down to nothing, its army sends a
 *              fresh one (a spawn); the regiments cut down to nothing are gone (a despawn)
 * Each phase's commands are applied at its end, when no system reads the world: the routs,
 * then the recruits, then the deaths. The world comes out the same, byte for
 * byte, on any number of threads. A frame is a copy of the world and two relation indexes
 * built from the copy: location -> regiments and army -> regiments. */
#ifndef WORLD_TICK_H
#define WORLD_TICK_H

#include "strategy_map.h"

/* ---- the regiments, declared once ---- */
typedef struct location { uint32_t cell; } location;
typedef struct army { uint32_t id; } army;
typedef struct health { float hp; } health;   /* 0 or less: the regiment is gone */
typedef struct mood { float value; } mood;     /* under 0.25 a marching regiment routs */
typedef struct speed { float chance; } speed;  /* of a step to a neighbouring cell, a tick */

#define WAR_COMPONENTS(C) C(location) C(army) C(health) C(mood) C(speed)
#define ROUTED(X) X(location) X(army) X(health) X(mood)
#define MARCHING(X) ROUTED(X) X(speed)
/* Capacities 0 here; the game sets them from its size at run time (campaign_create). */
#define WAR_ARCHETYPES(A) A(marching, MARCHING, 0) A(routed, ROUTED, 0)
DOD_WORLD(war, WAR_COMPONENTS, WAR_ARCHETYPES)

/* What each system writes (W), reads (R), and what its regiments must not have (X): the
 * schedule learns from these which systems may run at once. DOD_QUERY_SYSTEM declares each
 * system's typed query and its typed system from its one list. */
#define MARCH(W, R, X) W(location) R(speed)
#define MORALE(W, R, X) W(mood) R(speed)
#define LOSSES(W, R, X) W(health) X(speed)
#define REINFORCE(W, R, X) R(health) R(army) X(speed)
#define DEATHS(W, R, X) R(health) X(speed)
#define PLACED(W, R, X) R(location) R(army) /* every regiment: what the indexes cover */
DOD_QUERY_SYSTEM(war, march, MARCH)
DOD_QUERY_SYSTEM(war, morale, MORALE)
DOD_QUERY_SYSTEM(war, losses, LOSSES)
DOD_QUERY_SYSTEM(war, reinforce, REINFORCE)
DOD_QUERY_SYSTEM(war, deaths, DEATHS)
DOD_QUERY(war, placed, PLACED)

typedef struct campaign {
    strategy_map map;
    uint32_t armies, regiments; /* each fallen regiment is replaced: always this many */
    war_config config;          /* the archetypes and their capacities, for every world */
    dod_world *live;            /* the regiments now: only the main thread touches them */
    dod_schedule *schedule;     /* the tick's systems */
    dod_query placed;
    dod_threadpool *pool;       /* systems and index builds run on it (NULL: this thread) */
    dod_executor exec;
    dod_arena scratch;          /* the index builds' scratch: grows in the first frame */
    uint64_t tick;              /* the tick the systems run: their dice read it */
} campaign;

/* A regiment's dice for this tick: its handle less the world's tag (which counts the worlds
 * the process made before), so the same game rolls the same in any process and any order. */
static inline uint64_t campaign_dice(const campaign *g, dod_entity e, uint64_t salt)
{
    return strategy_dice((e.bits & 0xFFFFFFFFFFFFull) * 0x9E3779B97F4A7C15ull + g->tick * 8 + salt);
}

/* A fresh regiment of army a, in its muster square, r picking the rest. */
static inline war_marching_row campaign_recruit(const campaign *g, uint32_t a, uint64_t r)
{
    uint32_t side = map_muster_side(&g->map, g->armies);
    war_marching_row row = { { map_muster_cell(&g->map, a, side, r) }, { a },
                             { 0.25f + (float)((r >> 16) % 750) / 1000.0f },
                             { 0.25f + (float)((r >> 32) % 750) / 1000.0f },
                             { 0.03f + (float)((r >> 48) % 70) / 1000.0f } };
    return row;
}

/* ---- the systems: each is called with one task's rows, on any thread ---- */

/* How the march reads the map ahead: the cells' offsets MARCH_AHEAD rows ahead, and a block of
 * MARCH_BLOCK rows' steps decided first, each neighbour fetched, then taken. A step reads the
 * map's adjacency, two dependent misses (the cell's offsets, then its neighbours): fetched
 * ahead, they overlap (examples/plain_tick.h's march does the same: 75 -> 41 ms a tick on
 * one thread at the seed's size). */
enum { MARCH_AHEAD = 128, MARCH_BLOCK = 256 };

static void campaign_march(const war_march_cols *c, const dod_system_task *t)
{
    const campaign *g = (const campaign *)t->ctx;
    const uint32_t *offsets = g->map.adjacency.offsets, *cells = g->map.adjacency.items;
    uint32_t row[MARCH_BLOCK], to[MARCH_BLOCK];
    for (uint32_t at = 0; at < c->n; at += MARCH_BLOCK) {
        uint32_t stop = c->n - at < MARCH_BLOCK ? c->n : at + MARCH_BLOCK, steps = 0;
        for (uint32_t i = at; i < stop; ++i) {
            if (i + MARCH_AHEAD < c->n)
                DOD_PREFETCH(&offsets[c->location[i + MARCH_AHEAD].cell]);
            uint64_t r = campaign_dice(g, c->entities[i], 1);
            if ((float)(r % 4096) >= c->speed[i].chance * 4096.0f)
                continue;
            uint32_t from = c->location[i].cell, len = offsets[from + 1] - offsets[from];
            to[steps] = offsets[from] + (uint32_t)(r >> 32) % len; /* r >> 32 fits 32 bits */
            DOD_PREFETCH(&cells[to[steps]]);
            row[steps++] = i;
        }
        for (uint32_t k = 0; k < steps; ++k)
            c->location[row[k]].cell = cells[to[k]];
    }
}

/* The mood wears down; a regiment whose mood broke routs: a move to routed, recorded (the world
 * is const in a system: structural changes go to the task's buffer, applied after the phase).
 * A refused record needs no check here: the buffer keeps the first failure (dod_cmds_status),
 * and the run returns it and applies nothing of the phase. */
static void campaign_morale(const war_morale_cols *c, const dod_system_task *t)
{
    const campaign *g = (const campaign *)t->ctx;
    for (uint32_t i = 0; i < c->n; ++i) {
        c->mood[i].value -= (float)(campaign_dice(g, c->entities[i], 2) % 1000) * 1e-5f;
        if (c->mood[i].value < 0.25f)
            dod_cmds_move(t->cmds, c->entities[i], DOD_AID(war, routed));
    }
}

static void campaign_losses(const war_losses_cols *c, const dod_system_task *t)
{
    const campaign *g = (const campaign *)t->ctx;
    for (uint32_t i = 0; i < c->n; ++i)
        c->health[i].hp -= (float)(campaign_dice(g, c->entities[i], 3) % 1000) * 1e-4f;
}

static void campaign_reinforce(const war_reinforce_cols *c, const dod_system_task *t)
{
    const campaign *g = (const campaign *)t->ctx;
    for (uint32_t i = 0; i < c->n; ++i)
        if (c->health[i].hp <= 0.0f) {
            war_marching_row fresh =
                campaign_recruit(g, c->army[i].id, campaign_dice(g, c->entities[i], 4));
            war_marching_cmd_spawn(t->cmds, &fresh, NULL);
        }
}

static void campaign_deaths(const war_deaths_cols *c, const dod_system_task *t)
{
    for (uint32_t i = 0; i < c->n; ++i)
        if (c->health[i].hp <= 0.0f)
            dod_cmds_despawn(t->cmds, c->entities[i]);
}

/* ---- the game ---- */

static inline const dod_executor *campaign_exec(const campaign *g)
{
    return g->pool ? &g->exec : NULL;
}

/* Release everything; a second call, or a call after a failed campaign_create, does nothing. */
static inline void campaign_destroy(campaign *g)
{
    dod_schedule_destroy(g->schedule);
    g->schedule = NULL;
    dod_world_destroy(g->live);
    g->live = NULL;
    dod_threadpool_destroy(g->pool);
    g->pool = NULL;
    dod_arena_free(&g->scratch);
    map_destroy(&g->map);
}

/* Every regiment recruited in its army's square, army by army. */
static inline dod_status campaign_muster(campaign *g)
{
    dod_status st = DOD_OK;
    for (uint32_t i = 0; i < g->regiments && st == DOD_OK; ++i) {
        uint32_t a = (uint32_t)((uint64_t)i * g->armies / g->regiments);
        war_marching_row r = campaign_recruit(g, a, strategy_dice(i));
        st = war_marching_spawn(g->live, &r, NULL);
    }
    return st;
}

/* Every system writes only its rows and its buffer (the campaign in its ctx is read): each
 * is DOD_SYSTEM_PARALLEL, its rows split across the pool. */
static inline dod_status campaign_schedule(campaign *g)
{
    const uint32_t par = DOD_SYSTEM_PARALLEL, rec = DOD_SYSTEM_PARALLEL | DOD_SYSTEM_COMMANDS;
    const dod_system_desc systems[] = {
        war_march_system(campaign_march, g, par),
        war_morale_system(campaign_morale, g, rec),
        war_losses_system(campaign_losses, g, par),
        war_reinforce_system(campaign_reinforce, g, rec),
        war_deaths_system(campaign_deaths, g, rec),
    };
    dod_schedule_desc d = { .systems = systems, .n_systems = sizeof systems / sizeof systems[0] };
    return dod_schedule_create(&g->schedule, g->live, &d);
}

/* The map, the regiments (about regiments / armies to an army), the schedule, and a pool of
 * pool_threads (0: none, everything on the calling thread). On failure everything is released. */
static inline dod_status campaign_create(campaign *g, uint32_t width, uint32_t height,
                                         uint32_t regiments, uint32_t armies, uint32_t pool_threads)
{
    *g = (campaign){ .armies = armies, .regiments = regiments };
    dod_arena_init(&g->scratch, 0, NULL);
    /* Neither archetype ever holds more than every regiment: a fixed block each, allocated
     * once by create, every page written there (DOD_WORLD_PREFAULT), so that routed growing in
     * a tick takes no page fault (2.4 ms of a tick's 8.3 of applying the routs at the seed's
     * size, where they first reach a page). */
    g->config = war_config_default();
    g->config.marching.capacity = regiments;
    g->config.routed.capacity = regiments;
    dod_status st = map_create(&g->map, width, height, regiments);
    if (st == DOD_OK)
        st = war_create_config(&g->live, &g->config, NULL, DOD_WORLD_PREFAULT);
    if (st == DOD_OK && pool_threads > 0)
        st = dod_threadpool_create(&g->pool, pool_threads, NULL);
    g->exec = dod_threadpool_executor(g->pool);
    if (st == DOD_OK)
        st = campaign_muster(g);
    if (st == DOD_OK)
        st = war_placed_query(&g->placed, g->live);
    if (st == DOD_OK)
        st = campaign_schedule(g);
    if (st != DOD_OK)
        campaign_destroy(g);
    return st;
}

/* The systems of tick t, on the pool; each phase's commands are applied at its end. */
static inline dod_status campaign_run(campaign *g, uint64_t t)
{
    g->tick = t;
    return dod_schedule_run(g->schedule, g->live, campaign_exec(g), NULL);
}

/* ---- frames ---- */

/* The frames: a dod_frames object whose slots each hold a world of the game's declaration
 * (dod_world_frames_create), and beside it, per slot, the two indexes built from that slot's
 * world. The frame protocol guards both alike: the main thread writes a slot only between
 * begin and publish, and never while a worker holds it. */
typedef struct campaign_slot {
    dod_csr by_location; /* cell -> the regiments standing there */
    dod_csr by_army;     /* army -> its regiments */
    uint64_t tick;       /* written last by the main thread */
} campaign_slot;

typedef struct campaign_ring {
    dod_frames *frames;
    campaign_slot slot[DOD_FRAME_MAX_SLOTS]; /* [a frame's slot] */
} campaign_ring;

/* What a worker reads in a frame it holds. The indexes' items are row numbers of the `placed`
 * query in the frame's world (DOD_WORLD_INDEX_ROWS): `rows`, the worker's reader of them, reads
 * war_row_<component>(&f->rows, item) as an array is read. (The live world's query numbers the
 * rows of its copies too.) */
typedef struct campaign_frame {
    const dod_world *world; /* the world as of the tick */
    const dod_query *placed;
    const dod_csr *by_location, *by_army;
    uint64_t tick;
    dod_world_rows rows;    /* this worker's: reading moves its cursor */
} campaign_frame;

static inline campaign_frame campaign_frame_of(const campaign *g, const campaign_ring *r,
                                               const dod_frame *held)
{
    const campaign_slot *x = &r->slot[held->slot];
    campaign_frame f;
    f.world = dod_frame_world_read(held);
    f.placed = &g->placed;
    f.by_location = &x->by_location;
    f.by_army = &x->by_army;
    f.tick = x->tick;
    dod_status st = dod_world_rows_init(&f.rows, f.world, f.placed);
    (void)st; /* refused only for NULLs or another world's query */
    return f;
}

/* location -> regiments and army -> regiments from a copy of the world, on the pool, with the
 * scratch borrowed from the arena; the items are row numbers: the build reads only the keys. */
static inline dod_status campaign_build_indexes(campaign *g, const dod_world *w, campaign_slot *x)
{
    dod_world_index_desc d = { .query = &g->placed, .component = DOD_CID(war, location),
                               .n_rows = map_cells(&g->map), .exec = campaign_exec(g),
                               .scratch = &g->scratch, .flags = DOD_WORLD_INDEX_ROWS };
    dod_status st = dod_world_index_build(&x->by_location, w, &d);
    d.component = DOD_CID(war, army);
    d.n_rows = g->armies;
    return st != DOD_OK ? st : dod_world_index_build(&x->by_army, w, &d);
}

/* Copy the live world into a frame's world w on the pool, only what changed since w last held a
 * copy of it (the systems declare what they write, structural changes stamp what they touch),
 * and only the rows: the workers read by row number and never look a handle up, so the entity
 * index (8 bytes a regiment) stays behind. */
static inline dod_status campaign_copy(campaign *g, dod_world *w)
{
    dod_world_copy_desc d = { campaign_exec(g),
                              DOD_WORLD_COPY_CHANGED | DOD_WORLD_COPY_ROWS_ONLY };
    return dod_world_copy_with(w, g->live, &d);
}

/* The main thread's share of a tick, into a slot's world w and indexes x: copy the live world
 * (the live world's query iterates the copy), rebuild, then the tick number, last. */
static inline dod_status campaign_fill(campaign *g, dod_world *w, campaign_slot *x, uint64_t tick)
{
    dod_status st = campaign_copy(g, w);
    if (st == DOD_OK)
        st = campaign_build_indexes(g, w, x);
    x->tick = tick;
    return st;
}

/* Begin a frame, fill it, publish it (or cancel it when filling failed). */
static inline dod_status campaign_publish(campaign *g, campaign_ring *r, uint64_t tick)
{
    dod_frame next = { 0 };
    dod_status st = dod_frames_begin(r->frames, &next);
    if (st != DOD_OK)
        return st;
    st = campaign_fill(g, dod_frame_world(&next), &r->slot[next.slot], tick);
    if (st != DOD_OK) {
        dod_frames_cancel(r->frames, &next);
        return st;
    }
    return dod_frames_publish(r->frames, &next);
}

/* Release everything; a second call, or a call after a failed campaign_ring_create, does
 * nothing. */
static inline void campaign_ring_destroy(campaign_ring *r)
{
    dod_world_frames_destroy(r->frames);
    r->frames = NULL;
    for (uint32_t s = 0; s < DOD_FRAME_MAX_SLOTS; ++s) {
        dod_csr_free(&r->slot[s].by_location);
        dod_csr_free(&r->slot[s].by_army);
    }
}

/* n_slots frames (at most DOD_FRAME_MAX_SLOTS) of worlds with the game's archetypes and
 * capacities. Each slot is filled once here (nothing is published), so that the allocations
 * happen before the first tick: from then on filling a frame allocates nothing. On failure
 * everything is released. */
static inline dod_status campaign_ring_create(campaign_ring *r, campaign *g, uint32_t n_slots)
{
    for (uint32_t s = 0; s < DOD_FRAME_MAX_SLOTS; ++s) {
        dod_csr_init(&r->slot[s].by_location, NULL);
        dod_csr_init(&r->slot[s].by_army, NULL);
    }
    /* worlds of the live world's declaration: its config's capacities */
    dod_status st = war_frames_create_config(&r->frames, n_slots, &g->config, NULL, 0);
    for (uint32_t s = 0; st == DOD_OK && s < n_slots; ++s)
        st = campaign_fill(g, (dod_world *)dod_frames_payload(r->frames, s), &r->slot[s], 0);
    if (st != DOD_OK)
        campaign_ring_destroy(r);
    return st;
}

/* ---- the jobs workers do on a frame they hold (read only) ---- */

/* AI: every army's strength (its total health) and morale (its mean mood). The two fields are
 * gathered into the army index's order (as fast as a gather from arrays: the items are row
 * numbers), so each army's are one sequential run; `fields` is the worker's, 2 x
 * by_army.n_items floats, grown here when the game has grown. */
typedef struct army_fields {
    float *health, *mood;
    uint32_t cap;
} army_fields;

static inline dod_status army_fields_reserve(army_fields *a, uint32_t n)
{
    if (n <= a->cap)
        return DOD_OK;
    float *h = (float *)realloc(a->health, n * sizeof(float));
    a->health = h ? h : a->health;
    float *m = h ? (float *)realloc(a->mood, n * sizeof(float)) : NULL;
    a->mood = m ? m : a->mood;
    a->cap = m ? n : a->cap;
    return m ? DOD_OK : DOD_E_NOMEM;
}

static inline void army_fields_free(army_fields *a)
{
    free(a->health);
    free(a->mood);
    *a = (army_fields){ NULL, NULL, 0 };
}

static inline dod_status campaign_army_report(const campaign_frame *f, army_fields *fields,
                                              float *strength, float *morale)
{
    const dod_world *w = f->world;
    const dod_csr *by_army = f->by_army;
    dod_status st = army_fields_reserve(fields, by_army->n_items);
    dod_world_gather_col cols[] = { { fields->health, DOD_CID(war, health), 0, sizeof(float) },
                                    { fields->mood, DOD_CID(war, mood), 0, sizeof(float) } };
    if (st == DOD_OK)
        st = dod_world_gather_rows(by_army, w, f->placed, cols, 2, NULL);
    for (uint32_t a = 0; st == DOD_OK && a < by_army->n_rows; ++a) {
        float hp = 0.0f, spirit = 0.0f;
        for (uint32_t j = by_army->offsets[a]; j < by_army->offsets[a + 1]; ++j) {
            hp += fields->health[j];
            spirit += fields->mood[j];
        }
        uint32_t n = dod_csr_row_len(by_army, a);
        strength[a] = hp;
        morale[a] = n ? spirit / (float)n : 0.0f;
    }
    return st;
}

/* UI: how many regiments stand in `cell`, and their total health (the seed's query loop, each
 * regiment read by its row number). */
static inline uint32_t campaign_muster_at(campaign_frame *f, uint32_t cell, float *hp)
{
    *hp = 0.0f;
    for (const uint32_t *it = dod_csr_row_begin(f->by_location, cell);
         it != dod_csr_row_end(f->by_location, cell); ++it)
        *hp += war_row_health(&f->rows, *it)->hp;
    return dod_csr_row_len(f->by_location, cell);
}

/* Path: a march for an army, from where its first regiment stands to a cell up to 48 steps
 * away each way, both picked by `seed` (then map_route). */
static inline map_march campaign_order_march(const campaign *g, campaign_frame *f,
                                             uint64_t seed)
{
    uint32_t a = (uint32_t)(strategy_dice(seed) % g->armies);
    uint32_t first = *dod_csr_row_begin(f->by_army, a); /* armies are never empty */
    uint32_t from = war_row_location(&f->rows, first)->cell;
    return map_order_march(&g->map, f->by_location, from, seed + 1);
}

#endif /* WORLD_TICK_H */
