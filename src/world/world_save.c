/* Saving a world: one writer over a FILE* or memory, so both give the same bytes. */
#include <dod/world_io.h>
#include "crc32c.h"
#include "world_file.h"

static const unsigned char save_zeros[64];

typedef struct save_sink {
    FILE *f;              /* NULL: memory */
    unsigned char *p;     /* memory cursor */
    unsigned char *stage; /* a stream's room for converted bytes (the ids, a big-endian host's
                             words) before they are written */
    size_t stage_bytes;
    uint32_t crc;         /* of everything written so far */
} save_sink;

/* The bytes are written first and checksummed after, while the write has left them in the
 * cache (with the crc32 instruction, the other way round made a save at 1M entities 1.6x
 * fwrite against 1.5x; with folding the two orders measure alike). */
static dod_status save_put(save_sink *s, const void *data, size_t n)
{
    if (s->f) {
        if (fwrite(data, 1, n, s->f) != n)
            return DOD__FAIL(DOD_E_IO, "short fwrite");
    } else {
        memcpy(s->p, data, n);
        s->p += n;
    }
    s->crc = dod__crc32c(s->crc, data, n);
    return DOD_OK;
}

/* n bytes from memory in steps that stay in cache between the checksum and the write. */
static dod_status save_put_bulk(save_sink *s, const unsigned char *data, size_t n)
{
    for (size_t done = 0; done < n;) {
        size_t m = n - done < DOD__FILE_CHUNK_BYTES ? n - done : DOD__FILE_CHUNK_BYTES;
        dod_status st = save_put(s, data + done, m);
        if (st != DOD_OK)
            return st;
        done += m;
    }
    return DOD_OK;
}

/* Where converted bytes go before save_put_room takes them: into memory where they belong
 * (no copy), or a stream's stage; at most save_room_bytes at a time. */
static unsigned char *save_room(const save_sink *s)
{
    return s->f ? s->stage : s->p;
}

static size_t save_room_bytes(const save_sink *s)
{
    return s->f ? s->stage_bytes : DOD__FILE_CHUNK_BYTES;
}

static dod_status save_put_room(save_sink *s, size_t n)
{
    if (s->f)
        return save_put(s, s->stage, n);
    s->crc = dod__crc32c(s->crc, s->p, n);
    s->p += n;
    return DOD_OK;
}

/* Zeros up to the next 64-byte line after `bytes` bytes of a section. */
static dod_status save_pad(save_sink *s, uint64_t bytes)
{
    size_t n = (size_t)((64u - bytes % 64u) % 64u);
    return n ? save_put(s, save_zeros, n) : DOD_OK;
}

/* n_words words of `word` bytes from memory, little-endian: as they are on a little-endian
 * host, else swapped on the way. */
static dod_status save_put_words(save_sink *s, const unsigned char *data, size_t n_words,
                                 size_t word)
{
    if (word == 1 || !dod__file_swapping())
        return save_put_bulk(s, data, n_words * word);
    const size_t step = save_room_bytes(s) / word;
    for (size_t done = 0; done < n_words;) {
        size_t m = n_words - done < step ? n_words - done : step;
        dod__file_swap(save_room(s), data + done * word, m, word);
        dod_status st = save_put_room(s, m * word);
        if (st != DOD_OK)
            return st;
        done += m;
    }
    return DOD_OK;
}

/* n ids, without the world's tag (bits 48..63), little-endian. */
static dod_status save_put_ids(save_sink *s, const dod_entity *ids, size_t n)
{
    const size_t step = save_room_bytes(s) / sizeof(uint64_t);
    const uint64_t less_tag = ((uint64_t)1 << 48) - 1;
    const int swap = dod__file_swapping();
    for (size_t done = 0; done < n;) {
        size_t m = n - done < step ? n - done : step;
        unsigned char *out = save_room(s);
        for (size_t i = 0; i < m; ++i) {
            uint64_t v = ids[done + i].bits & less_tag;
            memcpy(out + 8 * i, &v, sizeof v);
        }
        if (swap)
            dod__file_swap(out, out, m, sizeof(uint64_t));
        dod_status st = save_put_room(s, m * sizeof(uint64_t));
        if (st != DOD_OK)
            return st;
        done += m;
    }
    return DOD_OK;
}

static dod_status save_directory(const dod_world *w, save_sink *s)
{
    unsigned char rec[DOD__WORLD_FILE_RECORD_MAX];
    uint64_t written = 0;
    dod_status st = DOD_OK;
    for (uint32_t c = 0; c < w->head.n_components && st == DOD_OK; ++c) {
        dod__world_file_component_record(w, c, rec);
        st = save_put(s, rec, DOD__WORLD_FILE_COMPONENT_BYTES);
        written += DOD__WORLD_FILE_COMPONENT_BYTES;
    }
    for (uint32_t i = 0; i < w->n_archetypes && st == DOD_OK; ++i) {
        size_t n = dod__world_file_archetype_record(w, i, rec);
        st = save_put(s, rec, n);
        written += n;
    }
    for (uint32_t i = 0; i < w->n_archetypes && st == DOD_OK; ++i) {
        dod__put_le32(rec, w->arch[i].n_rows);
        st = save_put(s, rec, 4);
        written += 4;
    }
    return st == DOD_OK ? save_pad(s, written) : st;
}

