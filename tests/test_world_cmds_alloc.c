/* The failing allocator on every allocation of recording (the record stream and the spawns'
 * handles growing, reserve) and of dod_world_apply (the exact plan's scratch, the entity index,
 * block lists and blocks of two archetypes): each failure is DOD_E_NOMEM, leaves the buffer or
 * the world and the buffers as they were, and leaks nothing; and the apply allocates nothing
 * once its reservation is made. */
#include <dod/world.h>
#include <string.h>
#include "check.h"
#include "world_check.h"

enum { C_POS, C_LINE, N_COMPS };
static const dod_component_desc COMPS[N_COMPS] = { { "pos", 8, 4 }, { "line", 64, 64 } };
static const uint32_t POS[] = { C_POS };
static const uint32_t LINE[] = { C_LINE };
enum { A_FIXED, A_LINES, A_POS, N_ARCHS };
static const dod_archetype_desc ARCHS[N_ARCHS] = {
    { "fixed", POS, 1, 4, 0, 0, 0 },
    { "lines", LINE, 1, 0, 896, 0, 0 }, /* 12 rows a block */
    { "pos", POS, 1, 0, 256, 0, 0 },    /* 16 rows a block */
};

/* ---- recording ---- */

typedef enum record_op { FIRST_SPAWN, SPAWN_AT_FULL, SET_AT_FULL, RESERVE } record_op;

static dod_status record(dod_cmds *cb, record_op op, dod_entity e)
{
    const float pos[2] = { 1, 2 };
    switch (op) {
    case FIRST_SPAWN:
    case SPAWN_AT_FULL: return dod_cmds_spawn(cb, A_POS, NULL, NULL);
    case SET_AT_FULL: return dod_cmds_set(cb, e, C_POS, pos, sizeof pos);
    case RESERVE: break;
    }
    return dod_cmds_reserve(cb, 1000, 4096);
}

/* Fail the k-th allocation of op for k = 0, 1, ... until it succeeds; returns the number of
 * allocations the successful run made. */
static long walk_record(record_op op)
{
    for (long k = 0; k < 8; ++k) {
        test_alloc ta;
        test_alloc_init(&ta);
        dod_allocator a = test_alloc_get(&ta);
        dod_world_desc d = world_desc_of(COMPS, N_COMPS, ARCHS, N_ARCHS, NULL);
        dod_world *w;
        CHECK_OK(dod_world_create(&w, &d));
        dod_cmds cb;
        CHECK_OK(dod_cmds_init(&cb, w, &a));
        dod_entity e = { 0 };
        /* 64 spawns of a position (16 bytes each): 1024 bytes of records and 64 spawns, both
         * exactly full */
        const float pos[2] = { 3, 4 };
        const void *values[1] = { pos };
        for (uint32_t i = 0; i < 64 && op != FIRST_SPAWN; ++i)
            CHECK_OK(dod_cmds_spawn(&cb, A_POS, values, &e));
        CHECK(op == FIRST_SPAWN || (cb.n_bytes == cb.bytes_cap && cb.n_spawns == cb.spawns_cap));
        uint64_t before = cmds_snap(&cb);
        long calls = ta.calls;
        test_alloc_fail_after(&ta, k);
        dod_status st = record(&cb, op, e);
        long made = ta.calls - calls;
        if (st != DOD_OK) {
            CHECK_STATUS(st, DOD_E_NOMEM);
            CHECK(cmds_snap(&cb) == before);
            test_alloc_fail_after(&ta, -1);
            CHECK_OK(record(&cb, op, e));
        }
        dod_cmds_free(&cb);
        CHECK_EQ(ta.live, 0);
        dod_world_destroy(w);
        test_alloc_finish(&ta);
        if (st == DOD_OK)
            return made;
    }
    CHECK(0);
    return -1;
}

/* ---- applying ---- */

/* The world the apply starts from: the fixed archetype full, 92 lines (8 blocks, a full block
 * list), one pos row (its first block, the list inside the archetype), 97 entity slots of 144. */
