/* Command buffers against direct calls: random spawns (zeroed, with values, some values NULL),
 * despawns, moves, sets, adds (with a value or not), removes, adds and removes of several
 * components, accumulates and handle writes (set_entity), on live, stale, foreign and
 * provisional handles (despawned by the same buffer or not), recorded into 1 to 4 buffers at
 * once, then applied; the same commands, buffer after buffer, are made directly
 * on a second world created the same way. After every apply the two worlds hold the same
 * entity index, rows and blocks (world_same), the provisional handles resolve to the handles
 * the direct spawns gave, and the apply's counts are what the direct calls returned. When the
 * apply is refused (DOD_E_FULL) the world and the buffers are unchanged, and the direct calls
 * do hit the capacity or cap on the way; the episode then starts over on fresh worlds.
 * DOD_TEST_SCALE (default 1) multiplies the number of rounds. */
#include <dod/world.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "world_check.h"

enum { C_POS, C_VEL, C_HP, C_BIG, C_BYTE, C_LINE, N_COMPS };
static const dod_component_desc COMPS[N_COMPS] = {
    { "pos", 8, 4 }, { "vel", 8, 4 }, { "hp", 4, 4 }, { "big", 48, 16 }, { "byte", 1, 1 },
    { "line", 64, 64 },
};
static const uint32_t PV[] = { C_POS, C_VEL };
static const uint32_t P[] = { C_POS };
static const uint32_t PHB[] = { C_POS, C_HP, C_BIG };
static const uint32_t LBV[] = { C_LINE, C_BYTE, C_VEL };
static const uint32_t WIDE[] = { C_BIG, C_POS, C_VEL, C_HP, C_BYTE };
enum { N_ARCHS = 6, MAX_COLS = 5 };
static const dod_archetype_desc ARCHS[N_ARCHS] = {
    { "pv", PV, 2, 0, 512, 0, 0 },             /* small blocks: many of them */
    { "p", P, 1, 24, 0, 0, 0 },                /* fixed */
    { "phb", PHB, 3, 0, 1024, 3 * 1024, 0 },   /* a memory cap of three blocks */
    { "ids", NULL, 0, 0, 256, 0, 0 },          /* no components */
    { "lbv", LBV, 3, 12, 0, 0, 0 },            /* fixed, a 64-byte aligned component */
    { "wide", WIDE, 5, 0, 0, 0, 0 },           /* default blocks */
};

enum { T_REAL, T_FOREIGN, T_PROV };
enum { OP_SPAWN, OP_DESPAWN, OP_MOVE, OP_SET, OP_ADD, OP_REMOVE, OP_ADD_N, OP_REMOVE_N, OP_ACC,
       OP_LINK, N_OPS };
enum { GONE = 0x100 }; /* a script's spawn_arch: despawned by the buffer */
enum { MAX_BUFFERS = 4, MAX_CMDS = 48, POOL = 256 };

/* One recorded command, kept to make it directly afterwards. */
typedef struct script_cmd {
    int op;                 /* OP_* */
    uint32_t id;            /* archetype or component */
    int target;             /* T_*: what e is */
    dod_entity e;           /* spawn: its provisional handle */
    uint32_t comps[3], n;   /* add_n, remove_n: the components */
    uint32_t offset;        /* accumulate, link: the field's */
    dod_acc acc;            /* accumulate: how */
    dod_entity link;        /* link: the handle written (as recorded) */
    int no_value;           /* add: NULL value */
    int zeroed;             /* spawn: values NULL */
    unsigned null_cols;     /* spawn: bit k set, values[k] NULL */
    unsigned char value[MAX_COLS][64];
} script_cmd;

typedef struct script {
    script_cmd cmds[MAX_CMDS];
    uint32_t n;
    uint32_t spawn_arch[MAX_CMDS]; /* each provisional handle's archetype, moves followed,
                                      GONE added once despawned */
    uint32_t n_spawns;
    dod_entity direct[MAX_CMDS];   /* the handles the direct spawns got */
} script;

