/* What the world's tests share: fingerprints of a world's and a command buffer's state, a
 * comparison of two worlds' states, and the rows of a block computed from the contract's
 * words. */
#ifndef DOD_TEST_WORLD_CHECK_H
#define DOD_TEST_WORLD_CHECK_H

#include "check.h"
#include "world_layout.h"

static inline uint64_t world_snap_mix(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; ++i)
        h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}

/* A fingerprint of a world's whole state, for "a failed call left the world as it was": the
 * entity index, every archetype's counters and block addresses, and the ids and components
 * of every live row (read through the private layout, src/world/world_layout.h). */
static inline uint64_t world_snap(const dod_world *w)
{
    uint64_t h = 0xCBF29CE484222325ull;
    h = world_snap_mix(h, &w->head.n_slots, sizeof w->head.n_slots);
    h = world_snap_mix(h, &w->slot_cap, sizeof w->slot_cap);
    h = world_snap_mix(h, &w->free_head, sizeof w->free_head);
    h = world_snap_mix(h, &w->n_free, sizeof w->n_free);
    h = world_snap_mix(h, &w->head.slots, sizeof w->head.slots);
    if (w->head.n_slots)
        h = world_snap_mix(h, w->head.slots, w->head.n_slots * sizeof *w->head.slots);
    for (uint32_t i = 0; i < w->n_archetypes; ++i) {
        const dod__world_arch *a = &w->arch[i];
        h = world_snap_mix(h, &a->n_rows, sizeof a->n_rows);
        h = world_snap_mix(h, &a->n_open, sizeof a->n_open);
        h = world_snap_mix(h, &a->tail, sizeof a->tail);
        h = world_snap_mix(h, &a->n_blocks, sizeof a->n_blocks);
        h = world_snap_mix(h, &a->blocks_cap, sizeof a->blocks_cap);
        h = world_snap_mix(h, &a->rows_held, sizeof a->rows_held);
        h = world_snap_mix(h, &a->place->blocks, sizeof a->place->blocks);
        h = world_snap_mix(h, a->place->blocks, a->n_blocks * sizeof *a->place->blocks);
        for (uint32_t b = 0; b < dod__world_used_blocks(a); ++b) {
            uint32_t n = dod__world_block_rows(a, b);
            h = world_snap_mix(h, a->place->blocks[b], n * sizeof(dod_entity));
            for (uint32_t k = 0; k < a->n_cols; ++k)
                h = world_snap_mix(h, dod__world_column(a, b, k), n * a->cols[k].size);
        }
    }
    return h ^ dod_world_bytes(w);
}

/* A fingerprint of a command buffer's whole state, for "a refused call left the buffer as it
 * was": its counts, capacities and arrays' addresses, the bytes of its records and its spawns'
 * archetypes, and whether it was applied. */
static inline uint64_t cmds_snap(const dod_cmds *cb)
{
    uint64_t h = 0xCBF29CE484222325ull;
    h = world_snap_mix(h, &cb->n_commands, sizeof cb->n_commands);
    h = world_snap_mix(h, &cb->n_spawns, sizeof cb->n_spawns);
    h = world_snap_mix(h, &cb->spawns_cap, sizeof cb->spawns_cap);
    h = world_snap_mix(h, &cb->n_moves, sizeof cb->n_moves);
    h = world_snap_mix(h, &cb->n_bytes, sizeof cb->n_bytes);
    h = world_snap_mix(h, &cb->bytes_cap, sizeof cb->bytes_cap);
    h = world_snap_mix(h, &cb->records, sizeof cb->records);
    h = world_snap_mix(h, &cb->spawned, sizeof cb->spawned);
    h = world_snap_mix(h, &cb->applied, sizeof cb->applied);
    if (cb->n_bytes)
        h = world_snap_mix(h, cb->records, cb->n_bytes);
    if (cb->n_spawns)
        h = world_snap_mix(h, cb->spawn_arch, cb->n_spawns);
    return h;
}

/* 1 when block blk of archetypes x and y (of two worlds of one declaration) holds as many
 * rows, the same ids (their bits under mask) and the same component bytes. */
