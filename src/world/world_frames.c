/* Frames whose slots each hold a world: the frames object of dod/frame.h with a world created
 * per slot as its payload, for snapshots handed to reader threads. */
#include <dod/world_io.h>
#include "world_layout.h"

dod_status dod_world_frames_create(dod_frames **frames, uint32_t n_slots,
                                   const dod_world_desc *desc)
{
    DOD__REFUSE_IF(!frames, DOD_E_INVALID);
    DOD__REFUSE_IF(!desc, DOD_E_INVALID);
    DOD__REFUSE_IF(n_slots < 2 || n_slots > DOD_FRAME_MAX_SLOTS, DOD_E_RANGE);
    void *worlds[DOD_FRAME_MAX_SLOTS];
    uint32_t made = 0;
    dod_status st = DOD_OK;
    for (; made < n_slots && st == DOD_OK; ++made) {
        dod_world *w = NULL;
        st = dod_world_create(&w, desc);
        worlds[made] = w;
    }
    if (st == DOD_OK)
        st = dod_frames_create(frames, n_slots, worlds, desc->alloc);
    if (st != DOD_OK)
        for (uint32_t s = 0; s < made; ++s)
            dod_world_destroy((dod_world *)worlds[s]);
    return st;
}

void dod_world_frames_destroy(dod_frames *frames)
{
    for (uint32_t s = 0; s < dod_frames_slot_count(frames); ++s)
        dod_world_destroy((dod_world *)dod_frames_payload(frames, s));
    dod_frames_destroy(frames);
}
