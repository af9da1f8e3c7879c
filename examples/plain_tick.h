/* plain_tick.h: the strategy tick of examples/world_tick.h written by hand on plain arrays,
 * the way a game would without the world: the baseline the world is measured against
 * (bench/frames) and checked against (tests/test_plain_tick.c runs both games side by side
 * and compares every row, handle, index and job's answer, bit for bit).
 *
 * The regiments are two structures of arrays, marching {location, army, health, mood, speed}
 * and routed (the same without speed): one array per component, each with room for every
 * regiment, and the handle of each row. A slot map hands out the handles the world hands out
 * (slot | generation << 32; the world adds a tag above, which its dice mask out), so the dice,
 * which hash the handle, roll the same in both games.
 *
 * A tick is world_tick.h's six systems in the world's order:
 *   march, morale, losses  one pass over each archetype's rows, in chunks on the pool (march
 *              and morale fused: they write different arrays); the chunks also note the rows
 *              that rout (mood under 0.25) and the routed rows that fell (health 0 or less)
 *   rout       the noted marching rows move to routed, in row order
 *   reinforce  for each fallen routed row, in row order, its army sends a fresh regiment
 *   deaths     the fallen are gone, in row order
 * which are the structural changes the world's three recording systems find in the rows the
 * update left and its schedule applies at the end of their shared phase, system by system,
 * each system's in row order (src/world/world_run.c, world_cmds_apply.c): after every tick
 * both games hold the same rows in the same order, with the same handles.
 * A frame is one array per component over every regiment (marching rows, then routed ones)
 * and the two indexes built from it, location -> rows and army -> rows, handed to the
 * workers through dod_frames. */
#ifndef PLAIN_TICK_H
#define PLAIN_TICK_H

#include "strategy_map.h"
#include <string.h>

/* One archetype's rows. */
typedef struct plain_rows {
    uint64_t *id; /* each row's handle */
    uint32_t *location, *army;
    float *health, *mood;
    float *speed; /* marching only: NULL in routed */
    uint32_t n;
} plain_rows;

/* An entry of the slot map: where a handle's regiment is. */
typedef struct plain_slot {
    uint32_t row;    /* its row */
    uint16_t gen;    /* odd while its regiment lives; 0: retired, never handed out again */
    uint16_t routed; /* its archetype: 0 marching, 1 routed */
} plain_slot;

/* The update runs in chunks, this many a pool thread (enough to even out threads slowed by
 * other work), at most PLAIN_MAX_CHUNKS. */
enum { PLAIN_CHUNKS_PER_THREAD = 8, PLAIN_MAX_CHUNKS = 256 };

/* How far ahead loops prefetch: PLAIN_AHEAD structural changes, PLAIN_MARCH_AHEAD rows in the
 * march, which decides its steps PLAIN_MARCH_BLOCK rows at a time. */
enum { PLAIN_AHEAD = 8, PLAIN_MARCH_AHEAD = 128, PLAIN_MARCH_BLOCK = 256 };

typedef struct plain_game {
    strategy_map map;
    uint32_t armies, regiments; /* each fallen regiment is replaced: always this many */
    uint32_t muster_side;       /* map_muster_side's, for the recruits */
    plain_rows marching, routed;
    plain_slot *slots;
    uint32_t n_slots, slot_cap; /* slots handed out, and room for */
    uint32_t *free_slots;       /* the free slots, the most recently freed last (a stack: a
                                   spawn's pop waits on no miss, as a list through the slots
                                   would) */
    uint32_t n_free;
    /* The tick's structural changes: each chunk writes the rows it found from its own first
     * row on and counts them in found_*[chunk]; then they are packed into row order. */
    uint32_t *routing, *fallen;
    uint32_t n_routing, n_fallen; /* the last tick's routs and falls */
    uint32_t chunks;
    uint32_t found_routing[PLAIN_MAX_CHUNKS], found_fallen[PLAIN_MAX_CHUNKS];
    dod_threadpool *pool; /* the update and index builds run on it (NULL: this thread) */
    dod_executor exec;
    dod_arena scratch; /* the index builds' scratch: grows in the first frame */
    uint64_t tick;     /* the tick being run: the dice read it */
} plain_game;

