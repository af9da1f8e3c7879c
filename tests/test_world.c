/* The world: desc checks, handles, fixed and chunked archetypes, moves, spawn_n. */
#include <dod/world.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "world_check.h"

enum { C_POS, C_VEL, C_HP, C_BIG, C_LINE, C_BYTE, N_COMPS };
static const dod_component_desc COMPS[N_COMPS] = {
    { "pos", 8, 4 }, { "vel", 8, 4 }, { "hp", 4, 4 }, { "big", 48, 16 }, { "line", 64, 64 },
    { "byte", 1, 1 },
};
static const uint32_t POS_VEL[] = { C_POS, C_VEL };
static const uint32_t POS[] = { C_POS };
static const uint32_t POS_HP_BIG[] = { C_POS, C_HP, C_BIG };

static dod_world_desc desc_of(const dod_archetype_desc *archs, uint32_t n,
                              const dod_allocator *alloc)
{
    return world_desc_of(COMPS, N_COMPS, archs, n, alloc);
}

static dod_archetype_desc arch(const uint32_t *comps, uint32_t n, uint32_t capacity,
                               uint32_t block_bytes, size_t memory_cap)
{
    return world_archetype(comps, n, capacity, block_bytes, memory_cap, 0);
}

static uint32_t expected_rows(size_t block_bytes, const uint32_t *comps, uint32_t n)
{
    size_t sizes[DOD_WORLD_MAX_ARCHETYPE_COMPONENTS];
    for (uint32_t k = 0; k < n; ++k)
        sizes[k] = COMPS[comps[k]].size;
    return world_expected_rows(block_bytes, sizes, n);
}

static void check_refused(const dod_world_desc *d, dod_status want)
{
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator a = test_alloc_get(&ta);
    dod_world_desc copy = *d;
    copy.alloc = &a;
    dod_world *sentinel = (dod_world *)(void *)&ta, *w = sentinel;
    CHECK_STATUS(dod_world_create(&w, &copy), want);
    CHECK(w == sentinel);
    test_alloc_finish(&ta);
}

static void test_desc_errors(void)
{
    dod_archetype_desc a = arch(POS_VEL, 2, 0, 0, 0);
    dod_world_desc d = desc_of(&a, 1, NULL);
    dod_world *w = NULL;
    CHECK_STATUS(dod_world_create(NULL, &d), DOD_E_INVALID);
    CHECK_STATUS(dod_world_create(&w, NULL), DOD_E_INVALID);
    CHECK(w == NULL);

    dod_world_desc bad = d;
    bad.components = NULL;
    check_refused(&bad, DOD_E_INVALID);
    bad = d;
    bad.archetypes = NULL;
    check_refused(&bad, DOD_E_INVALID);
    bad = d;
    bad.n_components = DOD_WORLD_MAX_COMPONENTS + 1;
    check_refused(&bad, DOD_E_RANGE);
    static dod_archetype_desc many[DOD_WORLD_MAX_ARCHETYPES + 1];
    for (uint32_t i = 0; i <= DOD_WORLD_MAX_ARCHETYPES; ++i)
        many[i] = arch(POS, 1, 0, 0, 0);
    bad = desc_of(many, DOD_WORLD_MAX_ARCHETYPES + 1, NULL);
    check_refused(&bad, DOD_E_RANGE);
    bad.n_archetypes = DOD_WORLD_MAX_ARCHETYPES; /* the limit itself is fine */
    CHECK_OK(dod_world_create(&w, &bad));
    dod_world_destroy(w);

    /* the element rule, for each way to break it */
    const size_t sizes[4][2] = { { 0, 4 }, { 8, 3 }, { 128, 128 }, { 6, 4 } };
    for (int i = 0; i < 4; ++i) {
        dod_component_desc comps[N_COMPS];
        memcpy(comps, COMPS, sizeof comps);
        comps[C_VEL].size = sizes[i][0];
        comps[C_VEL].align = sizes[i][1];
        bad = d;
        bad.components = comps;
        check_refused(&bad, DOD_E_INVALID);
    }

    dod_archetype_desc ba = a;
    bad = desc_of(&ba, 1, NULL);
    ba.components = NULL;
    check_refused(&bad, DOD_E_INVALID);
    ba = a;
    ba.n_components = DOD_WORLD_MAX_ARCHETYPE_COMPONENTS + 1;
    check_refused(&bad, DOD_E_RANGE);
    const uint32_t unknown[] = { C_POS, N_COMPS };
    ba = arch(unknown, 2, 0, 0, 0);
    check_refused(&bad, DOD_E_RANGE);
    const uint32_t repeat[] = { C_POS, C_VEL, C_POS };
    ba = arch(repeat, 3, 0, 0, 0);
    check_refused(&bad, DOD_E_INVALID);
    ba = arch(repeat, 3, 16, 0, 0); /* fixed too */
    check_refused(&bad, DOD_E_INVALID);
    /* a chunked block that cannot hold one row: ids (a line) + the 64-byte component */
    const uint32_t line[] = { C_LINE };
    ba = arch(line, 1, 0, 127, 0);
    check_refused(&bad, DOD_E_INVALID);
    ba = arch(line, 1, 0, 128, 0); /* exactly one row */
    CHECK_OK(dod_world_create(&w, &bad));
    CHECK_EQ(dod_world_block(w, 0, 0, NULL), 0);
    dod_entity e;
    CHECK_OK(dod_world_spawn(w, 0, &e));
    CHECK_OK(dod_world_spawn(w, 0, &e));
    CHECK_EQ(dod_world_block(w, 0, 1, NULL), 1);
    dod_world_destroy(w);
    /* a fixed archetype whose bytes overflow size_t */
    dod_component_desc huge[N_COMPS];
    memcpy(huge, COMPS, sizeof huge);
    huge[C_BYTE].size = SIZE_MAX / 4;
    const uint32_t byte[] = { C_BYTE };
    ba = arch(byte, 1, 8, 0, 0);
    bad.components = huge;
    check_refused(&bad, DOD_E_OVERFLOW);

    /* a zeroed desc is an empty world */
    dod_world_desc zero;
    memset(&zero, 0, sizeof zero);
    CHECK_OK(dod_world_create(&w, &zero));
    CHECK_STATUS(dod_world_spawn(w, 0, &e), DOD_E_RANGE);
    CHECK_EQ(dod_world_count(w, 0), 0);
    dod_world_destroy(w);
}

