/* The world file (docs/format.md, "The world file"), shared by the saver and the loader; not
 * installed. Every field little-endian, every section starting on a 64-byte line:
 *
 *   [0, 64)                       header (counts, the declaration's fingerprint, sizes, CRC)
 *   [64, 64 + directory_bytes)    directory: a record per component and per archetype, then
 *                                 each archetype's row count; zero padding to 64
 *   [slots_pos, ...)              the entity index: n_slots u64 slot words; zero padding
 *   [rows_pos[i], ...)            archetype i (when it has rows): its ids, n_rows u64 (slot |
 *                                 generation << 32), padding; then each component's column,
 *                                 n_rows elements, padding
 *   [trailer_pos, + 64)           the trailer (file_format.h): the live entities and the CRC-32C
 *                                 of every byte before it */
#ifndef DOD_WORLD_FILE_H
#define DOD_WORLD_FILE_H

#include "file_format.h"
#include "world_layout.h"

#define DOD__WORLD_FILE_HEADER_BYTES 64
#define DOD__WORLD_FILE_VERSION 1u
#define DOD__WORLD_FILE_COMPONENT_BYTES 24
/* An archetype's record: 48 bytes, then its component ids (u32), padded to 8 bytes. */
#define DOD__WORLD_FILE_ARCHETYPE_BYTES 48
#define DOD__WORLD_FILE_RECORD_MAX                                                            \
    (DOD__WORLD_FILE_ARCHETYPE_BYTES + 4 * DOD_WORLD_MAX_ARCHETYPE_COMPONENTS)
/* A stream's save converts the ids, and a big-endian host's words, through a stage: this
 * large from the world's allocator, or on the stack when that fails or is not worth it. */
#define DOD__WORLD_FILE_BIG_STAGE_BYTES 262144
#define DOD__WORLD_FILE_STAGE_BYTES 16384

/* Where everything lies (bytes from the file's start; u64 on every host). */
typedef struct dod__world_file_layout {
    uint32_t n_slots, free_head, n_free;
    uint64_t directory_bytes;
    uint64_t slots_pos;
    uint64_t rows_pos[DOD_WORLD_MAX_ARCHETYPES];
    uint64_t trailer_pos, file_bytes;
    uint64_t n_live; /* rows of every archetype together */
    uint32_t n_rows[DOD_WORLD_MAX_ARCHETYPES];
} dod__world_file_layout;

/* The bytes of w's directory: its records and row counts, padded to 64. */
uint64_t dod__world_file_directory_bytes(const dod_world *w);

/* Component c's directory record: DOD__WORLD_FILE_COMPONENT_BYTES bytes into out. */
void dod__world_file_component_record(const dod_world *w, uint32_t c, unsigned char *out);

/* Archetype i's directory record into out (DOD__WORLD_FILE_RECORD_MAX bytes of room); returns
 * its length. */
size_t dod__world_file_archetype_record(const dod_world *w, uint32_t i, unsigned char *out);

/* The layout of a file of w's declaration holding n_rows[i] rows of each archetype and the
 * entity index n_slots / free_head / n_free. DOD_E_OVERFLOW when a size does not fit u64. */
dod_status dod__world_file_layout_of(const dod_world *w, const uint32_t *n_rows,
                                     uint32_t n_slots, uint32_t free_head, uint32_t n_free,
                                     dod__world_file_layout *out);

/* The header of a file laid out as l, of w's declaration. */
void dod__world_file_header_encode(const dod_world *w, const dod__world_file_layout *l,
                                   unsigned char out[DOD__WORLD_FILE_HEADER_BYTES]);

/* Check a header and fill l's entity index fields, directory_bytes and file_bytes:
 * DOD_E_CORRUPT when a field or the header's CRC is wrong, DOD_E_INVALID when it is sound but
 * declares another world than w (fingerprint, component or archetype count). */
dod_status dod__world_file_header_decode(const dod_world *w,
                                         const unsigned char in[DOD__WORLD_FILE_HEADER_BYTES],
                                         dod__world_file_layout *l);

/* The most rows archetype a can hold (its capacity, or what its memory cap and the location
 * bits allow), at most UINT32_MAX. */
uint32_t dod__world_file_max_rows(const dod__world_arch *a);

/* The width of the words a component of this alignment is saved as (1, 2, 4 or 8). */
static inline size_t dod__world_file_word(size_t align)
{
    return align < 8 ? align : 8;
}

/* The rows of a in block b when it holds n rows in all (b < the blocks they fill). */
static inline uint32_t dod__world_file_block_rows(const dod__world_arch *a, uint32_t b,
                                                  uint32_t n)
{
    uint64_t before = dod__world_rows_upto(a, b), cap = dod__world_block_cap(a, b);
    return (uint32_t)(n - before < cap ? n - before : cap);
}

#endif /* DOD_WORLD_FILE_H */
