/* Typed queries (DOD_QUERY) against a reference model: random typed spawns, despawns, adds
 * and removes on the test game, and after every step the typed query visits exactly the
 * model's live entities that have position and velocity and are not frozen, with their
 * values, block for block as the untyped query and dod_world_field do; its writes land where
 * the model says. Then the generated ids and counts, an iterator on part of a block (a
 * schedule's task), the queries without columns, and the refusals. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "world_check.h"
#include "world_game.h"

/* The ids are the lists' items, in order, each array ending with UINT32_MAX. */
_Static_assert(game_movers_n_writes == 1 && game_movers_n_reads == 1 &&
                   game_movers_n_excludes == 1, "movers counts");
_Static_assert(game_loose_n_writes == 0 && game_loose_n_excludes == 1, "loose counts");
_Static_assert(game_everything_n_writes + game_everything_n_reads +
                   game_everything_n_excludes == 0, "everything counts");

enum { MAX_SLOTS = 4096, N_ARCH = 5 };

typedef struct ent {
    dod_entity e;
    uint32_t arch;
    position p;
    velocity v;
} ent;

typedef struct model {
    ent by_slot[MAX_SLOTS];
    uint32_t live[MAX_SLOTS], n_live;
    uint32_t seen[MAX_SLOTS]; /* the check that last saw each slot */
} model;

static int has_pv(uint32_t arch)
{
    return arch == DOD_AID(game, entity_a) || arch == DOD_AID(game, entity_b) ||
           arch == DOD_AID(game, ice);
}

static int moves(uint32_t arch)
{
    return has_pv(arch) && arch != DOD_AID(game, ice);
}

static float rnd(test_rng *rng)
{
    return (float)test_rng_below(rng, 1000) * 0.25f;
}

static void spawn(dod_world *w, model *m, test_rng *rng)
{
    uint32_t arch = test_rng_below(rng, N_ARCH);
    position p = { rnd(rng), rnd(rng) };
    velocity v = { rnd(rng), rnd(rng) };
    dod_entity e = { 0 };
    dod_status st = DOD_OK;
#define SPAWN_MOVER(a)                                                                         \
    {                                                                                          \
        game_##a##_row r;                                                                      \
        memset(&r, 0, sizeof r);                                                               \
        r.position = p, r.velocity = v;                                                        \
        st = game_##a##_spawn(w, &r, &e);                                                      \
        break;                                                                                 \
    }
    switch (arch) {
    case DOD_AID(game, entity_a): SPAWN_MOVER(entity_a)
    case DOD_AID(game, entity_b): SPAWN_MOVER(entity_b)
    case DOD_AID(game, entity_c): {
        game_entity_c_row r;
        memset(&r, 0, sizeof r);
        r.position = p;
        st = game_entity_c_spawn(w, &r, &e);
        break;
    }
    case DOD_AID(game, ice): {
        game_ice_row r = { p, v, { 7 } };
        st = game_ice_spawn(w, &r, &e);
        break;
    }
    default:
        st = game_marker_spawn(w, NULL, &e);
        break;
    }
    CHECK_OK(st);
    uint32_t slot = (uint32_t)e.bits;
    CHECK(slot < MAX_SLOTS);
    if (st != DOD_OK || slot >= MAX_SLOTS)
        return;
    ent *x = &m->by_slot[slot];
    x->e = e;
    x->arch = arch;
    x->p = has_pv(arch) || arch == DOD_AID(game, entity_c) ? p : (position){ 0, 0 };
    x->v = has_pv(arch) ? v : (velocity){ 0, 0 };
    m->live[m->n_live++] = slot;
}

/* Remove or add velocity or frozen: the world decides where it goes (tested elsewhere), the
 * model follows: velocity kept, or zero when it was added. */
