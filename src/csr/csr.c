/* The index's lifecycle: storage, copy, reserve, shrink, comparison and checks. */
#include "csr_storage.h"
#include "internal.h"

/* Entries in one half of the row block: row_cap + 1 rounded up to a cache line. */
static size_t row_half_entries(uint32_t row_cap)
{
    size_t n = ((size_t)row_cap + 1 + 15) & ~(size_t)15;
    return n;
}

static int row_block_bytes(uint32_t row_cap, size_t *bytes)
{
    return dod__mul(row_half_entries(row_cap), 2 * sizeof(uint32_t), bytes);
}

/* The items part of the items block, rounded up to a cache line; the build scratch follows. */
static int item_part_bytes(uint32_t item_cap, size_t *bytes)
{
    /* At least one entry, so items is never NULL after a build and row pointers are valid. */
    return dod__mul(item_cap ? item_cap : 1, sizeof(uint32_t), bytes) &&
           dod__align_up(*bytes, bytes);
}

static int item_block_bytes(uint32_t item_cap, size_t scratch_bytes, size_t *bytes)
{
    return item_part_bytes(item_cap, bytes) && dod__add(*bytes, scratch_bytes, bytes);
}

/* Growth: exact on the first allocation, then at least 1.5x so a slowly growing world
 * reallocates rarely. */
static uint32_t grown_cap(uint32_t held, uint32_t need, uint32_t limit)
{
    if (held == 0)
        return need;
    uint64_t g = (uint64_t)held + held / 2;
    if (g > limit)
        g = limit;
    return need > g ? need : (uint32_t)g;
}

void dod_csr_init(dod_csr *csr, const dod_allocator *alloc)
{
    if (!csr)
        return;
    csr->n_rows = 0;
    csr->n_items = 0;
    csr->offsets = NULL;
    csr->items = NULL;
    csr->row_cap = 0;
    csr->item_cap = 0;
    csr->spare = NULL;
    csr->row_block = NULL;
    csr->alloc = dod__allocator_or_heap(alloc);
    csr->item_bound = 0;
    csr->scratch = NULL;
    csr->scratch_bytes = 0;
}

/* How much to allocate: grow (builds, copies), exact when short (reserve), exact (shrink). */
typedef enum sizing { SIZE_GROW, SIZE_EXACT_IF_SHORT, SIZE_EXACT } sizing;

/* Scratch to hold when a new items block is made: what is asked, grown by half again over
 * what was held when growing; none when shrinking or when nothing is asked. */
static size_t scratch_for(const dod_csr *csr, size_t want, sizing how)
{
    if (how == SIZE_GROW && want > 0 && csr->scratch_bytes <= SIZE_MAX / 3) {
        size_t g = csr->scratch_bytes + csr->scratch_bytes / 2;
        if (g > want)
            want = g;
    }
    return want;
}

static dod_status prepare(const dod_csr *csr, uint32_t n_rows, uint32_t n_items, sizing how,
                          size_t scratch_bytes, dod__csr_blocks *fresh)
{
    size_t row_bytes = 0, item_bytes = 0;
    fresh->row_block = NULL;
    fresh->items = NULL;
    fresh->row_cap = csr->row_cap;
    fresh->item_cap = csr->item_cap;
    fresh->scratch = NULL;
    fresh->scratch_bytes = 0;

    int need_rows = !csr->row_block || csr->row_cap < n_rows;
    int need_items = !csr->items || csr->item_cap < n_items || csr->scratch_bytes < scratch_bytes;
    if (how == SIZE_EXACT) {
        need_rows = need_rows || csr->row_cap != n_rows;
        need_items = need_items || csr->item_cap != (n_items ? n_items : 1) ||
                     csr->scratch_bytes != 0;
    }
    if (need_rows) {
        fresh->row_cap = how == SIZE_GROW && csr->row_block
                             ? grown_cap(csr->row_cap, n_rows, UINT32_MAX - 1)
                             : n_rows;
        DOD__REFUSE_IF(!row_block_bytes(fresh->row_cap, &row_bytes), DOD_E_OVERFLOW);
    }
    if (need_items) {
        if (how == SIZE_GROW && csr->items && csr->item_cap >= n_items)
            fresh->item_cap = csr->item_cap; /* remade only for more scratch: items as held */
        else
            fresh->item_cap = how == SIZE_GROW && csr->items
                                  ? grown_cap(csr->item_cap, n_items, UINT32_MAX)
                                  : (n_items ? n_items : 1);
        fresh->scratch_bytes = scratch_for(csr, scratch_bytes, how);
        DOD__REFUSE_IF(!dod__align_up(fresh->scratch_bytes, &fresh->scratch_bytes), DOD_E_OVERFLOW);
        DOD__REFUSE_IF(!item_block_bytes(fresh->item_cap, fresh->scratch_bytes, &item_bytes),
                       DOD_E_OVERFLOW);
    }
    if (need_rows) {
        fresh->row_block = (uint32_t *)dod__alloc(&csr->alloc, row_bytes);
        DOD__REFUSE_IF(!fresh->row_block, DOD_E_NOMEM);
    }
    if (need_items) {
        fresh->items = (uint32_t *)dod__alloc(&csr->alloc, item_bytes);
        if (!fresh->items) {
            dod__free(&csr->alloc, fresh->row_block, row_bytes);
            fresh->row_block = NULL;
            fresh->scratch_bytes = 0;
            return DOD__FAIL(DOD_E_NOMEM, "allocating the items block");
        }
        size_t part = 0;
        item_part_bytes(fresh->item_cap, &part);
        fresh->scratch = fresh->scratch_bytes ? (unsigned char *)fresh->items + part : NULL;
    }
    return DOD_OK;
}

