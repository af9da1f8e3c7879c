/* The build section of bench_csr_build: every strategy of the library against the seed's hack 3
 * and against the floor, over every key distribution the adaptive choice has to get right.
 *
 *   floor          what any build must at least do, in plain loops: read the key column twice
 *                  (to check the keys, to place the items) and write the item array once
 *   hack3          the seed's count, prefix sum, scatter into buffers it keeps (steady state)
 *   dod_csr_build  the seed's API: the plain strategy, no scratch
 *   plain, partitioned, auto   dod_csr_build_desc with that strategy, on the calling thread (t1)
 *                  and on a 2-thread pool (t2), scratch from a frame arena
 *
 * Every dod build rebuilds one index in its steady state (capacity held, the arena grown), and
 * its bytes are checked against hack 3's once before the timed runs. */
#include "csr_build_bench.h"
#include <stdlib.h>
#include <string.h>

enum dist { UNIFORM, LONGTAIL, CLUSTERED, SORTED, REVERSE, FEW_ROWS, ONE_ROW, RUNS, N_DISTS };
static const char *const dist_name[N_DISTS] = { "uniform", "longtail", "clustered", "sorted",
                                                "reverse", "few_rows", "one_row",  "runs" };

#define FEW 64u /* few_rows: every key on one of 64 rows (random ones: evenly spaced rows
                 * 2^k apart would alias in the cache sets, a pathology of its own) */
#define RUN 64u /* runs: 64 equal keys in a row, each run's key uniform */

/* The seed's three distributions come from regiments_generate; the others are made from its
 * uniform keys (few_rows: the rows of the first FEW items; runs) or from the item number. */
static void make_keys(Regiment *g, uint32_t n_items, uint32_t n_rows, enum dist d)
{
    static const regiment_dist seed[] = { DIST_UNIFORM, DIST_LONGTAIL, DIST_CLUSTERED };
    regiments_generate(g, n_items, n_rows, d <= CLUSTERED ? seed[d] : DIST_UNIFORM);
    uint32_t few[FEW];
    for (uint32_t j = 0; j < FEW; ++j)
        few[j] = g[j].location;
    for (uint32_t i = 0; i < n_items; ++i) {
        uint32_t *key = &g[i].location;
        switch (d) {
        case SORTED: *key = (uint32_t)((uint64_t)i * n_rows / n_items); break;
        case REVERSE: *key = (uint32_t)((uint64_t)(n_items - 1 - i) * n_rows / n_items); break;
        case FEW_ROWS: *key = few[*key % FEW]; break;
        case ONE_ROW: *key = n_rows / 2; break;
        case RUNS: *key = g[i - i % RUN].location; break;
        default: break;
        }
    }
}

enum kind { FLOOR, HACK3, API, DESC };

/* The variants, in the order builds_run lists them. */
enum { V_FLOOR, V_HACK3, V_API, V_PLAIN1, V_PART1, V_AUTO1, V_PLAIN2, V_PART2, V_AUTO2 };

typedef struct variant {
    const char *name;
    enum kind kind;
    dod_csr_build_strategy strategy; /* DESC */
    int threads;
    double ms[BENCH_MAX_RUNS];
} variant;

typedef struct world {
    const Regiment *g;
    uint32_t n_rows, n_items;
    uint32_t *offsets, *blob; /* hack3 */
    uint32_t *floor_items;
    dod_csr csr;     /* every dod variant rebuilds this one index */
    dod_arena arena; /* and takes its scratch from this frame arena */
    const dod_executor *exec2;
} world;

/* The floor: the key column read twice, the item array written once. */
static void floor_build(const world *w)
{
    uint32_t max = 0;
    for (uint32_t i = 0; i < w->n_items; ++i)
        max = w->g[i].location > max ? w->g[i].location : max;
    if (w->n_items && max >= w->n_rows)
        bench_die("floor: a key out of range");
    for (uint32_t i = 0; i < w->n_items; ++i)
        w->floor_items[i] = w->g[i].location;
}

