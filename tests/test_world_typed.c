/* The typed layer in C: ids as constant expressions, the generated desc, typed spawn, the
 * seed's block loop, typed gets and fields, and a second world in the same file. */
#include <string.h>
#include "check.h"
#include "world_check.h"
#include "world_game.h"

/* ids are integer constant expressions */
_Static_assert(DOD_CID(game, position) == 0 && DOD_CID(game, buffs) == 3, "component ids");
_Static_assert(DOD_AID(game, entity_a) == 0 && DOD_AID(game, entity_c) == 2, "archetype ids");
static const char by_archetype[DOD_AID(game, entity_c) + 1] = { 'a', 'b', 'c' };

/* The seed's loop body, on restrict columns so the compiler vectorises it. */
static void step(uint32_t n, position *restrict p, const velocity *restrict v, float dt)
{
    for (uint32_t i = 0; i < n; ++i) {
        p[i].x += v[i].x * dt;
        p[i].y += v[i].y * dt;
    }
}

static void test_desc(void)
{
    dod_world_desc d = game_desc();
    CHECK_EQ(d.n_components, 5);
    CHECK_EQ(d.n_archetypes, 5);
    CHECK(d.alloc == NULL);
    CHECK(strcmp(d.components[1].name, "velocity") == 0);
    CHECK_EQ(d.components[3].size, sizeof(buffs));
    CHECK_EQ(d.components[2].align, _Alignof(hitbox));
    CHECK(strcmp(d.archetypes[2].name, "entity_c") == 0);
    CHECK_EQ(d.archetypes[0].n_components, 4);
    CHECK_EQ(d.archetypes[0].capacity, 4096);
    CHECK_EQ(d.archetypes[2].capacity, 0);
    CHECK_EQ(d.archetypes[2].components[1], DOD_CID(game, hitbox));
    CHECK_EQ(by_archetype[DOD_AID(game, entity_b)], 'b');
    CHECK_EQ(d.archetypes[4].n_components, 0); /* marker: ids only */
    CHECK_EQ(DOD_NARCHETYPES(game), d.n_archetypes);
    CHECK_EQ(DOD_NCOMPONENTS(game), d.n_components);
    CHECK_EQ(DOD_NARCHETYPES(tiny), 1);
}

static int same_archetype(const dod_archetype_desc *a, const dod_archetype_desc *b)
{
    return a->name == b->name && a->components == b->components &&
           a->n_components == b->n_components && a->capacity == b->capacity &&
           a->block_bytes == b->block_bytes && a->memory_cap == b->memory_cap;
}

/* Capacities, block sizes and caps decided at run time: the config is the desc's archetypes
 * by name, one line per change. */
static void test_config(void)
{
    game_config cfg = game_config_default();
    dod_world_desc d = game_desc();
    CHECK(same_archetype(&cfg.entity_a, &d.archetypes[0]));
    CHECK(same_archetype(&cfg.entity_c, &d.archetypes[2]));
    CHECK(same_archetype(&cfg.marker, &d.archetypes[4]));
    cfg.entity_c.block_bytes = 1024;
    cfg.entity_c.memory_cap = 2048;
    cfg.entity_a.capacity = 10;
    dod_world *w;
    CHECK_OK(game_create_config(&w, &cfg, NULL, 0));
    dod_entity e;
    uint32_t n = 0;
    while (game_entity_c_spawn(w, NULL, &e) == DOD_OK)
        ++n;
    uint64_t before = world_snap(w);
    CHECK_STATUS(game_entity_c_spawn(w, NULL, &e), DOD_E_FULL);
    CHECK(world_snap(w) == before);
    CHECK(n == 64 && n == game_entity_c_count(w)); /* two blocks of 32 rows */
    CHECK_OK(game_entity_a_spawn_n(w, 10, NULL));
    CHECK_STATUS(game_entity_a_spawn(w, NULL, &e), DOD_E_FULL);
    dod_world_destroy(w);
    /* NULL: the declared archetypes; the flags and the allocator reach the desc */
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator a = test_alloc_get(&ta);
    CHECK_OK(game_create_config(&w, NULL, &a, DOD_WORLD_PREFAULT));
    CHECK_OK(game_entity_a_spawn_n(w, 4096, NULL));
    CHECK(ta.calls > 0);
    dod_world_destroy(w);
    test_alloc_finish(&ta);
    dod_world *kept = (dod_world *)(void *)&cfg;
    w = kept;
    CHECK_STATUS(game_create_config(&w, &cfg, NULL, 0x10), DOD_E_INVALID);
    cfg.entity_b.block_bytes = 16;
    cfg.entity_b.capacity = 0; /* a chunked block too small for one row */
    CHECK_STATUS(game_create_config(&w, &cfg, NULL, 0), DOD_E_INVALID);
    CHECK(w == kept);
    CHECK_STATUS(game_create_config(NULL, NULL, NULL, 0), DOD_E_INVALID);
}

