#include <dod/graph.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

/* A random directed graph as an edge list, and its adjacency index + weight column. */
typedef struct graph {
    uint32_t n, m;
    uint32_t *src, *dst;
    float *w;          /* per edge */
    dod_csr adj;       /* items = neighbour ids */
    float *weights;    /* parallel to adj.items */
} graph;

/* The positional forms the tests read best in; each fills a desc as a caller would. UINT32_MAX
 * max_depth is "no limit", as in the reference model. */
static dod_status flood(const dod_csr *adj, const uint32_t *seeds, uint32_t n_seeds,
                        uint32_t max_depth, dod_graph_filter filter, void *filter_ctx,
                        dod_graph_scratch *s)
{
    dod_graph_flood_desc d = { seeds, n_seeds, max_depth == UINT32_MAX ? 0 : max_depth, filter,
                               filter_ctx };
    return dod_graph_flood(adj, &d, s);
}

static dod_status path(const dod_csr *adj, const float *weights, uint32_t source,
                       uint32_t target, dod_graph_heuristic heuristic, void *heuristic_ctx,
                       dod_graph_filter filter, void *filter_ctx, dod_graph_scratch *s,
                       dod_graph_route *route)
{
    dod_graph_path_desc d = { weights, source, target, heuristic, heuristic_ctx, filter,
                              filter_ctx };
    return dod_graph_path(adj, &d, s, route);
}

static void graph_index(graph *g)
{
    dod_csr_init(&g->adj, NULL);
    CHECK_OK(dod_csr_build(&g->adj, g->n, g->src, sizeof(uint32_t), g->m));
    g->weights = (float *)malloc((size_t)g->m * sizeof(float) + 4);
    /* the build lists edge ids per source row; turn them into neighbour ids */
    for (uint32_t k = 0; k < g->m; ++k) {
        uint32_t e = g->adj.items[k];
        g->weights[k] = g->w[e];
        g->adj.items[k] = g->dst[e];
    }
}

static void graph_random(graph *g, test_rng *rng, uint32_t n, uint32_t m, int zero_weights)
{
    g->n = n;
    g->m = m;
    g->src = (uint32_t *)malloc((size_t)m * sizeof(uint32_t) + 4);
    g->dst = (uint32_t *)malloc((size_t)m * sizeof(uint32_t) + 4);
    g->w = (float *)malloc((size_t)m * sizeof(float) + 4);
    /* a third of the nodes never have out-edges (empty rows) */
    for (uint32_t e = 0; e < m; ++e) {
        uint32_t s;
        do
            s = test_rng_below(rng, n);
        while (n > 2 && s % 3 == 2);
        g->src[e] = s;
        g->dst[e] = test_rng_below(rng, 8) == 0 ? s : test_rng_below(rng, n); /* self loops */
        uint32_t r = test_rng_below(rng, 100);
        g->w[e] = zero_weights && r < 20 ? 0.0f : (float)r / 10.0f;
    }
    graph_index(g);
}

static void graph_free(graph *g)
{
    dod_csr_free(&g->adj);
    free(g->src);
    free(g->dst);
    free(g->w);
    free(g->weights);
}

/* Filter: nodes whose id is a multiple of `modulus` are refused. */
typedef struct refuse { uint32_t modulus; long calls; } refuse;
static int refuse_multiples(void *ctx, uint32_t node)
{
    refuse *r = (refuse *)ctx;
    r->calls++;
    return node % r->modulus != 0;
}

/* Reference flood: relax depth over the edge list until nothing changes. */
static void ref_flood(const graph *g, const uint32_t *seeds, uint32_t n_seeds, uint32_t max_depth,
                      const refuse *filter, uint32_t *depth)
{
    for (uint32_t v = 0; v < g->n; ++v)
        depth[v] = UINT32_MAX;
    for (uint32_t i = 0; i < n_seeds; ++i)
        if (!filter || seeds[i] % filter->modulus != 0)
            depth[seeds[i]] = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t e = 0; e < g->m; ++e) {
            uint32_t a = g->src[e], b = g->dst[e];
            if (depth[a] == UINT32_MAX || depth[a] >= max_depth)
                continue;
            if (filter && b % filter->modulus == 0)
                continue;
            if (depth[a] + 1 < depth[b]) {
                depth[b] = depth[a] + 1;
                changed = 1;
            }
        }
    }
}

