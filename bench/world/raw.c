/* The seed's population and the raw SoA floor. N entities in the mix 4:2:1 (A:B:C), made in a
 * shuffled type order; the k-th entity of a type starts with pos[type][k] and mov[type][k].
 * These plain arrays per type are what every contender is made from, and, updated in place by
 * one restrict loop per type, the floor the world is measured against. */
#include "world_bench.h"

static uint32_t lcg = 12345u;
static uint32_t next_u32(void)
{
    lcg = lcg * 1664525u + 1013904223u;
    return lcg;
}

/* Floats with a fraction, so every addition rounds: [0, 1024) and [-1, 1). */
static float next_pos(void) { return (float)(next_u32() >> 8) * (1024.0f / 16777216.0f); }
static float next_mov(void) { return (float)(next_u32() >> 8) * (2.0f / 16777216.0f) - 1.0f; }

void seed_population_init(seed_population *s, size_t n)
{
    s->n = n;
    s->count[SEED_A] = n / 7 * 4 + (n % 7) * 4 / 7;
    s->count[SEED_B] = n / 7 * 2 + (n % 7) * 2 / 7;
    s->count[SEED_C] = n - s->count[SEED_A] - s->count[SEED_B];
    s->order = (uint8_t *)wb_alloc(n);
    size_t at = 0;
    for (int t = 0; t < SEED_TYPES; ++t) {
        for (size_t k = 0; k < s->count[t]; ++k)
            s->order[at++] = (uint8_t)t;
        s->pos[t] = (position *)wb_alloc(s->count[t] * sizeof(position));
        s->mov[t] = t == SEED_C ? NULL : (movement *)wb_alloc(s->count[t] * sizeof(movement));
        for (size_t k = 0; k < s->count[t]; ++k) {
            s->pos[t][k].x = next_pos();
            s->pos[t][k].y = next_pos();
            if (s->mov[t]) {
                s->mov[t][k].x = next_mov();
                s->mov[t][k].y = next_mov();
            }
        }
    }
    for (size_t i = n; i > 1; --i) { /* Fisher-Yates */
        size_t j = (size_t)(((uint64_t)next_u32() * i) >> 32);
        uint8_t x = s->order[i - 1];
        s->order[i - 1] = s->order[j];
        s->order[j] = x;
    }
}

void seed_population_free(seed_population *s)
{
    for (int t = 0; t < SEED_TYPES; ++t) {
        wb_free(s->pos[t], s->count[t] * sizeof(position));
        if (s->mov[t])
            wb_free(s->mov[t], s->count[t] * sizeof(movement));
    }
    wb_free(s->order, s->n);
}

void raw_update(seed_population *s)
{
    for (int t = 0; t < SEED_TYPES; ++t)
        if (s->mov[t])
            step_move((uint32_t)s->count[t], s->pos[t], s->mov[t]);
}
