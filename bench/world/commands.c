/* Command buffers (dod/world_cmds.h, issue 19):
 *   record     n commands of one kind into a buffer that already has the room (cleared, not
 *              freed, between passes: the per-frame case), ns per command, target <= 10:
 *              spawn_zeroed, spawn_values ({P,V} from an array of two pointers),
 *              spawn_typed ({P,V} from a typed row), despawn, move, set (P)
 *   despawn    n despawns of n {P,V} rows in creation order: direct dod_world_despawn calls
 *              against one dod_world_apply of a buffer holding them (recorded untimed), each on
 *              a fresh world in the same state; ratio of minima and of medians, target <= 2
 *   at scale   (commands_scale_bench) a world of n {P,V} entities (2M; quick 256K) in a fixed
 *              archetype with room for 2% more, and a fixed {P} with room for 2%; 2% of the
 *              entities picked at random and taken in row order, as a system walking the
 *              blocks records them. Per kind, move to {P}, despawn, spawn with values: one
 *              dod_world_apply of a buffer holding them (recorded once, untimed) against the
 *              same direct calls in the same order (dod_world_move, dod_world_despawn, the typed
 *              spawn), each run on a fresh copy of the same world (dod_world_copy, untimed);
 *              both worlds must end with the same rows. ns per command, target apply / direct
 *              <= 1.5 (min) */
#include <string.h>
#include <dod/world.h>
#include "world_bench.h"

#define CMD_COMPONENTS(C) C(position) C(velocity)
#define CMD_PV(X) X(position) X(velocity)
#define CMD_P(X) X(position)
#define CMD_ARCHETYPES(A) A(pv, CMD_PV, 0) A(p, CMD_P, 0)
DOD_WORLD(cmdw, CMD_COMPONENTS, CMD_ARCHETYPES)

enum { REC_SPAWN_ZEROED, REC_SPAWN_VALUES, REC_SPAWN_TYPED, REC_DESPAWN, REC_MOVE, REC_SET,
       N_REC };
static const char *const rec_names[N_REC] = { "spawn_zeroed", "spawn_values", "spawn_typed",
                                              "despawn",      "move",         "set" };

typedef struct record_run {
    uint32_t n;
    const dod_entity *ids; /* n live {P,V} entities of the bound world */
    dod_entity *out;       /* the spawns' provisional handles */
    dod_cmds cb[N_REC];
    int bad;
} record_run;

static void run_record(void *ctx, int kind)
{
    record_run *r = (record_run *)ctx;
    dod_cmds *cb = &r->cb[kind];
    const cmdw_pv_row row = { { 1.0f, 2.0f }, { 3.0f, 4.0f } };
    const void *const values[2] = { &row.position, &row.velocity };
    const position pos = { 5.0f, 6.0f };
    const uint32_t pv = DOD_AID(cmdw, pv), p = DOD_AID(cmdw, p);
    int bad = 0;
    dod_cmds_clear(cb);
    switch (kind) {
    case REC_SPAWN_ZEROED:
        for (uint32_t i = 0; i < r->n; ++i)
            bad |= dod_cmds_spawn(cb, pv, NULL, &r->out[i]) != DOD_OK;
        break;
    case REC_SPAWN_VALUES:
        for (uint32_t i = 0; i < r->n; ++i)
            bad |= dod_cmds_spawn(cb, pv, values, &r->out[i]) != DOD_OK;
        break;
    case REC_SPAWN_TYPED:
        for (uint32_t i = 0; i < r->n; ++i)
            bad |= cmdw_pv_cmd_spawn(cb, &row, &r->out[i]) != DOD_OK;
        break;
    case REC_DESPAWN:
        for (uint32_t i = 0; i < r->n; ++i)
            bad |= dod_cmds_despawn(cb, r->ids[i]) != DOD_OK;
        break;
    case REC_MOVE:
        for (uint32_t i = 0; i < r->n; ++i)
            bad |= dod_cmds_move(cb, r->ids[i], p) != DOD_OK;
        break;
    default:
        for (uint32_t i = 0; i < r->n; ++i)
            bad |= cmdw_cmd_set_position(cb, r->ids[i], &pos) != DOD_OK;
        break;
    }
    r->bad |= bad;
}

