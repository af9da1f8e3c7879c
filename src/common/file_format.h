/* What every dod file shares (the saved index, docs/format.md, and the world file): fields
 * little-endian on every host, the byte swaps a big-endian host makes, the 64-byte trailer
 * with the CRC-32C of everything before it, and the checked reads from a FILE*. Not installed.
 * Only the library's file code includes it (src/csr/csr_*.c, src/world/world_file*.c). */
#ifndef DOD_FILE_FORMAT_H
#define DOD_FILE_FORMAT_H

#include <dod/base.h>
#include <stdio.h>

/* The trailer closing every file: magic, a 64-bit value of the format's choosing (the saved
 * index: its item bound; the world file: its live entities), zeros, and at bytes 60..63 the
 * CRC-32C of every file byte before the trailer chained over trailer bytes 0..59. */
#define DOD__FILE_TRAILER_BYTES 64
/* Bytes handled per step when loading (read, checksum, check) and when saving (convert,
 * checksum, write): small enough to stay in cache between the passes, large enough that the
 * system calls do not show (each write() or read() costs a few microseconds on the VM, and
 * stdio makes two of a large one). Measured on the 2-core AMD EPYC dev machine (512 KiB L2
 * per core) saving the world at 1M entities to tmpfs: 1 MiB steps 1.20 - 1.22x the raw
 * fwrite, 256 KiB 1.24 - 1.26x (with the folding CRC-32C; before it, 64 KiB was 1.22x and
 * 256 KiB 1.18x of an index save). */
#define DOD__FILE_CHUNK_BYTES 1048576

/* ---- little-endian fields, on any host and any alignment ---- */

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

/* ---- byte order of the bulk arrays ---- */

/* Test hook: when set, the bulk arrays are converted as a big-endian host converts them, so
 * the conversion paths run on any host. Not thread-safe; only tests set it. */
#ifdef DOD_TEST_SEAMS
extern int dod__file_force_swap;
#endif
/* 1 when the host (or the hook) byte-swaps the bulk arrays between memory and disk. */
int dod__file_swapping(void);

static inline uint16_t dod__bswap16(uint16_t v)
{
    return (uint16_t)(v >> 8 | v << 8);
}

static inline uint32_t dod__bswap32(uint32_t v)
{
    return (v >> 24) | ((v >> 8) & 0xFF00u) | ((v << 8) & 0xFF0000u) | (v << 24);
}

static inline uint64_t dod__bswap64(uint64_t v)
{
    return (uint64_t)dod__bswap32((uint32_t)v) << 32 | dod__bswap32((uint32_t)(v >> 32));
}

/* Byte-swap n words of `word` bytes (1: a copy; 2, 4 or 8) from src to dst; dst may equal src
 * (in place). Any alignment. */
void dod__file_swap(void *dst, const void *src, size_t n, size_t word);

/* 1 when n bytes at p are all zero (the padding). */
int dod__file_all_zero(const unsigned char *p, size_t n);

/* ---- the trailer ---- */

/* The trailer holding `value`; crc_before is the CRC-32C of every file byte before it. */
void dod__file_trailer_encode(uint64_t value, uint32_t crc_before,
                              unsigned char out[DOD__FILE_TRAILER_BYTES]);

/* 1 when the 8 bytes at p are the trailer's magic. */
int dod__file_trailer_magic_ok(const unsigned char *p);

/* Check the trailer's CRC (against crc_before chained over its bytes 0..59), magic and zero
 * bytes, and give its value. DOD_E_CORRUPT on any mismatch. */
dod_status dod__file_trailer_decode(const unsigned char in[DOD__FILE_TRAILER_BYTES],
                                    uint32_t crc_before, uint64_t *value);

/* ---- reading a FILE* ---- */

/* All n bytes or an error: DOD_E_IO when the stream reports one, DOD_E_CORRUPT when it ends
 * early (a truncated input). */
dod_status dod__file_read_exact(FILE *f, void *dst, size_t n);

/* Bytes left in a seekable stream from its position, or -1 when it cannot tell (a pipe, a
 * terminal). Measure before the first read: seeking discards what stdio buffered. */
long dod__file_remaining(FILE *f);

/* A whole file of `total` bytes whose first head_bytes (<= total) the caller already read into
 * `head`, read from f into one buffer from `alloc`: *buf (total bytes hold the file) and
 * *cap (its allocation's size, for dod__free). measured: the stream was measured to hold the
 * total (dod__file_remaining), so the buffer is allocated at once. Otherwise the stream may lie
 * about `total` (a pipe), so the buffer starts at 4 KiB and doubles only when bytes fill it: a
 * lie costs at most about three times the bytes that really arrived.
 * DOD_E_CORRUPT (the stream ended early), DOD_E_IO, DOD_E_NOMEM; nothing is held on failure. */
dod_status dod__file_read_staged(FILE *f, const dod_allocator *alloc, const unsigned char *head,
                                 size_t head_bytes, size_t total, int measured,
                                 unsigned char **buf, size_t *cap);

#endif /* DOD_FILE_FORMAT_H */
