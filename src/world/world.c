/* The world: its desc checked and laid out, create, destroy and the small getters. */
#include "atomic.h"
#include "world_layout.h"

/* The one piece of process state in the world module: the number of worlds created so far,
 * whose low 16 bits tag each world's handles (see docs/world.md, "Handles"). */
static dod__atomic_u32 worlds_created;
static uint32_t next_world_serial(void)
{
    return dod__atomic_u32_fetch_add_relaxed(&worlds_created, 1u);
}

/* Bytes of `rows` rows of a (ids included), each column starting on a 64-byte line; 0 when
 * that does not fit size_t. cols: NULL, or a->cols to store the columns' offsets. */
static size_t block_bytes_for(const dod__world_arch *a, uint32_t rows, dod__world_col *cols)
{
    size_t total, b;
    if (!dod__mul(sizeof(dod_entity), rows, &b) || !dod__align_up(b, &total))
        return 0;
    for (uint32_t k = 0; k < a->n_cols; ++k) {
        if (cols)
            cols[k].offset = total;
        if (!dod__mul(a->cols[k].size, rows, &b) || !dod__align_up(b, &b) ||
            !dod__add(total, b, &total))
            return 0;
    }
    return total;
}

/* Rows of an equal chunked block: the most that fit, a multiple of 16 when that is 16 or
 * more. */
static uint32_t rows_that_fit(const dod__world_arch *a, size_t block_bytes)
{
    size_t row = sizeof(dod_entity);
    for (uint32_t k = 0; k < a->n_cols; ++k)
        if (!dod__add(row, a->cols[k].size, &row))
            return 0;
    uint32_t rows = (uint32_t)(block_bytes / row); /* block_bytes < 2^32 */
    /* Padding to the lines costs less than a line a column: a few steps down at most. */
    while (rows > 0 && block_bytes_for(a, rows, NULL) > block_bytes)
        --rows;
    return rows >= 16 ? rows & ~15u : rows;
}

/* The fewest rows for which every column of a, the ids too, is a whole number of 64-byte
 * lines (8, 16, 32 or 64): then block 0 needs no padding between its columns, and a block
 * of 2^s times its rows has every column at 2^s times its offset. */
static uint32_t line_granule(const dod__world_arch *a)
{
    uint32_t g = 64 / sizeof(dod_entity);
    for (uint32_t k = 0; k < a->n_cols; ++k) {
        uint32_t need = 64;
        for (size_t size = a->cols[k].size; need > 1 && size % 2 == 0; size /= 2)
            need /= 2;
        if (need > g)
            g = need;
    }
    return g;
}

/* Growing blocks within block_bytes `ceiling`: block 0's rows (0 when even block 1 would not
 * fit the ceiling) and, in *max_scale, the scale of the largest block. Block 0's rows are a
 * multiple of the line granule (and of 16 when `first` holds 16 rows), at most first / row
 * (the granule when that is less); among those, the pair whose largest block holds the most
 * rows within the ceiling, and the fewest doublings among equals. */
static uint32_t growing_rows(const dod__world_arch *a, size_t first, size_t ceiling,
                             uint32_t *max_scale)
{
    size_t row = sizeof(dod_entity);
    for (uint32_t k = 0; k < a->n_cols; ++k)
        if (!dod__add(row, a->cols[k].size, &row))
            return 0;
    uint32_t g = line_granule(a), unit = g < 16 ? 16 : g;
    if (first / row < unit)
        unit = g;
    size_t r0_max = first / row / unit * unit;
    if (r0_max == 0)
        r0_max = g; /* block 0 larger than first: a granule of rows */
    size_t rows_ceiling = ceiling / row, best = 0;
    uint32_t best_r0 = 0;
    for (uint32_t s = 1; s < 32 && (rows_ceiling >> s) >= unit; ++s) {
        size_t r0 = (rows_ceiling >> s) / unit * unit;
        if (r0 > r0_max)
            r0 = r0_max;
        if ((r0 << s) > best) {
            best = r0 << s;
            best_r0 = (uint32_t)r0;
            *max_scale = s;
        }
    }
    return best_r0;
}