/* Frames of a runtime config hold worlds a world of that config copies into; the declared
 * desc's would not (another declaration). desc_config writes the archetypes it points at. */
static void test_frames_of_a_config(void)
{
    game_config cfg = game_config_default();
    cfg.entity_a.capacity = 100;
    cfg.entity_c.block_bytes = 2048;
    dod_world *live = NULL;
    CHECK_OK(game_create_config(&live, &cfg, NULL, 0));
    CHECK_OK(game_entity_a_spawn_n(live, 100, NULL));
    CHECK_OK(game_entity_c_spawn_n(live, 300, NULL));
    dod_frames *frames = NULL, *declared = NULL;
    CHECK_OK(game_frames_create_config(&frames, 3, &cfg, NULL, 0));
    CHECK_OK(game_frames_create_config(&declared, 2, NULL, NULL, 0));
    CHECK_OK(dod_world_copy((dod_world *)dod_frames_payload(frames, 0), live));
    CHECK(dod_world_equal((dod_world *)dod_frames_payload(frames, 0), live));
    CHECK_STATUS(dod_world_copy((dod_world *)dod_frames_payload(declared, 0), live),
                 DOD_E_INVALID);
    dod_archetype_desc archs[DOD_NARCHETYPES(game)];
    dod_world_desc d = game_desc_config(&cfg, archs);
    CHECK(d.archetypes == archs && archs[0].capacity == 100 && archs[2].block_bytes == 2048);
    CHECK(game_desc_config(NULL, archs).archetypes == game_desc().archetypes);
    CHECK(game_desc_config(&cfg, NULL).archetypes == game_desc().archetypes);
    dod_world_frames_destroy(declared);
    dod_world_frames_destroy(frames);
    dod_frames *kept = (dod_frames *)(void *)&cfg;
    frames = kept;
    CHECK_STATUS(game_frames_create_config(NULL, 3, &cfg, NULL, 0), DOD_E_INVALID);
    CHECK_STATUS(game_frames_create_config(&frames, 1, &cfg, NULL, 0), DOD_E_RANGE);
    CHECK(frames == kept);
    dod_world_destroy(live);
}

