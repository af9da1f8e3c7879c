/* Saving and loading an index: one writer and one reader loop over a FILE* or memory, so both
 * produce and accept the same bytes. */
#include <dod/csr_io.h>
#include "crc32c.h"
#include "csr_format.h"
#include "csr_storage.h"
#include "internal.h"

static const unsigned char zeros[64];

/* ---- writing ---- */

typedef struct sink {
    FILE *f;          /* NULL: memory */
    unsigned char *p; /* memory cursor */
    uint32_t crc;     /* of everything written so far */
} sink;

static dod_status put(sink *s, const void *data, size_t n)
{
    s->crc = dod__crc32c(s->crc, data, n);
    if (s->f)
        return fwrite(data, 1, n, s->f) == n ? DOD_OK : DOD__FAIL(DOD_E_IO, "short fwrite");
    memcpy(s->p, data, n);
    s->p += n;
    return DOD_OK;
}

/* Write n host-order words in pieces, converting when the host is big-endian; the items also
 * feed `scan` for their maximum. */
static dod_status put_words(sink *s, const uint32_t *v, size_t n, dod__csr_scan *scan)
{
    const size_t step = DOD__FILE_CHUNK_BYTES / 4;
    const int swap = dod__file_swapping();
    for (size_t done = 0; done < n;) {
        size_t m = n - done < step ? n - done : step;
        if (scan)
            dod__csr_scan_items(scan, v + done, m);
        if (!swap) {
            dod_status st = put(s, v + done, m * 4);
            if (st != DOD_OK)
                return st;
        } else {
            uint32_t tmp[1024];
            for (size_t k = 0; k < m;) {
                size_t c = m - k < 1024 ? m - k : 1024;
                dod__file_swap(tmp, v + done + k, c, 4);
                dod_status st = put(s, tmp, c * 4);
                if (st != DOD_OK)
                    return st;
                k += c;
            }
        }
        done += m;
    }
    return DOD_OK;
}

static dod_status check_savable(const dod_csr *csr, dod__csr_layout *l)
{
    if (csr->offsets) {
        DOD__REFUSE_IF(csr->offsets[0] != 0, DOD_E_CORRUPT);
        DOD__REFUSE_IF(csr->offsets[csr->n_rows] != csr->n_items, DOD_E_CORRUPT);
        DOD__REFUSE_IF(csr->n_items > 0 && !csr->items, DOD_E_CORRUPT);
    } else {
        DOD__REFUSE_IF(csr->n_rows != 0 || csr->n_items != 0, DOD_E_CORRUPT);
    }
    return dod__csr_layout_for(csr->n_rows, csr->n_items, l);
}

static dod_status write_index(const dod_csr *csr, const dod__csr_layout *l, sink *s)
{
    unsigned char block[64];
    dod__csr_header_encode(l, block);
    dod_status st = put(s, block, sizeof block);
    const uint32_t first_offset[1] = { 0 };
    const size_t off_end = DOD__CSR_HEADER_BYTES + ((size_t)l->n_rows + 1) * 4;
    const size_t items_end = (size_t)l->items_pos + (size_t)l->n_items * 4;
    dod__csr_scan scan;
    dod__csr_scan_init(&scan);
    if (st == DOD_OK)
        st = put_words(s, csr->offsets ? csr->offsets : first_offset, (size_t)l->n_rows + 1, NULL);
    if (st == DOD_OK)
        st = put(s, zeros, (size_t)l->items_pos - off_end);
    if (st == DOD_OK)
        st = put_words(s, csr->items, l->n_items, &scan);
    if (st == DOD_OK)
        st = put(s, zeros, (size_t)l->trailer_pos - items_end);
    if (st != DOD_OK)
        return st;
    dod__file_trailer_encode(dod__csr_scan_bound(&scan), s->crc, block);
    return put(s, block, sizeof block);
}

size_t dod_csr_saved_size(const dod_csr *csr)
{
    dod__csr_layout l;
    if (!csr || dod__csr_layout_for(csr->n_rows, csr->n_items, &l) != DOD_OK)
        return 0;
    return (size_t)l.file_bytes;
}

