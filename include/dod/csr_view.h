/* dod/csr_view.h: a zero-copy, read-only index over a saved image you already hold (a
 * memory-mapped file (dod/file_map.h), a network buffer, bytes you read yourself).
 *
 * A view points into the buffer: it allocates nothing and copies nothing, and it stays valid
 * while the buffer does. How much of the buffer is checked is the caller's choice:
 *
 *   DOD_CSR_VIEW_VALIDATE_NONE    O(1). Only that the length the header's counts imply equals `size`,
 *                        so the view's pointers lie inside the buffer. The contents are
 *                        trusted: use it for bytes this process wrote or already validated.
 *   DOD_CSR_VIEW_VALIDATE_HEADER  O(1) (a CRC of 60 bytes). NONE plus the whole 64-byte header (magic,
 *                        version, flags, widths, stored positions, header CRC-32C) and the
 *                        trailer's magic and bound. Catches a wrong or truncated file, not
 *                        damaged data: offsets and items are still trusted.
 *   DOD_CSR_VIEW_VALIDATE_FULL    O(size), one read of the buffer (CRC-32C and checks fused in 256 KiB
 *                        steps, so it runs at about the speed of the checksum). Everything
 *                        dod_csr_load checks; afterwards every row access is in bounds.
 *
 * The trusted fast load is therefore: read the file into memory you own (one fread) and open a
 * view with DOD_CSR_VIEW_VALIDATE_HEADER. dod_csr_load / dod_csr_load_mem always validate fully.
 *
 * Thread safety: a view is immutable; any number of threads may read it. */
#ifndef DOD_CSR_VIEW_H
#define DOD_CSR_VIEW_H

#include <dod/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How much of the buffer dod_csr_view_open checks (the levels above). */
typedef enum dod_csr_view_validate {
    DOD_CSR_VIEW_VALIDATE_NONE = 0,
    DOD_CSR_VIEW_VALIDATE_HEADER = 1,
    DOD_CSR_VIEW_VALIDATE_FULL = 2
} dod_csr_view_validate;

/* A read-only view of a saved index, pointing into the caller's buffer: filled by
 * dod_csr_view_open, owns nothing, needs no closing. Its fields read as dod_csr's. */
typedef struct dod_csr_view {
    uint32_t n_rows;
    uint32_t n_items;
    const uint32_t *offsets; /* n_rows + 1 entries, inside the buffer */
    const uint32_t *items;   /* n_items entries, inside the buffer */
    uint64_t item_bound;     /* every item is below it (checked only by DOD_CSR_VIEW_VALIDATE_FULL) */
} dod_csr_view;

/* Open a view over buf, which must hold exactly one saved index (size == its saved size) and
 * be 4-byte aligned (a mapped file or a DOD_ALIGN buffer is). The view is written only on
 * success. Errors: DOD_E_INVALID (view or buf NULL, buf misaligned, level unknown, or a
 * big-endian host, where the little-endian arrays cannot be used in place: use
 * dod_csr_load_mem), DOD_E_CORRUPT (a check of the chosen level failed). Thread-safe. */
DOD_API dod_status dod_csr_view_open(dod_csr_view *view, const void *buf, size_t size,
                                     dod_csr_view_validate level);

/* Row access as for dod_csr; `row` must be < n_rows (unchecked). */
static inline uint32_t dod_csr_view_row_len(const dod_csr_view *v, uint32_t row)
{
    return v->offsets[row + 1] - v->offsets[row];
}

static inline const uint32_t *dod_csr_view_row_begin(const dod_csr_view *v, uint32_t row)
{
    return v->items + v->offsets[row];
}

static inline const uint32_t *dod_csr_view_row_end(const dod_csr_view *v, uint32_t row)
{
    return v->items + v->offsets[row + 1];
}

#ifdef __cplusplus
}
#endif

#endif /* DOD_CSR_VIEW_H */
