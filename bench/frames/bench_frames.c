/* bench_frames: the seed's snapshot complaint, measured.
 *
 * 1. The strategy tick, phase by phase, in its three forms alternating tick by tick (each
 *    tick's first form in turn): on a table (examples/strategy_tick.c's loop on
 *    examples/strategy_world.h: the main thread's march, table copy, index rebuild (both
 *    indexes, on the pool) and publish), by hand on plain arrays (examples/plain_tick.h, in
 *    plain_tick.c: the world's game without the world, the baseline it is measured against:
 *    the six systems as loops, the arrays' copy, both index builds, publish) and on the world
 *    (examples/world_tick.c's loop on examples/world_tick.h, in world_tick.c: the systems on
 *    the schedule, the world's copy, both index builds, publish); then, on the frame just
 *    published, each worker's job in turn on this thread: AI (every army's strength and
 *    morale), path (4 routes), UI (who stands in 256 cells). Prints min / median over the
 *    ticks, and the main thread's share of a tick (update + copy + rebuild, summed per tick),
 *    and appends one JSON line per tick to bench/results/frames.jsonl ("tick": the table's,
 *    "world_tick": the world's, "plain_tick": the plain arrays').
 * 2. Alternating in one process, the snapshot the naive game took (a deep copy of the
 *    vector-of-vectors index, here an array of {ptr, len, cap} growable lists, under a
 *    pthread mutex) against handing out a dod frame: begin + publish when the index is built
 *    straight into the frame, and dod_csr_copy + publish when it is copied from live data.
 *    Reader threads acquire and release frames the whole time; the largest acquire latency
 *    they saw is reported (acquire is one fetch_add: they never wait for the writer).
 * Target: publish / deep copy <= 0.05 (PASS or MISS). Exits 0 on a timing miss; non-zero
 * only when something failed. */
#define _POSIX_C_SOURCE 200809L
#include <dod/dod.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench.h"
#include "frames_bench.h"
#include "regiments.h"
#include "../../examples/strategy_world.h"

/* ---- 1. the tick ---- */
/* the JSON keys, and the units: publish, far below a millisecond, in microseconds */
enum { TABLE, WORLD, PLAIN, N_FORMS }; /* the forms of the tick */
static const char *const form_case[N_FORMS] = { "tick", "world_tick", "plain_tick" };
static const char *const phase_key[N_FORMS][N_PHASES] = {
    { "move_ms", "copy_ms", "rebuild_ms", "publish_us", "AI_ms", "path_ms", "UI_ms" },
    { "systems_ms", "copy_ms", "rebuild_ms", "publish_us", "AI_ms", "path_ms", "UI_ms" },
    { "systems_ms", "copy_ms", "rebuild_ms", "publish_us", "AI_ms", "path_ms", "UI_ms" },
};
static const char *const phase_name[N_PHASES] = { "update", "copy", "rebuild", "publish (us)",
                                                  "AI", "path", "UI" };

typedef struct tick_bench {
    world world;
    world_ring ring;
    const world_frame *held; /* the frame the jobs read */
    tick_form form;
} tick_bench;

/* The table's tick as tick_form_timed takes it: world_fill_frame's steps, one by one. */
static int step_update(void *self, uint64_t t)
{
    world_march(&((tick_bench *)self)->world, t, 16);
    return 1;
}

static int step_copy(void *self, dod_frame *next)
{
    tick_bench *b = (tick_bench *)self;
    return dod_table_copy(&((world_frame *)next->data)->regiments, &b->world.regiments) == DOD_OK;
}

static int step_build(void *self, dod_frame *next, uint64_t t)
{
    tick_bench *b = (tick_bench *)self;
    world_frame *f = (world_frame *)next->data;
    (void)t; /* the table's frames count their publishes */
    int ok = world_build_indexes(&b->world, f) == DOD_OK;
    f->tick = next->seq;
    return ok;
}

static uint64_t step_open(void *self, const dod_frame *held)
{
    tick_bench *b = (tick_bench *)self;
    b->held = (const world_frame *)held->data;
    return b->held->tick;
}

static int step_report(void *self, float *strength, float *morale)
{
    return world_army_report(((tick_bench *)self)->held, strength, morale) == DOD_OK;
}

