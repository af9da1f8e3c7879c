/* Zero-copy views over saved indexes (dod/csr_view.h): every validation level over good images
 * (in place, equal to the index saved, the row helpers), every truncation and single-bit flip,
 * headers that pass their CRC but lie, each rule of the format broken alone, bad arguments,
 * and a byte-swapping host's refusal. A refused open leaves the view as it was. */
#include <dod/csr_view.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "csr_image.h"

static const dod_csr_view_validate levels[] = { DOD_CSR_VIEW_VALIDATE_NONE,
                                                DOD_CSR_VIEW_VALIDATE_HEADER,
                                                DOD_CSR_VIEW_VALIDATE_FULL };

/* Opening bytes[0, len) at `level` gives `want` (as view_want says for this host); a refusal
 * leaves the view untouched. */
static void expect_view(const unsigned char *bytes, size_t len, dod_csr_view_validate level,
                        dod_status want)
{
    image im = image_copy(bytes, len); /* aligned, and exactly len long */
    dod_csr_view v, before;
    memset(&v, 0xA5, sizeof v);
    before = v;
    dod_status st = dod_csr_view_open(&v, im.bytes, len, level);
    CHECK_STATUS(st, view_want(want));
    if (st != DOD_OK)
        CHECK(memcmp(&v, &before, sizeof v) == 0);
    test_aligned_free(im.bytes);
}

/* Every level opens a good image in place, and the view reads as the index. */
static void check_good_image(const dod_csr *src)
{
    image im = save_image(src);
    for (size_t k = 0; k < sizeof levels / sizeof levels[0]; ++k) {
        dod_csr_view v;
        dod_status st = dod_csr_view_open(&v, im.bytes, im.len, levels[k]);
        CHECK_STATUS(st, view_want(DOD_OK));
        if (st != DOD_OK)
            continue;
        CHECK(view_matches(&v, src));
        CHECK_EQ(v.item_bound, src->item_bound);
        CHECK((const unsigned char *)v.offsets == im.bytes + 64); /* in place, no copy */
        uint32_t total = 0;
        for (uint32_t r = 0; r < v.n_rows; ++r) {
            CHECK_EQ(dod_csr_view_row_len(&v, r), dod_csr_row_len(src, r));
            CHECK(dod_csr_view_row_end(&v, r) - dod_csr_view_row_begin(&v, r) ==
                  (ptrdiff_t)dod_csr_view_row_len(&v, r));
            CHECK(dod_csr_view_row_len(&v, r) == 0 ||
                  memcmp(dod_csr_view_row_begin(&v, r), dod_csr_row_begin(src, r),
                         (size_t)dod_csr_view_row_len(&v, r) * 4) == 0);
            total += dod_csr_view_row_len(&v, r);
        }
        CHECK_EQ(total, src->n_items);
    }
    test_aligned_free(im.bytes);
}

static void test_good_images(void)
{
    for_each_index_shape(check_good_image, 41, 30);
}

/* Every truncation and the image one byte too long are refused at every level (the sizes
 * disagree); every single-bit flip is refused by FULL, and by HEADER inside the header. */