#if DOD_DEBUG
typedef struct hook_log { int calls; dod_status status; char condition[128]; } hook_log;
static void record(void *ctx, dod_status status, const char *file, int line, const char *cond)
{
    hook_log *log = (hook_log *)ctx;
    (void)file;
    (void)line;
    log->calls++;
    log->status = status;
    snprintf(log->condition, sizeof log->condition, "%s", cond);
}

static void test_error_hook(void)
{
    hook_log log;
    memset(&log, 0, sizeof log);
    dod_set_error_hook(record, &log);
    const uint32_t repeat[] = { C_POS, C_POS };
    dod_archetype_desc a = arch(repeat, 2, 0, 0, 0);
    dod_world_desc d = desc_of(&a, 1, NULL);
    dod_world *w = NULL;
    CHECK_STATUS(dod_world_create(&w, &d), DOD_E_INVALID);
    CHECK_EQ(log.calls, 1);
    CHECK_EQ(log.status, DOD_E_INVALID);
    CHECK(strcmp(log.condition, "dod_world_create: a component is repeated in an archetype") == 0);
    dod_component_desc comps[N_COMPS];
    memcpy(comps, COMPS, sizeof comps);
    comps[C_HP].align = 12;
    d.components = comps;
    a = arch(POS, 1, 0, 0, 0);
    CHECK_STATUS(dod_world_create(&w, &d), DOD_E_INVALID);
    CHECK(strcmp(log.condition, "dod_world_create: align is not a power of two") == 0);
    CHECK(w == NULL);
    /* a refused call names itself and the argument it refused */
    d.components = COMPS;
    CHECK_OK(dod_world_create(&w, &d));
    dod_entity e;
    CHECK_STATUS(dod_world_spawn(w, 1, &e), DOD_E_RANGE);
    CHECK(strcmp(log.condition, "dod_world_spawn: archetype >= w->n_archetypes") == 0);
    CHECK_STATUS(dod_world_spawn_n(NULL, 0, 1, NULL), DOD_E_INVALID);
    CHECK(strcmp(log.condition, "dod_world_spawn_n: !w") == 0);
    CHECK_OK(dod_world_spawn(w, 0, &e));
    CHECK_OK(dod_world_despawn(w, e));
    CHECK_STATUS(dod_world_despawn(w, e), DOD_E_NOT_FOUND);
    CHECK(strcmp(log.condition, "dod_world_despawn: e is not alive in w") == 0);
    CHECK_STATUS(dod_world_move(w, e, 0), DOD_E_NOT_FOUND);
    CHECK(strcmp(log.condition, "dod_world_move: e is not alive in w") == 0);
    dod_query q;
    const uint32_t unknown = N_COMPS;
    CHECK_STATUS(dod_query_init(&q, w, &unknown, 1, NULL, 0), DOD_E_RANGE);
    CHECK(strcmp(log.condition, "dod_query_init: ids[i] >= w->head.n_components") == 0);
    dod_world_destroy(w);
    dod_set_error_hook(NULL, NULL);
}
#endif

