/* The seed's comparison: `update`, position += movement for every entity that has both, over
 * N entities of the seed's three types in the mix 4:2:1, run alternately:
 *   oop_new        the seed's OOP baseline: std::vector<IEntity *>, objects made with new
 *   oop_pages      its second variant: the same objects laid out by its page allocator
 *   world          the world declared as the seed's manager (A and B fixed capacity, C
 *                  chunked), updated by the typed block loop
 *   world_chunked  every archetype chunked (the default blocks), the same loop
 *   raw            plain arrays per type, one restrict loop per type (raw.c)
 * Every variant starts from the same values and adds the same floats per entity in the same
 * order, so after the passes every position must equal raw's bit for bit. */
#include <string.h>
#include <dod/world.h>
#include "oop.h"
#include "world_bench.h"

#define GAME_COMPONENTS(C) C(position) C(movement) C(hitbox) C(buffs)
#define ENTITY_A(X) X(position) X(movement) X(hitbox) X(buffs)
#define ENTITY_B(X) X(position) X(movement) X(hitbox)
#define ENTITY_C(X) X(position) X(hitbox)
/* A capacity > 0 marks a fixed archetype; seed_world_desc sets it to the run's count. */
#define GAME_ARCHETYPES(A)                                                                     \
    A(entity_a, ENTITY_A, 1) A(entity_b, ENTITY_B, 1) A(entity_c, ENTITY_C, 0)
DOD_WORLD(game, GAME_COMPONENTS, GAME_ARCHETYPES)

_Static_assert(DOD_AID(game, entity_a) == SEED_A && DOD_AID(game, entity_b) == SEED_B &&
                   DOD_AID(game, entity_c) == SEED_C,
               "archetype ids follow the population's types");

/* The seed's loop in the typed layer; entity_c has no movement and is not visited. */
static void world_update(const dod_world *w)
{
    game_entity_a_cols a;
    for (uint32_t b = 0; game_entity_a_block(w, b, &a); ++b)
        step_move(a.n, a.position, a.movement);
    game_entity_b_cols c;
    for (uint32_t b = 0; game_entity_b_block(w, b, &c); ++b)
        step_move(c.n, c.position, c.movement);
}

dod_world_desc seed_world_desc(const seed_population *s, int chunked, wb_layout layout,
                               dod_archetype_desc arch[SEED_TYPES])
{
    dod_world_desc d = game_desc();
    memcpy(arch, d.archetypes, SEED_TYPES * sizeof *arch);
    for (int t = 0; t < SEED_TYPES; ++t) {
        arch[t].capacity = chunked || !arch[t].capacity ? 0u : (uint32_t)s->count[t];
        arch[t].block_bytes = layout.block_bytes;
        arch[t].first_block_bytes = layout.first_block_bytes;
    }
    d.archetypes = arch;
    return d;
}

dod_world *seed_world(const seed_population *s, int chunked, wb_layout layout)
{
    dod_archetype_desc arch[SEED_TYPES];
    dod_world_desc d = seed_world_desc(s, chunked, layout, arch);
    return seed_world_of(s, &d);
}

dod_world *seed_world_of(const seed_population *s, const dod_world_desc *d)
{
    dod_world *w = NULL;
    wb_check(dod_world_create(&w, d), "seed world create");
    size_t k[SEED_TYPES] = { 0, 0, 0 };
    for (size_t i = 0; i < s->n; ++i) {
        int t = s->order[i];
        size_t j = k[t]++;
        dod_entity e;
        dod_status st;
        if (t == SEED_A) {
            game_entity_a_row r;
            memset(&r, 0, sizeof r);
            r.position = s->pos[t][j];
            r.movement = s->mov[t][j];
            st = game_entity_a_spawn(w, &r, &e);
        } else if (t == SEED_B) {
            game_entity_b_row r;
            memset(&r, 0, sizeof r);
            r.position = s->pos[t][j];
            r.movement = s->mov[t][j];
            st = game_entity_b_spawn(w, &r, &e);
        } else {
            game_entity_c_row r;
            memset(&r, 0, sizeof r);
            r.position = s->pos[t][j];
            st = game_entity_c_spawn(w, &r, &e);
        }
        wb_check(st, "seed world spawn");
    }
    return w;
}

/* The world's positions equal raw's: archetype a's rows are its entities in spawn order. */
static int world_matches(const dod_world *w, const seed_population *s)
{
    const uint32_t all[1] = { DOD_CID(game, position) };
    dod_query q;
    wb_check(dod_query_init(&q, w, all, 1, NULL, 0), "seed query");
    dod_world_iter it;
    size_t row[SEED_TYPES] = { 0, 0, 0 };
    dod_world_iter_init(&it, w, &q);
    while (dod_world_next(&it)) {
        uint32_t t = it.archetype;
        if (t >= SEED_TYPES || row[t] + it.n > s->count[t] ||
            memcmp(DOD_FIELD(&it, game, position), s->pos[t] + row[t], it.n * sizeof(position)))
            return 0;
        row[t] += it.n;
    }
    return row[SEED_A] == s->count[SEED_A] && row[SEED_B] == s->count[SEED_B] &&
           row[SEED_C] == s->count[SEED_C];
}

