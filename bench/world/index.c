/* Relation indexes from the world (dod/world_index.h) against the same work over plain arrays,
 * at the seed's sizes: 1M locations, 6M regiments {location, army, health, mood, speed}, as
 * world entities (one archetype, fixed at 6M or chunked in the default blocks, growing from
 * 16 KiB to 4 MiB) and as a plain array of the same 20-byte records in the same order. Keys: the seed's uniform and long
 * tail (bench/common/regiments.c). Every variant of a case runs once per pass, in a rotating
 * order (wb_alternate), min and median over the passes; ratios are world / plain of the mins.
 *
 *   index                   regiments by location: dod_world_index_build against
 *                           dod_csr_build_desc over the plain array (keys at stride 20), both
 *                           adaptive with a frame arena for scratch, 1 and 2 threads
 *   gather                  health, mood, speed into row order: dod_world_gather against
 *                           dod_csr_gather, 1 and 2 threads
 *   query, query_random     the seed's query (for each location, in order or in a random
 *                           order, sum the speed of the regiments with mood >= 0.25 and
 *                           health > 0) over the gathered fields, with the prefetch hint on
 *                           the random walk: the same loop over what each side gathered
 *   query_random_direct     the same random query without gathering: the seed's
 *                           regiments[items[j]] against the world's typed get by item
 *   frame                   index + gather + query, 1 thread: what a frame costs
 * bench/csr_build/grouped.c does the same for tables; this mirrors it. Both sides must build
 * the same bytes (a fresh world's slots are its rows), gather the same bytes and sum the same
 * totals. Targets: index world / plain <= 1.2 (1 and 2 threads), query_random <= 1.3. */
#include <stdlib.h>
#include <string.h>
#include <dod/world.h>
#include "regiments.h"
#include "world_bench.h"

/* The seed's regiment with the army it belongs to ("members by army"). */
typedef struct regiment {
    uint32_t location, army;
    float health, mood, speed;
} regiment;

#define IX_COMPONENTS(C) C(regiment)
#define IX_TROOPS(X) X(regiment)
#define IX_ARCHETYPES(A) A(troops, IX_TROOPS, 0)
DOD_WORLD(ix, IX_COMPONENTS, IX_ARCHETYPES)

/* The fields the query reads, gathered into row order (regiments.h). */
typedef regiment_hms hms;

#define IX_ROWS (1u << 20)
#define IX_ITEMS (6u << 20)
#define IX_ARMIES 4096u

enum {
    V_INDEX_PLAIN_T1, V_INDEX_WORLD_T1, V_INDEX_PLAIN_T2, V_INDEX_WORLD_T2,
    V_GATHER_PLAIN_T1, V_GATHER_WORLD_T1, V_GATHER_PLAIN_T2, V_GATHER_WORLD_T2,
    V_QUERY_PLAIN, V_QUERY_WORLD, V_RANDOM_PLAIN, V_RANDOM_WORLD,
    V_DIRECT_PLAIN, V_DIRECT_WORLD, V_FRAME_PLAIN, V_FRAME_WORLD, N_VARIANTS
};

/* One side's index and gathered fields, at 1 and 2 threads. */
typedef struct side {
    dod_csr csr[2];
    dod_arena scratch[2];
    hms *grouped[2];
} side;

typedef struct ix_case {
    const regiment *plain; /* the regiments, in the world's row order */
    dod_world *w;
    dod_query q;
    const uint32_t *perm;  /* the locations in a random order */
    side plain_side, world_side;
    const dod_executor *exec[2];
    double sums[N_VARIANTS];
} ix_case;

/* ---- the two sides' operations ---- */

static void plain_index(ix_case *c, int t)
{
    dod_csr_desc d;
    memset(&d, 0, sizeof d);
    d.n_rows = IX_ROWS;
    d.n_items = IX_ITEMS;
    d.keys = &c->plain[0].location;
    d.key_stride = sizeof(regiment);
    d.exec = c->exec[t];
    d.scratch = &c->plain_side.scratch[t];
    wb_check(dod_csr_build_desc(&c->plain_side.csr[t], &d), "plain index");
}

