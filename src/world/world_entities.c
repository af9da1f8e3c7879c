/* The world's entities: the slot map behind the handles, spawn, spawn_n, despawn, move and
 * the lookups by handle. */
#include "world_layout.h"

/* A slot for a new entity: the most recently freed one, else a new one (room is reserved). */
static uint32_t take_slot(dod_world *w, uint32_t *gen)
{
    uint32_t index = w->free_head;
    if (index == DOD__WORLD_NO_SLOT) {
        *gen = 1;
        return w->head.n_slots++;
    }
    uint64_t s = w->head.slots[index];
    w->free_head = (uint32_t)dod__world_slot_loc(s);
    w->n_free--;
    *gen = dod__world_slot_gen(s) + 1;
    return index;
}

/* The entity of slot `index` is gone: its generation moves on, so its handles stop resolving,
 * and the slot goes on the free list, or is retired (generation 0, never matched again) when
 * its generation would wrap. */
static void release_slot(dod_world *w, uint32_t index)
{
    uint32_t gen = dod__world_slot_gen(w->head.slots[index]);
    if (gen == DOD__WORLD_GEN_MASK) {
        w->head.slots[index] = 0;
        return;
    }
    w->head.slots[index] = dod__world_slot_make(gen + 1, 0, w->free_head);
    w->free_head = index;
    w->n_free++;
}

/* Append a row to a (room reserved): its block (the end block, of scale a->end_scale) and
 * row; returns its location. */
static inline uint64_t push_row(dod__world_arch *a, unsigned char **block, uint32_t *row)
{
    if (a->tail == a->end_cap) {
        a->n_open++;
        a->tail = 0;
        dod__world_set_end(a);
    }
    *row = a->tail++;
    a->n_rows++;
    *block = a->end_block;
    return a->end_loc | *row;
}

/* Swap-remove a's row at location loc, row `row` of `block` (of scale `scale`): the last row
 * moves into it and its entity's slot follows. An end block left empty becomes the spare (an
 * older spare is freed), but block 0, which stays open. */
static inline void remove_row(dod_world *w, dod__world_arch *a, unsigned char *block,
                              uint32_t scale, uint32_t row, uint64_t loc)
{
    uint32_t last_row = a->tail - 1;
    if ((a->end_loc | last_row) != loc) {
        unsigned char *last = a->end_block;
        for (const dod__world_col *c = a->cols, *end = c + a->n_cols; c != end; ++c)
            dod__copy_elem(dod__world_elem(block, c->offset, scale, row, c->size),
                           last + c->end_offset + (size_t)last_row * c->size, c->size);
        dod_entity moved = dod__world_ids(last)[last_row];
        dod__world_ids(block)[row] = moved;
        uint64_t *s = &w->head.slots[(uint32_t)moved.bits];
        uint64_t keep = (1ull << DOD__WORLD_LOC_SHIFT) - 1; /* generation and archetype */
        *s = (*s & keep) | loc << DOD__WORLD_LOC_SHIFT;
    }
    a->n_rows--;
    if (--a->tail == 0) {
        if (a->n_open > 1) {
            a->n_open--;
            dod__world_set_end(a);
            a->tail = a->end_cap;
        }
        if (a->n_blocks > dod__world_used_blocks(a) + 1 && !w->keep_blocks)
            dod__world_trim_blocks(w, a);
    }
}

static dod_status make_room_slow(dod_world *w, dod__world_arch *a, uint32_t n_slots,
                                 uint32_t n_rows)
{
    uint64_t *fresh = NULL;
    uint32_t fresh_cap = 0;
    if (n_slots > w->n_free && w->head.n_slots + (uint64_t)(n_slots - w->n_free) > w->slot_cap) {
        dod_status st = dod__world_prepare_slots(w, n_slots, &fresh, &fresh_cap);
        if (st != DOD_OK)
            return st;
    }
    if (a->n_rows + (uint64_t)n_rows > a->rows_held) {
        dod_status st = dod__world_reserve_rows(w, a, n_rows);
        if (st != DOD_OK) {
            dod__world_discard_slots(w, fresh, fresh_cap);
            return st;
        }
    }
    dod__world_install_slots(w, fresh, fresh_cap);
    return DOD_OK;
}