dod_status dod__csr_prepare(const dod_csr *csr, uint32_t n_rows, uint32_t n_items,
                            size_t scratch_bytes, dod__csr_blocks *fresh)
{
    return prepare(csr, n_rows, n_items, SIZE_GROW, scratch_bytes, fresh);
}

uint32_t *dod__csr_next_offsets(const dod_csr *csr, const dod__csr_blocks *fresh)
{
    return fresh->row_block ? fresh->row_block : csr->spare;
}

uint32_t *dod__csr_next_items(const dod_csr *csr, const dod__csr_blocks *fresh)
{
    return fresh->items ? fresh->items : csr->items;
}

static void free_row_block(const dod_csr *csr, uint32_t *block, uint32_t row_cap)
{
    size_t bytes = 0;
    if (block && row_block_bytes(row_cap, &bytes))
        dod__free(&csr->alloc, block, bytes);
}

static void free_items(const dod_csr *csr, uint32_t *items, uint32_t item_cap, size_t scratch)
{
    size_t bytes = 0;
    if (items && item_block_bytes(item_cap, scratch, &bytes))
        dod__free(&csr->alloc, items, bytes);
}

void *dod__csr_next_scratch(const dod_csr *csr, const dod__csr_blocks *fresh)
{
    return fresh->items ? fresh->scratch : csr->scratch;
}

void dod__csr_discard(const dod_csr *csr, dod__csr_blocks *fresh)
{
    free_row_block(csr, fresh->row_block, fresh->row_cap);
    free_items(csr, fresh->items, fresh->item_cap, fresh->scratch_bytes);
    fresh->row_block = NULL;
    fresh->items = NULL;
    fresh->scratch = NULL;
    fresh->scratch_bytes = 0;
}

void dod__csr_commit(dod_csr *csr, dod__csr_blocks *fresh, uint32_t n_rows, uint32_t n_items)
{
    if (fresh->row_block) {
        free_row_block(csr, csr->row_block, csr->row_cap);
        csr->row_block = fresh->row_block;
        csr->row_cap = fresh->row_cap;
        csr->offsets = fresh->row_block;
        csr->spare = fresh->row_block + row_half_entries(fresh->row_cap);
    } else {
        uint32_t *t = csr->offsets;
        csr->offsets = csr->spare;
        csr->spare = t;
    }
    if (fresh->items) {
        free_items(csr, csr->items, csr->item_cap, csr->scratch_bytes);
        csr->items = fresh->items;
        csr->item_cap = fresh->item_cap;
        csr->scratch = fresh->scratch;
        csr->scratch_bytes = fresh->scratch_bytes;
    }
    csr->n_rows = n_rows;
    csr->n_items = n_items;
    csr->item_bound = n_items;
    fresh->row_block = NULL;
    fresh->items = NULL;
    fresh->scratch = NULL;
    fresh->scratch_bytes = 0;
}

/* Write src's arrays into dst's next arrays and commit: copy, reserve and shrink share it. */
static dod_status copy_into(dod_csr *dst, const dod_csr *src, dod__csr_blocks *fresh)
{
    uint32_t *offsets = dod__csr_next_offsets(dst, fresh);
    uint32_t *items = dod__csr_next_items(dst, fresh);
    if (src->offsets)
        memcpy(offsets, src->offsets, ((size_t)src->n_rows + 1) * sizeof(uint32_t));
    else
        offsets[0] = 0;
    if (src->n_items && items != src->items)
        memcpy(items, src->items, (size_t)src->n_items * sizeof(uint32_t));
    uint64_t bound = src->item_bound;
    dod__csr_commit(dst, fresh, src->n_rows, src->n_items);
    dst->item_bound = bound;
    return DOD_OK;
}