/* A regiment's dice for this tick: world_tick.h's campaign_dice on the same 48 bits. */
static inline uint64_t plain_dice(const plain_game *g, uint64_t id, uint64_t salt)
{
    return strategy_dice(id * 0x9E3779B97F4A7C15ull + g->tick * 8 + salt);
}

static inline const dod_executor *plain_exec(const plain_game *g)
{
    return g->pool ? &g->exec : NULL;
}

/* ---- the slot map and the rows ---- */

/* A fresh regiment of army a, in its muster square, r picking the rest (world_tick.h's
 * campaign_recruit), appended to marching under a new handle: the most recently freed slot,
 * its generation moved on to odd again, else a new slot. The caller made room for the slot. */
static inline void plain_recruit(plain_game *g, uint32_t a, uint64_t r)
{
    uint32_t slot;
    uint16_t gen = 1;
    if (g->n_free) {
        slot = g->free_slots[--g->n_free];
        gen = (uint16_t)(g->slots[slot].gen + 1);
    } else {
        slot = g->n_slots++;
    }
    plain_rows *m = &g->marching;
    uint32_t row = m->n++;
    m->id[row] = slot | (uint64_t)gen << 32;
    m->location[row] = map_muster_cell(&g->map, a, g->muster_side, r);
    m->army[row] = a;
    m->health[row] = 0.25f + (float)((r >> 16) % 750) / 1000.0f;
    m->mood[row] = 0.25f + (float)((r >> 32) % 750) / 1000.0f;
    m->speed[row] = 0.03f + (float)((r >> 48) % 70) / 1000.0f;
    g->slots[slot] = (plain_slot){ row, gen, 0 };
}

/* Room in the slot map for n more spawns: the free slots, then new ones. */
static inline dod_status plain_reserve_slots(plain_game *g, uint32_t n)
{
    uint64_t need = (uint64_t)g->n_slots + (n > g->n_free ? n - g->n_free : 0);
    if (need <= g->slot_cap)
        return DOD_OK;
    uint64_t cap = need + g->slot_cap / 2;
    cap = cap > UINT32_MAX ? UINT32_MAX : cap;
    if (need > cap)
        return DOD_E_FULL;
    plain_slot *s = (plain_slot *)realloc(g->slots, (size_t)cap * sizeof(plain_slot));
    g->slots = s ? s : g->slots;
    uint32_t *f = s ? (uint32_t *)realloc(g->free_slots, (size_t)cap * sizeof(uint32_t)) : NULL;
    g->free_slots = f ? f : g->free_slots;
    if (!f)
        return DOD_E_NOMEM;
    g->slot_cap = (uint32_t)cap;
    return DOD_OK;
}

/* Swap-remove row `row` of x: the last row moves into it and its slot follows. */
static inline void plain_remove_row(plain_game *g, plain_rows *x, uint32_t row)
{
    uint32_t last = --x->n;
    if (row == last)
        return;
    x->id[row] = x->id[last];
    x->location[row] = x->location[last];
    x->army[row] = x->army[last];
    x->health[row] = x->health[last];
    x->mood[row] = x->mood[last];
    if (x->speed)
        x->speed[row] = x->speed[last];
    g->slots[(uint32_t)x->id[row]].row = row;
}

/* The marching regiment of `slot` routs: appended to routed, removed from marching. */
static inline void plain_rout(plain_game *g, uint32_t slot)
{
    plain_rows *m = &g->marching, *r = &g->routed;
    uint32_t from = g->slots[slot].row, to = r->n++;
    r->id[to] = m->id[from];
    r->location[to] = m->location[from];
    r->army[to] = m->army[from];
    r->health[to] = m->health[from];
    r->mood[to] = m->mood[from];
    g->slots[slot].row = to;
    g->slots[slot].routed = 1;
    plain_remove_row(g, m, from);
}

/* The regiment of `slot` is gone: its row removed, its generation moved on (even: its handle
 * is stale) and the slot freed, or retired when the generation would pass 0xFFFF. */
