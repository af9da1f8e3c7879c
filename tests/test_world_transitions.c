/* Adding and removing one component (dod_world_add / dod_world_remove): the targets worked
 * out at create, the no-ops, every refusal with its exact status and the world unchanged,
 * the failing allocator, and a world of the most archetypes and components. The random mix
 * against the reference model is in test_world_model.c. */
#include <dod/world.h>
#include <string.h>
#include "check.h"
#include "world_check.h"

enum { C_POS, C_VEL, C_HIT, C_TAG, N_COMPS };
static const dod_component_desc COMPS[N_COMPS] = {
    { "pos", 8, 4 }, { "vel", 8, 4 }, { "hit", 16, 4 }, { "tag", 4, 4 },
};
static const uint32_t PV[] = { C_POS, C_VEL }, VP[] = { C_VEL, C_POS }, P[] = { C_POS };
static const uint32_t PVH[] = { C_POS, C_VEL, C_HIT }, PH[] = { C_POS, C_HIT };
enum { A_UNIT, A_WRECK, A_BARE, A_FULL, A_PROJ, A_SHOT, A_SPARK, N_ARCHS };
static const dod_archetype_desc ARCHS[N_ARCHS] = {
    { "unit", PV, 2, 0, 512, 0, 0 },    /* {P,V}: two archetypes have it (with shot) */
    { "wreck", P, 1, 0, 256, 0, 0 },    /* {P}: the only one */
    { "bare", NULL, 0, 0, 0, 0, 0 },    /* {}: an entity that lost every component */
    { "full", PVH, 3, 1, 0, 0, 0 },     /* {P,V,H}: fixed, one row */
    { "proj", PH, 2, 0, 0, 0, 0 },      /* {P,H} */
    { "shot", VP, 2, 0, 0, 0, 0 },      /* {V,P}: unit's set, in another order */
    { "spark", P, 1, 0, 128, 0, 0 },    /* wreck's set again (test_twins only) */
};

static dod_world *make(const dod_archetype_desc *archs, uint32_t n, const dod_allocator *alloc)
{
    dod_world_desc d = world_desc_of(COMPS, N_COMPS, archs, n, alloc);
    dod_world *w = NULL;
    CHECK_OK(dod_world_create(&w, &d));
    return w;
}

/* Refused: the exact status, and the world exactly as it was. */
#define CHECK_REFUSED(w, call, want)                                                           \
    do {                                                                                       \
        uint64_t before_ = world_snap(w);                                                      \
        CHECK_STATUS(call, want);                                                              \
        CHECK(world_snap(w) == before_);                                                       \
    } while (0)

