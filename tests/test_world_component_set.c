/* The typed component sets (DOD_COMPONENT_SET): several components added or removed in one
 * move, directly and as commands, the archetype a set is declared as, and the refusals (an
 * undeclared result, the world and the buffer unchanged). And the typed reserve. */
#include "check.h"
#include "world_game.h"

#define GEAR(X) X(velocity) X(buffs)  /* entity_c {position, hitbox} + gear = entity_a */
#define CHILL(X) X(frozen)            /* entity_c + chill: no archetype has that set */
#define A_PARTS(X) ENTITY_A(X)
DOD_COMPONENT_SET(game, gear, GEAR)
DOD_COMPONENT_SET(game, chill, CHILL)
DOD_COMPONENT_SET(game, a_parts, A_PARTS)

static void test_ids(void)
{
    CHECK_EQ(game_gear_n, 2);
    CHECK_EQ(game_gear_ids[0], DOD_CID(game, velocity));
    CHECK_EQ(game_gear_ids[1], DOD_CID(game, buffs));
    CHECK_EQ(game_gear_ids[2], UINT32_MAX);
}

static void test_direct(void)
{
    dod_world *w = NULL;
    CHECK_OK(game_create(&w, NULL));
    uint32_t a = UINT32_MAX;
    CHECK_OK(game_a_parts_archetype(w, &a));
    CHECK_EQ(a, DOD_AID(game, entity_a));
    CHECK_STATUS(game_gear_archetype(w, &a), DOD_E_UNDECLARED); /* no archetype is just gear */
    CHECK_EQ(a, DOD_AID(game, entity_a));

    game_entity_c_row row = { { 1.0f, 2.0f }, { 3.0f, 4.0f, 5.0f, 6.0f } };
    dod_entity e;
    CHECK_OK(game_entity_c_spawn(w, &row, &e));
    CHECK_OK(game_add_gear(w, e));
    CHECK_EQ(dod_world_archetype_of(w, e), DOD_AID(game, entity_a));
    CHECK_EQ(game_get_position(w, e)->y, 2.0f); /* kept */
    CHECK_EQ(game_get_velocity(w, e)->x, 0.0f); /* added zeroed */
    CHECK_STATUS(game_add_chill(w, e), DOD_E_UNDECLARED); /* entity_a + frozen */
    CHECK_EQ(dod_world_archetype_of(w, e), DOD_AID(game, entity_a));
    CHECK_OK(game_remove_gear(w, e));
    CHECK_EQ(dod_world_archetype_of(w, e), DOD_AID(game, entity_c));
    CHECK_EQ(game_get_hitbox(w, e)->h, 6.0f);
    CHECK_STATUS(game_add_chill(w, e), DOD_E_UNDECLARED);
    CHECK_EQ(dod_world_archetype_of(w, e), DOD_AID(game, entity_c));
    dod_world_destroy(w);
}

static void test_commands(void)
{
    dod_world *w = NULL;
    CHECK_OK(game_create(&w, NULL));
    dod_entity e, p;
    CHECK_OK(game_entity_c_spawn(w, NULL, &e));
    dod_cmds cb;
    CHECK_OK(dod_cmds_init(&cb, w, NULL));
    CHECK_OK(game_cmd_add_gear(&cb, e));
    CHECK_OK(game_entity_c_cmd_spawn(&cb, NULL, &p));
    CHECK_OK(game_cmd_add_gear(&cb, p));
    CHECK_OK(game_cmd_remove_gear(&cb, p));
    CHECK_STATUS(game_cmd_add_chill(&cb, p), DOD_E_UNDECLARED); /* known at record time */
    CHECK_EQ(dod_cmds_count(&cb), 4);
    CHECK_OK(game_cmd_add_chill(&cb, e)); /* a real handle: found out at apply */
    dod_apply_result r;
    CHECK_OK(dod_world_apply(w, &cb, 1, &r));
    CHECK_EQ(r.applied, 4);
    CHECK_EQ(r.missing, 1);
    CHECK_EQ(dod_world_archetype_of(w, e), DOD_AID(game, entity_a));
    CHECK_EQ(dod_world_archetype_of(w, dod_cmds_resolve(&cb, p)), DOD_AID(game, entity_c));
    dod_cmds_destroy(&cb);
    dod_world_destroy(w);
}

static void test_typed_reserve(void)
{
    dod_world *w = NULL;
    CHECK_OK(game_create(&w, NULL));
    size_t before = dod_world_bytes(w);
    CHECK_OK(game_entity_c_reserve(w, 5000)); /* chunked: its blocks, now */
    CHECK(dod_world_bytes(w) > before);
    CHECK_EQ(game_entity_c_count(w), 0);
    CHECK_OK(game_entity_a_reserve(w, 4096)); /* fixed: within its capacity, nothing to do */
    CHECK_STATUS(game_entity_a_reserve(w, 4097), DOD_E_FULL);
    dod_world_destroy(w);
}

int main(void)
{
    test_ids();
    test_direct();
    test_commands();
    test_typed_reserve();
    return check_summary("world_component_set");
}