/* Room for n_slots more slots and n_rows more rows of a, all or nothing; the common case
 * (the room is there) costs two comparisons. */
static inline dod_status make_room(dod_world *w, dod__world_arch *a, uint32_t n_slots,
                                   uint32_t n_rows)
{
    int slots_ok = n_slots <= w->n_free || w->head.n_slots + (uint64_t)n_slots <= w->slot_cap;
    if (slots_ok && a->n_rows + (uint64_t)n_rows <= a->rows_held)
        return DOD_OK;
    return make_room_slow(w, a, n_slots, n_rows);
}

/* Append a row to `archetype` (checked by the caller, so its refusals name the public call)
 * for a new entity, its components not written yet: makes room, takes a slot, stores the
 * handle in the id column and in *out (when not NULL), and gives the row's block and row (the
 * block is the archetype's end block, of scale end_scale). */
static inline dod_status spawn_row(dod_world *w, uint32_t archetype, dod_entity *out,
                                   unsigned char **block, uint32_t *row)
{
    dod__world_arch *a = &w->arch[archetype];
    dod_status st = make_room(w, a, 1, 1);
    if (st != DOD_OK)
        return st;
    uint32_t gen;
    uint32_t index = take_slot(w, &gen);
    uint64_t loc = push_row(a, block, row);
    dod__world_rows_changed(w, a);
    dod_entity e = dod__world_handle(w, index, gen);
    dod__world_ids(*block)[*row] = e;
    w->head.slots[index] = dod__world_slot_make(gen, archetype, loc);
    if (out)
        *out = e;
    return DOD_OK;
}

dod_status dod_world_spawn(dod_world *w, uint32_t archetype, dod_entity *out)
{
    DOD__REFUSE_IF(!w, DOD_E_INVALID);
    DOD__WORLD_REFUSE_BUSY(w, "dod_world_spawn");
    DOD__WORLD_REFUSE_ROWS_ONLY(w, "dod_world_spawn");
    DOD__REFUSE_IF(archetype >= w->n_archetypes, DOD_E_RANGE);
    unsigned char *block;
    uint32_t row;
    dod_status st = spawn_row(w, archetype, out, &block, &row);
    if (st != DOD_OK)
        return st;
    const dod__world_arch *a = &w->arch[archetype];
    for (uint32_t k = 0; k < a->n_cols; ++k)
        dod__zero_elem(dod__world_end_cell(a, k, row), a->cols[k].size);
    return DOD_OK;
}

dod_status dod__world_spawn_row(dod_world *w, uint32_t archetype, dod_entity *out,
                                unsigned char **block, uint32_t *row, uint32_t *scale)
{
    DOD__REFUSE_IF(!w, DOD_E_INVALID);
    DOD__WORLD_REFUSE_BUSY(w, "a typed spawn (dod__world_spawn_row)");
    DOD__WORLD_REFUSE_ROWS_ONLY(w, "a typed spawn (dod__world_spawn_row)");
    DOD__REFUSE_IF(archetype >= w->n_archetypes, DOD_E_RANGE);
    dod_status st = spawn_row(w, archetype, out, block, row);
    if (st == DOD_OK)
        *scale = w->arch[archetype].end_scale;
    return st;
}

/* Append n > 0 rows to `archetype` (checked by the caller) for n new entities, all or
 * nothing: their handles in out (when not NULL), the components zeroed when `zero` (else left
 * for the caller to write), the first new row's location in *first. */