dod_status dod_csr_save(const dod_csr *csr, FILE *f)
{
    DOD__REFUSE_IF(!csr, DOD_E_INVALID);
    DOD__REFUSE_IF(!f, DOD_E_INVALID);
    dod__csr_layout l;
    dod_status st = check_savable(csr, &l);
    if (st != DOD_OK)
        return st;
    sink s = { f, NULL, 0 };
    return write_index(csr, &l, &s);
}

dod_status dod_csr_save_mem(const dod_csr *csr, void *buf, size_t size)
{
    DOD__REFUSE_IF(!csr, DOD_E_INVALID);
    DOD__REFUSE_IF(!buf, DOD_E_INVALID);
    dod__csr_layout l;
    dod_status st = check_savable(csr, &l);
    if (st != DOD_OK)
        return st;
    DOD__REFUSE_IF(size < l.file_bytes, DOD_E_RANGE);
    sink s = { NULL, (unsigned char *)buf, 0 };
    return write_index(csr, &l, &s);
}

/* ---- loading ---- */

dod_status dod_csr_load_mem(dod_csr *csr, const void *buf, size_t size)
{
    DOD__REFUSE_IF(!csr, DOD_E_INVALID);
    DOD__REFUSE_IF(!buf, DOD_E_INVALID);
    const unsigned char *b = (const unsigned char *)buf;
    dod__csr_layout l;
    uint64_t stored_bound, bound;
    dod_status st = dod__csr_validate_image(b, size, &l, &stored_bound, &bound);
    if (st != DOD_OK)
        return st;
    /* Validated: nothing below can fail but the allocation, so writing into the held items
     * block (what dod__csr_next_items gives when it fits) is safe. */
    dod__csr_blocks fresh;
    st = dod__csr_prepare(csr, l.n_rows, l.n_items, 0, &fresh);
    if (st != DOD_OK)
        return st;
    uint32_t *offsets = dod__csr_next_offsets(csr, &fresh);
    uint32_t *items = dod__csr_next_items(csr, &fresh);
    memcpy(offsets, b + DOD__CSR_HEADER_BYTES, ((size_t)l.n_rows + 1) * 4);
    memcpy(items, b + l.items_pos, (size_t)l.n_items * 4);
    if (dod__file_swapping()) {
        dod__file_swap(offsets, offsets, (size_t)l.n_rows + 1, 4);
        dod__file_swap(items, items, l.n_items, 4);
    }
    dod__csr_commit(csr, &fresh, l.n_rows, l.n_items);
    csr->item_bound = bound;
    return DOD_OK;
}

/* Read n words into dst in pieces: checksum the disk bytes, convert, check. */
static dod_status read_words(FILE *f, uint32_t *dst, size_t n, int is_offsets, uint32_t *crc,
                             dod__csr_scan *scan)
{
    const size_t step = DOD__FILE_CHUNK_BYTES / 4;
    const int swap = dod__file_swapping();
    for (size_t done = 0; done < n;) {
        size_t m = n - done < step ? n - done : step;
        dod_status st = dod__file_read_exact(f, dst + done, m * 4);
        if (st != DOD_OK)
            return st;
        *crc = dod__crc32c(*crc, dst + done, m * 4);
        if (swap)
            dod__file_swap(dst + done, dst + done, m, 4);
        if (is_offsets)
            dod__csr_scan_offsets(scan, dst + done, m, done == 0);
        else
            dod__csr_scan_items(scan, dst + done, m);
        done += m;
    }
    return DOD_OK;
}

static dod_status read_padding(FILE *f, size_t n, uint32_t *crc)
{
    unsigned char pad[64];
    dod_status st = dod__file_read_exact(f, pad, n);
    if (st != DOD_OK)
        return st;
    *crc = dod__crc32c(*crc, pad, n);
    DOD__REFUSE_IF(!dod__file_all_zero(pad, n), DOD_E_CORRUPT);
    return DOD_OK;
}

