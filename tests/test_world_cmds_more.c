/* The command buffer a game needs (issue 26, item 2): adds and removes of one component or of
 * several (direct and by command, with the lookup of a set's archetype), accumulates, handles
 * written into components with provisional ones rewritten, commands on provisional handles the
 * buffer despawned, apply by pointer, dod_cmds_destroy and the sticky status; every refusal
 * with its status and the buffer or the world unchanged, and the allocation failures of the
 * new record calls, of an apply of them and of the direct adds. (test_world_cmds_model.c
 * compares the new commands with direct calls at random.) */
#include <dod/world.h>
#include <string.h>
#include "check.h"
#include "world_check.h"

typedef struct pos { float x, y; } pos;
typedef struct health {
    float hp;
    int32_t armor;
    uint32_t flags;
    float best;
    double total;
    uint64_t count;
} health;
typedef struct squad { dod_entity leader; uint32_t rank; } squad;
typedef struct corpse { uint32_t since; } corpse;

#define WAR_COMPONENTS(C) C(pos) C(health) C(squad) C(corpse)
#define SOLDIER(X) X(pos) X(health) X(squad)
#define LEADER(X) X(pos) X(health)
#define GHOST(X) X(pos)
#define BODY(X) X(pos) X(corpse)
#define LINKED(X) X(squad)
#define NOTHING(X)
/* soldier fixed (4 rows); linked and linked2 share a set: no add or remove leads there */
#define WAR_ARCHETYPES(A)                                                                      \
    A(soldier, SOLDIER, 4) A(leader, LEADER, 0) A(ghost, GHOST, 0) A(body, BODY, 0)            \
    A(linked, LINKED, 0) A(linked2, LINKED, 0) A(marker, NOTHING, 0)
DOD_WORLD(war, WAR_COMPONENTS, WAR_ARCHETYPES)

enum {
    C_POS = DOD_CID(war, pos),
    C_HEALTH = DOD_CID(war, health),
    C_SQUAD = DOD_CID(war, squad),
    C_CORPSE = DOD_CID(war, corpse),
    A_SOLDIER = DOD_AID(war, soldier),
    A_LEADER = DOD_AID(war, leader),
    A_GHOST = DOD_AID(war, ghost),
    A_BODY = DOD_AID(war, body),
    A_MARKER = DOD_AID(war, marker)
};

static dod_world *make_world(const dod_allocator *alloc)
{
    dod_world *w = NULL;
    CHECK_OK(war_create(&w, alloc));
    return w;
}

static dod_entity spawn(dod_world *w, uint32_t archetype)
{
    dod_entity e = { 0 };
    CHECK_OK(dod_world_spawn(w, archetype, &e));
    return e;
}

static dod_status apply1(dod_world *w, dod_cmds *cb, dod_apply_result *r)
{
    return dod_world_apply(w, cb, 1, r);
}

static int result_is(dod_apply_result r, uint32_t applied, uint32_t skipped, uint32_t missing)
{
    return r.applied == applied && r.skipped == skipped && r.missing == missing;
}

/* Forget only the sticky status (a test's shortcut: clear would forget the commands too). */
static void forget_status(dod_cmds *cb)
{
    cb->status = DOD_OK;
}

/* A refused record: the status, the buffer unchanged, the status remembered. */
#define CHECK_REFUSED(cb, call, want)                                                          \
    do {                                                                                       \
        uint64_t snap_ = cmds_snap(cb);                                                        \
        forget_status(cb);                                                                     \
        CHECK_STATUS(call, want);                                                              \
        CHECK(cmds_snap(cb) == snap_);                                                         \
        CHECK_EQ(dod_cmds_status(cb), want);                                                   \
    } while (0)