static void world_index(ix_case *c, int t)
{
    dod_world_index_desc d;
    memset(&d, 0, sizeof d);
    d.query = &c->q;
    d.component = DOD_CID(ix, regiment);
    d.key_offset = (uint32_t)offsetof(regiment, location);
    d.n_rows = IX_ROWS;
    d.exec = c->exec[t];
    d.scratch = &c->world_side.scratch[t];
    wb_check(dod_world_index_build(&c->world_side.csr[t], c->w, &d), "world index");
}

static void plain_gather(ix_case *c, int t)
{
    dod_csr_column col = { c->plain_side.grouped[t], &c->plain[0].health, sizeof(regiment),
                           sizeof(hms) };
    wb_check(dod_csr_gather(&c->plain_side.csr[t], &col, 1, IX_ITEMS, c->exec[t]),
             "plain gather");
}

static void world_gather(ix_case *c, int t)
{
    dod_world_gather_col col = { c->world_side.grouped[t], DOD_CID(ix, regiment),
                                 (uint32_t)offsetof(regiment, health), sizeof(hms) };
    wb_check(dod_world_gather(&c->world_side.csr[t], c->w, &col, 1, c->exec[t]), "world gather");
}

static double query_all(const dod_csr *c, const hms *g)
{
    double total = 0;
    for (uint32_t r = 0; r < c->n_rows; ++r)
        total += grouped_query_row(c->offsets, g, r);
    return total;
}

static double query_random(const dod_csr *c, const hms *g, const uint32_t *perm)
{
    double total = 0;
    for (uint32_t k = 0; k < c->n_rows; ++k) {
        dod_csr_prefetch_rows(c, perm, c->n_rows, k, g, sizeof(hms));
        total += grouped_query_row(c->offsets, g, perm[k]);
    }
    return total;
}

/* The same test on a regiment reached by its item. */
static float visit(const regiment *r)
{
    return r->mood < 0.25f || r->health <= 0.0f ? 0.0f : r->speed;
}

static double direct_plain(const dod_csr *c, const regiment *plain, const uint32_t *perm)
{
    double total = 0;
    for (uint32_t k = 0; k < c->n_rows; ++k) {
        float travel_budget = 0.0f;
        for (const uint32_t *it = dod_csr_row_begin(c, perm[k]); it != dod_csr_row_end(c, perm[k]);
             ++it)
            travel_budget += visit(&plain[*it]);
        total += travel_budget;
    }
    return total;
}

static double direct_world(const dod_csr *c, const dod_world *w, const uint32_t *perm)
{
    double total = 0;
    for (uint32_t k = 0; k < c->n_rows; ++k) {
        float travel_budget = 0.0f;
        for (const uint32_t *it = dod_csr_row_begin(c, perm[k]); it != dod_csr_row_end(c, perm[k]);
             ++it)
            travel_budget += visit(ix_get_at_regiment(w, *it));
        total += travel_budget;
    }
    return total;
}

static void run_variant(void *ctx, int v)
{
    ix_case *c = (ix_case *)ctx;
    side *p = &c->plain_side, *s = &c->world_side;
    double sum = 0;
    switch (v) {
    case V_INDEX_PLAIN_T1: plain_index(c, 0); break;
    case V_INDEX_WORLD_T1: world_index(c, 0); break;
    case V_INDEX_PLAIN_T2: plain_index(c, 1); break;
    case V_INDEX_WORLD_T2: world_index(c, 1); break;
    case V_GATHER_PLAIN_T1: plain_gather(c, 0); break;
    case V_GATHER_WORLD_T1: world_gather(c, 0); break;
    case V_GATHER_PLAIN_T2: plain_gather(c, 1); break;
    case V_GATHER_WORLD_T2: world_gather(c, 1); break;
    case V_QUERY_PLAIN: sum = query_all(&p->csr[0], p->grouped[0]); break;
    case V_QUERY_WORLD: sum = query_all(&s->csr[0], s->grouped[0]); break;
    case V_RANDOM_PLAIN: sum = query_random(&p->csr[0], p->grouped[0], c->perm); break;
    case V_RANDOM_WORLD: sum = query_random(&s->csr[0], s->grouped[0], c->perm); break;
    case V_DIRECT_PLAIN: sum = direct_plain(&p->csr[0], c->plain, c->perm); break;
    case V_DIRECT_WORLD: sum = direct_world(&s->csr[0], c->w, c->perm); break;
    case V_FRAME_PLAIN:
        plain_index(c, 0);
        plain_gather(c, 0);
        sum = query_all(&p->csr[0], p->grouped[0]);
        break;
    default:
        world_index(c, 0);
        world_gather(c, 0);
        sum = query_all(&s->csr[0], s->grouped[0]);
        break;
    }
    c->sums[v] = sum;
}

