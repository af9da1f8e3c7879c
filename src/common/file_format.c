/* What every dod file shares: byte swaps, padding, the trailer and checked stream reads. */
#include "file_format.h"
#include "crc32c.h"
#include "internal.h"

static const unsigned char trailer_magic[8] = { 0x89, 'D', 'O', 'D', 'E', 'N', 'D', '\n' };

#ifdef DOD_TEST_SEAMS
int dod__file_force_swap = 0;
#  define FORCED_SWAP (dod__file_force_swap != 0)
#else
#  define FORCED_SWAP 0
#endif

static int host_is_big_endian(void)
{
    const uint32_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 0;
}

int dod__file_swapping(void)
{
    return host_is_big_endian() ^ FORCED_SWAP;
}

void dod__file_swap(void *dst, const void *src, size_t n, size_t word)
{
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    switch (word) {
    case 2:
        for (size_t i = 0; i < n; ++i) {
            uint16_t v;
            memcpy(&v, s + 2 * i, 2);
            v = dod__bswap16(v);
            memcpy(d + 2 * i, &v, 2);
        }
        return;
    case 4:
        for (size_t i = 0; i < n; ++i) {
            uint32_t v;
            memcpy(&v, s + 4 * i, 4);
            v = dod__bswap32(v);
            memcpy(d + 4 * i, &v, 4);
        }
        return;
    case 8:
        for (size_t i = 0; i < n; ++i) {
            uint64_t v;
            memcpy(&v, s + 8 * i, 8);
            v = dod__bswap64(v);
            memcpy(d + 8 * i, &v, 8);
        }
        return;
    default:
        DOD_ASSERT(word == 1);
        if (d != s)
            memmove(d, s, n);
        return;
    }
}

int dod__file_all_zero(const unsigned char *p, size_t n)
{
    unsigned char acc = 0;
    for (size_t i = 0; i < n; ++i)
        acc |= p[i];
    return acc == 0;
}

void dod__file_trailer_encode(uint64_t value, uint32_t crc_before,
                              unsigned char out[DOD__FILE_TRAILER_BYTES])
{
    memset(out, 0, DOD__FILE_TRAILER_BYTES);
    memcpy(out, trailer_magic, sizeof trailer_magic);
    dod__put_le64(out + 8, value);
    dod__put_le32(out + 60, dod__crc32c(crc_before, out, 60));
}

int dod__file_trailer_magic_ok(const unsigned char *p)
{
    return memcmp(p, trailer_magic, sizeof trailer_magic) == 0;
}

dod_status dod__file_trailer_decode(const unsigned char in[DOD__FILE_TRAILER_BYTES],
                                    uint32_t crc_before, uint64_t *value)
{
    DOD__REFUSE_IF(dod__get_le32(in + 60) != dod__crc32c(crc_before, in, 60), DOD_E_CORRUPT);
    DOD__REFUSE_IF(!dod__file_trailer_magic_ok(in), DOD_E_CORRUPT);
    DOD__REFUSE_IF(!dod__file_all_zero(in + 16, 44), DOD_E_CORRUPT);
    *value = dod__get_le64(in + 8);
    return DOD_OK;
}

dod_status dod__file_read_exact(FILE *f, void *dst, size_t n)
{
    if (fread(dst, 1, n, f) == n)
        return DOD_OK;
    return ferror(f) ? DOD__FAIL(DOD_E_IO, "fread error")
                     : DOD__FAIL(DOD_E_CORRUPT, "stream ended early");
}

long dod__file_remaining(FILE *f)
{
    long pos = ftell(f);
    if (pos < 0 || fseek(f, 0, SEEK_END) != 0)
        return -1;
    long end = ftell(f);
    if (fseek(f, pos, SEEK_SET) != 0 || end < pos)
        return -1;
    return end - pos;
}

dod_status dod__file_read_staged(FILE *f, const dod_allocator *alloc, const unsigned char *head,
                                 size_t head_bytes, size_t total, int measured,
                                 unsigned char **out, size_t *out_cap)
{
    size_t cap = measured || total < 4096 ? total : 4096, have = head_bytes;
    if (cap < head_bytes)
        cap = head_bytes;
    unsigned char *buf = (unsigned char *)dod__alloc(alloc, cap);
    DOD__REFUSE_IF(!buf, DOD_E_NOMEM);
    memcpy(buf, head, head_bytes);
    dod_status st = DOD_OK;
    while (st == DOD_OK && have < total) {
        if (have == cap) {
            size_t grown = cap > total / 2 ? total : 2 * cap;
            unsigned char *bigger = (unsigned char *)dod__alloc(alloc, grown);
            if (!bigger) {
                st = DOD__FAIL(DOD_E_NOMEM, "growing the staging buffer");
                break;
            }
            memcpy(bigger, buf, have);
            dod__free(alloc, buf, cap);
            buf = bigger;
            cap = grown;
        }
        size_t got = fread(buf + have, 1, cap - have, f);
        have += got;
        if (got == 0)
            st = ferror(f) ? DOD__FAIL(DOD_E_IO, "fread error")
                           : DOD__FAIL(DOD_E_CORRUPT, "stream ended early");
    }
    if (st != DOD_OK) {
        dod__free(alloc, buf, cap);
        return st;
    }
    *out = buf;
    *out_cap = cap;
    return DOD_OK;
}