static void test_add_remove(void)
{
    dod_world *w = make_world(NULL), *foreign = make_world(NULL);
    dod_entity leader = spawn(w, A_LEADER), ghost = spawn(w, A_GHOST), soldier;
    dod_entity lone = spawn(w, A_GHOST), stale = spawn(w, A_GHOST), keep = spawn(w, A_LEADER);
    CHECK_OK(dod_world_despawn(w, stale));
    war_get_health(w, leader)->hp = 10;
    war_get_health(w, keep)->hp = 3;
    CHECK_OK(war_soldier_spawn(w, NULL, &soldier));
    war_get_squad(w, soldier)->rank = 7;
    dod_cmds cb;
    CHECK_OK(dod_cmds_init(&cb, w, NULL));
    squad sq = { { 0 }, 2 };
    health h = { 50, 1, 0, 0, 0, 0 };
    CHECK_OK(dod_cmds_add(&cb, leader, C_SQUAD, &sq, sizeof sq)); /* leader -> soldier */
    CHECK_OK(dod_cmds_add(&cb, ghost, C_CORPSE, NULL, sizeof(corpse))); /* ghost -> body */
    CHECK_OK(war_cmd_remove_squad(&cb, soldier));                   /* soldier -> leader */
    CHECK_OK(war_cmd_add_health(&cb, keep, &h));  /* has it: stays, the value written */
    CHECK_OK(war_cmd_add_health(&cb, soldier, NULL)); /* has it: kept as it is */
    CHECK_OK(dod_cmds_add(&cb, lone, C_SQUAD, NULL, sizeof sq)); /* {pos, squad}: missing */
    CHECK_OK(dod_cmds_remove(&cb, lone, C_CORPSE)); /* lacks it: a no-op */
    CHECK_OK(dod_cmds_remove(&cb, stale, C_POS));   /* skipped */
    CHECK_OK(dod_cmds_add(&cb, spawn(foreign, A_GHOST), C_CORPSE, NULL, sizeof(corpse)));
    dod_apply_result r;
    CHECK_OK(apply1(w, &cb, &r));
    CHECK(result_is(r, 6, 2, 1));
    CHECK_EQ(dod_world_archetype_of(w, leader), A_SOLDIER);
    CHECK(war_get_health(w, leader)->hp == 10 && war_get_squad(w, leader)->rank == 2);
    CHECK_EQ(dod_world_archetype_of(w, ghost), A_BODY);
    CHECK_EQ(war_get_corpse(w, ghost)->since, 0u);
    CHECK_EQ(dod_world_archetype_of(w, soldier), A_LEADER);
    CHECK(war_get_health(w, keep)->hp == 50 && war_get_health(w, soldier)->hp == 0);
    CHECK_EQ(dod_world_archetype_of(w, lone), A_GHOST);

    /* on a live provisional handle the resulting set is known at record time */
    dod_cmds_clear(&cb);
    dod_entity p, other_prov;
    CHECK_OK(war_ghost_cmd_spawn(&cb, NULL, &p));
    CHECK_REFUSED(&cb, dod_cmds_add(&cb, p, C_SQUAD, NULL, sizeof sq), DOD_E_UNDECLARED);
    CHECK_OK(war_cmd_add_health(&cb, p, &h));          /* now a leader */
    CHECK_OK(war_cmd_set_health(&cb, p, &h));
    CHECK_REFUSED(&cb, war_cmd_set_corpse(&cb, p, NULL), DOD_E_INVALID);
    corpse dead = { 9 };
    CHECK_REFUSED(&cb, war_cmd_set_corpse(&cb, p, &dead), DOD_E_INVALID); /* leader lacks it */
    CHECK_OK(war_cmd_add_squad(&cb, p, &sq));          /* a soldier */
    CHECK_REFUSED(&cb, dod_cmds_remove(&cb, p, C_HEALTH), DOD_E_UNDECLARED); /* {pos, squad} */
    /* the refusals: the buffer unchanged each time */
    dod_entity null_e = { 0 };
    dod_cmds other;
    CHECK_OK(dod_cmds_init(&other, w, NULL));
    CHECK_OK(dod_cmds_spawn(&other, A_GHOST, NULL, &other_prov));
    CHECK_STATUS(dod_cmds_add(NULL, leader, C_SQUAD, NULL, sizeof sq), DOD_E_INVALID);
    CHECK_STATUS(dod_cmds_remove(NULL, leader, C_SQUAD), DOD_E_INVALID);
    CHECK_REFUSED(&cb, dod_cmds_add(&cb, leader, 4, NULL, 4), DOD_E_RANGE);
    CHECK_REFUSED(&cb, dod_cmds_remove(&cb, leader, 4), DOD_E_RANGE);
    CHECK_REFUSED(&cb, dod_cmds_add(&cb, leader, C_SQUAD, &sq, 4), DOD_E_INVALID);
    CHECK_REFUSED(&cb, dod_cmds_add(&cb, null_e, C_SQUAD, NULL, sizeof sq), DOD_E_NOT_FOUND);
    CHECK_REFUSED(&cb, dod_cmds_remove(&cb, null_e, C_SQUAD), DOD_E_NOT_FOUND);
    CHECK_REFUSED(&cb, dod_cmds_add(&cb, other_prov, C_SQUAD, NULL, sizeof sq), DOD_E_INVALID);
    CHECK_REFUSED(&cb, dod_cmds_remove(&cb, other_prov, C_POS), DOD_E_INVALID);
    CHECK_OK(apply1(w, &cb, &r));
    CHECK(result_is(r, 4, 0, 0));
    dod_entity real = dod_cmds_resolve(&cb, p);
    CHECK_EQ(dod_world_archetype_of(w, real), A_SOLDIER);
    CHECK(war_get_health(w, real)->hp == 50 && war_get_squad(w, real)->rank == 2);
    dod_cmds_destroy(&other);
    dod_cmds_destroy(&cb);
    dod_world_destroy(foreign);
    dod_world_destroy(w);
}

/* The plan counts the rows adds and removes bring: a fixed archetype at capacity refuses an
 * add into it (DOD_E_FULL, nothing changed), and admits "remove one, then add one". */
static void test_plan(void)
{
    dod_world *w = make_world(NULL);
    dod_entity soldiers[4], leader = spawn(w, A_LEADER), ghost = spawn(w, A_GHOST);
    CHECK_OK(war_soldier_spawn_n(w, 4, soldiers));
    dod_cmds cb;
    CHECK_OK(dod_cmds_init(&cb, w, NULL));
    const uint32_t squad_health[] = { C_SQUAD, C_HEALTH };
    CHECK_OK(war_cmd_add_squad(&cb, leader, NULL));
    uint64_t before = world_snap(w), snap = cmds_snap(&cb);
    dod_apply_result r = { 7, 7, 7 };
    CHECK_STATUS(apply1(w, &cb, &r), DOD_E_FULL);
    CHECK(world_snap(w) == before && cmds_snap(&cb) == snap && result_is(r, 7, 7, 7));
    dod_cmds_clear(&cb);
    CHECK_OK(dod_cmds_add_n(&cb, ghost, squad_health, 2));
    CHECK_STATUS(apply1(w, &cb, &r), DOD_E_FULL);
    CHECK(world_snap(w) == before);
    /* one leaves first: the exact peak admits it */
    dod_cmds_clear(&cb);
    CHECK_OK(war_cmd_remove_squad(&cb, soldiers[1]));
    CHECK_OK(war_cmd_add_squad(&cb, leader, NULL));
    CHECK_OK(dod_cmds_add(&cb, soldiers[2], C_CORPSE, NULL, sizeof(corpse))); /* missing */
    CHECK_OK(apply1(w, &cb, &r));
    CHECK(result_is(r, 2, 0, 1));
    CHECK_EQ(war_soldier_count(w), 4u);
    CHECK_EQ(dod_world_archetype_of(w, soldiers[1]), A_LEADER);
    /* "add one, then remove one" peaks at 5 */
    dod_cmds_clear(&cb);
    CHECK_OK(war_cmd_add_squad(&cb, soldiers[1], NULL));
    CHECK_OK(dod_cmds_remove_n(&cb, soldiers[3], squad_health, 2));
    before = world_snap(w);
    CHECK_STATUS(apply1(w, &cb, &r), DOD_E_FULL);
    CHECK(world_snap(w) == before);
    dod_cmds_destroy(&cb);
    dod_world_destroy(w);
}