/* mn[kind]: ns per command, min over the passes. */
static void record_bench(uint32_t n, int passes, double mn[N_REC])
{
    record_run r;
    memset(&r, 0, sizeof r);
    r.n = n;
    dod_world *w = NULL;
    wb_check(cmdw_create(&w, NULL), "commands create");
    dod_entity *ids = (dod_entity *)wb_alloc(n * sizeof(dod_entity));
    r.out = (dod_entity *)wb_alloc(n * sizeof(dod_entity));
    wb_check(dod_world_spawn_n(w, DOD_AID(cmdw, pv), n, ids), "commands spawn_n");
    r.ids = ids;
    for (int k = 0; k < N_REC; ++k) {
        wb_check(dod_cmds_init(&r.cb[k], w, NULL), "commands init");
        run_record(&r, k); /* untimed: the buffer grows to its room once */
    }
    double t[N_REC][WB_MAX_PASSES];
    wb_alternate(N_REC, passes, NULL, run_record, &r, t);
    for (int k = 0; k < N_REC; ++k) {
        mn[k] = wb_emit("record", rec_names[k], n, n, t[k], passes);
        wb_require(dod_cmds_count(&r.cb[k]) == n, "record: a buffer lacks commands");
    }
    wb_require(!r.bad, "record: a command was refused");
    /* the buffers do what they say: the sets, then the moves, then the spawns with values
     * (the typed spawns recorded again, so that r.out holds their provisional handles) */
    run_record(&r, REC_SPAWN_TYPED);
    dod_apply_result res;
    dod_cmds last[4] = { r.cb[REC_SET], r.cb[REC_MOVE], r.cb[REC_SPAWN_VALUES],
                         r.cb[REC_SPAWN_TYPED] };
    wb_check(dod_world_apply(w, last, 4, &res), "record: apply");
    dod_entity spawned = dod_cmds_resolve(&last[3], r.out[n - 1]);
    wb_require(res.applied == 4 * n && dod_world_count(w, DOD_AID(cmdw, p)) == n &&
                   dod_world_count(w, DOD_AID(cmdw, pv)) == 2 * n &&
                   cmdw_get_position(w, ids[n - 1])->y == 6.0f &&
                   cmdw_get_velocity(w, spawned)->y == 4.0f,
               "record: the applied buffers");
    for (int k = 0; k < N_REC; ++k)
        dod_cmds_free(&r.cb[k]);
    wb_free(ids, n * sizeof(dod_entity));
    wb_free(r.out, n * sizeof(dod_entity));
    dod_world_destroy(w);
}

enum { DS_DIRECT, DS_APPLY, N_DS };
static const char *const ds_names[N_DS] = { "direct", "apply" };

typedef struct despawn_run {
    uint32_t n;
    dod_world *w[N_DS];
    dod_entity *ids[N_DS];
    dod_cmds cb; /* bound to `decl`, a world of the same declaration that stays */
    dod_world *decl;
    dod_apply_result result;
} despawn_run;

/* Untimed: a fresh world of n {P,V} rows; for the apply, the buffer of their despawns. */
static void prepare_despawn(void *ctx, int v)
{
    despawn_run *r = (despawn_run *)ctx;
    dod_world_destroy(r->w[v]);
    wb_check(cmdw_create(&r->w[v], NULL), "despawn create");
    wb_check(dod_world_spawn_n(r->w[v], DOD_AID(cmdw, pv), r->n, r->ids[v]), "despawn spawn_n");
    if (v != DS_APPLY)
        return;
    dod_cmds_clear(&r->cb);
    for (uint32_t i = 0; i < r->n; ++i)
        wb_check(dod_cmds_despawn(&r->cb, r->ids[v][i]), "despawn record");
}

