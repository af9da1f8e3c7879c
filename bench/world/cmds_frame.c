/* A frame of structural changes: a system despawns 10% of the entities (those whose handle
 * index is pick mod 10, a different tenth each frame) and spawns as many, through command
 * buffers applied after its phase, against the same changes made with direct calls after a
 * plain loop over the blocks that collected them:
 *   cmds_1t, cmds_2t  the system on a schedule on 1 / 2 threads, the buffers applied in task
 *                     order by dod_world_apply
 *   direct            the loop collects the handles and the new rows, then calls
 *                     dod_world_despawn and the typed spawn, in the same order
 * One archetype {Position, Velocity}, fixed at N rows. Both do the same changes in the same
 * order, so after the frames the worlds must hold the same bytes. ns per entity of the world. */
#include <string.h>
#include <dod/world.h>
#include "world_bench.h"

#define CF_COMPONENTS(C) C(position) C(velocity)
#define CF_PV(X) X(position) X(velocity)
#define CF_ARCHETYPES(A) A(pv, CF_PV, 1)
DOD_WORLD(cf, CF_COMPONENTS, CF_ARCHETYPES)

#define CF_FRAMES 21
enum { CF_CMDS_1T, CF_CMDS_2T, CF_DIRECT, CF_VARIANTS };
static const char *const cf_names[CF_VARIANTS] = { "cmds_1t", "cmds_2t", "direct" };

typedef struct cf_world {
    dod_world *w;
    dod_schedule *s;
    uint32_t pick; /* this frame's tenth */
} cf_world;

static int picked(dod_entity e, uint32_t pick)
{
    return (uint32_t)e.bits % 10u == pick;
}

/* The replacement of an entity that goes: its position mirrored, velocity (1, 1). */
static cf_pv_row replacement(const position *p)
{
    cf_pv_row r = { { p->y, p->x }, { 1.0f, 1.0f } };
    return r;
}

static void cull(const dod_system_task *t)
{
    const cf_world *c = (const cf_world *)t->ctx;
    const position *p = DOD_FIELD(&t->rows, cf, position);
    dod_status st = DOD_OK;
    for (uint32_t i = 0; i < t->rows.n && st == DOD_OK; ++i) {
        if (!picked(t->rows.entities[i], c->pick))
            continue;
        cf_pv_row r = replacement(&p[i]);
        const void *values[2] = { &r.position, &r.velocity };
        st = dod_cmds_despawn(t->cmds, t->rows.entities[i]);
        if (st == DOD_OK)
            st = dod_cmds_spawn(t->cmds, DOD_AID(cf, pv), values, NULL);
    }
    if (st != DOD_OK)
        *t->status = st;
}

static void cf_make(cf_world *c, size_t n)
{
    dod_world_desc d = cf_desc();
    dod_archetype_desc arch = d.archetypes[0];
    arch.capacity = (uint32_t)n;
    d.archetypes = &arch;
    wb_check(dod_world_create(&c->w, &d), "cmds frame world");
    for (size_t i = 0; i < n; ++i) {
        cf_pv_row r = { { (float)i, (float)(i % 1000) }, { 1.0f, 1.0f } };
        dod_entity e;
        wb_check(cf_pv_spawn(c->w, &r, &e), "cmds frame spawn");
    }
    static const uint32_t all[] = { DOD_CID(cf, position) };
    dod_system_desc sys = { .name = "cull", .fn = cull, .ctx = c, .all = all, .n_all = 1,
                            .flags = DOD_SYSTEM_COMMANDS | DOD_SYSTEM_PARALLEL };
    dod_schedule_desc sd = { .systems = &sys, .n_systems = 1 };
    wb_check(dod_schedule_create(&c->s, c->w, &sd), "cmds frame schedule");
}

