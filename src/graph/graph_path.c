/* Dijkstra and A* over a weighted adjacency index, with an indexed binary heap (decrease-key),
 * so the heap never holds more than one entry per node and fits the scratch. */
#include <math.h>
#include "graph_internal.h"
#include "internal.h"

#define CLOSED UINT32_MAX

/* The search's arrays: dist = cost so far, h = heuristic (0 for Dijkstra), pos = heap slot
 * or CLOSED, parent via aux. */
typedef struct search {
    uint32_t *heap, *pos, *parent, *mark;
    float *dist, *h;
    uint32_t size, stamp;
} search;

/* a before b in the heap: lower dist + h, then the lower node id (so the result is
 * deterministic) */
static int heap_before(const search *q, uint32_t a, uint32_t b)
{
    float fa = q->dist[a] + q->h[a], fb = q->dist[b] + q->h[b];
    return fa < fb || (fa == fb && a < b);
}

static void place(search *q, uint32_t i, uint32_t v)
{
    q->heap[i] = v;
    q->pos[v] = i;
}

static void sift_up(search *q, uint32_t i)
{
    uint32_t v = q->heap[i];
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (!heap_before(q, v, q->heap[p]))
            break;
        place(q, i, q->heap[p]);
        i = p;
    }
    place(q, i, v);
}

static uint32_t pop_min(search *q)
{
    uint32_t top = q->heap[0];
    uint32_t v = q->heap[--q->size], i = 0;
    while (q->size > 0) {
        uint32_t c = 2 * i + 1;
        if (c >= q->size)
            break;
        if (c + 1 < q->size && heap_before(q, q->heap[c + 1], q->heap[c]))
            ++c;
        if (!heap_before(q, q->heap[c], v))
            break;
        place(q, i, q->heap[c]);
        i = c;
    }
    if (q->size > 0)
        place(q, i, v);
    q->pos[top] = CLOSED;
    return top;
}

/* The heuristic's value for a node, or -1 when it is negative or NaN. */
static float heuristic_of(dod_graph_heuristic heuristic, void *ctx, uint32_t node, uint32_t target)
{
    if (!heuristic)
        return 0.0f;
    float h = heuristic(ctx, node, target);
    return h >= 0.0f ? h : -1.0f; /* NaN fails the comparison too */
}

/* Write the path target <- ... <- source into order, source first; returns its length. */
static uint32_t trace_path(const uint32_t *parent, uint32_t source, uint32_t target,
                           uint32_t *order)
{
    uint32_t len = 1;
    for (uint32_t v = target; v != source; v = parent[v])
        ++len;
    uint32_t i = len;
    for (uint32_t v = target;; v = parent[v]) {
        order[--i] = v;
        if (v == source)
            break;
    }
    return len;
}

dod_status dod_graph_path(const dod_csr *graph, const dod_graph_path_desc *desc,
                          dod_graph_scratch *s, dod_graph_route *route)
{
    DOD__REFUSE_IF(!graph, DOD_E_INVALID);
    DOD__REFUSE_IF(!desc, DOD_E_INVALID);
    DOD__REFUSE_IF(!s, DOD_E_INVALID);
    const float *weights = desc->weights;
    const uint32_t source = desc->source, target = desc->target;
    const dod_graph_heuristic heuristic = desc->heuristic;
    void *heuristic_ctx = desc->heuristic_ctx;
    const dod_graph_filter filter = desc->filter;
    void *filter_ctx = desc->filter_ctx;
    const uint32_t n = graph->n_rows;
    DOD__REFUSE_IF(source >= n, DOD_E_RANGE);
    DOD__REFUSE_IF(target >= n, DOD_E_RANGE);
    dod_status st = dod__graph_begin(s, n);
    if (st != DOD_OK)
        return st;
    search q = { s->heap, s->pos, s->aux, s->mark, s->dist, s->key, 0, s->stamp };
    const uint32_t *offsets = graph->offsets, *items = graph->items;

    float h0 = heuristic_of(heuristic, heuristic_ctx, source, target);
    DOD__REFUSE_IF(h0 < 0.0f, DOD_E_INVALID);
    q.mark[source] = q.stamp;
    q.dist[source] = 0.0f;
    q.h[source] = h0;
    q.parent[source] = source;
    place(&q, 0, source);
    q.size = 1;

    uint32_t settled = 0;
    int found = 0;
    while (q.size > 0) {
        const uint32_t v = pop_min(&q);
        ++settled;
        if (v == target) {
            found = 1;
            break;
        }
        const float dv = q.dist[v];
        for (uint32_t k = offsets[v], end = offsets[v + 1]; k < end; ++k) {
            const uint32_t u = items[k];
            const float w = weights ? weights[k] : 1.0f;
            DOD__REFUSE_IF(u >= n, DOD_E_RANGE);
            DOD__REFUSE_IF(!(w >= 0.0f), DOD_E_INVALID);
            const float nd = dv + w;
            if (isinf(nd))
                continue; /* impassable */
            if (q.mark[u] != q.stamp) {
                q.mark[u] = q.stamp;
                if (filter && !filter(filter_ctx, u)) {
                    q.pos[u] = CLOSED; /* refused once, never asked again */
                    continue;
                }
                float hu = heuristic_of(heuristic, heuristic_ctx, u, target);
                DOD__REFUSE_IF(hu < 0.0f, DOD_E_INVALID);
                q.dist[u] = nd;
                q.h[u] = hu;
                q.parent[u] = v;
                place(&q, q.size++, u);
                sift_up(&q, q.pos[u]);
            } else if (q.pos[u] != CLOSED && nd < q.dist[u]) {
                q.dist[u] = nd;
                q.parent[u] = v;
                sift_up(&q, q.pos[u]);
            }
        }
    }
    s->n_order = found ? trace_path(q.parent, source, target, s->order) : 0;
    if (route) {
        route->cost = found ? q.dist[target] : INFINITY;
        route->n_settled = settled;
    }
    return DOD_OK;
}
