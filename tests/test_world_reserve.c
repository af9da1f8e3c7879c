/* dod_world_reserve, dod_world_rows_bytes and dod_world_frames_create_from: rows reserved are
 * spawned without allocating, all or nothing, touched with DOD_WORLD_PREFAULT; rows_bytes is
 * what the blocks of those rows hold, and as a memory cap lets exactly them in; frames created
 * from a live world take its first copies without allocating; a copy or frames refused for
 * another declaration name the difference. */
#include <dod/world.h>
#include <string.h>
#include "check.h"
#include "world_check.h"

enum { C_POS, C_VEL, N_COMPS };
static const dod_component_desc COMPS[N_COMPS] = { { "pos", 8, 4 }, { "vel", 8, 4 } };
static const uint32_t POS[] = { C_POS };
static const uint32_t PV[] = { C_POS, C_VEL };
enum { A_FIXED, A_BIG, A_SMALL, N_ARCHS, FIXED_ROWS = 100 };
/* A_SMALL: blocks from 256 bytes growing to 1024 (16, 32, 64, 64, ... rows of 16 bytes) */
static const dod_archetype_desc ARCHS[N_ARCHS] = {
    { "fixed", POS, 1, FIXED_ROWS, 0, 0, 0 },
    { "big", PV, 2, 0, 0, 0, 0 },
    { "small", POS, 1, 0, 1024, 0, 256 },
};

static dod_world *make(const dod_allocator *alloc, uint32_t flags)
{
    dod_world_desc d = world_desc_of(COMPS, N_COMPS, ARCHS, N_ARCHS, alloc);
    d.flags = flags;
    dod_world *w = NULL;
    CHECK_OK(dod_world_create(&w, &d));
    return w;
}

/* Blocks' bytes of archetype i of w: what it holds. */
static size_t held_bytes(const dod_world *w, uint32_t i)
{
    return dod__world_bytes_upto(&w->arch[i], w->arch[i].n_blocks);
}

/* Reserved rows are spawned (one by one and in bulk) without an allocation. */
static void test_reserve_then_spawn(void)
{
    const uint32_t rows[] = { 1, 16, 17, 48, 49, 500, 5000 };
    for (size_t t = 0; t < sizeof rows / sizeof rows[0]; ++t)
        for (uint32_t arch = A_FIXED; arch < N_ARCHS; ++arch) {
            uint32_t n = arch == A_FIXED && rows[t] > FIXED_ROWS ? FIXED_ROWS : rows[t];
            test_alloc ta;
            test_alloc_init(&ta);
            dod_allocator a = test_alloc_get(&ta);
            dod_world *w = make(&a, 0);
            CHECK_OK(dod_world_spawn(w, arch, NULL)); /* reserve counts the rows there */
            CHECK_OK(dod_world_reserve(w, arch, n));
            CHECK(w->arch[arch].rows_held >= n);
            long calls = ta.calls;
            CHECK_OK(dod_world_reserve(w, arch, n)); /* held: nothing more */
            CHECK_OK(dod_world_reserve(w, arch, 0));
            test_alloc_fail_after(&ta, 0); /* any allocation now fails the spawns */
            for (uint32_t r = 1; r < n; ++r)
                CHECK_OK(dod_world_spawn(w, arch, NULL));
            CHECK_EQ(dod_world_count(w, arch), n > 1 ? n : 1);
            CHECK_EQ(ta.calls, calls);
            /* the blocks are the fewest that hold n rows */
            if (arch != A_FIXED)
                CHECK_EQ(w->arch[arch].n_blocks,
                         (uint32_t)dod__world_blocks_for_rows(&w->arch[arch], n));
            dod_world_destroy(w);
            test_alloc_finish(&ta);
        }
    /* spawn_n into a reservation, and past it */
    dod_world *w = make(NULL, 0);
    CHECK_OK(dod_world_reserve(w, A_SMALL, 1000));
    size_t bytes = dod_world_bytes(w);
    CHECK_OK(dod_world_spawn_n(w, A_SMALL, 1000, NULL));
    CHECK_EQ(dod_world_bytes(w), bytes);
    CHECK_OK(dod_world_spawn_n(w, A_SMALL, 1000, NULL));
    CHECK(dod_world_bytes(w) > bytes);
    CHECK_OK(dod_world_reserve(w, A_SMALL, 10)); /* fewer than it holds: nothing */
    CHECK_EQ(dod_world_count(w, A_SMALL), 2000);
    dod_world_destroy(w);
}

