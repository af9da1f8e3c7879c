/* Loading a world: one pass over the file's sections, from a FILE* or from memory, that
 * checksums and checks every byte and, when it is given a room (the blocks and entity index
 * the contents need), writes the slots and rows there. The world itself changes only once a
 * pass has succeeded (load_commit). Three ways to run it:
 *   - into a world that never held an entity, from a measured stream or from memory: one pass
 *     straight into the room (what it overwrites of the world's held memory is not visible:
 *     no slot, no row);
 *   - from memory into any other world: a pass that only checks, in place, then the room is
 *     installed and a second pass copies without checking again;
 *   - from any other stream: the file is staged in memory first, then as from memory.
 * A load desc's handle fields are given the world's tag last, once the contents are w's. */
#include <dod/world_io.h>
#include "crc32c.h"
#include "world_file.h"

typedef struct load_source {
    FILE *f;                /* NULL: memory */
    const unsigned char *p; /* memory: the next byte */
    uint32_t crc;           /* of every byte taken */
} load_source;

typedef struct load_pass {
    dod_world *w;
    load_source src;
    int verify;                   /* checksum and check; 0: a second pass over checked bytes */
    int swap;                     /* dod__file_swapping() */
    dod__world_file_layout l;     /* the header's fields, then the directory's counts */
    const dod__world_room *room;  /* where the slots and rows go; NULL: nowhere */
    unsigned char *slots;         /* the room's entity index, as bytes */
    const unsigned char *slots_le; /* the slot words as saved, for the id checks */
    uint64_t live_slots, free_slots;
    int bad;                      /* a check of the slots or ids failed */
} load_pass;

/* The next n bytes of the file: from a stream into dst; from memory copied into dst, or, when
 * dst is NULL, pointed at in place. *at: where they are now. Checksummed when verifying. */
static dod_status load_take(load_pass *p, unsigned char *dst, size_t n, const unsigned char **at)
{
    if (p->src.f) {
        /* A stream is read once, into a room (load_into_room): it always has a dst. */
        DOD__REFUSE_IF(!dst, DOD_E_INVALID);
        dod_status st = dod__file_read_exact(p->src.f, dst, n);
        if (st != DOD_OK)
            return st;
        *at = dst;
    } else {
        *at = p->src.p;
        p->src.p += n;
        if (dst) {
            memcpy(dst, *at, n);
            *at = dst;
        }
    }
    if (p->verify)
        p->src.crc = dod__crc32c(p->src.crc, *at, n);
    return DOD_OK;
}

/* The zero padding after a section of `bytes` bytes. */
static dod_status load_pad(load_pass *p, uint64_t bytes)
{
    unsigned char pad[64];
    const unsigned char *at;
    size_t n = (size_t)((64u - bytes % 64u) % 64u);
    if (n == 0)
        return DOD_OK;
    dod_status st = load_take(p, pad, n, &at);
    if (st == DOD_OK && p->verify)
        DOD__REFUSE_IF(!dod__file_all_zero(at, n), DOD_E_CORRUPT);
    return st;
}

/* A bulk u64 of the file (slots, ids) as the host reads it. */
static inline uint64_t load_word(const unsigned char *at, int swap)
{
    uint64_t v;
    memcpy(&v, at, sizeof v);
    return swap ? dod__bswap64(v) : v;
}

/* ---- the directory ---- */

/* The records must be w's own (the header's fingerprint matched, so a difference is damage);
 * each archetype's rows within what it can hold; the sections' sizes adding up to the file. */