/* ---- setting up a case ---- */

/* The world of 6M regiments in one archetype, fixed at 6M rows or chunked, their components
 * copied from the plain array (spawned in order: slot i is row i). */
static dod_world *make_world(const regiment *plain, int chunked)
{
    dod_world_desc d = ix_desc();
    dod_archetype_desc arch = d.archetypes[0];
    arch.capacity = chunked ? 0 : IX_ITEMS;
    d.archetypes = &arch;
    dod_world *w = NULL;
    wb_check(dod_world_create(&w, &d), "index world create");
    wb_check(dod_world_spawn_n(w, DOD_AID(ix, troops), IX_ITEMS, NULL), "index world spawn_n");
    ix_troops_cols cols;
    uint32_t at = 0;
    for (uint32_t b = 0; ix_troops_block(w, b, &cols); ++b) {
        memcpy(cols.regiment, plain + at, (size_t)cols.n * sizeof(regiment));
        at += cols.n;
    }
    wb_require(at == IX_ITEMS, "index world rows");
    return w;
}

static void side_init(side *s)
{
    for (int t = 0; t < 2; ++t) {
        dod_csr_init(&s->csr[t], NULL);
        dod_arena_init(&s->scratch[t], 0, NULL);
        s->grouped[t] = (hms *)wb_alloc((size_t)IX_ITEMS * sizeof(hms));
    }
}

static void side_free(side *s)
{
    for (int t = 0; t < 2; ++t) {
        dod_csr_free(&s->csr[t]);
        dod_arena_free(&s->scratch[t]);
        wb_free(s->grouped[t], (size_t)IX_ITEMS * sizeof(hms));
    }
}

/* Both sides built the same bytes, gathered the same fields and summed the same totals. */
static void check_case(const ix_case *c)
{
    const side *p = &c->plain_side, *s = &c->world_side;
    for (int t = 0; t < 2; ++t) {
        wb_require(dod_csr_equal(&p->csr[t], &s->csr[t]), "index: world and plain differ");
        wb_require(memcmp(p->grouped[t], s->grouped[t], (size_t)IX_ITEMS * sizeof(hms)) == 0,
                   "gather: world and plain differ");
    }
    wb_require(dod_csr_equal(&p->csr[0], &p->csr[1]), "index: 1 and 2 threads differ");
    wb_require(c->sums[V_QUERY_PLAIN] == c->sums[V_QUERY_WORLD] &&
                   c->sums[V_FRAME_PLAIN] == c->sums[V_QUERY_PLAIN] &&
                   c->sums[V_FRAME_WORLD] == c->sums[V_QUERY_PLAIN],
               "query: totals differ");
    wb_require(c->sums[V_RANDOM_PLAIN] == c->sums[V_RANDOM_WORLD] &&
                   c->sums[V_DIRECT_PLAIN] == c->sums[V_RANDOM_PLAIN] &&
                   c->sums[V_DIRECT_WORLD] == c->sums[V_RANDOM_PLAIN],
               "query_random: totals differ");
}

static const struct {
    const char *op, *side;
    int threads;
} names[N_VARIANTS] = {
    { "index", "plain", 1 },  { "index", "world", 1 },  { "index", "plain", 2 },
    { "index", "world", 2 },  { "gather", "plain", 1 }, { "gather", "world", 1 },
    { "gather", "plain", 2 }, { "gather", "world", 2 }, { "query", "plain", 1 },
    { "query", "world", 1 },  { "query_random", "plain", 1 }, { "query_random", "world", 1 },
    { "query_random_direct", "plain", 1 }, { "query_random_direct", "world", 1 },
    { "frame", "plain", 1 },  { "frame", "world", 1 },
};

/* Print every variant (ns per regiment, min and median), each world / plain ratio of the mins
 * and the medians, and the targets. */