static int flood_matches(const graph *g, const dod_graph_scratch *s, const uint32_t *seeds,
                         uint32_t n_seeds, const uint32_t *depth)
{
    uint32_t reached = 0;
    for (uint32_t v = 0; v < g->n; ++v) {
        reached += depth[v] != UINT32_MAX;
        if (dod_graph_depth(s, v) != depth[v] || dod_graph_reached(s, v) != (depth[v] != UINT32_MAX))
            return 0;
    }
    if (s->n_order != reached)
        return 0;
    /* BFS order: depths never decrease, each node once; seeds in the order given */
    uint32_t seen_seeds = 0;
    for (uint32_t i = 0; i < s->n_order; ++i) {
        uint32_t v = s->order[i];
        if (i > 0 && depth[v] < depth[s->order[i - 1]])
            return 0;
        for (uint32_t j = 0; j < i; ++j)
            if (s->order[j] == v)
                return 0;
        if (depth[v] == 0) {
            /* the first occurrence among seeds of v must come after the previous ones */
            uint32_t first = 0;
            while (seeds[first] != v)
                ++first;
            if (first < seen_seeds)
                return 0;
            seen_seeds = first;
        }
    }
    (void)n_seeds;
    return 1;
}

static void test_flood_property(void)
{
    test_rng rng = { 7 };
    dod_graph_scratch s;
    dod_graph_scratch_init(&s, NULL);
    int ok = 1;
    for (int iter = 0; iter < 300; ++iter) {
        graph g;
        uint32_t n = 1 + test_rng_below(&rng, 80);
        graph_random(&g, &rng, n, test_rng_below(&rng, 3 * n), 0);
        uint32_t seeds[6], n_seeds = test_rng_below(&rng, 6);
        for (uint32_t i = 0; i < n_seeds; ++i)
            seeds[i] = test_rng_below(&rng, n); /* duplicates happen */
        uint32_t max_depth = iter % 4 == 0 ? 1 + test_rng_below(&rng, 3) : UINT32_MAX;
        refuse filter = { 2 + test_rng_below(&rng, 5), 0 };
        int use_filter = iter % 3 == 0;
        uint32_t *depth = (uint32_t *)malloc((size_t)n * sizeof(uint32_t));
        ref_flood(&g, seeds, n_seeds, max_depth, use_filter ? &filter : NULL, depth);
        ok &= flood(&g.adj, seeds, n_seeds, max_depth,
                              use_filter ? refuse_multiples : NULL, &filter, &s) == DOD_OK;
        ok &= flood_matches(&g, &s, seeds, n_seeds, depth);
        free(depth);
        graph_free(&g);
    }
    CHECK(ok);
    dod_graph_scratch_free(&s);
}

/* Reference shortest paths: Bellman-Ford over the edge list (float sums along the path).
 * The candidate is stored to a float before it is compared: where float expressions are
 * evaluated wider than float (FLT_EVAL_METHOD 2 on i686's x87, 1 on s390x in ISO C mode),
 * comparing the wide sum but storing the rounded one "improved" dist[b] forever. With weights
 * >= 0, n passes settle every distance, so the loop is bounded too: 0 when they did not. */
static int ref_dist(const graph *g, uint32_t source, const refuse *filter, float *dist)
{
    for (uint32_t v = 0; v < g->n; ++v)
        dist[v] = INFINITY;
    dist[source] = 0.0f;
    int changed = 1;
    for (uint32_t pass = 0; changed && pass <= g->n; ++pass) {
        changed = 0;
        for (uint32_t e = 0; e < g->m; ++e) {
            uint32_t a = g->src[e], b = g->dst[e];
            if (isinf(dist[a]) || (filter && b % filter->modulus == 0 && b != source))
                continue;
            const float nd = dist[a] + g->w[e];
            if (nd < dist[b]) {
                dist[b] = nd;
                changed = 1;
            }
        }
    }
    return !changed;
}

/* The path is a real path from source to target through accepted nodes, whose cost sums to
 * the reported cost, which is the reference distance. */
static int path_ok(const graph *g, const dod_graph_scratch *s, uint32_t source, uint32_t target,
                   float cost, float want, const refuse *filter)
{
    if (isinf(want))
        return s->n_order == 0 && isinf(cost);
    if (s->n_order == 0 || s->order[0] != source || s->order[s->n_order - 1] != target)
        return 0;
    float sum = 0.0f;
    for (uint32_t i = 0; i + 1 < s->n_order; ++i) {
        uint32_t a = s->order[i], b = s->order[i + 1];
        if (filter && b % filter->modulus == 0)
            return 0;
        float best = INFINITY; /* the cheapest parallel edge a -> b */
        for (uint32_t k = g->adj.offsets[a]; k < g->adj.offsets[a + 1]; ++k)
            if (g->adj.items[k] == b && g->weights[k] < best)
                best = g->weights[k];
        if (isinf(best))
            return 0;
        sum += best;
    }
    return fabsf(sum - cost) <= 1e-3f * (1.0f + cost) && fabsf(cost - want) <= 1e-3f * (1.0f + want);
}

