/* A world's declaration fingerprint: what dod_world_create made of its desc, as one 64-bit
 * value, so that "may this be applied to that world" is one comparison (command buffers, and
 * world snapshots and files); the component names' hashes and the archetypes' declared blocks
 * the world file's directory records. */
#include "world_layout.h"

/* FNV-1a over v's 8 bytes, least significant first: the same value on every platform. */
static uint64_t declaration_mix(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; ++i) {
        h ^= (v >> (8 * i)) & 0xFFu;
        h *= 0x100000001B3ull;
    }
    return h;
}

uint64_t dod__world_name_hash(const char *name)
{
    if (!name)
        return 0;
    uint64_t h = 0xCBF29CE484222325ull;
    for (const unsigned char *p = (const unsigned char *)name; *p; ++p)
        h = (h ^ *p) * 0x100000001B3ull;
    return h;
}

dod__world_blocks_decl dod__world_blocks_declared(const dod_archetype_desc *a)
{
    dod__world_blocks_decl b = { 0, 0, 0 };
    if (a->capacity)
        return b; /* a fixed archetype ignores block_bytes, first_block_bytes and memory_cap */
    b.block_bytes = a->block_bytes ? a->block_bytes : DOD_WORLD_BLOCK_BYTES;
    b.first_block_bytes = a->first_block_bytes ? a->first_block_bytes
                          : b.block_bytes < DOD_WORLD_FIRST_BLOCK_BYTES
                              ? b.block_bytes
                              : DOD_WORLD_FIRST_BLOCK_BYTES;
    b.memory_cap = a->memory_cap ? (uint64_t)a->memory_cap : UINT64_MAX;
    return b;
}

uint64_t dod__world_declaration_of(const dod_world_desc *d)
{
    uint64_t h = declaration_mix(0xCBF29CE484222325ull, d->n_components);
    for (uint32_t c = 0; c < d->n_components; ++c) {
        h = declaration_mix(h, d->components[c].size);
        h = declaration_mix(h, d->components[c].align);
        h = declaration_mix(h, dod__world_name_hash(d->components[c].name));
    }
    h = declaration_mix(h, d->n_archetypes);
    for (uint32_t i = 0; i < d->n_archetypes; ++i) {
        const dod_archetype_desc *a = &d->archetypes[i];
        h = declaration_mix(h, a->n_components);
        for (uint32_t k = 0; k < a->n_components; ++k)
            h = declaration_mix(h, a->components[k]);
        h = declaration_mix(h, a->capacity);
        if (a->capacity)
            continue;
        dod__world_blocks_decl b = dod__world_blocks_declared(a);
        h = declaration_mix(h, b.block_bytes);
        h = declaration_mix(h, b.first_block_bytes);
        h = declaration_mix(h, b.memory_cap);
    }
    return h;
}