static void test_spawn_get(void)
{
    const dod_archetype_desc archs[3] = { arch(POS_VEL, 2, 0, 0, 0), arch(POS, 1, 64, 0, 0),
                                          arch(POS_HP_BIG, 3, 0, 0, 0) };
    dod_world_desc d = desc_of(archs, 3, NULL);
    dod_world *w;
    CHECK_OK(dod_world_create(&w, &d));
    dod_entity e[3];
    for (uint32_t i = 0; i < 3; ++i) {
        CHECK_OK(dod_world_spawn(w, i, &e[i]));
        CHECK(dod_world_alive(w, e[i]));
        CHECK_EQ(dod_world_archetype_of(w, e[i]), i);
        CHECK_EQ(dod_world_count(w, i), 1);
        for (uint32_t k = 0; k < archs[i].n_components; ++k) {
            uint32_t c = archs[i].components[k];
            unsigned char *p = (unsigned char *)dod_world_get(w, e[i], c);
            CHECK(p != NULL);
            CHECK((uintptr_t)p % COMPS[c].align == 0);
            int zero = 1;
            for (size_t b = 0; b < COMPS[c].size; ++b)
                zero &= p[b] == 0;
            CHECK(zero);
        }
    }
    CHECK(dod_world_get(w, e[1], C_VEL) == NULL);     /* not in its archetype */
    CHECK(dod_world_get(w, e[0], N_COMPS) == NULL);   /* no such component */
    CHECK(dod_world_get(w, e[0], 255) == NULL);
    CHECK(dod_world_get(w, e[0], UINT32_MAX) == NULL);
    CHECK_EQ(dod_world_count(w, 3), 0);
    uint64_t before = world_snap(w);
    dod_entity kept = e[0];
    CHECK_STATUS(dod_world_spawn(w, 3, &e[0]), DOD_E_RANGE);
    CHECK_STATUS(dod_world_spawn_n(w, 3, 2, NULL), DOD_E_RANGE);
    CHECK(world_snap(w) == before && e[0].bits == kept.bits);
    CHECK_EQ(dod_world_archetype_of(w, e[0]), 0);
    /* a pointer stays valid while the archetype grows: rows never move */
    float *pos = (float *)dod_world_get(w, e[0], C_POS);
    pos[0] = 3.5f;
    CHECK_OK(dod_world_spawn_n(w, 0, 5000, NULL));
    CHECK(dod_world_get(w, e[0], C_POS) == pos && pos[0] == 3.5f);
    dod_world_destroy(w);
}

