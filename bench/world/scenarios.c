/* The common ECS benchmark scenarios (those of the public ecs_benchmark suite) on the world:
 * Position{x,y}, Velocity{x,y} = (1,1) and a 48-byte Data, every archetype chunked, ns per
 * entity:
 *   spawn      P,V one by one (the typed spawn, velocity (1,1))
 *   spawn_n    n P,V rows in one bulk call (zeroed)
 *   despawn    one by one, in creation order
 *   get1, get2 Position (and Velocity) of every entity by handle
 *   get3       half the entities also have Data: Position, Velocity, and Data where present
 *   move_pair  remove Position and add it back: {P,V} -> {V} -> {P,V}, two moves per entity
 *   iterate    a query over (Position, Velocity), p += v * dt, on a fixed {P,V} and a chunked
 *              one with the default blocks and with equal 16 KiB blocks (the layout before
 *              blocks grew), against the raw loop
 * and the bytes per entity of n P,V entities, counted by the allocator beyond those of an empty
 * world, fixed and chunked, and the block bytes of a 20-entity chunked {P,V}. */
#include <string.h>
#include <dod/world.h>
#include "world_bench.h"

#define ECS_COMPONENTS(C) C(position) C(velocity) C(data)
#define ARCH_PV(X) X(position) X(velocity)
#define ARCH_V(X) X(velocity)
#define ARCH_PVD(X) X(position) X(velocity) X(data)
#define ECS_ARCHETYPES(A) A(pv, ARCH_PV, 0) A(v, ARCH_V, 0) A(pvd, ARCH_PVD, 0)
DOD_WORLD(ecs, ECS_COMPONENTS, ECS_ARCHETYPES)

enum { OP_SPAWN, OP_SPAWN_N, OP_DESPAWN, OP_GET1, OP_GET2, OP_GET3, OP_MOVE_PAIR, N_OPS };
static const char *const op_names[N_OPS] = { "spawn", "spawn_n",  "despawn",  "get1",
                                             "get2",  "get3",     "move_pair" };

/* The scenarios' world: every archetype chunked with blocks `layout`, or {P,V} fixed at
 * pv_capacity rows. */
static dod_world *make_world(uint32_t pv_capacity, wb_layout layout, const dod_allocator *alloc)
{
    dod_world_desc d = ecs_desc();
    dod_archetype_desc arch[3];
    memcpy(arch, d.archetypes, sizeof arch);
    for (int k = 0; k < 3; ++k) {
        arch[k].block_bytes = layout.block_bytes;
        arch[k].first_block_bytes = layout.first_block_bytes;
    }
    arch[DOD_AID(ecs, pv)].capacity = pv_capacity;
    d.archetypes = arch;
    d.alloc = alloc;
    dod_world *w = NULL;
    wb_check(dod_world_create(&w, &d), "ecs create");
    return w;
}

static const wb_layout default_layout = { 0 };

static dod_world *new_world(wb_layout layout)
{
    return make_world(0, layout, NULL);
}

/* n entities alternately {P,V} and {P,V,Data}, every component read as 1 by get3. */
static dod_world *mixed_world(uint32_t n, dod_entity *ids)
{
    dod_world *w = new_world(default_layout);
    ecs_pv_row pv = { { 1.0f, 0.0f }, { 1.0f, 1.0f } };
    ecs_pvd_row pvd;
    memset(&pvd, 0, sizeof pvd);
    pvd.position = pv.position;
    pvd.velocity = pv.velocity;
    pvd.data.v[0] = 1.0f;
    for (uint32_t i = 0; i < n; ++i)
        wb_check(i % 2 ? ecs_pvd_spawn(w, &pvd, &ids[i]) : ecs_pv_spawn(w, &pv, &ids[i]),
                 "get3 spawn");
    return w;
}

/* Pass p of every op but iterate, on worlds of blocks `layout` (get3's mixed world is made by
 * the caller): t[op][p] in ms. The gets sum what they read, so the sums say every get found
 * its entity. */