static map_march step_order(void *self, uint64_t seed)
{
    tick_bench *b = (tick_bench *)self;
    return world_order_march(&b->world, b->held, seed);
}

static uint32_t step_muster(void *self, uint32_t cell, float *hp)
{
    return world_muster(((tick_bench *)self)->held, cell, hp);
}

static const tick_steps table_steps = { step_update, step_copy,  step_build, step_open,
                                        step_report, step_order, step_muster };

static void tick_bench_free(tick_bench *b)
{
    tick_form_free(&b->form);
    world_ring_destroy(&b->ring);
    world_destroy(&b->world);
}

static int tick_bench_init(tick_bench *b, const world_size *size)
{
    return world_create(&b->world, *size, POOL_THREADS) == DOD_OK &&
           world_ring_create(&b->ring, &b->world, 3) == DOD_OK &&
           tick_form_init(&b->form, &table_steps, b, b->ring.frames, world_cells(&b->world),
                          size->armies);
}

/* One row of the table: min and median over the ticks of each form (v[form][tick], sorted
 * here), the world's against the table's and against the plain arrays'; the minima in min. */
static void tick_row(const char *name, double v[N_FORMS][MAX_TICKS], uint32_t ticks,
                     double min[N_FORMS])
{
    static const int column[N_FORMS] = { TABLE, PLAIN, WORLD };
    double med[N_FORMS];
    printf("  %-33s", name);
    for (int c = 0; c < N_FORMS; ++c) {
        int k = column[c];
        min[k] = bench_min(v[k], (int)ticks);
        med[k] = bench_median(v[k], (int)ticks);
        printf(" %9.3f %9.3f", min[k], med[k]);
    }
    printf("  %5.2f %5.2f  %5.2f %5.2f\n", min[WORLD] / min[TABLE], med[WORLD] / med[TABLE],
           min[WORLD] / min[PLAIN], med[WORLD] / med[PLAIN]);
}

static void tick_report(FILE *out, const world_size *size, uint32_t ticks,
                        double ms[N_FORMS][MAX_TICKS][N_PHASES], uint32_t routed,
                        uint32_t plain_routed)
{
    printf("strategy tick: %u x %u map, %u regiments in %u armies, update and rebuilds on %u "
           "threads (%u ticks, table, plain arrays and world alternating; ms, publish in us):\n",
           size->width, size->height, size->regiments, size->armies, (unsigned)POOL_THREADS,
           ticks);
    printf("  %-33s %9s %9s %9s %9s %9s %9s  %11s  %11s\n", "phase", "table min", "median",
           "plain min", "median", "world min", "median", "world/table", "world/plain");
    static double v[N_FORMS][MAX_TICKS];
    double min[N_PHASES][N_FORMS], main_min[N_FORMS], frame_min[N_FORMS];
    for (int p = 0; p < N_PHASES; ++p) {
        for (int k = 0; k < N_FORMS; ++k)
            for (uint32_t t = 0; t < ticks; ++t)
                v[k][t] = ms[k][t][p];
        tick_row(phase_name[p], v, ticks, min[p]);
    }
    for (int k = 0; k < N_FORMS; ++k)
        for (uint32_t t = 0; t < ticks; ++t)
            v[k][t] = ms[k][t][PH_UPDATE] + ms[k][t][PH_COPY] + ms[k][t][PH_REBUILD];
    tick_row("main thread (update+copy+rebuild)", v, ticks, main_min);
    for (int k = 0; k < N_FORMS; ++k)
        for (uint32_t t = 0; t < ticks; ++t) {
            v[k][t] = ms[k][t][PH_PUBLISH] * 1e-3;
            for (int p = 0; p < N_PHASES; ++p)
                v[k][t] += p == PH_PUBLISH ? 0.0 : ms[k][t][p];
        }
    tick_row("whole frame (every phase)", v, ticks, frame_min);
    printf("  (update: the table's march against the world's game, by hand and on the world; the "
           "world routed %u regiments by the end, the plain arrays %u)\n", routed, plain_routed);
    /* The world's tick against the table's, phase by phase; its frame against the same game by
     * hand on plain arrays; its main thread's share in ms at the seed's size (ratios of
     * minima). Publish is the same dod_frames_publish call in every form, a fraction of a
     * microsecond whose ratio is the clock's noise: no target. */
    for (int p = 0; p < N_PHASES; ++p)
        if (p != PH_PUBLISH)
            bench_target("x", min[p][WORLD] / min[p][TABLE], BENCH_AT_MOST, 1.0,
                         "strategy tick %s, world / table (min), %u regiments", phase_name[p],
                         size->regiments);
    bench_target("x", main_min[WORLD] / main_min[PLAIN], BENCH_AT_MOST, 1.05,
                 "strategy tick main thread, world / plain arrays (min), %u regiments",
                 size->regiments);
    bench_target("x", frame_min[WORLD] / frame_min[PLAIN], BENCH_AT_MOST, 1.05,
                 "strategy tick whole frame, world / plain arrays (min), %u regiments",
                 size->regiments);
    if (size->regiments >= 6u << 20)
        bench_target("ms", main_min[WORLD], BENCH_AT_MOST, 50.0,
                     "strategy tick main thread on the world, %u regiments, %u threads",
                     size->regiments, (unsigned)POOL_THREADS);
    for (int k = 0; k < N_FORMS; ++k)
        for (uint32_t t = 0; t < ticks; ++t) {
            fprintf(out, "{\"bench\":\"frames\",\"case\":\"%s\",\"tick\":%u,\"locations\":%u,"
                    "\"regiments\":%u,\"armies\":%u,\"threads\":%u", form_case[k],
                    t + 1, size->width * size->height, size->regiments, size->armies,
                    (unsigned)POOL_THREADS);
            for (int p = 0; p < N_PHASES; ++p)
                fprintf(out, ",\"%s\":%.4f", phase_key[k][p], ms[k][t][p]);
            fprintf(out, "}\n");
        }
}

