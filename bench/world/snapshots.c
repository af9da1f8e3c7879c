/* The world's snapshots (dod/world_io.h) at n entities of the seed's three types (the world of
 * seed_update.c: A and B fixed, C chunked), each alternately with its baseline, min and median
 * of the passes:
 *   copy     dod_world_copy into a world that already holds the blocks (a frame's world in
 *            steady state), against one memcpy of the same live bytes (the entity index, every
 *            row's id and components) between two held buffers
 *   publish  dod_frames_begin, dod_world_copy into the frame's world, dod_frames_publish, against
 *            the seed's snapshot: the OOP world (its IEntity objects) deep-copied under a
 *            std::mutex (oop_snapshot), the previous snapshot freed outside the timing, as
 *            bench/frames frees the index's
 *   copy_changed  dod_world_copy_with(dst, src, DOD_WORLD_COPY_CHANGED, one thread) into a dst
 *            holding a copy of src (changed_bench): after nothing changed (its cost is the walk
 *            over archetypes and blocks: absolute microseconds); after one column of one
 *            archetype was written and declared (dod_world_touch), against a memcpy of that
 *            column's live bytes; after a despawn and a spawn in every archetype (every row and
 *            the entity index changed), against a memcpy of every live byte and the index
 *   copy_full  the whole copy (dod_world_copy_with, no flags) on a 2-thread pool against the
 *            same on one thread (informational)
 *            Before every run the change is made again (the column written and touched, a
 *            despawn and a spawn), so each pass copies the same bytes, and the caches are
 *            emptied (wb_evict_caches), so neither a copy nor its memcpy finds the other's bytes
 *   first_copy  the first copy into each slot of fresh frames against the next ones, frames made
 *            from the desc or from the live world (first_copy_bench; informational)
 * Targets at 1M: copy <= 1.3x memcpy, publish <= 0.05x the deep copy; copy_changed: nothing
 * <= 50 us, one column and everything <= 1.3x their memcpy. A copy or snapshot that differs
 * from its source fails the program. */
#include <string.h>
#include <dod/world.h>
#include "oop.h"
#include "world_bench.h"
#include "world_layout.h"

size_t world_live_bytes(const dod_world *w)
{
    size_t bytes = (size_t)w->head.n_slots * sizeof(uint64_t);
    for (uint32_t i = 0; i < w->n_archetypes; ++i) {
        const dod__world_arch *a = &w->arch[i];
        bytes += (size_t)a->n_rows * (sizeof(dod_entity) + w->row_bytes[i]);
    }
    return bytes;
}

int world_same_rows(const dod_world *a, const dod_world *b, int with_tag)
{
    const uint64_t mask = with_tag ? UINT64_MAX : ((uint64_t)1 << 48) - 1;
    if (a->head.n_slots != b->head.n_slots || a->free_head != b->free_head ||
        a->n_free != b->n_free ||
        memcmp(a->head.slots, b->head.slots, a->head.n_slots * sizeof(uint64_t)) != 0)
        return 0;
    for (uint32_t i = 0; i < a->n_archetypes; ++i) {
        const dod__world_arch *x = &a->arch[i], *y = &b->arch[i];
        if (x->n_rows != y->n_rows)
            return 0;
        for (uint32_t blk = 0; blk < dod__world_used_blocks(x); ++blk) {
            uint32_t n = dod__world_block_rows(x, blk);
            const dod_entity *ix = dod__world_ids(x->place->blocks[blk]);
            const dod_entity *iy = dod__world_ids(y->place->blocks[blk]);
            for (uint32_t r = 0; r < n; ++r)
                if ((ix[r].bits & mask) != (iy[r].bits & mask))
                    return 0;
            for (uint32_t k = 0; k < x->n_cols; ++k)
                if (memcmp(dod__world_column(x, blk, k), dod__world_column(y, blk, k),
                           n * x->cols[k].size) != 0)
                    return 0;
        }
    }
    return 1;
}

enum { V_COPY, V_MEMCPY, N_COPY_VARIANTS };
enum { V_PUBLISH, V_DEEP_COPY, N_PUBLISH_VARIANTS };
static const char *const copy_names[N_COPY_VARIANTS] = { "world_copy", "memcpy" };
static const char *const publish_names[N_PUBLISH_VARIANTS] = { "copy_publish", "oop_mutex" };

