/* Command buffers (dod/world_cmds.h): every refusal at record time with its status and the
 * buffer unchanged; provisional handles (refused by the world, usable in later commands,
 * resolved after an apply); skipped and missing commands; apply's refusals with the world and
 * the buffers unchanged, and the exact peak a fixed archetype or a memory cap admits; the
 * declaration fingerprint; reuse; the typed layer. (test_world_cmds_model.c compares applies
 * with direct calls at random, test_world_cmds_alloc.c walks the allocation failures.) */
#include <dod/arena.h>
#include <dod/world.h>
#include <string.h>
#include "check.h"
#include "world_check.h"
#include "world_game.h"

enum { C_POS, C_HP, C_BIG, N_COMPS };
static const dod_component_desc COMPS[N_COMPS] = { { "pos", 8, 4 }, { "hp", 4, 4 },
                                                   { "big", 48, 16 } };
static const uint32_t PH[] = { C_POS, C_HP };
static const uint32_t P[] = { C_POS };
static const uint32_t BIG[] = { C_BIG };
enum { A_FIXED, A_PH, A_P, A_CAPPED, N_ARCHS };
enum { FIXED_CAP = 4, CAPPED_BLOCKS = 2 };
static const dod_archetype_desc ARCHS[N_ARCHS] = {
    { "fixed", PH, 2, FIXED_CAP, 0, 0, 0 },
    { "ph", PH, 2, 0, 0, 0, 0 },
    { "p", P, 1, 0, 256, 0, 0 },
    { "capped", BIG, 1, 0, 512, CAPPED_BLOCKS * 512, 0 }, /* 8 rows a block: 16 rows in all */
};
enum { CAPPED_ROWS = 16 };

static dod_world *make_world(void)
{
    dod_world_desc d = world_desc_of(COMPS, N_COMPS, ARCHS, N_ARCHS, NULL);
    dod_world *w = NULL;
    CHECK_OK(dod_world_create(&w, &d));
    return w;
}

static dod_entity forge(uint32_t index, uint32_t gen, uint32_t tag)
{
    dod_entity e;
    e.bits = (uint64_t)(tag << 16 | gen) << 32 | index;
    return e;
}

