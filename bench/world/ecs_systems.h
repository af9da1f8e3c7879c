/* The systems scenarios of the public ecs_benchmark suite, reproduced from its description
 * (its components, systems and two setups; none of its code): what ecs_kernels.c, ecs_raw.c,
 * ecs_world.c and ecs_bench.c share. Component types are declared at global scope, as the
 * typed layer asks, and only in these files (world_bench.h has other ones of the same names).
 *
 * Components: Position {x, y}, Velocity {x, y} = (1, 1), Data (a counter, a double, a flag, a
 * seed, a xoshiro128** state and its last number: 48 bytes), Player (its own generator and a
 * type), Health {hp, maxhp, status}, Damage {atk, def}, Sprite (one char).
 * Systems, in the suite's order: Movement (P += V dt), Data (counter, double, flag, number),
 * MoreComplex (every tenth counter, a new velocity from Data's generator, by P), Health
 * (status machine), Damage (hp -= atk - def), Sprite (a char from status and type), Render
 * (the char into a 320x240 framebuffer at P). "2 systems" is Movement and Data, "7 systems"
 * all of them. */
#ifndef ECS_SYSTEMS_H
#define ECS_SYSTEMS_H

#include <dod/exec.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct xoshiro128 { uint32_t s[4]; } xoshiro128;
typedef struct position { float x, y; } position;
typedef struct velocity { float x, y; } velocity;
typedef struct data {
    int32_t thingy;
    uint32_t pad0;   /* C's padding made explicit (zero), so states compare byte for byte */
    double dingy;
    bool mingy;
    uint8_t pad1[3];
    uint32_t seed;
    xoshiro128 rng;
    uint32_t numgy;
} data;
enum { PLAYER_NPC, PLAYER_MONSTER, PLAYER_HERO };
typedef struct player { xoshiro128 rng; int32_t type; } player;
enum { STATUS_SPAWN, STATUS_DEAD, STATUS_ALIVE };
typedef struct health { int32_t hp, maxhp, status; } health;
typedef struct damage { int32_t atk, def; } damage;
typedef struct sprite { char character; } sprite;

/* harness.c's (world_bench.h declares them too, beside component types of the same names as
 * these): 64-byte aligned memory that exits when out of memory. */
void *wb_alloc(size_t bytes);
void wb_free(void *p, size_t bytes);

#define ECS_FB_W 320
#define ECS_FB_H 240

/* The archetypes the two setups make, in id order (the world's and the raw groups'). The
 * uniform setup uses PVDH only. */
enum { G_PVDH, G_PVD, G_PDH, G_PVH, G_PH, N_GROUPS };
enum { K_POSITION, K_VELOCITY, K_DATA, K_PLAYER, K_HEALTH, K_DAMAGE, K_SPRITE, N_KINDS };
extern const size_t ecs_kind_size[N_KINDS];
extern const uint32_t ecs_group_kinds[N_GROUPS]; /* bit k: the group has kind k */

/* Entity i of n in a setup: its group and its components' initial values. */
typedef struct ecs_entity {
    uint32_t group;
    position p;
    velocity v;
    data d;
    player pl;
    health h;
    damage dmg;
    sprite spr;
} ecs_entity;
void ecs_recipe(size_t n, size_t i, int mixed, ecs_entity *out);

/* The systems' loops over n rows, each written once and called by both the raw loops and the
 * world's systems, so the two differ only in the loops around them. */
void k_movement(uint32_t n, position *restrict p, const velocity *restrict v, float dt);
void k_data(uint32_t n, data *restrict d, float dt);
void k_more_complex(uint32_t n, const position *restrict p, velocity *restrict v, data *restrict d);
void k_health(uint32_t n, health *restrict h);
void k_damage(uint32_t n, health *restrict h, const damage *restrict dmg);
void k_sprite(uint32_t n, sprite *restrict s, const player *restrict pl, const health *restrict h);
void k_render(uint32_t n, const position *restrict p, const sprite *restrict s, char *restrict fb);

/* The raw loops (ecs_raw.c): plain arrays per group, one loop per system per group. */
typedef struct ecs_raw {
    size_t n[N_GROUPS];
    void *col[N_GROUPS][N_KINDS]; /* NULL where the group lacks the kind */
    char *fb;
} ecs_raw;
void ecs_raw_init(ecs_raw *r, size_t n, int mixed);
void ecs_raw_frame(ecs_raw *r, int n_systems, float dt);
/* The same frame split by hand across exec's threads (Render on the calling thread). */
void ecs_raw_frame_par(ecs_raw *r, int n_systems, float dt, const dod_executor *exec);
int ecs_raw_same(const ecs_raw *a, const ecs_raw *b); /* byte for byte */
void ecs_raw_free(ecs_raw *r);

/* The world (ecs_world.c): the typed world of the five archetypes (fixed at the setup's
 * counts, or chunked at the defaults), a schedule of 2 or 7 systems made with schedule_flags
 * (DOD_SCHEDULE_PASS_PER_SYSTEM, or 0), every system but Render flagged system_flags
 * (DOD_SYSTEM_PARALLEL, or 0: each system one job); Render, which writes the framebuffer, is
 * never parallel. */
typedef struct ecs_world ecs_world;
ecs_world *ecs_world_make(size_t n, int mixed, int fixed, int n_systems,
                          uint32_t schedule_flags, uint32_t system_flags);
void ecs_world_frame(ecs_world *w, const dod_executor *exec, float dt);
int ecs_world_same_as_raw(const ecs_world *w, const ecs_raw *r); /* byte for byte */
void ecs_world_free(ecs_world *w);

#endif
