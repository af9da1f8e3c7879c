/* The ecs_benchmark systems' loops (one function per system, over n rows of plain columns),
 * its generator, and the two setups' entity recipes. */
#include <string.h>
#include "ecs_systems.h"

const size_t ecs_kind_size[N_KINDS] = { sizeof(position), sizeof(velocity), sizeof(data),
                                        sizeof(player),   sizeof(health),   sizeof(damage),
                                        sizeof(sprite) };

#define HERO_KINDS (1u << K_PLAYER | 1u << K_HEALTH | 1u << K_DAMAGE | 1u << K_SPRITE)
const uint32_t ecs_group_kinds[N_GROUPS] = {
    [G_PVDH] = 1u << K_POSITION | 1u << K_VELOCITY | 1u << K_DATA | HERO_KINDS,
    [G_PVD] = 1u << K_POSITION | 1u << K_VELOCITY | 1u << K_DATA,
    [G_PDH] = 1u << K_POSITION | 1u << K_DATA | HERO_KINDS,
    [G_PVH] = 1u << K_POSITION | 1u << K_VELOCITY | HERO_KINDS,
    [G_PH] = 1u << K_POSITION | HERO_KINDS,
};

/* xoshiro128** (Blackman and Vigna), seeded as the suite seeds it: seed + 3, 5, 7, 11. */
static uint32_t rotl(uint32_t x, int k)
{
    return (x << k) | (x >> (32 - k));
}

static void rng_seed(xoshiro128 *r, uint32_t seed)
{
    r->s[0] = seed + 3, r->s[1] = seed + 5, r->s[2] = seed + 7, r->s[3] = seed + 11;
}

static uint32_t rng_next(xoshiro128 *r)
{
    uint32_t *s = r->s;
    uint32_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return out;
}

static uint32_t rng_range(xoshiro128 *r, uint32_t lo, uint32_t hi)
{
    return rng_next(r) % (hi - lo + 1) + lo;
}

void k_movement(uint32_t n, position *restrict p, const velocity *restrict v, float dt)
{
    for (uint32_t i = 0; i < n; ++i) {
        p[i].x += v[i].x * dt;
        p[i].y += v[i].y * dt;
    }
}

void k_data(uint32_t n, data *restrict d, float dt)
{
    for (uint32_t i = 0; i < n; ++i) {
        d[i].thingy = (d[i].thingy + 1) % 1000000;
        d[i].dingy += 0.0001 * (double)dt;
        d[i].mingy = !d[i].mingy;
        d[i].numgy = rng_next(&d[i].rng);
    }
}

void k_more_complex(uint32_t n, const position *restrict p, velocity *restrict v, data *restrict d)
{
    for (uint32_t i = 0; i < n; ++i) {
        if (d[i].thingy % 10 != 0)
            continue;
        if (p[i].x > p[i].y) {
            v[i].x = (float)rng_range(&d[i].rng, 3, 19) - 10.0f;
            v[i].y = (float)rng_range(&d[i].rng, 0, 5);
        } else {
            v[i].x = (float)rng_range(&d[i].rng, 0, 5);
            v[i].y = (float)rng_range(&d[i].rng, 3, 19) - 10.0f;
        }
    }
}

void k_health(uint32_t n, health *restrict h)
{
    for (uint32_t i = 0; i < n; ++i) {
        if (h[i].hp <= 0 && h[i].status != STATUS_DEAD) {
            h[i].hp = 0;
            h[i].status = STATUS_DEAD;
        } else if (h[i].status == STATUS_DEAD && h[i].hp == 0) {
            h[i].hp = h[i].maxhp;
            h[i].status = STATUS_SPAWN;
        } else if (h[i].hp >= h[i].maxhp && h[i].status != STATUS_ALIVE) {
            h[i].hp = h[i].maxhp;
            h[i].status = STATUS_ALIVE;
        } else {
            h[i].status = STATUS_ALIVE;
        }
    }
}

void k_damage(uint32_t n, health *restrict h, const damage *restrict dmg)
{
    for (uint32_t i = 0; i < n; ++i) { /* selects, not branches: hits come in no order */
        int32_t total = dmg[i].atk - dmg[i].def, hp = h[i].hp;
        int32_t left = hp - total > 0 ? hp - total : 0;
        h[i].hp = hp > 0 && total > 0 ? left : hp;
    }
}

void k_sprite(uint32_t n, sprite *restrict s, const player *restrict pl, const health *restrict h)
{
    for (uint32_t i = 0; i < n; ++i) {
        char c = ' ';
        if (h[i].status == STATUS_ALIVE)
            c = pl[i].type == PLAYER_HERO ? '@' : pl[i].type == PLAYER_MONSTER ? 'k' : 'h';
        else if (h[i].status == STATUS_DEAD)
            c = '|';
        else if (h[i].status == STATUS_SPAWN)
            c = '_';
        s[i].character = c;
    }
}

