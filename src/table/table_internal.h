/* Storage plumbing shared by the table's .c files; not installed.
 *
 * A table has n_groups user blocks plus one more (block[n_groups]) holding the hidden
 * back-pointer column col[n_cols] (row -> slot, uint32_t). Inside a block the columns follow
 * each other in declaration order, each starting on a 64-byte line, so a block at capacity
 * `cap` is sum(align_up(size * cap, 64)) bytes. Operations that may fail first allocate every
 * block they need into a dod__table_fresh, fill it, and only then commit. */
#ifndef DOD_TABLE_INTERNAL_H
#define DOD_TABLE_INTERNAL_H

#include <dod/table.h>
#include "internal.h"

#define DOD__TABLE_NONE UINT32_MAX          /* end of the free list */
#define DOD__TABLE_GEN_BITS 20
#define DOD__TABLE_GEN_MAX ((1u << DOD__TABLE_GEN_BITS) - 1) /* the last live generation */
#define DOD__TABLE_RETIRED (1u << DOD__TABLE_GEN_BITS)      /* never matches a handle */
#define DOD__TABLE_TAG_BITS 12

/* The back-pointer column: slot of every row. */
static inline uint32_t *dod__table_row_slot(const dod_table *t)
{
    return (uint32_t *)t->col[t->n_cols];
}

static inline size_t dod__table_col_size(const dod_table *t, uint32_t col)
{
    return col < t->n_cols ? t->desc[col].size : sizeof(uint32_t);
}

/* A row left the table: its slot's generation moves on (stale handles stop resolving) and the
 * slot goes on the free list, or is retired when its generation would wrap. */
static inline void dod__table_release_slot(dod_table *t, uint32_t slot)
{
    dod_table_slot *s = &t->slots[slot];
    if (s->gen == DOD__TABLE_GEN_MAX) {
        s->gen = DOD__TABLE_RETIRED;
        return;
    }
    s->gen++;
    s->index = t->free_head;
    t->free_head = slot;
    t->n_free++;
}

typedef struct dod__table_fresh {
    uint32_t row_cap;                            /* capacity of the fresh blocks */
    void *block[DOD_TABLE_MAX_COLUMNS + 1];  /* NULL everywhere when no blocks are fresh */
    size_t block_bytes[DOD_TABLE_MAX_COLUMNS + 1];
    void *col[DOD_TABLE_MAX_COLUMNS + 1];    /* column bases inside the fresh blocks */
    dod_table_slot *slots;                   /* NULL: the held slot array is kept */
    uint32_t slot_cap;
} dod__table_fresh;

/* Allocate a full set of blocks for capacity `cap` (cap > 0) laid out for t's columns.
 * On failure nothing is allocated: DOD_E_OVERFLOW or DOD_E_NOMEM. */
dod_status dod__table_alloc_blocks(const dod_table *t, uint32_t cap, dod__table_fresh *fresh);

/* Make sure t can hold `rows` rows and `slots` slots, allocating into fresh what is short;
 * `grow` picks geometric growth over an exact fit. fresh->block[0] / fresh->slots stay NULL
 * when nothing of that kind is needed. On failure nothing is allocated. */
dod_status dod__table_prepare(const dod_table *t, uint32_t rows, uint32_t slots, int grow,
                              dod__table_fresh *fresh);

/* Copy the live rows and slots into whatever is fresh, free what it replaces, install it. */
void dod__table_commit(dod_table *t, dod__table_fresh *fresh);

/* Give back fresh blocks after a failure. */
void dod__table_discard(const dod_table *t, dod__table_fresh *fresh);

/* Free t's blocks only (not the slot array) and install fresh's blocks in their place, with
 * fresh->row_cap as the new capacity. The caller has filled the fresh columns. */
void dod__table_swap_blocks(dod_table *t, dod__table_fresh *fresh);

/* The largest element of any column, the back-pointer column included. */
static inline size_t dod__table_max_size(const dod_table *t)
{
    size_t m = sizeof(uint32_t);
    for (uint32_t c = 0; c < t->n_cols; ++c)
        if (t->desc[c].size > m)
            m = t->desc[c].size;
    return m;
}

/* Apply a permutation known to be valid (new row i = old row perm[i]) column by column in
 * place, through `scratch` (len * dod__table_max_size(t) bytes, not overlapping perm), then
 * patch every slot. Columns do not move. */
void dod__table_apply_perm(dod_table *t, const uint32_t *perm, void *scratch);

#endif /* DOD_TABLE_INTERNAL_H */