static void test_loop(void)
{
    dod_world *w;
    CHECK_OK(game_create(&w, NULL));
    dod_entity a[100], c[700];
    for (int i = 0; i < 100; ++i) {
        game_entity_a_row r;
        memset(&r, 0, sizeof r);
        r.position.x = (float)i;
        r.velocity.x = 1.0f;
        r.velocity.y = 2.0f;
        r.buffs.id[3] = (uint32_t)i;
        CHECK_OK(game_entity_a_spawn(w, &r, &a[i]));
    }
    for (int i = 0; i < 700; ++i)
        CHECK_OK(game_entity_c_spawn(w, NULL, &c[i]));
    CHECK_OK(game_entity_a_spawn(w, NULL, NULL)); /* the handle not needed */
    CHECK_EQ(dod_world_count(w, DOD_AID(game, entity_a)), 101);
    game_entity_a_cols last;
    int got = game_entity_a_block(w, 0, &last);
    CHECK(got && last.n == 101);
    if (got && last.n == 101) {
        CHECK(dod_world_alive(w, last.entities[100]));
        CHECK_OK(dod_world_despawn(w, last.entities[100]));
    }

    game_entity_a_cols cols;
    uint32_t blocks = 0;
    for (uint32_t b = 0; game_entity_a_block(w, b, &cols); ++b) {
        step(cols.n, cols.position, cols.velocity, 0.5f);
        CHECK((uintptr_t)cols.buffs % 64 == 0);
        CHECK_EQ(cols.entities[0].bits, a[0].bits);
        ++blocks;
    }
    CHECK_EQ(blocks, 1); /* fixed: one block */
    CHECK(!game_entity_a_block(w, 1, &cols));
    CHECK(!game_entity_a_block(w, 0, NULL));
    for (int i = 0; i < 100; ++i) {
        position *p = game_get_position(w, a[i]);
        CHECK(p && p->x == (float)i + 0.5f && p->y == 1.0f);
        CHECK(game_get_buffs(w, a[i])->id[3] == (uint32_t)i);
    }
    CHECK(game_get_velocity(w, c[0]) == NULL);
    game_entity_c_cols cc;
    uint32_t rows = 0;
    for (uint32_t b = 0; game_entity_c_block(w, b, &cc); ++b)
        rows += cc.n;
    CHECK_EQ(rows, 700);
    CHECK(dod_world_block(w, DOD_AID(game, entity_c), 1, NULL) > 0); /* chunked: blocks */

    /* a query over (position, velocity): entity_a and entity_b */
    dod_world_iter it;
    dod_query q;
    const uint32_t pv[] = { DOD_CID(game, position), DOD_CID(game, velocity) };
    CHECK_OK(dod_query_init(&q, w, pv, 2, NULL, 0));
    dod_world_iter_init(&it, w, &q);
    uint32_t seen = 0;
    while (dod_world_next(&it)) {
        step(it.n, DOD_FIELD(&it, game, position), DOD_FIELD(&it, game, velocity), 0.5f);
        CHECK(DOD_FIELD(&it, game, buffs) != NULL);
        seen += it.n;
    }
    CHECK_EQ(seen, 100);
    CHECK(game_get_position(w, a[7])->x == 8.0f);
    /* the same loop, typed: declared once, a struct of column pointers per block */
    game_movers_cols m;
    seen = 0;
    for (game_movers_begin(&it, w); game_movers_next(&it, &m);) {
        step(m.n, m.position, m.velocity, 0.5f);
        seen += m.n;
    }
    CHECK_EQ(seen, 100);
    CHECK(game_get_position(w, a[7])->x == 8.5f);

    /* a regiment routed: entity_a -> entity_c keeps position and hitbox */
    CHECK_OK(dod_world_move(w, a[7], DOD_AID(game, entity_c)));
    CHECK(game_get_position(w, a[7])->x == 8.5f && game_get_velocity(w, a[7]) == NULL);
    dod_world_destroy(w);
}

