/* Chunked archetypes' blocks: growing blocks (rows and bytes per block, columns, the spare,
 * the memory cap, spawn_n across blocks of different sizes), equal blocks, rows too wide for
 * the first block, and the defaults (a 20-entity archetype holds one block of <= 16 KiB). */
#include <dod/world.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "world_check.h"
#include "world_layout.h"

enum { C_POS, C_VEL, C_HP, C_BIG, C_BYTE, C_HUGE, N_COMPS };
static const dod_component_desc COMPS[N_COMPS] = {
    { "pos", 8, 4 }, { "vel", 8, 4 }, { "hp", 4, 4 }, { "big", 48, 16 }, { "byte", 1, 1 },
    { "huge", 4096, 64 },
};
static const uint32_t PV[] = { C_POS, C_VEL };
static const uint32_t HBP[] = { C_HP, C_BIG, C_POS, C_BYTE };
static const uint32_t HUGE_[] = { C_HUGE };

static dod_archetype_desc chunked(const uint32_t *comps, uint32_t n, uint32_t first,
                                  uint32_t block_bytes, size_t memory_cap)
{
    return world_archetype(comps, n, 0, block_bytes, memory_cap, first);
}

/* The expected growth of archetype desc a (first and block_bytes as create reads them). */
static uint32_t expected(const dod_archetype_desc *a, uint32_t *scale, size_t *row)
{
    size_t sizes[DOD_WORLD_MAX_ARCHETYPE_COMPONENTS];
    for (uint32_t k = 0; k < a->n_components; ++k)
        sizes[k] = COMPS[a->components[k]].size;
    size_t ceiling = a->block_bytes ? a->block_bytes : DOD_WORLD_BLOCK_BYTES;
    size_t first = a->first_block_bytes ? a->first_block_bytes : DOD_WORLD_FIRST_BLOCK_BYTES;
    *scale = 0;
    return world_expected_growth(first, ceiling, sizes, a->n_components, scale, row);
}

static dod_world *make(const dod_archetype_desc *archs, uint32_t n, const dod_allocator *alloc)
{
    dod_world_desc d = world_desc_of(COMPS, N_COMPS, archs, n, alloc);
    dod_world *w = NULL;
    CHECK_OK(dod_world_create(&w, &d));
    return w;
}

/* The bytes the world's blocks hold: what the allocator holds for it, less the world, the
 * entity index and the block lists. */
static size_t blocks_held(const dod_world *w, const test_alloc *ta)
{
    size_t other = w->bytes + (size_t)w->slot_cap * sizeof(uint64_t);
    for (uint32_t i = 0; i < w->n_archetypes; ++i)
        if (w->arch[i].place->blocks != &w->arch[i].first_block)
            other += (size_t)w->arch[i].blocks_cap * sizeof(unsigned char *);
    return ta->live_bytes - other;
}

/* Spawn one row at a time, checking each new block's allocation and the rows of every block:
 * block b holds r0 << min(b, s) rows in exactly that many rows' bytes, its columns at block
 * 0's offsets scaled, and every value written through dod_world_get reads back from the
 * block's columns. */
static void check_growth(const dod_archetype_desc *a, uint32_t blocks)
{
    uint32_t s, r0 = 0;
    size_t row;
    r0 = expected(a, &s, &row);
    CHECK(r0 > 0);
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator al = test_alloc_get(&ta);
    dod_world *w = make(a, 1, &al);
    uint64_t total = 0;
    for (uint32_t b = 0; b < blocks; ++b)
        total += (uint64_t)r0 << (b < s ? b : s);
    dod_entity *e = (dod_entity *)malloc((size_t)total * sizeof *e);
    uint32_t pos_col = 0; /* of the columns dod_world_block gives; 0: no position */
    for (uint32_t k = 0; k < a->n_components; ++k)
        if (a->components[k] == C_POS)
            pos_col = 1 + k;
    void *cols0[1 + 4];
    uint32_t at = 0;
    size_t held = 0;
    for (uint32_t b = 0; b < blocks; ++b) {
        uint32_t scale = b < s ? b : s, cap = r0 << scale;
        for (uint32_t i = 0; i < cap; ++i, ++at) {
            CHECK_OK(dod_world_spawn(w, 0, &e[at]));
            uint32_t *pos = (uint32_t *)dod_world_get(w, e[at], C_POS);
            if (pos)
                pos[0] = at;
        }
        held += (size_t)cap * row; /* the block came with its first row */
        CHECK_EQ(blocks_held(w, &ta), held);
        void *cols[1 + 4];
        CHECK_EQ(dod_world_block(w, 0, b, cols), cap);
        if (b == 0)
            memcpy(cols0, cols, sizeof cols);
        for (uint32_t k = 0; k <= a->n_components; ++k) {
            CHECK((uintptr_t)cols[k] % 64 == 0);
            size_t off = (size_t)((char *)cols[k] - (char *)cols[0]);
            CHECK_EQ(off, (size_t)((char *)cols0[k] - (char *)cols0[0]) << scale);
        }
        /* the last column ends exactly at the block's end: no padding anywhere */
        size_t last = (size_t)((char *)cols[a->n_components] - (char *)cols[0]);
        CHECK_EQ(last + (size_t)cap * COMPS[a->components[a->n_components - 1]].size,
                 (size_t)cap * row);
        CHECK_EQ(w->arch[0].n_blocks, b + 1);
        CHECK_EQ(dod__world_block_bytes(&w->arch[0], b), (size_t)cap * row);
        /* row i of the block is the entity spawned i-th in it, its position where get said */
        const dod_entity *ids = (const dod_entity *)cols[0];
        const uint32_t *pos = (const uint32_t *)cols[pos_col];
        int same = 1;
        for (uint32_t i = 0; i < cap; ++i)
            same &= ids[i].bits == e[at - cap + i].bits && (!pos_col || pos[2 * i] == at - cap + i);
        CHECK(same);
    }
    CHECK_EQ(dod_world_block(w, 0, blocks, NULL), 0);
    CHECK_EQ(dod_world_count(w, 0), total);
    free(e);
    dod_world_destroy(w);
    test_alloc_finish(&ta);
}