static void run_despawn(void *ctx, int v)
{
    despawn_run *r = (despawn_run *)ctx;
    if (v == DS_APPLY) {
        wb_check(dod_world_apply(r->w[v], &r->cb, 1, &r->result), "despawn apply");
        return;
    }
    int bad = 0;
    for (uint32_t i = 0; i < r->n; ++i)
        bad |= dod_world_despawn(r->w[v], r->ids[v][i]) != DOD_OK;
    wb_require(!bad, "despawn: a direct despawn failed");
}

/* ratio[0]: apply / direct, ratio of minima; ratio[1]: of medians. */
static void despawn_bench(uint32_t n, int passes, double ratio[2])
{
    despawn_run r;
    memset(&r, 0, sizeof r);
    r.n = n;
    wb_check(cmdw_create(&r.decl, NULL), "despawn create");
    wb_check(dod_cmds_init(&r.cb, r.decl, NULL), "despawn init");
    for (int v = 0; v < N_DS; ++v)
        r.ids[v] = (dod_entity *)wb_alloc(n * sizeof(dod_entity));
    double t[N_DS][WB_MAX_PASSES], med[N_DS], mn[N_DS];
    wb_alternate(N_DS, passes, prepare_despawn, run_despawn, &r, t);
    for (int v = 0; v < N_DS; ++v) {
        double copy[WB_MAX_PASSES];
        memcpy(copy, t[v], sizeof copy);
        med[v] = bench_median(copy, passes);
        mn[v] = wb_emit("despawn_cmds", ds_names[v], n, n, t[v], passes);
        wb_require(dod_world_count(r.w[v], DOD_AID(cmdw, pv)) == 0, "despawn left rows");
        dod_world_destroy(r.w[v]);
        wb_free(r.ids[v], n * sizeof(dod_entity));
    }
    wb_require(r.result.applied == n && r.result.skipped == 0, "despawn: the apply's counts");
    dod_cmds_free(&r.cb);
    dod_world_destroy(r.decl);
    ratio[0] = mn[DS_APPLY] / mn[DS_DIRECT];
    ratio[1] = med[DS_APPLY] / med[DS_DIRECT];
}

void commands_bench(size_t n_, int passes, int targets)
{
    uint32_t n = (uint32_t)n_;
    printf("command buffers: n %u, chunked archetypes {P,V} {P}\n", n);
    double mn[N_REC], ratio[2];
    record_bench(n, passes, mn);
    despawn_bench(n, passes, ratio);
    printf("  apply / direct despawns: %.3f (minima), %.3f (medians)\n", ratio[0], ratio[1]);
    if (!targets)
        return;
    for (int k = 0; k < N_REC; ++k)
        bench_target("ns/command", mn[k], BENCH_AT_MOST, 10, "record %s, n %u", rec_names[k], n);
    bench_target("x", ratio[0], BENCH_AT_MOST, 2, "apply despawns / direct despawns (min), n %u",
                 n);
    bench_target("x", ratio[1], BENCH_AT_MOST, 2,
                 "apply despawns / direct despawns (medians), n %u", n);
}

/* ---- applying commands at scale ---- */

#define SCALE_PERCENT 2u
enum { SK_MOVE, SK_DESPAWN, SK_SPAWN, N_SCALE_KINDS };
static const char *const sk_ops[N_SCALE_KINDS] = { "cmds_move", "cmds_despawn", "cmds_spawn" };

typedef struct scale_run {
    int kind;
    uint32_t n_cmds;
    const dod_world *base;       /* the state every run starts from */
    dod_world *w[N_DS];          /* each side's copy of it */
    const dod_entity *picked;    /* n_cmds entities of base, in row order */
    const cmdw_pv_row *values;   /* the spawns' rows */
    dod_cmds cb[N_SCALE_KINDS];  /* each kind's commands, recorded once */
    dod_apply_result result;
    int bad;
} scale_run;