typedef struct snap_run {
    const dod_world *live;
    dod_world *copy;
    unsigned char *from, *to; /* the memcpy's held buffers */
    size_t bytes;
    dod_frames *frames;
    oop_world *oop;       /* the live OOP world */
    oop_lock *lock;
    oop_world *snapshot; /* the latest deep copy */
    int failed;
} snap_run;

static void run_copy(void *ctx, int v)
{
    snap_run *r = (snap_run *)ctx;
    if (v == V_COPY)
        r->failed |= dod_world_copy(r->copy, r->live) != DOD_OK;
    else
        memcpy(r->to, r->from, r->bytes);
}

static void publish_prepare(void *ctx, int v)
{
    snap_run *r = (snap_run *)ctx;
    if (v == V_DEEP_COPY) { /* the previous snapshot goes outside the timing */
        oop_destroy(r->snapshot);
        r->snapshot = NULL;
    }
}

static void run_publish(void *ctx, int v)
{
    snap_run *r = (snap_run *)ctx;
    if (v == V_DEEP_COPY) {
        r->snapshot = oop_snapshot(r->oop, r->lock);
        r->failed |= r->snapshot == NULL;
        return;
    }
    dod_frame f = { 0 };
    dod_status st = dod_frames_begin(r->frames, &f);
    if (st == DOD_OK)
        st = dod_world_copy(dod_frame_world(&f), r->live);
    if (st == DOD_OK)
        st = dod_frames_publish(r->frames, &f);
    r->failed |= st != DOD_OK;
}

/* The latest frame's world is the live one, handle for handle. */
static int latest_is_live(const snap_run *r)
{
    dod_frame f = { 0 };
    if (dod_frames_acquire(r->frames, &f) != DOD_OK)
        return 0;
    int same = world_same_rows(dod_frame_world_read(&f), r->live, 1);
    return dod_frames_release(r->frames, &f) == DOD_OK && same;
}

static int snapshot_matches(const oop_world *snap, const seed_population *s)
{
    int same = snap != NULL;
    for (int t = 0; t < SEED_TYPES && same; ++t) {
        float *xy = (float *)wb_alloc(s->count[t] * 2 * sizeof(float));
        oop_positions(snap, t, xy);
        same = memcmp(xy, s->pos[t], s->count[t] * sizeof(position)) == 0;
        wb_free(xy, s->count[t] * 2 * sizeof(float));
    }
    return same;
}

/* ---- copies of what changed ---- */

enum { C_NOTHING, C_COLUMN, C_COLUMN_MEMCPY, C_ALL, C_ALL_MEMCPY, C_FULL_T1, C_FULL_T2,
       N_CHANGED_VARIANTS };
static const char *const changed_names[N_CHANGED_VARIANTS] = {
    "nothing", "column", "column_memcpy", "all", "all_memcpy", "t1", "t2"
};

typedef struct changed_run {
    dod_world *src, *dst;
    const dod_executor *exec2;
    uint32_t position;         /* the component of entity_a's first column */
    unsigned char *from, *to;  /* the memcpys' held buffers, all_bytes each */
    size_t column_bytes, all_bytes;
    int failed;
} changed_run;

/* Write entity_a's positions (x + 1) and declare the write, as a system outside a schedule. */
static void write_column(changed_run *r)
{
    void *cols[1 + 4];
    uint32_t m;
    for (uint32_t b = 0; (m = dod_world_block(r->src, SEED_A, b, cols)) > 0; ++b) {
        position *p = (position *)cols[1];
        for (uint32_t i = 0; i < m; ++i)
            p[i].x += 1.0f;
    }
    wb_check(dod_world_touch(r->src, SEED_A, r->position), "touch");
}

/* The same writes to the bytes the column's memcpy copies. */
static void write_from(changed_run *r)
{
    float *x = (float *)(void *)r->from;
    for (size_t i = 0; i < r->column_bytes / sizeof(float); i += 2)
        x[i] += 1.0f;
}

/* A despawn (of row 0: the last row moves into it) and a spawn in every archetype: every row of
 * the world and the entity index changed, the same bytes live as before. */
