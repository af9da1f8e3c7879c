/* Saved images of indexes, for the file tests (test_csr_io, test_csr_view, test_file_map):
 * aligned copies, a save into one, resealing after a deliberate edit, the edits that each
 * break one rule of the format, and what a view over an image gives on this host. */
#ifndef DOD_TEST_CSR_IMAGE_H
#define DOD_TEST_CSR_IMAGE_H

#include <dod/csr_io.h>
#include <dod/csr_view.h>
#include <string.h>
#include <stdlib.h>
#include "check.h"
#include "crc32c.h"
#include "csr_format.h"
#include "csr_model.h"

typedef struct image { unsigned char *bytes; size_t len; } image;

/* len bytes, 64-byte aligned (views need 4-byte alignment; file maps are page aligned); free
 * with test_aligned_free. */
static inline unsigned char *image_bytes(size_t len)
{
    return (unsigned char *)test_aligned_alloc(64, len + 1);
}

static inline image image_copy(const void *p, size_t len)
{
    image im;
    im.len = len;
    im.bytes = image_bytes(len);
    if (len)
        memcpy(im.bytes, p, len);
    return im;
}

static inline image save_image(const dod_csr *c)
{
    image im;
    im.len = dod_csr_saved_size(c);
    im.bytes = image_bytes(im.len);
    CHECK_OK(dod_csr_save_mem(c, im.bytes, im.len));
    return im;
}

/* Recompute both CRCs after a deliberate edit, so the semantic checks behind them are reached. */
static inline void reseal(unsigned char *b, size_t len)
{
    dod__put_le32(b + 60, dod__crc32c(0, b, 60));
    dod__put_le32(b + len - 4, dod__crc32c(0, b, len - 4));
}

/* ---- indexes to save ---- */

/* c rebuilt from n_items uniform keys below n_rows, `stride` bytes apart. */
static inline void build_random(dod_csr *c, test_rng *rng, uint32_t n_rows, uint32_t n_items,
                                size_t stride)
{
    unsigned char *keys = (unsigned char *)malloc((size_t)n_items * stride + 4);
    csr_model_keys(rng, CSR_KEYS_UNIFORM, n_rows, keys, stride, n_items);
    CHECK_OK(dod_csr_build(c, n_rows, keys, stride, n_items));
    free(keys);
}

/* Runs check over the shapes a saved index can have: never built, built empty, rows without
 * items, then n_random random ones (1 - 200 rows and up to 1500 items, every tenth up to 40000
 * rows and 100000 items) built from keys 4, 16 and 7 bytes apart in turn. */
static inline void for_each_index_shape(void (*check)(const dod_csr *), uint64_t seed,
                                        int n_random)
{
    static const size_t strides[] = { 4, 16, 7 };
    dod_csr idx;
    dod_csr_init(&idx, NULL);
    check(&idx); /* never built */
    CHECK_OK(dod_csr_build(&idx, 0, NULL, 4, 0));
    check(&idx); /* built empty */
    CHECK_OK(dod_csr_build(&idx, 7, NULL, 4, 0));
    check(&idx); /* rows, no items */
    test_rng rng = { seed };
    for (int iter = 0; iter < n_random; ++iter) {
        uint32_t n_rows = 1 + test_rng_below(&rng, iter % 10 == 0 ? 40000 : 200);
        uint32_t n_items = test_rng_below(&rng, iter % 10 == 0 ? 100000 : 1500);
        build_random(&idx, &rng, n_rows, n_items, strides[iter % 3]);
        check(&idx);
    }
    dod_csr_free(&idx);
}

/* ---- one rule broken at a time ---- */

/* The index the rule edits apply to: 3 rows, offsets 0 2 4 6, items 0 4 1 3 2 5; saved, its
 * trailer starts at byte 192. */
static inline void rule_index(dod_csr *c)
{
    const uint32_t keys[6] = { 0, 1, 2, 1, 0, 2 };
    CHECK_OK(dod_csr_build(c, 3, keys, 4, 6));
}

typedef struct rule_edit { size_t at; uint32_t value; int wide; } rule_edit;