static void setup(dod_world *w, dod_entity *fixed)
{
    dod_entity e;
    CHECK_OK(dod_world_spawn_n(w, A_FIXED, 4, fixed));
    for (uint32_t i = 0; i < 92; ++i)
        CHECK_OK(dod_world_spawn(w, A_LINES, &e));
    CHECK_OK(dod_world_spawn(w, A_POS, &e));
    CHECK(w->head.n_slots == 97 && w->slot_cap == 144);
    CHECK(w->arch[A_LINES].n_blocks == 8 && w->arch[A_LINES].blocks_cap == 8);
}

/* The buffers: 32 lines (3 blocks, a longer list), 16 pos (a block, a list), 48 new slots
 * (past the index's 144); with `exact`, a despawn then a spawn in the full fixed archetype,
 * which only the exact plan (its scratch) admits. */
static void record_apply(dod_cmds *cb, const dod_entity *fixed, int exact)
{
    if (exact) {
        CHECK_OK(dod_cmds_despawn(&cb[0], fixed[1]));
        CHECK_OK(dod_cmds_spawn(&cb[1], A_FIXED, NULL, NULL));
    }
    for (uint32_t i = 0; i < 32; ++i)
        CHECK_OK(dod_cmds_spawn(&cb[i % 2], A_LINES, NULL, NULL));
    for (uint32_t i = 0; i < 16; ++i)
        CHECK_OK(dod_cmds_spawn(&cb[1], A_POS, NULL, NULL));
}

static long walk_apply(int exact)
{
    for (long k = 0; k < 16; ++k) {
        test_alloc ta;
        test_alloc_init(&ta);
        dod_allocator a = test_alloc_get(&ta);
        dod_world_desc d = world_desc_of(COMPS, N_COMPS, ARCHS, N_ARCHS, &a);
        dod_world *w;
        CHECK_OK(dod_world_create(&w, &d));
        dod_entity fixed[4];
        setup(w, fixed);
        dod_cmds cb[2];
        CHECK_OK(dod_cmds_init(&cb[0], w, NULL));
        CHECK_OK(dod_cmds_init(&cb[1], w, NULL));
        record_apply(cb, fixed, exact);
        uint64_t before = world_snap(w);
        uint64_t b0 = cmds_snap(&cb[0]), b1 = cmds_snap(&cb[1]);
        long calls = ta.calls;
        dod_apply_result r = { 7, 7, 7 };
        test_alloc_fail_after(&ta, k);
        dod_status st = dod_world_apply(w, cb, 2, &r);
        long made = ta.calls - calls;
        if (st != DOD_OK) {
            CHECK_STATUS(st, DOD_E_NOMEM);
            CHECK(world_snap(w) == before);
            CHECK(cmds_snap(&cb[0]) == b0 && cmds_snap(&cb[1]) == b1);
            CHECK(r.applied == 7 && r.skipped == 7 && r.missing == 7);
            /* the world's memory only (itself, the fixed block, the index; 8 blocks of lines
             * and their list; a block of pos): what the failed apply took went back */
            CHECK_EQ(ta.live, 3 + 9 + 1);
            test_alloc_fail_after(&ta, -1);
            CHECK_OK(dod_world_apply(w, cb, 2, &r)); /* the same apply works with memory */
        }
        CHECK_EQ(r.applied, exact ? 50u : 48u);
        CHECK_EQ(dod_world_count(w, A_LINES), 124);
        CHECK_EQ(dod_world_count(w, A_POS), 17);
        CHECK_EQ(dod_world_count(w, A_FIXED), 4);
        dod_cmds_free(&cb[0]);
        dod_cmds_free(&cb[1]);
        dod_world_destroy(w);
        test_alloc_finish(&ta);
        if (st == DOD_OK)
            return made;
    }
    CHECK(0);
    return -1;
}

int main(void)
{
    CHECK_EQ(walk_record(FIRST_SPAWN), 2);   /* the records and the spawns' handles */
    CHECK_EQ(walk_record(SPAWN_AT_FULL), 2); /* both doubled */
    CHECK_EQ(walk_record(SET_AT_FULL), 1);   /* the records */
    CHECK_EQ(walk_record(RESERVE), 2);
    /* the index, the lines' list and 3 blocks, the pos list and a block: nothing after */
    CHECK_EQ(walk_apply(0), 7);
    CHECK_EQ(walk_apply(1), 8); /* and the exact plan's scratch */
    return check_summary("world_cmds_alloc");
}