static void report(const char *kind, const char *dist, double t[][WB_MAX_PASSES], int passes)
{
    double mins[N_VARIANTS], meds[N_VARIANTS];
    for (int v = 0; v < N_VARIANTS; ++v) {
        char variant[64];
        snprintf(variant, sizeof variant, "%s-%s-%s-t%d", kind, dist, names[v].side,
                 names[v].threads);
        mins[v] = wb_emit(names[v].op, variant, IX_ITEMS, IX_ITEMS, t[v], passes);
        meds[v] = bench_median(t[v], passes);
    }
    for (int v = 0; v < N_VARIANTS; v += 2) {
        double r_min = mins[v + 1] / mins[v], r_med = meds[v + 1] / meds[v];
        printf("  %-20s t%d  world / plain  min %.3f  median %.3f\n", names[v].op,
               names[v].threads, r_min, r_med);
        if (v <= V_INDEX_PLAIN_T2 || v == V_RANDOM_PLAIN)
            bench_target("x", r_min, BENCH_AT_MOST, v == V_RANDOM_PLAIN ? 1.3 : 1.2,
                         "%s %s %s t%d world / plain (min), %u items", names[v].op, kind, dist,
                         names[v].threads, (unsigned)IX_ITEMS);
    }
}

static void run_case(const regiment *plain_src, const uint32_t *perm, int chunked,
                     regiment_dist dist, int passes, const dod_executor *exec2)
{
    static double t[N_VARIANTS][WB_MAX_PASSES];
    const char *kind = chunked ? "chunked" : "fixed";
    ix_case c;
    memset(&c, 0, sizeof c);
    c.plain = plain_src;
    c.perm = perm;
    c.w = make_world(plain_src, chunked);
    uint32_t comp = DOD_CID(ix, regiment);
    wb_check(dod_query_init(&c.q, c.w, &comp, 1, NULL, 0), "index query");
    c.exec[0] = NULL;
    c.exec[1] = exec2;
    side_init(&c.plain_side);
    side_init(&c.world_side);
    /* Warm-up: the first builds allocate and fault their pages in. */
    for (int t2 = 0; t2 < 2; ++t2) {
        plain_index(&c, t2);
        world_index(&c, t2);
        plain_gather(&c, t2);
        world_gather(&c, t2);
    }
    printf("\nindex: %s archetype, %s keys, %u locations, %u regiments, %d passes\n", kind,
           regiment_dist_name(dist), IX_ROWS, IX_ITEMS, passes);
    wb_alternate(N_VARIANTS, passes, NULL, run_variant, &c, t);
    check_case(&c);
    report(kind, regiment_dist_name(dist), t, passes);
    side_free(&c.plain_side);
    side_free(&c.world_side);
    dod_world_destroy(c.w);
}

void index_bench(int passes)
{
    dod_threadpool *pool = NULL;
    wb_check(dod_threadpool_create(&pool, 2, NULL), "index pool");
    dod_executor exec2 = dod_threadpool_executor(pool);
    Regiment *seed = (Regiment *)wb_alloc((size_t)IX_ITEMS * sizeof *seed);
    regiment *plain = (regiment *)wb_alloc((size_t)IX_ITEMS * sizeof *plain);
    uint32_t *perm = (uint32_t *)wb_alloc((size_t)IX_ROWS * sizeof *perm);
    regiments_permutation(perm, IX_ROWS, 777);
    const regiment_dist dists[2] = { DIST_UNIFORM, DIST_LONGTAIL };
    for (int k = 0; k < 2; ++k) {
        regiments_generate(seed, IX_ITEMS, IX_ROWS, dists[k]);
        for (uint32_t i = 0; i < IX_ITEMS; ++i) {
            plain[i].location = seed[i].location;
            plain[i].army = i % IX_ARMIES;
            plain[i].health = seed[i].health;
            plain[i].mood = seed[i].mood;
            plain[i].speed = seed[i].speed;
        }
        for (int chunked = 0; chunked < 2; ++chunked)
            run_case(plain, perm, chunked, dists[k], passes, &exec2);
    }
    wb_free(seed, (size_t)IX_ITEMS * sizeof *seed);
    wb_free(plain, (size_t)IX_ITEMS * sizeof *plain);
    wb_free(perm, (size_t)IX_ROWS * sizeof *perm);
    dod_threadpool_destroy(pool);
}
