/* What the snapshot and file tests share (test_world_copy.c, test_world_io.c): a declaration
 * with every kind of archetype, random histories played on several worlds at once (the same
 * calls, handles translated between the worlds' tags, every status and handle compared), and
 * a comparison of two worlds' contents. */
#ifndef DOD_TEST_WORLD_IO_CHECK_H
#define DOD_TEST_WORLD_IO_CHECK_H

#include <dod/world.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "world_check.h"

/* Components of every size and alignment the file's word rule knows (1, 2, 4, 8, 16, 64). */
enum { IO_POS, IO_VEL, IO_HP, IO_BIG, IO_LINE, IO_BYTE, IO_WIDE, IO_HALF, IO_N_COMPS };
static const dod_component_desc IO_COMPS[IO_N_COMPS] = {
    { "pos", 8, 4 },    { "vel", 8, 4 },  { "hp", 4, 4 },   { "big", 48, 16 },
    { "line", 64, 64 }, { "byte", 1, 1 }, { "wide", 24, 8 }, { "half", 6, 2 },
};
static const uint32_t IO_PV[] = { IO_POS, IO_VEL };
static const uint32_t IO_P[] = { IO_POS };
static const uint32_t IO_PHB[] = { IO_POS, IO_HP, IO_BIG };
static const uint32_t IO_LBV[] = { IO_LINE, IO_BYTE, IO_VEL };
static const uint32_t IO_ALL[] = { IO_BIG, IO_POS, IO_VEL, IO_HP, IO_BYTE, IO_WIDE, IO_HALF };
enum { IO_N_ARCHS = 8 };
/* Fixed, chunked with equal blocks, growing blocks under a cap, ids only, 64-byte aligned,
 * default blocks, tiny blocks. */
static const dod_archetype_desc IO_ARCHS[IO_N_ARCHS] = {
    { .name = "pv", .components = IO_PV, .n_components = 2, .block_bytes = 512 },
    { .name = "p", .components = IO_P, .n_components = 1, .capacity = 200 },
    { .name = "phb", .components = IO_PHB, .n_components = 3, .block_bytes = 2048,
      .memory_cap = 4 * 2048 },
    { .name = "ids", .block_bytes = 256 },
    { .name = "lbv", .components = IO_LBV, .n_components = 3, .capacity = 64 },
    { .name = "all", .components = IO_ALL, .n_components = 7 },
    { .name = "grow", .components = IO_PV, .n_components = 2, .block_bytes = 400,
      .memory_cap = 1060, .first_block_bytes = 200 },
    { .name = "half", .components = &IO_ALL[6], .n_components = 1, .block_bytes = 128 },
};

static inline dod_world_desc io_desc(const dod_allocator *alloc)
{
    return world_desc_of(IO_COMPS, IO_N_COMPS, IO_ARCHS, IO_N_ARCHS, alloc);
}

static inline dod_world *io_world(const dod_allocator *alloc)
{
    dod_world_desc d = io_desc(alloc);
    dod_world *w = NULL;
    CHECK_OK(dod_world_create(&w, &d));
    return w;
}

/* ---- random histories on several worlds at once ---- */

enum { IO_MAX_LIVE = 4096 };

/* The live handles of the first world (the others' are the same less the tag). */
typedef struct io_play {
    dod_world **w;
    uint32_t n_worlds;
    dod_entity live[IO_MAX_LIVE];
    uint32_t n_live;
    test_rng rng;
} io_play;

static inline dod_entity io_in(const dod_world *w, dod_entity e)
{
    dod_entity out;
    out.bits = (e.bits & (((uint64_t)1 << 48) - 1)) | ((uint64_t)w->head.tag_hi << 32 &
                                                         ~(((uint64_t)1 << 48) - 1));
    return out;
}

/* Forget the handles and take the live entities of p->w[0] (after a copy or a load). */
static inline void io_play_rescan(io_play *p)
{
    p->n_live = 0;
    const dod_world *w = p->w[0];
    for (uint32_t s = 0; s < w->head.n_slots && p->n_live < IO_MAX_LIVE; ++s) {
        dod_entity e = dod_world_entity_at(w, s);
        if (e.bits)
            p->live[p->n_live++] = e;
    }
}