/* Edits of rule_index's image that each break one rule behind the CRCs; *n gets their count. */
static inline const rule_edit *rule_edits(size_t *n)
{
    enum { T = 192 }; /* trailer_pos */
    static const rule_edit edits[] = {
        { 8, 2, 0 },        /* version */
        { 12, 1, 0 },       /* flags */
        { 16, 128, 0 },     /* header size */
        { 20, 8, 0 },       /* offset width */
        { 24, 2, 0 },       /* item width */
        { 36, 1, 0 },       /* reserved */
        { 56, 1, 0 },       /* reserved */
        { 40, 192, 1 },     /* items_pos disagrees with the counts */
        { 48, 256, 1 },     /* trailer_pos disagrees */
        { 64, 1, 0 },       /* offsets[0] != 0 */
        { 68, 5, 0 },       /* offsets decrease after it (5 then 4) */
        { 76, 5, 0 },       /* offsets[n_rows] != n_items */
        { 80, 7, 0 },       /* nonzero offsets padding */
        { 128, 6, 0 },      /* an item equal to the bound 6 */
        { 128 + 24, 1, 0 }, /* nonzero items padding */
        { T + 8, 5, 1 },    /* the bound below the largest item (5) */
        { T + 12, 1, 0 },   /* a bound above 2^32 */
        { T + 20, 1, 0 },   /* nonzero trailer bytes */
        { T, 0x41, 0 },     /* trailer magic */
        { 0, 0x41, 0 },     /* header magic */
        { 28, 0xFFFFFFFFu, 0 }, /* n_rows == UINT32_MAX cannot be an index */
    };
    *n = sizeof edits / sizeof edits[0];
    return edits;
}

/* A resealed copy of im with one edit applied. */
static inline image apply_edit(const image *im, const rule_edit *e)
{
    image x = image_copy(im->bytes, im->len);
    if (e->wide)
        dod__put_le64(x.bytes + e->at, e->value);
    else
        dod__put_le32(x.bytes + e->at, e->value);
    reseal(x.bytes, x.len);
    return x;
}

/* ---- headers that lie ---- */

/* The saved image of a 20-row, 60-item index (src gets the index). */
static inline image lying_source(dod_csr *src)
{
    test_rng rng = { 29 };
    build_random(src, &rng, 20, 60, 4);
    return save_image(src);
}

/* Copies of lying_source's image whose header claims other counts: consistent with itself,
 * CRC included, even where the file it describes would not fit size_t (a 32-bit host). Lie c
 * (< LYING_CLAIMS) of im; *l gets the layout it claims. */
#define LYING_CLAIMS 6u
static inline image lying_image(const image *im, uint32_t c, dod__csr_layout *l)
{
    static const uint32_t claims[LYING_CLAIMS][2] = { { 20, 0xFFFFFFFFu }, { 0xFFFFFFF0u, 60 },
                                                      { 20, 61 }, { 21, 60 },
                                                      { 0xFFFFFFFEu, 0xFFFFFFFFu }, { 2, 3 } };
    image lie = image_copy(im->bytes, im->len);
    *l = dod__csr_layout_of(claims[c][0], claims[c][1]);
    dod__csr_header_encode(l, lie.bytes);
    return lie;
}

/* ---- views ---- */

/* Views use the little-endian arrays in place, so a big-endian host refuses every one with
 * DOD_E_INVALID (docs/format.md): what opening a view gives here where a little-endian host
 * gives `want`. */
static inline dod_status view_want(dod_status want)
{
    return dod__file_swapping() ? DOD_E_INVALID : want;
}

static inline int view_matches(const dod_csr_view *v, const dod_csr *c)
{
    if (v->n_rows != c->n_rows || v->n_items != c->n_items)
        return 0;
    for (uint32_t r = 0; r <= c->n_rows; ++r)
        if (v->offsets[r] != (c->offsets ? c->offsets[r] : 0))
            return 0;
    return c->n_items == 0 || memcmp(v->items, c->items, (size_t)c->n_items * 4) == 0;
}

#endif /* DOD_TEST_CSR_IMAGE_H */
