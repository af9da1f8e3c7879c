/* The world's memory: archetype blocks (reserved before a change, trimmed after one) and the
 * entity index's growth. */
#include "world_layout.h"

/* Blocks 0 .. k - 1 of a in block 0's: block b is 2^min(b, max_scale) of them. */
static uint64_t units_upto(const dod__world_arch *a, uint64_t k)
{
    uint32_t m = a->place->max_scale;
    if (k <= m)
        return (1ull << k) - 1;
    return ((1ull << m) - 1) + ((k - m) << m);
}

uint64_t dod__world_rows_upto(const dod__world_arch *a, uint64_t k)
{
    return a->rows0 * units_upto(a, k);
}

size_t dod__world_bytes_upto(const dod__world_arch *a, uint32_t k)
{
    return a->bytes0 * (size_t)units_upto(a, k);
}

uint64_t dod__world_blocks_within(const dod__world_arch *a, size_t cap)
{
    uint32_t m = a->place->max_scale;
    size_t used = 0;
    for (uint32_t b = 0; b < m; ++b) { /* the growing blocks */
        if (cap - used < a->bytes0 << b)
            return b;
        used += a->bytes0 << b;
    }
    return m + (cap - used) / (a->bytes0 << m);
}

uint64_t dod__world_blocks_for_rows(const dod__world_arch *a, uint64_t rows)
{
    uint32_t m = a->place->max_scale;
    uint64_t held = 0, b = 0;
    for (; b < m && held < rows; ++b)
        held += (uint64_t)a->rows0 << b;
    uint64_t largest = (uint64_t)a->rows0 << m;
    return held >= rows ? b : b + (rows - held + largest - 1) / largest;
}

/* The block list entries a needs for `blocks` blocks, after doubling (from 8). */
static uint32_t grown_list(const dod__world_arch *a, uint32_t blocks)
{
    uint64_t cap = a->blocks_cap < 8 ? 8 : 2 * (uint64_t)a->blocks_cap;
    if (cap < blocks)
        cap = blocks;
    return cap < a->max_blocks ? (uint32_t)cap : a->max_blocks;
}

dod_status dod__world_prepare_rows(dod_world *w, dod__world_arch *a, uint32_t n,
                                   dod__world_rows_room *room)
{
    uint64_t rows = (uint64_t)a->n_rows + n;
    if (rows <= a->rows_held) {
        room->list = a->place->blocks;
        room->list_cap = a->blocks_cap;
        room->blocks = a->n_blocks;
        return DOD_OK;
    }
    uint64_t need = dod__world_blocks_for_rows(a, rows);
    DOD__REFUSE_IF(need > a->max_blocks, DOD_E_FULL);
    return dod__world_prepare_blocks(w, a, (uint32_t)need, room);
}

dod_status dod__world_prepare_blocks(dod_world *w, dod__world_arch *a, uint32_t blocks,
                                     dod__world_rows_room *room)
{
    DOD_ASSERT(blocks <= a->max_blocks);
    room->list = a->place->blocks;
    room->list_cap = a->blocks_cap;
    room->blocks = a->n_blocks;
    if (blocks <= a->n_blocks)
        return DOD_OK;
    unsigned char **list = a->place->blocks;
    uint32_t list_cap = a->blocks_cap;
    if (blocks > a->blocks_cap) {
        list_cap = grown_list(a, blocks);
        size_t bytes;
        DOD__REFUSE_IF(!dod__mul(list_cap, sizeof *list, &bytes), DOD_E_OVERFLOW);
        list = (unsigned char **)dod__alloc(&w->alloc, bytes);
        DOD__REFUSE_IF(!list, DOD_E_NOMEM);
        if (a->n_blocks)
            memcpy(list, a->place->blocks, a->n_blocks * sizeof *list);
    }
    /* New blocks go in the list's unused entries: the world does not see them until n_blocks
     * moves, so a failure half-way only frees them again. */
    for (uint32_t b = a->n_blocks; b < blocks; ++b) {
        list[b] = (unsigned char *)dod__alloc(&w->alloc, dod__world_block_bytes(a, b));
        if (!list[b]) {
            while (b-- > a->n_blocks)
                dod__free(&w->alloc, list[b], dod__world_block_bytes(a, b));
            if (list != a->place->blocks)
                dod__free(&w->alloc, list, list_cap * sizeof *list);
            return DOD__FAIL(DOD_E_NOMEM, "allocating a block");
        }
    }
    room->list = list;
    room->list_cap = list_cap;
    room->blocks = blocks;
    return DOD_OK;
}