static void test_accumulate(void)
{
    dod_world *w = make_world(NULL);
    dod_entity a = spawn(w, A_LEADER), ghost = spawn(w, A_GHOST), gone = spawn(w, A_LEADER);
    CHECK_OK(dod_world_despawn(w, gone));
    health *h = war_get_health(w, a);
    h->hp = 100;
    h->armor = 5;
    h->flags = 1;
    h->best = 2;
    dod_cmds cb[2];
    CHECK_OK(dod_cmds_init(&cb[0], w, NULL));
    CHECK_OK(dod_cmds_init(&cb[1], w, NULL));
    /* two projectiles from two systems hit one soldier: both count */
    float minus5 = -5, minus7 = -7, three = 3, one_f = 1;
    int32_t two = 2, minus9 = -9;
    uint32_t four = 4, bit = 8;
    double half = 0.5;
    uint64_t big = (uint64_t)1 << 40, one = 1;
    CHECK_OK(DOD_CMDS_ACCUMULATE(&cb[0], a, war, health, hp, DOD_ACC_F32_ADD, &minus5));
    CHECK_OK(DOD_CMDS_ACCUMULATE(&cb[1], a, war, health, hp, DOD_ACC_F32_ADD, &minus7));
    CHECK_OK(DOD_CMDS_ACCUMULATE(&cb[0], a, war, health, armor, DOD_ACC_I32_ADD, &minus9));
    CHECK_OK(DOD_CMDS_ACCUMULATE(&cb[0], a, war, health, armor, DOD_ACC_I32_MAX, &two));
    CHECK_OK(DOD_CMDS_ACCUMULATE(&cb[1], a, war, health, armor, DOD_ACC_I32_MIN, &minus9));
    CHECK_OK(DOD_CMDS_ACCUMULATE(&cb[0], a, war, health, flags, DOD_ACC_U32_OR, &bit));
    CHECK_OK(DOD_CMDS_ACCUMULATE(&cb[1], a, war, health, flags, DOD_ACC_U32_ADD, &four));
    CHECK_OK(DOD_CMDS_ACCUMULATE(&cb[0], a, war, health, best, DOD_ACC_F32_MAX, &three));
    CHECK_OK(DOD_CMDS_ACCUMULATE(&cb[1], a, war, health, best, DOD_ACC_F32_MIN, &one_f));
    CHECK_OK(DOD_CMDS_ACCUMULATE(&cb[0], a, war, health, total, DOD_ACC_F64_ADD, &half));
    CHECK_OK(DOD_CMDS_ACCUMULATE(&cb[1], a, war, health, count, DOD_ACC_U64_ADD, &big));
    CHECK_OK(DOD_CMDS_ACCUMULATE(&cb[1], a, war, health, count, DOD_ACC_I64_ADD, &one));
    CHECK_OK(DOD_CMDS_ACCUMULATE(&cb[0], ghost, war, health, hp, DOD_ACC_F32_ADD, &minus5));
    CHECK_OK(DOD_CMDS_ACCUMULATE(&cb[0], gone, war, health, hp, DOD_ACC_F32_ADD, &minus5));
    dod_apply_result r;
    CHECK_OK(dod_world_apply(w, cb, 2, &r));
    CHECK(result_is(r, 12, 1, 1));
    h = war_get_health(w, a);
    CHECK(h->hp == 88 && h->armor == -9 && h->flags == 13 && h->best == 1);
    CHECK(h->total == 0.5 && h->count == big + 1);

    /* the refusals */
    dod_entity null_e = { 0 }, p;
    CHECK_OK(war_ghost_cmd_spawn(&cb[0], NULL, &p));
    CHECK_STATUS(dod_cmds_accumulate(NULL, a, C_HEALTH, 0, DOD_ACC_F32_ADD, &minus5, 4),
                 DOD_E_INVALID);
    CHECK_REFUSED(&cb[0], dod_cmds_accumulate(&cb[0], a, C_HEALTH, 0, DOD_ACC_F32_ADD, NULL, 4),
                  DOD_E_INVALID);
    CHECK_REFUSED(&cb[0], dod_cmds_accumulate(&cb[0], a, 4, 0, DOD_ACC_F32_ADD, &minus5, 4),
                  DOD_E_RANGE);
    CHECK_REFUSED(&cb[0], dod_cmds_accumulate(&cb[0], a, C_HEALTH, 0, DOD_ACC_COUNT, &big, 8),
                  DOD_E_INVALID);
    CHECK_REFUSED(&cb[0], dod_cmds_accumulate(&cb[0], a, C_HEALTH, 0, DOD_ACC_F64_ADD, &half, 4),
                  DOD_E_INVALID);
    CHECK_REFUSED(&cb[0],
                  dod_cmds_accumulate(&cb[0], a, C_HEALTH, sizeof(health) - 4, DOD_ACC_U64_ADD,
                                      &big, 8),
                  DOD_E_RANGE);
    CHECK_REFUSED(&cb[0], dod_cmds_accumulate(&cb[0], a, C_CORPSE, 4, DOD_ACC_U32_ADD, &four, 4),
                  DOD_E_RANGE);
    CHECK_REFUSED(&cb[0], dod_cmds_accumulate(&cb[0], p, C_HEALTH, 0, DOD_ACC_F32_ADD, &minus5, 4),
                  DOD_E_INVALID); /* a ghost has no health: known now */
    CHECK_REFUSED(&cb[0],
                  dod_cmds_accumulate(&cb[0], null_e, C_HEALTH, 0, DOD_ACC_F32_ADD, &minus5, 4),
                  DOD_E_NOT_FOUND);
    CHECK_OK(dod_cmds_accumulate(&cb[0], a, C_CORPSE, 0, DOD_ACC_U32_ADD, &four, 4));
    dod_cmds_destroy(&cb[0]);
    dod_cmds_destroy(&cb[1]);
    dod_world_destroy(w);
}

