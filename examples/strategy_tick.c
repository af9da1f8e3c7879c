/* strategy_tick: the seed's game loop. The main thread runs the tick and publishes a frame;
 * AI, pathfinding and UI workers read the previous frame without locks.
 *
 *   strategy_tick [--locations N] [--regiments N] [--armies N] [--threads N] [--ticks N]
 *                 [--neighbours 4|8] [--quick]
 *
 * The map is a grid of --locations cells whose 4- or 8-neighbour adjacency is an index
 * (dod_csr, built once from the edge list by a value build) with a per-edge cost column.
 * Regiments live in a dod_table (location, army, health, mood, speed). Each tick the main
 * thread moves some regiments, copies the table into the next frame, rebuilds location ->
 * regiments and army -> regiments straight into the frame on the thread pool, and publishes
 * it. The workers on the latest published frame:
 *   AI    per-army strength (sum of health) and morale (mean mood) by segmented reductions;
 *   path  routes for a few armies over the adjacency (A*), avoiding crowded locations;
 *   UI    who stands at random locations.
 * Each checks what it reads (the frame's stamp, written last; index against table; sums
 * against a walk of the rows; routes against the map). The exit status is 0 only if every
 * check held. */
#define _POSIX_C_SOURCE 200809L
#include <dod/dod.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { COL_LOCATION, COL_ARMY, COL_HEALTH, COL_MOOD, COL_SPEED, N_COLS };
enum { ROLE_AI, ROLE_PATH, ROLE_UI, N_ROLES };
static const char *const role_name[N_ROLES] = { "AI", "path", "UI" };

typedef struct options {
    uint32_t locations, regiments, armies, threads, ticks, neighbours;
} options;

/* What a frame holds: the regiments as of the tick, both indexes, and a stamp written last. */
typedef struct world_frame {
    dod_table regiments;
    dod_csr by_location;
    dod_csr by_army;
    uint64_t tick;
    uint64_t stamp;
} world_frame;

typedef struct map {
    uint32_t width, height, n;
    int diagonal;
    dod_csr adjacency; /* items: neighbour locations */
    float *cost;       /* parallel to adjacency.items: the cost of that step */
} map;

typedef struct worker {
    struct world *world;
    uint32_t id;
    pthread_t thread;
    int roles[N_ROLES];
    double *ms;             /* [N_ROLES][ticks + 1]: time per role per frame seq, -1 = skipped */
    double acquire_max_ns;
    long frames, failures, routes, unreachable, looked_up;
    dod_graph_scratch scratch;
    float *sum, *lo, *hi, *mean; /* per army */
} worker;

typedef struct world {
    options opt;
    map map;
    dod_frames *frames;
    world_frame *slots;
    uint32_t n_slots;
    uint32_t *army_size; /* regiments per army (armies never change) */
    uint32_t crowd_limit;
    dod_arena build_scratch; /* the main thread's: every slot's rebuild borrows its scratch */
    atomic_int stop; /* set after the last publish: workers finish the latest frame, then leave */
    atomic_ullong last_ns[N_ROLES];
} world;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static uint64_t frame_stamp(uint64_t tick, uint32_t n_loc_items, uint32_t n_army_items)
{
    return mix(tick * 0x100000001ull ^ ((uint64_t)n_loc_items << 20) ^ n_army_items);
}

/* ---- the map ---------------------------------------------------------------------------- */

static float terrain(uint32_t loc)
{
    return 1.0f + (float)(mix(loc) % 4);
}