/* Random bytes into component c of e in every world (the same bytes). */
static inline void io_play_write(io_play *p, dod_entity e, uint32_t c)
{
    unsigned char bytes[64];
    for (size_t i = 0; i < IO_COMPS[c].size; ++i)
        bytes[i] = (unsigned char)test_rng_next(&p->rng);
    for (uint32_t k = 0; k < p->n_worlds; ++k) {
        void *at = dod_world_get(p->w[k], io_in(p->w[k], e), c);
        CHECK(at != NULL);
        if (at)
            memcpy(at, bytes, IO_COMPS[c].size);
    }
}

/* Every component of e written with random bytes. */
static inline void io_play_fill(io_play *p, dod_entity e, uint32_t arch)
{
    for (uint32_t k = 0; k < IO_ARCHS[arch].n_components; ++k)
        io_play_write(p, e, IO_ARCHS[arch].components[k]);
}

/* One random call on every world: the same status everywhere, the same handles less the tag. */
static inline void io_play_step(io_play *p)
{
    uint32_t op = test_rng_below(&p->rng, 10);
    uint32_t arch = test_rng_below(&p->rng, IO_N_ARCHS);
    dod_status st[8] = { DOD_OK };
    if (op < 4 || p->n_live == 0) { /* spawn one */
        dod_entity e[8];
        for (uint32_t k = 0; k < p->n_worlds; ++k)
            st[k] = dod_world_spawn(p->w[k], arch, &e[k]);
        for (uint32_t k = 1; k < p->n_worlds; ++k)
            CHECK(st[k] == st[0] && (st[0] != DOD_OK || io_in(p->w[0], e[k]).bits == e[0].bits));
        if (st[0] == DOD_OK && p->n_live < IO_MAX_LIVE) {
            p->live[p->n_live++] = e[0];
            io_play_fill(p, e[0], arch);
        }
    } else if (op == 4) { /* spawn several */
        uint32_t n = 1 + test_rng_below(&p->rng, 40);
        dod_entity e[8][40];
        for (uint32_t k = 0; k < p->n_worlds; ++k)
            st[k] = dod_world_spawn_n(p->w[k], arch, n, e[k]);
        for (uint32_t k = 1; k < p->n_worlds; ++k) {
            CHECK(st[k] == st[0]);
            for (uint32_t i = 0; st[0] == DOD_OK && i < n; ++i)
                CHECK_EQ(io_in(p->w[0], e[k][i]).bits, e[0][i].bits);
        }
        for (uint32_t i = 0; st[0] == DOD_OK && i < n && p->n_live < IO_MAX_LIVE; ++i) {
            p->live[p->n_live++] = e[0][i];
            io_play_fill(p, e[0][i], arch);
        }
    } else if (op < 7) { /* despawn */
        uint32_t i = test_rng_below(&p->rng, p->n_live);
        for (uint32_t k = 0; k < p->n_worlds; ++k)
            CHECK_OK(dod_world_despawn(p->w[k], io_in(p->w[k], p->live[i])));
        p->live[i] = p->live[--p->n_live];
    } else if (op == 7) { /* move */
        uint32_t i = test_rng_below(&p->rng, p->n_live);
        for (uint32_t k = 0; k < p->n_worlds; ++k)
            st[k] = dod_world_move(p->w[k], io_in(p->w[k], p->live[i]), arch);
        for (uint32_t k = 1; k < p->n_worlds; ++k)
            CHECK(st[k] == st[0]);
        if (st[0] == DOD_OK)
            io_play_fill(p, p->live[i], arch);
    } else { /* write a component */
        dod_entity e = p->live[test_rng_below(&p->rng, p->n_live)];
        uint32_t a = dod_world_archetype_of(p->w[0], e);
        if (a < IO_N_ARCHS && IO_ARCHS[a].n_components)
            io_play_write(p, e, IO_ARCHS[a].components[test_rng_below(
                                    &p->rng, IO_ARCHS[a].n_components)]);
    }
}