static dod_status load_directory(load_pass *p)
{
    const dod_world *w = p->w;
    unsigned char rec[DOD__WORLD_FILE_RECORD_MAX], want[DOD__WORLD_FILE_RECORD_MAX];
    const unsigned char *at;
    uint64_t read = 0;
    dod_status st = DOD_OK;
    for (uint32_t c = 0; c < w->head.n_components && st == DOD_OK; ++c) {
        st = load_take(p, rec, DOD__WORLD_FILE_COMPONENT_BYTES, &at);
        dod__world_file_component_record(w, c, want);
        if (st == DOD_OK && p->verify && memcmp(at, want, DOD__WORLD_FILE_COMPONENT_BYTES) != 0)
            return DOD__FAIL(DOD_E_CORRUPT, "a component's record");
        read += DOD__WORLD_FILE_COMPONENT_BYTES;
    }
    for (uint32_t i = 0; i < w->n_archetypes && st == DOD_OK; ++i) {
        size_t n = dod__world_file_archetype_record(w, i, want);
        st = load_take(p, rec, n, &at);
        if (st == DOD_OK && p->verify && memcmp(at, want, n) != 0)
            return DOD__FAIL(DOD_E_CORRUPT, "an archetype's record");
        read += n;
    }
    uint32_t n_rows[DOD_WORLD_MAX_ARCHETYPES];
    for (uint32_t i = 0; i < w->n_archetypes && st == DOD_OK; ++i) {
        st = load_take(p, rec, 4, &at);
        n_rows[i] = st == DOD_OK ? dod__get_le32(at) : 0;
        if (st == DOD_OK && p->verify)
            DOD__REFUSE_IF(n_rows[i] > dod__world_file_max_rows(&w->arch[i]),
                              DOD_E_CORRUPT);
        read += 4;
    }
    if (st == DOD_OK)
        st = load_pad(p, read);
    if (st != DOD_OK)
        return st;
    const uint64_t claimed = p->l.file_bytes;
    st = dod__world_file_layout_of(w, n_rows, p->l.n_slots, p->l.free_head, p->l.n_free, &p->l);
    DOD__REFUSE_IF(st != DOD_OK || p->l.file_bytes != claimed,
                      DOD_E_CORRUPT);
    /* Every row needs a live slot: a cheap bound before the slots are read. */
    DOD__REFUSE_IF(p->l.n_live > (uint64_t)p->l.n_slots - p->l.n_free,
                      DOD_E_CORRUPT);
    return DOD_OK;
}

/* ---- the entity index ---- */

/* Count the live and free slots of n saved slot words and check each: a retired slot is 0; a
 * free one has an even generation > 0, no archetype and a link to a slot or to the end; a live
 * one (odd generation) is checked against its row later. Bitwise, without branches: slots of
 * every kind mix in a file, and a branch per kind mispredicts (3x the time at 1M slots). */
static inline void load_check_slots_as(load_pass *p, const unsigned char *at, size_t n, int swap)
{
    const uint64_t n_slots = p->l.n_slots;
    uint64_t live = 0, free_n = 0;
    unsigned bad = 0;
    for (size_t j = 0; j < n; ++j) {
        uint64_t v = load_word(at + 8 * j, swap);
        uint64_t link = v >> DOD__WORLD_LOC_SHIFT;
        unsigned is_live = (unsigned)(v & 1u);
        unsigned is_free = (is_live ^ 1u) & (unsigned)(v != 0);
        live += is_live;
        free_n += is_free;
        bad |= is_free & ((unsigned)((v & DOD__WORLD_GEN_MASK) == 0) |
                          (unsigned)((v >> DOD__WORLD_GEN_BITS & 0xFFu) != 0) |
                          ((unsigned)(link >= n_slots) & (unsigned)(link != DOD__WORLD_NO_SLOT)));
    }
    p->live_slots += live;
    p->free_slots += free_n;
    p->bad |= (int)bad;
}

static void load_check_slots(load_pass *p, const unsigned char *at, size_t n)
{
    if (p->swap)
        load_check_slots_as(p, at, n, 1);
    else
        load_check_slots_as(p, at, n, 0);
}

/* The free list from free_head: n_free free slots, then the end. A list that visits a slot
 * twice loops and never reaches the end, so with as many free slots as n_free it visits each
 * once. */
static int load_free_list_ok(const load_pass *p)
{
    uint32_t s = p->l.free_head;
    for (uint32_t i = 0; i < p->l.n_free; ++i) {
        if (s >= p->l.n_slots)
            return 0;
        uint64_t v = load_word(p->slots_le + 8 * (size_t)s, p->swap);
        if ((v & 1u) || v == 0)
            return 0;
        s = (uint32_t)(v >> DOD__WORLD_LOC_SHIFT);
    }
    return s == DOD__WORLD_NO_SLOT;
}