static dod_status map_build(map *m, const options *o, const dod_executor *exec)
{
    uint32_t w = (uint32_t)sqrt((double)o->locations);
    m->width = w;
    m->height = o->locations / w;
    m->n = m->width * m->height;
    m->diagonal = o->neighbours == 8;
    dod_csr_init(&m->adjacency, NULL);
    size_t max_edges = (size_t)m->n * (m->diagonal ? 8 : 4);
    uint32_t *src = (uint32_t *)malloc(max_edges * sizeof(uint32_t));
    uint32_t *dst = (uint32_t *)malloc(max_edges * sizeof(uint32_t));
    m->cost = (float *)malloc(max_edges * sizeof(float));
    if (!src || !dst || !m->cost) {
        free(src);
        free(dst);
        return DOD_E_NOMEM;
    }
    uint32_t n_edges = 0;
    for (uint32_t y = 0; y < m->height; ++y)
        for (uint32_t x = 0; x < m->width; ++x)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    if ((dx == 0 && dy == 0) || (!m->diagonal && dx != 0 && dy != 0))
                        continue;
                    long nx = (long)x + dx, ny = (long)y + dy;
                    if (nx < 0 || ny < 0 || nx >= (long)m->width || ny >= (long)m->height)
                        continue;
                    src[n_edges] = y * m->width + x;
                    dst[n_edges] = (uint32_t)ny * m->width + (uint32_t)nx;
                    ++n_edges;
                }
    dod_csr_desc d;
    memset(&d, 0, sizeof d);
    d.n_rows = m->n;
    d.n_items = n_edges;
    d.keys = src;
    d.values = dst;
    d.value_bound = m->n;
    d.exec = exec;
    dod_status st = dod_csr_build_desc(&m->adjacency, &d);
    free(src);
    free(dst);
    if (st != DOD_OK)
        return st;
    for (uint32_t v = 0; v < m->n; ++v)
        for (uint32_t k = m->adjacency.offsets[v]; k < m->adjacency.offsets[v + 1]; ++k) {
            uint32_t u = m->adjacency.items[k];
            int diag = u % m->width != v % m->width && u / m->width != v / m->width;
            m->cost[k] = terrain(u) * (diag ? 1.5f : 1.0f);
        }
    return DOD_OK;
}

static void map_free(map *m)
{
    dod_csr_free(&m->adjacency);
    free(m->cost);
}

/* Admissible and consistent: every step costs >= 1 and changes the (Chebyshev or Manhattan)
 * distance by at most 1. */
static float grid_distance(void *ctx, uint32_t node, uint32_t target)
{
    const map *m = (const map *)ctx;
    long dx = labs((long)(node % m->width) - (long)(target % m->width));
    long dy = labs((long)(node / m->width) - (long)(target / m->width));
    return (float)(m->diagonal ? (dx > dy ? dx : dy) : dx + dy);
}

/* ---- the regiments ---------------------------------------------------------------------- */

static dod_status regiments_create(dod_table *t, const options *o, const map *m)
{
    const dod_table_column_desc cols[N_COLS] = {
        { 4, 4, 0 }, { 4, 4, 0 }, { 4, 4, 1 }, { 4, 4, 1 }, { 4, 4, 1 },
    };
    dod_status st = dod_table_init(t, cols, N_COLS, NULL);
    if (st == DOD_OK)
        st = dod_table_reserve(t, o->regiments);
    for (uint32_t i = 0; st == DOD_OK && i < o->regiments; ++i) {
        dod_table_handle h;
        st = dod_table_push(t, &h);
    }
    if (st != DOD_OK)
        return st;
    uint32_t *loc = (uint32_t *)dod_table_column(t, COL_LOCATION);
    uint32_t *army = (uint32_t *)dod_table_column(t, COL_ARMY);
    float *health = (float *)dod_table_column(t, COL_HEALTH);
    float *mood = (float *)dod_table_column(t, COL_MOOD);
    float *speed = (float *)dod_table_column(t, COL_SPEED);
    /* armies stand together, each in a square around its home cell about as dense as the map
     * on average; where armies overlap, locations get crowded */
    double per_cell = (double)o->regiments / m->n, per_army = (double)o->regiments / o->armies;
    uint32_t side = (uint32_t)sqrt(per_army / (per_cell > 1.0 ? per_cell : 1.0));
    side = side < 3 ? 3 : side > m->width ? m->width : side;
    for (uint32_t i = 0; i < o->regiments; ++i) {
        uint32_t a = (uint32_t)((uint64_t)i * o->armies / o->regiments);
        uint64_t home = mix(a + 12345), r = mix(i);
        uint32_t hx = (uint32_t)(home % m->width), hy = (uint32_t)((home >> 32) % m->height);
        uint32_t x = (hx + (uint32_t)(r % side)) % m->width;
        uint32_t y = (hy + (uint32_t)((r >> 8) % side)) % m->height;
        loc[i] = y * m->width + x;
        army[i] = a;
        health[i] = (float)((r >> 16) % 1000) / 1000.0f;
        mood[i] = (float)((r >> 32) % 1000) / 1000.0f;
        speed[i] = 0.5f + (float)((r >> 48) % 100) / 100.0f;
    }
    return DOD_OK;
}