static dod_status spawn_many(dod_world *w, uint32_t archetype, uint32_t n, dod_entity *out,
                             int zero, uint64_t *first)
{
    dod__world_arch *a = &w->arch[archetype];
    dod_status st = make_room(w, a, n, n);
    if (st != DOD_OK)
        return st;
    dod__world_rows_changed(w, a);
    /* Block by block: zero each column's run with one memset, then ids and slots. */
    for (uint32_t done = 0; done < n;) {
        uint32_t row;
        unsigned char *block;
        uint64_t loc = push_row(a, &block, &row);
        if (done == 0)
            *first = loc;
        uint32_t run = a->end_cap - row;
        if (run > n - done)
            run = n - done;
        a->n_rows += run - 1; /* push_row counted the first */
        a->tail += run - 1;
        for (uint32_t k = 0; zero && k < a->n_cols; ++k)
            memset(dod__world_end_cell(a, k, row), 0, (size_t)run * a->cols[k].size);
        dod_entity *ids = dod__world_ids(block) + row;
        uint32_t i = 0;
        for (; i < run && w->free_head != DOD__WORLD_NO_SLOT; ++i) { /* freed slots first */
            uint32_t gen;
            uint32_t index = take_slot(w, &gen);
            ids[i] = dod__world_handle(w, index, gen);
            w->head.slots[index] = dod__world_slot_make(gen, archetype, loc + i);
        }
        /* then new slots (generation 1, indexes in order): two arithmetic sequences, a loop
         * the compiler vectorises (over 64-bit indexes: a 32-bit size_t would wrap j << 24) */
        uint32_t fresh = run - i, base = w->head.n_slots;
        uint64_t id = dod__world_handle(w, base, 1).bits;
        uint64_t slot = dod__world_slot_make(1, archetype, loc + i);
        uint64_t *slots = w->head.slots + base;
        dod_entity *fresh_ids = ids + i;
        for (uint64_t j = 0; j < fresh; ++j) {
            fresh_ids[j].bits = id + j;
            slots[j] = slot + (j << DOD__WORLD_LOC_SHIFT);
        }
        w->head.n_slots = base + fresh;
        if (out)
            memcpy(out + done, ids, (size_t)run * sizeof *ids);
        done += run;
    }
    return DOD_OK;
}

dod_status dod_world_spawn_n(dod_world *w, uint32_t archetype, uint32_t n, dod_entity *out)
{
    DOD__REFUSE_IF(!w, DOD_E_INVALID);
    DOD__WORLD_REFUSE_BUSY(w, "dod_world_spawn_n");
    DOD__WORLD_REFUSE_ROWS_ONLY(w, "dod_world_spawn_n");
    DOD__REFUSE_IF(archetype >= w->n_archetypes, DOD_E_RANGE);
    uint64_t first;
    return n ? spawn_many(w, archetype, n, out, 1, &first) : DOD_OK;
}

dod_status dod__world_spawn_rows(dod_world *w, uint32_t archetype, uint32_t n, dod_entity *out,
                                 uint32_t *block, uint32_t *row)
{
    DOD__REFUSE_IF(!w, DOD_E_INVALID);
    DOD__WORLD_REFUSE_BUSY(w, "a typed bulk spawn (dod__world_spawn_rows)");
    DOD__WORLD_REFUSE_ROWS_ONLY(w, "a typed bulk spawn (dod__world_spawn_rows)");
    DOD__REFUSE_IF(!block || !row, DOD_E_INVALID);
    DOD__REFUSE_IF(archetype >= w->n_archetypes, DOD_E_RANGE);
    uint64_t first = 0;
    dod_status st = n ? spawn_many(w, archetype, n, out, 0, &first) : DOD_OK;
    if (st == DOD_OK) {
        const dod__world_place *p = w->arch[archetype].place;
        *block = (uint32_t)(first >> p->shift);
        *row = (uint32_t)first & p->row_mask;
    }
    return st;
}

/* The block of a location of a, its row in *row and its scale in *scale. */
static inline unsigned char *locate(const dod__world_arch *a, uint64_t loc, uint32_t *row,
                                    uint32_t *scale)
{
    size_t b = (size_t)(loc >> a->place->shift);
    *row = (uint32_t)loc & a->place->row_mask;
    *scale = dod__world_scale(a->place, b);
    return a->place->blocks[b];
}