static void test_path_property(void)
{
    test_rng rng = { 11 };
    dod_graph_scratch s;
    dod_graph_scratch_init(&s, NULL);
    int ok = 1, unreachable = 0, reachable = 0;
    for (int iter = 0; iter < 300; ++iter) {
        graph g;
        uint32_t n = 1 + test_rng_below(&rng, 60);
        graph_random(&g, &rng, n, test_rng_below(&rng, 3 * n), 1);
        uint32_t source = test_rng_below(&rng, n), target = test_rng_below(&rng, n);
        refuse filter = { 3 + test_rng_below(&rng, 4), 0 };
        int use_filter = iter % 3 == 0;
        float *dist = (float *)malloc((size_t)n * sizeof(float));
        ok &= ref_dist(&g, source, use_filter ? &filter : NULL, dist);
        if (use_filter && target != source && target % filter.modulus == 0)
            dist[target] = INFINITY;
        dod_graph_route route = { 0.0f, 0 };
        ok &= path(&g.adj, g.weights, source, target, NULL, NULL,
                             use_filter ? refuse_multiples : NULL, &filter, &s, &route) == DOD_OK;
        ok &= path_ok(&g, &s, source, target, route.cost, dist[target],
                      use_filter ? &filter : NULL);
        ok &= source != target || (s.n_order == 1 && route.cost == 0.0f);
        unreachable += isinf(dist[target]);
        reachable += !isinf(dist[target]) && source != target;
        free(dist);
        graph_free(&g);
    }
    CHECK(ok);
    CHECK(unreachable > 20); /* the random graphs did exercise both outcomes */
    CHECK(reachable > 20);
    dod_graph_scratch_free(&s);
}

/* A* on a grid with a Manhattan heuristic (consistent: every step costs >= 1) finds paths as
 * cheap as Dijkstra's while settling no more nodes. */
enum { GW = 24, GH = 18 };
static float manhattan(void *ctx, uint32_t node, uint32_t target)
{
    (void)ctx;
    int dx = (int)(node % GW) - (int)(target % GW), dy = (int)(node / GW) - (int)(target / GW);
    return (float)(abs(dx) + abs(dy));
}

static void grid_graph(graph *g, test_rng *rng)
{
    uint32_t n = GW * GH, m = 0;
    g->n = n;
    g->src = (uint32_t *)malloc(4 * n * sizeof(uint32_t));
    g->dst = (uint32_t *)malloc(4 * n * sizeof(uint32_t));
    g->w = (float *)malloc(4 * n * sizeof(float));
    for (uint32_t y = 0; y < GH; ++y)
        for (uint32_t x = 0; x < GW; ++x) {
            uint32_t v = y * GW + x;
            const int dx[4] = { 1, -1, 0, 0 }, dy[4] = { 0, 0, 1, -1 };
            for (int d = 0; d < 4; ++d) {
                int nx = (int)x + dx[d], ny = (int)y + dy[d];
                if (nx < 0 || ny < 0 || nx >= GW || ny >= GH)
                    continue;
                g->src[m] = v;
                g->dst[m] = (uint32_t)ny * GW + (uint32_t)nx;
                g->w[m] = 1.0f + (float)test_rng_below(rng, 8);
                ++m;
            }
        }
    g->m = m;
    graph_index(g);
}

/* Walls: columns 8 and 16 are closed except one gap each. */
static int open_cell(void *ctx, uint32_t node)
{
    (void)ctx;
    uint32_t x = node % GW, y = node / GW;
    return !((x == 8 && y != 2) || (x == 16 && y != GH - 3));
}

