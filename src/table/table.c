/* The table's storage: column layout in groups, growth, reserve, clear and free. */
#include "atomic.h"
#include "table_internal.h"

/* The one piece of process state in the table module: a counter that gives each table a
 * different tag, so a handle from another table is refused (see docs/table.md). Only
 * uniqueness matters, so relaxed. */
static dod__atomic_u32 tag_counter;
static uint32_t next_tag(void)
{
    return dod__atomic_u32_fetch_add_relaxed(&tag_counter, 1u) + 1u;
}

/* Bytes of one column at capacity cap, rounded up to a cache line. */
static int column_bytes(size_t size, uint32_t cap, size_t *out)
{
    size_t b;
    return dod__mul(size, cap, &b) && dod__align_up(b, out);
}

static void reset_storage(dod_table *t)
{
    t->n_rows = 0;
    t->row_cap = 0;
    t->n_slots = 0;
    t->slot_cap = 0;
    t->free_head = DOD__TABLE_NONE;
    t->n_free = 0;
    t->slots = NULL;
    for (uint32_t b = 0; b <= DOD_TABLE_MAX_COLUMNS; ++b) {
        t->col[b] = NULL;
        t->block[b] = NULL;
        t->block_bytes[b] = 0;
    }
    t->tag = next_tag() & ((1u << DOD__TABLE_TAG_BITS) - 1);
}

dod_status dod_table_init(dod_table *t, const dod_table_column_desc *cols, uint32_t n_cols,
                          const dod_allocator *alloc)
{
    DOD__REFUSE_IF(!t, DOD_E_INVALID);
    memset(t, 0, sizeof *t);
    t->alloc = dod__allocator_or_heap(alloc);
    reset_storage(t);
    DOD__REFUSE_IF(!cols && n_cols > 0, DOD_E_INVALID);
    DOD__REFUSE_IF(n_cols > DOD_TABLE_MAX_COLUMNS, DOD_E_RANGE);
    for (uint32_t c = 0; c < n_cols; ++c) {
        const char *broken = dod__element_rule_broken(cols[c].size, cols[c].align);
        if (broken)
            return DOD__FAIL(DOD_E_INVALID, broken);
    }
    /* Dense group indices in order of first appearance. */
    uint32_t n_groups = 0;
    for (uint32_t c = 0; c < n_cols; ++c) {
        uint32_t g = 0;
        while (g < c && cols[g].group != cols[c].group)
            ++g;
        t->col_block[c] = g < c ? t->col_block[g] : (uint8_t)n_groups++;
        t->desc[c] = cols[c];
    }
    t->n_cols = n_cols;
    t->n_groups = n_groups;
    t->col_block[n_cols] = (uint8_t)n_groups; /* the back-pointer column's own block */
    return DOD_OK;
}

dod_status dod__table_alloc_blocks(const dod_table *t, uint32_t cap, dod__table_fresh *fresh)
{
    DOD_ASSERT(cap > 0);
    size_t offset[DOD_TABLE_MAX_COLUMNS + 1];
    size_t bytes[DOD_TABLE_MAX_COLUMNS + 1] = { 0 };
    for (uint32_t c = 0; c <= t->n_cols; ++c) {
        size_t b;
        uint32_t g = t->col_block[c];
        DOD__REFUSE_IF(!column_bytes(dod__table_col_size(t, c), cap, &b), DOD_E_OVERFLOW);
        offset[c] = bytes[g];
        DOD__REFUSE_IF(!dod__add(bytes[g], b, &bytes[g]), DOD_E_OVERFLOW);
    }
    for (uint32_t g = 0; g <= t->n_groups; ++g) {
        fresh->block[g] = dod__alloc(&t->alloc, bytes[g]);
        fresh->block_bytes[g] = bytes[g];
        if (!fresh->block[g]) {
            while (g-- > 0) {
                dod__free(&t->alloc, fresh->block[g], fresh->block_bytes[g]);
                fresh->block[g] = NULL;
            }
            return DOD__FAIL(DOD_E_NOMEM, "allocating a column group");
        }
    }
    for (uint32_t c = 0; c <= t->n_cols; ++c)
        fresh->col[c] = (unsigned char *)fresh->block[t->col_block[c]] + offset[c];
    fresh->row_cap = cap;
    return DOD_OK;
}

static uint32_t grown_row_cap(uint32_t held, uint32_t need, uint32_t first)
{
    uint64_t g = held ? (uint64_t)held + held / 2 : first;
    if (g > DOD_TABLE_MAX_ROWS)
        g = DOD_TABLE_MAX_ROWS;
    return need > g ? need : (uint32_t)g;
}

