/* Reordering the table: permute, stable radix sorts by a 4-byte key, comparator sort. */
#include "table_internal.h"

/* Gather one column: dst[i] = src[perm[i]], with fixed-size copies for the common sizes. */
static void gather4(uint32_t *restrict dst, const uint32_t *restrict src,
                    const uint32_t *restrict perm, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i)
        dst[i] = src[perm[i]];
}

static void gather8(uint64_t *restrict dst, const uint64_t *restrict src,
                    const uint32_t *restrict perm, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i)
        dst[i] = src[perm[i]];
}

static void permute_sized(unsigned char *restrict dst, const unsigned char *restrict src,
                         size_t size, const uint32_t *restrict perm, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i)
        memcpy(dst + (size_t)i * size, src + (size_t)perm[i] * size, size);
}

void dod__table_apply_perm(dod_table *t, const uint32_t *perm, void *scratch)
{
    for (uint32_t c = 0; c <= t->n_cols; ++c) {
        size_t size = dod__table_col_size(t, c);
        if (size == 4)
            gather4((uint32_t *)scratch, (const uint32_t *)t->col[c], perm, t->n_rows);
        else if (size == 8)
            gather8((uint64_t *)scratch, (const uint64_t *)t->col[c], perm, t->n_rows);
        else
            permute_sized((unsigned char *)scratch, (const unsigned char *)t->col[c], size, perm,
                         t->n_rows);
        memcpy(t->col[c], scratch, (size_t)t->n_rows * size);
    }
    const uint32_t *row_slot = dod__table_row_slot(t);
    for (uint32_t r = 0; r < t->n_rows; ++r)
        t->slots[row_slot[r]].index = r;
}

/* One scratch block: `head` bytes for the caller, then len * dod__table_max_size(t) bytes
 * (64-byte aligned) for dod__table_apply_perm. On failure nothing is allocated. */
static dod_status alloc_scratch(const dod_table *t, size_t head, void **scratch, size_t *bytes,
                                void **column_scratch)
{
    size_t col_bytes;
    DOD__REFUSE_IF(!dod__align_up(head, &head), DOD_E_OVERFLOW);
    DOD__REFUSE_IF(!dod__mul(t->n_rows, dod__table_max_size(t), &col_bytes), DOD_E_OVERFLOW);
    DOD__REFUSE_IF(!dod__add(head, col_bytes, bytes), DOD_E_OVERFLOW);
    *scratch = dod__alloc(&t->alloc, *bytes);
    DOD__REFUSE_IF(!*scratch, DOD_E_NOMEM);
    *column_scratch = (unsigned char *)*scratch + head;
    return DOD_OK;
}

dod_status dod_table_permute(dod_table *t, const uint32_t *perm)
{
    DOD__REFUSE_IF(!t, DOD_E_INVALID);
    DOD__REFUSE_IF(!perm && t->n_rows > 0, DOD_E_INVALID);
    for (uint32_t i = 0; i < t->n_rows; ++i)
        DOD__REFUSE_IF(perm[i] >= t->n_rows, DOD_E_RANGE);
    if (t->n_rows == 0)
        return DOD_OK;
    size_t words = ((size_t)t->n_rows + 63) / 64, bytes;
    void *scratch, *columns;
    dod_status st = alloc_scratch(t, words * sizeof(uint64_t), &scratch, &bytes, &columns);
    if (st != DOD_OK)
        return st;
    uint64_t *seen = (uint64_t *)scratch;
    memset(seen, 0, words * sizeof(uint64_t));
    int dup = 0;
    for (uint32_t i = 0; i < t->n_rows && !dup; ++i) {
        uint64_t bit = 1ull << (perm[i] % 64);
        dup = (seen[perm[i] / 64] & bit) != 0;
        seen[perm[i] / 64] |= bit;
    }
    if (!dup)
        dod__table_apply_perm(t, perm, columns);
    dod__free(&t->alloc, scratch, bytes);
    DOD__REFUSE_IF(dup, DOD_E_INVALID);
    return DOD_OK;
}

