/* The ecs_benchmark systems on the world: its archetypes declared statically with the typed
 * layer (fixed at the setup's counts, as a game that knows N declares them, or chunked at
 * the defaults), its systems typed systems (DOD_SYSTEM) on a schedule, run on the executor
 * each frame is given. Each system calls the same kernel as the raw loops, with restrict
 * columns, over its task's rows. */
#include <stdlib.h>
#include <string.h>
#include <dod/world.h>
#include "bench.h"
#include "ecs_systems.h"

#define ECS_COMPONENTS(C) C(position) C(velocity) C(data) C(player) C(health) C(damage) C(sprite)
#define HERO(X) X(player) X(health) X(damage) X(sprite)
#define A_PVDH(X) X(position) X(velocity) X(data) HERO(X)
#define A_PVD(X) X(position) X(velocity) X(data)
#define A_PDH(X) X(position) X(data) HERO(X)
#define A_PVH(X) X(position) X(velocity) HERO(X)
#define A_PH(X) X(position) HERO(X)
#define ECS_ARCHETYPES(A)                                                                      \
    A(pvdh, A_PVDH, 0) A(pvd, A_PVD, 0) A(pdh, A_PDH, 0) A(pvh, A_PVH, 0) A(ph, A_PH, 0)
DOD_WORLD(eb, ECS_COMPONENTS, ECS_ARCHETYPES)

_Static_assert(DOD_AID(eb, pvdh) == G_PVDH && DOD_AID(eb, pvd) == G_PVD &&
                   DOD_AID(eb, pdh) == G_PDH && DOD_AID(eb, pvh) == G_PVH &&
                   DOD_AID(eb, ph) == G_PH,
               "archetype ids are the raw groups");
_Static_assert(DOD_CID(eb, position) == K_POSITION && DOD_CID(eb, velocity) == K_VELOCITY &&
                   DOD_CID(eb, data) == K_DATA && DOD_CID(eb, player) == K_PLAYER &&
                   DOD_CID(eb, health) == K_HEALTH && DOD_CID(eb, damage) == K_DAMAGE &&
                   DOD_CID(eb, sprite) == K_SPRITE,
               "component ids are the raw kinds");

/* What the systems read each frame: dt and the framebuffer. */
typedef struct ecs_frame {
    float dt;
    char *fb;
} ecs_frame;

struct ecs_world {
    dod_world *w;
    dod_schedule *s;
    ecs_frame frame;
};

/* The systems' queries and access, each a typed query list (W written, R read) and the typed
 * system made from it: each system gets its task's rows as typed columns. */
#define Q_MOVEMENT(W, R, X) W(position) R(velocity)
#define Q_DATA(W, R, X) W(data)
#define Q_COMPLEX(W, R, X) R(position) W(velocity) W(data)
#define Q_HEALTH(W, R, X) W(health)
#define Q_DAMAGE(W, R, X) W(health) R(damage)
#define Q_SPRITE(W, R, X) W(sprite) R(player) R(health)
#define Q_RENDER(W, R, X) R(position) R(sprite)
DOD_QUERY(eb, movement, Q_MOVEMENT)
DOD_SYSTEM(eb, movement, Q_MOVEMENT)
DOD_QUERY(eb, data, Q_DATA)
DOD_SYSTEM(eb, data, Q_DATA)
DOD_QUERY(eb, complex, Q_COMPLEX)
DOD_SYSTEM(eb, complex, Q_COMPLEX)
DOD_QUERY(eb, health, Q_HEALTH)
DOD_SYSTEM(eb, health, Q_HEALTH)
DOD_QUERY(eb, damage, Q_DAMAGE)
DOD_SYSTEM(eb, damage, Q_DAMAGE)
DOD_QUERY(eb, sprite, Q_SPRITE)
DOD_SYSTEM(eb, sprite, Q_SPRITE)
DOD_QUERY(eb, render, Q_RENDER)
DOD_SYSTEM(eb, render, Q_RENDER)

#define DT(t) (((const ecs_frame *)(t)->ctx)->dt)

static void sys_movement(const eb_movement_cols *c, const dod_system_task *t)
{
    k_movement(c->n, c->position, c->velocity, DT(t));
}

static void sys_data(const eb_data_cols *c, const dod_system_task *t)
{
    k_data(c->n, c->data, DT(t));
}

static void sys_complex(const eb_complex_cols *c, const dod_system_task *t)
{
    (void)t;
    k_more_complex(c->n, c->position, c->velocity, c->data);
}

static void sys_health(const eb_health_cols *c, const dod_system_task *t)
{
    (void)t;
    k_health(c->n, c->health);
}

static void sys_damage(const eb_damage_cols *c, const dod_system_task *t)
{
    (void)t;
    k_damage(c->n, c->health, c->damage);
}

static void sys_sprite(const eb_sprite_cols *c, const dod_system_task *t)
{
    (void)t;
    k_sprite(c->n, c->sprite, c->player, c->health);
}

static void sys_render(const eb_render_cols *c, const dod_system_task *t)
{
    k_render(c->n, c->position, c->sprite, ((const ecs_frame *)t->ctx)->fb);
}