static int oop_matches(const oop_world *o, const seed_population *s)
{
    int same = 1;
    for (int t = 0; t < SEED_TYPES && same; ++t) {
        float *xy = (float *)wb_alloc(s->count[t] * 2 * sizeof(float));
        oop_positions(o, t, xy);
        same = memcmp(xy, s->pos[t], s->count[t] * sizeof(position)) == 0;
        wb_free(xy, s->count[t] * 2 * sizeof(float));
    }
    return same;
}

static const wb_layout default_layout = { 0 };

enum { V_OOP_NEW, V_OOP_PAGES, V_WORLD, V_WORLD_CHUNKED, V_RAW, N_VARIANTS };
static const char *const variant_names[N_VARIANTS] = { "oop_new", "oop_pages", "world",
                                                       "world_chunked", "raw" };

typedef struct seed_run {
    seed_population *s;
    oop_world *oop[2];
    dod_world *world[2];
} seed_run;

static void run_variant(void *ctx, int v)
{
    seed_run *r = (seed_run *)ctx;
    switch (v) {
    case V_OOP_NEW: oop_update(r->oop[0]); break;
    case V_OOP_PAGES: oop_update(r->oop[1]); break;
    case V_WORLD: world_update(r->world[0]); break;
    case V_WORLD_CHUNKED: world_update(r->world[1]); break;
    default: raw_update(r->s); break;
    }
}

void seed_update_bench(size_t n, int passes)
{
    seed_population s;
    seed_population_init(&s, n);
    const float *pos[SEED_TYPES], *mov[SEED_TYPES];
    for (int t = 0; t < SEED_TYPES; ++t) {
        pos[t] = (const float *)s.pos[t];
        mov[t] = (const float *)s.mov[t];
    }
    seed_run r = { &s, { NULL, NULL }, { NULL, NULL } };
    for (int c = 0; c < 2; ++c) {
        r.oop[c] = oop_create(s.order, n, pos, mov, c);
        if (!r.oop[c])
            wb_check(DOD_E_NOMEM, "oop create");
        r.world[c] = seed_world(&s, c, default_layout);
    }
    printf("update: the seed's mix at n %zu (A %zu, B %zu, C %zu); sizeof EntityA %zu, "
           "EntityB %zu, EntityC %zu\n",
           n, s.count[SEED_A], s.count[SEED_B], s.count[SEED_C], oop_object_bytes(SEED_A),
           oop_object_bytes(SEED_B), oop_object_bytes(SEED_C));

    double t[N_VARIANTS][WB_MAX_PASSES];
    wb_alternate(N_VARIANTS, passes, NULL, run_variant, &r, t);
    double mn[N_VARIANTS];
    for (int v = 0; v < N_VARIANTS; ++v)
        mn[v] = wb_emit("update", variant_names[v], n, (double)n, t[v], passes);

    wb_require(oop_matches(r.oop[0], &s), "oop_new positions differ from raw");
    wb_require(oop_matches(r.oop[1], &s), "oop_pages positions differ from raw");
    wb_require(world_matches(r.world[0], &s), "world positions differ from raw");
    wb_require(world_matches(r.world[1], &s), "world_chunked positions differ from raw");

    bench_target("x", mn[V_WORLD] / mn[V_RAW], BENCH_AT_MOST, 1.1, "update world / raw, n %zu", n);
    bench_target("x", mn[V_WORLD_CHUNKED] / mn[V_RAW], BENCH_AT_MOST, 1.1,
                 "update world_chunked / raw, n %zu", n);
    if (n >= WB_1M)
        bench_target("x", mn[V_OOP_NEW] / mn[V_WORLD], BENCH_AT_LEAST, 8.0,
                     "update oop_new / world, n %zu", n);
    printf("  ratio oop_new / world %.2f, oop_pages / world %.2f, oop_pages / oop_new %.2f\n",
           mn[V_OOP_NEW] / mn[V_WORLD], mn[V_OOP_PAGES] / mn[V_WORLD],
           mn[V_OOP_PAGES] / mn[V_OOP_NEW]);
    for (int c = 0; c < 2; ++c) {
        oop_destroy(r.oop[c]);
        dod_world_destroy(r.world[c]);
    }
    seed_population_free(&s);
}

typedef struct sweep_run {
    seed_population *s;
    dod_world *world;
} sweep_run;

static void run_sweep(void *ctx, int v)
{
    sweep_run *r = (sweep_run *)ctx;
    if (v == 1)
        raw_update(r->s);
    else
        world_update(r->world);
}

void seed_update_sweep(size_t n, int passes, const wb_layout *layouts, int n_layouts,
                       wb_sweep *out)
{
    seed_population s;
    seed_population_init(&s, n);
    for (int k = 0; k < n_layouts; ++k) {
        sweep_run r = { &s, seed_world(&s, 1, layouts[k]) };
        for (int cold = 0; cold < 2; ++cold) {
            double t[2][WB_MAX_PASSES];
            wb_alternate(2, passes, cold ? wb_evict_caches : NULL, run_sweep, &r, t);
            double ratio = bench_min(t[0], passes) / bench_min(t[1], passes);
            *(cold ? &out[k].update_cold : &out[k].update) = ratio;
        }
        wb_require(world_matches(r.world, &s), "sweep: world positions differ from raw");
        dod_world_destroy(r.world);
    }
    seed_population_free(&s);
}