dod_status dod__table_prepare(const dod_table *t, uint32_t rows, uint32_t slots, int grow,
                              dod__table_fresh *fresh)
{
    fresh->block[0] = NULL;
    fresh->slots = NULL;
    fresh->row_cap = t->row_cap;
    fresh->slot_cap = t->slot_cap;
    DOD__REFUSE_IF(rows > DOD_TABLE_MAX_ROWS, DOD_E_OVERFLOW);
    DOD__REFUSE_IF(slots > DOD_TABLE_MAX_ROWS, DOD_E_OVERFLOW);
    size_t slot_bytes = 0;
    uint32_t slot_cap = t->slot_cap;
    if (slots > t->slot_cap) {
        slot_cap = grow ? grown_row_cap(t->slot_cap, slots, 16) : slots;
        DOD__REFUSE_IF(!dod__mul(slot_cap, sizeof(dod_table_slot), &slot_bytes), DOD_E_OVERFLOW);
    }
    if (rows > t->row_cap) {
        uint32_t cap = grow ? grown_row_cap(t->row_cap, rows, 16) : rows;
        dod_status st = dod__table_alloc_blocks(t, cap, fresh);
        if (st != DOD_OK)
            return st;
    }
    if (slot_bytes) {
        fresh->slots = (dod_table_slot *)dod__alloc(&t->alloc, slot_bytes);
        if (!fresh->slots) {
            dod__table_discard(t, fresh);
            return DOD__FAIL(DOD_E_NOMEM, "allocating the slot array");
        }
        fresh->slot_cap = slot_cap;
    }
    return DOD_OK;
}

static void free_blocks(const dod_table *t, void *const *block, const size_t *bytes)
{
    for (uint32_t g = 0; g <= t->n_groups; ++g)
        dod__free(&t->alloc, block[g], bytes[g]);
}

void dod__table_discard(const dod_table *t, dod__table_fresh *fresh)
{
    if (fresh->block[0])
        free_blocks(t, fresh->block, fresh->block_bytes);
    if (fresh->slots)
        dod__free(&t->alloc, fresh->slots, (size_t)fresh->slot_cap * sizeof(dod_table_slot));
    fresh->block[0] = NULL;
    fresh->slots = NULL;
}

void dod__table_swap_blocks(dod_table *t, dod__table_fresh *fresh)
{
    if (t->block[0])
        free_blocks(t, t->block, t->block_bytes);
    for (uint32_t g = 0; g <= t->n_groups; ++g) {
        t->block[g] = fresh->block[g];
        t->block_bytes[g] = fresh->block_bytes[g];
    }
    for (uint32_t c = 0; c <= t->n_cols; ++c)
        t->col[c] = fresh->col[c];
    t->row_cap = fresh->row_cap;
    fresh->block[0] = NULL;
}

void dod__table_commit(dod_table *t, dod__table_fresh *fresh)
{
    if (fresh->block[0]) {
        for (uint32_t c = 0; c <= t->n_cols && t->n_rows > 0; ++c)
            memcpy(fresh->col[c], t->col[c], (size_t)t->n_rows * dod__table_col_size(t, c));
        dod__table_swap_blocks(t, fresh);
    }
    if (fresh->slots) {
        if (t->n_slots)
            memcpy(fresh->slots, t->slots, (size_t)t->n_slots * sizeof(dod_table_slot));
        dod__free(&t->alloc, t->slots, (size_t)t->slot_cap * sizeof(dod_table_slot));
        t->slots = fresh->slots;
        t->slot_cap = fresh->slot_cap;
        fresh->slots = NULL;
    }
}

dod_status dod_table_reserve(dod_table *t, uint32_t rows)
{
    DOD__REFUSE_IF(!t, DOD_E_INVALID);
    DOD__REFUSE_IF(rows > DOD_TABLE_MAX_ROWS, DOD_E_OVERFLOW);
    /* Pushes take free slots first, then new ones. */
    uint32_t extra = rows > t->n_rows ? rows - t->n_rows : 0;
    uint64_t slots = t->n_slots + (uint64_t)(extra > t->n_free ? extra - t->n_free : 0);
    DOD__REFUSE_IF(slots > DOD_TABLE_MAX_ROWS, DOD_E_OVERFLOW);
    dod__table_fresh fresh;
    dod_status st = dod__table_prepare(t, rows, (uint32_t)slots, 0, &fresh);
    if (st == DOD_OK)
        dod__table_commit(t, &fresh);
    return st;
}

void dod_table_clear(dod_table *t)
{
    if (!t)
        return;
    const uint32_t *row_slot = dod__table_row_slot(t);
    /* Free in reverse so the next pushes reuse the slots of rows 0, 1, ... in order. */
    for (uint32_t r = t->n_rows; r-- > 0;)
        dod__table_release_slot(t, row_slot[r]);
    t->n_rows = 0;
}

uint32_t dod_table_count(const dod_table *t)
{
    return t ? t->n_rows : 0;
}

void *dod_table_column(const dod_table *t, uint32_t col)
{
    return t && col < t->n_cols ? t->col[col] : NULL;
}

size_t dod_table_bytes(const dod_table *t)
{
    if (!t)
        return 0;
    size_t total = (size_t)t->slot_cap * sizeof(dod_table_slot);
    for (uint32_t g = 0; g <= t->n_groups; ++g)
        total += t->block_bytes[g];
    return total;
}

void dod_table_free(dod_table *t)
{
    if (!t)
        return;
    if (t->block[0])
        free_blocks(t, t->block, t->block_bytes);
    dod__free(&t->alloc, t->slots, (size_t)t->slot_cap * sizeof(dod_table_slot));
    reset_storage(t);
}
