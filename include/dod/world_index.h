/* dod/world_index.h: relation indexes built from the world's components (docs/world.md,
 * "Relation indexes").
 *
 * "Regiments by location", "members by army", "entities by map cell": a dod_csr whose rows are
 * the values of a uint32_t key held in a component field, built over the entities a query
 * matches, on an executor, with a frame arena for scratch, as dod_csr_build_desc builds one
 * from an array of keys. Rows list their items in the order the query walks the world:
 * archetypes in id order, then blocks and rows in order. An item is one of two things:
 *
 *   - a ROW NUMBER (desc flag DOD_WORLD_INDEX_ROWS): item k is the k-th row the query's walk
 *     visits (dod/world_rows.h). The fast way, for an index of a frame's world: the build reads
 *     only the keys, as dod_csr_build_desc over an array of them does, and a dod_world_rows
 *     reads an item's components by its row number, with no slot in between
 *     (dod_world_row_get, typed P_row_<component>; dod_world_gather_rows). A row number names
 *     the row where it is now: valid while the world does not change (a frame's world held by
 *     a reader; any world until its next spawn, despawn or move).
 *   - an entity SLOT (the default): the low 32 bits of its dod_entity handle, its place in the
 *     world's entity index. From an item, in O(1): the live handle (dod_world_entity_at), any
 *     of its components (dod_world_get_at, typed P_get_at_<component>), through the slot, which
 *     holds the entity's generation, archetype and row: one more dependent load per item than a
 *     row number. A slot survives moves between archetypes and the swap-removes of other
 *     entities (a live entity keeps its slot); it is invalidated only when its entity is
 *     despawned (a later spawn may then take the slot). For an index kept across changes.
 *
 * dod_world_gather_rows and dod_world_gather copy chosen component fields into row order (as
 * dod_csr_gather does for arrays), so a query over a row reads sequential streams instead of
 * one entity at a time; dod_world_reduce_rows reduces a float field over each row (as
 * dod_reduce_rows does for an array), reading it where it lies.
 *
 * Thread safety: the builds and gathers only read the world; any number of them may run while
 * no thread changes it (spawn, despawn, move). */
#ifndef DOD_WORLD_INDEX_H
#define DOD_WORLD_INDEX_H

#include <dod/csr_build.h>
#include <dod/reduce.h>
#include <dod/world_core.h>
#include <dod/world_rows.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What dod_world_index_build indexes and how: zero-initialise it, then set query, component,
 * key_offset and n_rows (the others default as in dod_csr_desc). */
typedef struct dod_world_index_desc { /* zero = default for every field but query */
    const dod_query *query;  /* the entities to index; every archetype it matches must have
                                `component` */
    uint32_t component;      /* the component holding the key */
    uint32_t key_offset;     /* byte offset of the uint32_t key inside the component: a
                                multiple of 4, and key_offset + 4 <= the component's size */
    uint32_t n_rows;         /* every key must be < n_rows */
    const dod_executor *exec;         /* as dod_csr_desc: build in parallel on it */
    dod_arena *scratch;               /* as dod_csr_desc: where the scratch comes from */
    dod_csr_build_strategy strategy;  /* as dod_csr_desc */
    uint32_t flags;                   /* DOD_WORLD_INDEX_ROWS: items are row numbers, else
                                         entity slots; DOD_CSR_BUILD_SORT_ROWS: each row's slots
                                         ascending instead of in the world's walk order (row
                                         numbers are in walk order and ascending already) */
} dod_world_index_desc;

/* dod_world_index_desc.flags: the items are row numbers of the query (dod/world_rows.h), not
 * entity slots. */
#define DOD_WORLD_INDEX_ROWS 2u

/* Up to this many matched blocks, the build keeps its list of blocks on the stack. */
#define DOD_WORLD_INDEX_STACK_RUNS 64u

/* Build index from w: row r lists the items of the entities matched by desc->query whose key
 * (the uint32_t at key_offset in their `component`, host byte order) is r, in the order the
 * query walks the world (slots ascending instead with DOD_CSR_BUILD_SORT_ROWS). The items are
 * row numbers with DOD_WORLD_INDEX_ROWS (the index's item bound is then its item count, the
 * rows the query matches), else slots (its item bound is 1 + its largest slot). Every strategy
 * and thread count gives the same bytes. A rebuild whose sizes fit what the index holds
 * allocates nothing but, for a world of more than DOD_WORLD_INDEX_STACK_RUNS blocks matched,
 * the list of blocks (24 bytes a block), which comes from desc->scratch when given, else from
 * the index's allocator, and is freed before the call returns. Costs one read of each matched
 * entity's key (and, for slot items, of its id), the partitioned build's scratch as
 * dod_csr_build_desc (docs/build.md) and nothing per archetype or block beyond a few loads:
 * with row items, what dod_csr_build_desc costs over the same keys in one array.
 *
 * Errors, each leaving the index (and the arena) exactly as it was:
 *   DOD_E_INVALID   index, w, desc or desc->query NULL; a query made for another world; a
 *                   matched archetype without the component; key_offset not a multiple of 4
 *                   or past the component's end (a component no archetype has has no size);
 *                   flags or strategy unknown; exec with run NULL or 0 threads
 *   DOD_E_RANGE     component >= the world's component count; some key >= n_rows (n_rows 0
 *                   with any entity matched)
 *   DOD_E_OVERFLOW  n_rows == UINT32_MAX; more than 2^32 - 1 entities matched; byte counts
 *                   that do not fit size_t
 *   DOD_E_NOMEM     the allocator (or the scratch arena) failed
 *   DOD_E_STATE     w a copy without its entity index (DOD_WORLD_COPY_ROWS_ONLY) and flags
 *                   without DOD_WORLD_INDEX_ROWS: its items would be slots w does not hold
 * A successful build replaces the index's contents: pointers into its offsets and items taken
 * before may no longer be valid (as after any build).
 * Thread safety: reads w (any number of readers while no thread changes it); exclusive
 * access to index and to the scratch arena. */
