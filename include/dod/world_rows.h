/* dod/world_rows.h: a query's rows read by row number, the fast way to read a relation index
 * of a frame's world (docs/world.md, "Reading an index fast").
 *
 * Row numbers. A query's rows are numbered in the order its iteration walks them: the matched
 * archetypes in id order, each one's blocks in order, each block's rows in order. Row number k
 * is the k-th row dod_world_next hands out, 0 .. dod_world_rows_count - 1. A relation index
 * built with DOD_WORLD_INDEX_ROWS (dod/world_index.h) lists row numbers as its items: its build
 * reads only the keys, as dod_csr_build_desc over an array does, and reading an item needs no
 * entity slot: a few instructions to find its archetype and column, then the element
 * (measured: 1.9 - 3x an array's read per item over four interleaved fixed archetypes, more over
 * archetypes of many blocks; docs/world.md, "Reading an index fast").
 *
 * Row numbers name rows where they are now. A spawn, despawn or move renumbers rows (a despawn
 * moves the archetype's last row into the hole), so read them from a world that does not change
 * while they are read: a frame's world held by a reader (dod/world_io.h: nothing changes it
 * until it is released), or any world between two structural changes. A query made for a live
 * world numbers the rows of its copies too (dod_world_copy gives a copy the live world's tag,
 * blocks and rows): the live world's query serves every frame copied from it.
 *
 * A dod_world_rows remembers the block it read last: the next row number in that block costs a
 * compare and an address, as for an array; one in another block a walk over the matched
 * archetypes (and, in a chunked archetype, a few instructions to find the block). An index row
 * lists its items ascending, so reading an index row's items in order stays in a block until it
 * crosses into the next one. It is a small struct the caller owns (no allocation, nothing to
 * free); reading moves its cursor, so each thread uses its own.
 *
 * Thread safety: reads the world only (any number of readers while no thread changes it). */
#ifndef DOD_WORLD_ROWS_H
#define DOD_WORLD_ROWS_H

#include <dod/world_core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Up to this many archetypes holding rows, a dod_world_rows keeps where each one's rows start,
 * so finding the archetype of a row is a few compares; past it, a walk over the archetypes. */
#define DOD_WORLD_ROWS_CACHED 8u
/* A flat dod_world_rows (see below) keeps the columns of this many components, each in the slot
 * of its id modulo this, so reading a few components row after row finds their columns ready. */
#define DOD_WORLD_ROWS_COLUMNS 4u

/* Reads a query's rows by row number: dod_world_rows_init, then dod_world_row_get (typed:
 * P_row_<component>) and dod_world_row_entity. Its fields are private. */
typedef struct dod_world_rows {
    unsigned char *base;                    /* the block holding row numbers first .. first +
                                               n - 1 (its rows 0 .. n - 1); NULL: none yet */
    const struct dod__world_field *fields;  /* its archetype's field table */
    uint32_t first, n;
    uint32_t scale;                         /* of the block (dod__world_place) */
    uint32_t archetype, block;
    uint32_t archetype_first;               /* the row number of the archetype's first row */
    uint32_t n_components;
    uint32_t count;                         /* rows the query matched at init */
    uint32_t n_cached;                      /* matched archetypes holding rows, when at most
                                               DOD_WORLD_ROWS_CACHED; else 0 */
    int flat;                               /* n_cached > 0 and each of them one block: a row
                                               is found by compares alone, no cursor */
    uint32_t cached_first[DOD_WORLD_ROWS_CACHED]; /* the row number of each one's first row;
                                                    UINT32_MAX past the last */
    uint32_t cached_archetype[DOD_WORLD_ROWS_CACHED];
    uint32_t column_of[DOD_WORLD_ROWS_COLUMNS]; /* the component whose columns each slot holds,
                                                   held only when every cached archetype has it;
                                                   UINT32_MAX: none */
    size_t column_size[DOD_WORLD_ROWS_COLUMNS];  /* its size */
    uintptr_t column[DOD_WORLD_ROWS_COLUMNS][DOD_WORLD_ROWS_CACHED]; /* per cached archetype
                                                   k, the address of its column of that
                                                   component less cached_first[k] elements:
                                                   row number r's element is at column + r *
                                                   size */
    const dod_world *world;
    uint64_t matched[DOD_WORLD_MAX_ARCHETYPES / 64];
} dod_world_rows;