/* Tick t of form k, timed into ms. */
static int timed_form(int k, tick_bench *table, plain_tick_bench *plain, world_tick_bench *w,
                      uint64_t t, double *ms)
{
    switch (k) {
    case TABLE: return tick_form_timed(&table->form, t, ms);
    case PLAIN: return plain_tick_timed(plain, t, ms);
    default: return world_tick_timed(w, t, ms);
    }
}

/* Returns 0 when something failed. */
static int bench_tick(FILE *out, int quick)
{
    const uint32_t side = quick ? 256 : 1024, ticks = quick ? 12 : MAX_TICKS;
    const world_size size = { side, side, 6 * side * side, side };
    static tick_bench b; /* static: its frame ring is too big for some stacks */
    static double ms[N_FORMS][MAX_TICKS][N_PHASES];
    int ok = tick_bench_init(&b, &size);
    plain_tick_bench *p = ok ? plain_tick_bench_create(side) : NULL;
    world_tick_bench *w = p ? world_tick_bench_create(side) : NULL;
    ok = ok && p && w;
    /* one tick of each form in turn, each tick starting with the next form */
    for (uint32_t t = 0; ok && t < ticks; ++t)
        for (uint32_t k = 0; ok && k < N_FORMS; ++k) {
            int form = (int)((t + k) % N_FORMS);
            ok = timed_form(form, &b, p, w, t + 1, ms[form][t]);
        }
    if (ok)
        tick_report(out, &size, ticks, ms, world_tick_routed(w), plain_tick_routed(p));
    world_tick_bench_destroy(w);
    plain_tick_bench_destroy(p);
    tick_bench_free(&b);
    return ok;
}

/* ---- 2. snapshot: the naive index, one growable list per location ---- */
typedef struct list {
    uint32_t *ptr;
    uint32_t len, cap;
} list;

static int naive_push(list *l, uint32_t v)
{
    if (l->len == l->cap) {
        uint32_t cap = l->cap ? l->cap * 2 : 1; /* grow like std::vector: 1, 2, 4, 8, ... */
        uint32_t *p = (uint32_t *)malloc((size_t)cap * sizeof(uint32_t));
        if (!p)
            return 0;
        if (l->len)
            memcpy(p, l->ptr, (size_t)l->len * sizeof(uint32_t));
        free(l->ptr);
        l->ptr = p;
        l->cap = cap;
    }
    l->ptr[l->len++] = v;
    return 1;
}

static void naive_free(list *lists, uint32_t n)
{
    for (uint32_t i = 0; lists && i < n; ++i)
        free(lists[i].ptr);
    free(lists);
}