/* ---- radix sort of (key << 32 | row) pairs, least significant byte first ---- */

typedef enum key_kind { KEY_U32, KEY_I32, KEY_F32 } key_kind;

/* Map a key's bits to an unsigned integer with the same order. */
static inline uint32_t order_key(uint32_t k, key_kind kind)
{
    if (kind == KEY_I32)
        return k ^ 0x80000000u;
    if (kind == KEY_F32)
        return k ^ ((k & 0x80000000u) ? 0xFFFFFFFFu : 0x80000000u);
    return k;
}

static void load_keys(uint64_t *restrict pairs, const uint32_t *restrict keys, uint32_t n,
                      key_kind kind)
{
    for (uint32_t i = 0; i < n; ++i)
        pairs[i] = (uint64_t)order_key(keys[i], kind) << 32 | i;
}

static void count_digits(uint32_t (*restrict hist)[256], const uint64_t *restrict pairs,
                         uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t k = (uint32_t)(pairs[i] >> 32);
        hist[0][k & 0xFF]++;
        hist[1][(k >> 8) & 0xFF]++;
        hist[2][(k >> 16) & 0xFF]++;
        hist[3][k >> 24]++;
    }
}

static void scatter_digit(uint64_t *restrict dst, const uint64_t *restrict src, uint32_t n,
                          uint32_t *restrict cursor, unsigned shift)
{
    for (uint32_t i = 0; i < n; ++i) {
        uint64_t p = src[i];
        dst[cursor[(p >> shift) & 0xFF]++] = p;
    }
}

/* Sort pairs[0..n) by their upper half, stably; `tmp` is as large. Returns the buffer that
 * holds the result. Passes whose digit is the same in every key are skipped. */
static uint64_t *radix_pairs(uint64_t *pairs, uint64_t *tmp, uint32_t n)
{
    uint32_t hist[4][256];
    memset(hist, 0, sizeof hist);
    count_digits(hist, pairs, n);
    for (unsigned d = 0; d < 4; ++d) {
        uint32_t sum = 0, *h = hist[d];
        int trivial = 0;
        for (unsigned b = 0; b < 256; ++b) {
            uint32_t c = h[b];
            trivial |= c == n;
            h[b] = sum;
            sum += c;
        }
        if (trivial)
            continue;
        scatter_digit(tmp, pairs, n, h, 32 + 8 * d);
        uint64_t *x = pairs;
        pairs = tmp;
        tmp = x;
    }
    return pairs;
}

static void pairs_to_perm(uint32_t *restrict perm, const uint64_t *restrict pairs, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i)
        perm[i] = (uint32_t)pairs[i];
}

/* ---- large tables: bucket by the top byte first, so every later access stays local ----
 *
 * A plain sort ends in one gather per column whose reads are random over the whole column:
 * a cache (and TLB) miss a row. Past BUCKET_MIN_ROWS the sort instead scatters each column
 * by the key's top byte (sequential reads, 256 write streams), radix-sorts each bucket's
 * pairs by the low three bytes, and gathers inside the bucket, whose rows now sit together
 * (a 4M-row uniform column gives 62 KiB buckets, which stay in L2). Both steps are stable. */
#ifndef BUCKET_MIN_ROWS
#define BUCKET_MIN_ROWS 65536u
#endif

/* Scatter each row's transformed key to its top-byte bucket as (key << 32 | position), where
 * position is its index in bucket order; digit[i] keeps row i's bucket, starts[] the bucket
 * bounds (257 entries). */
static void bucket_keys(uint64_t *restrict out, uint8_t *restrict digit, uint32_t *restrict starts,
                        const uint32_t *restrict keys, uint32_t n, key_kind kind)
{
    uint32_t cursor[256];
    memset(cursor, 0, sizeof cursor);
    for (uint32_t i = 0; i < n; ++i) {
        uint8_t d = (uint8_t)(order_key(keys[i], kind) >> 24);
        digit[i] = d;
        cursor[d]++;
    }
    uint32_t sum = 0;
    for (unsigned b = 0; b < 256; ++b) {
        uint32_t c = cursor[b];
        starts[b] = cursor[b] = sum;
        sum += c;
    }
    starts[256] = n;
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t p = cursor[digit[i]]++;
        out[p] = (uint64_t)order_key(keys[i], kind) << 32 | p;
    }
}

