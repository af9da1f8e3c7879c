/* The world's private layout, shared by src/world*.c; not installed (docs/world.md draws it).
 *
 * Entity index: one uint64_t slot per handle index,
 *   bits  0..15  generation (odd: alive; even: free or retired)
 *   bits 16..23  archetype
 *   bits 24..63  location: (block << arch.shift) | row in block   (alive)
 *                the next free slot, DOD__WORLD_NO_SLOT at the end  (free)
 * so a lookup is one load and a shift and mask, never a division. A fixed archetype has one
 * block and shift 32 (the location is the row). The parts a lookup reads (the world's head,
 * the archetypes' places) are declared in dod/world.h for its inline dod_world_get. */
#ifndef DOD_WORLD_INTERNAL_H
#define DOD_WORLD_INTERNAL_H

#include <dod/world.h>
#include "internal.h"

/* DOD__WORLD_GEN_BITS, DOD__WORLD_GEN_MASK and DOD__WORLD_LOC_SHIFT are in dod/world.h. */
#define DOD__WORLD_TAG_MASK 0xFFFFu
#define DOD__WORLD_LOC_BITS 40
#define DOD__WORLD_MAX_SLOTS 0xFFFFFFFFu   /* handle indexes 0 .. 2^32 - 2 */
#define DOD__WORLD_NO_SLOT UINT32_MAX      /* the free list's end */
#define DOD__WORLD_FIXED_SHIFT 32

typedef struct dod__world_arch {
    dod__world_place *place; /* its entry of head.places (dod/world.h reads them): blocks,
                                fields, shift. The block list has n_blocks blocks: n_used
                                holding rows, then maybe one spare; it is &first_block until it
                                outgrows one entry */
    uint32_t n_rows;         /* live rows */
    uint32_t rows_per_block; /* a fixed archetype: its capacity */
    uint32_t n_used;         /* blocks holding rows: ceil(n_rows / rows_per_block) */
    uint32_t tail;           /* rows in the last block holding rows; rows_per_block when
                                there is none, so "tail is full" means "append a block" */
    unsigned char *end_block; /* the last block holding rows (n_used > 0), and the location */
    uint64_t end_loc;         /* of its row 0: push and remove read these, not the list */
    uint32_t n_cols;         /* components */
    uint32_t n_blocks;       /* blocks allocated: n_used or n_used + 1 */
    uint64_t rows_held;      /* n_blocks * rows_per_block: rows that fit without allocating */
    uint32_t blocks_cap;     /* entries of the block list */
    uint32_t max_blocks;     /* the memory cap (and the location bits) in blocks */
    int fixed;
    size_t block_bytes;      /* bytes of each block */
    unsigned char *first_block;
    uint64_t comp_bits[DOD_WORLD_MAX_COMPONENTS / 64];     /* the components it has */
    dod__world_field cols[DOD_WORLD_MAX_ARCHETYPE_COMPONENTS]; /* column k: offset in a block,
                                                                   element size */
    uint8_t col_comp[DOD_WORLD_MAX_ARCHETYPE_COMPONENTS];  /* column -> component */
} dod__world_arch;

struct dod_world {
    dod__world_head head; /* first (dod/world.h reads it): slots, places, n_slots, tag,
                             n_components */
    uint32_t slot_cap;
    uint32_t free_head;   /* most recently freed slot, DOD__WORLD_NO_SLOT when none */
    uint32_t n_free;      /* slots on the free list */
    uint32_t n_archetypes;
    size_t bytes;         /* of this allocation (world, archetypes, places, field tables) */
    dod_allocator alloc;
    dod__world_arch *arch; /* n_archetypes, in the same allocation as the world */
};

static inline uint32_t dod__world_slot_gen(uint64_t slot)
{
    return (uint32_t)(slot & DOD__WORLD_GEN_MASK);
}

static inline uint32_t dod__world_slot_arch(uint64_t slot)
{
    return (uint32_t)(slot >> DOD__WORLD_GEN_BITS) & 0xFFu;
}

static inline uint64_t dod__world_slot_loc(uint64_t slot)
{
    return slot >> DOD__WORLD_LOC_SHIFT;
}

static inline uint64_t dod__world_slot_make(uint32_t gen, uint32_t arch, uint64_t loc)
{
    return (uint64_t)gen | (uint64_t)arch << DOD__WORLD_GEN_BITS | loc << DOD__WORLD_LOC_SHIFT;
}

/* The slot of e when e is alive in w, else NULL. No writes: readers may call it. */
static inline const uint64_t *dod__world_resolve(const dod_world *w, dod_entity e)
{
    return dod__world_find(&w->head, e);
}

/* The handle of a live slot. */
static inline dod_entity dod__world_handle(const dod_world *w, uint32_t index, uint32_t gen)
{
    dod_entity e;
    e.bits = (uint64_t)(w->head.tag_hi | gen) << 32 | index;
    return e;
}

/* Rows in block b of a (b < n_used). */
static inline uint32_t dod__world_block_rows(const dod__world_arch *a, uint32_t b)
{
    return b + 1 < a->n_used ? a->rows_per_block : a->tail;
}

/* The address of row `row` of column `col` in `block`. */
static inline unsigned char *dod__world_cell(const dod__world_arch *a, unsigned char *block,
                                             uint32_t col, uint32_t row)
{
    return block + a->cols[col].offset + (size_t)row * a->cols[col].size;
}

/* The entity-id column of a block (offset 0). */
static inline dod_entity *dod__world_ids(unsigned char *block)
{
    return (dod_entity *)(void *)block;
}

/* Storage (world_storage.c). */

/* Make room for n more rows at the end of a: the spare block, then new blocks (and a longer
 * block list) allocated before anything changes; on failure nothing changed.
 * DOD_E_FULL (capacity or memory cap), DOD_E_NOMEM. */
dod_status dod__world_reserve_rows(dod_world *w, dod__world_arch *a, uint32_t n);

/* After a's last block holding rows emptied (n_used already counts the blocks holding rows):
 * blocks past them, beyond one spare, are freed. */
void dod__world_trim_blocks(dod_world *w, dod__world_arch *a);

/* Make sure n more slots can be taken without allocating: a larger entity index goes into
 * *fresh (NULL when none is needed) for dod__world_install_slots, after the other
 * allocations of the call succeeded. DOD_E_OVERFLOW, DOD_E_NOMEM. */
dod_status dod__world_prepare_slots(const dod_world *w, uint32_t n, uint64_t **fresh,
                                    uint32_t *fresh_cap);
void dod__world_install_slots(dod_world *w, uint64_t *fresh, uint32_t fresh_cap);
void dod__world_discard_slots(const dod_world *w, uint64_t *fresh, uint32_t fresh_cap);

/* Free every block and the block list of a (the world is being destroyed). */
void dod__world_free_blocks(dod_world *w, dod__world_arch *a);

#endif /* DOD_WORLD_INTERNAL_H */