static void ops_pass(uint32_t n, wb_layout layout, dod_entity *ids, const dod_world *mixed,
                     const dod_entity *mixed_ids, double t[][WB_MAX_PASSES], int p)
{
    const uint32_t pv = DOD_AID(ecs, pv), v = DOD_AID(ecs, v);
    const ecs_pv_row row = { { 1.0f, 0.0f }, { 1.0f, 1.0f } };
    int bad = 0;
    uint32_t sum1 = 0, sum2 = 0, sum3 = 0;

    dod_world *w = new_world(layout);
    double t0 = bench_now_ms();
    for (uint32_t i = 0; i < n; ++i)
        bad |= ecs_pv_spawn(w, &row, &ids[i]) != DOD_OK;
    double t1 = bench_now_ms();
    for (uint32_t i = 0; i < n; ++i)
        sum1 += (uint32_t)ecs_get_position(w, ids[i])->x;
    double t2 = bench_now_ms();
    for (uint32_t i = 0; i < n; ++i)
        sum2 += (uint32_t)(ecs_get_position(w, ids[i])->x + ecs_get_velocity(w, ids[i])->y);
    double t3 = bench_now_ms();
    for (uint32_t i = 0; i < n; ++i)
        bad |= dod_world_despawn(w, ids[i]) != DOD_OK;
    double t4 = bench_now_ms();
    wb_require(dod_world_count(w, pv) == 0, "despawn left rows");
    dod_world_destroy(w);

    double t5 = bench_now_ms();
    for (uint32_t i = 0; i < n; ++i) {
        const data *d = ecs_get_data(mixed, mixed_ids[i]);
        sum3 += (uint32_t)(ecs_get_position(mixed, mixed_ids[i])->x +
                           ecs_get_velocity(mixed, mixed_ids[i])->y);
        if (d)
            sum3 += (uint32_t)d->v[0];
    }
    double t6 = bench_now_ms();

    w = new_world(layout);
    double t7 = bench_now_ms();
    bad |= dod_world_spawn_n(w, pv, n, ids) != DOD_OK;
    double t8 = bench_now_ms();
    for (uint32_t i = 0; i < n; ++i) {
        bad |= dod_world_move(w, ids[i], v) != DOD_OK;
        bad |= dod_world_move(w, ids[i], pv) != DOD_OK;
    }
    double t9 = bench_now_ms();
    wb_require(dod_world_count(w, pv) == n && dod_world_count(w, v) == 0, "move_pair counts");
    dod_world_destroy(w);

    wb_require(!bad, "a spawn, despawn or move failed");
    wb_require(sum1 == n && sum2 == 2 * n && sum3 == 2 * n + n / 2, "get sums");
    t[OP_SPAWN][p] = t1 - t0, t[OP_GET1][p] = t2 - t1, t[OP_GET2][p] = t3 - t2;
    t[OP_DESPAWN][p] = t4 - t3, t[OP_GET3][p] = t6 - t5;
    t[OP_SPAWN_N][p] = t8 - t7, t[OP_MOVE_PAIR][p] = t9 - t8;
}

/* ---- iterate: the query loop over a fixed and chunked {P,V}, against the raw loop ---- */
enum { IT_FIXED, IT_CHUNKED, IT_CHUNKED_16K, N_IT_WORLDS };
static const char *const it_names[N_IT_WORLDS + 1] = { "world_fixed", "world_chunked",
                                                       "world_chunked_16k", "raw" };

typedef struct iterate_run {
    int n_worlds; /* variants 0 .. n_worlds - 1 are worlds, variant n_worlds the raw loop */
    dod_world *w[WB_MAX_LAYOUTS];
    dod_query q[WB_MAX_LAYOUTS];
    uint32_t n;
    position *p;
    velocity *v;
    float dt;
} iterate_run;

static void run_iterate(void *ctx, int variant)
{
    iterate_run *r = (iterate_run *)ctx;
    if (variant == r->n_worlds) {
        step_iterate(r->n, r->p, r->v, r->dt);
        return;
    }
    dod_world_iter it;
    dod_world_iter_init(&it, r->w[variant], &r->q[variant]);
    while (dod_world_next(&it))
        step_iterate(it.n, DOD_FIELD(&it, ecs, position), DOD_FIELD(&it, ecs, velocity), r->dt);
}

/* Row i of the {P,V} archetype against raw element i: copy into the world (to 1) or compare. */
static int sync_rows(const dod_world *w, const position *p, const velocity *v, int to_world)
{
    ecs_pv_cols c;
    uint32_t at = 0;
    int same = 1;
    for (uint32_t b = 0; ecs_pv_block(w, b, &c); ++b, at += c.n) {
        if (to_world) {
            memcpy(c.position, p + at, c.n * sizeof *p);
            memcpy(c.velocity, v + at, c.n * sizeof *v);
        } else {
            same &= memcmp(c.position, p + at, c.n * sizeof *p) == 0;
        }
    }
    return same;
}

/* The iterate loop over n_worlds worlds of n {P,V} entities (world k: {P,V} fixed at
 * capacity[k] rows, or chunked with blocks layout[k] when it is 0) and the raw loop, run
 * alternately (prepare, NULL or wb_evict_caches, before each run); every world ends equal to
 * raw. t[k][p]: world k's pass p, raw's t[n_worlds]. */