static void respawn_all(changed_run *r)
{
    for (uint32_t t = 0; t < SEED_TYPES; ++t) {
        void *cols[1 + 4];
        if (dod_world_block(r->src, t, 0, cols) == 0)
            continue;
        wb_check(dod_world_despawn(r->src, *(const dod_entity *)cols[0]), "changed despawn");
        wb_check(dod_world_spawn(r->src, t, NULL), "changed spawn");
    }
}

/* Untimed: dst still holds a copy of src (every copy of the last run left it so), then the
 * change this variant copies, then the caches emptied. */
static void changed_prepare(void *ctx, int v)
{
    changed_run *r = (changed_run *)ctx;
    r->failed |= !world_same_rows(r->dst, r->src, 1);
    if (v == C_COLUMN)
        write_column(r);
    else if (v == C_COLUMN_MEMCPY)
        write_from(r);
    else if (v == C_ALL)
        respawn_all(r);
    wb_evict_caches(ctx, v);
}

static void run_changed(void *ctx, int v)
{
    changed_run *r = (changed_run *)ctx;
    dod_world_copy_desc d = { NULL, DOD_WORLD_COPY_CHANGED };
    if (v == C_COLUMN_MEMCPY || v == C_ALL_MEMCPY) {
        memcpy(r->to, r->from, v == C_COLUMN_MEMCPY ? r->column_bytes : r->all_bytes);
        return;
    }
    if (v == C_FULL_T1 || v == C_FULL_T2) {
        d.exec = v == C_FULL_T2 ? r->exec2 : NULL;
        d.flags = 0;
    }
    r->failed |= dod_world_copy_with(r->dst, r->src, &d) != DOD_OK;
}

/* Print every variant, the ratios and (at 1M) the targets. */
static void report_changed(size_t n, double t[][WB_MAX_PASSES], int passes)
{
    double mn[N_CHANGED_VARIANTS], md[N_CHANGED_VARIANTS];
    for (int v = 0; v < N_CHANGED_VARIANTS; ++v) {
        mn[v] = wb_emit(v >= C_FULL_T1 ? "copy_full" : "copy_changed", changed_names[v], n,
                        (double)n, t[v], passes);
        md[v] = bench_median(t[v], passes);
    }
    double us = bench_min(t[C_NOTHING], passes) * 1e3; /* the copy's whole time */
    printf("  nothing changed: min %.1f us, median %.1f us\n", us, md[C_NOTHING] * 1e3);
    printf("  one column / memcpy: min %.3f, median %.3f; everything / memcpy: min %.3f, "
           "median %.3f\n",
           mn[C_COLUMN] / mn[C_COLUMN_MEMCPY], md[C_COLUMN] / md[C_COLUMN_MEMCPY],
           mn[C_ALL] / mn[C_ALL_MEMCPY], md[C_ALL] / md[C_ALL_MEMCPY]);
    printf("  full copy 2 threads / 1 thread: min %.3f, median %.3f\n",
           mn[C_FULL_T2] / mn[C_FULL_T1], md[C_FULL_T2] / md[C_FULL_T1]);
    if (n < WB_1M)
        return;
    bench_target("us", us, BENCH_AT_MOST, 50, "copy changed, nothing changed (min), n %zu", n);
    bench_target("x", mn[C_COLUMN] / mn[C_COLUMN_MEMCPY], BENCH_AT_MOST, 1.3,
                 "copy changed, one column / its memcpy (min), n %zu", n);
    bench_target("x", mn[C_ALL] / mn[C_ALL_MEMCPY], BENCH_AT_MOST, 1.3,
                 "copy changed, everything / memcpy (min), n %zu", n);
}