dod_status dod_world_despawn(dod_world *w, dod_entity e)
{
    DOD__REFUSE_IF(!w, DOD_E_INVALID);
    DOD__WORLD_REFUSE_BUSY(w, "dod_world_despawn");
    const uint64_t *s = dod__world_resolve(w, e);
    if (!s)
        return DOD__FAIL(DOD_E_NOT_FOUND, "e is not alive in w");
    dod__world_arch *a = &w->arch[dod__world_slot_arch(*s)];
    uint64_t loc = dod__world_slot_loc(*s);
    uint32_t row, scale;
    unsigned char *block = locate(a, loc, &row, &scale);
    remove_row(w, a, block, scale, row, loc);
    release_slot(w, (uint32_t)e.bits);
    dod__world_rows_changed(w, a);
    return DOD_OK;
}

dod_status dod_world_move(dod_world *w, dod_entity e, uint32_t archetype)
{
    DOD__REFUSE_IF(!w, DOD_E_INVALID);
    DOD__WORLD_REFUSE_BUSY(w, "dod_world_move (or add, remove)");
    DOD__REFUSE_IF(archetype >= w->n_archetypes, DOD_E_RANGE);
    const uint64_t *s = dod__world_resolve(w, e);
    if (!s)
        return DOD__FAIL(DOD_E_NOT_FOUND, "e is not alive in w");
    uint32_t from = dod__world_slot_arch(*s);
    if (from == archetype)
        return DOD_OK;
    dod__world_arch *src = &w->arch[from], *dst = &w->arch[archetype];
    dod_status st = make_room(w, dst, 0, 1);
    if (st != DOD_OK)
        return st;
    /* e's new row and slot first: neither is needed again, so fewer values stay live */
    uint32_t row;
    unsigned char *block;
    uint64_t slot = *s;
    w->head.slots[(uint32_t)e.bits] =
        dod__world_slot_make(dod__world_slot_gen(slot), archetype, push_row(dst, &block, &row));
    dod__world_ids(block)[row] = e;
    uint64_t src_loc = dod__world_slot_loc(slot);
    uint32_t src_row, src_scale;
    unsigned char *src_block = locate(src, src_loc, &src_row, &src_scale);
    /* Each column of the new archetype: the old one's column of that component (its field
     * table, one entry per component; offset 0: it has none), or zeroes. */
    const dod__world_field *fields = src->place->fields;
    for (const dod__world_col *c = dst->cols, *end = c + dst->n_cols; c != end; ++c) {
        size_t size = c->size, at = fields[c->comp].offset;
        unsigned char *to = block + c->end_offset + (size_t)row * size;
        if (at)
            dod__copy_elem(to, dod__world_elem(src_block, at, src_scale, src_row, size), size);
        else
            dod__zero_elem(to, size);
    }
    remove_row(w, src, src_block, src_scale, src_row, src_loc);
    dod__world_rows_changed(w, src);
    dod__world_rows_changed(w, dst);
    return DOD_OK;
}

void *(dod_world_get)(const dod_world *w, dod_entity e, uint32_t component)
{
    return dod__world_get_sized(w, e, component, 0);
}

int dod_world_alive(const dod_world *w, dod_entity e)
{
    return w && dod__world_resolve(w, e) ? 1 : 0;
}

uint32_t dod_world_archetype_of(const dod_world *w, dod_entity e)
{
    const uint64_t *s = w ? dod__world_resolve(w, e) : NULL;
    return s ? dod__world_slot_arch(*s) : UINT32_MAX;
}

dod_entity dod_world_entity_at(const dod_world *w, uint32_t item)
{
    dod_entity none = { 0 };
    const uint64_t *s = w ? dod__world_slot_at(&w->head, item) : NULL;
    return s ? dod__world_handle(w, item, dod__world_slot_gen(*s)) : none;
}

void *(dod_world_get_at)(const dod_world *w, uint32_t item, uint32_t component)
{
    return dod__world_get_at_sized(w, item, component, 0);
}