/* Typed add / remove / move_to, against what dod_world_add and dod_world_move do. */
static void test_add_remove(void)
{
    dod_world *w;
    CHECK_OK(game_create(&w, NULL));
    game_entity_c_row r = { { 3.0f, 4.0f }, { 0, 0, 1, 1 } };
    dod_entity e;
    CHECK_OK(game_entity_c_spawn(w, &r, &e));
    /* c + velocity = b, with the value given */
    velocity v = { 0.5f, -0.5f };
    CHECK_OK(game_add_velocity(w, e, &v));
    CHECK_EQ(dod_world_archetype_of(w, e), DOD_AID(game, entity_b));
    CHECK(game_get_velocity(w, e)->y == -0.5f && game_get_position(w, e)->x == 3.0f);
    /* adding what it has: no move, the value written (an add with a value sets it) */
    v.y = 9.0f;
    CHECK_OK(game_add_velocity(w, e, &v));
    CHECK(game_get_velocity(w, e)->y == 9.0f);
    CHECK_EQ(dod_world_archetype_of(w, e), DOD_AID(game, entity_b));
    /* b + buffs = a, zeroed (NULL value) */
    CHECK_OK(game_add_buffs(w, e, NULL));
    CHECK_EQ(dod_world_archetype_of(w, e), DOD_AID(game, entity_a));
    CHECK(game_get_buffs(w, e)->id[0] == 0 && game_get_velocity(w, e)->y == 9.0f);
    /* a value that lies in the world: another entity's buffs, in a row the move touches */
    dod_entity other;
    game_entity_a_row ar;
    memset(&ar, 0, sizeof ar);
    ar.buffs.id[2] = 77;
    CHECK_OK(game_entity_a_spawn(w, &ar, &other));
    CHECK_OK(game_remove_buffs(w, e));
    CHECK_OK(game_add_buffs(w, e, game_get_buffs(w, other)));
    CHECK(game_get_buffs(w, e)->id[2] == 77);
    /* a - buffs - velocity = c; a - position: no archetype has {velocity, hitbox, buffs} */
    uint64_t before = world_snap(w);
    CHECK_STATUS(game_remove_position(w, e), DOD_E_UNDECLARED);
    CHECK(world_snap(w) == before);
    CHECK_STATUS(game_add_position(w, (dod_entity){ 0 }, NULL), DOD_E_NOT_FOUND);
    CHECK_OK(game_remove_buffs(w, e));
    CHECK_OK(game_remove_velocity(w, e));
    CHECK_EQ(dod_world_archetype_of(w, e), DOD_AID(game, entity_c));
    CHECK(game_get_position(w, e)->y == 4.0f);
    /* a refused add writes nothing: c + buffs is {position, hitbox, buffs}, not declared */
    before = world_snap(w);
    CHECK_STATUS(game_add_buffs(w, e, &ar.buffs), DOD_E_UNDECLARED);
    CHECK(world_snap(w) == before);
    dod_world_destroy(w);
    CHECK_OK(tiny_create(&w, NULL));
    dod_entity m;
    CHECK_OK(tiny_mover_spawn(w, NULL, &m));
    CHECK_OK(tiny_add_velocity(w, m, NULL)); /* has it: no-op */
    CHECK_STATUS(tiny_remove_velocity(w, m), DOD_E_UNDECLARED); /* no empty archetype */
    dod_world_destroy(w);
    /* move_to names the archetype */
    CHECK_OK(game_create(&w, NULL));
    CHECK_OK(game_entity_c_spawn(w, &r, &e));
    CHECK_OK(game_move_to_entity_a(w, e));
    CHECK_EQ(dod_world_archetype_of(w, e), DOD_AID(game, entity_a));
    CHECK(game_get_hitbox(w, e)->w == 1.0f && game_get_buffs(w, e) != NULL);
    CHECK_OK(game_move_to_entity_a(w, e));
    CHECK_STATUS(game_move_to_entity_c(NULL, e), DOD_E_INVALID);
    dod_world_destroy(w);
}

static void test_second_world(void)
{
    dod_world *w;
    CHECK_OK(tiny_create(&w, NULL));
    tiny_mover_row r = { { 1.0f, 2.0f } };
    dod_entity e;
    for (int i = 0; i < 3; ++i)
        CHECK_OK(tiny_mover_spawn(w, &r, &e));
    CHECK_STATUS(tiny_mover_spawn(w, &r, &e), DOD_E_FULL);
    CHECK(tiny_get_velocity(w, e)->y == 2.0f);
    CHECK_EQ(DOD_CID(tiny, velocity), 0);
    dod_world_destroy(w);
}

int main(void)
{
    test_desc();
    test_config();
    test_frames_of_a_config();
    test_loop();
    test_add_remove();
    test_second_world();
    return check_summary("world_typed");
}
