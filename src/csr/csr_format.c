/* The saved-index format: layout, header and trailer fields, and the checks a load runs. */
#include "csr_format.h"
#include "crc32c.h"
#include "internal.h"

static const unsigned char header_magic[8] = { 0x89, 'D', 'O', 'D', 'C', 'S', 'R', '\n' };

static uint64_t align64(uint64_t n)
{
    return (n + 63u) & ~(uint64_t)63u;
}

dod__csr_layout dod__csr_layout_of(uint32_t n_rows, uint32_t n_items)
{
    dod__csr_layout l;
    l.n_rows = n_rows;
    l.n_items = n_items;
    /* Every term is below 2^35, so the u64 sums cannot overflow. */
    l.items_pos = align64(DOD__CSR_HEADER_BYTES + ((uint64_t)n_rows + 1) * 4u);
    l.trailer_pos = align64(l.items_pos + (uint64_t)n_items * 4u);
    l.file_bytes = l.trailer_pos + DOD__FILE_TRAILER_BYTES;
    return l;
}

dod_status dod__csr_layout_for(uint32_t n_rows, uint32_t n_items, dod__csr_layout *out)
{
    DOD__REFUSE_IF(n_rows == UINT32_MAX, DOD_E_OVERFLOW);
    dod__csr_layout l = dod__csr_layout_of(n_rows, n_items);
    DOD__REFUSE_IF(l.file_bytes > SIZE_MAX, DOD_E_OVERFLOW);
    *out = l;
    return DOD_OK;
}

void dod__csr_header_encode(const dod__csr_layout *l, unsigned char out[DOD__CSR_HEADER_BYTES])
{
    memset(out, 0, DOD__CSR_HEADER_BYTES);
    memcpy(out, header_magic, sizeof header_magic);
    dod__put_le32(out + 8, DOD__CSR_VERSION);
    dod__put_le32(out + 12, 0); /* flags */
    dod__put_le32(out + 16, DOD__CSR_HEADER_BYTES);
    dod__put_le32(out + 20, 4); /* offset width */
    dod__put_le32(out + 24, 4); /* item width */
    dod__put_le32(out + 28, l->n_rows);
    dod__put_le32(out + 32, l->n_items);
    dod__put_le64(out + 40, l->items_pos);
    dod__put_le64(out + 48, l->trailer_pos);
    dod__put_le32(out + 60, dod__crc32c(0, out, 60));
}

dod_status dod__csr_header_decode(const unsigned char in[DOD__CSR_HEADER_BYTES],
                                  dod__csr_layout *out)
{
    DOD__REFUSE_IF(memcmp(in, header_magic, sizeof header_magic) != 0, DOD_E_CORRUPT);
    DOD__REFUSE_IF(dod__get_le32(in + 60) != dod__crc32c(0, in, 60), DOD_E_CORRUPT);
    DOD__REFUSE_IF(dod__get_le32(in + 8) != DOD__CSR_VERSION, DOD_E_CORRUPT);
    DOD__REFUSE_IF(dod__get_le32(in + 12) != 0, DOD_E_CORRUPT);
    DOD__REFUSE_IF(dod__get_le32(in + 16) != DOD__CSR_HEADER_BYTES, DOD_E_CORRUPT);
    DOD__REFUSE_IF(dod__get_le32(in + 20) != 4, DOD_E_CORRUPT);
    DOD__REFUSE_IF(dod__get_le32(in + 24) != 4, DOD_E_CORRUPT);
    DOD__REFUSE_IF(dod__get_le32(in + 36) != 0, DOD_E_CORRUPT);
    DOD__REFUSE_IF(dod__get_le32(in + 56) != 0, DOD_E_CORRUPT);
    uint32_t n_rows = dod__get_le32(in + 28);
    DOD__REFUSE_IF(n_rows == UINT32_MAX, DOD_E_CORRUPT);
    dod__csr_layout l = dod__csr_layout_of(n_rows, dod__get_le32(in + 32));
    DOD__REFUSE_IF(dod__get_le64(in + 40) != l.items_pos, DOD_E_CORRUPT);
    DOD__REFUSE_IF(dod__get_le64(in + 48) != l.trailer_pos, DOD_E_CORRUPT);
    *out = l;
    return DOD_OK;
}

dod_status dod__csr_trailer_decode(const unsigned char in[DOD__FILE_TRAILER_BYTES],
                                   uint32_t crc_before_trailer, uint64_t *item_bound)
{
    dod_status st = dod__file_trailer_decode(in, crc_before_trailer, item_bound);
    if (st != DOD_OK)
        return st;
    DOD__REFUSE_IF(*item_bound > ((uint64_t)1 << 32), DOD_E_CORRUPT);
    return DOD_OK;
}

void dod__csr_scan_init(dod__csr_scan *s)
{
    s->prev_offset = 0;
    s->max_item = 0;
    s->bad = 0;
    s->any_item = 0;
}

/* Branch-free so the compiler vectorises it: 1 when some o[i] < o[i - 1] (or o[0] < prev). */
static int decreases(const uint32_t *restrict o, size_t n, uint32_t prev)
{
    int bad = o[0] < prev;
    for (size_t i = 1; i < n; ++i)
        bad |= o[i] < o[i - 1];
    return bad;
}

