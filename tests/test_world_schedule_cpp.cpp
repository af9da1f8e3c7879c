// The typed system (DOD_SYSTEM) compiled as C++ (the generated structs spell component types
// ::name, the function-pointer casts are C++'s), and a frame of it on a schedule.
#include <dod/world_systems.h>
#include "check.h"
#include "world_game.h"

DOD_SYSTEM(game, movers, MOVERS)

static void move_system(const game_movers_cols *c, const dod_system_task *t)
{
    const float dt = *static_cast<const float *>(t->ctx);
    for (uint32_t i = 0; i < c->n; ++i) {
        c->position[i].x += c->velocity[i].x * dt;
        c->position[i].y += c->velocity[i].y * dt;
    }
}

int main()
{
    dod_world *w = nullptr;
    CHECK_OK(game_create(&w, nullptr));
    game_entity_b_row r = { { 1, 2 }, { 4, 8 }, { 0, 0, 1, 1 } };
    dod_entity e;
    CHECK_OK(game_entity_b_spawn(w, &r, &e));
    float dt = 0.5f;
    dod_system_desc d = game_movers_system(move_system, &dt, 0);
    dod_schedule_desc sd = {};
    sd.systems = &d;
    sd.n_systems = 1;
    dod_schedule *s = nullptr;
    CHECK_OK(dod_schedule_create(&s, w, &sd));
    CHECK_OK(dod_schedule_run(s, w, nullptr, nullptr));
    const position *p = game_get_position(w, e);
    CHECK(p && p->x == 3.0f && p->y == 6.0f);
    dod_schedule_destroy(s);
    dod_world_destroy(w);
    return check_summary("test_world_schedule_cpp");
}