static void test_growth(void)
{
    /* the defaults */
    dod_archetype_desc a = chunked(PV, 2, 0, 0, 0);
    uint32_t s;
    size_t row;
    uint32_t r0 = expected(&a, &s, &row);
    CHECK(r0 * row <= DOD_WORLD_FIRST_BLOCK_BYTES && (r0 << s) * row <= DOD_WORLD_BLOCK_BYTES);
    CHECK(r0 % 16 == 0 && s > 0);
    check_growth(&a, s + 2);
    /* a granule of 64 rows (byte: 1 byte a row), more than 2048 bytes hold: block 0 holds 64 */
    a = chunked(HBP, 4, 2048, 16384, 0);
    r0 = expected(&a, &s, &row);
    CHECK(r0 % 64 == 0);
    check_growth(&a, s + 3);
    a = chunked(HBP, 3, 1000, 20000, 0); /* hp, big, pos: a granule of 16 */
    r0 = expected(&a, &s, &row);
    CHECK_EQ(r0, 16);
    check_growth(&a, s + 2);
    /* a row too wide for the first block: block 0 is a granule of rows, larger than asked */
    a = chunked(HUGE_, 1, 0, 0, 0);
    r0 = expected(&a, &s, &row);
    CHECK_EQ(r0, 8);
    CHECK(r0 * row > DOD_WORLD_FIRST_BLOCK_BYTES);
    check_growth(&a, 3);
}

/* first_block_bytes >= block_bytes, or a ceiling that block 1 would not fit: equal blocks,
 * every one block_bytes, with the rows of the equal-block rule. */
static void test_equal(void)
{
    const dod_archetype_desc equal[4] = {
        chunked(PV, 2, 4096, 4096, 0),     /* asked for */
        chunked(PV, 2, 0, 12000, 0),       /* the default first block is larger */
        chunked(HUGE_, 1, 0, 40000, 0),    /* block 1 (16 rows of 4104) would not fit */
        chunked(PV, 2, 100000, 65536, 0),  /* first > block_bytes */
    };
    for (int i = 0; i < 4; ++i) {
        test_alloc ta;
        test_alloc_init(&ta);
        dod_allocator al = test_alloc_get(&ta);
        dod_world *w = make(&equal[i], 1, &al);
        size_t sizes[1] = { COMPS[equal[i].components[0]].size }, pv[2] = { 8, 8 };
        uint32_t rows = equal[i].n_components == 2
                            ? world_expected_rows(equal[i].block_bytes, pv, 2)
                            : world_expected_rows(equal[i].block_bytes, sizes, 1);
        CHECK_OK(dod_world_spawn_n(w, 0, 3 * rows, NULL));
        for (uint32_t b = 0; b < 3; ++b) {
            CHECK_EQ(dod_world_block(w, 0, b, NULL), rows);
            CHECK_EQ(dod__world_block_bytes(&w->arch[0], b), equal[i].block_bytes);
        }
        CHECK_EQ(w->arch[0].place->max_scale, 0);
        dod_world_destroy(w);
        test_alloc_finish(&ta);
    }
    CHECK_EQ(world_expected_rows(40000, (const size_t[]){ 4096 }, 1), 9);
    /* a block_bytes that cannot hold one row is refused, growing or not */
    dod_archetype_desc bad = chunked(HUGE_, 1, 0, 4000, 0);
    dod_world_desc d = world_desc_of(COMPS, N_COMPS, &bad, 1, NULL);
    dod_world *w = NULL;
    CHECK_STATUS(dod_world_create(&w, &d), DOD_E_INVALID);
    CHECK(w == NULL);
}

