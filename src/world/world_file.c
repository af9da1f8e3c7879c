/* The world file's layout, header and directory records (docs/format.md, "The world file"). */
#include "crc32c.h"
#include "world_file.h"

static const unsigned char world_magic[8] = { 0x89, 'D', 'O', 'D', 'W', 'L', 'D', '\n' };

static uint64_t section_align64(uint64_t n)
{
    return (n + 63u) & ~(uint64_t)63u;
}

/* Overflow-checked u64 arithmetic: 0 on overflow. */
static int add_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    if (a > UINT64_MAX - b)
        return 0;
    *out = a + b;
    return 1;
}

/* n bytes padded to a 64-byte line, added to *pos; 0 on overflow. */
static int add_section(uint64_t *pos, uint64_t n_elems, uint64_t elem_bytes)
{
    if (elem_bytes != 0 && n_elems > (UINT64_MAX - 63u) / elem_bytes)
        return 0;
    return add_u64(*pos, section_align64(n_elems * elem_bytes), pos);
}

static size_t archetype_record_bytes(const dod__world_arch *a)
{
    return DOD__WORLD_FILE_ARCHETYPE_BYTES + ((size_t)4 * a->n_cols + 7u) / 8u * 8u;
}

uint64_t dod__world_file_directory_bytes(const dod_world *w)
{
    uint64_t n = (uint64_t)DOD__WORLD_FILE_COMPONENT_BYTES * w->head.n_components;
    for (uint32_t i = 0; i < w->n_archetypes; ++i)
        n += archetype_record_bytes(&w->arch[i]);
    return section_align64(n + 4u * (uint64_t)w->n_archetypes);
}

void dod__world_file_component_record(const dod_world *w, uint32_t c, unsigned char *out)
{
    dod__put_le64(out, w->comp_name[c]);
    dod__put_le64(out + 8, w->comp_size[c]);
    dod__put_le32(out + 16, (uint32_t)w->comp_align[c]);
    dod__put_le32(out + 20, 0);
}

size_t dod__world_file_archetype_record(const dod_world *w, uint32_t i, unsigned char *out)
{
    const dod__world_arch *a = &w->arch[i];
    size_t n = archetype_record_bytes(a);
    memset(out, 0, n);
    dod__put_le32(out, a->n_cols);
    dod__put_le32(out + 4, a->fixed ? a->rows0 : 0); /* the capacity */
    dod__put_le32(out + 8, a->decl.block_bytes);
    dod__put_le32(out + 12, a->decl.first_block_bytes);
    dod__put_le64(out + 16, a->decl.memory_cap);
    dod__put_le32(out + 24, a->rows0);
    dod__put_le32(out + 28, a->place->max_scale);
    dod__put_le32(out + 32, a->place->shift);
    dod__put_le32(out + 36, a->max_blocks);
    dod__put_le64(out + 40, a->bytes0);
    unsigned char *comps = out + DOD__WORLD_FILE_ARCHETYPE_BYTES;
    for (size_t k = 0; k < a->n_cols; ++k)
        dod__put_le32(comps + 4 * k, (uint32_t)a->cols[k].comp);
    return n;
}

dod_status dod__world_file_layout_of(const dod_world *w, const uint32_t *n_rows,
                                     uint32_t n_slots, uint32_t free_head, uint32_t n_free,
                                     dod__world_file_layout *out)
{
    out->n_slots = n_slots;
    out->free_head = free_head;
    out->n_free = n_free;
    out->directory_bytes = dod__world_file_directory_bytes(w);
    out->slots_pos = DOD__WORLD_FILE_HEADER_BYTES + out->directory_bytes;
    out->n_live = 0;
    uint64_t pos = out->slots_pos;
    int ok = add_section(&pos, n_slots, sizeof(uint64_t));
    for (uint32_t i = 0; i < w->n_archetypes && ok; ++i) {
        const dod__world_arch *a = &w->arch[i];
        out->n_rows[i] = n_rows[i];
        out->n_live += n_rows[i];
        out->rows_pos[i] = pos;
        if (n_rows[i] == 0)
            continue;
        ok = add_section(&pos, n_rows[i], sizeof(dod_entity));
        for (uint32_t k = 0; k < a->n_cols && ok; ++k)
            ok = add_section(&pos, n_rows[i], a->cols[k].size);
    }
    ok = ok && add_u64(pos, DOD__FILE_TRAILER_BYTES, &out->file_bytes);
    DOD__REFUSE_IF(!ok, DOD_E_OVERFLOW);
    out->trailer_pos = pos;
    return DOD_OK;
}