typedef struct episode {
    dod_world *applied, *direct, *foreign;
    dod_entity pool[POOL];          /* handles of `applied` once handed out, alive or not */
    uint32_t n_pool;
    dod_entity foreign_ids[4];
    dod_cmds buffers[MAX_BUFFERS];
    script scripts[MAX_BUFFERS];
} episode;

static int arch_has(uint32_t a, uint32_t c)
{
    return world_desc_has(&ARCHS[a], c);
}

static void random_bytes(test_rng *rng, unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        p[i] = (unsigned char)test_rng_next(rng);
}

static void pool_add(episode *ep, dod_entity e)
{
    ep->pool[ep->n_pool++ % POOL] = e;
}

/* A handle for a despawn, move or set: one of the buffer's provisional handles, one the
 * applied world handed out (alive, moved on or despawned), or another world's. */
static dod_entity pick_target(episode *ep, const script *s, test_rng *rng, int *target)
{
    uint32_t roll = test_rng_below(rng, 100);
    if (roll < 35 && s->n_spawns) {
        *target = T_PROV;
        uint32_t k = test_rng_below(rng, s->n_spawns);
        for (uint32_t i = 0; i < s->n; ++i)
            if (s->cmds[i].op == 0 && k-- == 0)
                return s->cmds[i].e;
    }
    if (roll < 40 || ep->n_pool == 0) {
        *target = T_FOREIGN;
        return ep->foreign_ids[test_rng_below(rng, 4)];
    }
    *target = T_REAL;
    return ep->pool[test_rng_below(rng, ep->n_pool < POOL ? ep->n_pool : POOL)];
}

/* The components of archetype a, a bit each. */
static uint32_t arch_mask(uint32_t a)
{
    uint32_t m = 0;
    for (uint32_t k = 0; k < ARCHS[a].n_components; ++k)
        m |= 1u << ARCHS[a].components[k];
    return m;
}

/* Where a change of the components in `mask` takes archetype `from` (the model of the
 * transitions: every archetype's set differs): UINT32_MAX when none has the set. */
static uint32_t model_target(uint32_t from, uint32_t mask, int add)
{
    uint32_t want = add ? arch_mask(from) | mask : arch_mask(from) & ~mask;
    for (uint32_t a = 0; a < N_ARCHS; ++a)
        if (arch_mask(a) == want)
            return a;
    return UINT32_MAX;
}

/* The accumulates tried: component, offset, how. */
static const struct {
    uint32_t comp, offset;
    dod_acc acc;
} ACCS[] = {
    { C_POS, 0, DOD_ACC_F32_ADD }, { C_POS, 4, DOD_ACC_F32_MIN }, { C_VEL, 4, DOD_ACC_F32_MAX },
    { C_HP, 0, DOD_ACC_I32_ADD },  { C_HP, 0, DOD_ACC_I32_MIN },  { C_HP, 0, DOD_ACC_I32_MAX },
    { C_HP, 0, DOD_ACC_U32_ADD },  { C_HP, 0, DOD_ACC_U32_OR },   { C_BIG, 8, DOD_ACC_F64_ADD },
    { C_BIG, 40, DOD_ACC_U64_ADD }, { C_BIG, 4, DOD_ACC_I64_ADD },
};

static size_t acc_size(dod_acc acc)
{
    return acc == DOD_ACC_F64_ADD || acc == DOD_ACC_U64_ADD || acc == DOD_ACC_I64_ADD ? 8 : 4;
}