/* Archetype a's rows: the ids of every block holding rows, then each column block by block. */
static dod_status save_rows(const dod_world *w, const dod__world_arch *a, save_sink *s)
{
    const uint32_t used = dod__world_used_blocks(a);
    dod_status st = DOD_OK;
    for (uint32_t b = 0; b < used && st == DOD_OK; ++b)
        st = save_put_ids(s, dod__world_ids(a->place->blocks[b]), dod__world_block_rows(a, b));
    if (st == DOD_OK)
        st = save_pad(s, (uint64_t)a->n_rows * sizeof(dod_entity));
    for (uint32_t k = 0; k < a->n_cols && st == DOD_OK; ++k) {
        const size_t size = a->cols[k].size;
        const size_t word = dod__world_file_word(w->comp_align[a->cols[k].comp]);
        for (uint32_t b = 0; b < used && st == DOD_OK; ++b)
            st = save_put_words(s, dod__world_column(a, b, k),
                                dod__world_block_rows(a, b) * (size / word), word);
        if (st == DOD_OK)
            st = save_pad(s, (uint64_t)a->n_rows * size);
    }
    return st;
}

static dod_status save_world(const dod_world *w, const dod__world_file_layout *l, save_sink *s)
{
    unsigned char header[DOD__WORLD_FILE_HEADER_BYTES];
    dod__world_file_header_encode(w, l, header);
    dod_status st = save_put(s, header, sizeof header);
    if (st == DOD_OK)
        st = save_directory(w, s);
    if (st == DOD_OK && l->n_slots)
        st = save_put_words(s, (const unsigned char *)w->head.slots, l->n_slots,
                            sizeof(uint64_t));
    if (st == DOD_OK)
        st = save_pad(s, (uint64_t)l->n_slots * sizeof(uint64_t));
    for (uint32_t i = 0; i < w->n_archetypes && st == DOD_OK; ++i)
        if (w->arch[i].n_rows)
            st = save_rows(w, &w->arch[i], s);
    if (st != DOD_OK)
        return st;
    unsigned char trailer[DOD__FILE_TRAILER_BYTES];
    dod__file_trailer_encode(l->n_live, s->crc, trailer);
    return save_put(s, trailer, sizeof trailer);
}

/* The layout of w as it is now. */
static dod_status save_layout(const dod_world *w, dod__world_file_layout *l)
{
    uint32_t n_rows[DOD_WORLD_MAX_ARCHETYPES];
    for (uint32_t i = 0; i < w->n_archetypes; ++i)
        n_rows[i] = w->arch[i].n_rows;
    dod_status st = dod__world_file_layout_of(w, n_rows, w->head.n_slots, w->free_head,
                                              w->n_free, l);
    if (st != DOD_OK)
        return st;
    DOD__REFUSE_IF(l->file_bytes > SIZE_MAX, DOD_E_OVERFLOW);
    return DOD_OK;
}

size_t dod_world_saved_size(const dod_world *w)
{
    dod__world_file_layout l;
    if (!w || w->rows_only || save_layout(w, &l) != DOD_OK)
        return 0;
    return (size_t)l.file_bytes;
}

/* The bytes a stream's stage converts: the ids; on a big-endian host every word. */
static uint64_t save_converted_bytes(const dod__world_file_layout *l)
{
    return dod__file_swapping() ? l->file_bytes : l->n_live * sizeof(uint64_t);
}

dod_status dod_world_save(const dod_world *w, FILE *f)
{
    DOD__REFUSE_IF(!w, DOD_E_INVALID);
    DOD__REFUSE_IF(!f, DOD_E_INVALID);
    DOD__WORLD_REFUSE_ROWS_ONLY(w, "dod_world_save");
    dod__world_file_layout l;
    dod_status st = save_layout(w, &l);
    if (st != DOD_OK)
        return st;
    /* Each write through the stage is a write() system call or two, a few microseconds each
     * on the VM (8 MB of ids through 16 KiB made a save at 1M entities 1.45x fwrite, through
     * 256 KiB 1.25x): the big stage when the stack's would take more than one step and w's
     * allocator gives it, else the stack's. */
    unsigned char small[DOD__WORLD_FILE_STAGE_BYTES];
    save_sink s = { f, NULL, small, sizeof small, 0 };
    void *big = NULL;
    if (save_converted_bytes(&l) > sizeof small) {
        big = dod__alloc(&w->alloc, DOD__WORLD_FILE_BIG_STAGE_BYTES);
        if (big) {
            s.stage = (unsigned char *)big;
            s.stage_bytes = DOD__WORLD_FILE_BIG_STAGE_BYTES;
        }
    }
    st = save_world(w, &l, &s);
    if (big)
        dod__free(&w->alloc, big, DOD__WORLD_FILE_BIG_STAGE_BYTES);
    return st;
}

dod_status dod_world_save_mem(const dod_world *w, void *buf, size_t size)
{
    DOD__REFUSE_IF(!w, DOD_E_INVALID);
    DOD__REFUSE_IF(!buf, DOD_E_INVALID);
    DOD__WORLD_REFUSE_ROWS_ONLY(w, "dod_world_save_mem");
    dod__world_file_layout l;
    dod_status st = save_layout(w, &l);
    if (st != DOD_OK)
        return st;
    DOD__REFUSE_IF(size < l.file_bytes, DOD_E_RANGE);
    save_sink s = { NULL, (unsigned char *)buf, NULL, 0, 0 };
    return save_world(w, &l, &s);
}