void dod__world_file_header_encode(const dod_world *w, const dod__world_file_layout *l,
                                   unsigned char out[DOD__WORLD_FILE_HEADER_BYTES])
{
    memcpy(out, world_magic, sizeof world_magic);
    dod__put_le32(out + 8, DOD__WORLD_FILE_VERSION);
    dod__put_le32(out + 12, 0); /* flags */
    dod__put_le32(out + 16, DOD__WORLD_FILE_HEADER_BYTES);
    dod__put_le32(out + 20, w->head.n_components);
    dod__put_le32(out + 24, w->n_archetypes);
    dod__put_le32(out + 28, l->n_slots);
    dod__put_le32(out + 32, l->free_head);
    dod__put_le32(out + 36, l->n_free);
    dod__put_le64(out + 40, dod__world_declaration(w));
    dod__put_le64(out + 48, l->file_bytes);
    dod__put_le32(out + 56, (uint32_t)l->directory_bytes);
    dod__put_le32(out + 60, dod__crc32c(0, out, 60));
}

dod_status dod__world_file_header_decode(const dod_world *w,
                                         const unsigned char in[DOD__WORLD_FILE_HEADER_BYTES],
                                         dod__world_file_layout *l)
{
    DOD__REFUSE_IF(memcmp(in, world_magic, sizeof world_magic) != 0, DOD_E_CORRUPT);
    DOD__REFUSE_IF(dod__get_le32(in + 60) != dod__crc32c(0, in, 60), DOD_E_CORRUPT);
    DOD__REFUSE_IF(dod__get_le32(in + 8) != DOD__WORLD_FILE_VERSION, DOD_E_CORRUPT);
    DOD__REFUSE_IF(dod__get_le32(in + 12) != 0, DOD_E_CORRUPT);
    DOD__REFUSE_IF(dod__get_le32(in + 16) != DOD__WORLD_FILE_HEADER_BYTES, DOD_E_CORRUPT);
    l->n_slots = dod__get_le32(in + 28);
    l->free_head = dod__get_le32(in + 32);
    l->n_free = dod__get_le32(in + 36);
    DOD__REFUSE_IF(l->n_free > l->n_slots, DOD_E_CORRUPT);
    DOD__REFUSE_IF((l->n_free == 0) != (l->free_head == DOD__WORLD_NO_SLOT), DOD_E_CORRUPT);
    DOD__REFUSE_IF(l->n_free > 0 && l->free_head >= l->n_slots, DOD_E_CORRUPT);
    /* Sound: now is it a file of w's declaration? */
    DOD__REFUSE_IF(dod__get_le32(in + 20) != w->head.n_components, DOD_E_INVALID);
    DOD__REFUSE_IF(dod__get_le32(in + 24) != w->n_archetypes, DOD_E_INVALID);
    DOD__REFUSE_IF(dod__get_le64(in + 40) != dod__world_declaration(w), DOD_E_INVALID);
    l->directory_bytes = dod__get_le32(in + 56);
    DOD__REFUSE_IF(l->directory_bytes != dod__world_file_directory_bytes(w), DOD_E_CORRUPT);
    l->slots_pos = DOD__WORLD_FILE_HEADER_BYTES + l->directory_bytes;
    l->file_bytes = dod__get_le64(in + 48);
    DOD__REFUSE_IF(l->file_bytes < l->slots_pos + DOD__FILE_TRAILER_BYTES, DOD_E_CORRUPT);
    return DOD_OK;
}

uint32_t dod__world_file_max_rows(const dod__world_arch *a)
{
    uint64_t rows = dod__world_rows_upto(a, a->max_blocks);
    return rows < UINT32_MAX ? (uint32_t)rows : UINT32_MAX;
}
