/* Spawns into a fresh world, cold and warm, and the typed bulk spawns against spawn_n.
 * A world of one fixed {P,V} archetype with capacity n (decided at run time, through the
 * typed config), created anew before every timed run:
 *   cold           its memory fresh from the operating system (mmap), so the spawns pay the
 *                  first touch of every page
 *   cold_prefault  the same, created with DOD_WORLD_PREFAULT: create pays it instead (its
 *                  time is reported as `create`)
 *   warm           its memory recycled from the previous warm world of the same size, so
 *                  every page has been touched before
 * and per world one of: n typed spawns one by one (spawn), one spawn_n (zeroed), one typed
 * spawn_fill (every row one value), one typed spawn_rows (an array of n rows). ns per entity;
 * where there is no mmap, cold memory comes from the heap and may be warm. */
#if defined(__unix__) || defined(__APPLE__)
#  define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#  include <sys/mman.h>
#  define COLD_MMAP 1
#else
#  define COLD_MMAP 0
#endif
#include <string.h>
#include <dod/world.h>
#include "world_bench.h"

#define COLD_COMPONENTS(C) C(position) C(velocity)
#define COLD_PV(X) X(position) X(velocity)
#define COLD_ARCHETYPES(A) A(pv, COLD_PV, 1)
DOD_WORLD(cold, COLD_COMPONENTS, COLD_ARCHETYPES)

/* ---- memory: fresh pages (cold) or the last freed blocks again (warm) ---- */
enum { CACHE = 8 };
typedef struct pages {
    int recycle;
    void *ptr[CACHE];
    size_t size[CACHE];
} pages;

static void *pages_alloc(void *ctx, size_t size, size_t align)
{
    pages *p = (pages *)ctx;
    for (int i = 0; p->recycle && i < CACHE; ++i)
        if (p->ptr[i] && p->size[i] == size) {
            void *got = p->ptr[i];
            p->ptr[i] = NULL;
            return got;
        }
#if COLD_MMAP
    (void)align; /* a mapping is page-aligned */
    void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return m == MAP_FAILED ? NULL : m;
#else
    dod_allocator heap = dod_heap_allocator();
    return heap.alloc(heap.ctx, size, align);
#endif
}

static void pages_release(void *ptr, size_t size)
{
#if COLD_MMAP
    munmap(ptr, size);
#else
    dod_allocator heap = dod_heap_allocator();
    heap.free(heap.ctx, ptr, size);
#endif
}

static void pages_free(void *ctx, void *ptr, size_t size)
{
    pages *p = (pages *)ctx;
    for (int i = 0; p->recycle && i < CACHE; ++i)
        if (!p->ptr[i]) {
            p->ptr[i] = ptr;
            p->size[i] = size;
            return;
        }
    pages_release(ptr, size);
}

static void pages_drain(pages *p)
{
    for (int i = 0; i < CACHE; ++i)
        if (p->ptr[i])
            pages_release(p->ptr[i], p->size[i]);
    memset(p->ptr, 0, sizeof p->ptr);
}

/* ---- the runs ---- */
enum { M_COLD, M_PREFAULT, M_WARM, N_MEM };
enum { S_SPAWN, S_SPAWN_N, S_FILL, S_ROWS, N_SPAWN };
static const char *const mem_names[N_MEM] = { "cold", "cold_prefault", "warm" };
static const char *const spawn_names[N_SPAWN] = { "spawn", "spawn_n", "spawn_fill", "spawn_rows" };
enum { N_VARIANTS = N_MEM * N_SPAWN };

typedef struct cold_run {
    uint32_t n;
    pages cold_pages, warm_pages;
    dod_world *w;            /* the world prepare made for the next run */
    int last;                /* the variant that ran in it */
    int right;               /* every run wrote the rows it should */
    cold_pv_row *rows;       /* spawn_rows' input */
    double create_ms[N_MEM][WB_MAX_PASSES * N_SPAWN];
    int n_creates[N_MEM];
} cold_run;

/* The world a run left: n rows, the values its spawn wrote. */
static int spawned_right(const dod_world *w, uint32_t n, int how, const cold_pv_row *rows)
{
    cold_pv_cols c;
    if (cold_pv_count(w) != n || !cold_pv_block(w, 0, &c))
        return 0;
    uint32_t k = n - 1;
    const cold_pv_row want = how == S_SPAWN_N ? (cold_pv_row){ { 0, 0 }, { 0, 0 } }
                             : how == S_ROWS  ? rows[k]
                                              : (cold_pv_row){ { 1.0f, 2.0f }, { 1.0f, 1.0f } };
    return memcmp(&c.position[k], &want.position, sizeof want.position) == 0 &&
           memcmp(&c.velocity[k], &want.velocity, sizeof want.velocity) == 0;
}