/* One regiment in `every` steps to a neighbouring cell, tired by the march. */
static void regiments_move(dod_table *t, const map *m, uint64_t tick, uint32_t every)
{
    uint32_t n = dod_table_count(t);
    uint32_t *loc = (uint32_t *)dod_table_column(t, COL_LOCATION);
    float *mood = (float *)dod_table_column(t, COL_MOOD);
    for (uint32_t i = 0; i < n; ++i) {
        uint64_t r = mix(tick * 0x9E3779B97F4A7C15ull + i);
        if (r % every != 0)
            continue;
        uint32_t len = dod_csr_row_len(&m->adjacency, loc[i]);
        loc[i] = dod_csr_row_begin(&m->adjacency, loc[i])[(r >> 32) % len];
        mood[i] = mood[i] > 0.01f ? mood[i] - 0.01f : 0.0f;
    }
}

/* ---- the workers ------------------------------------------------------------------------ */

static long run_ai(worker *w, const world_frame *f)
{
    const world *wd = w->world;
    long bad = 0;
    const float *health = (const float *)dod_table_column(&f->regiments, COL_HEALTH);
    const float *mood = (const float *)dod_table_column(&f->regiments, COL_MOOD);
    uint32_t n = dod_table_count(&f->regiments);
    dod_reduce_out strength = { w->sum, NULL, w->hi, NULL }, morale = { NULL, w->lo, NULL, w->mean };
    bad += dod_reduce_rows(&f->by_army, health, sizeof(float), n, &strength, NULL) != DOD_OK;
    bad += dod_reduce_rows(&f->by_army, mood, sizeof(float), n, &morale, NULL) != DOD_OK;
    for (uint32_t a = 0; a < wd->opt.armies; ++a)
        bad += dod_csr_row_len(&f->by_army, a) != wd->army_size[a];
    /* a few armies walked by hand: the same sums, bit for bit (same order) */
    for (uint32_t k = 0; k < 4; ++k) {
        uint32_t a = (uint32_t)(mix(f->tick * 31 + k) % wd->opt.armies);
        float s = 0.0f, m = 0.0f;
        for (const uint32_t *it = dod_csr_row_begin(&f->by_army, a); it != dod_csr_row_end(&f->by_army, a); ++it) {
            s += health[*it];
            m += mood[*it];
        }
        uint32_t len = dod_csr_row_len(&f->by_army, a);
        /* stored to a float before comparing, as the library stored its mean: where float
         * expressions are evaluated wider (x87 on i686, s390x in ISO C mode), the unrounded
         * quotient differs from the float the library wrote */
        const float mean = len > 0 ? m / (float)len : 0.0f;
        bad += s != w->sum[a];
        bad += mean != w->mean[a];
    }
    return bad;
}

typedef struct crowd_ctx {
    const dod_csr *by_location;
    uint32_t limit, target;
} crowd_ctx;

static int not_crowded(void *ctx, uint32_t loc)
{
    const crowd_ctx *c = (const crowd_ctx *)ctx;
    return loc == c->target || dod_csr_row_len(c->by_location, loc) <= c->limit;
}