static void test_astar(void)
{
    test_rng rng = { 5 };
    graph g;
    grid_graph(&g, &rng);
    dod_graph_scratch s;
    dod_graph_scratch_init(&s, NULL);
    int ok = 1;
    uint64_t a_settled = 0, d_settled = 0;
    for (int iter = 0; iter < 60; ++iter) {
        uint32_t a = test_rng_below(&rng, g.n), b = test_rng_below(&rng, g.n);
        dod_graph_filter filter = iter % 2 ? open_cell : NULL;
        if (filter && (!open_cell(NULL, a) || !open_cell(NULL, b)))
            continue;
        dod_graph_route rd, ra;
        ok &= path(&g.adj, g.weights, a, b, NULL, NULL, filter, NULL, &s, &rd) == DOD_OK;
        uint32_t len_d = s.n_order;
        ok &= path(&g.adj, g.weights, a, b, manhattan, NULL, filter, NULL, &s, &ra) ==
              DOD_OK;
        ok &= fabsf(ra.cost - rd.cost) <= 1e-4f * (1.0f + rd.cost);
        ok &= ra.n_settled <= rd.n_settled;
        ok &= s.n_order > 0 && s.order[0] == a && s.order[s.n_order - 1] == b && len_d > 0;
        for (uint32_t i = 0; filter && i < s.n_order; ++i)
            ok &= open_cell(NULL, s.order[i]);
        a_settled += ra.n_settled;
        d_settled += rd.n_settled;
    }
    CHECK(ok);
    CHECK(a_settled < d_settled); /* the heuristic did prune */
    dod_graph_scratch_free(&s);
    graph_free(&g);
}

/* Zero-weight cycles and self loops terminate, and ties give the same path every time. */
static void test_zero_weights_deterministic(void)
{
    uint32_t src[] = { 0, 0, 1, 2, 1, 2, 3, 3 };
    uint32_t dst[] = { 1, 2, 3, 3, 2, 1, 3, 0 };
    float w[] = { 0, 0, 0, 0, 0, 0, 0, 0 };
    graph g = { 4, 8, src, dst, w, { 0 }, NULL };
    graph_index(&g);
    dod_graph_scratch s;
    dod_graph_scratch_init(&s, NULL);
    dod_graph_route r;
    CHECK_OK(path(&g.adj, g.weights, 0, 3, NULL, NULL, NULL, NULL, &s, &r));
    CHECK(r.cost == 0.0f);
    CHECK_EQ(s.n_order, 3);
    uint32_t first[3];
    memcpy(first, s.order, sizeof first);
    for (int i = 0; i < 5; ++i) {
        CHECK_OK(path(&g.adj, g.weights, 0, 3, NULL, NULL, NULL, NULL, &s, &r));
        CHECK(memcmp(first, s.order, sizeof first) == 0);
    }
    CHECK_EQ(first[1], 1); /* the tie between 1 and 2 goes to the lower id */
    /* +infinity weights are impassable */
    for (uint32_t k = 0; k < g.m; ++k)
        g.weights[k] = INFINITY;
    CHECK_OK(path(&g.adj, g.weights, 0, 3, NULL, NULL, NULL, NULL, &s, &r));
    CHECK_EQ(s.n_order, 0);
    CHECK(isinf(r.cost));
    dod_graph_scratch_free(&s);
    g.src = g.dst = NULL;
    g.w = NULL;
    graph_free(&g);
}

/* Zeroed descs are the defaults: no depth limit, no filter, Dijkstra, and without weights every
 * edge costs 1 (the path with the fewest edges). */
static void test_desc_defaults(void)
{
    /* 0 -> 1 -> 2 -> 3 and a direct 0 -> 3 that is dear by weight but short by edges */
    uint32_t src[] = { 0, 1, 2, 0 }, dst[] = { 1, 2, 3, 3 };
    float w[] = { 1, 1, 1, 10 };
    graph g = { 4, 4, src, dst, w, { 0 }, NULL };
    graph_index(&g);
    dod_graph_scratch s;
    dod_graph_scratch_init(&s, NULL);
    dod_graph_route r;

    dod_graph_path_desc pd;
    memset(&pd, 0, sizeof pd);
    CHECK_OK(dod_graph_path(&g.adj, &pd, &s, &r)); /* node 0 to itself */
    CHECK(s.n_order == 1 && s.order[0] == 0 && r.cost == 0.0f);
    pd.target = 3;
    CHECK_OK(dod_graph_path(&g.adj, &pd, &s, &r)); /* unit costs: the direct edge */
    CHECK(s.n_order == 2 && s.order[1] == 3 && r.cost == 1.0f);
    pd.weights = g.weights;
    CHECK_OK(dod_graph_path(&g.adj, &pd, &s, &r)); /* weighted: the long way round */
    CHECK(s.n_order == 4 && r.cost == 3.0f);

    dod_graph_flood_desc fd;
    memset(&fd, 0, sizeof fd);
    CHECK_OK(dod_graph_flood(&g.adj, &fd, &s)); /* no seeds: nothing reached */
    CHECK_EQ(s.n_order, 0);
    uint32_t seed = 0;
    fd.seeds = &seed;
    fd.n_seeds = 1;
    CHECK_OK(dod_graph_flood(&g.adj, &fd, &s)); /* max_depth 0: no limit */
    CHECK_EQ(s.n_order, 4);
    fd.max_depth = 1;
    CHECK_OK(dod_graph_flood(&g.adj, &fd, &s));
    CHECK(s.n_order == 3 && dod_graph_depth(&s, 2) == UINT32_MAX);
    dod_graph_scratch_free(&s);
    g.src = g.dst = NULL;
    g.w = NULL;
    graph_free(&g);
}