/* Refusals leave the world as it was. */
static void test_reserve_refused(void)
{
    CHECK_STATUS(dod_world_reserve(NULL, 0, 1), DOD_E_INVALID);
    dod_world *w = make(NULL, 0);
    uint64_t before = world_snap(w);
    CHECK_STATUS(dod_world_reserve(w, N_ARCHS, 1), DOD_E_RANGE);
    CHECK_STATUS(dod_world_reserve(w, A_FIXED, FIXED_ROWS + 1), DOD_E_FULL);
    CHECK(world_snap(w) == before);
    CHECK_OK(dod_world_reserve(w, A_FIXED, FIXED_ROWS));
    dod_world_destroy(w);
    /* past a memory cap: refused whole, the blocks that would fit not kept either */
    dod_archetype_desc capped[N_ARCHS];
    memcpy(capped, ARCHS, sizeof capped);
    size_t cap = 0;
    dod_world_desc d = world_desc_of(COMPS, N_COMPS, ARCHS, N_ARCHS, NULL);
    CHECK_OK(dod_world_rows_bytes(&d, A_SMALL, 200, &cap));
    capped[A_SMALL].memory_cap = cap;
    d.archetypes = capped;
    CHECK_OK(dod_world_create(&w, &d));
    before = world_snap(w);
    uint32_t fits = (uint32_t)dod__world_rows_upto(&w->arch[A_SMALL], w->arch[A_SMALL].max_blocks);
    CHECK(fits >= 200);
    CHECK_STATUS(dod_world_reserve(w, A_SMALL, fits + 1), DOD_E_FULL);
    CHECK(world_snap(w) == before);
    CHECK_OK(dod_world_reserve(w, A_SMALL, fits));
    CHECK_EQ(held_bytes(w, A_SMALL), cap);
    dod_world_destroy(w);
}

/* The failing allocator on every allocation of a reserve: the block list, the blocks, the
 * entity index. */
static dod_world *walk_make(const dod_allocator *alloc, void *ctx)
{
    (void)ctx;
    dod_world *w = make(alloc, 0);
    CHECK_OK(dod_world_spawn_n(w, A_SMALL, 20, NULL)); /* two blocks, a slot index of 100 */
    return w;
}

static dod_status walk_reserve(dod_world *w, void *ctx)
{
    return dod_world_reserve(w, A_SMALL, *(const uint32_t *)ctx);
}

static void test_reserve_alloc_walk(void)
{
    uint32_t rows = 16 + 32 + 64 * 9 + 1; /* past 8 block list entries, past 100 slots */
    world_walk o = { walk_make, walk_reserve, &rows };
    CHECK_EQ(world_alloc_walk(&o), 1 + 10 + 1); /* the list, blocks 2 .. 11, the index */
    rows = 60; /* one block; the list and the fixed archetype's 100 slots hold it */
    CHECK_EQ(world_alloc_walk(&o), 1);
}

/* An allocator whose memory starts as 0xAB bytes: a page touched by DOD_WORLD_PREFAULT shows
 * a 0 at its first byte. ctx: the test allocator underneath. */
static void *pattern_alloc(void *ctx, size_t size, size_t align)
{
    const dod_allocator *under = (const dod_allocator *)ctx;
    void *p = under->alloc(under->ctx, size, align);
    if (p)
        memset(p, 0xAB, size);
    return p;
}

