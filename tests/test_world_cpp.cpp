// The world and its typed layer compile as C++ (components named after their types, reached
// as ::position from the generated structs) and link against the C library: typed spawns
// (one, bulk, without a row for the archetype that has no component), the block loop, typed
// queries (written columns mutable, read ones const), add / remove / move_to, the config.
#include <cstring>
#include <type_traits>
#include "check.h"
#include "world_game.h"

static_assert(DOD_CID(game, hitbox) == 2, "component ids are constant expressions");
static_assert(DOD_AID(game, entity_b) == 1, "archetype ids are constant expressions");
static_assert(DOD_NARCHETYPES(game) == 5 && DOD_NCOMPONENTS(game) == 5, "counts");
static_assert(game_movers_n_writes == 1 && game_movers_n_reads == 1, "query counts");
static_assert(std::is_same<decltype(game_movers_cols::velocity), const velocity *>::value,
              "a read component is a const column");
static_assert(std::is_same<decltype(game_movers_cols::position), position *>::value,
              "a written component is a mutable column");

static void step(uint32_t n, position *p, const velocity *v, float dt)
{
    for (uint32_t i = 0; i < n; ++i) {
        p[i].x += v[i].x * dt;
        p[i].y += v[i].y * dt;
    }
}

int main()
{
    game_config cfg = game_config_default();
    cfg.entity_c.block_bytes = 1024;
    dod_world *w = nullptr;
    CHECK_OK(game_create_config(&w, &cfg, nullptr, DOD_WORLD_PREFAULT));
    dod_entity b[10];
    for (int i = 0; i < 10; ++i) {
        game_entity_b_row r;
        std::memset(&r, 0, sizeof r);
        r.position.x = static_cast<float>(i);
        r.velocity.y = 4.0f;
        r.hitbox.w = 1.0f;
        CHECK_OK(game_entity_b_spawn(w, &r, &b[i]));
    }
    game_entity_b_cols c;
    for (uint32_t blk = 0; game_entity_b_block(w, blk, &c); ++blk)
        step(c.n, c.position, c.velocity, 0.25f);
    dod_query q;
    CHECK_OK(dod_query_init(&q, w, nullptr, 0, nullptr, 0));
    dod_world_iter it;
    dod_world_iter_init(&it, w, &q);
    uint32_t seen = 0;
    while (dod_world_next(&it)) {
        CHECK(DOD_FIELD(&it, game, hitbox) != nullptr);
        seen += it.n;
    }
    CHECK_EQ(seen, 10u);
    CHECK(game_get_position(w, b[3])->y == 1.0f && game_get_hitbox(w, b[3])->w == 1.0f);
    CHECK_OK(dod_world_move(w, b[3], DOD_AID(game, entity_c)));
    CHECK(game_get_velocity(w, b[3]) == nullptr && game_get_position(w, b[3])->x == 3.0f);

    // bulk spawns, the typed query, add / remove
    game_ice_row ice = { { 1, 1 }, { 2, 2 }, { 5 } };
    CHECK_OK(game_ice_spawn_fill(w, 3, &ice, nullptr));
    game_entity_c_row rows[40];
    std::memset(rows, 0, sizeof rows);
    rows[39].position.x = 39.0f;
    dod_entity last[40];
    CHECK_OK(game_entity_c_spawn_rows(w, 40, rows, last));
    CHECK(game_get_position(w, last[39])->x == 39.0f && game_entity_c_count(w) == 41);
    CHECK_OK(game_marker_spawn_n(w, 2, nullptr));
    CHECK_OK(game_marker_spawn(w, nullptr, nullptr));
    game_movers_cols m;
    seen = 0;
    for (game_movers_begin(&it, w); game_movers_next(&it, &m);) {
        step(m.n, m.position, m.velocity, 1.0f);
        seen += m.n;
    }
    CHECK_EQ(seen, 9u); // the b's, not the frozen ice
    CHECK(game_get_position(w, b[4])->y == 5.0f);
    game_everything_cols all;
    seen = 0;
    for (game_everything_begin(&it, w); game_everything_next(&it, &all);)
        seen += all.n;
    CHECK_EQ(seen, 10u + 3u + 40u + 3u);
    const velocity v = { 7.0f, 8.0f };
    CHECK_OK(game_add_velocity(w, last[0], &v));
    CHECK(game_get_velocity(w, last[0])->x == 7.0f);
    CHECK_OK(game_remove_velocity(w, last[0]));
    CHECK_STATUS(game_remove_frozen(w, last[0]), DOD_OK); // lacks it: no-op
    CHECK_OK(game_move_to_entity_a(w, last[0]));
    CHECK_EQ(dod_world_archetype_of(w, last[0]), DOD_AID(game, entity_a));

    dod_cmds cb; // command buffers, typed: a spawn with a row, a set
    CHECK_OK(dod_cmds_init(&cb, w, nullptr));
    game_entity_c_row wreck = { { 7.0f, 8.0f }, { 0.0f, 0.0f, 2.0f, 2.0f } };
    dod_entity later;
    CHECK_OK(game_entity_c_cmd_spawn(&cb, &wreck, &later));
    const position moved = { 1.5f, 2.5f };
    CHECK_OK(game_cmd_set_position(&cb, b[4], &moved));
    CHECK_OK(dod_world_apply(w, &cb, 1, nullptr));
    later = dod_cmds_resolve(&cb, later);
    CHECK(game_get_position(w, later)->y == 8.0f && game_get_hitbox(w, later)->w == 2.0f);
    CHECK(game_get_position(w, b[4])->x == 1.5f);
    dod_cmds_free(&cb);
    dod_world *t = nullptr;
    CHECK_OK(tiny_create(&t, nullptr));
    dod_entity mv;
    CHECK_OK(tiny_mover_spawn(t, nullptr, &mv));
    CHECK(tiny_get_velocity(t, mv)->x == 0.0f);
    dod_world_destroy(t);
    dod_world_destroy(w);
    return check_summary("world_cpp");
}
