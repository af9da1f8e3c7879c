/* The ecs_benchmark systems as raw loops: plain arrays per group (the archetypes, in the
 * world's order), one kernel call per system per group that has its components. What a
 * programmer who knows the entity types would write by hand: the floor the world is held to. */
#include <string.h>
#include "bench.h"
#include "ecs_systems.h"

void ecs_raw_init(ecs_raw *r, size_t n, int mixed)
{
    memset(r, 0, sizeof *r);
    ecs_entity e;
    for (size_t i = 0; i < n; ++i) {
        ecs_recipe(n, i, mixed, &e);
        if (e.group >= N_GROUPS)
            bench_die("ecs setup: an entity of no declared archetype");
        r->n[e.group]++;
    }
    for (uint32_t g = 0; g < N_GROUPS; ++g)
        for (uint32_t k = 0; k < N_KINDS; ++k)
            if (r->n[g] && (ecs_group_kinds[g] >> k & 1u))
                r->col[g][k] = wb_alloc(r->n[g] * ecs_kind_size[k]);
    size_t at[N_GROUPS] = { 0 };
    for (size_t i = 0; i < n; ++i) {
        ecs_recipe(n, i, mixed, &e);
        const void *src[N_KINDS] = { &e.p, &e.v, &e.d, &e.pl, &e.h, &e.dmg, &e.spr };
        size_t row = at[e.group]++;
        for (uint32_t k = 0; k < N_KINDS; ++k)
            if (r->col[e.group][k])
                memcpy((char *)r->col[e.group][k] + row * ecs_kind_size[k], src[k],
                       ecs_kind_size[k]);
    }
    r->fb = (char *)wb_alloc(ECS_FB_W * ECS_FB_H + 1);
    memset(r->fb, ' ', ECS_FB_W * ECS_FB_H);
}

/* The suite's frame: each system over every group that has its components, in group order. */
void ecs_raw_frame(ecs_raw *r, int n_systems, float dt)
{
    void *(*c)[N_KINDS] = r->col;
    for (uint32_t g = 0; g < N_GROUPS; ++g)
        if (r->n[g] && c[g][K_POSITION] && c[g][K_VELOCITY])
            k_movement((uint32_t)r->n[g], c[g][K_POSITION], c[g][K_VELOCITY], dt);
    for (uint32_t g = 0; g < N_GROUPS; ++g)
        if (r->n[g] && c[g][K_DATA])
            k_data((uint32_t)r->n[g], c[g][K_DATA], dt);
    if (n_systems == 2)
        return;
    for (uint32_t g = 0; g < N_GROUPS; ++g)
        if (r->n[g] && c[g][K_POSITION] && c[g][K_VELOCITY] && c[g][K_DATA])
            k_more_complex((uint32_t)r->n[g], c[g][K_POSITION], c[g][K_VELOCITY], c[g][K_DATA]);
    for (uint32_t g = 0; g < N_GROUPS; ++g)
        if (r->n[g] && c[g][K_HEALTH])
            k_health((uint32_t)r->n[g], c[g][K_HEALTH]);
    for (uint32_t g = 0; g < N_GROUPS; ++g)
        if (r->n[g] && c[g][K_HEALTH] && c[g][K_DAMAGE])
            k_damage((uint32_t)r->n[g], c[g][K_HEALTH], c[g][K_DAMAGE]);
    for (uint32_t g = 0; g < N_GROUPS; ++g)
        if (r->n[g] && c[g][K_SPRITE] && c[g][K_PLAYER] && c[g][K_HEALTH])
            k_sprite((uint32_t)r->n[g], c[g][K_SPRITE], c[g][K_PLAYER], c[g][K_HEALTH]);
    for (uint32_t g = 0; g < N_GROUPS; ++g)
        if (r->n[g] && c[g][K_POSITION] && c[g][K_SPRITE])
            k_render((uint32_t)r->n[g], c[g][K_POSITION], c[g][K_SPRITE], r->fb);
}

void ecs_raw_free(ecs_raw *r)
{
    for (uint32_t g = 0; g < N_GROUPS; ++g)
        for (uint32_t k = 0; k < N_KINDS; ++k)
            wb_free(r->col[g][k], r->n[g] * ecs_kind_size[k]);
    wb_free(r->fb, ECS_FB_W * ECS_FB_H + 1);
    memset(r, 0, sizeof *r);
}