/* The last run's world checked and destroyed, its memory back to its pages. */
static void check_and_destroy(cold_run *r)
{
    if (r->w)
        r->right &= spawned_right(r->w, r->n, r->last % N_SPAWN, r->rows);
    dod_world_destroy(r->w);
    r->w = NULL;
}

static void prepare(void *ctx, int variant)
{
    cold_run *r = (cold_run *)ctx;
    int mem = variant / N_SPAWN;
    check_and_destroy(r);
    r->last = variant;
    cold_config cfg = cold_config_default();
    cfg.pv.capacity = r->n;
    dod_allocator a = { pages_alloc, pages_free, mem == M_WARM ? &r->warm_pages : &r->cold_pages };
    double t0 = bench_now_ms();
    wb_check(cold_create_config(&r->w, &cfg, &a, mem == M_PREFAULT ? DOD_WORLD_PREFAULT : 0u),
             "cold create");
    r->create_ms[mem][r->n_creates[mem]++] = bench_now_ms() - t0;
}

static void run(void *ctx, int variant)
{
    cold_run *r = (cold_run *)ctx;
    const cold_pv_row one = { { 1.0f, 2.0f }, { 1.0f, 1.0f } };
    dod_status st = DOD_OK;
    switch (variant % N_SPAWN) {
    case S_SPAWN:
        for (uint32_t i = 0; i < r->n && st == DOD_OK; ++i)
            st = cold_pv_spawn(r->w, &one, NULL);
        break;
    case S_SPAWN_N: st = cold_pv_spawn_n(r->w, r->n, NULL); break;
    case S_FILL: st = cold_pv_spawn_fill(r->w, r->n, &one, NULL); break;
    default: st = cold_pv_spawn_rows(r->w, r->n, r->rows, NULL); break;
    }
    wb_check(st, "cold spawn");
}

void cold_bench(size_t n_, int passes)
{
    uint32_t n = (uint32_t)n_;
    printf("spawns into a fresh world: n %u, one fixed {P,V} archetype of capacity n%s\n", n,
           COLD_MMAP ? "" : " (no mmap here: cold memory comes from the heap)");
    cold_run *r = (cold_run *)wb_alloc(sizeof *r);
    memset(r, 0, sizeof *r);
    r->n = n;
    r->warm_pages.recycle = 1;
    r->rows = (cold_pv_row *)wb_alloc(n * sizeof *r->rows);
    for (uint32_t i = 0; i < n; ++i)
        r->rows[i] = (cold_pv_row){ { (float)i, 0.5f }, { 1.0f, (float)(i % 7) } };
    /* warm the recycled pages once: a world filled and destroyed */
    prepare(r, M_WARM * N_SPAWN + S_SPAWN_N);
    run(r, M_WARM * N_SPAWN + S_SPAWN_N);
    r->n_creates[M_WARM] = 0;
    r->right = 1;

    double t[N_VARIANTS][WB_MAX_PASSES];
    wb_alternate(N_VARIANTS, passes, prepare, run, r, t);
    check_and_destroy(r);
    wb_require(r->right, "a spawn into a fresh world wrote the wrong rows");
    double mn[N_VARIANTS];
    for (int v = 0; v < N_VARIANTS; ++v)
        mn[v] = wb_emit(spawn_names[v % N_SPAWN], mem_names[v / N_SPAWN], n, n, t[v], passes);
    for (int m = 0; m < N_MEM; ++m)
        wb_emit("create", mem_names[m], n, n, r->create_ms[m], r->n_creates[m]);
    const double *warm = mn + M_WARM * N_SPAWN;
    printf("  spawn_rows / spawn_n (warm) %.3f, spawn cold / warm %.1f, cold_prefault / warm "
           "%.2f\n", warm[S_ROWS] / warm[S_SPAWN_N], mn[M_COLD * N_SPAWN + S_SPAWN] / warm[S_SPAWN],
           mn[M_PREFAULT * N_SPAWN + S_SPAWN] / warm[S_SPAWN]);
    /* At 1M the rows stream to memory; in cache, spawn_n's memset (the C library's widest
     * stores) runs ahead of a portable store loop (docs/world-measurements.md, "Spawns into a
     * fresh world"). */
    if (n >= WB_1M)
        bench_target("x", warm[S_FILL] / warm[S_SPAWN_N], BENCH_AT_MOST, 1.1,
                     "spawn_fill / spawn_n (warm), n %u", n);
    else
        printf("  spawn_fill / spawn_n (warm) %.3f\n", warm[S_FILL] / warm[S_SPAWN_N]);
    pages_drain(&r->warm_pages);
    wb_free(r->rows, n * sizeof *r->rows);
    wb_free(r, sizeof *r);
}