static void sweep(const dod_csr *src)
{
    image im = save_image(src);
    for (size_t k = 0; k < sizeof levels / sizeof levels[0]; ++k) {
        for (size_t n = 0; n < im.len; ++n)
            expect_view(im.bytes, n, levels[k], DOD_E_CORRUPT);
        image longer = image_copy(im.bytes, im.len + 1);
        longer.bytes[im.len] = 0;
        expect_view(longer.bytes, longer.len, levels[k], DOD_E_CORRUPT);
        test_aligned_free(longer.bytes);
    }
    for (size_t bit = 0; bit < im.len * 8; ++bit) {
        im.bytes[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        expect_view(im.bytes, im.len, DOD_CSR_VIEW_VALIDATE_FULL, DOD_E_CORRUPT);
        if (bit < 64 * 8)
            expect_view(im.bytes, im.len, DOD_CSR_VIEW_VALIDATE_HEADER, DOD_E_CORRUPT);
        im.bytes[bit / 8] ^= (unsigned char)(1u << (bit % 8));
    }
    expect_view(im.bytes, im.len, DOD_CSR_VIEW_VALIDATE_FULL, DOD_OK); /* intact, it opens */
    test_aligned_free(im.bytes);
}

static void test_truncations_and_flips(void)
{
    test_rng rng = { 43 };
    dod_csr small, medium, empty;
    dod_csr_init(&small, NULL);
    dod_csr_init(&medium, NULL);
    dod_csr_init(&empty, NULL);
    build_random(&small, &rng, 3, 10, 4);
    build_random(&medium, &rng, 40, 150, 4);
    sweep(&small);
    sweep(&medium);
    sweep(&empty);
    dod_csr_free(&small);
    dod_csr_free(&medium);
    dod_csr_free(&empty);
}

/* Headers consistent with themselves (CRC included) that claim other counts: FULL refuses
 * every one; HEADER and NONE trust the arrays, so they open a claim whose file length is the
 * real one (the counts differ inside the padding) and refuse any other length. */
static void test_lying_headers(void)
{
    dod_csr src;
    dod_csr_init(&src, NULL);
    image im = lying_source(&src);
    for (uint32_t c = 0; c < LYING_CLAIMS; ++c) {
        dod__csr_layout l;
        image lie = lying_image(&im, c, &l);
        dod_status cheap = l.file_bytes != lie.len ? DOD_E_CORRUPT : DOD_OK;
        expect_view(lie.bytes, lie.len, DOD_CSR_VIEW_VALIDATE_NONE, cheap);
        expect_view(lie.bytes, lie.len, DOD_CSR_VIEW_VALIDATE_HEADER, cheap);
        expect_view(lie.bytes, lie.len, DOD_CSR_VIEW_VALIDATE_FULL, DOD_E_CORRUPT);
        test_aligned_free(lie.bytes);
    }
    dod_csr_free(&src);
    test_aligned_free(im.bytes);
}

/* Resealed edits (the CRCs pass): FULL catches each broken rule itself; a bound above the
 * largest item is what the file says, and the view reports it as written. */
static void test_each_rule(void)
{
    dod_csr idx;
    dod_csr_init(&idx, NULL);
    rule_index(&idx);
    image im = save_image(&idx);
    size_t n_edits;
    const rule_edit *edits = rule_edits(&n_edits);
    for (size_t e = 0; e < n_edits; ++e) {
        image x = apply_edit(&im, &edits[e]);
        expect_view(x.bytes, x.len, DOD_CSR_VIEW_VALIDATE_FULL, DOD_E_CORRUPT);
        test_aligned_free(x.bytes);
    }
    const rule_edit wide_bound = { 192 + 8, 1000, 1 };
    image x = apply_edit(&im, &wide_bound);
    dod_csr_view v;
    dod_status st = dod_csr_view_open(&v, x.bytes, x.len, DOD_CSR_VIEW_VALIDATE_FULL);
    CHECK_STATUS(st, view_want(DOD_OK));
    CHECK(st != DOD_OK || (v.item_bound == 1000 && view_matches(&v, &idx)));
    test_aligned_free(x.bytes);
    dod_csr_free(&idx);
    test_aligned_free(im.bytes);
}

/* NULLs, an unknown level and a buffer that is not 4-byte aligned are DOD_E_INVALID; a host
 * that would have to swap bytes refuses every view (docs/format.md). */
static void test_arguments_and_byte_order(void)
{
    dod_csr idx;
    dod_csr_init(&idx, NULL);
    rule_index(&idx);
    image im = save_image(&idx);
    dod_csr_view v;
    CHECK_STATUS(dod_csr_view_open(NULL, im.bytes, im.len, DOD_CSR_VIEW_VALIDATE_FULL),
                 DOD_E_INVALID);
    CHECK_STATUS(dod_csr_view_open(&v, NULL, im.len, DOD_CSR_VIEW_VALIDATE_FULL), DOD_E_INVALID);
    expect_view(im.bytes, im.len, (dod_csr_view_validate)3, DOD_E_INVALID);
    image odd = image_copy(im.bytes, im.len + 1);
    memmove(odd.bytes + 1, odd.bytes, im.len);
    for (size_t k = 0; k < sizeof levels / sizeof levels[0]; ++k)
        CHECK_STATUS(dod_csr_view_open(&v, odd.bytes + 1, im.len, levels[k]), DOD_E_INVALID);
    dod__file_force_swap = !dod__file_swapping(); /* a little-endian host pretends, a big one is */
    CHECK(dod__file_swapping());
    for (size_t k = 0; k < sizeof levels / sizeof levels[0]; ++k)
        CHECK_STATUS(dod_csr_view_open(&v, im.bytes, im.len, levels[k]), DOD_E_INVALID);
    dod__file_force_swap = 0;
    test_aligned_free(odd.bytes);
    test_aligned_free(im.bytes);
    dod_csr_free(&idx);
}

int main(void)
{
    test_good_images();
    test_truncations_and_flips();
    test_lying_headers();
    test_each_rule();
    test_arguments_and_byte_order();
    return check_summary("test_csr_view");
}
