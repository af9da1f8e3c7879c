// The world and its typed layer compile as C++ (components named after their types, reached
// as ::position from the generated structs) and link against the C library.
#include <cstring>
#include "check.h"
#include "world_game.h"

static_assert(DOD_CID(game, hitbox) == 2, "component ids are constant expressions");
static_assert(DOD_AID(game, entity_b) == 1, "archetype ids are constant expressions");

static void step(uint32_t n, position *p, const velocity *v, float dt)
{
    for (uint32_t i = 0; i < n; ++i) {
        p[i].x += v[i].x * dt;
        p[i].y += v[i].y * dt;
    }
}

int main()
{
    dod_world *w = nullptr;
    CHECK_OK(game_create(&w, nullptr));
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
    dod_entity m;
    CHECK_OK(tiny_mover_spawn(t, nullptr, &m));
    CHECK(tiny_get_velocity(t, m)->x == 0.0f);
    dod_world_destroy(t);
    dod_world_destroy(w);
    return check_summary("world_cpp");
}