/* Record c's command (not a spawn) on e into cb. *mask: the components a change names. */
static dod_status record_cmd(dod_cmds *cb, script_cmd *c, dod_entity e, test_rng *rng,
                             uint32_t *mask)
{
    *mask = 0;
    switch (c->op) {
    case OP_DESPAWN: return dod_cmds_despawn(cb, e);
    case OP_MOVE: c->id = test_rng_below(rng, N_ARCHS); return dod_cmds_move(cb, e, c->id);
    case OP_SET:
    case OP_ADD:
        c->id = test_rng_below(rng, N_COMPS);
        random_bytes(rng, c->value[0], COMPS[c->id].size);
        *mask = 1u << c->id;
        if (c->op == OP_SET)
            return dod_cmds_set(cb, e, c->id, c->value[0], COMPS[c->id].size);
        c->no_value = test_rng_below(rng, 3) == 0;
        return dod_cmds_add(cb, e, c->id, c->no_value ? NULL : c->value[0], COMPS[c->id].size);
    case OP_REMOVE:
        c->id = test_rng_below(rng, N_COMPS);
        *mask = 1u << c->id;
        return dod_cmds_remove(cb, e, c->id);
    case OP_ADD_N:
    case OP_REMOVE_N:
        c->n = test_rng_below(rng, 4);
        for (uint32_t k = 0; k < c->n; ++k) {
            c->comps[k] = test_rng_below(rng, N_COMPS);
            *mask |= 1u << c->comps[k];
        }
        return c->op == OP_ADD_N ? dod_cmds_add_n(cb, e, c->comps, c->n)
                                 : dod_cmds_remove_n(cb, e, c->comps, c->n);
    case OP_ACC: {
        uint32_t k = test_rng_below(rng, sizeof ACCS / sizeof *ACCS);
        c->id = ACCS[k].comp;
        c->offset = ACCS[k].offset;
        c->acc = ACCS[k].acc;
        random_bytes(rng, c->value[0], 8);
        return dod_cmds_accumulate(cb, e, c->id, c->offset, c->acc, c->value[0],
                                   acc_size(c->acc));
    }
    default:
        c->id = test_rng_below(rng, 2) ? C_BIG : C_VEL;
        c->offset = c->id == C_BIG ? 8 * test_rng_below(rng, 6) : 0;
        return dod_cmds_set_entity(cb, e, c->id, c->offset, c->link);
    }
}

/* Record one random command into buffer b and its script. */
static void record_one(episode *ep, uint32_t b, test_rng *rng)
{
    dod_cmds *cb = &ep->buffers[b];
    script *s = &ep->scripts[b];
    script_cmd *c = &s->cmds[s->n];
    memset(c, 0, sizeof *c);
    c->op = (int)test_rng_below(rng, N_OPS);
    uint32_t count = dod_cmds_count(cb);
    size_t bytes = cb->n_bytes;
    if (c->op == OP_SPAWN) {
        c->id = test_rng_below(rng, N_ARCHS);
        c->zeroed = test_rng_below(rng, 3) == 0;
        const void *values[MAX_COLS];
        for (uint32_t k = 0; k < ARCHS[c->id].n_components; ++k) {
            random_bytes(rng, c->value[k], COMPS[ARCHS[c->id].components[k]].size);
            c->null_cols |= test_rng_below(rng, 5) == 0 ? 1u << k : 0u;
            values[k] = c->null_cols >> k & 1u ? NULL : c->value[k];
        }
        CHECK_OK(dod_cmds_spawn(cb, c->id, c->zeroed ? NULL : values, &c->e));
        c->target = T_PROV;
        s->spawn_arch[s->n_spawns++] = c->id;
        s->n++;
        return;
    }
    dod_entity e = pick_target(ep, s, rng, &c->target);
    c->e = e;
    if (c->op == OP_LINK && test_rng_below(rng, 5) != 0) { /* else the null handle */
        int kind;
        c->link = pick_target(ep, s, rng, &kind);
    }
    uint32_t mask, *arch = c->target == T_PROV ? &s->spawn_arch[(uint32_t)e.bits] : NULL;
    dod_status st = record_cmd(cb, c, e, rng, &mask);
    dod_status want = DOD_OK;
    uint32_t to = arch && !(*arch & GONE) ? *arch : UINT32_MAX; /* a live provisional's */
    if (to != UINT32_MAX) { /* known at record time: a refusal leaves the buffer unchanged */
        if (c->op == OP_MOVE)
            to = c->id;
        else if (c->op == OP_SET || c->op == OP_ACC || c->op == OP_LINK)
            want = arch_has(to, c->id) ? DOD_OK : DOD_E_INVALID;
        else if (c->op != OP_DESPAWN)
            to = model_target(to, mask, c->op == OP_ADD || c->op == OP_ADD_N);
        if (to == UINT32_MAX)
            want = DOD_E_UNDECLARED;
    }
    CHECK_STATUS(st, want);
    if (st != DOD_OK) {
        CHECK(dod_cmds_count(cb) == count && cb->n_bytes == bytes);
        CHECK_EQ(dod_cmds_status(cb), want);
        dod_cmds_clear(cb); /* start the buffer over: the script too */
        s->n = s->n_spawns = 0;
        return;
    }
    if (arch && c->op == OP_DESPAWN)
        *arch |= GONE;
    else if (arch && !(*arch & GONE))
        *arch = to;
    s->n++;
}