static void change(dod_world *w, model *m, test_rng *rng)
{
    ent *x = &m->by_slot[m->live[test_rng_below(rng, m->n_live)]];
    dod_status st;
    switch (test_rng_below(rng, 4)) {
    case 0: st = game_add_velocity(w, x->e, NULL); break;
    case 1: st = game_remove_velocity(w, x->e); break;
    case 2: st = game_add_frozen(w, x->e, NULL); break;
    default: st = game_remove_frozen(w, x->e); break;
    }
    CHECK(st == DOD_OK || st == DOD_E_UNDECLARED);
    uint32_t arch = dod_world_archetype_of(w, x->e);
    if (!has_pv(x->arch) && has_pv(arch))
        x->v = (velocity){ 0, 0 };
    x->arch = arch;
}

/* The typed query visits the model's movers once each, with their values, on the same blocks
 * and columns as the untyped query; and steps them (position += velocity), as the model does. */
static int check_movers(dod_world *w, model *m, uint32_t check_no)
{
    const uint32_t all[] = { DOD_CID(game, position), DOD_CID(game, velocity) };
    const uint32_t none[] = { DOD_CID(game, frozen) };
    dod_query q;
    CHECK_OK(dod_query_init(&q, w, all, 2, none, 1));
    dod_world_iter raw, it;
    dod_world_iter_init(&raw, w, &q);
    game_movers_cols c;
    int ok = 1;
    uint32_t visited = 0;
    CHECK_OK(game_movers_begin(&it, w));
    while (game_movers_next(&it, &c)) {
        ok &= dod_world_next(&raw) && raw.n == c.n && raw.archetype == c.archetype &&
              raw.entities == c.entities && DOD_FIELD(&raw, game, position) == c.position &&
              DOD_FIELD(&raw, game, velocity) == c.velocity;
        for (uint32_t i = 0; i < c.n; ++i) {
            uint32_t slot = (uint32_t)c.entities[i].bits;
            ent *x = slot < MAX_SLOTS ? &m->by_slot[slot] : NULL;
            ok &= x && x->e.bits == c.entities[i].bits && moves(x->arch) &&
                  x->arch == c.archetype && m->seen[slot] != check_no;
            if (!x)
                continue;
            m->seen[slot] = check_no;
            ok &= memcmp(&c.position[i], &x->p, sizeof x->p) == 0 &&
                  memcmp(&c.velocity[i], &x->v, sizeof x->v) == 0;
            c.position[i].x += c.velocity[i].x;
            c.position[i].y += c.velocity[i].y;
            x->p.x += x->v.x;
            x->p.y += x->v.y;
        }
        visited += c.n;
    }
    ok &= !dod_world_next(&raw);
    uint32_t want = 0;
    for (uint32_t i = 0; i < m->n_live; ++i)
        want += moves(m->by_slot[m->live[i]].arch) ? 1u : 0u;
    ok &= visited == want;
    return ok;
}

/* loose (no column, X only) visits every entity that is not frozen; everything, every one. */
static int check_counts(const dod_world *w, const model *m)
{
    dod_world_iter it;
    game_loose_cols lc;
    game_everything_cols ec;
    uint32_t loose = 0, every = 0, want_loose = 0;
    for (game_loose_begin(&it, w); game_loose_next(&it, &lc);)
        loose += lc.n;
    for (game_everything_begin(&it, w); game_everything_next(&it, &ec);)
        every += ec.n;
    for (uint32_t i = 0; i < m->n_live; ++i)
        want_loose += m->by_slot[m->live[i]].arch != DOD_AID(game, ice) ? 1u : 0u;
    return loose == want_loose && every == m->n_live;
}

static void test_against_model(uint64_t seed)
{
    dod_world *w;
    CHECK_OK(game_create(&w, NULL));
    model *m = (model *)calloc(1, sizeof *m);
    test_rng rng = { seed };
    long failed_before = check_failed;
    for (uint32_t step = 1; step <= 1500 && check_failed == failed_before && m; ++step) {
        uint32_t op = test_rng_below(&rng, 10);
        if (op < 4 || m->n_live == 0) {
            spawn(w, m, &rng);
        } else if (op < 6) {
            uint32_t i = test_rng_below(&rng, m->n_live);
            CHECK_OK(dod_world_despawn(w, m->by_slot[m->live[i]].e));
            m->live[i] = m->live[--m->n_live];
        } else {
            change(w, m, &rng);
        }
        CHECK(check_movers(w, m, step));
        CHECK(check_counts(w, m));
        if (check_failed != failed_before)
            fprintf(stderr, "  seed %llu: first failure at step %u\n", (unsigned long long)seed,
                    step);
    }
    free(m);
    dod_world_destroy(w);
}