/* Float sums depend on their order; the apply's order is the buffers' and the records': the
 * same hits recorded by 1 or by 3 "threads" (buffers, applied in task order) give the same
 * bytes. */
static void test_accumulate_deterministic(void)
{
    const float hits[6] = { 1e8f, 1.0f, -1e8f, 0.25f, 3.0f, -0.5f };
    dod_world *w1 = make_world(NULL), *w3 = make_world(NULL);
    dod_entity e1 = spawn(w1, A_LEADER), e3 = spawn(w3, A_LEADER);
    dod_cmds one, three[3];
    CHECK_OK(dod_cmds_init(&one, w1, NULL));
    for (uint32_t t = 0; t < 3; ++t)
        CHECK_OK(dod_cmds_init(&three[t], w3, NULL));
    for (uint32_t i = 0; i < 6; ++i) {
        CHECK_OK(DOD_CMDS_ACCUMULATE(&one, e1, war, health, hp, DOD_ACC_F32_ADD, &hits[i]));
        CHECK_OK(DOD_CMDS_ACCUMULATE(&three[i / 2], e3, war, health, hp, DOD_ACC_F32_ADD,
                                     &hits[i]));
    }
    CHECK_OK(apply1(w1, &one, NULL));
    CHECK_OK(dod_world_apply(w3, three, 3, NULL));
    CHECK(memcmp(war_get_health(w1, e1), war_get_health(w3, e3), sizeof(health)) == 0);
    float want = 0;
    for (uint32_t i = 0; i < 6; ++i)
        want = want + hits[i];
    CHECK(memcmp(&war_get_health(w1, e1)->hp, &want, sizeof want) == 0);
    dod_cmds_destroy(&one);
    for (uint32_t t = 0; t < 3; ++t)
        dod_cmds_destroy(&three[t]);
    dod_world_destroy(w1);
    dod_world_destroy(w3);
}

/* Changed (issue 26): commands on a provisional handle the buffer despawned are recorded, then
 * skipped at apply, as on a real handle; a live one is still checked. */
static void test_despawned_provisional(void)
{
    dod_world *w = make_world(NULL);
    dod_cmds cb;
    CHECK_OK(dod_cmds_init(&cb, w, NULL));
    dod_entity p, live, target = spawn(w, A_LEADER);
    corpse dead = { 3 };
    float minus5 = -5;
    CHECK_OK(war_ghost_cmd_spawn(&cb, NULL, &p));
    CHECK_OK(war_ghost_cmd_spawn(&cb, NULL, &live));
    CHECK_OK(dod_cmds_despawn(&cb, p));
    CHECK_OK(war_cmd_set_corpse(&cb, p, &dead)); /* refused before */
    CHECK_OK(dod_cmds_move(&cb, p, A_LEADER));
    CHECK_OK(war_cmd_set_corpse(&cb, p, &dead)); /* still despawned after the move */
    CHECK_OK(war_cmd_add_squad(&cb, p, NULL));
    CHECK_OK(dod_cmds_remove(&cb, p, C_POS));
    CHECK_OK(DOD_CMDS_ACCUMULATE(&cb, p, war, health, hp, DOD_ACC_F32_ADD, &minus5));
    CHECK_OK(DOD_CMDS_SET_ENTITY(&cb, p, war, squad, leader, target));
    CHECK_OK(dod_cmds_despawn(&cb, p));
    CHECK_REFUSED(&cb, war_cmd_set_corpse(&cb, live, &dead), DOD_E_INVALID);
    dod_apply_result r;
    CHECK_OK(apply1(w, &cb, &r));
    CHECK(result_is(r, 3, 8, 0));
    CHECK_EQ(dod_world_count(w, A_GHOST), 1u);
    CHECK_EQ(dod_world_count(w, A_LEADER), 1u);
    dod_cmds_destroy(&cb);
    dod_world_destroy(w);
}