/* Handles: layout, stale, null, forged, foreign, and a slot retired before it wraps. */
static void test_handles(void)
{
    const dod_archetype_desc archs[2] = { arch(POS_VEL, 2, 0, 0, 0), arch(POS, 1, 8, 0, 0) };
    dod_world_desc d = desc_of(archs, 2, NULL);
    dod_world *w, *other;
    CHECK_OK(dod_world_create(&w, &d));
    CHECK_OK(dod_world_create(&other, &d));
    dod_entity a, b, c, x;
    CHECK_OK(dod_world_spawn(w, 0, &a));
    CHECK_OK(dod_world_spawn(w, 0, &b));
    CHECK_OK(dod_world_spawn(other, 0, &x));
    /* index 0, generation 1, the world's tag; the next world's tag is one more */
    CHECK_EQ((uint32_t)a.bits, 0);
    CHECK_EQ((uint32_t)b.bits, 1);
    CHECK_EQ((a.bits >> 32) & 0xFFFF, 1);
    CHECK_EQ((x.bits & 0xFFFFFFFFFFFFull), (a.bits & 0xFFFFFFFFFFFFull));
    CHECK_EQ((x.bits >> 48), ((a.bits >> 48) + 1) & 0xFFFF);
    /* another world's handle with the same index and generation */
    uint64_t before = world_snap(w), other_before = world_snap(other);
    CHECK(!dod_world_alive(w, x));
    CHECK(!dod_world_alive(other, a));
    CHECK(dod_world_get(other, a, C_POS) == NULL);
    CHECK_STATUS(dod_world_despawn(other, a), DOD_E_NOT_FOUND);
    CHECK_STATUS(dod_world_move(other, a, 1), DOD_E_NOT_FOUND);
    CHECK_EQ(dod_world_archetype_of(other, a), UINT32_MAX);
    /* null */
    dod_entity null = { 0 };
    CHECK(!dod_world_alive(w, null));
    CHECK_STATUS(dod_world_despawn(w, null), DOD_E_NOT_FOUND);
    CHECK_STATUS(dod_world_move(w, null, 1), DOD_E_NOT_FOUND);
    CHECK(world_snap(w) == before && world_snap(other) == other_before);
    /* stale: despawned, and the slot reused (same index, next generation) */
    CHECK_OK(dod_world_despawn(w, a));
    before = world_snap(w);
    CHECK_STATUS(dod_world_despawn(w, a), DOD_E_NOT_FOUND);
    CHECK(world_snap(w) == before);
    CHECK_OK(dod_world_spawn(w, 1, &c));
    CHECK_EQ((uint32_t)c.bits, 0);
    CHECK_EQ((c.bits >> 32) & 0xFFFF, 3);
    before = world_snap(w);
    CHECK(!dod_world_alive(w, a) && dod_world_get(w, a, C_POS) == NULL);
    CHECK_STATUS(dod_world_despawn(w, a), DOD_E_NOT_FOUND);
    CHECK_STATUS(dod_world_move(w, a, 0), DOD_E_NOT_FOUND);
    CHECK(world_snap(w) == before);
    /* forged: the free slot's own (even) generation, a wrong odd one, an index past the
     * slots, every bit set */
    CHECK_OK(dod_world_despawn(w, b));
    dod_entity even = b, odd = c, far = c, ones;
    even.bits += 1ull << 32;
    odd.bits += 2ull << 32;
    far.bits += 5;
    ones.bits = UINT64_MAX;
    before = world_snap(w);
    const dod_entity forged[4] = { even, odd, far, ones };
    for (int i = 0; i < 4; ++i) {
        CHECK(!dod_world_alive(w, forged[i]));
        CHECK(dod_world_get(w, forged[i], C_POS) == NULL);
        CHECK_STATUS(dod_world_despawn(w, forged[i]), DOD_E_NOT_FOUND);
        CHECK_STATUS(dod_world_move(w, forged[i], 0), DOD_E_NOT_FOUND);
    }
    CHECK(world_snap(w) == before);
    CHECK(dod_world_alive(w, c));
    dod_world_destroy(other);

    /* a slot lives 32768 times (generations 1, 3, ..., 65535), then it is retired */
    CHECK_OK(dod_world_despawn(w, c));
    dod_entity first, e;
    CHECK_OK(dod_world_spawn(w, 0, &first)); /* slot 0 again (freed last) */
    CHECK_EQ((uint32_t)first.bits, 0);
    CHECK_OK(dod_world_despawn(w, first));
    uint32_t lives = 1;
    for (;;) {
        CHECK_OK(dod_world_spawn(w, 0, &e));
        if ((uint32_t)e.bits != 0)
            break;
        ++lives;
        CHECK_OK(dod_world_despawn(w, e));
    }
    CHECK_EQ(lives + 2, 32768); /* + a's and c's lives */
    CHECK(!dod_world_alive(w, first));
    CHECK_EQ((uint32_t)e.bits, 1); /* the next free slot */
    dod_entity again;
    CHECK_OK(dod_world_spawn(w, 0, &again));
    CHECK_EQ((uint32_t)again.bits, 2); /* a new one: slot 0 is never handed out again */
    dod_world_destroy(w);
}