static dod_status load_slots(load_pass *p)
{
    const size_t bytes = (size_t)p->l.n_slots * sizeof(uint64_t);
    for (size_t done = 0; done < bytes;) {
        size_t m = bytes - done < DOD__FILE_CHUNK_BYTES ? bytes - done : DOD__FILE_CHUNK_BYTES;
        const unsigned char *at;
        dod_status st = load_take(p, p->slots ? p->slots + done : NULL, m, &at);
        if (st != DOD_OK)
            return st;
        if (done == 0)
            p->slots_le = at; /* the section is contiguous: in the room, or in the buffer */
        if (p->verify)
            load_check_slots(p, at, m / 8);
        done += m;
    }
    dod_status st = load_pad(p, bytes);
    if (st == DOD_OK && p->verify) {
        DOD__REFUSE_IF(p->bad, DOD_E_CORRUPT);
        DOD__REFUSE_IF(p->free_slots != p->l.n_free, DOD_E_CORRUPT);
        DOD__REFUSE_IF(!load_free_list_ok(p), DOD_E_CORRUPT);
    }
    return st;
}

/* ---- the rows ---- */

/* n saved ids at `at` of archetype `arch`, the first at location first_loc. check: each names a
 * live slot (odd generation, no tag bits) whose saved word is this archetype and location. to
 * (the room's copy, at itself, or NULL): the ids are made the world's there, host order with its
 * tag, in the same pass. Bitwise, as the slots' check. */
static inline void load_ids_as(load_pass *p, const unsigned char *at, unsigned char *to,
                               size_t n, uint32_t arch, uint64_t first_loc, int check, int swap)
{
    const uint32_t n_slots = p->l.n_slots;
    const uint64_t arch_bits = (uint64_t)arch << DOD__WORLD_GEN_BITS;
    const uint64_t world_tag = (uint64_t)p->w->head.tag_hi << 32;
    unsigned bad = 0;
    for (size_t j = 0; j < n; ++j) {
        uint64_t id = load_word(at + 8 * j, swap);
        if (check) {
            uint32_t slot = (uint32_t)id, gen = (uint32_t)(id >> 32) & DOD__WORLD_GEN_MASK;
            uint32_t in_range = slot < n_slots ? slot : 0; /* n_slots > 0: there are rows */
            uint64_t want = gen | arch_bits | (first_loc + j) << DOD__WORLD_LOC_SHIFT;
            bad |= (unsigned)((id >> 48) != 0) | (unsigned)(slot >= n_slots) | (~gen & 1u) |
                   (unsigned)(load_word(p->slots_le + 8 * (size_t)in_range, swap) != want);
        }
        if (to) {
            id |= world_tag;
            memcpy(to + 8 * j, &id, sizeof id);
        }
    }
    p->bad |= (int)bad;
}

static void load_ids(load_pass *p, const unsigned char *at, unsigned char *to, size_t n,
                     uint32_t arch, uint64_t first_loc)
{
    if (p->swap)
        load_ids_as(p, at, to, n, arch, first_loc, p->verify, 1);
    else if (p->verify)
        load_ids_as(p, at, to, n, arch, first_loc, 1, 0);
    else
        load_ids_as(p, at, to, n, arch, first_loc, 0, 0);
}

/* Where column col (-1: the ids) of block b of archetype i lies in the room; NULL without. */
static unsigned char *load_column(const load_pass *p, uint32_t i, uint32_t b, int col)
{
    if (!p->room)
        return NULL;
    const dod__world_arch *a = &p->w->arch[i];
    unsigned char *block = p->room->rows[i].list[b];
    return col < 0 ? block : block + (a->cols[col].offset << dod__world_block_scale(a, b));
}

/* The n elements of `size` bytes (words of `word`) of column col (-1: the ids) of block b of
 * archetype i, in steps that stay in cache. */