/* The desc checks below run for dod_world_create, and the error hook names it. */
#define CREATE "dod_world_create"

/* Check one archetype desc and lay it out into *a (which the caller zeroed). */
static dod_status layout_archetype(const dod_world_desc *d, const dod_archetype_desc *ad,
                                   dod__world_arch *a)
{
    DOD__REFUSE_IF_IN(CREATE, !ad->components && ad->n_components > 0, DOD_E_INVALID);
    DOD__REFUSE_IF_IN(CREATE, ad->n_components > DOD_WORLD_MAX_ARCHETYPE_COMPONENTS, DOD_E_RANGE);
    for (uint32_t k = 0; k < ad->n_components; ++k) {
        uint32_t c = ad->components[k];
        DOD__REFUSE_IF_IN(CREATE, c >= d->n_components, DOD_E_RANGE);
        if (dod__bit_test(a->comp_bits, c))
            return DOD__FAIL_IN(CREATE, DOD_E_INVALID, "a component is repeated in an archetype");
        dod__bit_set(a->comp_bits, c);
        a->cols[k].comp = c;
        a->cols[k].size = d->components[c].size;
    }
    a->n_cols = ad->n_components;
    a->fixed = ad->capacity > 0;
    if (a->fixed) {
        a->rows0 = ad->capacity;
        a->bytes0 = block_bytes_for(a, ad->capacity, a->cols);
        DOD__REFUSE_IF_IN(CREATE, a->bytes0 == 0, DOD_E_OVERFLOW);
        a->max_blocks = 1;
        a->place->shift = DOD__WORLD_FIXED_SHIFT;
        a->place->row_mask = UINT32_MAX;
        return DOD_OK;
    }
    size_t ceiling = ad->block_bytes ? ad->block_bytes : DOD_WORLD_BLOCK_BYTES;
    size_t first = ad->first_block_bytes ? ad->first_block_bytes : DOD_WORLD_FIRST_BLOCK_BYTES;
    uint32_t max_scale = 0;
    a->rows0 = first < ceiling ? growing_rows(a, first, ceiling, &max_scale) : 0;
    if (a->rows0) {
        a->place->max_scale = max_scale;
        a->bytes0 = block_bytes_for(a, a->rows0, a->cols); /* rows0 rows exactly: no padding */
    } else { /* equal blocks */
        a->rows0 = rows_that_fit(a, ceiling);
        DOD__REFUSE_IF_IN(CREATE, a->rows0 == 0, DOD_E_INVALID); /* a row wider than a block */
        a->bytes0 = ceiling;
        (void)block_bytes_for(a, a->rows0, a->cols);
    }
    uint32_t largest = a->rows0 << a->place->max_scale;
    while ((1u << a->place->shift) < largest)
        a->place->shift++;
    a->place->row_mask = (1u << a->place->shift) - 1;
    /* A location has DOD__WORLD_LOC_BITS bits: block << shift | row. */
    uint64_t max_blocks = 1ull << (DOD__WORLD_LOC_BITS - a->place->shift);
    if (ad->memory_cap && dod__world_blocks_within(a, ad->memory_cap) < max_blocks)
        max_blocks = dod__world_blocks_within(a, ad->memory_cap);
    a->max_blocks = max_blocks < UINT32_MAX ? (uint32_t)max_blocks : UINT32_MAX;
    return DOD_OK;
}

