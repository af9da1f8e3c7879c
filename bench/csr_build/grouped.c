/* The grouped-payload section of bench_csr_build: per frame, the build plus the seed's query
 * over every row, against the same with the payload gathered into row order; and the random
 * query over the seed's layout against the gathered payload with the library's prefetch hint.
 *
 * Ops, each variant run alternately in every repetition:
 *   frame                 hack3 build + the seed's query over every row in order; dod the same
 *                         with its adaptive build, at 1 and 2 threads
 *   frame_grouped         dod build + gather health/mood/speed into row order (one 12-byte
 *                         record per item) + the query over the gathered payload
 *   query_random          hack3: rows in a random permutation, regiments[items[j]] (the
 *                         baseline); hack3_prefetch the same with hand-written prefetch (context)
 *   query_random_grouped  dod: the same rows over the gathered columns, with the library's
 *                         dod_csr_prefetch_rows hint; dod_no_prefetch without it */
#include "csr_build_bench.h"
#include <stdlib.h>
#include <string.h>

#define N_OPS 4

enum op { OP_FRAME, OP_FRAME_GROUPED, OP_QUERY_RANDOM, OP_QUERY_RANDOM_GROUPED };
static const char *op_name[N_OPS] = { "frame", "frame_grouped", "query_random",
                                      "query_random_grouped" };


typedef struct world {
    uint32_t n_rows, n_items;
    Regiment *regiments;
    uint32_t *perm;       /* rows in random order */
    uint32_t *offsets;    /* hack3: n_rows + 1 */
    uint32_t *blob;       /* hack3: n_items */
    dod_csr csr[2];       /* dod at 1 and 2 threads (identical bytes) */
    dod_arena scratch[2]; /* their frame arenas: the build scratch lives there between frames */
    regiment_hms *grouped;  /* health, mood, speed gathered into row order */
    bench_counter counter;
    const dod_executor *exec[2];
} world;

/* ---- the measured operations ---- */

static double seed_query_all(const uint32_t *offsets, const uint32_t *items, const Regiment *g,
                             uint32_t n_rows)
{
    double total = 0;
    for (uint32_t loc = 0; loc < n_rows; ++loc)
        total += seed_query_row(offsets, items, g, loc);
    return total;
}

static double seed_query_random(const uint32_t *offsets, const uint32_t *items, const Regiment *g,
                                const uint32_t *perm, uint32_t n_rows)
{
    double total = 0;
    for (uint32_t k = 0; k < n_rows; ++k)
        total += seed_query_row(offsets, items, g, perm[k]);
    return total;
}

/* Context, not the baseline: the seed's random query with a hand-written three-stage software
 * prefetch (offsets 24 rows ahead, items 12 ahead, the regiments themselves 6 ahead), to show
 * how much of the grouped query's gain is the prefetch and how much the layout. */
static double seed_query_random_prefetched(const uint32_t *offsets, const uint32_t *items,
                                           const Regiment *g, const uint32_t *perm, uint32_t n_rows)
{
    double total = 0;
    for (uint32_t k = 0; k < n_rows; ++k) {
        if (k + 24 < n_rows)
            __builtin_prefetch(&offsets[perm[k + 24]]);
        if (k + 12 < n_rows)
            __builtin_prefetch(&items[offsets[perm[k + 12]]]);
        if (k + 6 < n_rows) {
            uint32_t r = perm[k + 6];
            for (uint32_t j = offsets[r]; j < offsets[r + 1]; ++j)
                __builtin_prefetch(&g[items[j]]);
        }
        total += seed_query_row(offsets, items, g, perm[k]);
    }
    return total;
}

static double grouped_all(const world *w, const dod_csr *c)
{
    double total = 0;
    for (uint32_t r = 0; r < c->n_rows; ++r)
        total += grouped_query_row(c->offsets, w->grouped, r);
    return total;
}

/* The random query over the gathered columns, with the library's prefetch hint (or without). */
static double grouped_random(const world *w, const dod_csr *c, int prefetch)
{
    double total = 0;
    for (uint32_t k = 0; k < c->n_rows; ++k) {
        if (prefetch)
            dod_csr_prefetch_rows(c, w->perm, c->n_rows, k, w->grouped, sizeof(regiment_hms));
        total += grouped_query_row(c->offsets, w->grouped, w->perm[k]);
    }
    return total;
}

static void dod_build(world *w, int t)
{
    dod_csr_desc d;
    memset(&d, 0, sizeof d);
    d.n_rows = w->n_rows;
    d.n_items = w->n_items;
    d.keys = &w->regiments[0].location;
    d.key_stride = sizeof(Regiment);
    d.exec = w->exec[t];
    d.scratch = &w->scratch[t];
    if (dod_csr_build_desc(&w->csr[t], &d) != DOD_OK) {
        bench_die("build failed");
    }
}