static void check(dod_status st, const char *what)
{
    if (st != DOD_OK) {
        fprintf(stderr, "bench_world: %s: %s\n", what, dod_status_str(st));
        exit(1);
    }
}

static void spawn(dod_world *w, const ecs_entity *e)
{
    dod_entity id;
    dod_status st = DOD_E_INVALID;
    switch (e->group) {
    case G_PVDH: {
        eb_pvdh_row r = { e->p, e->v, e->d, e->pl, e->h, e->dmg, e->spr };
        st = eb_pvdh_spawn(w, &r, &id);
        break;
    }
    case G_PVD: {
        eb_pvd_row r = { e->p, e->v, e->d };
        st = eb_pvd_spawn(w, &r, &id);
        break;
    }
    case G_PDH: {
        eb_pdh_row r = { e->p, e->d, e->pl, e->h, e->dmg, e->spr };
        st = eb_pdh_spawn(w, &r, &id);
        break;
    }
    case G_PVH: {
        eb_pvh_row r = { e->p, e->v, e->pl, e->h, e->dmg, e->spr };
        st = eb_pvh_spawn(w, &r, &id);
        break;
    }
    case G_PH: {
        eb_ph_row r = { e->p, e->pl, e->h, e->dmg, e->spr };
        st = eb_ph_spawn(w, &r, &id);
        break;
    }
    default:
        break;
    }
    check(st, "ecs spawn");
}

ecs_world *ecs_world_make(size_t n, int mixed, int fixed, int n_systems, uint32_t schedule_flags,
                          uint32_t system_flags)
{
    ecs_world *x = (ecs_world *)calloc(1, sizeof *x);
    if (!x)
        bench_die("out of memory");
    size_t count[N_GROUPS] = { 0 };
    ecs_entity e;
    for (size_t i = 0; i < n; ++i) {
        ecs_recipe(n, i, mixed, &e);
        if (e.group >= N_GROUPS)
            bench_die("ecs setup: an entity of no declared archetype");
        count[e.group]++;
    }
    dod_world_desc d = eb_desc();
    dod_archetype_desc arch[N_GROUPS];
    memcpy(arch, d.archetypes, sizeof arch);
    for (uint32_t g = 0; g < N_GROUPS; ++g)
        arch[g].capacity = fixed && count[g] ? (uint32_t)count[g] : 0u;
    d.archetypes = arch;
    check(dod_world_create(&x->w, &d), "ecs world create");
    for (size_t i = 0; i < n; ++i) {
        ecs_recipe(n, i, mixed, &e);
        spawn(x->w, &e);
    }
    x->frame.fb = (char *)wb_alloc(ECS_FB_W * ECS_FB_H + 1);
    memset(x->frame.fb, ' ', ECS_FB_W * ECS_FB_H);
    void *f = &x->frame;
    const uint32_t fl = system_flags;
    const dod_system_desc sys[7] = {
        eb_movement_system(sys_movement, f, fl),
        eb_data_system(sys_data, f, fl),
        eb_complex_system(sys_complex, f, fl),
        eb_health_system(sys_health, f, fl),
        eb_damage_system(sys_damage, f, fl),
        eb_sprite_system(sys_sprite, f, fl),
        /* one framebuffer, last writer wins: not parallel (the default), its rows in order on
           one thread */
        eb_render_system(sys_render, f, 0),
    };
    dod_schedule_desc sd = { .systems = sys, .n_systems = (uint32_t)n_systems,
                             .flags = schedule_flags };
    check(dod_schedule_create(&x->s, x->w, &sd), "ecs schedule create");
    return x;
}

void ecs_world_frame(ecs_world *x, const dod_executor *exec, float dt)
{
    x->frame.dt = dt;
    check(dod_schedule_run(x->s, x->w, exec, NULL), "ecs schedule run");
}

int ecs_world_same_as_raw(const ecs_world *x, const ecs_raw *r)
{
    if (memcmp(x->frame.fb, r->fb, ECS_FB_W * ECS_FB_H) != 0)
        return 0;
    dod_world_desc d = eb_desc();
    for (uint32_t g = 0; g < N_GROUPS; ++g) {
        const dod_archetype_desc *a = &d.archetypes[g];
        size_t row = 0;
        void *cols[1 + N_KINDS];
        for (uint32_t b = 0;; ++b) {
            uint32_t rows = dod_world_block(x->w, g, b, cols);
            if (rows == 0)
                break;
            for (uint32_t k = 0; k < a->n_components; ++k) {
                uint32_t kind = a->components[k];
                size_t size = ecs_kind_size[kind];
                if (memcmp(cols[1 + k], (const char *)r->col[g][kind] + row * size, rows * size))
                    return 0;
            }
            row += rows;
        }
        if (row != r->n[g])
            return 0;
    }
    return 1;
}

void ecs_world_free(ecs_world *x)
{
    if (!x)
        return;
    dod_schedule_destroy(x->s);
    dod_world_destroy(x->w);
    wb_free(x->frame.fb, ECS_FB_W * ECS_FB_H + 1);
    free(x);
}