/* A squad spawned this frame names its leader spawned this frame. */
static void test_set_entity(void)
{
    dod_world *w = make_world(NULL);
    dod_entity old_leader = spawn(w, A_LEADER), null_e = { 0 };
    dod_entity veteran = spawn(w, DOD_AID(war, linked));
    war_get_squad(w, veteran)->leader = old_leader;
    dod_cmds cb, other;
    CHECK_OK(dod_cmds_init(&cb, w, NULL));
    CHECK_OK(dod_cmds_init(&other, w, NULL));
    dod_entity leader, member[2], fallen, other_prov;
    CHECK_OK(dod_cmds_spawn(&other, A_LEADER, NULL, &other_prov));
    CHECK_OK(war_leader_cmd_spawn(&cb, NULL, &leader));
    CHECK_OK(war_leader_cmd_spawn(&cb, NULL, &fallen));
    for (uint32_t i = 0; i < 2; ++i) {
        squad sq = { { 0 }, i };
        CHECK_OK(war_ghost_cmd_spawn(&cb, NULL, &member[i]));
        CHECK_OK(war_cmd_add_health(&cb, member[i], NULL));
        CHECK_OK(war_cmd_add_squad(&cb, member[i], &sq));
    }
    CHECK_OK(DOD_CMDS_SET_ENTITY(&cb, member[0], war, squad, leader, leader));
    CHECK_OK(dod_cmds_set_entity(&cb, member[1], C_SQUAD, offsetof(squad, leader), fallen));
    CHECK_OK(dod_cmds_despawn(&cb, fallen));
    CHECK_OK(DOD_CMDS_SET_ENTITY(&cb, veteran, war, squad, leader, null_e)); /* unlinked */
    /* the refusals */
    CHECK_STATUS(dod_cmds_set_entity(NULL, veteran, C_SQUAD, 0, leader), DOD_E_INVALID);
    CHECK_REFUSED(&cb, dod_cmds_set_entity(&cb, veteran, 4, 0, leader), DOD_E_RANGE);
    CHECK_REFUSED(&cb, dod_cmds_set_entity(&cb, veteran, C_SQUAD, sizeof(squad) - 4, leader),
                  DOD_E_RANGE);
    CHECK_REFUSED(&cb, dod_cmds_set_entity(&cb, veteran, C_CORPSE, 0, leader), DOD_E_RANGE);
    CHECK_REFUSED(&cb, dod_cmds_set_entity(&cb, veteran, C_SQUAD, 0, other_prov),
                  DOD_E_INVALID);
    CHECK_REFUSED(&cb, dod_cmds_set_entity(&cb, null_e, C_SQUAD, 0, leader), DOD_E_NOT_FOUND);
    CHECK_REFUSED(&cb, dod_cmds_set_entity(&cb, leader, C_SQUAD, 0, veteran), DOD_E_INVALID);
    for (uint32_t round = 0; round < 2; ++round) { /* applying again replays: new entities */
        dod_apply_result r;
        CHECK_OK(apply1(w, &cb, &r));
        CHECK(result_is(r, 12, 0, 0));
        dod_entity real = dod_cmds_resolve(&cb, leader), m0 = dod_cmds_resolve(&cb, member[0]);
        dod_entity m1 = dod_cmds_resolve(&cb, member[1]);
        CHECK(dod_world_alive(w, real) && dod_world_archetype_of(w, m0) == A_SOLDIER);
        CHECK_EQ(war_get_squad(w, m0)->leader.bits, real.bits);
        CHECK_EQ(war_get_squad(w, m1)->leader.bits, dod_cmds_resolve(&cb, fallen).bits);
        CHECK(!dod_world_alive(w, war_get_squad(w, m1)->leader)); /* its real, dead handle */
        CHECK_EQ(war_get_squad(w, m1)->rank, 1u);
        CHECK_EQ(war_get_squad(w, veteran)->leader.bits, 0u);
    }
    CHECK_EQ(war_soldier_count(w), 4u);
    dod_cmds_destroy(&other);
    dod_cmds_destroy(&cb);
    dod_world_destroy(w);
}

static void test_archetype_for(void)
{
    dod_world *w = make_world(NULL);
    const uint32_t soldier[] = { C_SQUAD, C_POS, C_HEALTH, C_POS }, linked[] = { C_SQUAD };
    const uint32_t lone_corpse[] = { C_CORPSE }, bad[] = { C_POS, 4 };
    uint32_t a = 99;
    CHECK_OK(dod_world_archetype_for(w, soldier, 4, &a));
    CHECK_EQ(a, (uint32_t)A_SOLDIER);
    CHECK_OK(dod_world_archetype_for(w, NULL, 0, &a));
    CHECK_EQ(a, (uint32_t)A_MARKER);
    a = 99;
    CHECK_STATUS(dod_world_archetype_for(w, linked, 1, &a), DOD_E_UNDECLARED); /* two have it */
    CHECK_STATUS(dod_world_archetype_for(w, lone_corpse, 1, &a), DOD_E_UNDECLARED);
    CHECK_STATUS(dod_world_archetype_for(w, bad, 2, &a), DOD_E_RANGE);
    CHECK_STATUS(dod_world_archetype_for(w, NULL, 1, &a), DOD_E_INVALID);
    CHECK_STATUS(dod_world_archetype_for(NULL, soldier, 1, &a), DOD_E_INVALID);
    CHECK_STATUS(dod_world_archetype_for(w, soldier, 1, NULL), DOD_E_INVALID);
    CHECK_EQ(a, 99u);
    dod_world_destroy(w);
}