static dod_status load_cells(load_pass *p, uint32_t i, uint32_t b, int col, size_t n,
                             size_t size, size_t word)
{
    const dod__world_arch *a = &p->w->arch[i];
    unsigned char *dst = load_column(p, i, b, col);
    const size_t step = DOD__FILE_CHUNK_BYTES / size ? DOD__FILE_CHUNK_BYTES / size : 1;
    for (size_t done = 0; done < n;) {
        size_t m = n - done < step ? n - done : step;
        const unsigned char *at;
        unsigned char *to = dst ? dst + done * size : NULL;
        dod_status st = load_take(p, to, m * size, &at);
        if (st != DOD_OK)
            return st;
        if (col < 0)
            load_ids(p, at, to, m, i, ((uint64_t)b << a->place->shift) + done);
        else if (to && p->swap && word > 1)
            dod__file_swap(to, to, m * size / word, word);
        done += m;
    }
    return DOD_OK;
}

/* Archetype i's rows: the ids block by block, then each column block by block. */
static dod_status load_rows(load_pass *p, uint32_t i)
{
    const dod__world_arch *a = &p->w->arch[i];
    const uint32_t n = p->l.n_rows[i];
    dod_status st = DOD_OK;
    for (int col = -1; col < (int)a->n_cols && st == DOD_OK; ++col) {
        size_t size = col < 0 ? sizeof(dod_entity) : a->cols[col].size;
        size_t word = col < 0 ? 8 : dod__world_file_word(p->w->comp_align[a->cols[col].comp]);
        for (uint32_t b = 0, done = 0; done < n && st == DOD_OK; ++b) {
            uint32_t rows = dod__world_file_block_rows(a, b, n);
            st = load_cells(p, i, b, col, rows, size, word);
            done += rows;
        }
        if (st == DOD_OK)
            st = load_pad(p, (uint64_t)n * size);
        if (st == DOD_OK && col < 0 && p->verify)
            DOD__REFUSE_IF(p->bad, DOD_E_CORRUPT);
    }
    return st;
}

/* Everything after the directory. */
static dod_status load_body(load_pass *p)
{
    dod_status st = load_slots(p);
    for (uint32_t i = 0; i < p->w->n_archetypes && st == DOD_OK; ++i)
        if (p->l.n_rows[i])
            st = load_rows(p, i);
    if (st != DOD_OK)
        return st;
    unsigned char trailer[DOD__FILE_TRAILER_BYTES];
    const unsigned char *at;
    uint32_t crc_before = p->src.crc;
    st = load_take(p, trailer, sizeof trailer, &at);
    if (st != DOD_OK || !p->verify)
        return st;
    uint64_t n_live;
    st = dod__file_trailer_decode(at, crc_before, &n_live);
    if (st != DOD_OK)
        return st;
    DOD__REFUSE_IF(n_live != p->l.n_live, DOD_E_CORRUPT);
    /* Every row named a distinct live slot; as many rows as live slots: every live slot is a
     * row's. */
    DOD__REFUSE_IF(p->live_slots != p->l.n_live, DOD_E_CORRUPT);
    return DOD_OK;
}

/* ---- putting it together ---- */

/* The blocks archetype i needs for the file's rows. */
static uint32_t load_blocks(const load_pass *p, uint32_t i)
{
    uint32_t n = p->l.n_rows[i];
    return n ? (uint32_t)dod__world_blocks_for_rows(&p->w->arch[i], n) : 0;
}

static dod_status load_prepare(load_pass *p, dod__world_room *room)
{
    uint32_t blocks[DOD_WORLD_MAX_ARCHETYPES];
    for (uint32_t i = 0; i < p->w->n_archetypes; ++i)
        blocks[i] = load_blocks(p, i);
    dod_status st = dod__world_prepare_room(p->w, p->l.n_slots, blocks, room);
    if (st != DOD_OK)
        return st;
    p->room = room;
    p->slots = (unsigned char *)(room->slots ? room->slots : p->w->head.slots);
    return DOD_OK;
}

/* 1 when w holds no entity (no slot ever handed out, and not a rows-only copy, whose rows have
 * no slots): a load may then write straight into its memory, nothing to keep on a failure. */
static int holds_nothing(const dod_world *w)
{
    return w->head.n_slots == 0 && !w->rows_only;
}

/* The world takes what a pass wrote into its installed room: the entity index in host order,
 * the counters. */