/* dod_world_copy_with after each kind of change, src and dst the seed's world at s. */
static void changed_bench(const seed_population *s, int passes)
{
    const wb_layout defaults = { 0, 0 };
    dod_archetype_desc arch[SEED_TYPES];
    dod_world_desc d = seed_world_desc(s, 0, defaults, arch);
    dod_threadpool *pool = NULL;
    wb_check(dod_threadpool_create(&pool, 2, NULL), "changed pool");
    dod_executor exec2 = dod_threadpool_executor(pool);
    changed_run r;
    memset(&r, 0, sizeof r);
    r.exec2 = &exec2;
    r.position = arch[SEED_A].components[0];
    r.src = seed_world(s, 0, defaults);
    wb_check(dod_world_create(&r.dst, &d), "changed world");
    wb_check(dod_world_copy(r.dst, r.src), "changed first copy");
    r.column_bytes = dod_world_count(r.src, SEED_A) * sizeof(position);
    r.all_bytes = world_live_bytes(r.src);
    r.from = (unsigned char *)wb_alloc(r.all_bytes);
    r.to = (unsigned char *)wb_alloc(r.all_bytes);
    memset(r.from, 1, r.all_bytes);
    memset(r.to, 2, r.all_bytes);
    printf("copy_changed: the seed's mix at n %zu; a column %.1f MB, everything %.1f MB\n", s->n,
           (double)r.column_bytes / 1e6, (double)r.all_bytes / 1e6);
    double t[N_CHANGED_VARIANTS][WB_MAX_PASSES];
    wb_alternate(N_CHANGED_VARIANTS, passes, changed_prepare, run_changed, &r, t);
    wb_require(!r.failed && world_same_rows(r.dst, r.src, 1), "changed copy differs from source");
    report_changed(s->n, t, passes);
    wb_free(r.from, r.all_bytes);
    wb_free(r.to, r.all_bytes);
    dod_world_destroy(r.dst);
    dod_world_destroy(r.src);
    dod_threadpool_destroy(pool);
}

/* The first copy into each slot of a fresh frames object against the next copies (the
 * snapshots' start-up): frames from the desc alone (the first copy into a slot allocates the
 * chunked archetype's blocks and the entity index and faults their pages), from the live world
 * (dod_world_frames_create_from: held, the pages still faulted by the first copy), and from it
 * with DOD_WORLD_PREFAULT (held and touched by the creation). Informational: each one's
 * creation, the mean of its first copies (begin, copy, publish) into the 3 slots and of the
 * next 3, medians of the passes. */
enum { F_DESC, F_FROM, F_PREFAULT, N_FIRST_VARIANTS };
static const char *const first_names[N_FIRST_VARIANTS] = { "frames_create", "create_from",
                                                           "create_from+prefault" };

static double publish_ms(dod_frames *frames, const dod_world *live)
{
    double t0 = bench_now_ms();
    dod_frame f = { 0 };
    wb_check(dod_frames_begin(frames, &f), "first copy begin");
    wb_check(dod_world_copy(dod_frame_world(&f), live), "first copy");
    wb_check(dod_frames_publish(frames, &f), "first copy publish");
    return bench_now_ms() - t0;
}

static void first_copy_bench(const dod_world_desc *d, const dod_world *live, int passes)
{
    printf("first copy into a fresh frame slot, 3 slots (ms, medians of %d passes):\n", passes);
    for (int v = 0; v < N_FIRST_VARIANTS; ++v) {
        double create[WB_MAX_PASSES], first[WB_MAX_PASSES], next[WB_MAX_PASSES];
        for (int p = 0; p < passes; ++p) {
            dod_world_desc dv = *d;
            if (v == F_PREFAULT)
                dv.flags |= DOD_WORLD_PREFAULT;
            dod_frames *frames = NULL;
            double t0 = bench_now_ms();
            wb_check(v == F_DESC ? dod_world_frames_create(&frames, 3, &dv)
                                 : dod_world_frames_create_from(&frames, 3, &dv, live),
                     "first copy frames");
            create[p] = bench_now_ms() - t0;
            first[p] = next[p] = 0;
            for (int k = 0; k < 3; ++k)
                first[p] += publish_ms(frames, live) / 3;
            for (int k = 0; k < 3; ++k)
                next[p] += publish_ms(frames, live) / 3;
            dod_frame f = { 0 };
            wb_check(dod_frames_acquire(frames, &f), "first copy acquire");
            wb_require(world_same_rows(dod_frame_world_read(&f), live, 1),
                       "first copy differs from source");
            wb_check(dod_frames_release(frames, &f), "first copy release");
            dod_world_frames_destroy(frames);
        }
        double c = bench_median(create, passes), fi = bench_median(first, passes);
        double ne = bench_median(next, passes);
        printf("  %-21s create %8.2f  first copy %8.2f  next copy %7.2f  first / next %6.1fx\n",
               first_names[v], c, fi, ne, fi / ne);
    }
}