static inline void io_play_steps(io_play *p, uint32_t steps)
{
    for (uint32_t s = 0; s < steps; ++s)
        io_play_step(p);
}

/* Retire one slot: spawn and despawn it until its generation would wrap (32768 times). */
static inline void io_retire_a_slot(dod_world *w)
{
    for (uint32_t i = 0; i < 32768; ++i) {
        dod_entity e;
        CHECK_OK(dod_world_spawn(w, 0, &e));
        CHECK_OK(dod_world_despawn(w, e));
    }
}

/* ---- comparing contents ---- */

/* 1 when a and b (one declaration) hold the same contents: the entity index (every slot, the
 * free list), every archetype's rows, block by block, with equal ids (with_tag: the whole
 * handle, else less the tag) and component bytes. exact_open: the same open blocks too (a
 * copy; a loaded world opens only the blocks its rows fill). The blocks held (spares) are not
 * compared. */
static inline int io_same(const dod_world *a, const dod_world *b, int with_tag, int exact_open)
{
    if (a->head.n_slots != b->head.n_slots || a->free_head != b->free_head ||
        a->n_free != b->n_free || (with_tag && a->head.tag_hi != b->head.tag_hi) ||
        (a->head.n_slots &&
         memcmp(a->head.slots, b->head.slots, a->head.n_slots * sizeof *a->head.slots) != 0))
        return 0;
    const uint64_t mask = with_tag ? UINT64_MAX : ((uint64_t)1 << 48) - 1;
    for (uint32_t i = 0; i < a->n_archetypes; ++i) {
        const dod__world_arch *x = &a->arch[i], *y = &b->arch[i];
        if (x->n_rows != y->n_rows || dod__world_used_blocks(x) != dod__world_used_blocks(y) ||
            (exact_open && (x->n_open != y->n_open || x->tail != y->tail)))
            return 0;
        for (uint32_t blk = 0; blk < dod__world_used_blocks(x); ++blk)
            if (!world_same_block(x, y, blk, mask))
                return 0;
    }
    return 1;
}

/* The same blocks, rows, ids and columns in every archetype, seen through the public calls. */
static inline int io_same_blocks(const dod_world *a, const dod_world *b)
{
    int ok = 1;
    for (uint32_t i = 0; i < IO_N_ARCHS; ++i) {
        for (uint32_t blk = 0;; ++blk) {
            void *ca[1 + 8], *cb[1 + 8];
            uint32_t n = dod_world_block(a, i, blk, ca);
            ok &= dod_world_block(b, i, blk, cb) == n;
            if (n == 0 || !ok)
                break;
            ok &= memcmp(ca[0], cb[0], n * sizeof(dod_entity)) == 0;
            for (uint32_t k = 0; k < IO_ARCHS[i].n_components; ++k)
                ok &= memcmp(ca[1 + k], cb[1 + k],
                             n * IO_COMPS[IO_ARCHS[i].components[k]].size) == 0;
        }
    }
    return ok;
}

/* Every live entity of a resolves in b (by its handle translated to b's tag) to the same
 * archetype and equal components, and b has no other. */
static inline int io_handles_resolve(const dod_world *a, const dod_world *b)
{
    int ok = 1;
    uint64_t live = 0;
    for (uint32_t s = 0; s < a->head.n_slots; ++s) {
        dod_entity e = dod_world_entity_at(a, s);
        if (!e.bits)
            continue;
        ++live;
        dod_entity f = io_in(b, e);
        uint32_t arch = dod_world_archetype_of(a, e);
        ok &= dod_world_alive(b, f) && dod_world_archetype_of(b, f) == arch;
        for (uint32_t c = 0; c < IO_N_COMPS && ok; ++c) {
            const void *x = dod_world_get(a, e, c), *y = dod_world_get(b, f, c);
            ok &= (x == NULL) == (y == NULL) && (!x || memcmp(x, y, IO_COMPS[c].size) == 0);
        }
    }
    uint64_t in_b = 0;
    for (uint32_t i = 0; i < b->n_archetypes; ++i)
        in_b += dod_world_count(b, i);
    return ok && live == in_b;
}

#endif /* DOD_TEST_WORLD_IO_CHECK_H */
