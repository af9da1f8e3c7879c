/* The table's handles: the slot map behind push, find, remove and pop. */
#include "table_internal.h"

static dod_table_handle make_handle(const dod_table *t, uint32_t slot)
{
    dod_table_handle h;
    h.bits = (uint64_t)t->tag << (32 + DOD__TABLE_GEN_BITS) |
             (uint64_t)t->slots[slot].gen << 32 | slot;
    return h;
}

/* The row of h, or 0 when h does not name a live row of t. */
static int resolve(const dod_table *t, dod_table_handle h, uint32_t *row)
{
    uint32_t slot = (uint32_t)h.bits;
    uint32_t gen = (uint32_t)(h.bits >> 32) & DOD__TABLE_GEN_MAX;
    uint32_t tag = (uint32_t)(h.bits >> (32 + DOD__TABLE_GEN_BITS));
    if (tag != t->tag || slot >= t->n_slots || (gen & 1u) == 0 || t->slots[slot].gen != gen)
        return 0;
    *row = t->slots[slot].index;
    DOD_ASSERT(*row < t->n_rows && dod__table_row_slot(t)[*row] == slot);
    return 1;
}

dod_status dod_table_find(const dod_table *t, dod_table_handle h, uint32_t *row)
{
    DOD__REFUSE_IF(!t, DOD_E_INVALID);
    DOD__REFUSE_IF(!row, DOD_E_INVALID);
    return resolve(t, h, row) ? DOD_OK : DOD_E_NOT_FOUND;
}

dod_table_handle dod_table_handle_at(const dod_table *t, uint32_t row)
{
    dod_table_handle h = { 0 };
    if (t && row < t->n_rows)
        h = make_handle(t, dod__table_row_slot(t)[row]);
    return h;
}

dod_status dod_table_push(dod_table *t, dod_table_handle *out)
{
    DOD__REFUSE_IF(!t, DOD_E_INVALID);
    DOD__REFUSE_IF(!out, DOD_E_INVALID);
    int new_slot = t->free_head == DOD__TABLE_NONE;
    DOD__REFUSE_IF(t->n_rows >= DOD_TABLE_MAX_ROWS, DOD_E_OVERFLOW);
    DOD__REFUSE_IF(new_slot && t->n_slots >= DOD_TABLE_MAX_ROWS, DOD_E_OVERFLOW);
    if (t->n_rows == t->row_cap || (new_slot && t->n_slots == t->slot_cap)) {
        dod__table_fresh fresh;
        dod_status st = dod__table_prepare(t, t->n_rows + 1, t->n_slots + (uint32_t)new_slot, 1,
                                           &fresh);
        if (st != DOD_OK)
            return st;
        dod__table_commit(t, &fresh);
    }
    uint32_t slot;
    if (new_slot) {
        slot = t->n_slots++;
        t->slots[slot].gen = 1;
    } else {
        slot = t->free_head;
        t->free_head = t->slots[slot].index;
        t->n_free--;
        t->slots[slot].gen++;
    }
    uint32_t row = t->n_rows++;
    t->slots[slot].index = row;
    dod__table_row_slot(t)[row] = slot;
    for (uint32_t c = 0; c < t->n_cols; ++c)
        dod__zero_elem((unsigned char *)t->col[c] + (size_t)row * t->desc[c].size,
                       t->desc[c].size);
    *out = make_handle(t, slot);
    return DOD_OK;
}

/* Move the last row into `row` in every column (the back-pointer column too). */
static void swap_remove_row(dod_table *t, uint32_t row)
{
    uint32_t last = t->n_rows - 1;
    uint32_t *row_slot = dod__table_row_slot(t);
    uint32_t gone = row_slot[row];
    if (row != last) {
        for (uint32_t c = 0; c < t->n_cols; ++c) {
            size_t size = t->desc[c].size;
            unsigned char *base = (unsigned char *)t->col[c];
            dod__copy_elem(base + (size_t)row * size, base + (size_t)last * size, size);
        }
        row_slot[row] = row_slot[last];
        t->slots[row_slot[row]].index = row;
    }
    t->n_rows = last;
    dod__table_release_slot(t, gone);
}

dod_status dod_table_remove(dod_table *t, dod_table_handle h)
{
    uint32_t row;
    DOD__REFUSE_IF(!t, DOD_E_INVALID);
    DOD__REFUSE_IF(!resolve(t, h, &row), DOD_E_NOT_FOUND);
    swap_remove_row(t, row);
    return DOD_OK;
}

dod_status dod_table_pop(dod_table *t)
{
    DOD__REFUSE_IF(!t, DOD_E_INVALID);
    DOD__REFUSE_IF(t->n_rows == 0, DOD_E_RANGE);
    swap_remove_row(t, t->n_rows - 1);
    return DOD_OK;
}

dod_status dod_table_remove_ordered(dod_table *t, dod_table_handle h)
{
    uint32_t row;
    DOD__REFUSE_IF(!t, DOD_E_INVALID);
    DOD__REFUSE_IF(!resolve(t, h, &row), DOD_E_NOT_FOUND);
    uint32_t *row_slot = dod__table_row_slot(t);
    uint32_t gone = row_slot[row];
    uint32_t after = t->n_rows - 1 - row;
    for (uint32_t c = 0; c <= t->n_cols && after > 0; ++c) {
        size_t size = dod__table_col_size(t, c);
        unsigned char *base = (unsigned char *)t->col[c];
        memmove(base + (size_t)row * size, base + ((size_t)row + 1) * size, (size_t)after * size);
    }
    t->n_rows--;
    for (uint32_t r = row; r < t->n_rows; ++r)
        t->slots[row_slot[r]].index = r;
    dod__table_release_slot(t, gone);
    return DOD_OK;
}