static inline uint32_t max_loop(const uint32_t *restrict p, size_t n, uint32_t m)
{
    for (size_t i = 0; i < n; ++i)
        m = p[i] > m ? p[i] : m;
    return m;
}

/* Baseline x86-64 (SSE2) has no unsigned 32-bit max, so the loop above stays scalar there; the
 * same loop compiled for AVX2 is vectorised (vpmaxud) and chosen when the CPU has it. */
#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2"))) static uint32_t max_avx2(const uint32_t *restrict p, size_t n,
                                                         uint32_t m)
{
    return max_loop(p, n, m);
}

static uint32_t max_of(const uint32_t *restrict p, size_t n, uint32_t m)
{
    return __builtin_cpu_supports("avx2") ? max_avx2(p, n, m) : max_loop(p, n, m);
}
#else
static uint32_t max_of(const uint32_t *restrict p, size_t n, uint32_t m)
{
    return max_loop(p, n, m);
}
#endif

void dod__csr_scan_offsets(dod__csr_scan *s, const uint32_t *o, size_t n, int first)
{
    if (n == 0)
        return;
    if (first && o[0] != 0)
        s->bad = 1;
    s->bad |= decreases(o, n, s->prev_offset);
    s->prev_offset = o[n - 1];
}

void dod__csr_scan_items(dod__csr_scan *s, const uint32_t *items, size_t n)
{
    if (n == 0)
        return;
    s->max_item = max_of(items, n, s->max_item);
    s->any_item = 1;
}

dod_status dod__csr_scan_finish(const dod__csr_scan *s, uint32_t n_items, uint64_t item_bound)
{
    DOD__REFUSE_IF(s->bad, DOD_E_CORRUPT);
    DOD__REFUSE_IF(s->prev_offset != n_items, DOD_E_CORRUPT);
    DOD__REFUSE_IF(dod__csr_scan_bound(s) > item_bound, DOD_E_CORRUPT);
    return DOD_OK;
}

/* Checksum and check one array of the image, piece by piece while each piece is in cache. */
static void scan_array(const unsigned char *p, size_t count, int is_offsets, int swap,
                       uint32_t *crc, dod__csr_scan *s)
{
    uint32_t tmp[1024];
    const size_t step = DOD__FILE_CHUNK_BYTES / 4;
    for (size_t done = 0; done < count;) {
        size_t n = count - done < step ? count - done : step;
        *crc = dod__crc32c(*crc, p + done * 4, n * 4);
        for (size_t k = 0; k < n;) { /* convert (when swapping) into a small aligned buffer */
            size_t m = n - k < 1024 ? n - k : 1024;
            const unsigned char *src = p + (done + k) * 4;
            const uint32_t *vals = (const uint32_t *)(const void *)src;
            if (swap || ((uintptr_t)src & 3) != 0) {
                memcpy(tmp, src, m * 4);
                if (swap)
                    dod__file_swap(tmp, tmp, m, 4);
                vals = tmp;
            }
            if (is_offsets)
                dod__csr_scan_offsets(s, vals, m, done + k == 0);
            else
                dod__csr_scan_items(s, vals, m);
            k += m;
        }
        done += n;
    }
}

uint64_t dod__csr_scan_bound(const dod__csr_scan *s)
{
    return s->any_item ? (uint64_t)s->max_item + 1 : 0;
}

dod_status dod__csr_validate_image(const unsigned char *buf, size_t size, dod__csr_layout *l,
                                   uint64_t *item_bound, uint64_t *max_bound)
{
    DOD__REFUSE_IF(size < DOD__CSR_HEADER_BYTES, DOD_E_CORRUPT);
    dod_status st = dod__csr_header_decode(buf, l);
    if (st != DOD_OK)
        return st;
    DOD__REFUSE_IF(l->file_bytes != size, DOD_E_CORRUPT);
    const int swap = dod__file_swapping();
    const size_t off_end = DOD__CSR_HEADER_BYTES + ((size_t)l->n_rows + 1) * 4;
    const size_t items_end = (size_t)l->items_pos + (size_t)l->n_items * 4;
    DOD__REFUSE_IF(!dod__file_all_zero(buf + off_end, (size_t)l->items_pos - off_end),
                   DOD_E_CORRUPT);
    DOD__REFUSE_IF(!dod__file_all_zero(buf + items_end, (size_t)l->trailer_pos - items_end),
                   DOD_E_CORRUPT);
    uint32_t crc = dod__crc32c(0, buf, DOD__CSR_HEADER_BYTES);
    dod__csr_scan s;
    dod__csr_scan_init(&s);
    scan_array(buf + DOD__CSR_HEADER_BYTES, (size_t)l->n_rows + 1, 1, swap, &crc, &s);
    crc = dod__crc32c(crc, buf + off_end, (size_t)l->items_pos - off_end);
    scan_array(buf + l->items_pos, l->n_items, 0, swap, &crc, &s);
    crc = dod__crc32c(crc, buf + items_end, (size_t)l->trailer_pos - items_end);
    st = dod__csr_trailer_decode(buf + l->trailer_pos, crc, item_bound);
    if (st != DOD_OK)
        return st;
    *max_bound = dod__csr_scan_bound(&s);
    return dod__csr_scan_finish(&s, l->n_items, *item_bound);
}