static void load_commit(load_pass *p)
{
    dod_world *w = p->w;
    if (p->swap)
        for (size_t s = 0; s < p->l.n_slots; ++s)
            w->head.slots[s] = load_word(p->slots + 8 * s, 1);
    w->head.n_slots = p->l.n_slots;
    w->rows_only = 0;
    w->free_head = p->l.free_head;
    w->n_free = p->l.n_free;
    for (uint32_t i = 0; i < w->n_archetypes; ++i) {
        dod__world_arch *a = &w->arch[i];
        uint32_t n = p->l.n_rows[i], open = load_blocks(p, i);
        uint32_t before = open ? (uint32_t)dod__world_rows_upto(a, open - 1) : 0;
        dod__world_set_rows(a, n, open, n - before);
    }
    dod__world_all_changed(w);
}

/* Start a pass over the file whose header (already taken, at `header`) is decoded into p. */
static dod_status load_start(load_pass *p, dod_world *w, FILE *f, const unsigned char *header,
                             const unsigned char *rest, int verify)
{
    memset(p, 0, sizeof *p);
    p->w = w;
    p->src.f = f;
    p->src.p = rest;
    p->verify = verify;
    p->swap = dod__file_swapping();
    p->src.crc = dod__crc32c(0, header, DOD__WORLD_FILE_HEADER_BYTES);
    dod_status st = dod__world_file_header_decode(w, header, &p->l);
    return st == DOD_OK ? load_directory(p) : st;
}

/* The handle fields of a load desc: each within its component, unknown flags refused. */
static dod_status load_desc_check(const dod_world *w, const dod_world_load_desc *d)
{
    if (!d)
        return DOD_OK;
    DOD__REFUSE_IF_IN("dod_world_load", d->flags != 0, DOD_E_INVALID);
    DOD__REFUSE_IF_IN("dod_world_load", !d->handles && d->n_handles > 0, DOD_E_INVALID);
    for (uint32_t h = 0; h < d->n_handles; ++h) {
        const dod_world_handle_field *f = &d->handles[h];
        DOD__REFUSE_IF_IN("dod_world_load", f->component >= w->head.n_components, DOD_E_RANGE);
        DOD__REFUSE_IF_IN("dod_world_load",
                          (uint64_t)f->offset + sizeof(dod_entity) > w->comp_size[f->component],
                          DOD_E_RANGE);
    }
    return DOD_OK;
}

/* Give every non-null handle in d's fields of every loaded row w's tag (bits 48..63). */
static void load_retag(dod_world *w, const dod_world_load_desc *d)
{
    const uint64_t keep = ((uint64_t)1 << 48) - 1, tag = (uint64_t)w->head.tag_hi << 32;
    for (uint32_t h = 0; d && h < d->n_handles; ++h)
        for (uint32_t i = 0; i < w->n_archetypes; ++i) {
            const dod__world_arch *a = &w->arch[i];
            uint32_t col = dod__world_col_of(a, d->handles[h].component);
            if (col == UINT32_MAX)
                continue;
            size_t size = a->cols[col].size;
            for (uint32_t b = 0; b < dod__world_used_blocks(a); ++b) {
                unsigned char *at = dod__world_column(a, b, col) + d->handles[h].offset;
                for (uint32_t r = dod__world_block_rows(a, b); r > 0; --r, at += size) {
                    uint64_t v;
                    memcpy(&v, at, sizeof v);
                    v = v ? (v & keep) | tag : 0;
                    memcpy(at, &v, sizeof v);
                }
            }
        }
}

/* One pass that checks and writes into a room prepared for it: for a world without slots,
 * whose held memory nothing shows. */
static dod_status load_into_room(dod_world *w, FILE *f, const unsigned char *header,
                                 const unsigned char *rest, const dod_world_load_desc *desc)
{
    load_pass p;
    dod__world_room room;
    dod_status st = load_start(&p, w, f, header, rest, 1);
    if (st == DOD_OK)
        st = load_prepare(&p, &room);
    if (st != DOD_OK)
        return st;
    st = load_body(&p);
    if (st != DOD_OK) {
        dod__world_discard_room(w, &room);
        return st;
    }
    dod__world_install_room(w, &room);
    load_commit(&p);
    load_retag(w, desc);
    return DOD_OK;
}