static dod_status check_world_desc(const dod_world_desc *d)
{
    DOD__REFUSE_IF_IN(CREATE, !d->components && d->n_components > 0, DOD_E_INVALID);
    DOD__REFUSE_IF_IN(CREATE, !d->archetypes && d->n_archetypes > 0, DOD_E_INVALID);
    DOD__REFUSE_IF_IN(CREATE, d->n_components > DOD_WORLD_MAX_COMPONENTS, DOD_E_RANGE);
    DOD__REFUSE_IF_IN(CREATE, d->n_archetypes > DOD_WORLD_MAX_ARCHETYPES, DOD_E_RANGE);
    for (uint32_t c = 0; c < d->n_components; ++c) {
        const char *broken = dod__element_rule_broken(d->components[c].size,
                                                      d->components[c].align);
        if (broken)
            return DOD__FAIL_IN(CREATE, DOD_E_INVALID, broken);
    }
    for (uint32_t i = 0; i < d->n_archetypes; ++i) {
        dod__world_arch scratch;
        dod__world_place scratch_place;
        memset(&scratch, 0, sizeof scratch);
        memset(&scratch_place, 0, sizeof scratch_place);
        scratch.place = &scratch_place;
        dod_status st = layout_archetype(d, &d->archetypes[i], &scratch);
        if (st != DOD_OK)
            return st;
    }
    return DOD_OK;
}

/* The entity index a world starts with: room for every fixed archetype's rows. */
static uint32_t fixed_slots(const dod_world *w)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < w->n_archetypes; ++i)
        if (w->arch[i].fixed)
            n += w->arch[i].rows0;
    return n < DOD__WORLD_MAX_SLOTS ? (uint32_t)n : DOD__WORLD_MAX_SLOTS;
}

/* The smallest page of the targets: a write every PAGE_BYTES reaches every page (larger
 * pages are only written more than once). */
#define PAGE_BYTES 4096u

static void touch_pages(unsigned char *p, size_t bytes)
{
    for (size_t at = 0; at < bytes; at += PAGE_BYTES)
        p[at] = 0;
}

/* DOD_WORLD_PREFAULT: memory allocated for rows to come (blocks from..n_blocks - 1 of a; the
 * entity index) is written to now, so the operating system maps its pages here rather than
 * during the first spawns or copies. Their contents are unspecified until a spawn writes them. */
static void touch_blocks(dod__world_arch *a, uint32_t from)
{
    for (uint32_t b = from; b < a->n_blocks; ++b)
        touch_pages(a->place->blocks[b], dod__world_block_bytes(a, b));
}

static void touch_slots(dod_world *w)
{
    touch_pages((unsigned char *)w->head.slots, (size_t)w->slot_cap * sizeof *w->head.slots);
}

/* What create allocated: the fixed blocks and the entity index. */
static void prefault(dod_world *w)
{
    for (uint32_t i = 0; i < w->n_archetypes; ++i)
        if (w->arch[i].fixed)
            touch_blocks(&w->arch[i], 0);
    touch_slots(w);
}