static void test_record_refusals(void)
{
    dod_world *w = make_world();
    dod_entity live, prov, other_prov;
    CHECK_OK(dod_world_spawn(w, A_PH, &live));
    dod_cmds cb, other;
    CHECK_STATUS(dod_cmds_init(NULL, w, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_cmds_init(&cb, NULL, NULL), DOD_E_INVALID);
    CHECK_OK(dod_cmds_init(&cb, w, NULL));
    CHECK_OK(dod_cmds_init(&other, w, NULL));
    CHECK_OK(dod_cmds_spawn(&other, A_P, NULL, &other_prov));
    CHECK_OK(dod_cmds_spawn(&cb, A_P, NULL, &prov));
    uint32_t tag = (uint32_t)(prov.bits >> 48);
    dod_entity null_e = { 0 }, past = forge(1, 0xFFFE, tag), other_tag = forge(0, 0xFFFE, tag ^ 1);
    float pos[2] = { 1, 2 };
    uint32_t hp = 5;
    dod_entity out = forge(9, 9, 9);
    uint64_t s = cmds_snap(&cb);

    unsigned char *payload = NULL;
    CHECK_STATUS(dod_cmds_spawn(NULL, A_P, NULL, &out), DOD_E_INVALID);
    CHECK_STATUS(dod_cmds_spawn(&cb, N_ARCHS, NULL, &out), DOD_E_RANGE);
    CHECK_STATUS(dod__cmds_spawn_row(NULL, A_PH, 12, &out, &payload), DOD_E_INVALID);
    CHECK_STATUS(dod__cmds_spawn_row(&cb, A_PH, 12, &out, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod__cmds_spawn_row(&cb, N_ARCHS, 12, &out, &payload), DOD_E_RANGE);
    CHECK_STATUS(dod__cmds_spawn_row(&cb, A_PH, 8, &out, &payload), DOD_E_INVALID);
    CHECK_STATUS(dod__cmds_spawn_row(&cb, A_PH, 16, &out, &payload), DOD_E_INVALID);
    CHECK(payload == NULL);
    CHECK(out.bits == forge(9, 9, 9).bits);
    CHECK_STATUS(dod_cmds_despawn(NULL, live), DOD_E_INVALID);
    CHECK_STATUS(dod_cmds_despawn(&cb, null_e), DOD_E_NOT_FOUND);
    CHECK_STATUS(dod_cmds_despawn(&cb, other_prov), DOD_E_INVALID);
    CHECK_STATUS(dod_cmds_despawn(&cb, past), DOD_E_INVALID);
    CHECK_STATUS(dod_cmds_despawn(&cb, other_tag), DOD_E_INVALID);
    CHECK_STATUS(dod_cmds_move(NULL, live, A_P), DOD_E_INVALID);
    CHECK_STATUS(dod_cmds_move(&cb, live, N_ARCHS), DOD_E_RANGE);
    CHECK_STATUS(dod_cmds_move(&cb, prov, N_ARCHS), DOD_E_RANGE);
    CHECK_STATUS(dod_cmds_move(&cb, null_e, A_P), DOD_E_NOT_FOUND);
    CHECK_STATUS(dod_cmds_move(&cb, other_prov, A_P), DOD_E_INVALID);
    CHECK_STATUS(dod_cmds_move(&cb, past, A_P), DOD_E_INVALID);
    CHECK_STATUS(dod_cmds_set(NULL, live, C_POS, pos, sizeof pos), DOD_E_INVALID);
    CHECK_STATUS(dod_cmds_set(&cb, live, C_POS, NULL, sizeof pos), DOD_E_INVALID);
    CHECK_STATUS(dod_cmds_set(&cb, live, N_COMPS, pos, sizeof pos), DOD_E_RANGE);
    CHECK_STATUS(dod_cmds_set(&cb, live, C_POS, pos, sizeof pos - 1), DOD_E_INVALID);
    CHECK_STATUS(dod_cmds_set(&cb, live, C_POS, pos, sizeof pos + 4), DOD_E_INVALID);
    CHECK_STATUS(dod_cmds_set(&cb, live, C_POS, pos, 0), DOD_E_INVALID);
    CHECK_STATUS(dod_cmds_set(&cb, live, C_HP, pos, sizeof pos), DOD_E_INVALID);
    CHECK_STATUS(dod_cmds_set(&cb, null_e, C_POS, pos, sizeof pos), DOD_E_NOT_FOUND);
    CHECK_STATUS(dod_cmds_set(&cb, other_prov, C_POS, pos, sizeof pos), DOD_E_INVALID);
    CHECK_STATUS(dod_cmds_set(&cb, past, C_POS, pos, sizeof pos), DOD_E_INVALID);
    /* prov is in A_P, which has no hp: known now */
    CHECK_STATUS(dod_cmds_set(&cb, prov, C_HP, &hp, sizeof hp), DOD_E_INVALID);
    CHECK_STATUS(dod_cmds_reserve(NULL, 1, 0), DOD_E_INVALID);
    CHECK_STATUS(dod_cmds_reserve(&cb, UINT32_MAX, 0), DOD_E_OVERFLOW);
    CHECK_STATUS(dod_cmds_reserve(&cb, 1, SIZE_MAX), DOD_E_OVERFLOW);
    CHECK(cmds_snap(&cb) == s);

    /* the same commands made valid are recorded */
    CHECK_OK(dod_cmds_set(&cb, live, C_POS, pos, sizeof pos));
    CHECK_OK(dod_cmds_set(&cb, live, C_HP, &hp, sizeof hp)); /* a real handle: not checked */
    CHECK_OK(dod_cmds_move(&cb, prov, A_PH));               /* and now prov has hp */
    CHECK_OK(dod_cmds_set(&cb, prov, C_HP, &hp, sizeof hp));
    CHECK_OK(dod_cmds_set(&cb, prov, C_POS, pos, sizeof pos));
    CHECK_OK(dod_cmds_move(&cb, prov, A_CAPPED));
    CHECK_STATUS(dod_cmds_set(&cb, prov, C_POS, pos, sizeof pos), DOD_E_INVALID);
    CHECK_EQ(dod_cmds_count(&cb), 7);
    CHECK_EQ(dod_cmds_count(NULL), 0);
    dod_cmds_free(&cb);
    dod_cmds_free(&other);
    dod_world_destroy(w);
}

static void test_provisional_handles(void)
{
    dod_world *w = make_world();
    dod_entity live;
    CHECK_OK(dod_world_spawn(w, A_PH, &live));
    dod_cmds cb, other;
    CHECK_OK(dod_cmds_init(&cb, w, NULL));
    CHECK_OK(dod_cmds_init(&other, w, NULL));
    dod_entity a, b, c;
    const float pos[2] = { 3, 4 };
    const uint32_t hp = 77;
    const void *values[2] = { pos, NULL };
    CHECK_OK(dod_cmds_spawn(&cb, A_PH, values, &a));
    CHECK_OK(dod_cmds_spawn(&cb, A_PH, NULL, &b));
    CHECK_OK(dod_cmds_spawn(&cb, A_P, NULL, NULL)); /* out may be NULL */
    CHECK_OK(dod_cmds_spawn(&cb, A_P, NULL, &c));
    /* generation 0xFFFE, the buffer's tag, the spawn's ordinal */
    CHECK_EQ((uint32_t)a.bits, 0);
    CHECK_EQ((uint32_t)c.bits, 3);
    CHECK_EQ((uint32_t)(a.bits >> 32) & 0xFFFFu, 0xFFFEu);
    CHECK_EQ(a.bits >> 48, c.bits >> 48);
    /* the world refuses them as forged: in the bound world and in any other */
    uint64_t snap = world_snap(w);
    CHECK(dod_world_get(w, a, C_POS) == NULL);
    CHECK(!dod_world_alive(w, a));
    CHECK_EQ(dod_world_archetype_of(w, a), UINT32_MAX);
    CHECK_STATUS(dod_world_despawn(w, a), DOD_E_NOT_FOUND);
    CHECK_STATUS(dod_world_move(w, a, A_P), DOD_E_NOT_FOUND);
    CHECK(world_snap(w) == snap);
    /* usable by later commands of the same buffer */
    CHECK_OK(dod_cmds_set(&cb, b, C_HP, &hp, sizeof hp));
    CHECK_OK(dod_cmds_move(&cb, b, A_P));
    CHECK_OK(dod_cmds_despawn(&cb, c));
    CHECK_OK(dod_cmds_set(&cb, c, C_POS, pos, sizeof pos)); /* skipped when applied */
    /* resolve before the apply: nothing */
    CHECK(dod_cmds_resolve(&cb, a).bits == 0);
    CHECK(dod_cmds_resolve(&cb, live).bits == live.bits); /* a real handle as it is */
    CHECK(dod_cmds_resolve(NULL, a).bits == 0);
    dod_apply_result r;
    CHECK_OK(dod_world_apply(w, &cb, 1, &r));
    CHECK(r.applied == 7 && r.skipped == 1 && r.missing == 0);
    dod_entity ra = dod_cmds_resolve(&cb, a), rb = dod_cmds_resolve(&cb, b);
    dod_entity rc = dod_cmds_resolve(&cb, c);
    CHECK(dod_world_alive(w, ra) && dod_world_alive(w, rb) && !dod_world_alive(w, rc));
    CHECK(rc.bits != 0); /* despawned, but it was spawned: its handle, now stale */
    /* handles in apply order: slots 1, 2, 3, 4 after `live` in slot 0 */
    CHECK_EQ((uint32_t)ra.bits, 1);
    CHECK_EQ((uint32_t)rb.bits, 2);
    CHECK_EQ((uint32_t)rc.bits, 4);
    CHECK(memcmp(dod_world_get(w, ra, C_POS), pos, sizeof pos) == 0);
    CHECK_EQ(*(const uint32_t *)dod_world_get(w, ra, C_HP), 0);
    CHECK_EQ(dod_world_archetype_of(w, rb), A_P);
    CHECK_EQ(dod_world_count(w, A_PH), 2);
    CHECK_EQ(dod_world_count(w, A_P), 2);
    /* another buffer's provisional handles, and forged ones, do not resolve in cb */
    dod_entity o;
    CHECK_OK(dod_cmds_spawn(&other, A_P, NULL, &o));
    CHECK_EQ((uint32_t)o.bits, 0);
    CHECK(dod_cmds_resolve(&cb, o).bits == 0);
    CHECK(dod_cmds_resolve(&cb, forge(9, 0xFFFE, (uint32_t)(a.bits >> 48))).bits == 0);
    /* applying again replays: new entities; recording again forgets the old handles */
    CHECK_OK(dod_world_apply(w, &cb, 1, NULL));
    CHECK(dod_cmds_resolve(&cb, a).bits != ra.bits && dod_world_alive(w, dod_cmds_resolve(&cb, a)));
    CHECK_EQ(dod_world_count(w, A_PH), 3);
    CHECK_OK(dod_cmds_despawn(&cb, live));
    CHECK(dod_cmds_resolve(&cb, a).bits == 0);
    dod_cmds_clear(&cb);
    CHECK(dod_cmds_resolve(&cb, a).bits == 0);
    CHECK_EQ(dod_cmds_count(&cb), 0);
    /* after clear, ordinals start again at 0 */
    dod_entity again;
    CHECK_OK(dod_cmds_spawn(&cb, A_P, NULL, &again));
    CHECK(again.bits == a.bits);
    dod_cmds_free(&cb);
    dod_cmds_free(&other);
    dod_world_destroy(w);
}

/* Two systems kill the same unit, a set follows a despawn, a set on a component the entity
 * lost in a move: skipped or missing, counted, not errors. */
static void test_skipped_and_missing(void)
{
    dod_world *w = make_world(), *elsewhere = make_world();
    dod_entity unit, other, stale, foreign;
    CHECK_OK(dod_world_spawn(w, A_PH, &unit));
    CHECK_OK(dod_world_spawn(w, A_PH, &other));
    CHECK_OK(dod_world_spawn(w, A_P, &stale));
    CHECK_OK(dod_world_despawn(w, stale));
    CHECK_OK(dod_world_spawn(elsewhere, A_PH, &foreign));
    dod_cmds ai, physics;
    CHECK_OK(dod_cmds_init(&ai, w, NULL));
    CHECK_OK(dod_cmds_init(&physics, w, NULL));
    const float pos[2] = { 1, 1 };
    const uint32_t hp = 9;
    CHECK_OK(dod_cmds_despawn(&ai, unit));
    CHECK_OK(dod_cmds_move(&ai, other, A_P));          /* other loses hp */
    CHECK_OK(dod_cmds_despawn(&physics, unit));        /* killed twice: skipped */
    CHECK_OK(dod_cmds_set(&physics, unit, C_POS, pos, sizeof pos)); /* skipped */
    CHECK_OK(dod_cmds_move(&physics, unit, A_P));      /* skipped */
    CHECK_OK(dod_cmds_set(&physics, other, C_HP, &hp, sizeof hp));  /* missing */
    CHECK_OK(dod_cmds_set(&physics, other, C_POS, pos, sizeof pos)); /* applied */
    CHECK_OK(dod_cmds_despawn(&physics, stale));       /* skipped */
    CHECK_OK(dod_cmds_set(&physics, stale, C_POS, pos, sizeof pos)); /* skipped */
    CHECK_OK(dod_cmds_despawn(&physics, foreign));     /* another world's: skipped */
    CHECK_OK(dod_cmds_move(&physics, other, A_P));     /* stays: applied, a no-op */
    dod_cmds both[2] = { ai, physics };
    dod_apply_result r;
    CHECK_OK(dod_world_apply(w, both, 2, &r));
    CHECK_EQ(r.applied, 4);
    CHECK_EQ(r.skipped, 6);
    CHECK_EQ(r.missing, 1);
    CHECK(!dod_world_alive(w, unit));
    CHECK_EQ(dod_world_archetype_of(w, other), A_P);
    CHECK(memcmp(dod_world_get(w, other, C_POS), pos, sizeof pos) == 0);
    CHECK(dod_world_alive(elsewhere, foreign));
    CHECK_EQ(dod_world_count(w, A_PH), 0);
    dod_world_destroy(w);
    dod_world_destroy(elsewhere);
    dod_cmds_free(&both[0]);
    dod_cmds_free(&both[1]);
}

/* dod_world_apply's refusals leave the world and every buffer as they were. */
static void test_apply_refusals(void)
{
    dod_world *w = make_world();
    dod_entity fixed[FIXED_CAP], capped[CAPPED_ROWS], loose;
    CHECK_OK(dod_world_spawn_n(w, A_FIXED, FIXED_CAP, fixed));
    CHECK_OK(dod_world_spawn_n(w, A_CAPPED, CAPPED_ROWS, capped));
    CHECK_OK(dod_world_spawn(w, A_PH, &loose));
    dod_cmds cb[2];
    CHECK_OK(dod_cmds_init(&cb[0], w, NULL));
    CHECK_OK(dod_cmds_init(&cb[1], w, NULL));
    dod_apply_result r = { 7, 7, 7 };
    CHECK_STATUS(dod_world_apply(NULL, cb, 1, &r), DOD_E_INVALID);
    CHECK_STATUS(dod_world_apply(w, NULL, 1, &r), DOD_E_INVALID);
    CHECK(r.applied == 7 && r.skipped == 7 && r.missing == 7);
    CHECK_OK(dod_world_apply(w, NULL, 0, &r)); /* nothing to apply */
    CHECK(r.applied == 0 && r.skipped == 0 && r.missing == 0);

    struct { uint32_t arch; int spawn; dod_entity e; } full[] = {
        { A_FIXED, 1, { 0 } },  /* a spawn past a fixed capacity */
        { A_CAPPED, 1, { 0 } }, /* a spawn past a memory cap */
        { A_FIXED, 0, loose },  /* a move into a full fixed archetype */
        { A_CAPPED, 0, loose }, /* a move past a memory cap */
    };
    for (size_t i = 0; i < sizeof full / sizeof full[0]; ++i) {
        dod_cmds_clear(&cb[0]);
        dod_cmds_clear(&cb[1]);
        dod_entity p;
        CHECK_OK(dod_cmds_spawn(&cb[0], A_PH, NULL, &p)); /* fits, but not with the rest */
        CHECK_OK(dod_cmds_despawn(&cb[0], fixed[0]));
        CHECK_OK(dod_cmds_despawn(&cb[0], capped[0]));
        CHECK_OK(dod_cmds_spawn(&cb[1], A_FIXED, NULL, NULL)); /* fills the freed row */
        CHECK_OK(dod_cmds_spawn(&cb[1], A_CAPPED, NULL, NULL));
        if (full[i].spawn)
            CHECK_OK(dod_cmds_spawn(&cb[1], full[i].arch, NULL, NULL));
        else
            CHECK_OK(dod_cmds_move(&cb[1], full[i].e, full[i].arch));
        uint64_t snap = world_snap(w);
        uint64_t s0 = cmds_snap(&cb[0]), s1 = cmds_snap(&cb[1]);
        CHECK_STATUS(dod_world_apply(w, cb, 2, &r), DOD_E_FULL);
        CHECK(world_snap(w) == snap);
        CHECK(cmds_snap(&cb[0]) == s0 && cmds_snap(&cb[1]) == s1);
        CHECK(dod_cmds_resolve(&cb[0], p).bits == 0);
        CHECK(r.applied == 0 && r.skipped == 0 && r.missing == 0);
    }

    /* A buffer bound to another declaration, even with the same counts. */
    dod_archetype_desc other_archs[N_ARCHS];
    memcpy(other_archs, ARCHS, sizeof other_archs);
    other_archs[A_FIXED].capacity = FIXED_CAP + 1;
    dod_world_desc d = world_desc_of(COMPS, N_COMPS, other_archs, N_ARCHS, NULL);
    dod_world *other;
    CHECK_OK(dod_world_create(&other, &d));
    dod_cmds foreign;
    CHECK_OK(dod_cmds_init(&foreign, other, NULL));
    CHECK_OK(dod_cmds_spawn(&foreign, A_PH, NULL, NULL));
    uint64_t snap = world_snap(w);
    CHECK_STATUS(dod_world_apply(w, &foreign, 1, NULL), DOD_E_INVALID);
    dod_cmds mixed[2] = { cb[0], foreign };
    CHECK_STATUS(dod_world_apply(w, mixed, 2, NULL), DOD_E_INVALID);
    CHECK(world_snap(w) == snap);
    dod_cmds_free(&foreign);
    dod_world_destroy(other);
    dod_cmds_free(&cb[0]);
    dod_cmds_free(&cb[1]);
    dod_world_destroy(w);
}

/* A fixed archetype at capacity and a chunked one at its memory cap accept "despawn k, then
 * spawn k" in one apply (the peak, not the sum), and refuse it the other way round; a despawn
 * that will be skipped frees no room. */
static void test_exact_peak(void)
{
    for (int order = 0; order < 3; ++order) {
        dod_world *w = make_world();
        dod_entity fixed[FIXED_CAP], capped[CAPPED_ROWS], stale;
        CHECK_OK(dod_world_spawn_n(w, A_FIXED, FIXED_CAP, fixed));
        CHECK_OK(dod_world_spawn_n(w, A_CAPPED, CAPPED_ROWS, capped));
        CHECK_OK(dod_world_spawn(w, A_P, &stale));
        CHECK_OK(dod_world_despawn(w, stale));
        dod_cmds kill, make;
        CHECK_OK(dod_cmds_init(&kill, w, NULL));
        CHECK_OK(dod_cmds_init(&make, w, NULL));
        for (uint32_t i = 0; i < 3; ++i) {
            CHECK_OK(dod_cmds_despawn(&kill, fixed[i]));
            CHECK_OK(dod_cmds_despawn(&kill, capped[i * 5]));
            CHECK_OK(dod_cmds_spawn(&make, A_FIXED, NULL, NULL));
            CHECK_OK(dod_cmds_spawn(&make, A_CAPPED, NULL, NULL));
        }
        if (order == 2) /* skipped: frees nothing, so one spawn too many */
            CHECK_OK(dod_cmds_despawn(&kill, stale));
        if (order == 2)
            CHECK_OK(dod_cmds_spawn(&make, A_FIXED, NULL, NULL));
        dod_cmds both[2] = { order == 1 ? make : kill, order == 1 ? kill : make };
        uint64_t snap = world_snap(w);
        dod_apply_result r;
        dod_status st = dod_world_apply(w, both, 2, &r);
        if (order == 0) {
            CHECK_OK(st);
            CHECK(r.applied == 12 && r.skipped == 0);
            CHECK_EQ(dod_world_count(w, A_FIXED), FIXED_CAP);
            CHECK_EQ(dod_world_count(w, A_CAPPED), CAPPED_ROWS);
            for (uint32_t i = 0; i < 3; ++i) /* the freed slots were taken again */
                CHECK(!dod_world_alive(w, fixed[i]));
        } else {
            CHECK_STATUS(st, DOD_E_FULL);
            CHECK(world_snap(w) == snap);
        }
        dod_cmds_free(&both[0]);
        dod_cmds_free(&both[1]);
        dod_world_destroy(w);
    }
}

static void test_declaration(void)
{
    dod_world_desc d = world_desc_of(COMPS, N_COMPS, ARCHS, N_ARCHS, NULL);
    uint64_t base = dod__world_declaration_of(&d);
    dod_world *w = make_world();
    CHECK(dod__world_declaration(w) == base);
    dod_world_destroy(w);
    dod_archetype_desc archs[N_ARCHS];
    dod_component_desc comps[N_COMPS];
    d.archetypes = archs;
    d.components = comps;
    /* equal: defaults spelt out, a fixed archetype's ignored fields, a name spelt again;
     * any other cap differs, and a component renamed */
    for (int change = 0; change < 14; ++change) {
        memcpy(archs, ARCHS, sizeof archs);
        memcpy(comps, COMPS, sizeof comps);
        char name_again[16];
        int same = change < 4;
        switch (change) {
        case 0: archs[A_PH].block_bytes = DOD_WORLD_BLOCK_BYTES; break;
        case 1: archs[A_PH].first_block_bytes = DOD_WORLD_FIRST_BLOCK_BYTES; break;
        case 2: archs[A_FIXED].block_bytes = 999, archs[A_FIXED].memory_cap = 5; break;
        case 3:
            snprintf(name_again, sizeof name_again, "%s", COMPS[C_HP].name);
            comps[C_HP].name = name_again;
            break;
        case 4: comps[C_HP].size = 8; break;
        case 5: comps[C_POS].align = 8; break;
        case 6: archs[A_FIXED].capacity++; break;
        case 7: archs[A_CAPPED].memory_cap += 1; break;
        case 8: archs[A_P].block_bytes = 512; break;
        case 9: archs[A_PH].components = P, archs[A_PH].n_components = 1; break;
        case 10: archs[A_PH].memory_cap = 1u << 20; break;
        case 11: comps[C_HP].name = "health"; break;
        case 12: comps[C_HP].name = NULL; break;
        default: d.n_archetypes = N_ARCHS - 1; break;
        }
        CHECK_EQ(dod__world_declaration_of(&d) == base, same);
        d.n_archetypes = N_ARCHS;
    }
}

/* A cleared buffer records the same commands again without allocating; a buffer in a frame
 * arena works; many empty buffers apply at no cost. */
static void test_reuse(void)
{
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator a = test_alloc_get(&ta);
    dod_world *w = make_world();
    dod_cmds cb;
    CHECK_OK(dod_cmds_init(&cb, w, &a));
    CHECK_EQ(ta.calls, 0); /* init allocates nothing */
    const uint32_t hp = 3;
    for (int round = 0; round < 3; ++round) {
        long calls = ta.calls;
        dod_entity e;
        for (uint32_t i = 0; i < 500; ++i) {
            CHECK_OK(dod_cmds_spawn(&cb, A_PH, NULL, &e));
            CHECK_OK(dod_cmds_set(&cb, e, C_HP, &hp, sizeof hp));
            CHECK_OK(dod_cmds_despawn(&cb, e));
        }
        CHECK(round == 0 ? ta.calls > calls : ta.calls == calls);
        CHECK_OK(dod_world_apply(w, &cb, 1, NULL));
        dod_cmds_clear(&cb);
    }
    CHECK_EQ(dod_world_count(w, A_PH), 0);
    /* reserve: then recording allocates nothing */
    dod_cmds_free(&cb);
    CHECK_EQ(ta.live, 0);
    CHECK_OK(dod_cmds_reserve(&cb, 100, 100 * 48));
    long calls = ta.calls;
    const unsigned char big[48] = { 1 };
    dod_entity e = { 0 };
    for (uint32_t i = 0; i < 100; ++i)
        CHECK_OK(i % 2 ? dod_cmds_set(&cb, e, C_BIG, big, sizeof big)
                       : dod_cmds_spawn(&cb, A_CAPPED, NULL, &e));
    CHECK_EQ(ta.calls, calls);
    dod_cmds_free(&cb);
    dod_cmds_free(NULL);
    dod_cmds_clear(NULL);
    test_alloc_finish(&ta);

    dod_arena arena;
    dod_arena_init(&arena, 0, NULL);
    dod_allocator in_arena = dod_arena_allocator(&arena);
    dod_cmds frame[64];
    for (uint32_t i = 0; i < 64; ++i)
        CHECK_OK(dod_cmds_init(&frame[i], w, &in_arena));
    for (uint32_t i = 0; i < 64; i += 3)
        CHECK_OK(dod_cmds_spawn(&frame[i], A_P, NULL, NULL));
    dod_apply_result r;
    CHECK_OK(dod_world_apply(w, frame, 64, &r));
    CHECK_EQ(r.applied, 22);
    CHECK_EQ(dod_world_count(w, A_P), 22);
    dod_arena_free(&arena);
    dod_world_destroy(w);
}

/* The typed layer: P_<archetype>_cmd_spawn with a row or zeroed, P_cmd_set_<component>. */
static void test_typed(void)
{
    dod_world *w;
    CHECK_OK(game_create(&w, NULL));
    dod_cmds cb;
    CHECK_OK(dod_cmds_init(&cb, w, NULL));
    game_entity_b_row row = { { 1, 2 }, { 3, 4 }, { 5, 6, 7, 8 } };
    dod_entity b, c;
    CHECK_OK(game_entity_b_cmd_spawn(&cb, &row, &b));
    CHECK_OK(game_entity_c_cmd_spawn(&cb, NULL, &c));
    hitbox box = { 9, 9, 9, 9 };
    velocity v = { 10, 11 };
    CHECK_OK(game_cmd_set_hitbox(&cb, c, &box));
    CHECK_STATUS(game_cmd_set_velocity(&cb, c, &v), DOD_E_INVALID); /* entity_c has none */
    CHECK_OK(game_cmd_set_velocity(&cb, b, &v));
    CHECK_OK(dod_world_apply(w, &cb, 1, NULL));
    dod_entity rb = dod_cmds_resolve(&cb, b), rc = dod_cmds_resolve(&cb, c);
    CHECK(game_get_position(w, rb)->y == 2 && game_get_hitbox(w, rb)->h == 8);
    CHECK(game_get_velocity(w, rb)->x == 10 && game_get_velocity(w, rb)->y == 11);
    CHECK(game_get_position(w, rc)->x == 0 && game_get_hitbox(w, rc)->w == 9);
    dod_cmds_free(&cb);
    dod_world_destroy(w);
}

int main(void)
{
    test_record_refusals();
    test_provisional_handles();
    test_skipped_and_missing();
    test_apply_refusals();
    test_exact_peak();
    test_declaration();
    test_reuse();
    test_typed();
    return check_summary("world_cmds");
}