static void test_add_n_direct(void)
{
    dod_world *w = make_world(NULL);
    const uint32_t body[] = { C_CORPSE, C_POS }, squad_health[] = { C_HEALTH, C_SQUAD };
    const uint32_t bad[] = { C_POS, 9 }, all[] = { C_HEALTH, C_SQUAD, C_CORPSE };
    dod_entity m = spawn(w, A_MARKER), s, stale = spawn(w, A_GHOST);
    CHECK_OK(dod_world_despawn(w, stale));
    CHECK_OK(war_soldier_spawn(w, NULL, &s));
    war_get_pos(w, s)->x = 4;
    /* one at a time passes through {corpse}, which no archetype has */
    uint64_t before = world_snap(w);
    CHECK_STATUS(dod_world_add(w, m, C_CORPSE), DOD_E_UNDECLARED);
    CHECK_OK(dod_world_add_n(w, m, body, 2));
    CHECK_EQ(dod_world_archetype_of(w, m), A_BODY);
    CHECK_OK(dod_world_add_n(w, m, body, 2)); /* has them: a no-op */
    CHECK_OK(dod_world_add_n(w, m, NULL, 0));
    CHECK_EQ(dod_world_archetype_of(w, m), A_BODY);
    CHECK_OK(dod_world_remove_n(w, s, squad_health, 2));
    CHECK(dod_world_archetype_of(w, s) == A_GHOST && war_get_pos(w, s)->x == 4);
    CHECK_OK(dod_world_add_n(w, s, squad_health, 2));
    CHECK(dod_world_archetype_of(w, s) == A_SOLDIER && war_get_squad(w, s)->rank == 0);
    CHECK_OK(dod_world_remove_n(w, m, body, 2));
    CHECK_EQ(dod_world_archetype_of(w, m), A_MARKER);
    /* the refusals: the world unchanged */
    before = world_snap(w);
    CHECK_STATUS(dod_world_add_n(NULL, m, body, 2), DOD_E_INVALID);
    CHECK_STATUS(dod_world_remove_n(NULL, m, body, 2), DOD_E_INVALID);
    CHECK_STATUS(dod_world_add_n(w, m, NULL, 2), DOD_E_INVALID);
    CHECK_STATUS(dod_world_add_n(w, m, bad, 2), DOD_E_RANGE);
    CHECK_STATUS(dod_world_remove_n(w, m, bad, 2), DOD_E_RANGE);
    CHECK_STATUS(dod_world_add_n(w, stale, body, 2), DOD_E_NOT_FOUND);
    CHECK_STATUS(dod_world_add_n(w, m, all, 3), DOD_E_UNDECLARED);
    CHECK_STATUS(dod_world_remove_n(w, s, body, 2), DOD_E_UNDECLARED); /* {health, squad} */
    CHECK(world_snap(w) == before);
    /* into the full fixed archetype */
    dod_entity more[3], g = spawn(w, A_GHOST);
    CHECK_OK(war_soldier_spawn_n(w, 3, more));
    before = world_snap(w);
    CHECK_STATUS(dod_world_add_n(w, g, squad_health, 2), DOD_E_FULL);
    CHECK(world_snap(w) == before);
    dod_world_destroy(w);
}

static void test_add_n_cmds(void)
{
    dod_world *w = make_world(NULL);
    const uint32_t body[] = { C_POS, C_CORPSE, C_CORPSE }, squad_health[] = { C_HEALTH, C_SQUAD };
    const uint32_t bad[] = { 5 };
    dod_entity m = spawn(w, A_MARKER), s, p, q, null_e = { 0 };
    CHECK_OK(war_soldier_spawn(w, NULL, &s));
    dod_cmds cb;
    CHECK_OK(dod_cmds_init(&cb, w, NULL));
    CHECK_OK(dod_cmds_add_n(&cb, m, body, 3));
    CHECK_OK(dod_cmds_remove_n(&cb, s, squad_health, 2));
    CHECK_OK(dod_cmds_remove_n(&cb, s, body, 3)); /* by then a ghost: {} */
    CHECK_OK(dod_cmds_add_n(&cb, m, NULL, 0));
    CHECK_OK(war_ghost_cmd_spawn(&cb, NULL, &p));
    CHECK_OK(dod_cmds_add_n(&cb, p, squad_health, 2)); /* a soldier */
    CHECK_OK(war_marker_cmd_spawn(&cb, NULL, &q));
    CHECK_REFUSED(&cb, dod_cmds_add_n(&cb, q, squad_health, 2), DOD_E_UNDECLARED);
    CHECK_REFUSED(&cb, dod_cmds_remove_n(&cb, p, body, 2), DOD_E_UNDECLARED); /* {h, s} */
    CHECK_REFUSED(&cb, dod_cmds_add_n(&cb, m, NULL, 1), DOD_E_INVALID);
    CHECK_REFUSED(&cb, dod_cmds_add_n(&cb, m, bad, 1), DOD_E_RANGE);
    CHECK_REFUSED(&cb, dod_cmds_remove_n(&cb, m, bad, 1), DOD_E_RANGE);
    CHECK_REFUSED(&cb, dod_cmds_add_n(&cb, null_e, body, 2), DOD_E_NOT_FOUND);
    CHECK_STATUS(dod_cmds_add_n(NULL, m, body, 2), DOD_E_INVALID);
    CHECK_STATUS(dod_cmds_remove_n(NULL, m, body, 2), DOD_E_INVALID);
    CHECK_OK(dod_cmds_add_n(&cb, q, body, 2)); /* a body */
    dod_apply_result r;
    CHECK_OK(apply1(w, &cb, &r));
    CHECK(result_is(r, 8, 0, 0));
    CHECK_EQ(dod_world_archetype_of(w, m), A_BODY);
    CHECK_EQ(dod_world_archetype_of(w, s), A_MARKER);
    CHECK_EQ(dod_world_archetype_of(w, dod_cmds_resolve(&cb, p)), A_SOLDIER);
    CHECK_EQ(dod_world_archetype_of(w, dod_cmds_resolve(&cb, q)), A_BODY);
    dod_cmds_destroy(&cb);
    dod_world_destroy(w);
}