static void scatter4(uint32_t *restrict dst, const uint32_t *restrict src,
                     const uint8_t *restrict digit, uint32_t *restrict cursor, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i)
        dst[cursor[digit[i]]++] = src[i];
}

static void scatter8(uint64_t *restrict dst, const uint64_t *restrict src,
                     const uint8_t *restrict digit, uint32_t *restrict cursor, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i)
        dst[cursor[digit[i]]++] = src[i];
}

static void scatter_bytes(unsigned char *restrict dst, const unsigned char *restrict src,
                          size_t size, const uint8_t *restrict digit, uint32_t *restrict cursor,
                          uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i)
        memcpy(dst + (size_t)cursor[digit[i]]++ * size, src + (size_t)i * size, size);
}

/* Move every column: scatter into scratch by bucket, gather back through pos (positions in
 * bucket order, each inside its own bucket); then patch the slots. */
static void apply_bucketed(dod_table *t, const uint8_t *digit, const uint32_t *starts,
                           const uint32_t *pos, void *scratch)
{
    for (uint32_t c = 0; c <= t->n_cols; ++c) {
        size_t size = dod__table_col_size(t, c);
        uint32_t cursor[256];
        memcpy(cursor, starts, sizeof cursor);
        if (size == 4) {
            scatter4((uint32_t *)scratch, (const uint32_t *)t->col[c], digit, cursor, t->n_rows);
            gather4((uint32_t *)t->col[c], (const uint32_t *)scratch, pos, t->n_rows);
        } else if (size == 8) {
            scatter8((uint64_t *)scratch, (const uint64_t *)t->col[c], digit, cursor, t->n_rows);
            gather8((uint64_t *)t->col[c], (const uint64_t *)scratch, pos, t->n_rows);
        } else {
            scatter_bytes((unsigned char *)scratch, (const unsigned char *)t->col[c], size,
                          digit, cursor, t->n_rows);
            permute_sized((unsigned char *)t->col[c], (const unsigned char *)scratch, size, pos,
                         t->n_rows);
        }
    }
    const uint32_t *row_slot = dod__table_row_slot(t);
    for (uint32_t r = 0; r < t->n_rows; ++r)
        t->slots[row_slot[r]].index = r;
}

static dod_status sort_key(dod_table *t, uint32_t col, key_kind kind)
{
    DOD__REFUSE_IF(!t, DOD_E_INVALID);
    DOD__REFUSE_IF(col >= t->n_cols, DOD_E_RANGE);
    DOD__REFUSE_IF(t->desc[col].size != 4, DOD_E_INVALID);
    if (t->n_rows < 2)
        return DOD_OK;
    /* Scratch: the pairs, their ping-pong buffer, the perm, a byte a row for the buckets,
     * then the column buffer (20 + 1 bytes a row plus len * the largest element). */
    uint32_t n = t->n_rows;
    size_t pair_bytes = (size_t)n * sizeof(uint64_t), bytes;
    void *scratch, *columns;
    dod_status st = alloc_scratch(t, 2 * pair_bytes + (size_t)n * (sizeof(uint32_t) + 1),
                                  &scratch, &bytes, &columns);
    if (st != DOD_OK)
        return st;
    uint64_t *a = (uint64_t *)scratch, *b = a + n;
    uint32_t *perm = (uint32_t *)(void *)(b + n);
    const uint32_t *keys = (const uint32_t *)t->col[col];
    if (n < BUCKET_MIN_ROWS) {
        load_keys(a, keys, n, kind);
        pairs_to_perm(perm, radix_pairs(a, b, n), n);
        dod__table_apply_perm(t, perm, columns);
    } else {
        uint8_t *digit = (uint8_t *)(perm + n);
        uint32_t starts[257];
        bucket_keys(a, digit, starts, keys, n, kind);
        for (unsigned d = 0; d < 256; ++d) {
            uint32_t lo = starts[d], len = starts[d + 1] - lo;
            if (len > 0)
                pairs_to_perm(perm + lo, radix_pairs(a + lo, b + lo, len), len);
        }
        apply_bucketed(t, digit, starts, perm, columns);
    }
    dod__free(&t->alloc, scratch, bytes);
    return DOD_OK;
}

