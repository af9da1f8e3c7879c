/* strategy_map.h: the map both strategy ticks play on (examples/world_tick.c, the regiments as
 * world entities, and examples/strategy_tick.c, the regiments in a table), and the games' dice.
 *
 * The map is a width x height grid; a cell's neighbours (8, fewer at the edges) are an index
 * built once, with a cost per step. Pathfinding plans a march over it that keeps out of crowded
 * cells, which it learns from a location -> regiments index of the frame it reads. */
#ifndef STRATEGY_MAP_H
#define STRATEGY_MAP_H

#include <dod/dod.h>
#include <stdlib.h>

/* The games' dice: a hash (splitmix64's finaliser), so every run is the same. */
static inline uint64_t strategy_dice(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

typedef struct strategy_map {
    uint32_t width, height;
    dod_csr adjacency;    /* row c: the cells one step from cell c */
    float *step_cost;     /* parallel to adjacency.items: what that step costs */
    uint32_t crowd_limit; /* a cell with more regiments than this is crowded */
} strategy_map;

static inline uint32_t map_cells(const strategy_map *m)
{
    return m->width * m->height;
}

static inline uint32_t map_cell(const strategy_map *m, uint32_t x, uint32_t y)
{
    return (y % m->height) * m->width + x % m->width;
}

/* Every (cell, neighbour) pair of the grid into src / dst; returns how many. */
static inline uint32_t map_grid_edges(const strategy_map *m, uint32_t *src, uint32_t *dst)
{
    uint32_t n = 0, width = m->width, height = m->height;
    for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x)
            for (uint32_t ny = y ? y - 1 : 0; ny <= y + 1 && ny < height; ++ny)
                for (uint32_t nx = x ? x - 1 : 0; nx <= x + 1 && nx < width; ++nx)
                    if (nx != x || ny != y) {
                        src[n] = y * width + x;
                        dst[n++] = ny * width + nx;
                    }
    return n;
}

/* Release the map; a second call, or a call after a failed map_create, does nothing. */
static inline void map_destroy(strategy_map *m)
{
    dod_csr_free(&m->adjacency);
    free(m->step_cost);
    m->step_cost = NULL;
}

/* A width x height map for `regiments` regiments. The adjacency comes from a value build of
 * the edge list: row c lists the neighbours of c. Then each step's cost: the terrain of the
 * cell entered, half as much again on a diagonal. On failure everything is released. */
static inline dod_status map_create(strategy_map *m, uint32_t width, uint32_t height,
                                    uint32_t regiments)
{
    *m = (strategy_map){ .width = width, .height = height };
    m->crowd_limit = 3 * (regiments / map_cells(m));
    m->crowd_limit = m->crowd_limit < 8 ? 8 : m->crowd_limit;
    dod_csr_init(&m->adjacency, NULL);
    size_t max_edges = (size_t)map_cells(m) * 8;
    uint32_t *src = (uint32_t *)malloc(max_edges * sizeof(uint32_t));
    uint32_t *dst = (uint32_t *)malloc(max_edges * sizeof(uint32_t));
    m->step_cost = (float *)malloc(max_edges * sizeof(float));
    dod_status st = src && dst && m->step_cost ? DOD_OK : DOD_E_NOMEM;
    if (st == DOD_OK) {
        dod_csr_desc d = { .n_rows = map_cells(m), .keys = src, .values = dst,
                           .value_bound = map_cells(m) };
        d.n_items = map_grid_edges(m, src, dst);
        st = dod_csr_build_desc(&m->adjacency, &d);
    }
    for (uint32_t c = 0; st == DOD_OK && c < map_cells(m); ++c)
        for (uint32_t k = m->adjacency.offsets[c]; k < m->adjacency.offsets[c + 1]; ++k) {
            uint32_t to = m->adjacency.items[k];
            float terrain = 1.0f + (float)(strategy_dice(to) % 4);
            int diagonal = to % width != c % width && to / width != c / width;
            m->step_cost[k] = diagonal ? 1.5f * terrain : terrain;
        }
    free(src);
    free(dst);
    if (st != DOD_OK)
        map_destroy(m);
    return st;
}

/* Where an army musters: a square of side x side cells (about as dense as the map is on
 * average when side is map_muster_side's), its corner picked by the dice; r picks a cell in
 * it, r = 0 the corner. Where armies overlap, cells get crowded. */
static inline uint32_t map_muster_cell(const strategy_map *m, uint32_t army, uint32_t side,
                                       uint64_t r)
{
    uint64_t home = strategy_dice(army + 12345u);
    return map_cell(m, (uint32_t)(home % m->width + r % side),
                    (uint32_t)((home >> 32) % m->height + (r >> 8) % side));
}

static inline uint32_t map_muster_side(const strategy_map *m, uint32_t armies)
{
    uint32_t side = 1, cells_per_army = map_cells(m) / armies;
    while ((side + 1) * (side + 1) <= cells_per_army)
        ++side;
    return side;
}

/* What the step from -> to costs, or -1 when to is not a neighbour of from. */
static inline float map_step_cost(const strategy_map *m, uint32_t from, uint32_t to)
{
    for (uint32_t k = m->adjacency.offsets[from]; k < m->adjacency.offsets[from + 1]; ++k)
        if (m->adjacency.items[k] == to)
            return m->step_cost[k];
    return -1.0f;
}

/* A march from `from` to a cell up to 48 steps away each way picked by `seed`, around the
 * cells that by_location (cell -> the regiments standing there) says are crowded. */
typedef struct map_march {
    const strategy_map *map;
    const dod_csr *by_location;
    uint32_t from, to;
} map_march;

static inline map_march map_order_march(const strategy_map *m, const dod_csr *by_location,
                                        uint32_t from, uint64_t seed)
{
    uint64_t r = strategy_dice(seed);
    long x = (long)(from % m->width) + (long)(r % 97) - 48;
    long y = (long)(from / m->width) + (long)((r >> 16) % 97) - 48;
    x = x < 0 ? 0 : x >= (long)m->width ? (long)m->width - 1 : x;
    y = y < 0 ? 0 : y >= (long)m->height ? (long)m->height - 1 : y;
    return (map_march){ m, by_location, from, (uint32_t)y * m->width + (uint32_t)x };
}

/* A march may enter the target and any cell that is not crowded. */
static inline int map_may_enter(void *march, uint32_t cell)
{
    const map_march *o = (const map_march *)march;
    return cell == o->to || dod_csr_row_len(o->by_location, cell) <= o->map->crowd_limit;
}

/* The A* heuristic: grid (Chebyshev) distance, a lower bound since every step costs >= 1. */
static inline float map_distance(void *march, uint32_t cell, uint32_t target)
{
    uint32_t width = ((const map_march *)march)->map->width;
    uint32_t ax = cell % width, bx = target % width, ay = cell / width, by = target / width;
    uint32_t dx = ax > bx ? ax - bx : bx - ax, dy = ay > by ? ay - by : by - ay;
    return (float)(dx > dy ? dx : dy);
}

/* The cheapest route for the march into s->order (empty when the target cannot be reached). */
static inline dod_status map_route(map_march *o, dod_graph_scratch *s, dod_graph_route *route)
{
    dod_graph_path_desc d = { .weights = o->map->step_cost, .source = o->from, .target = o->to,
                              .heuristic = map_distance, .heuristic_ctx = o,
                              .filter = map_may_enter, .filter_ctx = o };
    return dod_graph_path(&o->map->adjacency, &d, s, route);
}

#endif /* STRATEGY_MAP_H */