/* The snapshot the naive game takes for a worker: a deep copy, under the world's mutex. */
static list *naive_snapshot(const list *src, uint32_t n, pthread_mutex_t *mutex)
{
    pthread_mutex_lock(mutex);
    list *dst = (list *)malloc((size_t)n * sizeof(list));
    for (uint32_t i = 0; dst && i < n; ++i) {
        dst[i] = src[i];
        dst[i].ptr = NULL;
        if (src[i].cap) {
            dst[i].ptr = (uint32_t *)malloc((size_t)src[i].cap * sizeof(uint32_t));
            if (dst[i].ptr)
                memcpy(dst[i].ptr, src[i].ptr, (size_t)src[i].len * sizeof(uint32_t));
        }
    }
    pthread_mutex_unlock(mutex);
    return dst;
}

/* ---- readers: acquire, look at the frame, release, as fast as they can ---- */
typedef struct readers {
    dod_frames *frames;
    atomic_int stop;
    double max_ns[2];
    long acquires[2], over_1us[2], failures[2];
} readers;

typedef struct reader_arg {
    readers *r;
    int id;
} reader_arg;

static void *reader_main(void *p)
{
    reader_arg *a = (reader_arg *)p;
    readers *r = a->r;
    while (!atomic_load_explicit(&r->stop, memory_order_relaxed)) {
        dod_frame h = { 0 };
        double t0 = bench_now_ms();
        dod_status st = dod_frames_acquire(r->frames, &h);
        double ns = (bench_now_ms() - t0) * 1e6;
        if (st != DOD_OK) {
            r->failures[a->id]++;
            break;
        }
        r->acquires[a->id]++;
        r->over_1us[a->id] += ns > 1000.0;
        r->max_ns[a->id] = ns > r->max_ns[a->id] ? ns : r->max_ns[a->id];
        /* a worker's short job on the frame: who stands in 64 locations */
        const dod_csr *idx = dod_frame_csr(&h, 0);
        uint64_t seen = 0;
        for (uint32_t k = 0; k < 64; ++k) {
            uint32_t loc = (uint32_t)((h.seq * 64 + k) * 2654435761u % idx->n_rows);
            for (const uint32_t *it = dod_csr_row_begin(idx, loc); it != dod_csr_row_end(idx, loc); ++it)
                seen += *it;
        }
        bench_sink += seen;
        if (dod_frames_release(r->frames, &h) != DOD_OK)
            r->failures[a->id]++;
        /* then the worker's other work: the two readers share two cores with the writer */
        struct timespec pause = { 0, 20000 };
        nanosleep(&pause, NULL);
    }
    return NULL;
}