static void pattern_free(void *ctx, void *p, size_t size)
{
    const dod_allocator *under = (const dod_allocator *)ctx;
    under->free(under->ctx, p, size);
}

/* 1 when every 4096th byte of blocks from .. n_blocks - 1 of archetype i is 0 (touched), 0
 * when every one is 0xAB (untouched), -1 when mixed. */
static int blocks_touched(const dod_world *w, uint32_t i, uint32_t from)
{
    int zero = 0, pattern = 0;
    const dod__world_arch *a = &w->arch[i];
    for (uint32_t b = from; b < a->n_blocks; ++b)
        for (size_t at = 0; at < dod__world_block_bytes(a, b); at += 4096) {
            zero |= a->place->blocks[b][at] == 0;
            pattern |= a->place->blocks[b][at] == 0xAB;
        }
    return zero && !pattern ? 1 : pattern && !zero ? 0 : -1;
}

static int slots_touched(const dod_world *w)
{
    int zero = 0, pattern = 0;
    const unsigned char *s = (const unsigned char *)w->head.slots;
    for (size_t at = 0; at < (size_t)w->slot_cap * 8; at += 4096) {
        zero |= s[at] == 0;
        pattern |= s[at] == 0xAB;
    }
    return zero && !pattern ? 1 : pattern && !zero ? 0 : -1;
}

static void test_reserve_prefault(void)
{
    for (uint32_t pre = 0; pre < 2; ++pre) {
        test_alloc ta;
        test_alloc_init(&ta);
        dod_allocator under = test_alloc_get(&ta);
        dod_allocator a = { pattern_alloc, pattern_free, &under };
        dod_world *w = make(&a, pre ? DOD_WORLD_PREFAULT : 0u);
        CHECK_OK(dod_world_reserve(w, A_BIG, 200000)); /* 4.8 MB of blocks, 1.6 MB of slots */
        CHECK(w->arch[A_BIG].n_blocks > 1);
        CHECK_EQ(blocks_touched(w, A_BIG, 0), (int)pre);
        CHECK_EQ(slots_touched(w), (int)pre);
        dod_world_destroy(w);
        test_alloc_finish(&ta);
    }
}

/* rows_bytes: the bytes of the blocks a spawn of that many rows leaves the archetype; as a
 * memory cap, those rows (and the rest of the last block's) fit and one more does not. */
