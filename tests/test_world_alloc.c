/* The failing allocator on every allocation of create, spawn, spawn_n and move: each failure
 * is DOD_E_NOMEM, leaves the world (or *w) as it was, and leaks nothing. */
#include <dod/world.h>
#include <string.h>
#include "check.h"
#include "world_check.h"

enum { C_POS, C_LINE, N_COMPS };
static const dod_component_desc COMPS[N_COMPS] = { { "pos", 8, 4 }, { "line", 64, 64 } };
static const uint32_t POS[] = { C_POS };
static const uint32_t LINE[] = { C_LINE };
/* 896-byte blocks of LINE hold 12 rows: 8 blocks (a full block list) are 96 rows, which is
 * also where the entity index (64, then 96 slots) is full. */
enum { ROWS = 12, FULL_LIST = 8 * ROWS };
static const dod_archetype_desc ARCHS[4] = {
    { "fixed", POS, 1, 10, 0, 0, 0 },
    { "lines", LINE, 1, 0, 896, 0, 0 },
    { "fixed2", LINE, 1, 5, 0, 0, 0 },
    { "pos", POS, 1, 0, 0, 0, 0 },
};

static dod_world_desc desc_with(const dod_allocator *alloc)
{
    return world_desc_of(COMPS, N_COMPS, ARCHS, 4, alloc);
}

typedef enum op { OP_SPAWN, OP_SPAWN_N, OP_MOVE, OP_SPAWN_N_GROWING } op;
/* "pos" grows from 1024 rows (16 bytes a row, 16 KiB): four blocks of different sizes */
enum { GROWING_ROWS = 1024 + 2048 + 4096 + 1 };

/* The state every op starts from: archetype 1 at the end of a full block list, and for the
 * spawns a full entity index; for the move, one entity in the fixed archetype. */
static dod_entity setup(dod_world *w, op o)
{
    dod_entity e = { 0 }, x;
    if (o == OP_MOVE)
        CHECK_OK(dod_world_spawn(w, 0, &e));
    for (uint32_t i = 0; i < FULL_LIST; ++i)
        CHECK_OK(dod_world_spawn(w, 1, &x));
    CHECK(o == OP_MOVE || w->head.n_slots == w->slot_cap);
    CHECK_EQ(w->arch[1].n_blocks, w->arch[1].blocks_cap);
    CHECK_EQ(w->arch[1].tail, ROWS);
    return e;
}

static dod_status run_op(dod_world *w, op o, dod_entity e)
{
    dod_entity out[30];
    switch (o) {
    case OP_SPAWN: return dod_world_spawn(w, 1, out);
    case OP_SPAWN_N: return dod_world_spawn_n(w, 1, 30, out);
    case OP_SPAWN_N_GROWING: return dod_world_spawn_n(w, 3, GROWING_ROWS, NULL);
    case OP_MOVE: break;
    }
    return dod_world_move(w, e, 1);
}

/* Fail the k-th allocation of the op for k = 0, 1, ... until it succeeds; returns the
 * allocations the successful run made. */
static long walk(op o)
{
    for (long k = 0; k < 32; ++k) {
        test_alloc ta;
        test_alloc_init(&ta);
        dod_allocator a = test_alloc_get(&ta);
        dod_world_desc d = desc_with(&a);
        dod_world *w;
        CHECK_OK(dod_world_create(&w, &d));
        dod_entity e = setup(w, o);
        uint64_t before = world_snap(w);
        long calls = ta.calls;
        test_alloc_fail_after(&ta, k);
        dod_status st = run_op(w, o, e);
        if (st == DOD_OK) {
            long made = ta.calls - calls;
            CHECK(ta.failed == 0);
            dod_world_destroy(w);
            test_alloc_finish(&ta);
            return made;
        }
        CHECK_STATUS(st, DOD_E_NOMEM);
        CHECK(world_snap(w) == before);
        test_alloc_fail_after(&ta, -1);
        CHECK_OK(run_op(w, o, e)); /* and the same call works once memory is there */
        dod_world_destroy(w);
        test_alloc_finish(&ta);
    }
    CHECK(0);
    return -1;
}

static void test_create(void)
{
    long made = -1;
    for (long k = 0; k < 32 && made < 0; ++k) {
        test_alloc ta;
        test_alloc_init(&ta);
        dod_allocator a = test_alloc_get(&ta);
        dod_world_desc d = desc_with(&a);
        test_alloc_fail_after(&ta, k);
        dod_world *sentinel = (dod_world *)(void *)&ta, *w = sentinel;
        dod_status st = dod_world_create(&w, &d);
        if (st == DOD_OK) {
            made = ta.calls;
            dod_world_destroy(w);
        } else {
            CHECK_STATUS(st, DOD_E_NOMEM);
            CHECK(w == sentinel);
        }
        test_alloc_finish(&ta);
    }
    CHECK_EQ(made, 4); /* the world, two fixed blocks, the entity index */
}

int main(void)
{
    test_create();
    CHECK_EQ(walk(OP_SPAWN), 3);  /* the entity index, the block list, a block */
    CHECK_EQ(walk(OP_SPAWN_N), 5); /* the entity index, the block list, three blocks */
    CHECK_EQ(walk(OP_MOVE), 2);    /* the block list, a block */
    CHECK_EQ(walk(OP_SPAWN_N_GROWING), 6); /* the entity index, the block list, four blocks */
    return check_summary("world_alloc");
}