static void test_targets(void)
{
    /* archetypes 0 .. 5 only: spark (wreck's twin) comes in test_twins */
    dod_world *w = make(ARCHS, A_SPARK, NULL);
    dod_entity e;
    CHECK_OK(dod_world_spawn(w, A_WRECK, &e));
    world_set_f(w, e, C_POS, 1.0f);
    /* {P} + H -> proj; the new component zeroed, the old kept, the handle the same */
    CHECK_OK(dod_world_add(w, e, C_HIT));
    CHECK_EQ(dod_world_archetype_of(w, e), A_PROJ);
    CHECK(world_get_f(w, e, C_POS) == 2.0f);
    const float *h = (const float *)dod_world_get(w, e, C_HIT);
    CHECK(h && h[0] == 0.0f && h[3] == 0.0f);
    /* no-ops: adding what it has, removing what it lacks */
    uint64_t before = world_snap(w);
    CHECK_OK(dod_world_add(w, e, C_POS));
    CHECK_OK(dod_world_add(w, e, C_HIT));
    CHECK_OK(dod_world_remove(w, e, C_VEL));
    CHECK_OK(dod_world_remove(w, e, C_TAG));
    CHECK(world_snap(w) == before);
    /* {P,H} + V -> full (fixed), - H -> back to {P}, - P -> {} (the empty archetype) */
    CHECK_OK(dod_world_add(w, e, C_VEL));
    CHECK_EQ(dod_world_archetype_of(w, e), A_FULL);
    CHECK_OK(dod_world_remove(w, e, C_VEL));
    CHECK_OK(dod_world_remove(w, e, C_HIT));
    CHECK_EQ(dod_world_archetype_of(w, e), A_WRECK);
    CHECK(world_get_f(w, e, C_POS) == 2.0f);
    CHECK_OK(dod_world_remove(w, e, C_POS));
    CHECK_EQ(dod_world_archetype_of(w, e), A_BARE);
    CHECK(dod_world_get(w, e, C_POS) == NULL && dod_world_alive(w, e));
    CHECK_OK(dod_world_add(w, e, C_POS)); /* and back: zeroed */
    CHECK_EQ(dod_world_archetype_of(w, e), A_WRECK);
    CHECK(world_get_f(w, e, C_POS) == 0.0f);
    /* {P} + V: unit and shot both have {P,V}, so neither is a target */
    CHECK_REFUSED(w, dod_world_add(w, e, C_VEL), DOD_E_UNDECLARED);
    /* {P} + T: no archetype has {P,T} */
    CHECK_REFUSED(w, dod_world_add(w, e, C_TAG), DOD_E_UNDECLARED);
    /* from an archetype whose set two share, a unique set is still a target */
    dod_entity u;
    CHECK_OK(dod_world_spawn(w, A_SHOT, &u));
    CHECK_OK(dod_world_remove(w, u, C_VEL));
    CHECK_EQ(dod_world_archetype_of(w, u), A_WRECK);
    CHECK_OK(dod_world_move(w, u, A_UNIT)); /* a move names the twin it means */
    CHECK_OK(dod_world_add(w, u, C_HIT));
    CHECK_EQ(dod_world_archetype_of(w, u), A_FULL);
    /* full: the fixed archetype holds one row */
    dod_entity x;
    CHECK_OK(dod_world_spawn(w, A_PROJ, &x));
    CHECK_REFUSED(w, dod_world_add(w, x, C_VEL), DOD_E_FULL);
    /* the other refusals */
    CHECK_STATUS(dod_world_add(NULL, e, C_POS), DOD_E_INVALID);
    CHECK_STATUS(dod_world_remove(NULL, e, C_POS), DOD_E_INVALID);
    CHECK_REFUSED(w, dod_world_add(w, e, N_COMPS), DOD_E_RANGE);
    CHECK_REFUSED(w, dod_world_remove(w, e, UINT32_MAX), DOD_E_RANGE);
    dod_entity gone = x;
    CHECK_OK(dod_world_despawn(w, gone));
    CHECK_REFUSED(w, dod_world_add(w, gone, C_VEL), DOD_E_NOT_FOUND);
    CHECK_REFUSED(w, dod_world_remove(w, gone, C_POS), DOD_E_NOT_FOUND);
    dod_entity null_e = { 0 };
    CHECK_REFUSED(w, dod_world_add(w, null_e, C_POS), DOD_E_NOT_FOUND);
    dod_world *other = make(ARCHS, A_SPARK, NULL);
    dod_entity foreign;
    CHECK_OK(dod_world_spawn(other, A_WRECK, &foreign));
    CHECK_REFUSED(w, dod_world_remove(w, foreign, C_POS), DOD_E_NOT_FOUND);
    dod_world_destroy(other);
    dod_world_destroy(w);
}

/* Two archetypes with one set: neither is reached by add or remove, from either side. */
static void test_twins(void)
{
    dod_world *w = make(ARCHS, N_ARCHS, NULL);
    dod_entity e;
    CHECK_OK(dod_world_spawn(w, A_PROJ, &e));
    CHECK_REFUSED(w, dod_world_remove(w, e, C_HIT), DOD_E_UNDECLARED); /* wreck or spark */
    CHECK_OK(dod_world_spawn(w, A_SPARK, &e));
    CHECK_OK(dod_world_add(w, e, C_HIT)); /* from a twin to a unique set: fine */
    CHECK_EQ(dod_world_archetype_of(w, e), A_PROJ);
    CHECK_OK(dod_world_spawn(w, A_BARE, &e));
    CHECK_REFUSED(w, dod_world_add(w, e, C_POS), DOD_E_UNDECLARED);
    dod_world_destroy(w);
}

#if DOD_DEBUG
typedef struct hook_log { int calls; char condition[128]; } hook_log;
static void record(void *ctx, dod_status status, const char *file, int line, const char *cond)
{
    hook_log *log = (hook_log *)ctx;
    (void)status;
    (void)file;
    (void)line;
    log->calls++;
    snprintf(log->condition, sizeof log->condition, "%s", cond);
}

/* The refusals name the public call, not the helper both share. */
static void test_hook(void)
{
    hook_log log;
    memset(&log, 0, sizeof log);
    dod_set_error_hook(record, &log);
    dod_world *w = make(ARCHS, A_SPARK, NULL);
    dod_entity e;
    CHECK_OK(dod_world_spawn(w, A_WRECK, &e));
    CHECK_STATUS(dod_world_add(w, e, C_TAG), DOD_E_UNDECLARED);
    CHECK(strcmp(log.condition,
                 "dod_world_add: no single declared archetype has e's set plus component") == 0);
    CHECK_STATUS(dod_world_remove(w, e, N_COMPS), DOD_E_RANGE);
    CHECK(strcmp(log.condition, "dod_world_remove: component >= w->head.n_components") == 0);
    CHECK_OK(dod_world_despawn(w, e));
    CHECK_STATUS(dod_world_remove(w, e, C_POS), DOD_E_NOT_FOUND);
    CHECK(strcmp(log.condition, "dod_world_remove: e is not alive in w") == 0);
    CHECK_EQ(log.calls, 3);
    dod_set_error_hook(NULL, NULL);
    dod_world_destroy(w);
}
#endif