static void run(world *w, const variant *v)
{
    dod_csr_desc d;
    switch (v->kind) {
    case FLOOR: floor_build(w); break;
    case HACK3: hack3_build(w->offsets, w->blob, w->g, w->n_items, w->n_rows); break;
    case API:
        if (dod_csr_build(&w->csr, w->n_rows, &w->g[0].location, sizeof(Regiment), w->n_items))
            bench_die("dod_csr_build failed");
        break;
    case DESC:
        memset(&d, 0, sizeof d);
        d.n_rows = w->n_rows;
        d.n_items = w->n_items;
        d.keys = &w->g[0].location;
        d.key_stride = sizeof(Regiment);
        d.strategy = v->strategy;
        d.exec = v->threads == 2 ? w->exec2 : NULL;
        d.scratch = &w->arena;
        if (dod_csr_build_desc(&w->csr, &d) != DOD_OK)
            bench_die("dod_csr_build_desc failed");
        break;
    }
}

static int same_as_hack3(const world *w)
{
    return w->csr.n_rows == w->n_rows && w->csr.n_items == w->n_items &&
           memcmp(w->csr.offsets, w->offsets, ((size_t)w->n_rows + 1) * sizeof(uint32_t)) == 0 &&
           memcmp(w->csr.items, w->blob, (size_t)w->n_items * sizeof(uint32_t)) == 0;
}

static double min_of(const variant *v, int runs)
{
    return bench_min(v->ms, runs);
}

/* Time every variant `runs` times, alternating: each repetition runs each variant once, in an
 * order of its own, so no variant always finds the cache as the same neighbour left it. */
static void time_variants(world *w, variant *vs, int nv, int runs)
{
    uint32_t order[16];
    for (int k = 0; k < nv; ++k) { /* warm-up: the first builds allocate and fault pages in */
        run(w, &vs[k]);
        if (vs[k].kind >= API && !same_as_hack3(w))
            bench_die("a dod build differs from hack 3");
    }
    for (int rep = 0; rep < runs; ++rep) {
        regiments_permutation(order, (uint32_t)nv, (uint64_t)rep);
        for (int k = 0; k < nv; ++k) {
            variant *v = &vs[order[k]];
            double t0 = bench_now_ms();
            run(w, v);
            v->ms[rep] = bench_now_ms() - t0;
        }
    }
}

/* The JSON lines, and with DOD_BENCH_VERBOSE the table: every variant's min and median. */
static void report(FILE *out, const world *w, enum dist d, variant *vs, int nv, int runs)
{
    double hack3 = min_of(&vs[V_HACK3], runs), floor = min_of(&vs[V_FLOOR], runs);
    const int verbose = bench_verbose();
    if (verbose)
        printf("\n%s, %u rows, %u items, %d runs (ms: min / median; x = min over min)\n",
               dist_name[d], w->n_rows, w->n_items, runs);
    for (int k = 0; k < nv; ++k) {
        double mn = min_of(&vs[k], runs), md = bench_median(vs[k].ms, runs);
        if (verbose)
            printf("  build %-15s t%d %9.2f %9.2f  x%.3f hack3  x%.3f floor\n", vs[k].name,
                   vs[k].threads, mn, md, mn / hack3, mn / floor);
        if (out)
            fprintf(out,
                    "{\"bench\":\"csr_build\",\"variant\":\"%s\",\"op\":\"build\",\"dist\":\"%s\","
                    "\"n_rows\":%u,\"n_items\":%u,\"threads\":%d,\"ms_min\":%.4f,"
                    "\"ms_median\":%.4f,\"x_hack3\":%.4f,\"x_floor\":%.4f}\n",
                    vs[k].name, dist_name[d], w->n_rows, w->n_items, vs[k].threads, mn, md,
                    mn / hack3, mn / floor);
    }
}

/* auto against the better of plain and partitioned at the same thread count. */
static double auto_over_best(const variant *plain, const variant *part, const variant *adaptive,
                             int runs)
{
    double p = min_of(plain, runs), q = min_of(part, runs);
    return min_of(adaptive, runs) / (p < q ? p : q);
}