/* The handle in the direct world of what a command names. */
static dod_entity direct_handle(const episode *ep, const script *s, const script_cmd *c)
{
    if (c->target == T_FOREIGN)
        return c->e;
    if (c->target == T_PROV)
        return s->direct[(uint32_t)c->e.bits];
    dod_entity e;
    e.bits = (c->e.bits & ((1ull << 48) - 1)) | (uint64_t)ep->direct->head.tag_hi << 32;
    return e;
}

/* op(*at, value) as the accumulate c says, independently of the library. */
static void model_accumulate(unsigned char *at, const script_cmd *c)
{
    if (c->acc == DOD_ACC_F64_ADD) {
        double x, v;
        memcpy(&x, at, 8), memcpy(&v, c->value[0], 8);
        x = x + v;
        memcpy(at, &x, 8);
    } else if (acc_size(c->acc) == 8) {
        uint64_t x, v;
        memcpy(&x, at, 8), memcpy(&v, c->value[0], 8);
        x = x + v;
        memcpy(at, &x, 8);
    } else if (c->acc == DOD_ACC_F32_ADD || c->acc == DOD_ACC_F32_MIN ||
               c->acc == DOD_ACC_F32_MAX) {
        float x, v;
        memcpy(&x, at, 4), memcpy(&v, c->value[0], 4);
        if (c->acc == DOD_ACC_F32_ADD)
            x = x + v;
        else if (c->acc == DOD_ACC_F32_MIN ? v < x : v > x)
            x = v;
        memcpy(at, &x, 4);
    } else {
        int32_t x, v;
        uint32_t ux, uv;
        memcpy(&x, at, 4), memcpy(&v, c->value[0], 4);
        memcpy(&ux, at, 4), memcpy(&uv, c->value[0], 4);
        if (c->acc == DOD_ACC_I32_MIN ? v < x : c->acc == DOD_ACC_I32_MAX ? v > x : 0)
            ux = uv;
        else if (c->acc == DOD_ACC_U32_OR)
            ux |= uv;
        else if (c->acc == DOD_ACC_I32_ADD || c->acc == DOD_ACC_U32_ADD)
            ux += uv;
        memcpy(at, &ux, 4);
    }
}

/* A set, accumulate or link made directly: counted as an apply counts. */
static void direct_write(dod_world *w, const dod_cmds *cb, const script_cmd *c, dod_entity e,
                         dod_apply_result *r)
{
    unsigned char *p = (unsigned char *)dod_world_get(w, e, c->id);
    r->applied += p != NULL;
    r->missing += !p && dod_world_alive(w, e);
    r->skipped += !p && !dod_world_alive(w, e);
    if (!p)
        return;
    if (c->op == OP_SET) {
        memcpy(p, c->value[0], COMPS[c->id].size);
    } else if (c->op == OP_ACC) {
        model_accumulate(p + c->offset, c);
    } else { /* the applied world's handle: what the apply writes, so the bytes compare */
        dod_entity link = dod_cmds_resolve(cb, c->link);
        memcpy(p + c->offset, &link, sizeof link);
    }
}