static inline void plain_despawn(plain_game *g, uint32_t slot)
{
    plain_slot *s = &g->slots[slot];
    plain_remove_row(g, s->routed ? &g->routed : &g->marching, s->row);
    if (s->gen == 0xFFFF) {
        s->gen = 0;
        return;
    }
    s->gen++;
    g->free_slots[g->n_free++] = slot;
}

/* Structural changes by slot (list[0 .. n)) wait on two dependent misses each: the slot, then
 * its row of x. Called before change k: prefetches the slot of change k + 2 * PLAIN_AHEAD
 * and the row of change k + PLAIN_AHEAD (its slot cached by now). */
static inline void plain_prefetch_change(const plain_game *g, const plain_rows *x,
                                         const uint32_t *list, uint32_t n, uint32_t k)
{
    if (k + 2 * PLAIN_AHEAD < n)
        DOD_PREFETCH(&g->slots[list[k + 2 * PLAIN_AHEAD]]);
    if (k + PLAIN_AHEAD < n) {
        uint32_t row = g->slots[list[k + PLAIN_AHEAD]].row;
        DOD_PREFETCH(&x->id[row]);
        DOD_PREFETCH(&x->location[row]);
        DOD_PREFETCH(&x->army[row]);
        DOD_PREFETCH(&x->health[row]);
        DOD_PREFETCH(&x->mood[row]);
        if (x->speed)
            DOD_PREFETCH(&x->speed[row]);
    }
}

/* The rows of `rows` listed in list[0 .. n) become their slots: a structural change moves
 * rows, never slots. */
static inline void plain_rows_to_slots(const plain_rows *rows, uint32_t *list, uint32_t n)
{
    for (uint32_t k = 0; k < n; ++k)
        list[k] = (uint32_t)rows->id[list[k]];
}

/* ---- the update ---- */

/* Chunk k's rows [*first, *end) of n. */
static inline void plain_chunk(uint32_t n, uint32_t chunks, uint32_t k, uint32_t *first,
                               uint32_t *end)
{
    *first = (uint32_t)((uint64_t)n * k / chunks);
    *end = (uint32_t)((uint64_t)n * (k + 1) / chunks);
}

/* March and morale on marching rows [first, end): a step to a neighbouring cell with the
 * chance the speed gives, and the mood wears down; the rows whose mood broke go to `broke`.
 * Returns how many. A step reads the map's adjacency, two dependent misses (the cell's
 * offsets, then its neighbours): the offsets are prefetched PLAIN_MARCH_AHEAD rows ahead, and
 * a block's steps are decided first, each neighbour prefetched, then taken. */
static inline uint32_t plain_march(const plain_game *g, uint32_t first, uint32_t end,
                                   uint32_t *broke)
{
    const plain_rows *m = &g->marching;
    const uint32_t *offsets = g->map.adjacency.offsets, *cells = g->map.adjacency.items;
    uint32_t n = 0, row[PLAIN_MARCH_BLOCK], to[PLAIN_MARCH_BLOCK];
    for (uint32_t at = first; at < end; at += PLAIN_MARCH_BLOCK) {
        uint32_t stop = end - at < PLAIN_MARCH_BLOCK ? end : at + PLAIN_MARCH_BLOCK, steps = 0;
        for (uint32_t i = at; i < stop; ++i) {
            if (i + PLAIN_MARCH_AHEAD < end)
                DOD_PREFETCH(&offsets[m->location[i + PLAIN_MARCH_AHEAD]]);
            uint64_t r = plain_dice(g, m->id[i], 1);
            if ((float)(r % 4096) < m->speed[i] * 4096.0f) {
                /* world_tick.h's neighbour pick, (r >> 32) % the neighbours, in 32 bits */
                uint32_t from = m->location[i], len = offsets[from + 1] - offsets[from];
                to[steps] = offsets[from] + (uint32_t)(r >> 32) % len;
                DOD_PREFETCH(&cells[to[steps]]);
                row[steps++] = i;
            }
            m->mood[i] -= (float)(plain_dice(g, m->id[i], 2) % 1000) * 1e-5f;
            if (m->mood[i] < 0.25f)
                broke[n++] = i;
        }
        for (uint32_t k = 0; k < steps; ++k)
            m->location[row[k]] = cells[to[k]];
    }
    return n;
}