static dod_status read_body(FILE *f, const dod__csr_layout *l, uint32_t *offsets,
                            uint32_t *items, uint32_t crc, uint64_t *max_bound)
{
    dod__csr_scan scan;
    dod__csr_scan_init(&scan);
    const size_t off_end = DOD__CSR_HEADER_BYTES + ((size_t)l->n_rows + 1) * 4;
    const size_t items_end = (size_t)l->items_pos + (size_t)l->n_items * 4;
    dod_status st = read_words(f, offsets, (size_t)l->n_rows + 1, 1, &crc, &scan);
    if (st == DOD_OK)
        st = read_padding(f, (size_t)l->items_pos - off_end, &crc);
    if (st == DOD_OK)
        st = read_words(f, items, l->n_items, 0, &crc, &scan);
    if (st == DOD_OK)
        st = read_padding(f, (size_t)l->trailer_pos - items_end, &crc);
    unsigned char trailer[DOD__FILE_TRAILER_BYTES];
    if (st == DOD_OK)
        st = dod__file_read_exact(f, trailer, sizeof trailer);
    uint64_t bound = 0;
    if (st == DOD_OK)
        st = dod__csr_trailer_decode(trailer, crc, &bound);
    *max_bound = dod__csr_scan_bound(&scan);
    return st == DOD_OK ? dod__csr_scan_finish(&scan, l->n_items, bound) : st;
}

/* A seekable stream whose remaining length covers the claim. Nothing unverified may reach the
 * live arrays, so the offsets go to the spare half (or a fresh row block) and the items to a
 * fresh items block when one is needed anyway, or straight into the held one when the index
 * has no items to lose, else to the held block's scratch area (sized for the items), copied
 * into place once everything has passed. A steady-state load allocates nothing. */
static dod_status load_direct(dod_csr *csr, FILE *f, const unsigned char *header,
                              const dod__csr_layout *l)
{
    const int in_place = csr->n_items == 0;
    dod__csr_blocks fresh;
    dod_status st = dod__csr_prepare(csr, l->n_rows, l->n_items,
                                     in_place ? 0 : (size_t)l->n_items * 4, &fresh);
    if (st != DOD_OK)
        return st;
    uint32_t *items = dod__csr_next_items(csr, &fresh);
    uint32_t *stage =
        fresh.items || in_place ? items : (uint32_t *)dod__csr_next_scratch(csr, &fresh);
    uint64_t bound = 0;
    st = read_body(f, l, dod__csr_next_offsets(csr, &fresh), stage,
                   dod__crc32c(0, header, DOD__CSR_HEADER_BYTES), &bound);
    if (st != DOD_OK) {
        dod__csr_discard(csr, &fresh);
        return st;
    }
    if (stage != items && l->n_items > 0)
        memcpy(items, stage, (size_t)l->n_items * 4);
    dod__csr_commit(csr, &fresh, l->n_rows, l->n_items);
    csr->item_bound = bound;
    return DOD_OK;
}

/* A stream that cannot seek: stage the bytes in a buffer that doubles only when full, so a
 * lying header costs at most about three times the bytes that really arrived. */
static dod_status load_staged(dod_csr *csr, FILE *f, const unsigned char *header,
                              const dod__csr_layout *l)
{
    unsigned char *buf;
    size_t cap;
    dod_status st = dod__file_read_staged(f, &csr->alloc, header, DOD__CSR_HEADER_BYTES,
                                          (size_t)l->file_bytes, 0, &buf, &cap);
    if (st != DOD_OK)
        return st;
    st = dod_csr_load_mem(csr, buf, (size_t)l->file_bytes);
    dod__free(&csr->alloc, buf, cap);
    return st;
}

dod_status dod_csr_load(dod_csr *csr, FILE *f)
{
    DOD__REFUSE_IF(!csr, DOD_E_INVALID);
    DOD__REFUSE_IF(!f, DOD_E_INVALID);
    long left = dod__file_remaining(f); /* measured first: seeking discards what stdio buffered */
    unsigned char header[DOD__CSR_HEADER_BYTES];
    dod_status st = dod__file_read_exact(f, header, sizeof header);
    if (st != DOD_OK)
        return st;
    dod__csr_layout l;
    st = dod__csr_header_decode(header, &l);
    if (st != DOD_OK)
        return st;
    DOD__REFUSE_IF(left >= 0 && (uint64_t)left < l.file_bytes, DOD_E_CORRUPT);
    DOD__REFUSE_IF(l.file_bytes > SIZE_MAX, DOD_E_OVERFLOW); /* real, but too big for this host */
    return left < 0 ? load_staged(csr, f, header, &l) : load_direct(csr, f, header, &l);
}