static void test_ids(void)
{
    CHECK_EQ(game_movers_writes[0], DOD_CID(game, position));
    CHECK_EQ(game_movers_writes[1], UINT32_MAX);
    CHECK_EQ(game_movers_reads[0], DOD_CID(game, velocity));
    CHECK_EQ(game_movers_excludes[0], DOD_CID(game, frozen));
    CHECK_EQ(game_loose_writes[0], UINT32_MAX);
    CHECK_EQ(game_everything_excludes[0], UINT32_MAX);
    CHECK_EQ(DOD_NCOMPONENTS(game), 5);
    CHECK_EQ(DOD_NARCHETYPES(game), 5);
    dod_world *w;
    CHECK_OK(game_create(&w, NULL));
    dod_query q;
    CHECK_OK(game_movers_query(&q, w));
    CHECK_EQ(q.archetypes[0], (1u << DOD_AID(game, entity_a)) | (1u << DOD_AID(game, entity_b)));
    CHECK_OK(game_loose_query(&q, w));
    CHECK_EQ(q.archetypes[0], 0x1Fu & ~(1u << DOD_AID(game, ice)));
    CHECK_STATUS(game_movers_query(NULL, w), DOD_E_INVALID);
    CHECK_STATUS(game_movers_query(&q, NULL), DOD_E_INVALID);
    dod_world_destroy(w);
}

/* A schedule's task covers part of a block: cols_of gives the columns from its first row. */
static void test_part_of_a_block(void)
{
    dod_world *w;
    CHECK_OK(game_create(&w, NULL));
    game_entity_b_row r;
    memset(&r, 0, sizeof r);
    for (int i = 0; i < 40; ++i) {
        r.position.x = (float)i;
        CHECK_OK(game_entity_b_spawn(w, &r, NULL));
    }
    game_entity_b_cols whole;
    memset(&whole, 0, sizeof whole);
    CHECK(game_entity_b_block(w, 0, &whole) && whole.n == 40);
    dod_world_iter it;
    dod__world_iter_rows(&it, w, DOD_AID(game, entity_b), 0, 10, 5);
    game_movers_cols c;
    CHECK(game_movers_cols_of(&it, &c));
    CHECK(c.n == 5 && c.archetype == DOD_AID(game, entity_b));
    CHECK(c.entities == whole.entities + 10 && c.position == whole.position + 10 &&
          c.velocity == whole.velocity + 10 && c.position[0].x == 10.0f);
    CHECK(!game_movers_next(&it, &c)); /* a task's iterator covers its rows only */
    CHECK(!game_movers_cols_of(NULL, &c));
    dod_world_iter_init(&it, w, NULL); /* stands on nothing */
    CHECK(!game_movers_cols_of(&it, &c));
    CHECK(!game_movers_next(&it, &c));
    dod__world_iter_rows(&it, w, DOD_AID(game, entity_b), 0, 0, 40);
    CHECK(!game_movers_cols_of(&it, NULL));
    /* begin refuses what the query refuses, and its iterator then visits nothing */
    CHECK_STATUS(game_movers_begin(NULL, w), DOD_E_INVALID);
    CHECK_STATUS(game_movers_begin(&it, NULL), DOD_E_INVALID);
    CHECK(!game_movers_next(&it, &c));
    dod_world_destroy(w);
}

int main(void)
{
    for (uint64_t seed = 1; seed <= 3; ++seed)
        test_against_model(seed);
    test_ids();
    test_part_of_a_block();
    return check_summary("world_typed_query");
}