static long run_path(worker *w, const world_frame *f)
{
    const world *wd = w->world;
    const map *m = &wd->map;
    const uint32_t *loc = (const uint32_t *)dod_table_column(&f->regiments, COL_LOCATION);
    long bad = 0;
    for (uint32_t k = 0; k < 4; ++k) {
        uint32_t a = (uint32_t)(mix(f->tick * 17 + k) % wd->opt.armies);
        if (dod_csr_row_len(&f->by_army, a) == 0)
            continue;
        uint32_t source = loc[*dod_csr_row_begin(&f->by_army, a)];
        /* a march of up to 48 cells each way */
        uint64_t r = mix(f->tick * 101 + k);
        long tx = (long)(source % m->width) + (long)(r % 97) - 48;
        long ty = (long)(source / m->width) + (long)((r >> 16) % 97) - 48;
        tx = tx < 0 ? 0 : tx >= (long)m->width ? (long)m->width - 1 : tx;
        ty = ty < 0 ? 0 : ty >= (long)m->height ? (long)m->height - 1 : ty;
        uint32_t target = (uint32_t)ty * m->width + (uint32_t)tx;
        crowd_ctx c = { &f->by_location, wd->crowd_limit, target };
        dod_graph_route route;
        dod_graph_path_desc pd = { m->cost, source, target, grid_distance, (void *)(uintptr_t)m,
                                   not_crowded, &c };
        if (dod_graph_path(&m->adjacency, &pd, &w->scratch, &route) != DOD_OK) {
            ++bad;
            continue;
        }
        ++w->routes;
        if (w->scratch.n_order == 0) {
            ++w->unreachable;
            continue;
        }
        /* the route is a walk over the map, through uncrowded cells, costing what it says */
        const uint32_t *p = w->scratch.order;
        uint32_t len = w->scratch.n_order;
        bad += p[0] != source || p[len - 1] != target;
        float sum = 0.0f;
        for (uint32_t i = 0; i + 1 < len; ++i) {
            int found = 0;
            for (uint32_t e = m->adjacency.offsets[p[i]]; e < m->adjacency.offsets[p[i] + 1]; ++e)
                if (m->adjacency.items[e] == p[i + 1]) {
                    sum += m->cost[e];
                    found = 1;
                    break;
                }
            bad += !found;
            bad += !not_crowded(&c, p[i + 1]);
        }
        bad += fabsf(sum - route.cost) > 1e-3f * (1.0f + route.cost);
    }
    return bad;
}

static long run_ui(worker *w, const world_frame *f)
{
    const world *wd = w->world;
    const uint32_t *loc = (const uint32_t *)dod_table_column(&f->regiments, COL_LOCATION);
    const float *health = (const float *)dod_table_column(&f->regiments, COL_HEALTH);
    long bad = 0;
    for (uint32_t k = 0; k < 256; ++k) {
        uint32_t l = (uint32_t)(mix(f->tick * 7 + k + ((uint64_t)w->id << 40)) % wd->map.n);
        uint32_t prev = 0;
        int first = 1;
        float shown = 0.0f;
        for (const uint32_t *it = dod_csr_row_begin(&f->by_location, l); it != dod_csr_row_end(&f->by_location, l); ++it) {
            bad += loc[*it] != l;              /* the index agrees with the table */
            bad += !first && *it <= prev;      /* ascending, each once */
            prev = *it;
            first = 0;
            shown += health[*it];
            ++w->looked_up;
        }
        (void)shown;
    }
    return bad;
}

static void *worker_main(void *arg)
{
    worker *w = (worker *)arg;
    world *wd = w->world;
    uint64_t done = 0;
    for (;;) {
        /* read stop first: a frame published before it was set is seen by the next check */
        int stop = atomic_load(&wd->stop);
        if (dod_frames_latest_seq(wd->frames) == done) {
            if (stop)
                break;
            struct timespec pause = { 0, 100000 };
            nanosleep(&pause, NULL);
            continue;
        }
        dod_frame h = { 0 };
        double t0 = now_ms();
        dod_status st = dod_frames_acquire(wd->frames, &h);
        double acquire_ns = (now_ms() - t0) * 1e6;
        if (st != DOD_OK) {
            ++w->failures;
            break;
        }
        w->acquire_max_ns = acquire_ns > w->acquire_max_ns ? acquire_ns : w->acquire_max_ns;
        const world_frame *f = (const world_frame *)h.data;
        w->failures += f->tick != h.seq ||
                       f->stamp != frame_stamp(f->tick, f->by_location.n_items, f->by_army.n_items);
        for (int r = 0; r < N_ROLES; ++r) {
            if (!w->roles[r])
                continue;
            double t1 = now_ms();
            w->failures += r == ROLE_AI ? run_ai(w, f) : r == ROLE_PATH ? run_path(w, f) : run_ui(w, f);
            double ms = now_ms() - t1;
            w->ms[(size_t)r * (wd->opt.ticks + 1) + h.seq] = ms;
            atomic_store_explicit(&wd->last_ns[r], (unsigned long long)(ms * 1e6), memory_order_relaxed);
        }
        /* the frame did not change while held */
        w->failures += f->tick != h.seq ||
                       f->stamp != frame_stamp(f->tick, f->by_location.n_items, f->by_army.n_items);
        done = h.seq;
        ++w->frames;
        w->failures += dod_frames_release(wd->frames, &h) != DOD_OK;
    }
    return NULL;
}

