/* dod/csr_io.h: saving and loading a jagged index (the format: docs/format.md).
 *
 * A saved index is one self-describing image: a 64-byte header, the offsets, the items, each
 * section 64-byte aligned, and a 64-byte trailer holding the items' exclusive upper bound and a
 * CRC-32C of every byte before it. Little-endian on disk on every host. The bytes written to a
 * FILE* and to memory are identical.
 *
 * Loading treats its input as untrusted and checks everything before the index changes: the
 * magic, version, widths, sizes (overflow-checked) and header CRC, the exact length, the CRC
 * of the whole image, zero padding, offsets[0] == 0, offsets never decreasing,
 * offsets[n_rows] == n_items and every item below the stored bound. There is no unchecked
 * load: the O(1) trusted path is a view (dod/csr_view.h) over bytes you read yourself.
 *
 * Thread safety: saving reads the index (other readers may run alongside); loading needs the
 * target index exclusively. */
#ifndef DOD_CSR_IO_H
#define DOD_CSR_IO_H

#include <dod/csr.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes dod_csr_save / dod_csr_save_mem write for this index: 192 plus the offsets and the
 * items each rounded up to 64 bytes. 0 when csr is NULL. */
DOD_API size_t dod_csr_saved_size(const dod_csr *csr);

/* Write the index to f at its current position: exactly dod_csr_saved_size(csr) bytes, in
 * pieces straight from the index (a big-endian host converts through a 4 KiB stack buffer);
 * allocates nothing.
 * Errors: DOD_E_INVALID (csr or f NULL), DOD_E_CORRUPT (the index breaks its invariants:
 * offsets[0] != 0 or offsets[n_rows] != n_items; nothing written), DOD_E_IO (a write came up
 * short; how much reached f is then unknown). Errors the stream reports later, at fflush or
 * fclose, are the caller's to check. */
DOD_API dod_status dod_csr_save(const dod_csr *csr, FILE *f);

/* The same bytes into buf. Errors, buf untouched: DOD_E_INVALID (csr or buf NULL),
 * DOD_E_RANGE (size < dod_csr_saved_size(csr)), DOD_E_CORRUPT (as for dod_csr_save). */
DOD_API dod_status dod_csr_save_mem(const dod_csr *csr, void *buf, size_t size);

/* Replace the index with exactly one saved index read from f's current position; on success
 * the stream is left just after it (so several indexes can follow one another in a stream).
 *
 * A seekable stream is measured first: a header claiming more bytes than remain is refused
 * before anything is allocated. The data is then read, checksummed and checked in 256 KiB
 * steps into memory the live arrays do not use: the spare offsets (or a new row block) and a
 * new items block when the held one is too small; the held items block itself when the index
 * has no items to lose (new or cleared with dod_csr_clear: the fastest load); else the scratch
 * area the items block keeps after the items, copied into place once everything has passed.
 * So a steady-state load allocates nothing; replacing items costs one more copy of them and
 * an items block with room for a second copy (dod_csr_bytes counts it, dod_csr_shrink gives
 * it back). A stream that cannot seek (a pipe) is read into a staging buffer that grows only
 * as bytes actually arrive (at most about 3x the bytes received are ever allocated) and is
 * then loaded as by dod_csr_load_mem.
 *
 * Errors, each leaving the index exactly as it was: DOD_E_INVALID (csr or f NULL),
 * DOD_E_CORRUPT (any check above fails, including a stream that ends early or a seekable one
 * shorter than the header says), DOD_E_OVERFLOW (a stream whose header describes an index
 * this host's size_t cannot hold: only on 32-bit hosts), DOD_E_IO (a read error the stream
 * reports), DOD_E_NOMEM. After an error the stream position is unspecified. */
DOD_API dod_status dod_csr_load(dod_csr *csr, FILE *f);

/* Replace the index with the one saved in buf, which must hold exactly one saved index
 * (size == its saved size). The image is validated in place first, then copied into the
 * capacity the index holds: a load that fits allocates nothing.
 * Errors (index unchanged): DOD_E_INVALID (csr or buf NULL), DOD_E_CORRUPT (also a header
 * claiming a size other than `size`, on every host), DOD_E_NOMEM. */
DOD_API dod_status dod_csr_load_mem(dod_csr *csr, const void *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* DOD_CSR_IO_H */
