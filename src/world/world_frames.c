/* Frames whose slots each hold a world: the frames object of dod/frame.h with a world created
 * per slot as its payload, for snapshots handed to reader threads; created from a live world,
 * every slot's world holds (and with DOD_WORLD_PREFAULT has touched) what the live one holds. */
#include <dod/world_io.h>
#include "world_layout.h"

/* dod_world_frames_create (like NULL) and dod_world_frames_create_from; `call` names it. */
static dod_status frames_create(dod_frames **frames, uint32_t n_slots, const dod_world_desc *desc,
                                const dod_world *like, const char *call)
{
    void *worlds[DOD_FRAME_MAX_SLOTS] = { NULL };
    uint32_t made = 0;
    dod_status st = DOD_OK;
    char why[160];
    for (; made < n_slots && st == DOD_OK; ++made) {
        dod_world *w = NULL;
        st = dod_world_create(&w, desc);
        worlds[made] = w;
        if (st == DOD_OK && like && made == 0 &&
            dod__world_declaration_differs(w, like, "desc", "live", why, sizeof why))
            st = DOD__REPORT_IN(call, DOD_E_INVALID, why);
        if (st == DOD_OK && like)
            st = dod__world_reserve_like(w, like);
    }
    if (st == DOD_OK)
        st = dod_frames_create(frames, n_slots, worlds, desc->alloc);
    if (st != DOD_OK)
        for (uint32_t s = 0; s < made; ++s)
            dod_world_destroy((dod_world *)worlds[s]);
    return st;
}

dod_status dod_world_frames_create(dod_frames **frames, uint32_t n_slots,
                                   const dod_world_desc *desc)
{
    DOD__REFUSE_IF(!frames, DOD_E_INVALID);
    DOD__REFUSE_IF(!desc, DOD_E_INVALID);
    DOD__REFUSE_IF(n_slots < 2 || n_slots > DOD_FRAME_MAX_SLOTS, DOD_E_RANGE);
    return frames_create(frames, n_slots, desc, NULL, "dod_world_frames_create");
}

dod_status dod_world_frames_create_from(dod_frames **frames, uint32_t n_slots,
                                        const dod_world_desc *desc, const dod_world *live)
{
    DOD__REFUSE_IF(!frames, DOD_E_INVALID);
    DOD__REFUSE_IF(!desc, DOD_E_INVALID);
    DOD__REFUSE_IF(!live, DOD_E_INVALID);
    DOD__REFUSE_IF(n_slots < 2 || n_slots > DOD_FRAME_MAX_SLOTS, DOD_E_RANGE);
    return frames_create(frames, n_slots, desc, live, "dod_world_frames_create_from");
}

void dod_world_frames_destroy(dod_frames *frames)
{
    for (uint32_t s = 0; s < dod_frames_slot_count(frames); ++s)
        dod_world_destroy((dod_world *)dod_frames_payload(frames, s));
    dod_frames_destroy(frames);
}