static float bad_heuristic(void *ctx, uint32_t node, uint32_t target)
{
    (void)target;
    return node == *(uint32_t *)ctx ? *((float *)ctx + 1) : 0.0f;
}

static void test_bad_input(void)
{
    uint32_t src[] = { 0, 1, 1 }, dst[] = { 1, 2, 0 };
    float w[] = { 1, 2, 3 };
    graph g = { 3, 3, src, dst, w, { 0 }, NULL };
    graph_index(&g);
    dod_graph_scratch s;
    dod_graph_scratch_init(&s, NULL);
    uint32_t seed = 0, bad_seed = 3;
    dod_graph_route r = { 5.0f, 5 };
    CHECK_STATUS(flood(NULL, &seed, 1, UINT32_MAX, NULL, NULL, &s), DOD_E_INVALID);
    CHECK_STATUS(flood(&g.adj, &seed, 1, UINT32_MAX, NULL, NULL, NULL), DOD_E_INVALID);
    CHECK_STATUS(flood(&g.adj, NULL, 1, UINT32_MAX, NULL, NULL, &s), DOD_E_INVALID);
    CHECK_STATUS(flood(&g.adj, &bad_seed, 1, UINT32_MAX, NULL, NULL, &s), DOD_E_RANGE);
    CHECK_OK(flood(&g.adj, NULL, 0, UINT32_MAX, NULL, NULL, &s));
    CHECK_EQ(s.n_order, 0);
    CHECK_STATUS(path(NULL, g.weights, 0, 2, NULL, NULL, NULL, NULL, &s, &r), DOD_E_INVALID);
    CHECK_STATUS(dod_graph_path(&g.adj, NULL, &s, &r), DOD_E_INVALID);
    CHECK_STATUS(dod_graph_flood(&g.adj, NULL, &s), DOD_E_INVALID);
    CHECK_STATUS(path(&g.adj, g.weights, 0, 2, NULL, NULL, NULL, NULL, NULL, &r),
                 DOD_E_INVALID);
    CHECK_STATUS(path(&g.adj, g.weights, 3, 2, NULL, NULL, NULL, NULL, &s, &r), DOD_E_RANGE);
    CHECK_STATUS(path(&g.adj, g.weights, 0, 3, NULL, NULL, NULL, NULL, &s, &r), DOD_E_RANGE);
    CHECK(r.cost == 5.0f && r.n_settled == 5); /* untouched by the failures */
    CHECK_OK(path(&g.adj, g.weights, 0, 2, NULL, NULL, NULL, NULL, &s, NULL));
    CHECK_EQ(s.n_order, 3);

    /* weights: negative and NaN refused; found on the way */
    float saved = g.weights[1];
    g.weights[1] = -1.0f;
    CHECK_STATUS(path(&g.adj, g.weights, 0, 2, NULL, NULL, NULL, NULL, &s, &r), DOD_E_INVALID);
    g.weights[1] = NAN;
    CHECK_STATUS(path(&g.adj, g.weights, 0, 2, NULL, NULL, NULL, NULL, &s, &r), DOD_E_INVALID);
    g.weights[1] = saved;
    CHECK(r.cost == 5.0f);

    /* heuristic values: negative and NaN refused, at the source and on the way */
    struct { uint32_t node; float value; } hctx[4] = { { 0, -1.0f }, { 0, NAN }, { 1, -2.0f }, { 2, NAN } };
    for (int i = 0; i < 4; ++i)
        CHECK_STATUS(path(&g.adj, g.weights, 0, 2, bad_heuristic, &hctx[i], NULL, NULL,
                                    &s, &r), DOD_E_INVALID);

    /* an item out of range */
    uint32_t saved_item = g.adj.items[1];
    g.adj.items[1] = 3;
    CHECK_STATUS(flood(&g.adj, &seed, 1, UINT32_MAX, NULL, NULL, &s), DOD_E_RANGE);
    CHECK_EQ(s.n_order, 0);
    CHECK_STATUS(path(&g.adj, g.weights, 0, 2, NULL, NULL, NULL, NULL, &s, &r), DOD_E_RANGE);
    g.adj.items[1] = saved_item;
    CHECK_OK(flood(&g.adj, &seed, 1, UINT32_MAX, NULL, NULL, &s));
    CHECK_EQ(s.n_order, 3);

    /* an empty graph */
    dod_csr empty;
    dod_csr_init(&empty, NULL);
    CHECK_OK(dod_csr_build(&empty, 0, NULL, 4, 0));
    CHECK_OK(flood(&empty, NULL, 0, UINT32_MAX, NULL, NULL, &s));
    CHECK_STATUS(path(&empty, NULL, 0, 0, NULL, NULL, NULL, NULL, &s, &r), DOD_E_RANGE);
    CHECK(!dod_graph_reached(&s, 0));
    CHECK(!dod_graph_reached(NULL, 0));
    dod_csr_free(&empty);
    CHECK_STATUS(dod_graph_scratch_reserve(NULL, 4), DOD_E_INVALID);
    dod_graph_scratch_free(&s);
    dod_graph_scratch_free(NULL);
    g.src = g.dst = NULL;
    g.w = NULL;
    graph_free(&g);
}