/* Untimed: the side's world back to base's state. */
static void prepare_scale(void *ctx, int v)
{
    scale_run *r = (scale_run *)ctx;
    wb_check(dod_world_copy(r->w[v], r->base), "scale copy");
}

static void run_direct(scale_run *r, dod_world *w)
{
    const uint32_t p = DOD_AID(cmdw, p);
    int bad = 0;
    switch (r->kind) {
    case SK_MOVE:
        for (uint32_t i = 0; i < r->n_cmds; ++i)
            bad |= dod_world_move(w, r->picked[i], p) != DOD_OK;
        break;
    case SK_DESPAWN:
        for (uint32_t i = 0; i < r->n_cmds; ++i)
            bad |= dod_world_despawn(w, r->picked[i]) != DOD_OK;
        break;
    default:
        for (uint32_t i = 0; i < r->n_cmds; ++i)
            bad |= cmdw_pv_spawn(w, &r->values[i], NULL) != DOD_OK;
        break;
    }
    r->bad |= bad;
}

static void run_scale(void *ctx, int v)
{
    scale_run *r = (scale_run *)ctx;
    if (v == DS_APPLY)
        wb_check(dod_world_apply(r->w[v], &r->cb[r->kind], 1, &r->result), "scale apply");
    else
        run_direct(r, r->w[v]);
}

/* Each kind's buffer: the same commands the direct calls make, in the same order. */
static void record_scale(scale_run *r)
{
    for (int k = 0; k < N_SCALE_KINDS; ++k) {
        dod_cmds *cb = &r->cb[k];
        wb_check(dod_cmds_init(cb, r->base, NULL), "scale init");
        for (uint32_t i = 0; i < r->n_cmds; ++i) {
            dod_status st = k == SK_MOVE      ? dod_cmds_move(cb, r->picked[i], DOD_AID(cmdw, p))
                            : k == SK_DESPAWN ? dod_cmds_despawn(cb, r->picked[i])
                                              : cmdw_pv_cmd_spawn(cb, &r->values[i], NULL);
            wb_check(st, "scale record");
        }
    }
}

/* The rows each kind leaves: {P,V} and {P} counts after n_cmds commands on n entities. */
static int scale_counts_ok(const scale_run *r, uint32_t n)
{
    const dod_world *w = r->w[DS_DIRECT];
    uint32_t pv = dod_world_count(w, DOD_AID(cmdw, pv)), p = dod_world_count(w, DOD_AID(cmdw, p));
    switch (r->kind) {
    case SK_MOVE: return pv == n - r->n_cmds && p == r->n_cmds;
    case SK_DESPAWN: return pv == n - r->n_cmds && p == 0;
    default: return pv == n + r->n_cmds && p == 0;
    }
}

/* One kind, direct and apply alternately; ratio: apply / direct of the minima. */
static double scale_kind(scale_run *r, uint32_t n, int passes)
{
    double t[N_DS][WB_MAX_PASSES], mn[N_DS];
    wb_alternate(N_DS, passes, prepare_scale, run_scale, r, t);
    for (int v = 0; v < N_DS; ++v)
        mn[v] = wb_emit(sk_ops[r->kind], ds_names[v], n, r->n_cmds, t[v], passes);
    wb_require(!r->bad && r->result.applied == r->n_cmds && r->result.skipped == 0,
               "scale: a command failed or was skipped");
    wb_require(scale_counts_ok(r, n), "scale: the rows a kind leaves");
    wb_require(world_same_rows(r->w[DS_DIRECT], r->w[DS_APPLY], 1),
               "scale: apply and direct calls end in different worlds");
    return mn[DS_APPLY] / mn[DS_DIRECT];
}