dod_status dod_world_create(dod_world **out, const dod_world_desc *desc)
{
    DOD__REFUSE_IF(!out, DOD_E_INVALID);
    DOD__REFUSE_IF(!desc, DOD_E_INVALID);
    DOD__REFUSE_IF((desc->flags & ~DOD_WORLD_PREFAULT) != 0, DOD_E_INVALID);
    dod_status st = check_world_desc(desc);
    if (st != DOD_OK)
        return st;
    /* One allocation: the world, its archetypes, their places and their field tables (one
     * entry per archetype and component: n_archetypes * n_components, at most 1 MiB), then
     * the add / remove table (a byte per archetype and component, at most 64 KiB). */
    dod_allocator alloc = dod__allocator_or_heap(desc->alloc);
    size_t head, archs, places, bytes;
    size_t toggles = (size_t)desc->n_archetypes * desc->n_components;
    DOD__REFUSE_IF(!dod__align_up(sizeof(dod_world), &head), DOD_E_OVERFLOW);
    DOD__REFUSE_IF(!dod__mul(desc->n_archetypes, sizeof(dod__world_arch), &archs) ||
                       !dod__mul(desc->n_archetypes, sizeof(dod__world_place), &places) ||
                       !dod__mul((size_t)desc->n_archetypes * desc->n_components,
                                 sizeof(dod__world_field), &bytes) ||
                       !dod__add(head + archs + places, bytes, &bytes) ||
                       !dod__add(bytes, toggles, &bytes),
                   DOD_E_OVERFLOW);
    dod_world *w = (dod_world *)dod__alloc(&alloc, bytes);
    DOD__REFUSE_IF(!w, DOD_E_NOMEM);
    memset(w, 0, bytes);
    w->bytes = bytes;
    w->alloc = alloc;
    w->free_head = DOD__WORLD_NO_SLOT;
    w->head.n_components = desc->n_components;
    w->n_archetypes = desc->n_archetypes;
    w->declaration = dod__world_declaration_of(desc);
    w->flags = desc->flags;
    for (uint32_t c = 0; c < desc->n_components; ++c) {
        w->comp_size[c] = desc->components[c].size;
        w->comp_align[c] = desc->components[c].align;
        w->comp_name[c] = dod__world_name_hash(desc->components[c].name);
    }
    for (uint32_t i = 0; i < desc->n_archetypes; ++i) /* fits: a block of rows was checked */
        for (uint32_t k = 0; k < desc->archetypes[i].n_components; ++k)
            w->row_bytes[i] += w->comp_size[desc->archetypes[i].components[k]];
    w->arch = (dod__world_arch *)(void *)((unsigned char *)w + head);
    w->head.places = (dod__world_place *)(void *)((unsigned char *)w->arch + archs);
    dod__world_field *fields =
        (dod__world_field *)(void *)((unsigned char *)w->head.places + places);
    for (uint32_t i = 0; i < w->n_archetypes; ++i) {
        dod__world_arch *a = &w->arch[i];
        a->place = &w->head.places[i];
        (void)layout_archetype(desc, &desc->archetypes[i], a); /* checked above */
        a->decl = dod__world_blocks_declared(&desc->archetypes[i]);
        a->place->blocks = &a->first_block;
        a->blocks_cap = 1;
        a->place->fields = fields;
        for (uint32_t k = 0; k < a->n_cols; ++k) {
            fields[a->cols[k].comp].offset = a->cols[k].offset;
            fields[a->cols[k].comp].size = a->cols[k].size;
        }
        fields += w->head.n_components;
    }
    w->toggle = (uint8_t *)(void *)fields;
    dod__world_fill_transitions(w);
    /* Every fixed archetype's block now, and the entity index for all of their rows. */
    for (uint32_t i = 0; i < w->n_archetypes && st == DOD_OK; ++i)
        if (w->arch[i].fixed)
            st = dod__world_reserve_rows(w, &w->arch[i], w->arch[i].rows0);
    uint64_t *slots = NULL;
    uint32_t slot_cap = 0;
    if (st == DOD_OK)
        st = dod__world_prepare_slots(w, fixed_slots(w), &slots, &slot_cap);
    if (st != DOD_OK) {
        dod_world_destroy(w);
        return st;
    }
    dod__world_install_slots(w, slots, slot_cap);
    if (desc->flags & DOD_WORLD_PREFAULT)
        prefault(w);
    dod__atomic_u64_init(&w->live_iters, 0);
    w->serial = next_world_serial();
    w->head.tag_hi = (w->serial & DOD__WORLD_TAG_MASK) << DOD__WORLD_GEN_BITS;
    *out = w;
    return DOD_OK;
}

void dod_world_destroy(dod_world *w)
{
    if (!w)
        return;
    for (uint32_t i = 0; i < w->n_archetypes; ++i)
        dod__world_free_blocks(w, &w->arch[i]);
    dod__world_discard_slots(w, w->head.slots, w->slot_cap);
    dod_allocator alloc = w->alloc;
    dod__free(&alloc, w, w->bytes);
}

uint32_t dod_world_count(const dod_world *w, uint32_t archetype)
{
    return w && archetype < w->n_archetypes ? w->arch[archetype].n_rows : 0;
}

size_t dod_world_bytes(const dod_world *w)
{
    if (!w)
        return 0;
    size_t total = w->bytes + (size_t)w->slot_cap * sizeof(uint64_t);
    for (uint32_t i = 0; i < w->n_archetypes; ++i) {
        const dod__world_arch *a = &w->arch[i];
        total += dod__world_bytes_upto(a, a->n_blocks);
        if (a->place->blocks != &a->first_block)
            total += (size_t)a->blocks_cap * sizeof(unsigned char *);
    }
    return total;
}