/* A move, despawn, add or remove made directly. */
static dod_status direct_change(dod_world *w, const script_cmd *c, dod_entity e)
{
    switch (c->op) {
    case OP_DESPAWN: return dod_world_despawn(w, e);
    case OP_MOVE: return dod_world_move(w, e, c->id);
    case OP_REMOVE: return dod_world_remove(w, e, c->id);
    case OP_ADD_N: return dod_world_add_n(w, e, c->comps, c->n);
    case OP_REMOVE_N: return dod_world_remove_n(w, e, c->comps, c->n);
    default: break;
    }
    dod_status st = dod_world_add(w, e, c->id);
    if (st == DOD_OK && !c->no_value)
        memcpy(dod_world_get(w, e, c->id), c->value[0], COMPS[c->id].size);
    return st;
}

/* Make buffer b's commands directly on the direct world, counting as an apply does; 1 when a
 * call hit a capacity or a cap (DOD_E_FULL). */
static int run_direct(episode *ep, const dod_cmds *cb, script *s, dod_apply_result *r)
{
    dod_world *w = ep->direct;
    uint32_t spawns = 0;
    for (uint32_t i = 0; i < s->n; ++i) {
        const script_cmd *c = &s->cmds[i];
        if (c->op == OP_SPAWN) {
            dod_entity *e = &s->direct[spawns++];
            dod_status st = dod_world_spawn(w, c->id, e);
            if (st != DOD_OK)
                return st == DOD_E_FULL;
            for (uint32_t k = 0; k < ARCHS[c->id].n_components && !c->zeroed; ++k) {
                uint32_t comp = ARCHS[c->id].components[k];
                if (!(c->null_cols >> k & 1u))
                    memcpy(dod_world_get(w, *e, comp), c->value[k], COMPS[comp].size);
            }
            r->applied++;
            continue;
        }
        dod_entity e = direct_handle(ep, s, c);
        if (c->op == OP_SET || c->op == OP_ACC || c->op == OP_LINK) {
            direct_write(w, cb, c, e, r);
            continue;
        }
        dod_status st = direct_change(w, c, e);
        if (st == DOD_E_FULL)
            return 1;
        CHECK(st == DOD_OK || st == DOD_E_NOT_FOUND || st == DOD_E_UNDECLARED);
        r->applied += st == DOD_OK;
        r->skipped += st == DOD_E_NOT_FOUND;
        r->missing += st == DOD_E_UNDECLARED;
    }
    return 0;
}

static void episode_start(episode *ep, test_rng *rng)
{
    memset(ep, 0, sizeof *ep);
    dod_world_desc d = world_desc_of(COMPS, N_COMPS, ARCHS, N_ARCHS, NULL);
    CHECK_OK(dod_world_create(&ep->applied, &d));
    CHECK_OK(dod_world_create(&ep->direct, &d));
    CHECK_OK(dod_world_create(&ep->foreign, &d));
    for (uint32_t i = 0; i < 4; ++i)
        CHECK_OK(dod_world_spawn(ep->foreign, test_rng_below(rng, N_ARCHS), &ep->foreign_ids[i]));
    for (uint32_t b = 0; b < MAX_BUFFERS; ++b)
        CHECK_OK(dod_cmds_init(&ep->buffers[b], ep->applied, NULL));
}

static void episode_end(episode *ep)
{
    for (uint32_t b = 0; b < MAX_BUFFERS; ++b)
        dod_cmds_free(&ep->buffers[b]);
    dod_world_destroy(ep->applied);
    dod_world_destroy(ep->direct);
    dod_world_destroy(ep->foreign);
}

