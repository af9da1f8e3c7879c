/* A world's state compared and hashed (dod_world_equal, dod_world_hash): the declaration, the
 * entity index less the world's tag, and each archetype's rows in order (ids less the tag,
 * component bytes), never the blocks or capacities that hold them. The hash reads the state as
 * one stream of little-endian words, the world file's byte order, so every platform gives the
 * same number for the same state. */
#include <dod/world_io.h>
#include "file_format.h"
#include "world_file.h"

#define LESS_TAG (((uint64_t)1 << 48) - 1)

/* A streaming 64-bit hash: the stream in 32-byte blocks, each block's four 8-byte words (read
 * little-endian) folded into four lanes, the lanes and the length combined at the end. The
 * blocks do not depend on how the stream was cut into calls. */
typedef struct state_hash {
    uint64_t lane[4];
    unsigned char block[32];
    size_t fill;     /* bytes in block */
    uint64_t length; /* bytes taken */
} state_hash;

static const uint64_t K1 = 0x9E3779B97F4A7C15ull, K2 = 0xC2B2AE3D27D4EB4Full;

static uint64_t rotl64(uint64_t x, unsigned r)
{
    return x << r | x >> (64u - r);
}

static uint64_t load_le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = v << 8 | p[i];
    return v;
}

static void hash_block(state_hash *h, const unsigned char *p)
{
    for (int k = 0; k < 4; ++k)
        h->lane[k] = rotl64(h->lane[k] ^ load_le64(p + (size_t)8 * (size_t)k) * K1, 29) * K2;
}

static void hash_bytes(state_hash *h, const void *data, size_t n)
{
    const unsigned char *p = (const unsigned char *)data;
    h->length += n;
    if (h->fill) {
        size_t take = 32 - h->fill < n ? 32 - h->fill : n;
        memcpy(h->block + h->fill, p, take);
        h->fill += take, p += take, n -= take;
        if (h->fill < 32)
            return;
        hash_block(h, h->block);
        h->fill = 0;
    }
    for (; n >= 32; p += 32, n -= 32)
        hash_block(h, p);
    memcpy(h->block, p, n);
    h->fill = n;
}

static void hash_u64(state_hash *h, uint64_t v)
{
    unsigned char b[8];
    dod__put_le64(b, v);
    hash_bytes(h, b, 8);
}

static uint64_t hash_end(state_hash *h)
{
    memset(h->block + h->fill, 0, 32 - h->fill);
    hash_block(h, h->block);
    uint64_t x = h->length * K2;
    for (int k = 0; k < 4; ++k)
        x = rotl64(x ^ h->lane[k], 27) * K1 + K2;
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDull;
    return x ^ (x >> 33);
}

/* n words of `word` bytes from memory into the stream, little-endian (a big-endian host swaps
 * them through a small stage). */
static void hash_words(state_hash *h, const unsigned char *data, size_t n, size_t word)
{
    if (word == 1 || !dod__file_swapping()) {
        hash_bytes(h, data, n * word);
        return;
    }
    unsigned char stage[256];
    for (size_t done = 0, step = sizeof stage / word; done < n; done += step) {
        size_t m = n - done < step ? n - done : step;
        dod__file_swap(stage, data + done * word, m, word);
        hash_bytes(h, stage, m * word);
    }
}

/* A slot as compared and hashed: its generation, and for a live entity its archetype and for a
 * free one the next free slot (the free list's order decides later handles); not a live
 * entity's location, which its row's place in the walk gives. */
static uint64_t slot_state(uint64_t s)
{
    return s & 1u ? s & ((1ull << DOD__WORLD_LOC_SHIFT) - 1) : s;
}

uint64_t dod_world_hash(const dod_world *w)
{
    if (!w)
        return 0;
    state_hash h = { { K1, K2, K1 ^ K2, 0 }, { 0 }, 0, 0 };
    hash_u64(&h, dod__world_declaration(w));
    hash_u64(&h, (uint64_t)w->n_archetypes << 32 | w->head.n_components);
    hash_u64(&h, (uint64_t)w->head.n_slots << 32 | w->free_head);
    for (uint32_t s = 0; s < w->head.n_slots; ++s)
        hash_u64(&h, slot_state(w->head.slots[s]));
    for (uint32_t i = 0; i < w->n_archetypes; ++i) {
        const dod__world_arch *a = &w->arch[i];
        hash_u64(&h, a->n_rows);
        for (uint32_t b = 0; b < dod__world_used_blocks(a); ++b) {
            const dod_entity *ids = dod__world_ids(a->place->blocks[b]);
            for (uint32_t r = 0; r < dod__world_block_rows(a, b); ++r)
                hash_u64(&h, ids[r].bits & LESS_TAG);
        }
        for (uint32_t k = 0; k < a->n_cols; ++k) {
            size_t size = a->cols[k].size;
            size_t word = dod__world_file_word(w->comp_align[a->cols[k].comp]);
            for (uint32_t b = 0; b < dod__world_used_blocks(a); ++b)
                hash_words(&h, dod__world_column(a, b, k),
                           dod__world_block_rows(a, b) * (size / word), word);
        }
    }
    return hash_end(&h);
}

/* The rows of archetype i equal in a and b (same counts): ids less the tag, then each column,
 * block by block on both sides however their blocks cut the rows. */
static int same_rows(const dod__world_arch *x, const dod__world_arch *y)
{
    for (uint32_t k = 0; k <= x->n_cols; ++k) { /* k == n_cols: the ids */
        uint32_t bx = 0, by = 0, rx = 0, ry = 0;
        size_t size = k < x->n_cols ? x->cols[k].size : sizeof(dod_entity);
        for (uint32_t left = x->n_rows; left > 0;) {
            uint32_t nx = dod__world_block_rows(x, bx) - rx, ny = dod__world_block_rows(y, by) - ry;
            uint32_t n = nx < ny ? nx : ny;
            n = n < left ? n : left;
            if (k < x->n_cols) {
                if (memcmp(dod__world_column(x, bx, k) + (size_t)rx * size,
                           dod__world_column(y, by, k) + (size_t)ry * size, n * size) != 0)
                    return 0;
            } else {
                const dod_entity *ix = dod__world_ids(x->place->blocks[bx]) + rx;
                const dod_entity *iy = dod__world_ids(y->place->blocks[by]) + ry;
                for (uint32_t r = 0; r < n; ++r)
                    if ((ix[r].bits ^ iy[r].bits) & LESS_TAG)
                        return 0;
            }
            left -= n, rx += n, ry += n;
            if (rx == dod__world_block_rows(x, bx))
                bx++, rx = 0;
            if (ry == dod__world_block_rows(y, by))
                by++, ry = 0;
        }
    }
    return 1;
}

int dod_world_equal(const dod_world *a, const dod_world *b)
{
    if (!a || !b)
        return 0;
    if (a == b)
        return 1;
    if (!dod__world_same_declaration(a, b) || a->head.n_slots != b->head.n_slots ||
        a->free_head != b->free_head || a->n_free != b->n_free)
        return 0;
    for (uint32_t s = 0; s < a->head.n_slots; ++s)
        if (slot_state(a->head.slots[s]) != slot_state(b->head.slots[s]))
            return 0;
    for (uint32_t i = 0; i < a->n_archetypes; ++i)
        if (a->arch[i].n_rows != b->arch[i].n_rows || !same_rows(&a->arch[i], &b->arch[i]))
            return 0;
    return 1;
}
