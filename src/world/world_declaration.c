/* A world's declaration fingerprint: what dod_world_create made of its desc, as one 64-bit
 * value, so that "may this be applied to that world" is one comparison (command buffers, and
 * world snapshots and files); the component names' hashes and the archetypes' declared blocks
 * the world file's directory records. */
#include <stdio.h>
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

/* Write "what [at] is x in an, y in bn" into why (when not NULL; at UINT32_MAX: no number)
 * and return 1. */
static int differs_in(char *why, size_t cap, const char *what, uint32_t at, uint64_t x,
                      uint64_t y, const char *an, const char *bn)
{
    char num[16] = "";
    if (at != UINT32_MAX)
        (void)snprintf(num, sizeof num, " %u", at);
    if (why && cap)
        (void)snprintf(why, cap, "another declaration: %s%s is %llu in %s, %llu in %s", what,
                       num, (unsigned long long)x, an, (unsigned long long)y, bn);
    return 1;
}

int dod__world_declaration_differs(const dod_world *a, const dod_world *b, const char *an,
                                   const char *bn, char *why, size_t cap)
{
    if (a->head.n_components != b->head.n_components)
        return differs_in(why, cap, "the component count", UINT32_MAX, a->head.n_components,
                          b->head.n_components, an, bn);
    for (uint32_t c = 0; c < a->head.n_components; ++c) {
        if (a->comp_size[c] != b->comp_size[c])
            return differs_in(why, cap, "the size of component", c, a->comp_size[c],
                              b->comp_size[c], an, bn);
        if (a->comp_align[c] != b->comp_align[c])
            return differs_in(why, cap, "the alignment of component", c, a->comp_align[c],
                              b->comp_align[c], an, bn);
        if (a->comp_name[c] != b->comp_name[c])
            return differs_in(why, cap, "the name hash of component", c, a->comp_name[c],
                              b->comp_name[c], an, bn);
    }
    if (a->n_archetypes != b->n_archetypes)
        return differs_in(why, cap, "the archetype count", UINT32_MAX, a->n_archetypes,
                          b->n_archetypes, an, bn);
    for (uint32_t i = 0; i < a->n_archetypes; ++i) {
        const dod__world_arch *x = &a->arch[i], *y = &b->arch[i];
        if (x->n_cols != y->n_cols)
            return differs_in(why, cap, "the component count of archetype", i, x->n_cols,
                              y->n_cols, an, bn);
        for (uint32_t k = 0; k < x->n_cols; ++k)
            if (x->cols[k].comp != y->cols[k].comp)
                return differs_in(why, cap, "a component of archetype", i, x->cols[k].comp,
                                  y->cols[k].comp, an, bn);
        if (x->fixed != y->fixed || (x->fixed && x->rows0 != y->rows0))
            return differs_in(why, cap, "the capacity (0: chunked) of archetype", i,
                              x->fixed ? x->rows0 : 0, y->fixed ? y->rows0 : 0, an, bn);
        if (x->decl.block_bytes != y->decl.block_bytes)
            return differs_in(why, cap, "block_bytes of archetype", i, x->decl.block_bytes,
                              y->decl.block_bytes, an, bn);
        if (x->decl.first_block_bytes != y->decl.first_block_bytes)
            return differs_in(why, cap, "first_block_bytes of archetype", i,
                              x->decl.first_block_bytes, y->decl.first_block_bytes, an, bn);
        if (x->decl.memory_cap != y->decl.memory_cap)
            return differs_in(why, cap, "memory_cap (bytes) of archetype", i,
                              x->decl.memory_cap, y->decl.memory_cap, an, bn);
    }
    return 0;
}
