/* The saved-index format (docs/format.md), shared by the loader, the saver and the views;
 * not installed.
 *
 *   [0, 64)                      header
 *   [64, items_pos)              offsets, (n_rows + 1) x u32 LE, zero padding to 64
 *   [items_pos, trailer_pos)     items, n_items x u32 LE, zero padding to 64
 *   [trailer_pos, + 64)          trailer: item_bound and the CRC-32C of every byte before it */
#ifndef DOD_CSR_FORMAT_H
#define DOD_CSR_FORMAT_H

#include <dod/base.h>

#define DOD__CSR_HEADER_BYTES 64
#define DOD__CSR_TRAILER_BYTES 64
#define DOD__CSR_VERSION 1u
/* Bytes handled per step when loading (read, checksum, check) and when saving (max, checksum,
 * write): small enough to stay in L2 between the passes, large enough that the system calls
 * do not show. Measured on the 2-core AMD EPYC dev machine (512 KiB L2 per core) with
 * bench_csr_io and a save-only loop to tmpfs: 256 KiB saved in 1.18x the raw fwrite, 64 KiB
 * in 1.22x. */
#define DOD__CSR_CHUNK_BYTES 262144

/* Where everything lies for n_rows rows and n_items items (sizes in bytes, u64). */
typedef struct dod__csr_layout {
    uint32_t n_rows, n_items;
    uint64_t items_pos, trailer_pos, file_bytes;
} dod__csr_layout;

/* The layout for n_rows (< UINT32_MAX) rows and n_items items, in u64 on every host. */
dod__csr_layout dod__csr_layout_of(uint32_t n_rows, uint32_t n_items);

/* The layout of an index to save: DOD_E_OVERFLOW when n_rows == UINT32_MAX or the file would
 * not fit size_t. */
dod_status dod__csr_layout_for(uint32_t n_rows, uint32_t n_items, dod__csr_layout *out);

void dod__csr_header_encode(const dod__csr_layout *l, unsigned char out[DOD__CSR_HEADER_BYTES]);

/* Check every header field and its CRC; DOD_E_CORRUPT on any mismatch. The layout may describe
 * a file larger than size_t: the caller compares file_bytes with the input's length first (a
 * longer claim is a lie, DOD_E_CORRUPT on every host), then refuses what this host cannot hold
 * with DOD_E_OVERFLOW. */
dod_status dod__csr_header_decode(const unsigned char in[DOD__CSR_HEADER_BYTES],
                                  dod__csr_layout *out);

/* The trailer for item_bound; crc_before_trailer is the CRC-32C of every file byte before it.
 * Bytes 0..59 are chained into it and the result stored in bytes 60..63. */
void dod__csr_trailer_encode(uint64_t item_bound, uint32_t crc_before_trailer,
                             unsigned char out[DOD__CSR_TRAILER_BYTES]);

/* 1 when the 8 bytes at p are the trailer's magic. */
int dod__csr_trailer_magic_ok(const unsigned char *p);

/* Check the trailer's magic and zero bytes and that its CRC field equals the CRC of
 * everything before it (crc_before_trailer chained over trailer bytes 0..59). */
dod_status dod__csr_trailer_decode(const unsigned char in[DOD__CSR_TRAILER_BYTES],
                                   uint32_t crc_before_trailer, uint64_t *item_bound);

/* Test hook: when set, the bulk arrays are converted as a big-endian host converts them
 * (each u32 byte-swapped between memory and disk), so the conversion path runs on any host.
 * Not thread-safe; only tests set it. */
#ifdef DOD_TEST_SEAMS
extern int dod__csr_force_swap;
#endif
/* 1 when the host (or the hook) needs each u32 of the arrays byte-swapped. */
int dod__csr_swapping(void);
/* dst may equal src (in place). */
void dod__csr_swap_words(uint32_t *dst, const uint32_t *src, size_t n);

/* The running checks over offsets and items, fed in pieces of host-order values. */
typedef struct dod__csr_scan {
    uint32_t prev_offset; /* last offset seen (the first must be 0) */
    uint32_t max_item;
    int bad;              /* an offset decreased, or offsets[0] != 0 */
    int any_item;
} dod__csr_scan;

void dod__csr_scan_init(dod__csr_scan *s);
void dod__csr_scan_offsets(dod__csr_scan *s, const uint32_t *o, size_t n, int first);
void dod__csr_scan_items(dod__csr_scan *s, const uint32_t *items, size_t n);
/* After every offset and item went through: DOD_OK or DOD_E_CORRUPT. */
dod_status dod__csr_scan_finish(const dod__csr_scan *s, uint32_t n_items, uint64_t item_bound);
/* 1 + the largest item seen, 0 when there was none (what dod_csr.item_bound holds). */
uint64_t dod__csr_scan_bound(const dod__csr_scan *s);

/* 1 when n bytes at p are all zero (the padding). */
int dod__csr_all_zero(const unsigned char *p, size_t n);

/* Validate a whole saved image in place without writing anything: header, padding, offsets,
 * items, trailer and CRC (the view's DOD_CSR_VIEW_VALIDATE_FULL and load_mem's first pass). Values are
 * byte-swapped on the way into the checks when dod__csr_swapping(). Gives the stored bound
 * and 1 + the largest item actually present (0 when none). */
dod_status dod__csr_validate_image(const unsigned char *buf, size_t size, dod__csr_layout *l,
                                   uint64_t *item_bound, uint64_t *max_bound);

/* Little-endian field access independent of the host. */
static inline uint32_t dod__get_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t dod__get_le64(const unsigned char *p)
{
    return (uint64_t)dod__get_le32(p) | (uint64_t)dod__get_le32(p + 4) << 32;
}

static inline void dod__put_le32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static inline void dod__put_le64(unsigned char *p, uint64_t v)
{
    dod__put_le32(p, (uint32_t)v);
    dod__put_le32(p + 4, (uint32_t)(v >> 32));
}

#endif /* DOD_CSR_FORMAT_H */
