/* The index's storage plumbing, shared by csr.c, csr_io.c and csr_build.c; not installed.
 *
 * An index holds two blocks: the row block (two offsets arrays of row_cap + 1 entries, each
 * starting on a cache line: the live `offsets` and the `spare` a build counts into) and the
 * items block. Operations that may fail first get whatever new blocks they need into a
 * dod__csr_blocks, fill them, and only then commit, so a failure changes nothing. */
#ifndef DOD_CSR_STORAGE_H
#define DOD_CSR_STORAGE_H

#include <dod/csr.h>

typedef struct dod__csr_blocks {
    uint32_t *row_block; /* NULL: the held row block fits and is kept */
    uint32_t row_cap;
    uint32_t *items;     /* NULL: the held items block fits and is kept */
    uint32_t item_cap;
    void *scratch;       /* with a fresh items block: the scratch at its end (NULL: none) */
    size_t scratch_bytes;
} dod__csr_blocks;

/* Allocate the blocks the index lacks for n_rows rows and n_items items (n_rows < UINT32_MAX)
 * and scratch_bytes of build scratch. The scratch lives at the end of the items block (after
 * the items, on a cache line), so an index never holds more than two blocks; an items block
 * whose scratch is too small is remade. On failure nothing is allocated, the index untouched. */
dod_status dod__csr_prepare(const dod_csr *csr, uint32_t n_rows, uint32_t n_items,
                            size_t scratch_bytes, dod__csr_blocks *fresh);

/* Where the next offsets and items go: the fresh blocks, else the spare half and the held items. */
uint32_t *dod__csr_next_offsets(const dod_csr *csr, const dod__csr_blocks *fresh);
uint32_t *dod__csr_next_items(const dod_csr *csr, const dod__csr_blocks *fresh);

/* Where the build scratch is: the fresh items block's, else the held one (NULL: none). */
void *dod__csr_next_scratch(const dod_csr *csr, const dod__csr_blocks *fresh);

/* Give back fresh blocks after a failure. */
void dod__csr_discard(const dod_csr *csr, dod__csr_blocks *fresh);

/* Install the arrays dod__csr_next_* pointed to, with the new sizes; frees replaced blocks.
 * Sets item_bound to n_items (a value build then sets its own). */
void dod__csr_commit(dod_csr *csr, dod__csr_blocks *fresh, uint32_t n_rows, uint32_t n_items);

#endif /* DOD_CSR_STORAGE_H */