/* dod_world_apply_ptrs applies buffers where they live, as dod_world_apply applies an array. */
static void test_apply_ptrs(void)
{
    dod_world *w = make_world(NULL), *twin = make_world(NULL);
    dod_cmds by_value[2], *ptrs[2] = { NULL, NULL };
    dod_cmds cb[2], stranger;
    for (uint32_t b = 0; b < 2; ++b) {
        CHECK_OK(dod_cmds_init(&cb[b], w, NULL));
        CHECK_OK(dod_cmds_init(&by_value[b], twin, NULL));
    }
    for (uint32_t i = 0; i < 6; ++i) {
        CHECK_OK(dod_cmds_spawn(&cb[i % 2], A_LEADER, NULL, NULL));
        CHECK_OK(dod_cmds_spawn(&by_value[i % 2], A_LEADER, NULL, NULL));
    }
    dod_apply_result r, rv;
    uint64_t before = world_snap(w);
    CHECK_STATUS(dod_world_apply_ptrs(w, ptrs, 2, &r), DOD_E_INVALID); /* NULL entries */
    ptrs[0] = &cb[1];
    CHECK_STATUS(dod_world_apply_ptrs(w, ptrs, 2, &r), DOD_E_INVALID);
    CHECK_STATUS(dod_world_apply_ptrs(NULL, ptrs, 1, &r), DOD_E_INVALID);
    CHECK_STATUS(dod_world_apply_ptrs(w, NULL, 1, &r), DOD_E_INVALID);
    dod_world_desc other_desc = war_desc();
    other_desc.n_archetypes--;
    dod_world *other;
    CHECK_OK(dod_world_create(&other, &other_desc));
    CHECK_OK(dod_cmds_init(&stranger, other, NULL));
    ptrs[1] = &stranger;
    CHECK_STATUS(dod_world_apply_ptrs(w, ptrs, 2, &r), DOD_E_INVALID);
    CHECK(world_snap(w) == before);
    CHECK_OK(dod_world_apply_ptrs(w, ptrs, 0, &r));
    CHECK(result_is(r, 0, 0, 0));
    ptrs[0] = &cb[0];
    ptrs[1] = &cb[1];
    CHECK_OK(dod_world_apply_ptrs(w, ptrs, 2, &r));
    CHECK_OK(dod_world_apply(twin, by_value, 2, &rv));
    CHECK(result_is(r, 6, 0, 0) && result_is(rv, 6, 0, 0));
    CHECK(world_same(w, twin));
    /* applying does not consume: again replays, and one buffer twice is applied twice */
    ptrs[1] = &cb[0];
    CHECK_OK(dod_world_apply_ptrs(w, ptrs, 2, &r));
    CHECK(result_is(r, 6, 0, 0));
    CHECK_EQ(war_leader_count(w), 12u);
    dod_cmds_destroy(&stranger);
    dod_world_destroy(other);
    for (uint32_t b = 0; b < 2; ++b) {
        dod_cmds_destroy(&cb[b]);
        dod_cmds_free(&by_value[b]); /* the earlier name stays */
    }
    dod_world_destroy(twin);
    dod_world_destroy(w);
}

static void test_status(void)
{
    dod_world *w = make_world(NULL);
    dod_cmds cb;
    dod_entity e = spawn(w, A_LEADER), null_e = { 0 };
    float pos2[2] = { 1, 2 };
    CHECK_EQ(dod_cmds_status(NULL), DOD_OK);
    CHECK_OK(dod_cmds_init(&cb, w, NULL));
    CHECK_EQ(dod_cmds_status(&cb), DOD_OK);
    CHECK_OK(dod_cmds_set(&cb, e, C_POS, pos2, sizeof pos2));
    CHECK_STATUS(dod_cmds_spawn(&cb, 99, NULL, NULL), DOD_E_RANGE);
    CHECK_OK(dod_cmds_despawn(&cb, e)); /* a success after: the failure stays */
    CHECK_STATUS(dod_cmds_despawn(&cb, null_e), DOD_E_NOT_FOUND);
    CHECK_STATUS(dod_cmds_move(&cb, e, 99), DOD_E_RANGE);
    CHECK_STATUS(dod_cmds_set(&cb, e, C_POS, NULL, 8), DOD_E_INVALID);
    unsigned char *payload;
    CHECK_STATUS(dod__cmds_spawn_row(&cb, A_GHOST, 4, NULL, &payload), DOD_E_INVALID);
    CHECK_EQ(dod_cmds_status(&cb), DOD_E_RANGE); /* the first */
    CHECK_EQ(dod_cmds_count(&cb), 2u);
    CHECK_OK(apply1(w, &cb, NULL)); /* apply does not read it */
    CHECK_EQ(dod_cmds_status(&cb), DOD_E_RANGE);
    dod_cmds_clear(&cb);
    CHECK_EQ(dod_cmds_status(&cb), DOD_OK);
    CHECK_STATUS(dod_cmds_set(&cb, null_e, C_POS, pos2, sizeof pos2), DOD_E_NOT_FOUND);
    CHECK_EQ(dod_cmds_status(&cb), DOD_E_NOT_FOUND);
    CHECK_OK(dod_cmds_reserve(&cb, 10, 0));
    dod_cmds_destroy(&cb);
    CHECK_EQ(dod_cmds_status(&cb), DOD_OK);
    dod_cmds_destroy(NULL);
    dod_world_destroy(w);
}

/* ---- allocation failures ---- */

typedef enum record_op { REC_ADD, REC_REMOVE, REC_ADD_N, REC_ACC, REC_LINK } record_op;

static dod_status record(dod_cmds *cb, record_op op, dod_entity e)
{
    const uint32_t two[] = { C_SQUAD, C_HEALTH };
    float minus5 = -5;
    health h = { 1, 2, 3, 4, 5, 6 };
    switch (op) {
    case REC_ADD: return dod_cmds_add(cb, e, C_HEALTH, &h, sizeof h);
    case REC_REMOVE: return dod_cmds_remove(cb, e, C_HEALTH);
    case REC_ADD_N: return dod_cmds_add_n(cb, e, two, 2);
    case REC_ACC: return dod_cmds_accumulate(cb, e, C_HEALTH, 0, DOD_ACC_F32_ADD, &minus5, 4);
    case REC_LINK: break;
    }
    return dod_cmds_set_entity(cb, e, C_SQUAD, 0, e);
}

