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

/* The systems in the suite's order, and the kinds each needs. */
enum { S_MOVEMENT, S_DATA, S_COMPLEX, S_HEALTH, S_DAMAGE, S_SPRITE, S_RENDER, N_SYSTEMS };
#define KIND(k) (1u << (k))
static const uint32_t system_kinds[N_SYSTEMS] = {
    KIND(K_POSITION) | KIND(K_VELOCITY), KIND(K_DATA),
    KIND(K_POSITION) | KIND(K_VELOCITY) | KIND(K_DATA), KIND(K_HEALTH),
    KIND(K_HEALTH) | KIND(K_DAMAGE), KIND(K_SPRITE) | KIND(K_PLAYER) | KIND(K_HEALTH),
    KIND(K_POSITION) | KIND(K_SPRITE),
};

static int runs_on(const ecs_raw *r, int sys, uint32_t g)
{
    return r->n[g] && (ecs_group_kinds[g] & system_kinds[sys]) == system_kinds[sys];
}

/* System sys over rows lo .. hi - 1 of group g's arrays. */
static void raw_system(const ecs_raw *r, int sys, uint32_t g, size_t lo, size_t hi, float dt)
{
    void *const *c = r->col[g];
    uint32_t n = (uint32_t)(hi - lo);
#define AT(k, type) ((type *)c[k] + lo)
    switch (sys) {
    case S_MOVEMENT: k_movement(n, AT(K_POSITION, position), AT(K_VELOCITY, velocity), dt); break;
    case S_DATA: k_data(n, AT(K_DATA, data), dt); break;
    case S_COMPLEX:
        k_more_complex(n, AT(K_POSITION, position), AT(K_VELOCITY, velocity), AT(K_DATA, data));
        break;
    case S_HEALTH: k_health(n, AT(K_HEALTH, health)); break;
    case S_DAMAGE: k_damage(n, AT(K_HEALTH, health), AT(K_DAMAGE, damage)); break;
    case S_SPRITE:
        k_sprite(n, AT(K_SPRITE, sprite), AT(K_PLAYER, player), AT(K_HEALTH, health));
        break;
    default: k_render(n, AT(K_POSITION, position), AT(K_SPRITE, sprite), r->fb); break;
    }
#undef AT
}

/* The suite's frame: each system over every group that has its components, in group order. */
void ecs_raw_frame(ecs_raw *r, int n_systems, float dt)
{
    for (int sys = 0; sys < n_systems; ++sys)
        for (uint32_t g = 0; g < N_GROUPS; ++g)
            if (runs_on(r, sys, g))
                raw_system(r, sys, g, 0, r->n[g], dt);
}

/* The frame on a thread pool, by hand: each system but Render over every group's rows cut in
 * as many equal parts as the pool has threads, one pool run per system; Render (one
 * framebuffer) on the calling thread. The floor a schedule's 2-thread frame is held to. */
typedef struct raw_par {
    const ecs_raw *r;
    int sys;
    float dt;
    uint32_t parts;
    uint32_t group[N_GROUPS]; /* the groups the system runs on */
} raw_par;

static void raw_part(void *arg, uint32_t index)
{
    const raw_par *p = (const raw_par *)arg;
    uint32_t g = p->group[index / p->parts], k = index % p->parts;
    size_t n = p->r->n[g];
    raw_system(p->r, p->sys, g, n * k / p->parts, n * (k + 1) / p->parts, p->dt);
}

void ecs_raw_frame_par(ecs_raw *r, int n_systems, float dt, const dod_executor *exec)
{
    for (int sys = 0; sys < n_systems; ++sys) {
        raw_par p = { r, sys, dt, exec->n_threads, { 0 } };
        uint32_t n_groups = 0;
        for (uint32_t g = 0; g < N_GROUPS; ++g)
            if (runs_on(r, sys, g))
                p.group[n_groups++] = g;
        if (sys == S_RENDER)
            for (uint32_t i = 0; i < n_groups; ++i)
                raw_system(r, sys, p.group[i], 0, r->n[p.group[i]], dt);
        else if (n_groups)
            exec->run(exec->ctx, n_groups * p.parts, raw_part, &p);
    }
}

int ecs_raw_same(const ecs_raw *a, const ecs_raw *b)
{
    if (memcmp(a->fb, b->fb, ECS_FB_W * ECS_FB_H) != 0)
        return 0;
    for (uint32_t g = 0; g < N_GROUPS; ++g)
        for (uint32_t k = 0; k < N_KINDS; ++k)
            if (a->n[g] != b->n[g] || (a->col[g][k] && memcmp(a->col[g][k], b->col[g][k],
                                                              a->n[g] * ecs_kind_size[k])))
                return 0;
    return 1;
}

void ecs_raw_free(ecs_raw *r)
{
    for (uint32_t g = 0; g < N_GROUPS; ++g)
        for (uint32_t k = 0; k < N_KINDS; ++k)
            wb_free(r->col[g][k], r->n[g] * ecs_kind_size[k]);
    wb_free(r->fb, ECS_FB_W * ECS_FB_H + 1);
    memset(r, 0, sizeof *r);
}
