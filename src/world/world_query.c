/* The world's queries and iteration: archetypes matched once by bitset, then walked block by
 * block; and the direct block access the typed layer uses. */
#include "world_layout.h"

static dod_status add_bits(const dod_world *w, const uint32_t *ids, uint32_t n, uint64_t *bits)
{
    for (uint32_t i = 0; i < n; ++i) {
        DOD__REFUSE_IF_IN("dod_query_init", ids[i] >= w->head.n_components, DOD_E_RANGE);
        dod__bit_set(bits, ids[i]);
    }
    return DOD_OK;
}

dod_status dod_query_init(dod_query *q, const dod_world *w, const uint32_t *all, uint32_t n_all,
                          const uint32_t *none, uint32_t n_none)
{
    DOD__REFUSE_IF(!q || !w, DOD_E_INVALID);
    DOD__REFUSE_IF(!all && n_all > 0, DOD_E_INVALID);
    DOD__REFUSE_IF(!none && n_none > 0, DOD_E_INVALID);
    uint64_t want[DOD_WORLD_MAX_COMPONENTS / 64] = { 0 };
    uint64_t avoid[DOD_WORLD_MAX_COMPONENTS / 64] = { 0 };
    dod_status st = add_bits(w, all, n_all, want);
    if (st == DOD_OK)
        st = add_bits(w, none, n_none, avoid);
    if (st != DOD_OK)
        return st;
    memset(q, 0, sizeof *q);
    for (uint32_t i = 0; i < w->n_archetypes; ++i) {
        const uint64_t *has = w->arch[i].comp_bits;
        int match = 1;
        for (uint32_t k = 0; k < DOD_WORLD_MAX_COMPONENTS / 64; ++k)
            if ((has[k] & want[k]) != want[k] || (has[k] & avoid[k]) != 0)
                match = 0;
        if (match)
            dod__bit_set(q->archetypes, i);
    }
    q->tag = w->head.tag_hi;
    return DOD_OK;
}

void dod_world_iter_init(dod_world_iter *it, const dod_world *w, const dod_query *q)
{
    if (!it)
        return;
    memset(it, 0, sizeof *it);
    it->archetype = UINT32_MAX; /* before the first */
    if (!w || !q || q->tag != w->head.tag_hi)
        return;
    it->world = w;
    it->n_components = w->head.n_components;
    memcpy(it->matched, q->archetypes, sizeof it->matched);
}

/* Block b of a is about to be walked: the first lines of each column of block b + 1 are
 * fetched now. The hardware prefetchers follow a column within a block but lose it at the
 * block's end, where the next block's columns start elsewhere; measured on the seed's loop
 * over 16 KiB blocks at 1M entities, two lines a column cut the time by about a sixth, more
 * lines did not help further (docs/world-measurements.md, "Block size"). */
static void prefetch_next(const dod__world_arch *a, uint32_t b)
{
    if (b + 1 >= dod__world_used_blocks(a))
        return;
    for (uint32_t k = 0; k < a->n_cols; ++k) {
        const unsigned char *column = dod__world_column(a, b + 1, k);
        DOD__PREFETCH(column);
        DOD__PREFETCH(column + 64);
    }
}

/* Put the iterator on rows first_row .. first_row + n - 1 of block b of archetype i. */
static void enter_rows(dod_world_iter *it, uint32_t i, uint32_t b, uint32_t first_row, uint32_t n)
{
    const dod__world_arch *a = &it->world->arch[i];
    it->archetype = i;
    it->block = b;
    it->first_row = first_row;
    it->scale = dod__world_block_scale(a, b);
    it->base = a->place->blocks[b];
    it->fields = a->place->fields;
    it->n = n;
    it->entities = dod__world_ids(it->base) + first_row;
}

/* Put the iterator on the whole of block b of archetype i (b < its used blocks). */
static void enter(dod_world_iter *it, uint32_t i, uint32_t b)
{
    const dod__world_arch *a = &it->world->arch[i];
    enter_rows(it, i, b, 0, dod__world_block_rows(a, b));
    prefetch_next(a, b);
}

void dod__world_iter_rows(dod_world_iter *it, const dod_world *w, uint32_t archetype,
                          uint32_t block, uint32_t first_row, uint32_t n)
{
    memset(it, 0, sizeof *it);
    it->world = w;
    it->n_components = w->head.n_components;
    enter_rows(it, archetype, block, first_row, n);
    it->world = NULL; /* dod_world_next ends here */
}

/* A debug build counts a world's live iterators (dod/world_core.h): the counter is the world's
 * bookkeeping, not its contents, so a reader's const world may count. */
static void count_live(const dod_world *w, uint64_t delta)
{
#if DOD_DEBUG
    (void)dod__atomic_u64_fetch_add_relaxed((dod__atomic_u64 *)(uintptr_t)&w->live_iters, delta);
#else
    (void)w, (void)delta;
#endif
}

/* The iteration is over: nothing more to visit, and no longer live. */
static void finish(dod_world_iter *it)
{
    if (it->live)
        count_live(it->world, UINT64_MAX); /* - 1 */
    it->live = 0;
    it->world = NULL;
    it->base = NULL;
    it->n = 0;
    it->entities = NULL;
}

int dod_world_next(dod_world_iter *it)
{
    if (!it || !it->world)
        return 0;
    const dod_world *w = it->world;
    if (it->base && it->block + 1 < dod__world_used_blocks(&w->arch[it->archetype])) {
        enter(it, it->archetype, it->block + 1);
        return 1;
    }
    /* The next matched archetype holding rows (UINT32_MAX + 1 wraps to the first). */
    for (uint32_t i = it->archetype + 1; i < w->n_archetypes; ++i) {
        uint64_t word = it->matched[i / 64] >> (i % 64);
        if (word == 0) {
            i |= 63; /* nothing more in this word */
            continue;
        }
        if ((word & 1u) && w->arch[i].n_rows > 0) {
            enter(it, i, 0);
            if (!it->live) {
                it->live = 1;
                count_live(w, 1);
            }
            return 1;
        }
    }
    finish(it);
    return 0;
}

void dod_world_iter_end(dod_world_iter *it)
{
    if (it && it->world)
        finish(it);
}

void *(dod_world_field)(const dod_world_iter *it, uint32_t component)
{
    return dod__world_field_at(it, component);
}

uint32_t dod_world_block(const dod_world *w, uint32_t archetype, uint32_t block, void **columns)
{
    if (!w || archetype >= w->n_archetypes || block >= dod__world_used_blocks(&w->arch[archetype]))
        return 0;
    const dod__world_arch *a = &w->arch[archetype];
    prefetch_next(a, block);
    if (columns) {
        columns[0] = a->place->blocks[block];
        for (uint32_t k = 0; k < a->n_cols; ++k)
            columns[1 + k] = dod__world_column(a, block, k);
    }
    return dod__world_block_rows(a, block);
}
