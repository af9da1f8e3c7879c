/* Reading a query's rows by row number (dod/world_rows.h): the count and the archetypes' first
 * row numbers at init, and the seek that finds the block holding a row number when it is not
 * the block read last. */
#include <dod/world_rows.h>
#include "world_layout.h"

dod_status dod_world_rows_init(dod_world_rows *r, const dod_world *w, const dod_query *q)
{
    DOD__REFUSE_IF(!r || !w || !q, DOD_E_INVALID);
    DOD__REFUSE_IF(q->tag != w->head.tag_hi, DOD_E_INVALID);
    /* Field by field: a reader is made per frame, per job, and its column slots (a few hundred
     * bytes) are filled only when read. */
    r->base = NULL;
    r->fields = NULL;
    r->first = r->n = r->scale = r->archetype = r->block = r->archetype_first = 0;
    r->world = w;
    r->n_components = w->head.n_components;
    memcpy(r->matched, q->archetypes, sizeof r->matched);
    for (uint32_t k = 0; k < DOD_WORLD_ROWS_CACHED; ++k)
        r->cached_first[k] = UINT32_MAX;
    for (uint32_t slot = 0; slot < DOD_WORLD_ROWS_COLUMNS; ++slot)
        r->column_of[slot] = UINT32_MAX;
    uint64_t count = 0;
    uint32_t holding = 0;
    int flat = 1;
    for (uint32_t i = 0; i < w->n_archetypes; ++i) {
        if (!dod__bit_test(r->matched, i) || w->arch[i].n_rows == 0)
            continue;
        if (holding < DOD_WORLD_ROWS_CACHED) {
            r->cached_first[holding] = (uint32_t)count;
            r->cached_archetype[holding] = i;
            flat &= dod__world_used_blocks(&w->arch[i]) == 1;
        }
        holding++;
        count += w->arch[i].n_rows;
    }
    r->count = (uint32_t)count; /* a world holds fewer than 2^32 entities */
    r->n_cached = holding <= DOD_WORLD_ROWS_CACHED ? holding : 0;
    r->flat = flat && r->n_cached > 0;
    return DOD_OK;
}

void *dod__world_rows_flat_elem(dod_world_rows *r, uint32_t row, uint32_t component)
{
    if (!r || component >= r->n_components || row >= r->count)
        return NULL;
    uint32_t k = dod__world_rows_archetype(r, row);
    const dod__world_place *p = r->world->arch[r->cached_archetype[k]].place;
    const dod__world_field *f = &p->fields[component];
    if (f->offset == 0)
        return NULL;
    /* Keep the component's columns for the inline path when every cached archetype has it. */
    uint32_t slot = component % DOD_WORLD_ROWS_COLUMNS, every = 1;
    for (uint32_t j = 0; j < r->n_cached; ++j) {
        r->column[slot][j] = dod__world_rows_column_base(r, j, component, 0, f->size);
        every &= r->world->arch[r->cached_archetype[j]].place->fields[component].offset != 0;
    }
    r->column_size[slot] = f->size;
    r->column_of[slot] = every ? component : UINT32_MAX;
    return p->blocks[0] + f->offset + (size_t)(row - r->cached_first[k]) * f->size;
}

/* The block of archetype a holding its row k (< a->n_rows), and that block's first row. Block b
 * holds rows0 << min(b, m) rows, m = max_scale: blocks 0 .. b - 1 hold rows0 * (2^b - 1) rows
 * together while b <= m (dod__world_rows_upto), and the blocks past m are equal. */
static uint32_t block_of_row(const dod__world_arch *a, uint32_t k, uint32_t *block_first)
{
    if (dod__world_used_blocks(a) == 1) { /* a fixed archetype, a small chunked one */
        *block_first = 0;
        return 0;
    }
    uint32_t m = a->place->max_scale;
    uint64_t units = (uint64_t)k / a->rows0, b = 0;
    while (b < m && (2ull << b) - 1 <= units) /* block b + 1 starts at unit 2^(b + 1) - 1 */
        ++b;
    if (b == m)
        b = m + (units - ((1ull << m) - 1)) / (1ull << m);
    *block_first = (uint32_t)dod__world_rows_upto(a, b);
    return (uint32_t)b;
}

/* The matched archetype holding row number `row` (< r->count) and its first row number. */
static uint32_t archetype_of_row(const dod_world_rows *r, uint32_t row, uint32_t *first)
{
    if (r->n_cached) {
        uint32_t k = dod__world_rows_archetype(r, row);
        *first = r->cached_first[k];
        return r->cached_archetype[k];
    }
    /* Row numbers ascend with the archetypes: walk from the one read last when row lies at or
     * past its first row, else from the first. */
    const dod_world *w = r->world;
    uint32_t i = 0, at = 0;
    if (r->base && row >= r->archetype_first) {
        i = r->archetype;
        at = r->archetype_first;
    }
    for (;; ++i) {
        if (!dod__bit_test(r->matched, i))
            continue;
        uint32_t n = w->arch[i].n_rows;
        if (row - at < n)
            break;
        at += n;
    }
    *first = at;
    return i;
}

int dod__world_rows_seek(dod_world_rows *r, uint32_t row)
{
    if (!r || row >= r->count)
        return 0;
    uint32_t first, block_first;
    uint32_t i = archetype_of_row(r, row, &first);
    const dod__world_arch *a = &r->world->arch[i];
    uint32_t b = block_of_row(a, row - first, &block_first);
    r->archetype = i;
    r->archetype_first = first;
    r->block = b;
    r->base = a->place->blocks[b];
    r->fields = a->place->fields;
    r->scale = dod__world_block_scale(a, b);
    r->first = first + block_first;
    r->n = dod__world_block_rows(a, b);
    return 1;
}

void *(dod_world_row_get)(dod_world_rows *r, uint32_t row, uint32_t component)
{
    return dod__world_row_get_inline(r, row, component);
}

dod_entity dod_world_row_entity(dod_world_rows *r, uint32_t row)
{
    dod_entity none = { 0 };
    if (!r || (row - r->first >= r->n && !dod__world_rows_seek(r, row)))
        return none;
    return dod__world_ids(r->base)[row - r->first];
}