/* The direct frame: the loop collects, then the calls. */
static void direct_frame(cf_world *c, dod_entity *ids, cf_pv_row *rows)
{
    size_t k = 0;
    cf_pv_cols b;
    for (uint32_t blk = 0; cf_pv_block(c->w, blk, &b); ++blk)
        for (uint32_t i = 0; i < b.n; ++i)
            if (picked(b.entities[i], c->pick)) {
                ids[k] = b.entities[i];
                rows[k++] = replacement(&b.position[i]);
            }
    for (size_t i = 0; i < k; ++i) {
        dod_entity e;
        wb_check(dod_world_despawn(c->w, ids[i]), "direct despawn");
        wb_check(cf_pv_spawn(c->w, &rows[i], &e), "direct spawn");
    }
}

/* The same rows, ids (less the tag) and components in both worlds. */
static int cf_same(const dod_world *x, const dod_world *y)
{
    cf_pv_cols a, b;
    for (uint32_t blk = 0;; ++blk) {
        int more = cf_pv_block(x, blk, &a);
        if (more != cf_pv_block(y, blk, &b) || (more && a.n != b.n))
            return 0;
        if (!more)
            return 1;
        for (uint32_t i = 0; i < a.n; ++i)
            if ((a.entities[i].bits ^ b.entities[i].bits) & 0xFFFFFFFFFFFFull)
                return 0;
        if (memcmp(a.position, b.position, a.n * sizeof *a.position) ||
            memcmp(a.velocity, b.velocity, a.n * sizeof *a.velocity))
            return 0;
    }
}

void cmds_frame_bench(size_t n)
{
    dod_threadpool *p1 = NULL, *p2 = NULL;
    wb_check(dod_threadpool_create(&p1, 1, NULL), "pool");
    wb_check(dod_threadpool_create(&p2, 2, NULL), "pool");
    dod_executor one = dod_threadpool_executor(p1), two = dod_threadpool_executor(p2);
    const dod_executor *exec[CF_VARIANTS] = { &one, &two, NULL };
    cf_world c[CF_VARIANTS];
    memset(c, 0, sizeof c);
    for (int v = 0; v < CF_VARIANTS; ++v)
        cf_make(&c[v], n);
    dod_entity *ids = (dod_entity *)wb_alloc(n * sizeof *ids);
    cf_pv_row *rows = (cf_pv_row *)wb_alloc(n * sizeof *rows);
    double t[CF_VARIANTS][CF_FRAMES];
    uint32_t applied = 0;
    for (int f = -1; f < CF_FRAMES; ++f) /* frame -1: a warm-up, untimed */
        for (int k = 0; k < CF_VARIANTS; ++k) {
            int v = (k + f + 1) % CF_VARIANTS;
            c[v].pick = (uint32_t)(f + 1) % 10u;
            dod_apply_result r = { 0, 0, 0 };
            double t0 = bench_now_ms();
            if (v == CF_DIRECT)
                direct_frame(&c[v], ids, rows);
            else
                wb_check(dod_schedule_run(c[v].s, c[v].w, exec[v], &r), "cmds frame run");
            if (f >= 0)
                t[v][f] = bench_now_ms() - t0;
            applied = r.applied > applied ? r.applied : applied;
        }
    printf("cmds frame, n %zu: despawn and spawn a tenth (%u commands at most), ns per entity\n",
           n, applied);
    double mn[CF_VARIANTS];
    for (int v = 0; v < CF_VARIANTS; ++v)
        mn[v] = wb_emit("cmds_frame", cf_names[v], n, (double)n, t[v], CF_FRAMES);
    printf("  cmds_1t / direct %.3f, cmds_2t / direct %.3f (min)\n", mn[CF_CMDS_1T] / mn[CF_DIRECT],
           mn[CF_CMDS_2T] / mn[CF_DIRECT]);
    wb_require(cf_same(c[CF_CMDS_1T].w, c[CF_DIRECT].w) && cf_same(c[CF_CMDS_2T].w, c[CF_DIRECT].w),
               "cmds frame: the buffered worlds equal the direct one");
    wb_require(applied > 0, "cmds frame: commands were applied");
    for (int v = 0; v < CF_VARIANTS; ++v) {
        dod_schedule_destroy(c[v].s);
        dod_world_destroy(c[v].w);
    }
    wb_free(ids, n * sizeof *ids);
    wb_free(rows, n * sizeof *rows);
    dod_threadpool_destroy(p2);
    dod_threadpool_destroy(p1);
}