static inline int world_same_block(const dod__world_arch *x, const dod__world_arch *y,
                                   uint32_t blk, uint64_t mask)
{
    uint32_t n = dod__world_block_rows(x, blk);
    if (n != dod__world_block_rows(y, blk))
        return 0;
    const dod_entity *ix = dod__world_ids(x->place->blocks[blk]);
    const dod_entity *iy = dod__world_ids(y->place->blocks[blk]);
    for (uint32_t r = 0; r < n; ++r)
        if ((ix[r].bits & mask) != (iy[r].bits & mask))
            return 0;
    for (uint32_t k = 0; k < x->n_cols; ++k)
        if (memcmp(dod__world_column(x, blk, k), dod__world_column(y, blk, k),
                   n * x->cols[k].size) != 0)
            return 0;
    return 1;
}

/* 1 when two worlds of one declaration hold the same state: the entity index (every slot, the
 * free list), and in every archetype the same rows, open blocks and blocks held, each block
 * holding the same ids (less the world tag, which differs between two worlds) and the same
 * component bytes. Capacities (of the index and the block lists) and addresses are not
 * compared. For "applying commands leaves the world as the same direct calls do". */
static inline int world_same(const dod_world *a, const dod_world *b)
{
    if (a->n_archetypes != b->n_archetypes || a->head.n_slots != b->head.n_slots ||
        a->free_head != b->free_head || a->n_free != b->n_free ||
        (a->head.n_slots &&
         memcmp(a->head.slots, b->head.slots, a->head.n_slots * sizeof *a->head.slots) != 0))
        return 0;
    const uint64_t less_tag = (1ull << 48) - 1;
    for (uint32_t i = 0; i < a->n_archetypes; ++i) {
        const dod__world_arch *x = &a->arch[i], *y = &b->arch[i];
        if (x->n_rows != y->n_rows || x->n_open != y->n_open || x->tail != y->tail ||
            x->n_blocks != y->n_blocks || x->rows_held != y->rows_held)
            return 0;
        for (uint32_t blk = 0; blk < dod__world_used_blocks(x); ++blk)
            if (!world_same_block(x, y, blk, less_tag))
                return 0;
    }
    return 1;
}

/* 1 when archetype desc a lists component c. */
static inline int world_desc_has(const dod_archetype_desc *a, uint32_t c)
{
    for (uint32_t k = 0; k < a->n_components; ++k)
        if (a->components[k] == c)
            return 1;
    return 0;
}

/* An archetype desc (first_block_bytes last, as in the struct). */
static inline dod_archetype_desc world_archetype(const uint32_t *comps, uint32_t n,
                                                 uint32_t capacity, uint32_t block_bytes,
                                                 size_t memory_cap, uint32_t first_block_bytes)
{
    dod_archetype_desc a;
    memset(&a, 0, sizeof a);
    a.name = "a";
    a.components = comps;
    a.n_components = n;
    a.capacity = capacity;
    a.block_bytes = block_bytes;
    a.memory_cap = memory_cap;
    a.first_block_bytes = first_block_bytes;
    return a;
}

/* A desc of these components and archetypes. */
static inline dod_world_desc world_desc_of(const dod_component_desc *comps, uint32_t n_comps,
                                           const dod_archetype_desc *archs, uint32_t n_archs,
                                           const dod_allocator *alloc)
{
    dod_world_desc d;
    memset(&d, 0, sizeof d);
    d.components = comps;
    d.n_components = n_comps;
    d.archetypes = archs;
    d.n_archetypes = n_archs;
    d.alloc = alloc;
    return d;
}

/* The rows of a chunked block of block_bytes holding components of these sizes, by brute
 * force from the contract: the most rows for which the ids and every column, each starting
 * on a 64-byte line, fit; rounded down to a multiple of 16 when that is 16 or more. */
static inline uint32_t world_expected_rows(size_t block_bytes, const size_t *sizes, uint32_t n)
{
    uint32_t best = 0;
    for (uint32_t r = 1; r <= block_bytes; ++r) {
        size_t bytes = (8 * (size_t)r + 63) / 64 * 64;
        for (uint32_t k = 0; k < n; ++k)
            bytes += (sizes[k] * r + 63) / 64 * 64;
        if (bytes <= block_bytes)
            best = r;
    }
    return best >= 16 ? best / 16 * 16 : best;
}