dod_status dod_world_reserve(dod_world *w, uint32_t archetype, uint32_t rows)
{
    DOD__REFUSE_IF(!w, DOD_E_INVALID);
    DOD__REFUSE_IF(archetype >= w->n_archetypes, DOD_E_RANGE);
    dod__world_arch *a = &w->arch[archetype];
    DOD__REFUSE_IF(a->fixed && rows > a->rows0, DOD_E_FULL);
    uint32_t from = a->n_blocks, more = rows > a->n_rows ? rows - a->n_rows : 0;
    dod__world_rows_room room; /* the blocks of `more` spawns, as a spawn_n would take them */
    dod_status st = dod__world_prepare_rows(w, a, more, &room);
    if (st != DOD_OK)
        return st;
    uint64_t *slots;
    uint32_t slot_cap;
    st = dod__world_prepare_slots(w, more, &slots, &slot_cap);
    if (st != DOD_OK) {
        dod__world_discard_rows(w, a, &room);
        return st;
    }
    dod__world_install_rows(w, a, &room);
    dod__world_install_slots(w, slots, slot_cap);
    if (w->flags & DOD_WORLD_PREFAULT) {
        touch_blocks(a, from);
        if (slots)
            touch_slots(w);
    }
    return DOD_OK;
}

dod_status dod_world_rows_bytes(const dod_world_desc *desc, uint32_t archetype, uint32_t rows,
                                size_t *bytes)
{
    DOD__REFUSE_IF(!desc, DOD_E_INVALID);
    DOD__REFUSE_IF(!bytes, DOD_E_INVALID);
    dod_status st = check_world_desc(desc);
    if (st != DOD_OK)
        return st;
    DOD__REFUSE_IF(archetype >= desc->n_archetypes, DOD_E_RANGE);
    dod_archetype_desc ad = desc->archetypes[archetype];
    ad.memory_cap = 0; /* the cost of the rows, whatever the cap */
    dod__world_arch a;
    dod__world_place place;
    memset(&a, 0, sizeof a);
    memset(&place, 0, sizeof place);
    a.place = &place;
    st = layout_archetype(desc, &ad, &a); /* passed check_world_desc: DOD_OK */
    if (st != DOD_OK)
        return st;
    DOD__REFUSE_IF(a.fixed && rows > a.rows0, DOD_E_FULL);
    uint64_t units = a.fixed ? 1 : dod__world_rows_upto(&a, dod__world_blocks_for_rows(&a, rows))
                                       / a.rows0;
    size_t total;
    DOD__REFUSE_IF(units > SIZE_MAX || !dod__mul(a.bytes0, (size_t)units, &total),
                   DOD_E_OVERFLOW);
    *bytes = total;
    return DOD_OK;
}

dod_status dod__world_reserve_like(dod_world *w, const dod_world *like)
{
    DOD_ASSERT(w->head.n_slots == 0 && dod__world_same_declaration(w, like));
    uint32_t blocks[DOD_WORLD_MAX_ARCHETYPES], from[DOD_WORLD_MAX_ARCHETYPES] = { 0 };
    for (uint32_t i = 0; i < w->n_archetypes; ++i) {
        blocks[i] = like->arch[i].n_blocks;
        from[i] = w->arch[i].n_blocks;
    }
    dod__world_room room;
    dod_status st = dod__world_prepare_room(w, like->slot_cap, blocks, &room);
    if (st != DOD_OK)
        return st;
    dod__world_install_room(w, &room); /* w holds no slot: the larger index keeps nothing */
    if (w->flags & DOD_WORLD_PREFAULT) {
        for (uint32_t i = 0; i < w->n_archetypes; ++i)
            touch_blocks(&w->arch[i], from[i]);
        if (room.slots)
            touch_slots(w);
    }
    return DOD_OK;
}
