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
 * totals. Targets: index world / plain <= 1.2 (1 and 2 threads), query_random <= 1.3.
 *
 * Then the read path of an index of a frame's world (index_rows_bench): items that are the
 * query's row numbers (DOD_WORLD_INDEX_ROWS, dod/world_rows.h) against plain arrays holding the
 * keys and fields in the query's walk order, so row number k is array index k and both sides
 * build the same bytes. n regiments (1M; quick 256K) over n / 6 locations (the seed's six a
 * location), keys uniform and long tail, in four archetypes {place, health, speed} in the mix
 * 4:2:1:1: fixed (one block each, the branch-free path of dod_world_rows) or chunked (the
 * default growing blocks, its cursor):
 *   index_rows    by location: dod_world_index_build with DOD_WORLD_INDEX_ROWS against
 *                 dod_csr_build_desc over the keys in one array, 1 and 2 threads
 *   gather_rows   health and speed into row order: dod_world_gather_rows against
 *                 dod_csr_gather from the two arrays
 *   read_rows     every index row in order, the speed of its items summed: rx_row_speed(&rows,
 *                 item) through one dod_world_rows against speed[item]
 *   read_random   the items of 200K random rows (n / 1M of it; a UI's pattern: a location
 *                 picked, its few regiments read), the same two ways
 * The caches are emptied (96 MiB touched) before every run, so no variant finds what the one
 * before it left there. Targets at 1M: world / plain <= 1.1 for each. The reads may miss it: a
 * row number's read costs more instructions than plain[item] (fixed: a count of the archetype
 * starts and a column load; chunked: a seek, a walk to the archetype and the block arithmetic,
 * whenever an item lies in another block than the one read before, which keys spread over four
 * archetypes make most items), and so may the gather, which copies runs of items lying in one
 * block: that is the accessor's price, measured against the array as it is. */
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

/* A variant's name in the output: what it does, on which side, on how many threads. */
typedef struct variant_name {
    const char *op, *side;
    int threads;
} variant_name;

#define MAX_VARIANTS 16 /* the most variants a case has */
_Static_assert(N_VARIANTS <= MAX_VARIANTS, "report_pairs holds every variant");

/* Emit n variants that come in pairs, plain then world (ns per item: per[v] items each, size
 * the case's), print each pair's world / plain ratio of the mins and of the medians, and keep
 * the ratio of the mins of pair v / 2 in r_min[v / 2]. */
static void report_pairs(const variant_name *name, int n, const char *kind, const char *dist,
                         uint32_t size, const double *per, double t[][WB_MAX_PASSES], int passes,
                         double *r_min)
{
    double mins[MAX_VARIANTS], meds[MAX_VARIANTS];
    for (int v = 0; v < n; ++v) {
        char variant[64];
        snprintf(variant, sizeof variant, "%s-%s-%s-t%d", kind, dist, name[v].side,
                 name[v].threads);
        mins[v] = wb_emit(name[v].op, variant, size, per[v], t[v], passes);
        meds[v] = bench_median(t[v], passes);
    }
    for (int v = 0; v < n; v += 2) {
        r_min[v / 2] = mins[v + 1] / mins[v];
        printf("  %-20s t%d  world / plain  min %.3f  median %.3f\n", name[v].op,
               name[v].threads, r_min[v / 2], meds[v + 1] / meds[v]);
    }
}