/* The suite's draw: the pixel at (int)x, (int)y when it lies on the screen. Written without a
 * branch (a sprite off the screen goes to the byte past the last pixel, which nobody reads):
 * about half the sprites are off the screen, in no order a branch predictor could learn. */
void k_render(uint32_t n, const position *restrict p, const sprite *restrict s, char *restrict fb)
{
    for (uint32_t i = 0; i < n; ++i) {
        int x = (int)p[i].x, y = (int)p[i].y;
        uint32_t on = (uint32_t)((unsigned)y < ECS_FB_H) & (uint32_t)((unsigned)x < ECS_FB_W);
        uint32_t mask = 0u - on; /* all ones on the screen */
        fb[(mask & (uint32_t)(x + y * ECS_FB_W)) | (~mask & ECS_FB_W * ECS_FB_H)] = s[i].character;
    }
}

/* The hero/monster components of the suite's factory: a type (drawn, or given), hp, defence
 * and attack drawn by type, the sprite '_', and a position in the spawn area (320 x 240 less
 * a margin of 100). Its player generator is seeded from the object's address there; here
 * from the entity's index, so every run and variant starts from the same state. */
static void hero(ecs_entity *e, size_t i, int type)
{
    rng_seed(&e->pl.rng, (uint32_t)i);
    if (type < 0) {
        uint32_t rate = rng_range(&e->pl.rng, 1, 100);
        type = rate <= 3 ? PLAYER_NPC : rate <= 30 ? PLAYER_HERO : PLAYER_MONSTER;
    }
    e->pl.type = type;
    if (type == PLAYER_HERO) {
        e->h.maxhp = (int32_t)rng_range(&e->pl.rng, 5, 15);
        e->dmg.def = (int32_t)rng_range(&e->pl.rng, 2, 6);
        e->dmg.atk = (int32_t)rng_range(&e->pl.rng, 4, 10);
    } else if (type == PLAYER_MONSTER) {
        e->h.maxhp = (int32_t)rng_range(&e->pl.rng, 4, 12);
        e->dmg.def = (int32_t)rng_range(&e->pl.rng, 2, 8);
        e->dmg.atk = (int32_t)rng_range(&e->pl.rng, 3, 9);
    } else {
        e->h.maxhp = (int32_t)rng_range(&e->pl.rng, 6, 12);
        e->dmg.def = (int32_t)rng_range(&e->pl.rng, 3, 8);
        e->dmg.atk = 0;
    }
    e->spr.character = '_';
    e->p.x = (float)rng_range(&e->pl.rng, 0, ECS_FB_W + 100) - 100.0f;
    e->p.y = (float)rng_range(&e->pl.rng, 0, ECS_FB_H + 100) - 100.0f;
}

/* Uniform: every entity {Position, Velocity, Data} plus the hero/monster components, type
 * drawn. Mixed (n >= 100): every entity starts {P, V, D}; in the third quarter every tenth
 * loses Position (index % 7 == 0), Velocity (% 11) and Data (% 13); then entity 0 becomes a
 * hero, every even one gains the hero/monster components (and Position back): a drawn type
 * when index % 6 == 0, else a hero when % 4 == 0, else a monster; odd ones stay {P, V, D}. */
void ecs_recipe(size_t n, size_t i, int mixed, ecs_entity *e)
{
    memset(e, 0, sizeof *e);
    e->v.x = e->v.y = 1.0f;
    e->d.seed = 340383u;
    rng_seed(&e->d.rng, e->d.seed);
    e->d.numgy = rng_next(&e->d.rng);
    if (!mixed) {
        hero(e, i, -1);
        e->group = G_PVDH;
        return;
    }
    uint32_t kinds = 1u << K_POSITION | 1u << K_VELOCITY | 1u << K_DATA;
    if (i >= n / 2 && i <= 3 * n / 4 && (i - n / 2) % 10 == 0) {
        if (i % 7 == 0)
            kinds &= ~(1u << K_POSITION);
        if (i % 11 == 0)
            kinds &= ~(1u << K_VELOCITY);
        if (i % 13 == 0)
            kinds &= ~(1u << K_DATA);
    }
    if (i % 2 == 0) {
        hero(e, i, i == 0 ? PLAYER_HERO : i % 6 == 0 ? -1 : i % 4 == 0 ? PLAYER_HERO : PLAYER_MONSTER);
        kinds |= HERO_KINDS | 1u << K_POSITION;
    }
    e->group = N_GROUPS;
    for (uint32_t g = 0; g < N_GROUPS; ++g)
        if (ecs_group_kinds[g] == kinds)
            e->group = g;
}