/* Fixed archetypes: everything allocated by create, DOD_E_FULL past capacity. */
static void test_fixed(void)
{
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator al = test_alloc_get(&ta);
    const dod_archetype_desc archs[2] = { arch(POS_VEL, 2, 100, 0, 0), arch(POS, 1, 30, 0, 0) };
    dod_world_desc d = desc_of(archs, 2, &al);
    dod_world *w;
    CHECK_OK(dod_world_create(&w, &d));
    long made = ta.calls;
    /* at least capacity x (row bytes + 8) */
    CHECK(dod_world_bytes(w) >= 100 * (16 + 8) + 30 * (8 + 8));
    dod_entity e[100], x;
    for (int round = 0; round < 2; ++round) {
        CHECK_OK(dod_world_spawn_n(w, 0, 60, e));
        for (int i = 60; i < 100; ++i)
            CHECK_OK(dod_world_spawn(w, 0, &e[i]));
        uint64_t before = world_snap(w);
        CHECK_STATUS(dod_world_spawn(w, 0, &x), DOD_E_FULL);
        CHECK(world_snap(w) == before);
        CHECK_STATUS(dod_world_spawn_n(w, 0, 1, &x), DOD_E_FULL);
        CHECK(world_snap(w) == before);
        CHECK_OK(dod_world_spawn_n(w, 1, 30, NULL));
        uint64_t full = world_snap(w);
        CHECK_STATUS(dod_world_move(w, e[7], 1), DOD_E_FULL);
        CHECK(world_snap(w) == full);
        CHECK_EQ(dod_world_archetype_of(w, e[7]), 0);
        CHECK_EQ(dod_world_count(w, 0), 100);
        CHECK_EQ(dod_world_block(w, 0, 0, NULL), 100);
        CHECK_EQ(dod_world_block(w, 0, 1, NULL), 0);
        for (int i = 0; i < 100; ++i)
            CHECK_OK(dod_world_despawn(w, e[i]));
        for (uint32_t b = 0; dod_world_block(w, 1, 0, NULL); ++b) {
            void *cols[2];
            CHECK_EQ(dod_world_block(w, 1, 0, cols), 30 - b);
            CHECK_OK(dod_world_despawn(w, ((const dod_entity *)cols[0])[0]));
        }
        CHECK_EQ(dod_world_count(w, 0) + dod_world_count(w, 1), 0);
        CHECK_EQ(dod_world_block(w, 0, 0, NULL), 0);
    }
    CHECK_EQ(ta.calls, made); /* nothing allocated after create */
    dod_world_destroy(w);
    test_alloc_finish(&ta);

    /* bytes per entity of a fixed archetype: the sum of its component sizes + 16 (the id and
     * the entity index's slot), and the lines' padding */
    const dod_archetype_desc one = arch(POS_VEL, 2, 1u << 16, 0, 0);
    d = desc_of(&one, 1, NULL);
    CHECK_OK(dod_world_create(&w, &d));
    CHECK_OK(dod_world_spawn_n(w, 0, 1u << 16, NULL));
    CHECK(dod_world_bytes(w) - w->bytes <= (16 + 16) * (size_t)(1u << 16));
    dod_world_destroy(w);
}