/* A component of two floats (a position, a velocity) of e: both set to x; their sum, or -1
 * when e has no such component. */
static inline void world_set_f(dod_world *w, dod_entity e, uint32_t c, float x)
{
    float *p = (float *)dod_world_get(w, e, c);
    CHECK(p != NULL);
    if (p)
        p[0] = p[1] = x;
}

static inline float world_get_f(const dod_world *w, dod_entity e, uint32_t c)
{
    const float *p = (const float *)dod_world_get(w, e, c);
    return p ? p[0] + p[1] : -1.0f;
}

/* The failing allocator on one call: for k = 0, 1, ... a world made by make(alloc, ctx) (ready
 * for the call), the k-th allocation of op(w, ctx) failed: DOD_E_NOMEM, the world as it was,
 * and op succeeding once memory is there; nothing leaked. Returns the allocations of the
 * first run that needed none to fail (-1 when 64 were not enough). */
typedef struct world_walk {
    dod_world *(*make)(const dod_allocator *alloc, void *ctx);
    dod_status (*op)(dod_world *w, void *ctx);
    void *ctx;
} world_walk;

static inline long world_alloc_walk(const world_walk *o)
{
    long made = -1;
    for (long k = 0; k < 64 && made < 0; ++k) {
        test_alloc ta;
        test_alloc_init(&ta);
        dod_allocator a = test_alloc_get(&ta);
        dod_world *w = o->make(&a, o->ctx);
        uint64_t before = world_snap(w);
        long calls = ta.calls;
        test_alloc_fail_after(&ta, k);
        dod_status st = o->op(w, o->ctx);
        if (st == DOD_OK) {
            made = ta.calls - calls;
        } else {
            CHECK_STATUS(st, DOD_E_NOMEM);
            CHECK(world_snap(w) == before);
            test_alloc_fail_after(&ta, -1);
            CHECK_OK(o->op(w, o->ctx));
        }
        dod_world_destroy(w);
        test_alloc_finish(&ta);
    }
    return made;
}

/* Growing blocks of a chunked archetype, by brute force from the contract (dod_world_create):
 * block 0's rows r0, a multiple of g (the fewest rows for which every column, the ids too, is
 * whole 64-byte lines) and of 16 when `first` holds 16 rows, at most first / row (g when
 * fewer), and the scale s >= 1 of the largest block, (r0 << s) * row bytes <= ceiling; the
 * pair whose largest block holds the most rows, the smaller s among equals. 0 (s untouched):
 * the blocks are equal. *row_bytes: a row's bytes. */
static inline uint32_t world_expected_growth(size_t first, size_t ceiling, const size_t *sizes,
                                             uint32_t n, uint32_t *s, size_t *row_bytes)
{
    size_t row = 8;
    uint32_t g = 8;
    for (uint32_t k = 0; k < n; ++k) {
        uint32_t r = 1;
        while (sizes[k] * r % 64 != 0)
            r *= 2;
        g = r > g ? r : g;
        row += sizes[k];
    }
    *row_bytes = row;
    if (first >= ceiling)
        return 0;
    uint32_t mult = g < 16 && first / row >= 16 ? 16 : g;
    uint32_t best = 0, best_r0 = 0;
    for (uint32_t scale = 1; scale < 32; ++scale)
        for (uint32_t r0 = mult; ((uint64_t)r0 << scale) * row <= ceiling; r0 += mult) {
            if (r0 * row > first && r0 != g)
                break;
            if ((r0 << scale) > best) {
                best = r0 << scale;
                best_r0 = r0;
                *s = scale;
            }
            if (r0 * row > first)
                break; /* g rows, more than first: the only candidate */
        }
    return best_r0;
}

/* The rows of the most blocks (block b: r0 << min(b, s) rows, bytes0 << min(b, s) bytes)
 * whose bytes together are at most cap. */
static inline uint64_t world_expected_cap_rows(uint32_t r0, uint32_t s, size_t bytes0, size_t cap)
{
    uint64_t rows = 0;
    size_t used = 0;
    for (uint32_t b = 0;; ++b) {
        uint32_t scale = b < s ? b : s;
        if (cap - used < bytes0 << scale)
            return rows;
        used += bytes0 << scale;
        rows += (uint64_t)r0 << scale;
    }
}

#endif
