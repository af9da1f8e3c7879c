/* dod_world_copy_with and DOD_WORLD_COPY_ROWS_ONLY: a copy of the rows without the entity
 * index holds the same blocks, ids and columns as its source and answers no handle; what needs
 * the index is refused (DOD_E_STATE, the world unchanged, the error hook told why in every
 * build); a copy from it is rows-only too; a whole copy (changed-only or not) or a load gives
 * it its index back. Random histories, and the failing allocator. */
#include <dod/world.h>
#include "check.h"
#include "world_check.h"
#include "world_io_check.h"
#include <stdlib.h>

/* *held: a world of io_world's declaration after `steps` random calls from seed, which p
 * plays on (p refers to held). */
static dod_world *played(dod_world **held, uint64_t seed, uint32_t steps, io_play *p)
{
    held[0] = io_world(NULL);
    memset(p, 0, sizeof *p);
    p->w = held;
    p->n_worlds = 1;
    p->rng.s = seed;
    io_play_steps(p, steps);
    return held[0];
}

/* A live entity of w (the null handle when none). */
static dod_entity some_entity(const dod_world *w)
{
    dod_entity none = { 0 };
    void *cols[1 + 8];
    for (uint32_t i = 0; i < IO_N_ARCHS; ++i)
        if (dod_world_block(w, i, 0, cols) > 0)
            return ((const dod_entity *)cols[0])[0];
    return none;
}

/* io_play writes components through pointers, which stamp no change version: declare every
 * column written before a copy of what changed. */
static void touch_all(dod_world *w)
{
    for (uint32_t i = 0; i < IO_N_ARCHS; ++i)
        for (uint32_t k = 0; k < IO_ARCHS[i].n_components; ++k)
            CHECK_OK(dod_world_touch(w, i, IO_ARCHS[i].components[k]));
}

static dod_status copy_rows(dod_world *dst, const dod_world *src, uint32_t more_flags)
{
    dod_world_copy_desc d = { NULL, DOD_WORLD_COPY_ROWS_ONLY | more_flags };
    return dod_world_copy_with(dst, src, &d);
}

static uint32_t reported;
static dod_status last_report;
static void hook(void *ctx, dod_status status, const char *file, int line, const char *text)
{
    (void)ctx, (void)file, (void)line, (void)text;
    reported++;
    last_report = status;
}

/* What a rows-only world answers, and what it refuses, leaving it unchanged. */
static void check_rows_only(dod_world *w, const dod_world *src)
{
    dod_entity e = some_entity(src);
    CHECK(e.bits != 0);
    CHECK(dod_world_get(w, e, IO_POS) == NULL);
    CHECK(!dod_world_alive(w, e));
    CHECK_STATUS(dod_world_despawn(w, e), DOD_E_NOT_FOUND);
    CHECK_STATUS(dod_world_move(w, e, 1), DOD_E_NOT_FOUND);

    uint64_t before = world_snap(w);
    dod_entity out = { 7 };
    dod_set_error_hook(hook, NULL);
    reported = 0;
    CHECK_STATUS(dod_world_spawn(w, 0, &out), DOD_E_STATE);
    CHECK_EQ(out.bits, 7); /* untouched */
    CHECK_EQ(reported, 1); /* in a release build too */
    CHECK_EQ(last_report, DOD_E_STATE);
    CHECK_STATUS(dod_world_spawn_n(w, 0, 3, NULL), DOD_E_STATE);
    dod_cmds cb;
    CHECK_OK(dod_cmds_init(&cb, w, NULL));
    CHECK_OK(dod_cmds_despawn(&cb, e));
    CHECK_STATUS(dod_world_apply(w, &cb, 1, NULL), DOD_E_STATE);
    dod_cmds *ptr = &cb;
    CHECK_STATUS(dod_world_apply_ptrs(w, &ptr, 1, NULL), DOD_E_STATE);
    dod_cmds_destroy(&cb);
    unsigned char file[64];
    CHECK_EQ(dod_world_saved_size(w), 0);
    CHECK_STATUS(dod_world_save_mem(w, file, sizeof file), DOD_E_STATE);

    dod_query q;
    CHECK_OK(dod_query_init(&q, w, IO_P, 1, NULL, 0));
    dod_csr slots;
    dod_csr_init(&slots, NULL);
    dod_world_index_desc d;
    memset(&d, 0, sizeof d);
    d.query = &q;
    d.component = IO_HP;
    d.n_rows = 4;
    CHECK_STATUS(dod_world_index_build(&slots, w, &d), DOD_E_STATE); /* items: slots */
    dod_world_gather_col col = { file, IO_POS, 0, 4 };
    CHECK_STATUS(dod_world_gather(&slots, w, &col, 1, NULL), DOD_E_STATE);
    dod_csr_free(&slots);
    dod_set_error_hook(NULL, NULL);
    CHECK_EQ(world_snap(w), before);
}