dod_status dod_table_sort_u32(dod_table *t, uint32_t col)
{
    return sort_key(t, col, KEY_U32);
}

dod_status dod_table_sort_i32(dod_table *t, uint32_t col)
{
    return sort_key(t, col, KEY_I32);
}

dod_status dod_table_sort_f32(dod_table *t, uint32_t col)
{
    return sort_key(t, col, KEY_F32);
}

/* ---- stable merge sort of row numbers with a comparator ---- */

typedef struct cmp_ctx {
    const unsigned char *keys;
    size_t size;
    dod_table_cmp cmp;
    void *ctx;
} cmp_ctx;

static int row_before(const cmp_ctx *c, uint32_t a, uint32_t b)
{
    return c->cmp(c->keys + (size_t)a * c->size, c->keys + (size_t)b * c->size, c->ctx) < 0;
}

/* Insertion sort of runs of RUN rows, then merges of doubling width between src and dst.
 * Ties keep input order: the right element is taken only when strictly before the left. */
#define RUN 16
static uint32_t *merge_sort(const cmp_ctx *c, uint32_t *src, uint32_t *dst, uint32_t n)
{
    for (uint32_t lo = 0; lo < n; lo += RUN) {
        uint32_t hi = n - lo < RUN ? n : lo + RUN;
        for (uint32_t i = lo + 1; i < hi; ++i) {
            uint32_t v = src[i], j = i;
            while (j > lo && row_before(c, v, src[j - 1])) {
                src[j] = src[j - 1];
                --j;
            }
            src[j] = v;
        }
    }
    for (uint64_t width = RUN; width < n; width *= 2) {
        for (uint64_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = (uint32_t)(lo + width < n ? lo + width : n);
            uint32_t hi = (uint32_t)(lo + 2 * width < n ? lo + 2 * width : n);
            uint32_t i = (uint32_t)lo, j = mid, k = (uint32_t)lo;
            while (i < mid && j < hi)
                dst[k++] = row_before(c, src[j], src[i]) ? src[j++] : src[i++];
            while (i < mid)
                dst[k++] = src[i++];
            while (j < hi)
                dst[k++] = src[j++];
        }
        uint32_t *x = src;
        src = dst;
        dst = x;
    }
    return src;
}

dod_status dod_table_sort_by(dod_table *t, uint32_t col, dod_table_cmp cmp, void *ctx)
{
    DOD__REFUSE_IF(!t, DOD_E_INVALID);
    DOD__REFUSE_IF(!cmp, DOD_E_INVALID);
    DOD__REFUSE_IF(col >= t->n_cols, DOD_E_RANGE);
    if (t->n_rows < 2)
        return DOD_OK;
    size_t idx_bytes = (size_t)t->n_rows * sizeof(uint32_t), bytes;
    void *scratch, *columns;
    dod_status st = alloc_scratch(t, 2 * idx_bytes, &scratch, &bytes, &columns);
    if (st != DOD_OK)
        return st;
    uint32_t *a = (uint32_t *)scratch;
    for (uint32_t i = 0; i < t->n_rows; ++i)
        a[i] = i;
    cmp_ctx c;
    c.keys = (const unsigned char *)t->col[col];
    c.size = t->desc[col].size;
    c.cmp = cmp;
    c.ctx = ctx;
    const uint32_t *perm = merge_sort(&c, a, a + t->n_rows, t->n_rows);
    dod__table_apply_perm(t, perm, columns);
    dod__free(&t->alloc, scratch, bytes);
    return DOD_OK;
}