/* Losses on routed rows [first, end): each is cut down as it flees; the rows left with
 * nothing go to `fell`. Returns how many. */
static inline uint32_t plain_losses(const plain_game *g, uint32_t first, uint32_t end,
                                    uint32_t *fell)
{
    const plain_rows *r = &g->routed;
    uint32_t n = 0;
    for (uint32_t i = first; i < end; ++i) {
        r->health[i] -= (float)(plain_dice(g, r->id[i], 3) % 1000) * 1e-4f;
        if (r->health[i] <= 0.0f)
            fell[n++] = i;
    }
    return n;
}

/* Task t of the update: marching chunk t, or routed chunk t - chunks. */
static inline void plain_update_chunk(void *arg, uint32_t t)
{
    plain_game *g = (plain_game *)arg;
    uint32_t first, end;
    if (t < g->chunks) {
        plain_chunk(g->marching.n, g->chunks, t, &first, &end);
        g->found_routing[t] = plain_march(g, first, end, g->routing + first);
    } else {
        t -= g->chunks;
        plain_chunk(g->routed.n, g->chunks, t, &first, &end);
        g->found_fallen[t] = plain_losses(g, first, end, g->fallen + first);
    }
}

/* The chunks' finds, each written from its chunk's first row of n on, packed into row order;
 * returns how many. */
static inline uint32_t plain_pack(uint32_t *list, const uint32_t *found, uint32_t n,
                                  uint32_t chunks)
{
    uint32_t packed = 0;
    for (uint32_t k = 0; k < chunks; ++k) {
        uint32_t first, end;
        plain_chunk(n, chunks, k, &first, &end);
        memmove(list + packed, list + first, found[k] * sizeof(uint32_t));
        packed += found[k];
    }
    return packed;
}

/* Tick t: the rows in chunks on the pool, then the structural changes on this thread. Fails
 * (DOD_E_NOMEM, DOD_E_FULL) only when the slot map cannot grow for the recruits, which only
 * retired slots make it do: then the rows have had their tick but nothing routed, fell or
 * was recruited. */
static inline dod_status plain_run(plain_game *g, uint64_t t)
{
    g->tick = t;
    uint32_t tasks = 2 * g->chunks;
    if (g->pool)
        g->exec.run(g->exec.ctx, tasks, plain_update_chunk, g);
    else
        for (uint32_t k = 0; k < tasks; ++k)
            plain_update_chunk(g, k);
    g->n_routing = plain_pack(g->routing, g->found_routing, g->marching.n, g->chunks);
    g->n_fallen = plain_pack(g->fallen, g->found_fallen, g->routed.n, g->chunks);
    dod_status st = plain_reserve_slots(g, g->n_fallen); /* a recruit per fallen regiment */
    if (st != DOD_OK)
        return st;

    /* rout: every broken row was listed before any moves, since each move's swap-remove
     * changes which regiment is in which row; then moved by slot, in the listed order (the
     * world's: the rows in order, then the moves applied in that order). */
    plain_rows_to_slots(&g->marching, g->routing, g->n_routing);
    for (uint32_t k = 0; k < g->n_routing; ++k) {
        plain_prefetch_change(g, &g->marching, g->routing, g->n_routing, k);
        plain_rout(g, g->routing[k]);
    }

    /* reinforce: a recruit per fallen row, in row order. The world's finds them, as its
     * deaths does, in the rows the update left, before the routs; these append to routed, so
     * the fallen rows are where they were. */
    for (uint32_t k = 0; k < g->n_fallen; ++k) {
        if (k + PLAIN_AHEAD < g->n_fallen) {
            DOD_PREFETCH(&g->routed.id[g->fallen[k + PLAIN_AHEAD]]);
            DOD_PREFETCH(&g->routed.army[g->fallen[k + PLAIN_AHEAD]]);
        }
        uint32_t row = g->fallen[k];
        plain_recruit(g, g->routed.army[row], plain_dice(g, g->routed.id[row], 4));
    }

    /* deaths: the same rows (reinforce added only marching ones), by slot for the same reason
     * as the routs. */
    plain_rows_to_slots(&g->routed, g->fallen, g->n_fallen);
    for (uint32_t k = 0; k < g->n_fallen; ++k) {
        plain_prefetch_change(g, &g->routed, g->fallen, g->n_fallen, k);
        plain_despawn(g, g->fallen[k]);
    }
    return DOD_OK;
}