void snapshots_bench(size_t n, int passes)
{
    seed_population s;
    seed_population_init(&s, n);
    const float *pos[SEED_TYPES], *mov[SEED_TYPES];
    for (int t = 0; t < SEED_TYPES; ++t) {
        pos[t] = (const float *)s.pos[t];
        mov[t] = (const float *)s.mov[t];
    }
    const wb_layout defaults = { 0, 0 };
    dod_archetype_desc arch[SEED_TYPES];
    dod_world_desc d = seed_world_desc(&s, 0, defaults, arch);
    snap_run r;
    memset(&r, 0, sizeof r);
    dod_world *live = seed_world(&s, 0, defaults);
    r.live = live;
    wb_check(dod_world_create(&r.copy, &d), "snapshot world");
    wb_check(dod_world_copy(r.copy, live), "first copy"); /* the blocks, held from now on */
    r.bytes = world_live_bytes(live);
    r.from = (unsigned char *)wb_alloc(r.bytes);
    r.to = (unsigned char *)wb_alloc(r.bytes);
    memset(r.from, 1, r.bytes);
    memset(r.to, 2, r.bytes);
    wb_check(dod_world_frames_create(&r.frames, 3, &d), "world frames");
    for (int k = 0; k < 3; ++k) /* every slot's world holds its blocks */
        run_publish(&r, V_PUBLISH);
    r.oop = oop_create(s.order, n, pos, mov, 0);
    r.lock = oop_lock_create();
    if (!r.oop || !r.lock)
        wb_check(DOD_E_NOMEM, "oop world");
    printf("snapshots: the seed's mix at n %zu, %.1f live bytes per entity (%.1f MB)\n", n,
           (double)r.bytes / (double)n, (double)r.bytes / 1e6);

    double t[N_COPY_VARIANTS][WB_MAX_PASSES];
    wb_alternate(N_COPY_VARIANTS, passes, NULL, run_copy, &r, t);
    double mn[N_COPY_VARIANTS], md[N_COPY_VARIANTS];
    for (int v = 0; v < N_COPY_VARIANTS; ++v) {
        mn[v] = wb_emit("copy", copy_names[v], n, (double)n, t[v], passes);
        md[v] = bench_median(t[v], passes);
    }
    wb_require(!r.failed && world_same_rows(r.copy, live, 1), "world copy differs from source");
    printf("  copy / memcpy: min %.3f, median %.3f\n", mn[V_COPY] / mn[V_MEMCPY],
           md[V_COPY] / md[V_MEMCPY]);
    if (n >= WB_1M)
        bench_target("x", mn[V_COPY] / mn[V_MEMCPY], BENCH_AT_MOST, 1.3,
                     "copy world / memcpy (min), n %zu", n);

    double u[N_PUBLISH_VARIANTS][WB_MAX_PASSES];
    wb_alternate(N_PUBLISH_VARIANTS, passes, publish_prepare, run_publish, &r, u);
    for (int v = 0; v < N_PUBLISH_VARIANTS; ++v) {
        mn[v] = wb_emit("publish", publish_names[v], n, (double)n, u[v], passes);
        md[v] = bench_median(u[v], passes);
    }
    wb_require(!r.failed && latest_is_live(&r), "published world differs from source");
    wb_require(snapshot_matches(r.snapshot, &s), "oop snapshot differs from source");
    printf("  copy + publish / deep copy under a mutex: min %.4f, median %.4f\n",
           mn[V_PUBLISH] / mn[V_DEEP_COPY], md[V_PUBLISH] / md[V_DEEP_COPY]);
    if (n >= WB_1M)
        bench_target("x", mn[V_PUBLISH] / mn[V_DEEP_COPY], BENCH_AT_MOST, 0.05,
                     "publish world / oop deep copy (min), n %zu", n);

    changed_bench(&s, passes);
    first_copy_bench(&d, live, passes);

    oop_destroy(r.snapshot);
    oop_lock_destroy(r.lock);
    oop_destroy(r.oop);
    dod_world_frames_destroy(r.frames);
    wb_free(r.from, r.bytes);
    wb_free(r.to, r.bytes);
    dod_world_destroy(r.copy);
    dod_world_destroy(live);
    seed_population_free(&s);
}