/* Chunked archetypes: rows per block, many blocks, the memory cap, shrinking. */
static void test_chunked(void)
{
    const uint32_t comps[] = { C_POS, C_HP, C_BYTE };
    const uint32_t lines[] = { C_LINE };
    const dod_archetype_desc archs[4] = {
        arch(comps, 3, 0, 1000, 0),
        arch(lines, 1, 0, 256, 0),
        arch(comps, 3, 0, 1000, 3 * 1000 + 999), /* three blocks */
        arch(comps, 3, 0, 1000, 999),            /* not one */
    };
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator al = test_alloc_get(&ta);
    dod_world_desc d = desc_of(archs, 4, &al);
    dod_world *w;
    CHECK_OK(dod_world_create(&w, &d));
    uint32_t rpb = expected_rows(1000, comps, 3);
    CHECK(rpb >= 16 && rpb % 16 == 0);
    CHECK_EQ(expected_rows(256, lines, 1), 3); /* below 16: not rounded */
    CHECK_OK(dod_world_spawn_n(w, 1, 7, NULL));
    CHECK_EQ(dod_world_block(w, 1, 0, NULL), 3);
    CHECK_EQ(dod_world_block(w, 1, 2, NULL), 1);

    void *cols0[4];
    uint32_t n = 10 * rpb + 5;
    dod_entity *e = (dod_entity *)malloc(n * sizeof *e);
    CHECK_OK(dod_world_spawn_n(w, 0, n / 2, e));
    for (uint32_t i = n / 2; i < n; ++i)
        CHECK_OK(dod_world_spawn(w, 0, &e[i]));
    for (uint32_t b = 0; b < 12; ++b) {
        void *cols[4];
        uint32_t rows = dod_world_block(w, 0, b, cols);
        CHECK_EQ(rows, b < 10 ? rpb : b == 10 ? 5 : 0);
        if (!rows)
            continue;
        for (int k = 0; k < 4; ++k) {
            CHECK((uintptr_t)cols[k] % 64 == 0);
            CHECK((char *)cols[k] - (char *)cols[0] < 1000); /* one allocation */
        }
        /* rows in order: out[i] is the i-th row */
        CHECK(((const dod_entity *)cols[0])[0].bits == e[b * rpb].bits);
    }
    CHECK_EQ(w->arch[0].n_blocks, 11);

    /* shrinking: the emptied last block is kept as the one spare */
    for (uint32_t i = n; i-- > 5 * rpb;)
        CHECK_OK(dod_world_despawn(w, e[i]));
    CHECK_EQ(w->arch[0].n_open, 5);
    CHECK_EQ(w->arch[0].n_blocks, 6);
    /* spawn/despawn pairs at the boundary allocate nothing now (the spare is there) ... */
    long calls = ta.calls;
    dod_entity x;
    for (int i = 0; i < 10; ++i) {
        CHECK_OK(dod_world_spawn(w, 0, &x));
        CHECK_OK(dod_world_despawn(w, x));
    }
    CHECK_EQ(ta.calls, calls);
    /* ... and once in all when there is no spare yet (blocks exactly full, none empty; the
     * block list already long enough) */
    CHECK_OK(dod_world_spawn_n(w, 2, 2 * rpb, NULL));
    CHECK_EQ(w->arch[2].n_blocks, 2);
    CHECK_EQ(w->arch[2].blocks_cap, 3);
    calls = ta.calls;
    for (int i = 0; i < 10; ++i) {
        CHECK_OK(dod_world_spawn(w, 2, &x));
        CHECK_OK(dod_world_despawn(w, x));
    }
    CHECK_EQ(ta.calls, calls + 1);
    CHECK_EQ(w->arch[2].n_blocks, 3);
    while (dod_world_block(w, 2, 0, cols0))
        CHECK_OK(dod_world_despawn(w, ((const dod_entity *)cols0[0])[0]));
    /* empty: one block kept */
    void *cols[4];
    while (dod_world_block(w, 0, 0, cols))
        CHECK_OK(dod_world_despawn(w, ((const dod_entity *)cols[0])[0]));
    CHECK_EQ(dod_world_count(w, 0), 0);
    CHECK_EQ(w->arch[0].n_open, 1); /* block 0 stays open, empty */
    CHECK_EQ(w->arch[0].n_blocks, 1);

    /* the memory cap: three blocks, all or nothing */
    CHECK_OK(dod_world_spawn_n(w, 2, 2 * rpb, NULL));
    uint64_t before = world_snap(w);
    CHECK_STATUS(dod_world_spawn_n(w, 2, rpb + 1, NULL), DOD_E_FULL);
    CHECK(world_snap(w) == before);
    CHECK_OK(dod_world_spawn_n(w, 2, rpb - 1, NULL));
    CHECK_OK(dod_world_spawn(w, 2, &x));
    before = world_snap(w);
    CHECK_STATUS(dod_world_spawn(w, 2, &x), DOD_E_FULL);
    CHECK(world_snap(w) == before);
    CHECK_OK(dod_world_spawn(w, 0, &x));
    before = world_snap(w);
    CHECK_STATUS(dod_world_move(w, x, 2), DOD_E_FULL);
    CHECK(world_snap(w) == before);
    CHECK_EQ(dod_world_count(w, 2), 3 * rpb);
    /* a cap below one block admits no rows */
    before = world_snap(w);
    CHECK_STATUS(dod_world_spawn(w, 3, &x), DOD_E_FULL);
    CHECK_STATUS(dod_world_spawn_n(w, 3, 1, NULL), DOD_E_FULL);
    CHECK(world_snap(w) == before);
    CHECK_OK(dod_world_spawn_n(w, 3, 0, NULL));
    free(e);
    dod_world_destroy(w);
    test_alloc_finish(&ta);
}

int main(void)
{
    test_desc_errors();
#if DOD_DEBUG
    test_error_hook();
#endif
    test_spawn_get();
    test_handles();
    test_fixed();
    test_chunked();
    return check_summary("world");
}
