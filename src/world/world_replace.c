/* Replacing a world's contents wholesale (dod_world_copy, dod_world_load): the memory the new
 * contents need is allocated first, all or nothing, then the counters are set. */
#include "world_layout.h"

dod_status dod__world_prepare_room(dod_world *w, uint32_t n_slots, const uint32_t *blocks,
                                   dod__world_room *room)
{
    room->slots = NULL;
    room->slot_cap = 0;
    if (n_slots > w->slot_cap) {
        size_t bytes;
        DOD__REFUSE_IF(!dod__mul(n_slots, sizeof(uint64_t), &bytes), DOD_E_OVERFLOW);
        room->slots = (uint64_t *)dod__alloc(&w->alloc, bytes);
        DOD__REFUSE_IF(!room->slots, DOD_E_NOMEM);
        room->slot_cap = n_slots;
    }
    for (uint32_t i = 0; i < w->n_archetypes; ++i) {
        dod_status st = dod__world_prepare_blocks(w, &w->arch[i], blocks[i], &room->rows[i]);
        if (st != DOD_OK) {
            while (i-- > 0)
                dod__world_discard_rows(w, &w->arch[i], &room->rows[i]);
            dod__world_discard_slots(w, room->slots, room->slot_cap);
            return st;
        }
    }
    return DOD_OK;
}

void dod__world_install_room(dod_world *w, const dod__world_room *room)
{
    if (room->slots) {
        dod__world_discard_slots(w, w->head.slots, w->slot_cap);
        w->head.slots = room->slots;
        w->slot_cap = room->slot_cap;
    }
    for (uint32_t i = 0; i < w->n_archetypes; ++i)
        dod__world_install_rows(w, &w->arch[i], &room->rows[i]);
}

void dod__world_discard_room(dod_world *w, const dod__world_room *room)
{
    for (uint32_t i = 0; i < w->n_archetypes; ++i)
        dod__world_discard_rows(w, &w->arch[i], &room->rows[i]);
    dod__world_discard_slots(w, room->slots, room->slot_cap);
}

void dod__world_set_rows(dod__world_arch *a, uint32_t n_rows, uint32_t n_open, uint32_t tail)
{
    a->n_rows = n_rows;
    a->n_open = n_open;
    if (n_open > 0) {
        dod__world_set_end(a);
        a->tail = tail;
        return;
    }
    /* As create left it: "tail is full" opens block 0 on the next push. */
    a->tail = 0;
    a->end_cap = 0;
    a->end_scale = 0;
    a->end_block = NULL;
    a->end_loc = 0;
    for (uint32_t k = 0; k < a->n_cols; ++k)
        a->cols[k].end_offset = 0;
}
