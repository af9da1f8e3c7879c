/* dod_world_copy: a world made an exact copy of another of the same declaration, the live rows
 * copied block by block, column by column, into the blocks it holds. */
#include <dod/world_io.h>
#include "world_layout.h"

/* Copy the live rows of src's archetype into dst's (which holds every block they need). */
static void copy_live_rows(dod__world_arch *d, const dod__world_arch *s)
{
    for (uint32_t b = 0; b < dod__world_used_blocks(s); ++b) {
        size_t n = dod__world_block_rows(s, b);
        memcpy(d->place->blocks[b], s->place->blocks[b], n * sizeof(dod_entity));
        for (uint32_t k = 0; k < s->n_cols; ++k)
            memcpy(dod__world_column(d, b, k), dod__world_column(s, b, k), n * s->cols[k].size);
    }
    dod__world_set_rows(d, s->n_rows, s->n_open, s->tail);
}

dod_status dod_world_copy(dod_world *dst, const dod_world *src)
{
    DOD__REFUSE_IF(!dst, DOD_E_INVALID);
    DOD__REFUSE_IF(!src, DOD_E_INVALID);
    if (dst == src)
        return DOD_OK;
    DOD__REFUSE_IF(!dod__world_same_declaration(dst, src), DOD_E_INVALID);
    uint32_t blocks[DOD_WORLD_MAX_ARCHETYPES];
    for (uint32_t i = 0; i < src->n_archetypes; ++i)
        blocks[i] = src->arch[i].n_open;
    dod__world_room room;
    dod_status st = dod__world_prepare_room(dst, src->head.n_slots, blocks, &room);
    if (st != DOD_OK)
        return st;
    dod__world_install_room(dst, &room);
    if (src->head.n_slots)
        memcpy(dst->head.slots, src->head.slots, (size_t)src->head.n_slots * sizeof(uint64_t));
    dst->head.n_slots = src->head.n_slots;
    dst->free_head = src->free_head;
    dst->n_free = src->n_free;
    dst->head.tag_hi = src->head.tag_hi;
    for (uint32_t i = 0; i < src->n_archetypes; ++i)
        copy_live_rows(&dst->arch[i], &src->arch[i]);
    return DOD_OK;
}
