/* Breadth-first flood fill from a set of seeds, with a node filter and a depth limit. */
#include "graph_internal.h"
#include "internal.h"

static int accepts(dod_graph_filter filter, void *ctx, uint32_t node)
{
    return !filter || filter(ctx, node);
}

dod_status dod_graph_flood(const dod_csr *graph, const dod_graph_flood_desc *desc,
                           dod_graph_scratch *s)
{
    DOD__REFUSE_IF(!graph, DOD_E_INVALID);
    DOD__REFUSE_IF(!desc, DOD_E_INVALID);
    DOD__REFUSE_IF(!s, DOD_E_INVALID);
    DOD__REFUSE_IF(!desc->seeds && desc->n_seeds > 0, DOD_E_INVALID);
    const uint32_t *seeds = desc->seeds, n_seeds = desc->n_seeds;
    const uint32_t max_depth = desc->max_depth ? desc->max_depth : UINT32_MAX;
    const dod_graph_filter filter = desc->filter;
    void *filter_ctx = desc->filter_ctx;
    const uint32_t n = graph->n_rows;
    for (uint32_t i = 0; i < n_seeds; ++i)
        DOD__REFUSE_IF(seeds[i] >= n, DOD_E_RANGE);
    dod_status st = dod__graph_begin(s, n);
    if (st != DOD_OK)
        return st;
    uint32_t *restrict order = s->order, *restrict mark = s->mark, *restrict depth = s->aux;
    const uint32_t stamp = s->stamp;
    uint32_t tail = 0;
    for (uint32_t i = 0; i < n_seeds; ++i) {
        uint32_t v = seeds[i];
        if (mark[v] != stamp && accepts(filter, filter_ctx, v)) {
            mark[v] = stamp;
            depth[v] = 0;
            order[tail++] = v;
        }
    }
    const uint32_t *offsets = graph->offsets, *items = graph->items;
    for (uint32_t head = 0; head < tail; ++head) {
        const uint32_t v = order[head], d = depth[v];
        if (d >= max_depth)
            continue;
        for (uint32_t k = offsets[v], end = offsets[v + 1]; k < end; ++k) {
            const uint32_t u = items[k];
            if (u >= n) {
                s->n_order = 0;
                return DOD__FAIL(DOD_E_RANGE, "an item >= n_rows (a neighbour that is not a node)");
            }
            if (mark[u] == stamp || !accepts(filter, filter_ctx, u))
                continue;
            mark[u] = stamp;
            depth[u] = d + 1;
            order[tail++] = u;
        }
    }
    s->n_order = tail;
    return DOD_OK;
}

int dod_graph_reached(const dod_graph_scratch *s, uint32_t node)
{
    return s && s->stamp != 0 && node < s->cap && s->mark[node] == s->stamp;
}

uint32_t dod_graph_depth(const dod_graph_scratch *s, uint32_t node)
{
    return dod_graph_reached(s, node) ? s->aux[node] : UINT32_MAX;
}