/* Set r to read the rows q matches in w, numbered as above; r remembers no block yet. O(the
 * world's archetypes). q must have been made for w or for the world w was copied from (the
 * same tag). Allocates nothing.
 * Errors (r untouched): DOD_E_INVALID (r, w or q NULL; q made for another world). */
DOD_API dod_status dod_world_rows_init(dod_world_rows *r, const dod_world *w, const dod_query *q);

/* Rows q matched in w when r was made: row numbers are 0 .. this - 1 (0 for NULL). */
static inline uint32_t dod_world_rows_count(const dod_world_rows *r)
{
    return r ? r->count : 0;
}

/* Private: put r on the block holding row number `row` (< r->count); 0 when row >= r->count.
 * Called by the inline reads below when the row is not in the block r stands on. */
DOD_API int dod__world_rows_seek(dod_world_rows *r, uint32_t row);

/* Private: a read of a flat r that the inline path does not take: it fills the column slot of
 * `component` (its columns kept where every cached archetype has it), then reads. */
DOD_API void *dod__world_rows_flat_elem(dod_world_rows *r, uint32_t row, uint32_t component);

/* Private: which of r's cached archetypes (r->n_cached > 0) holds row number `row` (< r->count):
 * the number of cached archetypes after the first whose rows start at or below it (the starts
 * past n_cached are UINT32_MAX), found without a branch on the row: a branch on row numbers
 * read from an index mispredicts wherever an index row crosses archetypes, and each mispredict
 * there costs a memory latency. The branches on n_cached go the same way for every row. */
static inline uint32_t dod__world_rows_archetype(const dod_world_rows *r, uint32_t row)
{
    const uint32_t *f = r->cached_first;
    uint32_t k = (uint32_t)(row >= f[1]);
    if (r->n_cached > 2) /* independent compares, no chain through memory */
        k += (uint32_t)(row >= f[2]) + (uint32_t)(row >= f[3]);
    if (r->n_cached > 4)
        k += (uint32_t)(row >= f[4]) + (uint32_t)(row >= f[5]) + (uint32_t)(row >= f[6]) +
             (uint32_t)(row >= f[7]);
    return k;
}

/* The element of `component` in row number `row`, `size` bytes (0: the component's size from
 * the field table; the typed layer passes the constant). NULL when row >= the count, the
 * component id is out of range, or the row's archetype lacks the component.
 * Flat (a few archetypes of one block each, a frame of fixed archetypes): the archetype is the
 * number of archetype starts at or below the row, counted without a branch, since a branch on
 * a row number loaded from an index mispredicts wherever an index row crosses archetypes, and
 * each mispredict there costs a memory latency. Else the cursor, seeking when the row leaves
 * its block. */
static inline void *dod__world_row_elem(dod_world_rows *r, uint32_t row, uint32_t component,
                                        size_t size)
{
    uint32_t slot = component % DOD_WORLD_ROWS_COLUMNS;
    if (r->column_of[slot] == component && row < r->count) { /* flat, and every one has it */
        uint32_t k = dod__world_rows_archetype(r, row);
        return (void *)(r->column[slot][k] + (uintptr_t)row * (size ? size : r->column_size[slot]));
    }
    if (r->flat)
        return dod__world_rows_flat_elem(r, row, component);
    if (component >= r->n_components ||
        (row - r->first >= r->n && !dod__world_rows_seek(r, row)))
        return NULL;
    const dod__world_field *f = &r->fields[component];
    return f->offset ? r->base + (f->offset << r->scale) +
                           (size_t)(row - r->first) * (size ? size : f->size)
                     : NULL;
}

/* Component `component` of row number `row`: a pointer into its column, valid while the world
 * does not change. NULL when r is NULL, row >= dod_world_rows_count(r), the component id is out
 * of range or the row's archetype lacks it. O(1) in the block r read last (see above). Inline
 * (a macro); (dod_world_row_get)(...) reaches the library's function, which does the same. */
DOD_API void *dod_world_row_get(dod_world_rows *r, uint32_t row, uint32_t component);
#define dod_world_row_get(r, row, component) dod__world_row_get_inline((r), (row), (component))
static inline void *dod__world_row_get_inline(dod_world_rows *r, uint32_t row, uint32_t component)
{
    return r ? dod__world_row_elem(r, row, component, 0) : NULL;
}

/* The handle of the entity in row number `row`; the null handle when r is NULL or row >=
 * dod_world_rows_count(r). */
DOD_API dod_entity dod_world_row_entity(dod_world_rows *r, uint32_t row);

#ifdef __cplusplus
}
#endif

#endif /* DOD_WORLD_ROWS_H */