static void dod_gather(world *w, int t)
{
    const Regiment *g = w->regiments;
    dod_csr_column col = { w->grouped, &g[0].health, sizeof *g, sizeof(regiment_hms) };
    if (dod_csr_gather(&w->csr[t], &col, 1, w->n_items, w->exec[t]) != DOD_OK) {
        bench_die("gather failed");
    }
}

/* A variant of an op: what it runs and how it is recorded. */
typedef struct variant {
    enum op op;
    const char *name;
    int threads;   /* 1 or 2 */
    int dod;       /* 1: dod (index t = threads - 1), 0: hack3 */
    int prefetch;  /* the random queries: with software prefetch */
    double ms[BENCH_MAX_RUNS];
    long allocs;   /* allocations during the timed runs, per run */
} variant;

static void run_variant(world *w, variant *v)
{
    int t = v->threads - 1;
    double sum = 0;
    switch (v->op) {
    case OP_FRAME:
        if (v->dod) {
            dod_build(w, t);
            sum = seed_query_all(w->csr[t].offsets, w->csr[t].items, w->regiments, w->n_rows);
        } else {
            hack3_build(w->offsets, w->blob, w->regiments, w->n_items, w->n_rows);
            sum = seed_query_all(w->offsets, w->blob, w->regiments, w->n_rows);
        }
        break;
    case OP_FRAME_GROUPED:
        dod_build(w, t);
        dod_gather(w, t);
        sum = grouped_all(w, &w->csr[t]);
        break;
    case OP_QUERY_RANDOM:
        if (v->prefetch)
            sum = seed_query_random_prefetched(w->offsets, w->blob, w->regiments, w->perm,
                                               w->n_rows);
        else
            sum = seed_query_random(w->offsets, w->blob, w->regiments, w->perm, w->n_rows);
        break;
    case OP_QUERY_RANDOM_GROUPED:
        sum = grouped_random(w, &w->csr[t], v->prefetch);
        break;
    }
    bench_sink += (uint64_t)sum;
}

/* ---- the run ---- */

static variant *find(variant *vs, int n, enum op op, const char *name, int threads)
{
    for (int i = 0; i < n; ++i)
        if (vs[i].op == op && strcmp(vs[i].name, name) == 0 && vs[i].threads == threads)
            return &vs[i];
    return NULL;
}

static double ratio(variant *vs, int n, enum op op, const char *name, int threads, enum op base_op,
                    int runs)
{
    variant *a = find(vs, n, op, name, threads), *b = find(vs, n, base_op, "hack3", 1);
    if (!a || !b)
        bench_die("grouped: a variant is missing");
    return bench_min(a->ms, runs) / bench_min(b->ms, runs);
}

static void targets(variant *vs, int nv, regiment_dist dist, uint32_t n_rows, int runs)
{
    const char *dn = regiment_dist_name(dist);
    bench_target("x", ratio(vs, nv, OP_QUERY_RANDOM_GROUPED, "dod", 1, OP_QUERY_RANDOM, runs),
                 BENCH_AT_MOST, 0.25, "query_random_grouped / hack3 query_random, %s, %u rows", dn,
                 n_rows);
    bench_target("x", ratio(vs, nv, OP_FRAME_GROUPED, "dod", 1, OP_FRAME, runs), BENCH_AT_MOST,
                 1.0, "frame_grouped t1 / hack3 frame, %s, %u rows", dn, n_rows);
}

static size_t hack3_bytes(const world *w)
{
    return ((size_t)w->n_rows + 1 + w->n_items) * sizeof(uint32_t);
}

static void *must_alloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (!p)
        bench_die("out of memory");
    return p;
}