/* Reserve once, then queries allocate nothing; a failed grow leaves the scratch as it was;
 * the stamp wrap-around forgets old marks. */
static void test_scratch(void)
{
    test_rng rng = { 3 };
    graph g;
    graph_random(&g, &rng, 50, 150, 1);
    test_alloc t;
    test_alloc_init(&t);
    dod_allocator a = test_alloc_get(&t);
    dod_graph_scratch s;
    dod_graph_scratch_init(&s, &a);
    uint32_t seed = 0;

    test_alloc_fail_after(&t, 0);
    CHECK_STATUS(dod_graph_scratch_reserve(&s, 50), DOD_E_NOMEM);
    CHECK(s.cap == 0 && s.block == NULL);
    CHECK_STATUS(flood(&g.adj, &seed, 1, UINT32_MAX, NULL, NULL, &s), DOD_E_NOMEM);
    CHECK_STATUS(path(&g.adj, g.weights, 0, 1, NULL, NULL, NULL, NULL, &s, NULL),
                 DOD_E_NOMEM);
    CHECK(s.cap == 0 && s.block == NULL);
    test_alloc_fail_after(&t, -1);

    CHECK_OK(dod_graph_scratch_reserve(&s, 20));
    CHECK_OK(dod_graph_scratch_reserve(&s, 10)); /* fits: nothing */
    long calls = t.calls;
    CHECK_OK(flood(&g.adj, &seed, 1, UINT32_MAX, NULL, NULL, &s)); /* grows to 50 */
    CHECK_EQ(t.calls, calls + 1);
    CHECK_EQ(t.live, 1);
    uint32_t *depth = (uint32_t *)malloc(50 * sizeof(uint32_t));
    ref_flood(&g, &seed, 1, UINT32_MAX, NULL, depth);
    calls = t.calls;
    for (int i = 0; i < 20; ++i) {
        CHECK_OK(flood(&g.adj, &seed, 1, UINT32_MAX, NULL, NULL, &s));
        CHECK_OK(path(&g.adj, g.weights, 0, (uint32_t)i, manhattan, NULL, NULL, NULL, &s, NULL));
    }
    CHECK_EQ(t.calls, calls);

    /* across the stamp wrap the results stay right */
    s.stamp = UINT32_MAX - 2;
    int ok = 1;
    for (int i = 0; i < 6; ++i) {
        ok &= flood(&g.adj, &seed, 1, UINT32_MAX, NULL, NULL, &s) == DOD_OK;
        ok &= flood_matches(&g, &s, &seed, 1, depth);
    }
    CHECK(ok);
    CHECK(s.stamp < 10);
    free(depth);
    dod_graph_scratch_free(&s);
    CHECK(s.cap == 0 && s.block == NULL);
    test_alloc_finish(&t);
    graph_free(&g);
}

int main(void)
{
    test_flood_property();
    test_path_property();
    test_astar();
    test_zero_weights_deterministic();
    test_desc_defaults();
    test_bad_input();
    test_scratch();
    return check_summary("graph");
}