void dod__world_install_rows(dod_world *w, dod__world_arch *a, const dod__world_rows_room *room)
{
    if (room->list != a->place->blocks) {
        if (a->place->blocks != &a->first_block)
            dod__free(&w->alloc, a->place->blocks, a->blocks_cap * sizeof *room->list);
        a->place->blocks = room->list;
        a->blocks_cap = room->list_cap;
    }
    a->n_blocks = room->blocks;
    a->rows_held = dod__world_rows_upto(a, room->blocks);
}

void dod__world_discard_rows(dod_world *w, const dod__world_arch *a,
                             const dod__world_rows_room *room)
{
    for (uint32_t b = a->n_blocks; b < room->blocks; ++b)
        dod__free(&w->alloc, room->list[b], dod__world_block_bytes(a, b));
    if (room->list != a->place->blocks)
        dod__free(&w->alloc, room->list, room->list_cap * sizeof *room->list);
}

dod_status dod__world_reserve_rows(dod_world *w, dod__world_arch *a, uint32_t n)
{
    dod__world_rows_room room;
    dod_status st = dod__world_prepare_rows(w, a, n, &room);
    if (st == DOD_OK)
        dod__world_install_rows(w, a, &room);
    return st;
}

void dod__world_trim_blocks(dod_world *w, dod__world_arch *a)
{
    dod__world_free_blocks_past(w, a, dod__world_used_blocks(a) + 1);
}

void dod__world_free_blocks_past(dod_world *w, dod__world_arch *a, uint32_t keep)
{
    while (a->n_blocks > keep) {
        a->n_blocks--;
        dod__free(&w->alloc, a->place->blocks[a->n_blocks], dod__world_block_bytes(a, a->n_blocks));
    }
    a->rows_held = dod__world_rows_upto(a, a->n_blocks);
}

void dod__world_free_blocks(dod_world *w, dod__world_arch *a)
{
    for (uint32_t b = 0; b < a->n_blocks; ++b)
        dod__free(&w->alloc, a->place->blocks[b], dod__world_block_bytes(a, b));
    if (a->place->blocks != &a->first_block)
        dod__free(&w->alloc, a->place->blocks, a->blocks_cap * sizeof *a->place->blocks);
}

dod_status dod__world_prepare_slots(const dod_world *w, uint32_t n, uint64_t **fresh,
                                    uint32_t *fresh_cap)
{
    *fresh = NULL;
    *fresh_cap = 0;
    uint64_t need = (uint64_t)w->head.n_slots + (n > w->n_free ? n - w->n_free : 0);
    if (need <= w->slot_cap)
        return DOD_OK;
    DOD__REFUSE_IF(need > DOD__WORLD_MAX_SLOTS, DOD_E_OVERFLOW);
    uint64_t cap = w->slot_cap + w->slot_cap / 2; /* grow by half, from 64 */
    if (cap < 64)
        cap = 64;
    if (cap < need)
        cap = need;
    if (cap > DOD__WORLD_MAX_SLOTS)
        cap = DOD__WORLD_MAX_SLOTS;
    size_t bytes;
    DOD__REFUSE_IF(!dod__mul((size_t)cap, sizeof(uint64_t), &bytes), DOD_E_OVERFLOW);
    *fresh = (uint64_t *)dod__alloc(&w->alloc, bytes);
    DOD__REFUSE_IF(!*fresh, DOD_E_NOMEM);
    *fresh_cap = (uint32_t)cap;
    return DOD_OK;
}

void dod__world_install_slots(dod_world *w, uint64_t *fresh, uint32_t fresh_cap)
{
    if (!fresh)
        return;
    if (w->head.n_slots)
        memcpy(fresh, w->head.slots, (size_t)w->head.n_slots * sizeof *fresh);
    dod__world_discard_slots(w, w->head.slots, w->slot_cap);
    w->head.slots = fresh;
    w->slot_cap = fresh_cap;
}

void dod__world_discard_slots(const dod_world *w, uint64_t *fresh, uint32_t fresh_cap)
{
    if (fresh)
        dod__free(&w->alloc, fresh, (size_t)fresh_cap * sizeof *fresh);
}