/* ---- the game ---- */

static inline void plain_rows_free(plain_rows *x)
{
    free(x->id);
    free(x->location);
    free(x->army);
    free(x->health);
    free(x->mood);
    free(x->speed);
    *x = (plain_rows){ 0 };
}

/* Room for n rows, with speed or without, every page written once here (as the world's
 * DOD_WORLD_PREFAULT does), so that an archetype growing in a tick takes no page fault. */
static inline dod_status plain_rows_alloc(plain_rows *x, uint32_t n, int with_speed)
{
    *x = (plain_rows){ 0 };
    x->id = (uint64_t *)calloc(n, sizeof(uint64_t));
    x->location = (uint32_t *)calloc(n, sizeof(uint32_t));
    x->army = (uint32_t *)calloc(n, sizeof(uint32_t));
    x->health = (float *)calloc(n, sizeof(float));
    x->mood = (float *)calloc(n, sizeof(float));
    x->speed = with_speed ? (float *)calloc(n, sizeof(float)) : NULL;
    if (x->id && x->location && x->army && x->health && x->mood && (x->speed || !with_speed)) {
        memset(x->id, 0, (size_t)n * sizeof(uint64_t)); /* calloc's pages are not touched */
        memset(x->location, 0, (size_t)n * sizeof(uint32_t));
        memset(x->army, 0, (size_t)n * sizeof(uint32_t));
        memset(x->health, 0, (size_t)n * sizeof(float));
        memset(x->mood, 0, (size_t)n * sizeof(float));
        if (with_speed)
            memset(x->speed, 0, (size_t)n * sizeof(float));
        return DOD_OK;
    }
    plain_rows_free(x);
    return DOD_E_NOMEM;
}

/* Release everything; a second call, or a call after a failed plain_create, does nothing. */
static inline void plain_destroy(plain_game *g)
{
    plain_rows_free(&g->marching);
    plain_rows_free(&g->routed);
    free(g->slots);
    free(g->free_slots);
    free(g->routing);
    free(g->fallen);
    g->slots = NULL;
    g->free_slots = NULL;
    g->routing = g->fallen = NULL;
    dod_threadpool_destroy(g->pool);
    g->pool = NULL;
    dod_arena_free(&g->scratch);
    map_destroy(&g->map);
}

/* The map, the regiments (each archetype with room for all of them, as world_tick.h's fixed
 * capacities; slots for twice as many, as many as a tick can have handed out), and a pool of
 * pool_threads (0: none, everything on the calling thread). The regiments are recruited as
 * world_tick.h's campaign_muster recruits them, so they get the same slots. On failure
 * everything is released. */
static inline dod_status plain_create(plain_game *g, uint32_t width, uint32_t height,
                                      uint32_t regiments, uint32_t armies, uint32_t pool_threads)
{
    *g = (plain_game){ .armies = armies, .regiments = regiments, .chunks = 1 };
    dod_arena_init(&g->scratch, 0, NULL);
    dod_status st = map_create(&g->map, width, height, regiments);
    if (st == DOD_OK)
        st = plain_rows_alloc(&g->marching, regiments, 1);
    if (st == DOD_OK)
        st = plain_rows_alloc(&g->routed, regiments, 0);
    g->routing = (uint32_t *)malloc((size_t)regiments * sizeof(uint32_t));
    g->fallen = (uint32_t *)malloc((size_t)regiments * sizeof(uint32_t));
    if (st == DOD_OK && (!g->routing || !g->fallen))
        st = DOD_E_NOMEM;
    if (st == DOD_OK)
        st = plain_reserve_slots(g, 2 * regiments);
    if (st == DOD_OK && pool_threads > 0) {
        st = dod_threadpool_create(&g->pool, pool_threads, NULL);
        uint32_t chunks = pool_threads * PLAIN_CHUNKS_PER_THREAD;
        g->chunks = chunks < PLAIN_MAX_CHUNKS ? chunks : PLAIN_MAX_CHUNKS;
    }
    g->exec = dod_threadpool_executor(g->pool);
    if (st == DOD_OK) {
        g->muster_side = map_muster_side(&g->map, armies);
        for (uint32_t i = 0; i < regiments; ++i)
            plain_recruit(g, (uint32_t)((uint64_t)i * armies / regiments), strategy_dice(i));
    }
    if (st != DOD_OK)
        plain_destroy(g);
    return st;
}