static const variant_name names[N_VARIANTS] = {
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
    double per[N_VARIANTS], r_min[N_VARIANTS / 2];
    for (int v = 0; v < N_VARIANTS; ++v)
        per[v] = IX_ITEMS;
    report_pairs(names, N_VARIANTS, kind, dist, IX_ITEMS, per, t, passes, r_min);
    for (int v = 0; v < N_VARIANTS; v += 2) {
        if (v <= V_INDEX_PLAIN_T2 || v == V_RANDOM_PLAIN)
            bench_target("x", r_min[v / 2], BENCH_AT_MOST, v == V_RANDOM_PLAIN ? 1.3 : 1.2,
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

/* ---- row numbers (DOD_WORLD_INDEX_ROWS) against plain arrays in walk order ---- */

/* A regiment's fields as components of their own, as a frame's world holds them. */
typedef struct place { uint32_t location; } place;
typedef struct health { float value; } health;
typedef struct speed { float value; } speed;

#define RX_COMPONENTS(C) C(place) C(health) C(speed)
#define RX_TROOPS(X) X(place) X(health) X(speed)
/* A capacity > 0 marks a fixed archetype; rows_world sets it to the archetype's count. */
#define RX_ARCHETYPES(A)                                                                       \
    A(infantry, RX_TROOPS, 1) A(cavalry, RX_TROOPS, 1) A(archers, RX_TROOPS, 1)                \
        A(artillery, RX_TROOPS, 1)
DOD_WORLD(rx, RX_COMPONENTS, RX_ARCHETYPES)

#define RX_KINDS 4u
#define RX_PER_LOCATION 6u
#define RX_RANDOM_ROWS 200000u
#define RX_EVICT_BYTES ((size_t)96 << 20)

enum {
    R_INDEX_PLAIN_T1, R_INDEX_WORLD_T1, R_INDEX_PLAIN_T2, R_INDEX_WORLD_T2,
    R_GATHER_PLAIN, R_GATHER_WORLD, R_WALK_PLAIN, R_WALK_WORLD, R_RANDOM_PLAIN, R_RANDOM_WORLD,
    N_ROW_VARIANTS
};
enum { PLAIN, WORLD };

/* The regiments as plain arrays in walk order, and the rows the random reads pick. */
typedef struct rows_data {
    uint32_t n, n_rows, n_random;
    uint32_t *keys, *picks;
    float *health, *speed;
} rows_data;

/* One case: both sides' indexes (1 and 2 threads) and gathered fields, the world's rows. */
typedef struct rows_case {
    const rows_data *data;
    dod_world *w;
    dod_query q;
    dod_world_rows rows;                  /* made once, read by every world pass */
    dod_csr csr[2][2];                    /* [side][threads] */
    dod_arena scratch[2][2];
    float *health[2], *speed[2];          /* gathered, per side */
    const dod_executor *exec[2];
    unsigned char *junk;                  /* RX_EVICT_BYTES, touched before every run */
    double sums[N_ROW_VARIANTS];
} rows_case;

/* Rows of archetype k in the mix 4:2:1:1 (the last takes what the division leaves). */
static uint32_t rows_share(uint32_t n, uint32_t k)
{
    const uint32_t eighths[RX_KINDS] = { 4, 2, 1, 1 };
    return k + 1 < RX_KINDS ? n / 8 * eighths[k] : n - n / 8 * 7;
}

static void plain_rows_index(rows_case *c, int t)
{
    dod_csr_desc d;
    memset(&d, 0, sizeof d);
    d.n_rows = c->data->n_rows;
    d.n_items = c->data->n;
    d.keys = c->data->keys;
    d.key_stride = sizeof(uint32_t);
    d.exec = c->exec[t];
    d.scratch = &c->scratch[PLAIN][t];
    wb_check(dod_csr_build_desc(&c->csr[PLAIN][t], &d), "plain rows index");
}

static void world_rows_index(rows_case *c, int t)
{
    dod_world_index_desc d;
    memset(&d, 0, sizeof d);
    d.query = &c->q;
    d.component = DOD_CID(rx, place);
    d.key_offset = (uint32_t)offsetof(place, location);
    d.n_rows = c->data->n_rows;
    d.exec = c->exec[t];
    d.scratch = &c->scratch[WORLD][t];
    d.flags = DOD_WORLD_INDEX_ROWS;
    wb_check(dod_world_index_build(&c->csr[WORLD][t], c->w, &d), "world rows index");
}

static void plain_rows_gather(rows_case *c)
{
    const dod_csr_column cols[2] = {
        { c->health[PLAIN], c->data->health, sizeof(float), sizeof(float) },
        { c->speed[PLAIN], c->data->speed, sizeof(float), sizeof(float) },
    };
    wb_check(dod_csr_gather(&c->csr[PLAIN][0], cols, 2, c->data->n, NULL), "plain rows gather");
}

static void world_rows_gather(rows_case *c)
{
    const dod_world_gather_col cols[2] = {
        { c->health[WORLD], DOD_CID(rx, health), 0, sizeof(float) },
        { c->speed[WORLD], DOD_CID(rx, speed), 0, sizeof(float) },
    };
    wb_check(dod_world_gather_rows(&c->csr[WORLD][0], c->w, &c->q, cols, 2, NULL),
             "world rows gather");
}

/* The speeds of every index row's items summed (picks NULL: every row in order), or of the n
 * picked rows' items, a float a row as the seed's query sums: by array index, and by row
 * number through the world's rows (each loop written out whole, so the compiler treats both
 * alike). */
static double read_plain(const dod_csr *c, const float *speed_of, const uint32_t *picks,
                         uint32_t n)
{
    double total = 0;
    for (uint32_t k = 0; k < n; ++k) {
        uint32_t r = picks ? picks[k] : k;
        float sum = 0.0f;
        for (const uint32_t *it = dod_csr_row_begin(c, r); it != dod_csr_row_end(c, r); ++it)
            sum += speed_of[*it];
        total += sum;
    }
    return total;
}

static double read_world(const dod_csr *c, dod_world_rows *rows, const uint32_t *picks,
                         uint32_t n)
{
    double total = 0;
    for (uint32_t k = 0; k < n; ++k) {
        uint32_t r = picks ? picks[k] : k;
        float sum = 0.0f;
        for (const uint32_t *it = dod_csr_row_begin(c, r); it != dod_csr_row_end(c, r); ++it)
            sum += rx_row_speed(rows, *it)->value;
        total += sum;
    }
    return total;
}

static void run_rows(void *ctx, int v)
{
    rows_case *c = (rows_case *)ctx;
    const rows_data *d = c->data;
    double sum = 0;
    switch (v) {
    case R_INDEX_PLAIN_T1: plain_rows_index(c, 0); break;
    case R_INDEX_WORLD_T1: world_rows_index(c, 0); break;
    case R_INDEX_PLAIN_T2: plain_rows_index(c, 1); break;
    case R_INDEX_WORLD_T2: world_rows_index(c, 1); break;
    case R_GATHER_PLAIN: plain_rows_gather(c); break;
    case R_GATHER_WORLD: world_rows_gather(c); break;
    case R_WALK_PLAIN: sum = read_plain(&c->csr[PLAIN][0], d->speed, NULL, d->n_rows); break;
    case R_WALK_WORLD: sum = read_world(&c->csr[WORLD][0], &c->rows, NULL, d->n_rows); break;
    case R_RANDOM_PLAIN:
        sum = read_plain(&c->csr[PLAIN][0], d->speed, d->picks, d->n_random);
        break;
    default: sum = read_world(&c->csr[WORLD][0], &c->rows, d->picks, d->n_random); break;
    }
    c->sums[v] = sum;
}

/* A prepare for wb_alternate: touches RX_EVICT_BYTES, more than the caches hold, so the run
 * after it finds nothing of the run before it there. */
static void rows_evict(void *ctx, int v)
{
    rows_case *c = (rows_case *)ctx;
    uint64_t sum = 0;
    (void)v;
    for (size_t i = 0; i < RX_EVICT_BYTES; i += 64)
        sum += c->junk[i]++;
    bench_sink += sum;
}

/* The world of d's regiments: archetype k holds its share of them, in order, so the query's
 * walk meets them in the arrays' order. Fixed: capacity the share; chunked: default blocks. */
static dod_world *rows_world(const rows_data *d, int chunked)
{
    rx_config cfg = rx_config_default();
    dod_archetype_desc *arch[RX_KINDS] = { &cfg.infantry, &cfg.cavalry, &cfg.archers,
                                           &cfg.artillery };
    for (uint32_t k = 0; k < RX_KINDS; ++k)
        arch[k]->capacity = chunked ? 0 : rows_share(d->n, k);
    dod_world *w = NULL;
    wb_check(rx_create_config(&w, &cfg, NULL, 0), "rows world create");
    uint32_t at = 0;
    for (uint32_t k = 0; k < RX_KINDS; ++k) {
        wb_check(dod_world_spawn_n(w, k, rows_share(d->n, k), NULL), "rows world spawn_n");
        void *cols[1 + 3];
        uint32_t m;
        for (uint32_t b = 0; (m = dod_world_block(w, k, b, cols)) > 0; ++b, at += m) {
            memcpy(cols[1], d->keys + at, (size_t)m * sizeof(uint32_t));
            memcpy(cols[2], d->health + at, (size_t)m * sizeof(float));
            memcpy(cols[3], d->speed + at, (size_t)m * sizeof(float));
        }
    }
    wb_require(at == d->n, "rows world rows");
    return w;
}

static void rows_case_init(rows_case *c, const rows_data *d, int chunked,
                           const dod_executor *exec2, unsigned char *junk)
{
    memset(c, 0, sizeof *c);
    c->data = d;
    c->junk = junk;
    c->exec[1] = exec2;
    c->w = rows_world(d, chunked);
    uint32_t comp = DOD_CID(rx, place);
    wb_check(dod_query_init(&c->q, c->w, &comp, 1, NULL, 0), "rows query");
    wb_check(dod_world_rows_init(&c->rows, c->w, &c->q), "rows init");
    for (int s = 0; s < 2; ++s) {
        for (int t = 0; t < 2; ++t) {
            dod_csr_init(&c->csr[s][t], NULL);
            dod_arena_init(&c->scratch[s][t], 0, NULL);
        }
        c->health[s] = (float *)wb_alloc((size_t)d->n * sizeof(float));
        c->speed[s] = (float *)wb_alloc((size_t)d->n * sizeof(float));
    }
}

static void rows_case_free(rows_case *c)
{
    for (int s = 0; s < 2; ++s) {
        for (int t = 0; t < 2; ++t) {
            dod_csr_free(&c->csr[s][t]);
            dod_arena_free(&c->scratch[s][t]);
        }
        wb_free(c->health[s], (size_t)c->data->n * sizeof(float));
        wb_free(c->speed[s], (size_t)c->data->n * sizeof(float));
    }
    dod_world_destroy(c->w);
}

/* Both sides built the same bytes (row numbers are array indexes), gathered the same bytes and
 * summed the same totals. */
static void check_rows_case(const rows_case *c)
{
    const size_t bytes = (size_t)c->data->n * sizeof(float);
    for (int t = 0; t < 2; ++t)
        wb_require(dod_csr_equal(&c->csr[PLAIN][t], &c->csr[WORLD][t]),
                   "index_rows: world and plain differ");
    wb_require(dod_csr_equal(&c->csr[WORLD][0], &c->csr[WORLD][1]),
               "index_rows: 1 and 2 threads differ");
    wb_require(memcmp(c->health[PLAIN], c->health[WORLD], bytes) == 0 &&
                   memcmp(c->speed[PLAIN], c->speed[WORLD], bytes) == 0,
               "gather_rows: world and plain differ");
    wb_require(c->sums[R_WALK_PLAIN] == c->sums[R_WALK_WORLD], "read_rows: totals differ");
    wb_require(c->sums[R_RANDOM_PLAIN] == c->sums[R_RANDOM_WORLD],
               "read_random: totals differ");
}

_Static_assert(N_ROW_VARIANTS <= MAX_VARIANTS, "report_pairs holds every variant");
static const variant_name row_names[N_ROW_VARIANTS] = {
    { "index_rows", "plain", 1 },  { "index_rows", "world", 1 },  { "index_rows", "plain", 2 },
    { "index_rows", "world", 2 },  { "gather_rows", "plain", 1 }, { "gather_rows", "world", 1 },
    { "read_rows", "plain", 1 },   { "read_rows", "world", 1 },   { "read_random", "plain", 1 },
    { "read_random", "world", 1 },
};

/* Items the random reads visit: the picked rows' lengths added up. */
static uint32_t picked_items(const dod_csr *c, const rows_data *d)
{
    uint32_t items = 0;
    for (uint32_t k = 0; k < d->n_random; ++k)
        items += dod_csr_row_len(c, d->picks[k]);
    return items;
}

/* Print every variant (ns per item, min and median), each world / plain ratio of the mins and
 * the medians, and the targets. */
static void report_rows(const rows_case *c, const char *kind, const char *dist,
                        double t[][WB_MAX_PASSES], int passes, int targets)
{
    const rows_data *d = c->data;
    uint32_t random_items = picked_items(&c->csr[PLAIN][0], d);
    double per[N_ROW_VARIANTS], r_min[N_ROW_VARIANTS / 2];
    for (int v = 0; v < N_ROW_VARIANTS; ++v)
        per[v] = (double)(v >= R_RANDOM_PLAIN ? random_items : d->n);
    report_pairs(row_names, N_ROW_VARIANTS, kind, dist, d->n, per, t, passes, r_min);
    for (int v = 0; v < N_ROW_VARIANTS; v += 2) {
        if (targets)
            bench_target("x", r_min[v / 2], BENCH_AT_MOST, 1.1,
                         "%s %s %s t%d world / plain (min), %u items", row_names[v].op, kind,
                         dist, row_names[v].threads, (unsigned)d->n);
    }
}

static void run_rows_case(const rows_data *d, int chunked, regiment_dist dist, int passes,
                          int targets, const dod_executor *exec2, unsigned char *junk)
{
    static double t[N_ROW_VARIANTS][WB_MAX_PASSES];
    rows_case c;
    const char *kind = chunked ? "chunked" : "fixed";
    rows_case_init(&c, d, chunked, exec2, junk);
    for (int v = 0; v < R_WALK_PLAIN; ++v) /* warm-up: the first builds allocate and fault */
        run_rows(&c, v);
    printf("\nindex rows: %s archetypes (4:2:1:1), %s keys, %u locations, %u regiments, %u "
           "random rows, %d passes\n",
           kind, regiment_dist_name(dist), d->n_rows, d->n, d->n_random, passes);
    wb_alternate(N_ROW_VARIANTS, passes, rows_evict, run_rows, &c, t);
    check_rows_case(&c);
    report_rows(&c, kind, regiment_dist_name(dist), t, passes, targets);
    rows_case_free(&c);
}

/* d's arrays from the seed's regiments of distribution dist, and its random picks. */
static void rows_data_fill(rows_data *d, regiment_dist dist)
{
    Regiment *seed = (Regiment *)wb_alloc((size_t)d->n * sizeof *seed);
    regiments_generate(seed, d->n, d->n_rows, dist);
    for (uint32_t i = 0; i < d->n; ++i) {
        d->keys[i] = seed[i].location;
        d->health[i] = seed[i].health;
        d->speed[i] = seed[i].speed;
    }
    wb_free(seed, (size_t)d->n * sizeof *seed);
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (uint32_t k = 0; k < d->n_random; ++k) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        d->picks[k] = (uint32_t)(((x >> 32) * d->n_rows) >> 32);
    }
}

void index_rows_bench(uint32_t n, int passes, int targets)
{
    dod_threadpool *pool = NULL;
    wb_check(dod_threadpool_create(&pool, 2, NULL), "rows pool");
    dod_executor exec2 = dod_threadpool_executor(pool);
    rows_data d;
    d.n = n;
    d.n_rows = n / RX_PER_LOCATION;
    d.n_random = (uint32_t)((uint64_t)RX_RANDOM_ROWS * n / WB_1M);
    d.keys = (uint32_t *)wb_alloc((size_t)n * sizeof(uint32_t));
    d.health = (float *)wb_alloc((size_t)n * sizeof(float));
    d.speed = (float *)wb_alloc((size_t)n * sizeof(float));
    d.picks = (uint32_t *)wb_alloc((size_t)d.n_random * sizeof(uint32_t));
    unsigned char *junk = (unsigned char *)wb_alloc(RX_EVICT_BYTES);
    memset(junk, 1, RX_EVICT_BYTES);
    const regiment_dist dists[2] = { DIST_UNIFORM, DIST_LONGTAIL };
    for (int k = 0; k < 2; ++k) {
        rows_data_fill(&d, dists[k]);
        for (int chunked = 0; chunked < 2; ++chunked)
            run_rows_case(&d, chunked, dists[k], passes, targets, &exec2, junk);
    }
    wb_free(junk, RX_EVICT_BYTES);
    wb_free(d.keys, (size_t)n * sizeof(uint32_t));
    wb_free(d.health, (size_t)n * sizeof(float));
    wb_free(d.speed, (size_t)n * sizeof(float));
    wb_free(d.picks, (size_t)d.n_random * sizeof(uint32_t));
    dod_threadpool_destroy(pool);
}
