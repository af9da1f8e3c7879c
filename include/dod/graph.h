/* dod/graph.h: flood fill and shortest paths over an adjacency index.
 *
 * The graph is a dod_csr whose rows are nodes and whose items are neighbour node ids: the
 * neighbours of node v are items[offsets[v] .. offsets[v + 1]) (a value build of the edge
 * list gives exactly this). A weighted graph adds a float column parallel to the items:
 * weights[k] is the cost of the edge stored at items[k]. Weights must be >= 0 (zero is fine,
 * +infinity means impassable); a negative or NaN weight met by a search is refused.
 *
 * Queries use a caller-owned dod_graph_scratch: reserve it once for the graph's node count
 * and a query allocates nothing (a query on a scratch too small for the graph grows it, which
 * is the only allocation). Results (the flood order, the path) live in the scratch and stay
 * valid until its next query. One scratch per thread: a query writes its scratch and only
 * reads the graph, so many threads may search the same graph (a held frame) at once.
 *
 * Results are deterministic: neighbours are visited in row order, and ties in the priority
 * queue are broken by the lower node id. */
#ifndef DOD_GRAPH_H
#define DOD_GRAPH_H

#include <dod/base.h>
#include <dod/csr.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A query's working memory and results: a plain struct the caller owns
 * (dod_graph_scratch_init, dod_graph_scratch_free), one per searching thread. order and
 * n_order hold the last query's result; the other fields are private. */
typedef struct dod_graph_scratch {
    /* results, read-only for users */
    uint32_t *order;   /* flood: the reached nodes in BFS order; path: the path, source first */
    uint32_t n_order;  /* how many entries of order are valid */
    /* private fields follow */
    uint32_t cap;      /* nodes every array holds */
    uint32_t stamp;    /* mark[v] == stamp: v was reached by the current query */
    uint32_t *mark;
    uint32_t *aux;     /* flood: depth; search: parent */
    uint32_t *heap;    /* search: binary heap of nodes by key, then node id */
    uint32_t *pos;     /* search: node -> heap position, or closed */
    float *dist;       /* search: best cost so far */
    float *key;        /* search: dist + heuristic */
    void *block;
    size_t block_bytes;
    dod_allocator alloc;
} dod_graph_scratch;

/* Prepare an empty scratch. Allocates nothing and never fails (s NULL: no-op); alloc NULL =
 * the heap. */
DOD_API void dod_graph_scratch_init(dod_graph_scratch *s, const dod_allocator *alloc);

/* Make queries over graphs of up to n_nodes nodes allocate nothing (one block). Results of a
 * previous query do not survive a reserve that grows. Errors (scratch unchanged):
 * DOD_E_INVALID (s NULL), DOD_E_OVERFLOW, DOD_E_NOMEM. */
DOD_API dod_status dod_graph_scratch_reserve(dod_graph_scratch *s, uint32_t n_nodes);

/* Return the memory and leave an initialised empty scratch. NULL: no-op. */
DOD_API void dod_graph_scratch_free(dod_graph_scratch *s);

/* A per-node filter: nonzero when the search may enter `node`. NULL = every node. */
typedef int (*dod_graph_filter)(void *ctx, uint32_t node);

/* A flood fill's options; zero means the default for every field. */
typedef struct dod_graph_flood_desc {
    const uint32_t *seeds;   /* where the fill starts (duplicates allowed); NULL with n_seeds 0 */
    uint32_t n_seeds;
    uint32_t max_depth;      /* the most edges from the nearest seed; 0 = no limit */
    dod_graph_filter filter; /* NULL = every node may be entered */
    void *filter_ctx;
} dod_graph_flood_desc;

/* Breadth-first flood fill from desc->seeds over `graph`, entering only nodes the filter
 * accepts (a seed the filter refuses is not reached) and no deeper than desc->max_depth edges
 * from the nearest seed. Afterwards s->order[0 .. s->n_order - 1] lists every reached node
 * once, in BFS order (seeds first, in the order given), and dod_graph_depth gives each one's
 * distance in edges.
 * Errors (results invalid, scratch otherwise usable): DOD_E_INVALID (graph, desc or s NULL,
 * seeds NULL with n_seeds > 0), DOD_E_RANGE (a seed >= graph->n_rows, or an item >= n_rows
 * met during the fill), DOD_E_NOMEM / DOD_E_OVERFLOW (the scratch had to grow and could not). */
DOD_API dod_status dod_graph_flood(const dod_csr *graph, const dod_graph_flood_desc *desc,
                                   dod_graph_scratch *s);

/* After dod_graph_flood: 1 when `node` was reached. node < the graph's n_rows. */
DOD_API int dod_graph_reached(const dod_graph_scratch *s, uint32_t node);

/* After dod_graph_flood: the depth of a reached node (0 for seeds); UINT32_MAX if not reached. */
DOD_API uint32_t dod_graph_depth(const dod_graph_scratch *s, uint32_t node);

/* An A* heuristic: a lower bound on the cost from `node` to `target`, >= 0 and not NaN.
 * With a consistent heuristic (h(u) <= w(u, v) + h(v)) the path found is a cheapest one. */
typedef float (*dod_graph_heuristic)(void *ctx, uint32_t node, uint32_t target);

/* A search's outcome. */
typedef struct dod_graph_route {
    float cost;         /* the path's total weight; +infinity when the target is unreachable */
    uint32_t n_settled; /* nodes taken off the queue: the work the search did */
} dod_graph_route;

/* A path search's options; zero means the default for every field (so a zeroed desc is a
 * Dijkstra search from node 0 to node 0 with unit edge costs). */
typedef struct dod_graph_path_desc {
    const float *weights;          /* edge costs parallel to graph->items; NULL = every edge costs 1 */
    uint32_t source, target;
    dod_graph_heuristic heuristic; /* NULL = Dijkstra; otherwise A* */
    void *heuristic_ctx;
    dod_graph_filter filter;       /* NULL = every node may be entered */
    void *filter_ctx;
} dod_graph_path_desc;

/* The cheapest path from desc->source to desc->target over `graph`, entering only nodes the
 * filter accepts (the source always; a refused target is unreachable).
 * On success s->order[0 .. s->n_order - 1] is the path, source first and target last
 * (n_order == 1 when source == target, 0 when the target is unreachable) and *route, if not
 * NULL, gets its cost. Among equal-cost paths the result is deterministic.
 * Errors (results invalid): DOD_E_INVALID (graph, desc or s NULL, a negative or NaN weight or
 * heuristic value met by the search), DOD_E_RANGE (source or target >= n_rows, or an item >=
 * n_rows met), DOD_E_NOMEM / DOD_E_OVERFLOW (the scratch could not grow). */
DOD_API dod_status dod_graph_path(const dod_csr *graph, const dod_graph_path_desc *desc,
                                  dod_graph_scratch *s, dod_graph_route *route);

#ifdef __cplusplus
}
#endif

#endif /* DOD_GRAPH_H */
