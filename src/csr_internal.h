/* Storage plumbing shared by the index's .c files; not installed.
 *
 * An index holds two blocks: the row block (two offsets arrays of row_cap + 1 entries, each
 * starting on a cache line: the live `offsets` and the `spare` a build counts into) and the
 * items block. Operations that may fail first get whatever new blocks they need into a
 * dod__csr_blocks, fill them, and only then commit, so a failure changes nothing. */
#ifndef DOD_CSR_INTERNAL_H
#define DOD_CSR_INTERNAL_H

#include <dod/csr.h>

typedef struct dod__csr_blocks {
    uint32_t *row_block; /* NULL: the held row block fits and is kept */
    uint32_t row_cap;
    uint32_t *items;     /* NULL: the held items block fits and is kept */
    uint32_t item_cap;
} dod__csr_blocks;

/* Allocate the blocks the index lacks for n_rows rows and n_items items (n_rows < UINT32_MAX).
 * On failure nothing is allocated and the index is untouched. */
dod_status dod__csr_prepare(const dod_csr *csr, uint32_t n_rows, uint32_t n_items,
                            dod__csr_blocks *fresh);

/* Where the next offsets and items go: the fresh blocks, else the spare half and the held items. */
uint32_t *dod__csr_next_offsets(const dod_csr *csr, const dod__csr_blocks *fresh);
uint32_t *dod__csr_next_items(const dod_csr *csr, const dod__csr_blocks *fresh);

/* Give back fresh blocks after a failure. */
void dod__csr_discard(const dod_csr *csr, dod__csr_blocks *fresh);

/* Install the arrays dod__csr_next_* pointed to, with the new sizes; frees replaced blocks. */
void dod__csr_commit(dod_csr *csr, dod__csr_blocks *fresh, uint32_t n_rows, uint32_t n_items);

#endif /* DOD_CSR_INTERNAL_H */