static void test_rows_bytes(void)
{
    dod_world_desc d = world_desc_of(COMPS, N_COMPS, ARCHS, N_ARCHS, NULL);
    size_t bytes = 1;
    CHECK_OK(dod_world_rows_bytes(&d, A_SMALL, 0, &bytes));
    CHECK_EQ(bytes, 0);
    CHECK_OK(dod_world_rows_bytes(&d, A_FIXED, 0, &bytes));
    CHECK_EQ(bytes, (size_t)(8 * FIXED_ROWS + 63) / 64 * 64 + (8 * FIXED_ROWS + 63) / 64 * 64);
    const uint32_t rows[] = { 1, 16, 17, 48, 49, 112, 113, 1000, 70000 };
    for (size_t t = 0; t < sizeof rows / sizeof rows[0]; ++t)
        for (uint32_t arch = A_BIG; arch < N_ARCHS; ++arch) {
            CHECK_OK(dod_world_rows_bytes(&d, arch, rows[t], &bytes));
            dod_world *w = make(NULL, 0);
            CHECK_OK(dod_world_spawn_n(w, arch, rows[t], NULL));
            CHECK_EQ(held_bytes(w, arch), bytes);
            dod_world_destroy(w);
            /* as the cap */
            dod_archetype_desc capped[N_ARCHS];
            memcpy(capped, ARCHS, sizeof capped);
            capped[arch].memory_cap = bytes;
            dod_world_desc dc = d;
            dc.archetypes = capped;
            size_t again = 0;
            CHECK_OK(dod_world_rows_bytes(&dc, arch, rows[t], &again)); /* the cap is ignored */
            CHECK_EQ(again, bytes);
            CHECK_OK(dod_world_create(&w, &dc));
            uint32_t fits =
                (uint32_t)dod__world_rows_upto(&w->arch[arch], w->arch[arch].max_blocks);
            CHECK(fits >= rows[t]);
            CHECK_OK(dod_world_spawn_n(w, arch, fits, NULL));
            CHECK_STATUS(dod_world_spawn(w, arch, NULL), DOD_E_FULL);
            dod_world_destroy(w);
        }
    /* refusals leave *bytes as it was */
    bytes = 7;
    CHECK_STATUS(dod_world_rows_bytes(NULL, 0, 1, &bytes), DOD_E_INVALID);
    CHECK_STATUS(dod_world_rows_bytes(&d, 0, 1, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_world_rows_bytes(&d, N_ARCHS, 1, &bytes), DOD_E_RANGE);
    CHECK_STATUS(dod_world_rows_bytes(&d, A_FIXED, FIXED_ROWS + 1, &bytes), DOD_E_FULL);
    dod_component_desc bad[N_COMPS];
    memcpy(bad, COMPS, sizeof bad);
    bad[C_VEL].size = 6; /* not a multiple of its alignment */
    dod_world_desc db = d;
    db.components = bad;
    CHECK_STATUS(dod_world_rows_bytes(&db, A_SMALL, 1, &bytes), DOD_E_INVALID);
    CHECK_EQ(bytes, 7);
    /* the most rows: 2^32 - 1 rows of 8 + 1 MiB bytes do not fit a 32-bit size_t */
    static const dod_component_desc huge_comp[1] = { { "huge", 1u << 20, 4 } };
    static const uint32_t huge_ids[1] = { 0 };
    const dod_archetype_desc huge_arch = { "huge", huge_ids, 1, 0, 1u << 24, 0, 0 };
    dod_world_desc dh = world_desc_of(huge_comp, 1, &huge_arch, 1, NULL);
#if SIZE_MAX < UINT64_MAX
    CHECK_STATUS(dod_world_rows_bytes(&dh, 0, UINT32_MAX, &bytes), DOD_E_OVERFLOW);
    CHECK_EQ(bytes, 7);
#else
    CHECK_OK(dod_world_rows_bytes(&dh, 0, UINT32_MAX, &bytes));
    CHECK((uint64_t)bytes >= (uint64_t)UINT32_MAX * ((1u << 20) + 8));
#endif
}

/* The live world the frames are made from: some rows in every archetype, a despawn's free
 * slot. */
static dod_world *live_world(void)
{
    dod_world *live = make(NULL, 0);
    CHECK_OK(dod_world_spawn_n(live, A_FIXED, 50, NULL));
    CHECK_OK(dod_world_spawn_n(live, A_BIG, 3000, NULL));
    dod_entity e;
    CHECK_OK(dod_world_spawn(live, A_SMALL, &e));
    CHECK_OK(dod_world_spawn_n(live, A_SMALL, 700, NULL));
    CHECK_OK(dod_world_despawn(live, e));
    return live;
}

/* Publish a copy of live into every slot: the allocations it made. */
static long copy_into_every_slot(dod_frames *frames, const dod_world *live, test_alloc *ta)
{
    long calls = ta->calls;
    for (uint32_t k = 0; k < dod_frames_slot_count(frames); ++k) {
        dod_frame f = { 0 };
        CHECK_OK(dod_frames_begin(frames, &f));
        CHECK_OK(dod_world_copy(dod_frame_world(&f), live));
        CHECK(world_same(dod_frame_world(&f), live));
        CHECK_OK(dod_frames_publish(frames, &f));
    }
    return ta->calls - calls;
}

static void test_frames_from(void)
{
    dod_world *live = live_world();
    for (uint32_t from = 0; from < 2; ++from) {
        test_alloc ta;
        test_alloc_init(&ta);
        dod_allocator a = test_alloc_get(&ta);
        dod_world_desc d = world_desc_of(COMPS, N_COMPS, ARCHS, N_ARCHS, &a);
        dod_frames *frames = NULL;
        if (from)
            CHECK_OK(dod_world_frames_create_from(&frames, 3, &d, live));
        else
            CHECK_OK(dod_world_frames_create(&frames, 3, &d));
        long first = copy_into_every_slot(frames, live, &ta);
        CHECK(from ? first == 0 : first > 0);
        CHECK_EQ(copy_into_every_slot(frames, live, &ta), 0); /* the next copies: none */
        dod_world_frames_destroy(frames);
        test_alloc_finish(&ta);
    }
    /* prefaulted: every slot's blocks and index touched */
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator under = test_alloc_get(&ta);
    dod_allocator a = { pattern_alloc, pattern_free, &under };
    dod_world_desc d = world_desc_of(COMPS, N_COMPS, ARCHS, N_ARCHS, &a);
    d.flags = DOD_WORLD_PREFAULT;
    dod_frames *frames = NULL;
    CHECK_OK(dod_world_frames_create_from(&frames, 2, &d, live));
    for (uint32_t s = 0; s < 2; ++s) {
        const dod_world *w = (const dod_world *)dod_frames_payload(frames, s);
        for (uint32_t i = 0; i < N_ARCHS; ++i) {
            CHECK_EQ(w->arch[i].n_blocks, live->arch[i].n_blocks);
            CHECK_EQ(blocks_touched(w, i, 0), 1);
        }
        CHECK_EQ(w->slot_cap, live->slot_cap);
        CHECK_EQ(slots_touched(w), 1);
    }
    dod_world_frames_destroy(frames);
    test_alloc_finish(&ta);
    dod_world_destroy(live);
}

/* Every allocation of dod_world_frames_create_from failed in turn: DOD_E_NOMEM, *frames
 * untouched, nothing leaked. */
static void test_frames_from_alloc_walk(void)
{
    dod_world *live = live_world();
    long made = -1;
    for (long k = 0; k < 64 && made < 0; ++k) {
        test_alloc ta;
        test_alloc_init(&ta);
        dod_allocator a = test_alloc_get(&ta);
        dod_world_desc d = world_desc_of(COMPS, N_COMPS, ARCHS, N_ARCHS, &a);
        test_alloc_fail_after(&ta, k);
        dod_frames *sentinel = (dod_frames *)(void *)&ta, *frames = sentinel;
        dod_status st = dod_world_frames_create_from(&frames, 2, &d, live);
        if (st == DOD_OK) {
            made = ta.calls;
            dod_world_frames_destroy(frames);
        } else {
            CHECK_STATUS(st, DOD_E_NOMEM);
            CHECK(frames == sentinel);
        }
        test_alloc_finish(&ta);
    }
    /* per slot: the world, the fixed block, the index; A_BIG's list and 2 blocks, A_SMALL's
     * list and its blocks, the larger index; then the frames object */
    long big = (long)live->arch[A_BIG].n_blocks, small = (long)live->arch[A_SMALL].n_blocks;
    CHECK_EQ(made, 2 * (3 + 1 + big + 1 + small + 1) + 1);
    dod_world_destroy(live);
}

static char said[256]; /* the error hook's last report */
static void hook(void *ctx, dod_status status, const char *file, int line, const char *cond)
{
    (void)ctx;
    (void)status;
    (void)file;
    (void)line;
    snprintf(said, sizeof said, "%s", cond);
}

/* A copy or frames refused for another declaration: DOD_E_INVALID, and the error hook names
 * the first difference, in a release build too. */
static void test_declaration_refused(void)
{
    dod_set_error_hook(hook, NULL);
    dod_world *live = live_world();
    dod_component_desc comps[N_COMPS];
    dod_archetype_desc archs[N_ARCHS];
    struct {
        int what; /* 0: a component's size, 1: name, 2: an archetype's block_bytes, 3: capacity,
                     4: a column, 5: archetype count */
        const char *said;
    } cases[] = {
        { 0, "dod_world_copy: another declaration: the size of component 1 is 16 in dst, 8 in "
             "src" },
        { 1, "dod_world_copy: another declaration: the name hash of component 0 is" },
        { 2, "dod_world_copy: another declaration: block_bytes of archetype 2 is 2048 in dst, "
             "1024 in src" },
        { 3, "dod_world_copy: another declaration: the capacity (0: chunked) of archetype 0 is "
             "0 in dst, 100 in src" },
        { 4, "dod_world_copy: another declaration: a component of archetype 2 is 1 in dst, 0 in "
             "src" },
        { 5, "dod_world_copy: another declaration: the archetype count is 2 in dst, 3 in src" },
    };
    static const uint32_t VEL[] = { C_VEL };
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; ++t) {
        memcpy(comps, COMPS, sizeof comps);
        memcpy(archs, ARCHS, sizeof archs);
        dod_world_desc d = world_desc_of(comps, N_COMPS, archs, N_ARCHS, NULL);
        switch (cases[t].what) {
        case 0: comps[C_VEL].size = 16; break;
        case 1: comps[C_POS].name = "position"; break;
        case 2: archs[A_SMALL].block_bytes = 2048; break;
        case 3: archs[A_FIXED].capacity = 0; break;
        case 4: archs[A_SMALL].components = VEL; break;
        default: d.n_archetypes = 2; break;
        }
        dod_world *w = NULL;
        CHECK_OK(dod_world_create(&w, &d));
        uint64_t before = world_snap(w);
        said[0] = '\0';
        CHECK_STATUS(dod_world_copy(w, live), DOD_E_INVALID);
        CHECK(world_snap(w) == before);
        CHECK(strncmp(said, cases[t].said, strlen(cases[t].said)) == 0);
        if (strncmp(said, cases[t].said, strlen(cases[t].said)) != 0)
            fprintf(stderr, "  said: %s\n", said);
        dod_frames *sentinel = (dod_frames *)(void *)&d, *frames = sentinel;
        CHECK_STATUS(dod_world_frames_create_from(&frames, 2, &d, live), DOD_E_INVALID);
        CHECK(frames == sentinel);
        const char *from = "dod_world_frames_create_from: another declaration: ";
        CHECK(strncmp(said, from, strlen(from)) == 0);
        CHECK(strstr(said, " in desc, ") != NULL && strstr(said, " in live") != NULL);
        dod_world_destroy(w);
    }
    dod_world_desc d = world_desc_of(COMPS, N_COMPS, ARCHS, N_ARCHS, NULL);
    dod_frames *sentinel = (dod_frames *)(void *)&d, *frames = sentinel;
    CHECK_STATUS(dod_world_frames_create_from(NULL, 2, &d, live), DOD_E_INVALID);
    CHECK_STATUS(dod_world_frames_create_from(&frames, 2, NULL, live), DOD_E_INVALID);
    CHECK_STATUS(dod_world_frames_create_from(&frames, 2, &d, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_world_frames_create_from(&frames, 1, &d, live), DOD_E_RANGE);
    CHECK_STATUS(dod_world_frames_create_from(&frames, DOD_FRAME_MAX_SLOTS + 1, &d, live),
                 DOD_E_RANGE);
    CHECK(frames == sentinel);
    dod_world_destroy(live);
    dod_set_error_hook(NULL, NULL);
}

int main(void)
{
    test_reserve_then_spawn();
    test_reserve_refused();
    test_reserve_alloc_walk();
    test_reserve_prefault();
    test_rows_bytes();
    test_frames_from();
    test_frames_from_alloc_walk();
    test_declaration_refused();
    return check_summary("world_reserve");
}
