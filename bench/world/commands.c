/* Command buffers (dod/world_cmds.h, issue 19):
 *   record     n commands of one kind into a buffer that already has the room (cleared, not
 *              freed, between passes: the per-frame case), ns per command, target <= 10:
 *              spawn_zeroed, spawn_values ({P,V} from an array of two pointers),
 *              spawn_typed ({P,V} from a typed row), despawn, move, set (P)
 *   despawn    n despawns of n {P,V} rows in creation order: direct dod_world_despawn calls
 *              against one dod_world_apply of a buffer holding them (recorded untimed), each on
 *              a fresh world in the same state; ratio of minima and of medians, target <= 2 */
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