/* Every allocation an add makes (a block of the target; its block list is the archetype's
 * own entry) fails in turn. */
static dod_entity walked;

static dod_world *make_walked(const dod_allocator *alloc, void *ctx)
{
    (void)ctx;
    dod_world *w = make(ARCHS, A_SPARK, alloc);
    CHECK_OK(dod_world_spawn(w, A_WRECK, &walked));
    return w;
}

static dod_status add_hit(dod_world *w, void *ctx)
{
    (void)ctx;
    dod_status st = dod_world_add(w, walked, C_HIT); /* proj has no block yet */
    CHECK(st != DOD_OK || dod_world_archetype_of(w, walked) == A_PROJ);
    return st;
}

static void test_alloc_walk(void)
{
    const world_walk o = { make_walked, add_hit, NULL };
    CHECK_EQ(world_alloc_walk(&o), 1);
}

/* The most archetypes and components: archetype i < 64 has components 0 .. i - 1 (archetype
 * 0 is empty), so adding i leads from i to i + 1 and removing i - 1 from i to i - 1; the
 * table is a byte per pair, in the world's own allocation. */
static void test_largest(void)
{
    enum { N = DOD_WORLD_MAX_ARCHETYPES };
    static dod_component_desc comps[N];
    static uint32_t ids[N];
    static dod_archetype_desc archs[N];
    for (uint32_t i = 0; i < N; ++i) {
        comps[i].name = "c";
        comps[i].size = comps[i].align = 1;
        ids[i] = i;
    }
    for (uint32_t i = 0; i < N; ++i) {
        memset(&archs[i], 0, sizeof archs[i]);
        archs[i].name = "a";
        archs[i].components = ids;
        archs[i].n_components = i < DOD_WORLD_MAX_ARCHETYPE_COMPONENTS ? i : 0;
        archs[i].block_bytes = 4096;
    }
    dod_world_desc d = world_desc_of(comps, N, archs, DOD_WORLD_MAX_ARCHETYPE_COMPONENTS, NULL);
    dod_world *w = NULL;
    CHECK_OK(dod_world_create(&w, &d));
    dod_entity e;
    CHECK_OK(dod_world_spawn(w, 0, &e));
    for (uint32_t i = 0; i + 1 < DOD_WORLD_MAX_ARCHETYPE_COMPONENTS; ++i) {
        CHECK_OK(dod_world_add(w, e, i));
        CHECK_EQ(dod_world_archetype_of(w, e), i + 1);
    }
    CHECK_REFUSED(w, dod_world_remove(w, e, 5), DOD_E_UNDECLARED); /* {0..62} less 5 */
    CHECK_OK(dod_world_remove(w, e, 62));
    CHECK_EQ(dod_world_archetype_of(w, e), DOD_WORLD_MAX_ARCHETYPE_COMPONENTS - 2);
    dod_world_destroy(w);
    /* 256 archetypes and 256 components: the table is 64 KiB of the world's bytes */
    d = world_desc_of(comps, N, archs, N, NULL);
    CHECK_OK(dod_world_create(&w, &d));
    CHECK(w->toggle != NULL && dod_world_bytes(w) >= (size_t)N * N);
    CHECK_EQ(w->toggle[(size_t)3 * N + 3], 4);   /* {0,1,2} + 3 */
    CHECK_EQ(w->toggle[(size_t)3 * N + 2], 2);   /* {0,1,2} - 2 */
    CHECK_EQ(w->toggle[(size_t)3 * N + 1], 3);   /* {0,2}: not declared */
    /* archetypes 64 and up are empty like 0: {} is no target, but {0} is one from any of them */
    CHECK_EQ(w->toggle[(size_t)1 * N + 0], 1);
    CHECK_EQ(w->toggle[(size_t)0 * N + 0], 1);
    CHECK_EQ(w->toggle[(size_t)200 * N + 0], 1);
    CHECK_EQ(w->toggle[(size_t)200 * N + 7], 200); /* {7}: not declared */
    dod_world_destroy(w);
}

int main(void)
{
    test_targets();
    test_twins();
#if DOD_DEBUG
    test_hook();
#endif
    test_alloc_walk();
    test_largest();
    return check_summary("world_transitions");
}