/* Returns 0 when something failed. */
static int bench_snapshot(FILE *out, int quick)
{
    const uint32_t n_rows = quick ? 1u << 16 : 1u << 20, n_items = quick ? 6u << 16 : 6u << 20;
    const int reps = quick ? 5 : 9;
    Regiment *regs = (Regiment *)malloc((size_t)n_items * sizeof(Regiment));
    list *live = (list *)calloc(n_rows, sizeof(list));
    if (!regs || !live)
        return 0;
    regiments_generate(regs, n_items, n_rows, DIST_LONGTAIL);
    for (uint32_t i = 0; i < n_items; ++i)
        if (!naive_push(&live[regs[i].location], i))
            return 0;
    pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;

    dod_csr index;
    dod_csr_init(&index, NULL);
    dod_frames *frames = NULL;
    int failed = dod_csr_build(&index, n_rows, &regs[0].location, sizeof(Regiment), n_items) != DOD_OK ||
                 dod_frames_create_csr(&frames, 4, 1, NULL) != DOD_OK;
    /* warm every slot so steady-state copies allocate nothing, and publish a first frame */
    for (int k = 0; k < 4 && !failed; ++k) {
        dod_frame w = { 0 };
        failed |= dod_frames_begin(frames, &w) != DOD_OK ||
                  dod_csr_copy(dod_frame_csr(&w, 0), &index) != DOD_OK ||
                  dod_frames_publish(frames, &w) != DOD_OK;
    }
    if (failed) {
        fprintf(stderr, "bench_frames: setup failed\n");
        return 0;
    }

    readers rd;
    memset(&rd, 0, sizeof rd);
    rd.frames = frames;
    atomic_init(&rd.stop, 0);
    pthread_t th[2];
    reader_arg args[2] = { { &rd, 0 }, { &rd, 1 } };
    for (int i = 0; i < 2; ++i)
        if (pthread_create(&th[i], NULL, reader_main, &args[i]) != 0)
            return 0;

    double deep[16], publish[16], copy_publish[16];
    for (int rep = 0; rep < reps && !failed; ++rep) {
        double t0 = bench_now_ms();
        list *snap = naive_snapshot(live, n_rows, &mutex);
        double t1 = bench_now_ms();
        failed |= snap == NULL;
        naive_free(snap, n_rows);

        /* zero copy: the index was built into the frame; the hand-off is begin + publish */
        dod_frame w = { 0 };
        double t2 = bench_now_ms();
        dod_status st = dod_frames_begin(frames, &w);
        if (st == DOD_OK)
            st = dod_frames_publish(frames, &w);
        double t3 = bench_now_ms();
        failed |= st != DOD_OK;

        /* copy from the live index into the frame, then publish */
        double t4 = bench_now_ms();
        st = dod_frames_begin(frames, &w);
        if (st == DOD_OK)
            st = dod_csr_copy(dod_frame_csr(&w, 0), &index);
        if (st == DOD_OK)
            st = dod_frames_publish(frames, &w);
        double t5 = bench_now_ms();
        failed |= st != DOD_OK;
        deep[rep] = t1 - t0;
        publish[rep] = t3 - t2;
        copy_publish[rep] = t5 - t4;
    }
    atomic_store(&rd.stop, 1);
    for (int i = 0; i < 2; ++i)
        pthread_join(th[i], NULL);

    double deep_med = bench_median(deep, reps), pub_med = bench_median(publish, reps);
    double copy_med = bench_median(copy_publish, reps);
    double ratio = pub_med / deep_med, copy_ratio = copy_med / deep_med;
    double max_ns = rd.max_ns[0] > rd.max_ns[1] ? rd.max_ns[0] : rd.max_ns[1];
    long acquires = rd.acquires[0] + rd.acquires[1], over = rd.over_1us[0] + rd.over_1us[1];
    failed |= rd.failures[0] + rd.failures[1] != 0;

    printf("snapshot of %u locations / %u regiments (median of %d, alternating):\n", n_rows,
           n_items, reps);
    printf("  deep copy of vector-of-vectors under a mutex  %10.3f ms\n", deep_med);
    printf("  frame begin + publish (built into the frame)   %10.6f ms\n", pub_med);
    printf("  frame begin + dod_csr_copy + publish           %10.3f ms  (%.3f x deep copy)\n",
           copy_med, copy_ratio);
    printf("  readers: %ld acquires, max acquire %.0f ns, %ld over 1 us (acquire never waits: "
           "one fetch_add; the tail is the OS descheduling a reader)\n", acquires, max_ns, over);
    fprintf(out,
            "{\"bench\":\"frames\",\"case\":\"snapshot\",\"locations\":%u,\"regiments\":%u,"
            "\"reps\":%d,\"deep_copy_ms\":%.4f,\"publish_ms\":%.6f,\"copy_publish_ms\":%.4f,"
            "\"publish_over_deep\":%.3e,\"copy_publish_over_deep\":%.4f,"
            "\"acquires\":%ld,\"acquire_max_ns\":%.0f,\"acquires_over_1us\":%ld}\n",
            n_rows, n_items, reps, deep_med, pub_med, copy_med, ratio, copy_ratio, acquires,
            max_ns, over);
    bench_target("x", ratio, BENCH_AT_MOST, 0.05, "publish / deep copy under a mutex, %u locations",
                 n_rows);

    dod_frames_destroy(frames);
    dod_csr_free(&index);
    naive_free(live, n_rows);
    free(regs);
    return !failed;
}

int main(void)
{
    int quick = bench_quick();
    FILE *out = bench_begin("frames", "frames");
    if (!out)
        return bench_end(1);
    int ok = bench_tick(out, quick);
    ok &= bench_snapshot(out, quick);
    if (!ok)
        fprintf(stderr, "bench_frames: a dod call failed\n");
    return bench_end(!ok);
}