dod_status dod_csr_copy(dod_csr *dst, const dod_csr *src)
{
    DOD__REFUSE_IF(!dst, DOD_E_INVALID);
    DOD__REFUSE_IF(!src, DOD_E_INVALID);
    if (dst == src)
        return DOD_OK;
    dod__csr_blocks fresh;
    dod_status st = dod__csr_prepare(dst, src->n_rows, src->n_items, 0, &fresh);
    if (st != DOD_OK)
        return st;
    return copy_into(dst, src, &fresh);
}

dod_status dod_csr_reserve(dod_csr *csr, uint32_t n_rows, uint32_t n_items)
{
    DOD__REFUSE_IF(!csr, DOD_E_INVALID);
    DOD__REFUSE_IF(n_rows == UINT32_MAX, DOD_E_OVERFLOW);
    dod__csr_blocks fresh;
    dod_status st = prepare(csr, n_rows, n_items, SIZE_EXACT_IF_SHORT, 0, &fresh);
    if (st != DOD_OK)
        return st;
    return fresh.row_block || fresh.items ? copy_into(csr, csr, &fresh) : DOD_OK;
}

dod_status dod_csr_shrink(dod_csr *csr)
{
    DOD__REFUSE_IF(!csr, DOD_E_INVALID);
    if (!csr->row_block)
        return DOD_OK;
    dod__csr_blocks fresh;
    dod_status st = prepare(csr, csr->n_rows, csr->n_items, SIZE_EXACT, 0, &fresh);
    if (st != DOD_OK)
        return st;
    return fresh.row_block || fresh.items ? copy_into(csr, csr, &fresh) : DOD_OK;
}

void dod_csr_clear(dod_csr *csr)
{
    if (!csr)
        return;
    csr->n_rows = 0;
    csr->n_items = 0;
    csr->item_bound = 0;
    if (csr->offsets)
        csr->offsets[0] = 0;
}

void dod_csr_free(dod_csr *csr)
{
    if (!csr)
        return;
    free_row_block(csr, csr->row_block, csr->row_cap);
    free_items(csr, csr->items, csr->item_cap, csr->scratch_bytes);
    dod_allocator alloc = csr->alloc;
    dod_csr_init(csr, &alloc);
}

int dod_csr_equal(const dod_csr *a, const dod_csr *b)
{
    if (a == b)
        return 1;
    if (!a || !b || a->n_rows != b->n_rows || a->n_items != b->n_items)
        return 0;
    if (a->n_rows > 0 &&
        memcmp(a->offsets, b->offsets, ((size_t)a->n_rows + 1) * sizeof(uint32_t)) != 0)
        return 0;
    return a->n_items == 0 ||
           memcmp(a->items, b->items, (size_t)a->n_items * sizeof(uint32_t)) == 0;
}

dod_status dod_csr_check(const dod_csr *csr, uint64_t item_bound)
{
    DOD__REFUSE_IF(!csr, DOD_E_INVALID);
    if (!csr->offsets) {
        DOD__REFUSE_IF(csr->n_rows != 0 || csr->n_items != 0, DOD_E_CORRUPT);
        return DOD_OK;
    }
    const uint32_t *o = csr->offsets;
    DOD__REFUSE_IF(o[0] != 0, DOD_E_CORRUPT);
    DOD__REFUSE_IF(o[csr->n_rows] != csr->n_items, DOD_E_CORRUPT);
    for (uint32_t r = 0; r < csr->n_rows; ++r)
        DOD__REFUSE_IF(o[r + 1] < o[r], DOD_E_CORRUPT);
    if (item_bound > 0)
        for (uint32_t i = 0; i < csr->n_items; ++i)
            DOD__REFUSE_IF(csr->items[i] >= item_bound, DOD_E_CORRUPT);
    return DOD_OK;
}

size_t dod_csr_bytes(const dod_csr *csr)
{
    size_t rows = 0, items = 0;
    if (!csr)
        return 0;
    if (csr->row_block)
        row_block_bytes(csr->row_cap, &rows);
    if (csr->items)
        item_block_bytes(csr->item_cap, csr->scratch_bytes, &items);
    return rows + items;
}