static void targets(const world *w, enum dist d, const variant *vs, int runs)
{
    const char *dn = dist_name[d];
    const uint32_t n = w->n_rows;
    double hack3 = min_of(&vs[V_HACK3], runs);
    bench_target("x", min_of(&vs[V_API], runs) / hack3, BENCH_AT_MOST, 1.05,
                 "dod_csr_build / hack3, %s, %u rows", dn, n);
    bench_target("x", auto_over_best(&vs[V_PLAIN1], &vs[V_PART1], &vs[V_AUTO1], runs),
                 BENCH_AT_MOST, 1.05, "auto / best of plain, partitioned (t1), %s, %u rows", dn, n);
    bench_target("x", auto_over_best(&vs[V_PLAIN2], &vs[V_PART2], &vs[V_AUTO2], runs),
                 BENCH_AT_MOST, 1.05, "auto / best of plain, partitioned (t2), %s, %u rows", dn, n);
    if (d != UNIFORM)
        return;
    double part1 = min_of(&vs[V_PART1], runs);
    if (n == (1u << 20)) {
        bench_target("x", part1 / hack3, BENCH_AT_MOST, 0.55,
                     "partitioned t1 / hack3, uniform, %u rows", n);
        bench_target("x", part1 / min_of(&vs[V_FLOOR], runs), BENCH_AT_MOST, 2.0,
                     "partitioned t1 / floor, uniform, %u rows", n);
        bench_target("x", min_of(&vs[V_PART2], runs) / hack3, BENCH_AT_MOST, 0.35,
                     "partitioned t2 / hack3, uniform, %u rows", n);
    }
    if (n == (8u << 20))
        bench_target("x", part1 / hack3, BENCH_AT_MOST, 0.35,
                     "partitioned t1 / hack3, uniform, %u rows", n);
}

void builds_run(FILE *out, uint32_t n_rows, int runs, const dod_executor *exec2)
{
    world w;
    memset(&w, 0, sizeof w);
    w.n_rows = n_rows;
    w.n_items = n_rows * 6;
    w.exec2 = exec2;
    Regiment *g = (Regiment *)malloc((size_t)w.n_items * sizeof *g);
    w.offsets = (uint32_t *)malloc(((size_t)n_rows + 1) * sizeof(uint32_t));
    w.blob = (uint32_t *)malloc((size_t)w.n_items * sizeof(uint32_t));
    w.floor_items = (uint32_t *)malloc((size_t)w.n_items * sizeof(uint32_t));
    if (!g || !w.offsets || !w.blob || !w.floor_items)
        bench_die("out of memory");
    w.g = g;
    dod_csr_init(&w.csr, NULL);
    dod_arena_init(&w.arena, 0, NULL);
    printf("\nbuilds at %u rows, %u items, %d runs: ratios of minima\n", n_rows, w.n_items, runs);
    for (int d = 0; d < N_DISTS; ++d) {
        variant vs[] = {
            { "floor", FLOOR, DOD_CSR_BUILD_AUTO, 1, { 0 } },
            { "hack3", HACK3, DOD_CSR_BUILD_AUTO, 1, { 0 } },
            { "dod_csr_build", API, DOD_CSR_BUILD_PLAIN, 1, { 0 } },
            { "plain", DESC, DOD_CSR_BUILD_PLAIN, 1, { 0 } },
            { "partitioned", DESC, DOD_CSR_BUILD_PARTITIONED, 1, { 0 } },
            { "auto", DESC, DOD_CSR_BUILD_AUTO, 1, { 0 } },
            { "plain", DESC, DOD_CSR_BUILD_PLAIN, 2, { 0 } },
            { "partitioned", DESC, DOD_CSR_BUILD_PARTITIONED, 2, { 0 } },
            { "auto", DESC, DOD_CSR_BUILD_AUTO, 2, { 0 } },
        };
        const int nv = (int)(sizeof vs / sizeof vs[0]);
        make_keys(g, w.n_items, n_rows, (enum dist)d);
        time_variants(&w, vs, nv, runs);
        report(out, &w, (enum dist)d, vs, nv, runs);
        targets(&w, (enum dist)d, vs, runs);
        fflush(stdout);
    }
    dod_csr_free(&w.csr);
    dod_arena_free(&w.arena);
    free(g);
    free(w.offsets);
    free(w.blob);
    free(w.floor_items);
}