/* Random histories: rows-only copies (whole, then of what changed) against the source, the
 * refusals, a copy from the copy, then whole copies giving the index back. */
static void test_histories(void)
{
    for (uint32_t round = 0; round < 6; ++round) {
        dod_world *held[1];
        io_play p;
        dod_world *src = played(held, 0xF00D + round, 100 + 100 * round, &p);
        dod_world *dst = io_world(NULL), *third = io_world(NULL);
        CHECK_OK(copy_rows(dst, src, 0));
        CHECK(io_same_blocks(src, dst));
        check_rows_only(dst, src);
        io_play_steps(&p, 200); /* then only what changed, rows only again */
        touch_all(src);
        CHECK_OK(copy_rows(dst, src, DOD_WORLD_COPY_CHANGED));
        CHECK(io_same_blocks(src, dst));
        CHECK_OK(dod_world_copy(third, dst)); /* a copy of a rows-only world is one too */
        CHECK(io_same_blocks(src, third));
        check_rows_only(third, src);
        io_play_steps(&p, 100);
        touch_all(src);
        dod_world_copy_desc changed = { NULL, DOD_WORLD_COPY_CHANGED };
        CHECK_OK(dod_world_copy_with(dst, src, &changed)); /* the index back, whole */
        CHECK(io_same(src, dst, 1, 1));
        CHECK(io_handles_resolve(src, dst));
        CHECK(dod_world_equal(src, dst));
        CHECK_EQ(dod_world_hash(src), dod_world_hash(dst));
        CHECK_OK(dod_world_copy(third, src));
        CHECK(dod_world_equal(src, third));
        dod_world_destroy(src);
        dod_world_destroy(dst);
        dod_world_destroy(third);
    }
}

/* A load into a rows-only world replaces it whole, index included, and it spawns again; a
 * failed load leaves it as it was. */
static void test_load(void)
{
    dod_world *held[1];
    io_play p;
    dod_world *src = played(held, 0xBEEF, 300, &p), *dst = io_world(NULL);
    size_t n = dod_world_saved_size(src);
    unsigned char *file = (unsigned char *)malloc(n);
    CHECK(file != NULL);
    CHECK_OK(dod_world_save_mem(src, file, n));
    io_play_steps(&p, 100);
    CHECK_OK(copy_rows(dst, src, 0));
    uint64_t before = world_snap(dst);
    CHECK_STATUS(dod_world_load_mem(dst, file, n - 1), DOD_E_CORRUPT);
    CHECK_EQ(world_snap(dst), before);
    CHECK(io_same_blocks(src, dst));
    CHECK_OK(dod_world_load_mem(dst, file, n));
    dod_world *ref = io_world(NULL);
    CHECK_OK(dod_world_load_mem(ref, file, n));
    CHECK(dod_world_equal(dst, ref));
    CHECK_OK(dod_world_spawn(dst, 0, NULL));
    free(file);
    dod_world_destroy(ref);
    dod_world_destroy(src);
    dod_world_destroy(dst);
}

/* Refusals of the flags, and the failing allocator: every allocation failure leaves dst as it
 * was, and a rows-only copy makes one allocation fewer than a whole copy: the entity index. */
static dod_world *walk_src;
static uint32_t walk_flags;
static dod_world *make_empty(const dod_allocator *alloc, void *ctx)
{
    (void)ctx;
    return io_world(alloc);
}

static dod_status copy_op(dod_world *w, void *ctx)
{
    (void)ctx;
    dod_world_copy_desc d = { NULL, walk_flags };
    return dod_world_copy_with(w, walk_src, &d);
}

static void test_alloc_walk(void)
{
    dod_world *held[1];
    io_play p;
    walk_src = played(held, 0xAB, 400, &p);
    world_walk o = { make_empty, copy_op, NULL };
    walk_flags = 0;
    long whole = world_alloc_walk(&o);
    walk_flags = DOD_WORLD_COPY_ROWS_ONLY;
    long rows = world_alloc_walk(&o);
    CHECK(rows > 0);
    CHECK_EQ(whole, rows + 1);
    dod_world *dst = io_world(NULL);
    dod_world_copy_desc bad = { NULL, 4u };
    CHECK_STATUS(dod_world_copy_with(dst, walk_src, &bad), DOD_E_INVALID);
    dod_world_destroy(dst);
    dod_world_destroy(walk_src);
}

int main(void)
{
    test_histories();
    test_load();
    test_alloc_walk();
    return check_summary("world_copy_rows");
}