/* The k-th allocation of a record on a buffer whose stream is exactly full fails: NOMEM, the
 * buffer unchanged, the status remembered; returns the allocations of the run that succeeded. */
static long walk_record(record_op op)
{
    for (long k = 0; k < 4; ++k) {
        test_alloc ta;
        test_alloc_init(&ta);
        dod_allocator a = test_alloc_get(&ta);
        dod_world *w = make_world(NULL);
        dod_entity e = spawn(w, A_LEADER);
        dod_cmds cb;
        CHECK_OK(dod_cmds_init(&cb, w, &a));
        for (uint32_t i = 0; i < 64; ++i) /* 64 despawns of 16 bytes: 1024, full */
            CHECK_OK(dod_cmds_despawn(&cb, e));
        CHECK(cb.n_bytes == cb.bytes_cap);
        uint64_t before = cmds_snap(&cb);
        long calls = ta.calls;
        test_alloc_fail_after(&ta, k);
        dod_status st = record(&cb, op, e);
        long made = ta.calls - calls;
        if (st != DOD_OK) {
            CHECK_STATUS(st, DOD_E_NOMEM);
            CHECK(cmds_snap(&cb) == before);
            CHECK_EQ(dod_cmds_status(&cb), DOD_E_NOMEM);
            test_alloc_fail_after(&ta, -1);
            CHECK_OK(record(&cb, op, e));
        }
        dod_cmds_destroy(&cb);
        CHECK_EQ(ta.live, 0);
        dod_world_destroy(w);
        test_alloc_finish(&ta);
        if (st == DOD_OK)
            return made;
    }
    CHECK(0);
    return -1;
}

/* An apply (by pointer) of adds, removes and accumulates that need blocks and, for the fixed
 * soldiers at capacity, the exact plan's scratch. */
typedef struct apply_walk {
    dod_cmds cb;
    int live;
} apply_walk;

static dod_world *make_apply(const dod_allocator *alloc, void *ctx)
{
    apply_walk *aw = (apply_walk *)ctx;
    if (aw->live)
        dod_cmds_destroy(&aw->cb);
    dod_world *w = make_world(alloc);
    dod_entity soldiers[4], ghosts[40], leader = spawn(w, A_LEADER);
    CHECK_OK(war_soldier_spawn_n(w, 4, soldiers));
    CHECK_OK(war_ghost_spawn_n(w, 40, ghosts));
    CHECK_OK(dod_cmds_init(&aw->cb, w, NULL));
    aw->live = 1;
    float minus5 = -5;
    CHECK_OK(war_cmd_remove_squad(&aw->cb, soldiers[0])); /* then the fixed one is full again */
    CHECK_OK(war_cmd_add_squad(&aw->cb, leader, NULL));
    for (uint32_t i = 0; i < 40; ++i) {
        CHECK_OK(dod_cmds_add(&aw->cb, ghosts[i], C_CORPSE, NULL, sizeof(corpse)));
        CHECK_OK(DOD_CMDS_ACCUMULATE(&aw->cb, soldiers[1], war, health, hp, DOD_ACC_F32_ADD,
                                     &minus5));
    }
    return w;
}

static dod_status op_apply(dod_world *w, void *ctx)
{
    apply_walk *aw = (apply_walk *)ctx;
    dod_cmds *const ptrs[1] = { &aw->cb };
    uint64_t snap = cmds_snap(&aw->cb);
    dod_apply_result r = { 7, 7, 7 };
    dod_status st = dod_world_apply_ptrs(w, ptrs, 1, &r);
    CHECK(st != DOD_OK || result_is(r, 82, 0, 0));
    CHECK(st == DOD_OK || (result_is(r, 7, 7, 7) && cmds_snap(&aw->cb) == snap));
    return st;
}

static dod_world *make_add_n(const dod_allocator *alloc, void *ctx)
{
    dod_world *w = make_world(alloc);
    *(dod_entity *)ctx = spawn(w, A_MARKER);
    return w;
}

static dod_status op_add_n(dod_world *w, void *ctx)
{
    const uint32_t body[] = { C_POS, C_CORPSE };
    return dod_world_add_n(w, *(dod_entity *)ctx, body, 2);
}

static void test_alloc_walks(void)
{
    CHECK_EQ(walk_record(REC_ADD), 1); /* the records doubled */
    CHECK_EQ(walk_record(REC_REMOVE), 1);
    CHECK_EQ(walk_record(REC_ADD_N), 1);
    CHECK_EQ(walk_record(REC_ACC), 1);
    CHECK_EQ(walk_record(REC_LINK), 1);
    apply_walk aw;
    memset(&aw, 0, sizeof aw);
    world_walk apply = { make_apply, op_apply, &aw };
    CHECK_EQ(world_alloc_walk(&apply), 2); /* the exact plan's scratch, the bodies' block */
    dod_cmds_destroy(&aw.cb);
    dod_entity e;
    world_walk add_n = { make_add_n, op_add_n, &e };
    CHECK_EQ(world_alloc_walk(&add_n), 1); /* the bodies' first block */
}

int main(void)
{
    test_add_remove();
    test_plan();
    test_accumulate();
    test_accumulate_deterministic();
    test_despawned_provisional();
    test_set_entity();
    test_archetype_for();
    test_add_n_direct();
    test_add_n_cmds();
    test_apply_ptrs();
    test_status();
    test_alloc_walks();
    return check_summary("world_cmds_more");
}