static void iterate_compare(uint32_t n, int passes, int n_worlds, const uint32_t *capacity,
                            const wb_layout *layout, wb_run_fn prepare,
                            double t[][WB_MAX_PASSES])
{
    iterate_run r;
    r.n_worlds = n_worlds;
    r.n = n;
    r.dt = 1.0f / 60.0f;
    r.p = (position *)wb_alloc(n * sizeof(position));
    r.v = (velocity *)wb_alloc(n * sizeof(velocity));
    for (uint32_t i = 0; i < n; ++i) {
        r.p[i].x = (float)(i % 1000) * 0.1f;
        r.p[i].y = (float)(i % 777) * 0.3f;
        r.v[i].x = r.v[i].y = 1.0f;
    }
    const uint32_t all[2] = { DOD_CID(ecs, position), DOD_CID(ecs, velocity) };
    for (int k = 0; k < n_worlds; ++k) {
        r.w[k] = make_world(capacity[k] ? n : 0u, layout[k], NULL);
        wb_check(dod_world_spawn_n(r.w[k], DOD_AID(ecs, pv), n, NULL), "iterate spawn_n");
        wb_check(dod_query_init(&r.q[k], r.w[k], all, 2, NULL, 0), "iterate query");
        sync_rows(r.w[k], r.p, r.v, 1);
    }
    wb_alternate(n_worlds + 1, passes, prepare, run_iterate, &r, t);
    for (int k = 0; k < n_worlds; ++k) {
        wb_require(sync_rows(r.w[k], r.p, r.v, 0), "iterate: world positions differ from raw");
        dod_world_destroy(r.w[k]);
    }
    wb_free(r.p, n * sizeof(position));
    wb_free(r.v, n * sizeof(velocity));
}

/* ratio[k]: world variant k over raw, ratios of minima. */
static void iterate_bench(uint32_t n, int passes, double ratio[N_IT_WORLDS])
{
    const uint32_t capacity[N_IT_WORLDS] = { 1, 0, 0 };
    const wb_layout layout[N_IT_WORLDS] = { { 0 }, { 0 }, { 16384u, 16384u } };
    double t[N_IT_WORLDS + 1][WB_MAX_PASSES], mn[N_IT_WORLDS + 1];
    iterate_compare(n, passes, N_IT_WORLDS, capacity, layout, NULL, t);
    for (int k = 0; k <= N_IT_WORLDS; ++k)
        mn[k] = wb_emit("iterate", it_names[k], n, n, t[k], passes);
    for (int k = 0; k < N_IT_WORLDS; ++k)
        ratio[k] = mn[k] / mn[N_IT_WORLDS];
}

/* Bytes the allocator holds for a world of n {P,V} entities, {P,V} fixed or chunked with
 * blocks `layout`; every byte comes back on destroy. n 0: an empty world, with no fixed
 * storage. */
static size_t world_bytes(uint32_t n, int fixed, wb_layout layout)
{
    bench_counter c;
    memset(&c, 0, sizeof c);
    dod_allocator a = bench_counter_allocator(&c);
    dod_world *w = make_world(fixed ? n : 0u, layout, &a);
    wb_check(dod_world_spawn_n(w, DOD_AID(ecs, pv), n, NULL), "bytes spawn_n");
    size_t bytes = c.live_bytes;
    dod_world_destroy(w);
    wb_require(c.live_bytes == 0 && c.allocs == c.frees, "the world leaked");
    return bytes;
}

/* The block bytes a 20-entity chunked {P,V} archetype holds: what its world holds beyond an
 * empty one, less the entity index's first 64 slots. */
static size_t small_archetype_bytes(wb_layout layout)
{
    return world_bytes(20, 0, layout) - world_bytes(0, 0, layout) - 64 * sizeof(uint64_t);
}

