/* The table's snapshot: dod_table_copy. */
#include "table_internal.h"

static int same_columns(const dod_table *a, const dod_table *b)
{
    if (a->n_cols != b->n_cols)
        return 0;
    for (uint32_t c = 0; c < a->n_cols; ++c)
        if (a->desc[c].size != b->desc[c].size || a->desc[c].align != b->desc[c].align ||
            a->desc[c].group != b->desc[c].group)
            return 0;
    return 1;
}

dod_status dod_table_copy(dod_table *dst, const dod_table *src)
{
    DOD__REFUSE_IF(!dst, DOD_E_INVALID);
    DOD__REFUSE_IF(!src, DOD_E_INVALID);
    if (dst == src)
        return DOD_OK;
    dod__table_fresh fresh;
    fresh.block[0] = NULL;
    fresh.slots = NULL;
    fresh.slot_cap = dst->slot_cap;
    int same = same_columns(dst, src);
    if ((!same || dst->row_cap < src->n_rows) && src->row_cap > 0) {
        /* dst's blocks are laid out for src's columns, at src's capacity. */
        dod_table shape = *dst;
        shape.n_cols = src->n_cols;
        shape.n_groups = src->n_groups;
        memcpy(shape.desc, src->desc, sizeof shape.desc);
        memcpy(shape.col_block, src->col_block, sizeof shape.col_block);
        dod_status st = dod__table_alloc_blocks(&shape, src->row_cap, &fresh);
        if (st != DOD_OK)
            return st;
    }
    if (dst->slot_cap < src->n_slots) {
        fresh.slots = (dod_table_slot *)dod__alloc(&dst->alloc,
                                                   (size_t)src->slot_cap * sizeof(dod_table_slot));
        if (!fresh.slots) {
            if (fresh.block[0]) {
                for (uint32_t g = 0; g <= src->n_groups; ++g)
                    dod__free(&dst->alloc, fresh.block[g], fresh.block_bytes[g]);
            }
            return DOD__FAIL(DOD_E_NOMEM, "allocating the slot array");
        }
        fresh.slot_cap = src->slot_cap;
    }
    /* Nothing can fail from here on. */
    if (fresh.block[0] || !same) {
        if (dst->block[0]) {
            for (uint32_t g = 0; g <= dst->n_groups; ++g)
                dod__free(&dst->alloc, dst->block[g], dst->block_bytes[g]);
        }
        for (uint32_t b = 0; b <= DOD_TABLE_MAX_COLUMNS; ++b) {
            dst->block[b] = NULL;
            dst->block_bytes[b] = 0;
            dst->col[b] = NULL;
        }
        dst->n_cols = src->n_cols;
        dst->n_groups = src->n_groups;
        memcpy(dst->desc, src->desc, sizeof dst->desc);
        memcpy(dst->col_block, src->col_block, sizeof dst->col_block);
        dst->row_cap = 0;
        if (fresh.block[0])
            dod__table_swap_blocks(dst, &fresh);
    }
    if (fresh.slots) {
        dod__free(&dst->alloc, dst->slots, (size_t)dst->slot_cap * sizeof(dod_table_slot));
        dst->slots = fresh.slots;
        dst->slot_cap = fresh.slot_cap;
    }
    for (uint32_t c = 0; c <= src->n_cols && src->n_rows > 0; ++c)
        memcpy(dst->col[c], src->col[c], (size_t)src->n_rows * dod__table_col_size(src, c));
    if (src->n_slots)
        memcpy(dst->slots, src->slots, (size_t)src->n_slots * sizeof(dod_table_slot));
    dst->n_rows = src->n_rows;
    dst->n_slots = src->n_slots;
    dst->free_head = src->free_head;
    dst->n_free = src->n_free;
    dst->tag = src->tag;
    return DOD_OK;
}