/* dod_world_load_mem_with, its arguments checked (a staged stream comes here). */
static dod_status load_mem(dod_world *w, const void *buf, size_t size,
                           const dod_world_load_desc *desc)
{
    const unsigned char *b = (const unsigned char *)buf;
    DOD__REFUSE_IF_IN("dod_world_load_mem", size < DOD__WORLD_FILE_HEADER_BYTES, DOD_E_CORRUPT);
    dod__world_file_layout l;
    dod_status st = dod__world_file_header_decode(w, b, &l);
    if (st != DOD_OK)
        return st;
    DOD__REFUSE_IF_IN("dod_world_load_mem", l.file_bytes != size, DOD_E_CORRUPT);
    const unsigned char *rest = b + DOD__WORLD_FILE_HEADER_BYTES;
    if (holds_nothing(w))
        return load_into_room(w, NULL, b, rest, desc);
    /* The world has entities to keep until every check passed: check in place first. */
    load_pass p;
    st = load_start(&p, w, NULL, b, rest, 1);
    if (st == DOD_OK)
        st = load_body(&p);
    if (st != DOD_OK)
        return st;
    dod__world_room room;
    st = load_start(&p, w, NULL, b, rest, 0);
    if (st == DOD_OK)
        st = load_prepare(&p, &room);
    if (st != DOD_OK)
        return st;
    dod__world_install_room(w, &room);
    (void)load_body(&p); /* checked bytes into memory that is there: cannot fail */
    load_commit(&p);
    load_retag(w, desc);
    return DOD_OK;
}

dod_status dod_world_load_mem_with(dod_world *w, const void *buf, size_t size,
                                   const dod_world_load_desc *desc)
{
    DOD__REFUSE_IF(!w, DOD_E_INVALID);
    DOD__WORLD_REFUSE_BUSY(w, "dod_world_load_mem");
    DOD__REFUSE_IF(!buf, DOD_E_INVALID);
    dod_status st = load_desc_check(w, desc);
    return st == DOD_OK ? load_mem(w, buf, size, desc) : st;
}

dod_status dod_world_load_mem(dod_world *w, const void *buf, size_t size)
{
    return dod_world_load_mem_with(w, buf, size, NULL);
}

dod_status dod_world_load_with(dod_world *w, FILE *f, const dod_world_load_desc *desc)
{
    DOD__REFUSE_IF(!w, DOD_E_INVALID);
    DOD__WORLD_REFUSE_BUSY(w, "dod_world_load");
    DOD__REFUSE_IF(!f, DOD_E_INVALID);
    dod_status st = load_desc_check(w, desc);
    if (st != DOD_OK)
        return st;
    long left = dod__file_remaining(f); /* measured first: seeking discards what stdio buffered */
    unsigned char header[DOD__WORLD_FILE_HEADER_BYTES];
    st = dod__file_read_exact(f, header, sizeof header);
    if (st != DOD_OK)
        return st;
    dod__world_file_layout l;
    st = dod__world_file_header_decode(w, header, &l);
    if (st != DOD_OK)
        return st;
    DOD__REFUSE_IF(left >= 0 && (uint64_t)left < l.file_bytes, DOD_E_CORRUPT);
    DOD__REFUSE_IF(l.file_bytes > SIZE_MAX, DOD_E_OVERFLOW); /* real, but too big for this host */
    if (left >= 0 && holds_nothing(w))
        return load_into_room(w, f, header, NULL, desc);
    unsigned char *buf;
    size_t cap;
    st = dod__file_read_staged(f, &w->alloc, header, sizeof header, (size_t)l.file_bytes,
                               left >= 0, &buf, &cap);
    if (st == DOD_OK) {
        st = load_mem(w, buf, (size_t)l.file_bytes, desc);
        dod__free(&w->alloc, buf, cap);
    }
    return st;
}

dod_status dod_world_load(dod_world *w, FILE *f)
{
    return dod_world_load_with(w, f, NULL);
}