void scenarios_bench(size_t n_, int passes, int targets)
{
    uint32_t n = (uint32_t)n_;
    printf("scenarios: n %u, chunked archetypes {P,V} {V} {P,V,Data}\n", n);
    dod_entity *ids = (dod_entity *)wb_alloc(n * sizeof(dod_entity));
    dod_entity *mixed_ids = (dod_entity *)wb_alloc(n * sizeof(dod_entity));
    dod_world *mixed = mixed_world(n, mixed_ids);
    double t[N_OPS][WB_MAX_PASSES];
    for (int p = 0; p < passes; ++p)
        ops_pass(n, default_layout, ids, mixed, mixed_ids, t, p);
    double mn[N_OPS];
    for (int op = 0; op < N_OPS; ++op)
        mn[op] = wb_emit(op_names[op], "world", n, n, t[op], passes);
    dod_world_destroy(mixed);
    wb_free(ids, n * sizeof(dod_entity));
    wb_free(mixed_ids, n * sizeof(dod_entity));

    double ratio[N_IT_WORLDS];
    iterate_bench(n, passes, ratio);
    /* Per entity: beyond what the empty world holds (its archetypes, lists and index). */
    size_t empty = world_bytes(0, 0, default_layout);
    double fixed = (double)(world_bytes(n, 1, default_layout) - empty) / n;
    double chunked = (double)(world_bytes(n, 0, default_layout) - empty) / n;
    double small = (double)small_archetype_bytes(default_layout);
    printf("  an empty world holds %zu bytes\n", empty);
    wb_emit_bytes("world_fixed", n, fixed);
    wb_emit_bytes("world_chunked", n, chunked);
    printf("  ratio iterate world_chunked_16k (equal 16 KiB blocks, the layout before) / raw "
           "%.3f\n",
           ratio[IT_CHUNKED_16K]);

    bench_target("x", ratio[IT_FIXED], BENCH_AT_MOST, 1.1, "iterate world_fixed / raw, n %u", n);
    bench_target("x", ratio[IT_CHUNKED], BENCH_AT_MOST, 1.1, "iterate world_chunked / raw, n %u",
                 n);
    if (!targets)
        return;
    bench_target("bytes", small, BENCH_AT_MOST, 16384, "block bytes of 20 chunked {P, V}");
    bench_target("ns/entity", mn[OP_SPAWN], BENCH_AT_MOST, 20, "spawn, n %u", n);
    bench_target("ns/entity", mn[OP_SPAWN_N], BENCH_AT_MOST, 4, "spawn_n, n %u", n);
    bench_target("ns/entity", mn[OP_DESPAWN], BENCH_AT_MOST, 20, "despawn, n %u", n);
    bench_target("ns/entity", mn[OP_GET1], BENCH_AT_MOST, 3, "get1, n %u", n);
    bench_target("ns/entity", mn[OP_MOVE_PAIR], BENCH_AT_MOST, 25, "move_pair, n %u", n);
    bench_target("bytes/entity", fixed, BENCH_AT_MOST,
                 (double)(sizeof(position) + sizeof(velocity) + 16), "bytes world_fixed, n %u", n);
}

/* The sweep's scenarios: iterate (each layout against raw, warm then cold), then spawn,
 * move_pair and get1 (every op of a pass on one layout's worlds, the layouts in turn), then
 * the bytes. */
void scenarios_sweep(uint32_t n, int passes, const wb_layout *layouts, int n_layouts,
                     wb_sweep *out)
{
    const uint32_t chunked = 0;
    for (int k = 0; k < n_layouts; ++k)
        for (int cold = 0; cold < 2; ++cold) {
            double t_it[2][WB_MAX_PASSES];
            iterate_compare(n, passes, 1, &chunked, &layouts[k], cold ? wb_evict_caches : NULL,
                            t_it);
            double ratio = bench_min(t_it[0], passes) / bench_min(t_it[1], passes);
            *(cold ? &out[k].iterate_cold : &out[k].iterate) = ratio;
        }

    double t[WB_MAX_LAYOUTS][N_OPS][WB_MAX_PASSES];
    dod_entity *ids = (dod_entity *)wb_alloc(n * sizeof(dod_entity));
    dod_entity *mixed_ids = (dod_entity *)wb_alloc(n * sizeof(dod_entity));
    dod_world *mixed = mixed_world(n, mixed_ids);
    for (int p = 0; p < passes; ++p)
        for (int j = 0; j < n_layouts; ++j) {
            int k = (j + p) % n_layouts;
            ops_pass(n, layouts[k], ids, mixed, mixed_ids, t[k], p);
        }
    dod_world_destroy(mixed);
    wb_free(ids, n * sizeof(dod_entity));
    wb_free(mixed_ids, n * sizeof(dod_entity));

    size_t empty = world_bytes(0, 0, default_layout);
    for (int k = 0; k < n_layouts; ++k) {
        out[k].spawn = bench_min(t[k][OP_SPAWN], passes) * 1e6 / n;
        out[k].move_pair = bench_min(t[k][OP_MOVE_PAIR], passes) * 1e6 / n;
        out[k].get1 = bench_min(t[k][OP_GET1], passes) * 1e6 / n;
        out[k].bytes = (double)(world_bytes(n, 0, layouts[k]) - empty) / n;
        out[k].bytes20 = (double)small_archetype_bytes(layouts[k]);
    }
}