/* Room for n {P,V} and 2% more, 2% in {P}; pages mapped at create, so no run takes a fault. */
static dod_world *scale_world(uint32_t n, uint32_t n_cmds)
{
    cmdw_config cfg = cmdw_config_default();
    cfg.pv.capacity = n + n_cmds;
    cfg.p.capacity = n_cmds;
    dod_world *w = NULL;
    wb_check(cmdw_create_config(&w, &cfg, NULL, DOD_WORLD_PREFAULT), "scale create");
    return w;
}

/* n {P,V} entities, each with its own values, and n_cmds of them picked at random in row order
 * (selection sampling: row i is taken with the chance of the picks still wanted among the rows
 * left). */
static dod_world *scale_base(uint32_t n, uint32_t n_cmds, dod_entity *picked)
{
    dod_world *w = scale_world(n, n_cmds);
    dod_entity *ids = (dod_entity *)wb_alloc((size_t)n * sizeof(dod_entity));
    wb_check(dod_world_spawn_n(w, DOD_AID(cmdw, pv), n, ids), "scale spawn_n");
    cmdw_pv_cols c;
    for (uint32_t b = 0, at = 0; cmdw_pv_block(w, b, &c); ++b)
        for (uint32_t i = 0; i < c.n; ++i, ++at) {
            c.position[i] = (position){ (float)at, -(float)at };
            c.velocity[i] = (velocity){ 1.0f, (float)(at % 7) };
        }
    uint64_t x = 12345;
    for (uint32_t i = 0, k = 0; i < n && k < n_cmds; ++i) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        if ((x >> 32) * (n - i) >> 32 < n_cmds - k)
            picked[k++] = ids[i];
    }
    wb_free(ids, (size_t)n * sizeof(dod_entity));
    return w;
}

void commands_scale_bench(uint32_t n, int passes, int targets)
{
    scale_run r;
    memset(&r, 0, sizeof r);
    r.n_cmds = n / 100 * SCALE_PERCENT;
    dod_entity *picked = (dod_entity *)wb_alloc(r.n_cmds * sizeof(dod_entity));
    cmdw_pv_row *values = (cmdw_pv_row *)wb_alloc(r.n_cmds * sizeof(cmdw_pv_row));
    for (uint32_t i = 0; i < r.n_cmds; ++i)
        values[i] = (cmdw_pv_row){ { (float)i, 0.5f }, { 2.0f, -(float)i } };
    dod_world *base = scale_base(n, r.n_cmds, picked);
    r.base = base;
    r.picked = picked;
    r.values = values;
    for (int v = 0; v < N_DS; ++v)
        r.w[v] = scale_world(n, r.n_cmds);
    record_scale(&r);
    printf("commands at scale: %u {P,V} entities in a fixed archetype, %u commands of each kind "
           "(%u%%, in row order), ns per command\n", n, r.n_cmds, SCALE_PERCENT);
    double ratio[N_SCALE_KINDS];
    for (r.kind = 0; r.kind < N_SCALE_KINDS; ++r.kind)
        ratio[r.kind] = scale_kind(&r, n, passes);
    for (int k = 0; k < N_SCALE_KINDS; ++k) {
        printf("  %-12s apply / direct: min %.3f\n", sk_ops[k], ratio[k]);
        if (targets)
            bench_target("x", ratio[k], BENCH_AT_MOST, 1.5,
                         "apply %s / direct (min), %u commands in %u entities", sk_ops[k] + 5,
                         r.n_cmds, n);
    }
    for (int k = 0; k < N_SCALE_KINDS; ++k)
        dod_cmds_free(&r.cb[k]);
    for (int v = 0; v < N_DS; ++v)
        dod_world_destroy(r.w[v]);
    dod_world_destroy(base);
    wb_free(picked, r.n_cmds * sizeof(dod_entity));
    wb_free(values, r.n_cmds * sizeof(cmdw_pv_row));
}