/* The spare is the next block in sequence: kept when the last block empties, freed (its own
 * size) when the one before it empties too; a spawn/despawn pair at a boundary allocates once. */
static void test_spare(void)
{
    dod_archetype_desc a = chunked(PV, 2, 1024, 16384, 0);
    uint32_t s;
    size_t row;
    uint32_t r0 = expected(&a, &s, &row);
    CHECK_EQ(r0, 32); /* 42 rows fit 1024 bytes: a multiple of 16 */
    CHECK_EQ(s, 4);   /* 512 rows of 24 bytes: 12288 <= 16384 < 1024 rows */
    /* a fixed archetype of 512 rows: create sizes the entity index for them, so only blocks
     * are allocated below */
    dod_archetype_desc archs[2] = { a, chunked(PV, 2, 0, 0, 0) };
    archs[1].capacity = 512;
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator al = test_alloc_get(&ta);
    dod_world *w = make(archs, 2, &al);
    const size_t fixed = dod__world_block_bytes(&w->arch[1], 0);
    const uint32_t three = 32 + 64 + 128; /* blocks 0 .. 2 full */
    dod_entity e[512], x;
    CHECK_OK(dod_world_spawn_n(w, 0, three, e));
    CHECK_EQ(w->arch[0].n_blocks, 3);
    long calls = ta.calls;
    size_t bytes = ta.live_bytes;
    CHECK_OK(dod_world_spawn(w, 0, &x)); /* block 3: 256 rows */
    CHECK_EQ(ta.calls, calls + 1);
    CHECK_EQ(ta.live_bytes, bytes + 256 * row);
    CHECK_EQ(blocks_held(w, &ta), fixed + (32 + 64 + 128 + 256) * row);
    CHECK_OK(dod_world_despawn(w, x)); /* block 3 is the spare now */
    CHECK_EQ(w->arch[0].n_blocks, 4);
    for (int i = 0; i < 10; ++i) {
        CHECK_OK(dod_world_spawn(w, 0, &x));
        CHECK_OK(dod_world_despawn(w, x));
    }
    CHECK_EQ(ta.calls, calls + 1);
    /* block 2 empties: it is the spare, block 3 is freed */
    for (uint32_t i = three; i-- > 32 + 64;)
        CHECK_OK(dod_world_despawn(w, e[i]));
    CHECK_EQ(w->arch[0].n_open, 2);
    CHECK_EQ(w->arch[0].n_blocks, 3);
    CHECK_EQ(ta.live_bytes, bytes);
    CHECK_EQ(dod_world_block(w, 0, 1, NULL), 64);
    CHECK_EQ(dod_world_block(w, 0, 2, NULL), 0);
    /* refilled in order: the rows go to block 2 again */
    CHECK_OK(dod_world_spawn_n(w, 0, 128 + 5, NULL));
    CHECK_EQ(dod_world_block(w, 0, 2, NULL), 128);
    CHECK_EQ(dod_world_block(w, 0, 3, NULL), 5);
    CHECK_EQ(ta.calls, calls + 2);
    /* empty: block 0 stays */
    void *cols[3];
    while (dod_world_block(w, 0, 0, cols))
        CHECK_OK(dod_world_despawn(w, ((const dod_entity *)cols[0])[0]));
    CHECK_EQ(w->arch[0].n_blocks, 1);
    CHECK_EQ(blocks_held(w, &ta), fixed + 32 * row);
    dod_world_destroy(w);
    test_alloc_finish(&ta);
}

/* The cap: the blocks' bytes, the spare included, never exceed it; a spawn, spawn_n or move
 * that needs a block crossing it is DOD_E_FULL and changes nothing. */