DOD_API dod_status dod_world_index_build(dod_csr *index, const dod_world *w,
                                         const dod_world_index_desc *desc);

/* One column of dod_world_gather_rows and dod_world_gather: dst receives index->n_items
 * elements of `size` bytes packed back to back, element j a copy of the `size` bytes at
 * `offset` in `component` of item j's entity (a field of the component, or the whole of it with
 * offset 0 and its size). */
typedef struct dod_world_gather_col {
    void *dst;
    uint32_t component;
    uint32_t offset;
    uint32_t size;
} dod_world_gather_col;

/* Copy n_cols component fields into row order: dst[j] = the field of row number
 * index->items[j] of q in w (dod/world_rows.h), for every j < n_items, reading the rows as a
 * dod_world_rows does (no slot: a compare and an address per item while items stay in one
 * block, each field fetched ahead); parallel on exec when given (NULL = the calling thread).
 * index is typically built by dod_world_index_build with DOD_WORLD_INDEX_ROWS from the same w
 * and q (or a query made for the world w was copied from), and w has not changed since.
 * Errors (nothing written):
 *   DOD_E_INVALID    index, w or q NULL; q made for another world; cols NULL with n_cols > 0; a
 *                    column with dst NULL while n_items > 0, size 0, or offset + size past its
 *                    component's size (0 for a component no archetype has); an archetype q
 *                    matches that lacks a column's component; exec with run NULL or 0 threads
 *   DOD_E_RANGE      a column's component >= the world's component count; an item >= the rows
 *                    q matches in w (checked in O(1) on the index's item bound)
 *   DOD_E_OVERFLOW   n_items * size does not fit size_t
 * Allocates nothing. Thread safety: reads index and w; any number may run at once while no
 * thread changes them. */
DOD_API dod_status dod_world_gather_rows(const dod_csr *index, const dod_world *w,
                                         const dod_query *q, const dod_world_gather_col *cols,
                                         uint32_t n_cols, const dod_executor *exec);

/* dod_reduce_rows (dod/reduce.h) over an index of row numbers of q in w: for every row r of the
 * index, the sum, min, max and mean of the float at `offset` in `component` of its items' rows,
 * into out's arrays (index->n_rows floats each; any may be NULL), bit for bit what
 * dod_reduce_rows gives over the same values in an array (each row added up in its items' order;
 * an empty row: sum 0, min +infinity, max -infinity, mean 0). The values are read where they lie,
 * nothing is gathered: "every army's strength and morale" in one read of the fields. Rows are
 * spread across exec's threads whole (NULL = the calling thread), so the results are the same
 * for any executor. index and w as for dod_world_gather_rows.
 * Errors (nothing written):
 *   DOD_E_INVALID  index, w, q or out NULL; q made for another world; offset not a multiple of 4
 *                  or the float past the component's end; an archetype q matches that lacks the
 *                  component; exec with run NULL or 0 threads
 *   DOD_E_RANGE    component >= the world's component count; an item >= the rows q matches
 * Allocates nothing. Thread safety: reads index and w; the output arrays are the caller's. */
DOD_API dod_status dod_world_reduce_rows(const dod_csr *index, const dod_world *w,
                                         const dod_query *q, uint32_t component, uint32_t offset,
                                         const dod_reduce_out *out, const dod_executor *exec);

/* The same for an index whose items are slots: dst[j] = the field of entity index->items[j],
 * for every j < n_items, through the item's slot in O(1); parallel on exec when given (NULL =
 * the calling thread). index is typically built by dod_world_index_build, but any index whose
 * items are slots of w will do. Every item is checked before anything is written.
 * Errors (nothing written):
 *   DOD_E_INVALID    index or w NULL; cols NULL with n_cols > 0; a column with dst NULL while
 *                    n_items > 0, size 0, or offset + size past its component's size (0 for a
 *                    component no archetype has); exec with run NULL or 0 threads
 *   DOD_E_RANGE      a column's component >= the world's component count; an item >= the
 *                    slots the world has handed out (checked in O(1) on the index's item bound)
 *   DOD_E_NOT_FOUND  an item whose entity is not alive (despawned since the build), or whose
 *                    archetype lacks a column's component
 *   DOD_E_STATE      w a copy without its entity index (DOD_WORLD_COPY_ROWS_ONLY)
 *   DOD_E_OVERFLOW   n_items * size does not fit size_t
 * Allocates nothing. Thread safety: reads index and w; any number may run at once while no
 * thread changes them. */
DOD_API dod_status dod_world_gather(const dod_csr *index, const dod_world *w,
                                    const dod_world_gather_col *cols, uint32_t n_cols,
                                    const dod_executor *exec);

#ifdef __cplusplus
}
#endif

#endif /* DOD_WORLD_INDEX_H */