/* ---- frames ---- */

/* What a frame holds: every regiment, marching rows first, then routed ones, one array per
 * component (speed for the marching rows only), and the two indexes built from it, whose
 * items are rows of the frame. */
typedef struct plain_frame {
    uint32_t n, n_marching;
    uint64_t *id;
    uint32_t *location, *army;
    float *health, *mood, *speed;
    dod_csr by_location; /* cell -> the rows of the regiments standing there */
    dod_csr by_army;     /* army -> the rows of its regiments */
    uint64_t tick;       /* written last by the main thread */
} plain_frame;

/* a[0 .. na) then b[0 .. nb), elements of `size` bytes, into dst */
static inline void plain_concat(void *dst, const void *a, uint32_t na, const void *b,
                                uint32_t nb, size_t size)
{
    memcpy(dst, a, na * size);
    memcpy((char *)dst + na * size, b, nb * size);
}

/* The live regiments into f. */
static inline void plain_copy(const plain_game *g, plain_frame *f)
{
    const plain_rows *m = &g->marching, *r = &g->routed;
    f->n = m->n + r->n;
    f->n_marching = m->n;
    plain_concat(f->id, m->id, m->n, r->id, r->n, sizeof(uint64_t));
    plain_concat(f->location, m->location, m->n, r->location, r->n, sizeof(uint32_t));
    plain_concat(f->army, m->army, m->n, r->army, r->n, sizeof(uint32_t));
    plain_concat(f->health, m->health, m->n, r->health, r->n, sizeof(float));
    plain_concat(f->mood, m->mood, m->n, r->mood, r->n, sizeof(float));
    memcpy(f->speed, m->speed, m->n * sizeof(float));
}

/* location -> rows and army -> rows from the frame's own arrays, on the pool, with the
 * scratch borrowed from the arena (strategy_world.h's world_build_indexes). */
static inline dod_status plain_build_indexes(plain_game *g, plain_frame *f)
{
    dod_csr_desc d = { .n_rows = map_cells(&g->map), .n_items = f->n, .keys = f->location,
                       .exec = plain_exec(g), .scratch = &g->scratch };
    dod_status st = dod_csr_build_desc(&f->by_location, &d);
    d.n_rows = g->armies;
    d.keys = f->army;
    return st != DOD_OK ? st : dod_csr_build_desc(&f->by_army, &d);
}

/* The main thread's share of a tick, into a frame it has begun: copy, rebuild, then the tick
 * number, last. */
static inline dod_status plain_fill(plain_game *g, plain_frame *f, uint64_t tick)
{
    plain_copy(g, f);
    dod_status st = plain_build_indexes(g, f);
    f->tick = tick;
    return st;
}

/* The frames: n_slots plain_frames handed around by a dod_frames object. */
typedef struct plain_ring {
    dod_frames *frames;
    plain_frame slot[DOD_FRAME_MAX_SLOTS];
    uint32_t n_slots;
} plain_ring;

/* Release everything; a second call, or a call after a failed plain_ring_create, does
 * nothing. */
static inline void plain_ring_destroy(plain_ring *r)
{
    dod_frames_destroy(r->frames);
    r->frames = NULL;
    for (uint32_t s = 0; s < r->n_slots; ++s) {
        plain_frame *f = &r->slot[s];
        free(f->id);
        free(f->location);
        free(f->army);
        free(f->health);
        free(f->mood);
        free(f->speed);
        dod_csr_free(&f->by_location);
        dod_csr_free(&f->by_army);
    }
    r->n_slots = 0;
}

