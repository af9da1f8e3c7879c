/* The world the world-file fuzzer loads into and its seed corpus is saved from (fuzz/run.sh):
 * a fixed archetype, growing blocks under a memory cap, equal blocks, ids only, components of
 * alignments 1, 2, 4 and 8. Small, so that interesting files stay within -max_len. */
#ifndef DOD_FUZZ_WORLD_H
#define DOD_FUZZ_WORLD_H

#include <dod/world.h>

static const dod_component_desc fuzz_comps[4] = {
    { "pos", 8, 4 }, { "id", 8, 8 }, { "tag", 1, 1 }, { "half", 6, 2 },
};
static const uint32_t fuzz_pos_id[2] = { 0, 1 };
static const uint32_t fuzz_all[4] = { 3, 2, 1, 0 };
static const dod_archetype_desc fuzz_archs[4] = {
    { .name = "fixed", .components = fuzz_pos_id, .n_components = 2, .capacity = 16 },
    { .name = "grow", .components = fuzz_all, .n_components = 4, .block_bytes = 1024,
      .memory_cap = 4096, .first_block_bytes = 256 },
    { .name = "equal", .components = &fuzz_all[1], .n_components = 1, .block_bytes = 256 },
    { .name = "ids", .block_bytes = 128 },
};

/* A world of the fuzz declaration, or NULL when out of memory. */
static inline dod_world *fuzz_world(void)
{
    dod_world_desc d = { .components = fuzz_comps, .n_components = 4,
                         .archetypes = fuzz_archs, .n_archetypes = 4 };
    dod_world *w = NULL;
    return dod_world_create(&w, &d) == DOD_OK ? w : NULL;
}

#endif
