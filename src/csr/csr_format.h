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
#include "file_format.h"

#define DOD__CSR_HEADER_BYTES 64
#define DOD__CSR_VERSION 1u

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

/* The trailer (src/common/file_format.h) holds the items' exclusive upper bound: at most 2^32. */
dod_status dod__csr_trailer_decode(const unsigned char in[DOD__FILE_TRAILER_BYTES],
                                   uint32_t crc_before_trailer, uint64_t *item_bound);

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

/* Validate a whole saved image in place without writing anything: header, padding, offsets,
 * items, trailer and CRC (the view's DOD_CSR_VIEW_VALIDATE_FULL and load_mem's first pass). Values are
 * byte-swapped on the way into the checks when dod__file_swapping(). Gives the stored bound
 * and 1 + the largest item actually present (0 when none). */
dod_status dod__csr_validate_image(const unsigned char *buf, size_t size, dod__csr_layout *l,
                                   uint64_t *item_bound, uint64_t *max_bound);

#endif /* DOD_CSR_FORMAT_H */