static void test_cap(void)
{
    const size_t row = 24, b0 = 32 * row; /* as in test_spare: 32, 64, 128, 256, 512, 512 ... */
    const size_t cap = b0 * (1 + 2 + 4) + b0 * 8 - 1; /* three blocks, not four */
    dod_archetype_desc archs[3] = {
        chunked(PV, 2, 1024, 16384, cap),
        chunked(PV, 2, 1024, 16384, 0),
        chunked(PV, 2, 1024, 16384, b0 - 1), /* not block 0 */
    };
    CHECK_EQ(world_expected_cap_rows(32, 4, b0, cap), 224);
    CHECK_EQ(world_expected_cap_rows(32, 4, b0, b0 * 31 + b0 * 16 * 3), 32 * 31 + 512 * 3);
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator al = test_alloc_get(&ta);
    dod_world *w = make(archs, 3, &al);
    CHECK_EQ(w->arch[0].max_blocks, 3);
    uint64_t before = world_snap(w);
    CHECK_STATUS(dod_world_spawn_n(w, 0, 225, NULL), DOD_E_FULL); /* all or nothing */
    CHECK(world_snap(w) == before);
    CHECK_OK(dod_world_spawn_n(w, 0, 200, NULL));
    dod_entity x;
    for (int i = 0; i < 24; ++i)
        CHECK_OK(dod_world_spawn(w, 0, &x));
    before = world_snap(w);
    CHECK_STATUS(dod_world_spawn(w, 0, &x), DOD_E_FULL);
    CHECK_STATUS(dod_world_spawn_n(w, 0, 1, NULL), DOD_E_FULL);
    CHECK(world_snap(w) == before);
    CHECK_OK(dod_world_spawn(w, 1, &x));
    before = world_snap(w);
    CHECK_STATUS(dod_world_move(w, x, 0), DOD_E_FULL);
    CHECK(world_snap(w) == before);
    CHECK_EQ(blocks_held(w, &ta), 7 * b0 + 32 * row); /* archetype 1 holds block 0 */
    CHECK_EQ(dod__world_bytes_upto(&w->arch[0], w->arch[0].n_blocks), 7 * b0);
    /* emptying block 2 keeps it as the spare: still within the cap */
    void *cols[3];
    while (dod_world_block(w, 0, 2, cols))
        CHECK_OK(dod_world_despawn(w, ((const dod_entity *)cols[0])[0]));
    CHECK_EQ(w->arch[0].n_blocks, 3);
    CHECK_OK(dod_world_spawn_n(w, 0, 128, NULL));
    before = world_snap(w);
    CHECK_STATUS(dod_world_spawn(w, 2, &x), DOD_E_FULL);
    CHECK(world_snap(w) == before);
    dod_world_destroy(w);
    test_alloc_finish(&ta);
}

/* spawn_n across blocks of different sizes gives what n spawns give: the same ids, rows and
 * blocks; out[i] is the i-th new row. */
static void test_spawn_n(void)
{
    dod_archetype_desc a = chunked(HBP, 3, 1000, 20000, 0);
    dod_world *x = make(&a, 1, NULL), *y = make(&a, 1, NULL);
    dod_entity ex[700], ey[700];
    for (int round = 0; round < 3; ++round) {
        uint32_t n = round == 0 ? 5 : round == 1 ? 300 : 700;
        CHECK_OK(dod_world_spawn_n(x, 0, n, ex));
        for (uint32_t i = 0; i < n; ++i)
            CHECK_OK(dod_world_spawn(y, 0, &ey[i]));
        int same = 1;
        for (uint32_t i = 0; i < n; ++i)
            same &= (ex[i].bits & 0xFFFFFFFFFFFFull) == (ey[i].bits & 0xFFFFFFFFFFFFull);
        CHECK(same);
        for (uint32_t b = 0; dod_world_block(x, 0, b, NULL) || dod_world_block(y, 0, b, NULL); ++b)
            CHECK_EQ(dod_world_block(x, 0, b, NULL), dod_world_block(y, 0, b, NULL));
        for (uint32_t i = 0; i < n; i += 3) {
            CHECK_OK(dod_world_despawn(x, ex[i]));
            CHECK_OK(dod_world_despawn(y, ey[i]));
        }
    }
    dod_world_destroy(x);
    dod_world_destroy(y);
}

/* With the defaults, a 20-entity {P,V} archetype holds one block of at most 16 KiB. */
static void test_small_default(void)
{
    dod_archetype_desc a = chunked(PV, 2, 0, 0, 0);
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator al = test_alloc_get(&ta);
    dod_world *w = make(&a, 1, &al);
    size_t empty = ta.live_bytes;
    CHECK_OK(dod_world_spawn_n(w, 0, 20, NULL));
    size_t blocks = ta.live_bytes - empty - (size_t)w->slot_cap * sizeof(uint64_t);
    CHECK(blocks > 0 && blocks <= 16384);
    CHECK_EQ(w->arch[0].n_blocks, 1);
    dod_world_destroy(w);
    test_alloc_finish(&ta);
}

int main(void)
{
    test_growth();
    test_equal();
    test_spare();
    test_cap();
    test_spawn_n();
    test_small_default();
    return check_summary("world_blocks");
}