void grouped_run(FILE *out, uint32_t n_rows, regiment_dist dist, int runs,
                 const dod_executor *exec2)
{
    world w;
    memset(&w, 0, sizeof w);
    w.n_rows = n_rows;
    w.n_items = n_rows * 6;
    w.regiments = (Regiment *)must_alloc((size_t)w.n_items * sizeof *w.regiments);
    w.perm = (uint32_t *)must_alloc((size_t)n_rows * sizeof *w.perm);
    w.offsets = (uint32_t *)must_alloc(((size_t)n_rows + 1) * sizeof *w.offsets);
    w.blob = (uint32_t *)must_alloc((size_t)w.n_items * sizeof *w.blob);
    w.grouped = (regiment_hms *)must_alloc((size_t)w.n_items * sizeof(regiment_hms));
    regiments_generate(w.regiments, w.n_items, n_rows, dist);
    regiments_permutation(w.perm, n_rows, 777);
    dod_allocator a = bench_counter_allocator(&w.counter);
    for (int t = 0; t < 2; ++t) {
        dod_csr_init(&w.csr[t], &a);
        dod_arena_init(&w.scratch[t], 0, &a);
    }
    w.exec[0] = NULL;
    w.exec[1] = exec2;
    /* Warm-up: first builds allocate, first touches fault the pages in. */
    hack3_build(w.offsets, w.blob, w.regiments, w.n_items, n_rows);
    for (int t = 0; t < 2; ++t) {
        dod_build(&w, t);
        dod_gather(&w, t);
    }

    variant vs[] = {
        { OP_FRAME, "hack3", 1, 0, 0, { 0 }, 0 },
        { OP_FRAME, "dod", 1, 1, 0, { 0 }, 0 },
        { OP_FRAME, "dod", 2, 1, 0, { 0 }, 0 },
        { OP_FRAME_GROUPED, "dod", 1, 1, 0, { 0 }, 0 },
        { OP_FRAME_GROUPED, "dod", 2, 1, 0, { 0 }, 0 },
        { OP_QUERY_RANDOM, "hack3", 1, 0, 0, { 0 }, 0 },
        { OP_QUERY_RANDOM, "hack3_prefetch", 1, 0, 1, { 0 }, 0 },
        { OP_QUERY_RANDOM_GROUPED, "dod", 1, 1, 1, { 0 }, 0 },
        { OP_QUERY_RANDOM_GROUPED, "dod_no_prefetch", 1, 1, 0, { 0 }, 0 },
    };
    const int nv = (int)(sizeof vs / sizeof vs[0]);
    for (int rep = 0; rep < runs; ++rep) {
        for (int k = 0; k < nv; ++k) {
            /* Alternate: every repetition runs every variant once, starting one later each time,
             * so no variant always follows the same neighbour. (Both dod indexes hold the same
             * bytes, so the grouped payload any of them gathered serves the random query.) */
            variant *v = &vs[(k + rep) % nv];
            long before = w.counter.allocs;
            double t0 = bench_now_ms();
            run_variant(&w, v);
            v->ms[rep] = bench_now_ms() - t0;
            v->allocs += w.counter.allocs - before;
        }
    }

    const int verbose = bench_verbose();
    if (verbose)
        printf("\n%s, %u rows, %u items, %d runs (ms: min / median; ratio = min / min of hack3)\n",
               regiment_dist_name(dist), n_rows, w.n_items, runs);
    for (int k = 0; k < nv; ++k) {
        variant *v = &vs[k];
        double mn = bench_min(v->ms, runs), md = bench_median(v->ms, runs);
        int t = v->threads - 1;
        size_t bytes = v->dod ? dod_csr_bytes(&w.csr[t]) + dod_arena_capacity(&w.scratch[t])
                              : hack3_bytes(&w);
        if (v->op == OP_FRAME_GROUPED || v->op == OP_QUERY_RANDOM_GROUPED)
            bytes += (size_t)w.n_items * sizeof(regiment_hms);
        enum op base = v->op == OP_FRAME_GROUPED ? OP_FRAME
                       : v->op == OP_QUERY_RANDOM_GROUPED ? OP_QUERY_RANDOM
                                                          : v->op;
        if (verbose)
            printf("  %-21s %-15s t%d %10.2f %10.2f  x%.3f\n", op_name[v->op], v->name,
                   v->threads, mn, md, ratio(vs, nv, v->op, v->name, v->threads, base, runs));
        if (out)
            fprintf(out,
                    "{\"bench\":\"csr_build\",\"variant\":\"%s\",\"op\":\"%s\",\"dist\":\"%s\","
                    "\"n_rows\":%u,\"n_items\":%u,\"threads\":%d,\"ms_min\":%.4f,"
                    "\"ms_median\":%.4f,\"bytes\":%zu,\"allocs\":%ld}\n",
                    v->name, op_name[v->op], regiment_dist_name(dist), n_rows, w.n_items,
                    v->threads, mn, md, bytes, v->allocs / runs);
    }
    if (!verbose)
        printf("grouped, %s, %u rows (min / min of hack3): frame_grouped t1 %.3fx, t2 %.3fx; "
               "query_random_grouped %.3fx\n",
               regiment_dist_name(dist), n_rows,
               ratio(vs, nv, OP_FRAME_GROUPED, "dod", 1, OP_FRAME, runs),
               ratio(vs, nv, OP_FRAME_GROUPED, "dod", 2, OP_FRAME, runs),
               ratio(vs, nv, OP_QUERY_RANDOM_GROUPED, "dod", 1, OP_QUERY_RANDOM, runs));

    /* The targets are about memory-bound sizes: in cache (quick mode's 64K rows) there are few
     * misses for the layout and the prefetch to save (0.34 - 0.50 of hack3, docs/build.md). */
    if (n_rows >= (1u << 20))
        targets(vs, nv, dist, n_rows, runs);
    for (int t = 0; t < 2; ++t) {
        dod_csr_free(&w.csr[t]);
        dod_arena_free(&w.scratch[t]);
    }
    free(w.regiments);
    free(w.perm);
    free(w.offsets);
    free(w.blob);
    free(w.grouped);
}