/* ---- the main thread -------------------------------------------------------------------- */

/* location -> regiments and army -> regiments from the frame's own table, on the pool. */
static dod_status build_indexes(world_frame *f, uint32_t n_locations, uint32_t n_armies,
                                const dod_executor *exec, dod_arena *scratch)
{
    dod_csr_desc d;
    memset(&d, 0, sizeof d);
    d.n_items = dod_table_count(&f->regiments);
    d.exec = exec;
    d.scratch = scratch;
    d.n_rows = n_locations;
    d.keys = dod_table_column(&f->regiments, COL_LOCATION);
    dod_status st = dod_csr_build_desc(&f->by_location, &d);
    d.n_rows = n_armies;
    d.keys = dod_table_column(&f->regiments, COL_ARMY);
    return st != DOD_OK ? st : dod_csr_build_desc(&f->by_army, &d);
}

static int parse_u32(const char *s, uint32_t *out)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (!*s || *end || v == 0 || v > 0xFFFFFFFFul)
        return 0;
    *out = (uint32_t)v;
    return 1;
}

static int parse_options(int argc, char **argv, options *o)
{
    options d = { 1u << 20, 6u << 20, 1024, 3, 10, 8 };
    for (int i = 1; i < argc; ++i)
        if (strcmp(argv[i], "--quick") == 0) {
            d.locations = 1u << 16;
            d.regiments = 6u << 16;
            d.armies = 256;
            d.ticks = 12;
        }
    *o = d;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0)
            continue;
        uint32_t *field = strcmp(argv[i], "--locations") == 0    ? &o->locations
                          : strcmp(argv[i], "--regiments") == 0  ? &o->regiments
                          : strcmp(argv[i], "--armies") == 0     ? &o->armies
                          : strcmp(argv[i], "--threads") == 0    ? &o->threads
                          : strcmp(argv[i], "--ticks") == 0      ? &o->ticks
                          : strcmp(argv[i], "--neighbours") == 0 ? &o->neighbours
                                                                 : NULL;
        if (!field || i + 1 >= argc || !parse_u32(argv[++i], field)) {
            fprintf(stderr,
                    "usage: %s [--locations N] [--regiments N] [--armies N] [--threads N] "
                    "[--ticks N] [--neighbours 4|8] [--quick]\n",
                    argv[0]);
            return 0;
        }
    }
    if (o->locations < 4 || (o->neighbours != 4 && o->neighbours != 8) ||
        o->threads > DOD_FRAME_MAX_SLOTS - 2 || o->armies > o->regiments) {
        fprintf(stderr, "need --locations >= 4, --neighbours 4 or 8, --threads <= %u, "
                        "--armies <= --regiments\n", DOD_FRAME_MAX_SLOTS - 2);
        return 0;
    }
    return 1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* min / median / max of the entries >= 0 of v[0..n); returns how many there were. */
static int stats(const double *v, size_t n, double out[3])
{
    double *tmp = (double *)malloc((n ? n : 1) * sizeof(double));
    int k = 0;
    for (size_t i = 0; tmp && i < n; ++i)
        if (v[i] >= 0.0)
            tmp[k++] = v[i];
    if (k > 0) {
        qsort(tmp, (size_t)k, sizeof(double), cmp_double);
        out[0] = tmp[0];
        out[1] = tmp[k / 2];
        out[2] = tmp[k - 1];
    }
    free(tmp);
    return k;
}