/* n_slots frames (at most DOD_FRAME_MAX_SLOTS), each with room for every regiment. Each slot
 * is filled once here, so that allocation and first-touch page faults happen before the
 * first tick; from then on a tick allocates nothing. On failure everything is released. */
static inline dod_status plain_ring_create(plain_ring *r, plain_game *g, uint32_t n_slots)
{
    void *payload[DOD_FRAME_MAX_SLOTS];
    size_t n = g->regiments;
    dod_status st = n_slots <= DOD_FRAME_MAX_SLOTS ? DOD_OK : DOD_E_RANGE;
    r->frames = NULL;
    r->n_slots = 0;
    for (; st == DOD_OK && r->n_slots < n_slots; ++r->n_slots) {
        plain_frame *f = &r->slot[r->n_slots];
        *f = (plain_frame){ 0 };
        dod_csr_init(&f->by_location, NULL);
        dod_csr_init(&f->by_army, NULL);
        f->id = (uint64_t *)malloc(n * sizeof(uint64_t));
        f->location = (uint32_t *)malloc(n * sizeof(uint32_t));
        f->army = (uint32_t *)malloc(n * sizeof(uint32_t));
        f->health = (float *)malloc(n * sizeof(float));
        f->mood = (float *)malloc(n * sizeof(float));
        f->speed = (float *)malloc(n * sizeof(float));
        st = f->id && f->location && f->army && f->health && f->mood && f->speed ? DOD_OK
                                                                                 : DOD_E_NOMEM;
        if (st == DOD_OK)
            st = plain_fill(g, f, 0);
        payload[r->n_slots] = f;
    }
    if (st == DOD_OK)
        st = dod_frames_create(&r->frames, n_slots, payload, NULL);
    if (st != DOD_OK)
        plain_ring_destroy(r);
    return st;
}

/* Begin a frame, fill it, publish it (or cancel it when filling failed). */
static inline dod_status plain_publish(plain_game *g, plain_ring *r, uint64_t tick)
{
    dod_frame next = { 0 };
    dod_status st = dod_frames_begin(r->frames, &next);
    if (st != DOD_OK)
        return st;
    st = plain_fill(g, (plain_frame *)next.data, tick);
    if (st != DOD_OK) {
        dod_frames_cancel(r->frames, &next);
        return st;
    }
    return dod_frames_publish(r->frames, &next);
}

/* ---- the jobs workers do on a frame they hold (read only) ---- */

/* AI: every army's strength (its total health) and morale (its mean mood), by one segmented
 * reduction each over army -> rows: each army's sum in its rows' order, as world_tick.h's
 * campaign_army_report sums them. Both arrays hold g->armies floats. */
static inline dod_status plain_army_report(const plain_frame *f, float *strength, float *morale)
{
    dod_reduce_out sums = { .sum = strength }, means = { .mean = morale };
    dod_status st = dod_reduce_rows(&f->by_army, f->health, sizeof(float), f->n, &sums, NULL);
    return st != DOD_OK ? st : dod_reduce_rows(&f->by_army, f->mood, sizeof(float), f->n, &means, NULL);
}

/* UI: how many regiments stand in `cell`, and their total health. */
static inline uint32_t plain_muster_at(const plain_frame *f, uint32_t cell, float *hp)
{
    *hp = 0.0f;
    for (const uint32_t *it = dod_csr_row_begin(&f->by_location, cell);
         it != dod_csr_row_end(&f->by_location, cell); ++it)
        *hp += f->health[*it];
    return dod_csr_row_len(&f->by_location, cell);
}

/* Path: a march for an army, from where its first regiment stands to a cell up to 48 steps
 * away each way, both picked by `seed` (then map_route). */
static inline map_march plain_order_march(const plain_game *g, const plain_frame *f,
                                          uint64_t seed)
{
    uint32_t a = (uint32_t)(strategy_dice(seed) % g->armies);
    uint32_t first = *dod_csr_row_begin(&f->by_army, a); /* armies are never empty */
    return map_order_march(&g->map, &f->by_location, f->location[first], seed + 1);
}

#endif /* PLAIN_TICK_H */