/* One round: record into n buffers, interleaved, apply, and compare. 0 when the apply was
 * refused as full (the episode is over). */
static int round_once(episode *ep, test_rng *rng, long *full_refusals)
{
    uint32_t n = 1 + test_rng_below(rng, MAX_BUFFERS);
    uint32_t n_cmds = test_rng_below(rng, MAX_CMDS * n);
    for (uint32_t b = 0; b < n; ++b) {
        dod_cmds_clear(&ep->buffers[b]);
        ep->scripts[b].n = ep->scripts[b].n_spawns = 0;
    }
    for (uint32_t i = 0; i < n_cmds; ++i) {
        uint32_t b = test_rng_below(rng, n);
        if (ep->scripts[b].n < MAX_CMDS)
            record_one(ep, b, rng);
    }
    uint64_t before = world_snap(ep->applied);
    dod_apply_result got = { 7, 7, 7 }, want = { 0, 0, 0 };
    dod_status st = dod_world_apply(ep->applied, ep->buffers, n, &got);
    int full = 0;
    for (uint32_t b = 0; b < n && !full; ++b)
        full = run_direct(ep, &ep->buffers[b], &ep->scripts[b], &want);
    if (st == DOD_E_FULL) {
        ++*full_refusals;
        CHECK(full); /* the direct calls hit it too */
        CHECK(world_snap(ep->applied) == before);
        CHECK(got.applied == 7 && got.skipped == 7 && got.missing == 7);
        for (uint32_t b = 0; b < n; ++b) { /* the buffers as recorded, nothing resolves */
            const script *s = &ep->scripts[b];
            CHECK_EQ(dod_cmds_count(&ep->buffers[b]), s->n);
            for (uint32_t i = 0; i < s->n; ++i)
                CHECK(s->cmds[i].op != 0 ||
                      dod_cmds_resolve(&ep->buffers[b], s->cmds[i].e).bits == 0);
        }
        return 0;
    }
    CHECK_OK(st);
    CHECK(!full);
    CHECK(world_same(ep->applied, ep->direct));
    CHECK(got.applied == want.applied && got.skipped == want.skipped &&
          got.missing == want.missing);
    const uint64_t less_tag = (1ull << 48) - 1;
    for (uint32_t b = 0; b < n; ++b) {
        const script *s = &ep->scripts[b];
        for (uint32_t i = 0, k = 0; i < s->n; ++i) {
            if (s->cmds[i].op != 0)
                continue;
            dod_entity real = dod_cmds_resolve(&ep->buffers[b], s->cmds[i].e);
            CHECK((real.bits & less_tag) == (s->direct[k++].bits & less_tag));
            CHECK(real.bits >> 32 == (ep->applied->head.tag_hi | (real.bits >> 32 & 0xFFFF)));
            pool_add(ep, real);
        }
    }
    return 1;
}

static void run(uint64_t seed, uint32_t rounds)
{
    test_rng rng = { seed };
    episode *ep = (episode *)malloc(sizeof *ep);
    long full_refusals = 0, failed_before = check_failed;
    uint32_t r = 0;
    while (r < rounds && check_failed == failed_before) {
        episode_start(ep, &rng);
        while (r < rounds && check_failed == failed_before && round_once(ep, &rng, &full_refusals))
            ++r;
        ++r;
        episode_end(ep);
    }
    if (check_failed != failed_before)
        fprintf(stderr, "  seed %llu: first failure in round %u\n", (unsigned long long)seed, r);
    CHECK(full_refusals > 0); /* the refusals were exercised too */
    free(ep);
}

int main(void)
{
    for (uint64_t seed = 1; seed <= 4; ++seed)
        run(seed, 400 * test_scale());
    return check_summary("world_cmds_model");
}