enum { PH_MOVE, PH_COPY, PH_REBUILD, PH_PUBLISH, N_PHASES };
static const char *const phase_name[N_PHASES] = { "move", "copy table", "rebuild indexes", "publish" };

#ifdef STRATEGY_TICK_EMBED
int strategy_tick_main(int argc, char **argv, FILE *jsonl);
int strategy_tick_main(int argc, char **argv, FILE *jsonl)
#else
int main(int argc, char **argv)
#endif
{
#ifndef STRATEGY_TICK_EMBED
    FILE *jsonl = NULL;
#endif
    world wd;
    memset(&wd, 0, sizeof wd);
    if (!parse_options(argc, argv, &wd.opt))
        return 2;
    dod_arena_init(&wd.build_scratch, 0, NULL);
    const options *o = &wd.opt;
    int ok = 1;
    dod_threadpool *pool = NULL;
    dod_status st = dod_threadpool_create(&pool, o->threads, NULL);
    dod_executor exec;
    if (st == DOD_OK) {
        exec = dod_threadpool_executor(pool);
        st = map_build(&wd.map, o, &exec);
    }
    dod_table live;
    memset(&live, 0, sizeof live);
    if (st == DOD_OK)
        st = regiments_create(&live, o, &wd.map);
    if (st != DOD_OK) {
        fprintf(stderr, "setup failed: %s\n", dod_status_str(st));
        return 1;
    }
    printf("strategy_tick: %u x %u = %u locations (%u-neighbour), %u regiments in %u armies, "
           "%u worker threads, %u ticks; regiments in a dod_table\n",
           wd.map.width, wd.map.height, wd.map.n, o->neighbours, o->regiments, o->armies,
           o->threads, o->ticks);

    /* every army's size, and "crowded": three times the average location, at least 8 */
    wd.army_size = (uint32_t *)calloc(o->armies, sizeof(uint32_t));
    const uint32_t *army_col = (const uint32_t *)dod_table_column(&live, COL_ARMY);
    for (uint32_t i = 0; i < o->regiments; ++i)
        wd.army_size[army_col[i]]++;
    wd.crowd_limit = 3 * (o->regiments / wd.map.n);
    wd.crowd_limit = wd.crowd_limit < 8 ? 8 : wd.crowd_limit;

    /* a reader holds at most one frame: latest + the one being written + one per worker */
    wd.n_slots = o->threads + 2;
    wd.slots = (world_frame *)calloc(wd.n_slots, sizeof(world_frame));
    void *payloads[DOD_FRAME_MAX_SLOTS];
    for (uint32_t s = 0; s < wd.n_slots; ++s) {
        dod_table_init(&wd.slots[s].regiments, NULL, 0, NULL);
        dod_csr_init(&wd.slots[s].by_location, NULL);
        dod_csr_init(&wd.slots[s].by_army, NULL);
        payloads[s] = &wd.slots[s];
    }
    /* warm every slot once (allocation and first-touch page faults happen here, not in the
     * tick; from then on a tick allocates nothing) */
    for (uint32_t s = 0; s < wd.n_slots && st == DOD_OK; ++s) {
        world_frame *f = &wd.slots[s];
        st = dod_table_copy(&f->regiments, &live);
        if (st == DOD_OK)
            st = build_indexes(f, wd.map.n, o->armies, &exec, &wd.build_scratch);
    }
    if (st == DOD_OK)
        st = dod_frames_create(&wd.frames, wd.n_slots, payloads, NULL);
    atomic_init(&wd.stop, 0);
    for (int r = 0; r < N_ROLES; ++r)
        atomic_init(&wd.last_ns[r], 0);

    worker *workers = (worker *)calloc(o->threads, sizeof(worker));
    size_t per_role = (size_t)o->ticks + 1;
    for (uint32_t i = 0; i < o->threads && st == DOD_OK; ++i) {
        worker *w = &workers[i];
        w->world = &wd;
        w->id = i;
        for (int r = 0; r < N_ROLES; ++r)
            w->roles[r] = o->threads >= N_ROLES ? (uint32_t)r == i % N_ROLES : (uint32_t)r % o->threads == i;
        w->ms = (double *)malloc(N_ROLES * per_role * sizeof(double));
        for (size_t k = 0; k < N_ROLES * per_role; ++k)
            w->ms[k] = -1.0;
        w->sum = (float *)malloc(o->armies * sizeof(float));
        w->lo = (float *)malloc(o->armies * sizeof(float));
        w->hi = (float *)malloc(o->armies * sizeof(float));
        w->mean = (float *)malloc(o->armies * sizeof(float));
        dod_graph_scratch_init(&w->scratch, NULL);
        st = dod_graph_scratch_reserve(&w->scratch, wd.map.n);
        if (st == DOD_OK && pthread_create(&w->thread, NULL, worker_main, w) != 0)
            st = DOD_E_STATE;
    }
    if (st != DOD_OK) {
        fprintf(stderr, "setup failed: %s\n", dod_status_str(st));
        return 1;
    }

    double *phase = (double *)malloc(N_PHASES * per_role * sizeof(double));
    for (size_t k = 0; k < N_PHASES * per_role; ++k)
        phase[k] = -1.0;
    long busy = 0;
    for (uint64_t tick = 1; tick <= o->ticks && ok; ++tick) {
        double t0 = now_ms();
        if (tick > 1)
            regiments_move(&live, &wd.map, tick, 16);
        double t1 = now_ms();
        dod_frame w = { 0 };
        while ((st = dod_frames_begin(wd.frames, &w)) == DOD_E_BUSY) {
            ++busy; /* cannot happen with threads + 2 slots; counted to show it */
            struct timespec pause = { 0, 50000 };
            nanosleep(&pause, NULL);
        }
        world_frame *f = (world_frame *)w.data;
        if (st == DOD_OK)
            st = dod_table_copy(&f->regiments, &live); /* copy from the live data */
        double t2 = now_ms();
        if (st == DOD_OK) /* build straight into the frame */
            st = build_indexes(f, wd.map.n, o->armies, &exec, &wd.build_scratch);
        if (st != DOD_OK) {
            if (w.role != 0)
                dod_frames_cancel(wd.frames, &w);
            fprintf(stderr, "\ntick %llu failed: %s\n", (unsigned long long)tick, dod_status_str(st));
            ok = 0;
            break;
        }
        f->tick = w.seq;
        f->stamp = frame_stamp(f->tick, f->by_location.n_items, f->by_army.n_items); /* last */
        double t3 = now_ms();
        st = dod_frames_publish(wd.frames, &w);
        double t4 = now_ms();
        ok &= st == DOD_OK;
        double *ph = phase;
        if (tick > 1)
            ph[PH_MOVE * per_role + tick] = t1 - t0;
        ph[PH_COPY * per_role + tick] = t2 - t1;
        ph[PH_REBUILD * per_role + tick] = t3 - t2;
        ph[PH_PUBLISH * per_role + tick] = t4 - t3;
        printf("\rtick %llu/%u  move %.2f ms  copy %.2f ms  rebuild %.2f ms  publish %.2f us  |"
               "  AI %.2f ms  path %.2f ms  UI %.2f ms   ",
               (unsigned long long)tick, o->ticks, t1 - t0, t2 - t1, t3 - t2, (t4 - t3) * 1e3,
               (double)atomic_load(&wd.last_ns[ROLE_AI]) * 1e-6,
               (double)atomic_load(&wd.last_ns[ROLE_PATH]) * 1e-6,
               (double)atomic_load(&wd.last_ns[ROLE_UI]) * 1e-6);
        fflush(stdout);
    }
    printf("\n");

    /* clean shutdown: the workers finish the last frame, then leave */
    atomic_store(&wd.stop, 1);
    long failures = 0, frames_read = 0, routes = 0, unreachable = 0, looked_up = 0;
    double acquire_max_ns = 0.0;
    for (uint32_t i = 0; i < o->threads; ++i) {
        pthread_join(workers[i].thread, NULL);
        failures += workers[i].failures;
        frames_read += workers[i].frames;
        routes += workers[i].routes;
        unreachable += workers[i].unreachable;
        looked_up += workers[i].looked_up;
        acquire_max_ns = workers[i].acquire_max_ns > acquire_max_ns ? workers[i].acquire_max_ns : acquire_max_ns;
    }

    /* the summary table */
    printf("%-16s %6s %10s %10s %10s  (ms)\n", "phase", "ticks", "min", "median", "max");
    for (int p = 0; p < N_PHASES; ++p) {
        double s[3];
        int k = stats(phase + (size_t)p * per_role, per_role, s);
        if (k > 0)
            printf("%-16s %6d %10.3f %10.3f %10.3f\n", phase_name[p], k, s[0], s[1], s[2]);
    }
    double *all = (double *)malloc(o->threads * per_role * sizeof(double));
    for (int r = 0; r < N_ROLES; ++r) {
        for (uint32_t i = 0; i < o->threads; ++i)
            memcpy(all + i * per_role, workers[i].ms + (size_t)r * per_role, per_role * sizeof(double));
        double s[3];
        int k = stats(all, o->threads * per_role, s);
        if (k > 0)
            printf("%-16s %6d %10.3f %10.3f %10.3f\n", role_name[r], k, s[0], s[1], s[2]);
    }
    printf("%u frames published, %ld frame reads by %u workers; max acquire %.0f ns; writer saw "
           "BUSY %ld times\n", o->ticks, frames_read, o->threads, acquire_max_ns, busy);
    printf("routes %ld (%ld unreachable), regiments looked up %ld; checks failed: %ld -> %s\n",
           routes, unreachable, looked_up, failures, failures == 0 && ok ? "OK" : "FAILED");

    if (jsonl) {
        for (uint64_t t = 1; t <= o->ticks; ++t) {
            fprintf(jsonl,
                    "{\"bench\":\"frames\",\"case\":\"tick\",\"tick\":%llu,\"locations\":%u,"
                    "\"regiments\":%u,\"armies\":%u,\"threads\":%u,\"move_ms\":%.4f,"
                    "\"copy_ms\":%.4f,\"rebuild_ms\":%.4f,\"publish_us\":%.3f",
                    (unsigned long long)t, wd.map.n, o->regiments, o->armies, o->threads,
                    phase[PH_MOVE * per_role + t], phase[PH_COPY * per_role + t],
                    phase[PH_REBUILD * per_role + t], phase[PH_PUBLISH * per_role + t] * 1e3);
            for (int r = 0; r < N_ROLES; ++r) {
                double best = -1.0; /* the slowest worker of this role on this frame */
                for (uint32_t i = 0; i < o->threads; ++i) {
                    double v = workers[i].ms[(size_t)r * per_role + t];
                    best = v > best ? v : best;
                }
                if (best >= 0.0)
                    fprintf(jsonl, ",\"%s_ms\":%.4f", role_name[r], best);
            }
            fprintf(jsonl, "}\n");
        }
    }

    for (uint32_t i = 0; i < o->threads; ++i) {
        worker *w = &workers[i];
        dod_graph_scratch_free(&w->scratch);
        free(w->ms);
        free(w->sum);
        free(w->lo);
        free(w->hi);
        free(w->mean);
    }
    free(all);
    free(workers);
    free(phase);
    dod_frames_destroy(wd.frames);
    for (uint32_t s = 0; s < wd.n_slots; ++s) {
        dod_table_free(&wd.slots[s].regiments);
        dod_csr_free(&wd.slots[s].by_location);
        dod_csr_free(&wd.slots[s].by_army);
    }
    free(wd.slots);
    dod_arena_free(&wd.build_scratch);
    free(wd.army_size);
    dod_table_free(&live);
    map_free(&wd.map);
    dod_threadpool_destroy(pool);
    return failures == 0 && ok ? 0 : 1;
}
