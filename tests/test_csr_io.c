/* Saving and loading indexes: round trips against the in-memory index, the exact bytes of the
 * format, the big-endian conversion path, every truncation and single-bit flip of saved
 * indexes, lying headers, failing allocations, files across hosts. Views over the same
 * images: test_csr_view.c; mapped files: test_file_map.c. */
#ifndef _WIN32
#  define _POSIX_C_SOURCE 200809L
#endif
#include <dod/csr_io.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "stream_check.h"
#include "csr_snap.h"
#include "csr_image.h"

/* ---- round trips ---- */

static void round_trip(const dod_csr *src)
{
    image im = save_image(src);
    CHECK_EQ(im.len % 64, 0);

    /* FILE* and memory write the same bytes. */
    FILE *f = tmpfile();
    CHECK_OK(dod_csr_save(src, f));
    CHECK_EQ((size_t)ftell(f), im.len);
    rewind(f);
    unsigned char *from_file = (unsigned char *)malloc(im.len);
    CHECK_EQ(fread(from_file, 1, im.len, f), im.len);
    CHECK(memcmp(from_file, im.bytes, im.len) == 0);
    free(from_file);

    dod_csr a, b, c;
    dod_csr_init(&a, NULL);
    dod_csr_init(&b, NULL);
    dod_csr_init(&c, NULL);
    CHECK_OK(dod_csr_load_mem(&a, im.bytes, im.len));
    CHECK(dod_csr_equal(&a, src));
    CHECK_EQ(a.item_bound, src->item_bound);
    CHECK_OK(dod_csr_check(&a, a.item_bound));
    rewind(f);
    CHECK_OK(dod_csr_load(&b, f));
    CHECK(dod_csr_equal(&b, src));
    CHECK_EQ(b.item_bound, src->item_bound);
    CHECK_EQ((size_t)ftell(f), im.len); /* left just after the index */
    fclose(f);
    FILE *p = pipe_with(im.bytes, im.len < 60000 ? im.len : 0);
    if (im.len < 60000) {
        CHECK_OK(dod_csr_load(&c, p));
        CHECK(dod_csr_equal(&c, src));
        CHECK_EQ(fgetc(p), EOF);
    }
    fclose(p);

    /* A loaded index is an ordinary one: copied, rebuilt and freed. */
    dod_csr d;
    dod_csr_init(&d, NULL);
    CHECK_OK(dod_csr_copy(&d, &a));
    CHECK(dod_csr_equal(&d, src));
    uint32_t keys[3] = { 0, 0, 0 };
    CHECK_OK(dod_csr_build(&a, 1, keys, 4, 3));
    CHECK(a.n_items == 3 && a.offsets[1] == 3);
    dod_csr_free(&a);
    dod_csr_free(&b);
    dod_csr_free(&c);
    dod_csr_free(&d);
    test_aligned_free(im.bytes);
}

static void test_round_trips(void)
{
    for_each_index_shape(round_trip, 5, 60);
    dod_csr idx;
    dod_csr_init(&idx, NULL);
    /* Items that are not 0 .. n_items - 1 (a loaded index may hold any values below 2^32). */
    CHECK_OK(dod_csr_build(&idx, 2, (const uint32_t[]){ 1, 0 }, 4, 2));
    idx.items[0] = 0xFFFFFFFEu;
    idx.item_bound = 0xFFFFFFFFull;
    round_trip(&idx);
    dod_csr_free(&idx);
}

/* Loading replaces what the index held, grows or keeps its capacity, and never allocates
 * for load_mem when the capacity fits. */
static void test_load_into_held_capacity(void)
{
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator al = test_alloc_get(&ta);
    test_rng rng = { 11 };
    dod_csr big, small, dst;
    dod_csr_init(&big, NULL);
    dod_csr_init(&small, NULL);
    dod_csr_init(&dst, &al);
    build_random(&big, &rng, 500, 4000, 4);
    build_random(&small, &rng, 50, 300, 4);
    image ib = save_image(&big), is = save_image(&small);
    CHECK_OK(dod_csr_load_mem(&dst, ib.bytes, ib.len));
    long calls = ta.calls;
    CHECK_OK(dod_csr_load_mem(&dst, is.bytes, is.len));
    CHECK(dod_csr_equal(&dst, &small));
    CHECK_OK(dod_csr_load_mem(&dst, ib.bytes, ib.len));
    CHECK(dod_csr_equal(&dst, &big));
    CHECK_EQ(ta.calls, calls); /* steady state: nothing allocated */

    /* A stream load stages its items in the items block's scratch area: once both sizes were
     * seen, nothing is allocated, and the index still holds just its two blocks. */
    for (int round = 0; round < 4; ++round) {
        const image *im = round % 2 ? &ib : &is;
        FILE *f = file_with(im->bytes, im->len);
        CHECK_OK(dod_csr_load(&dst, f));
        CHECK(dod_csr_equal(&dst, round % 2 ? &big : &small));
        fclose(f);
        if (round == 1) /* both sizes seen once */
            calls = ta.calls;
    }
    CHECK_EQ(ta.calls, calls);
    CHECK_EQ(ta.live, 2); /* row block, items block (with its scratch area) */

    /* Into a cleared index the items are read in place (nothing to lose): a corrupt file
     * leaves it empty and valid, a good one loads without allocating. */
    dod_csr_clear(&dst);
    ib.bytes[ib.len - 64 - 8] ^= 0x10; /* an item, near the end */
    FILE *bad = file_with(ib.bytes, ib.len);
    CHECK_STATUS(dod_csr_load(&dst, bad), DOD_E_CORRUPT);
    fclose(bad);
    ib.bytes[ib.len - 64 - 8] ^= 0x10;
    CHECK(dst.n_rows == 0 && dst.n_items == 0 && dst.offsets[0] == 0);
    CHECK_OK(dod_csr_check(&dst, 0));
    FILE *good = file_with(ib.bytes, ib.len);
    CHECK_OK(dod_csr_load(&dst, good));
    fclose(good);
    CHECK(dod_csr_equal(&dst, &big));
    CHECK_EQ(ta.calls, calls);
    dod_csr_free(&dst);
    CHECK_EQ(ta.live, 0);
    dod_csr_free(&big);
    dod_csr_free(&small);
    test_aligned_free(ib.bytes);
    test_aligned_free(is.bytes);
    test_alloc_finish(&ta);
}

/* Several indexes back to back in one stream, each load stopping right after its own. */
static void test_stream_of_indexes(void)
{
    test_rng rng = { 3 };
    dod_csr a, b, got;
    dod_csr_init(&a, NULL);
    dod_csr_init(&b, NULL);
    dod_csr_init(&got, NULL);
    build_random(&a, &rng, 30, 100, 4);
    build_random(&b, &rng, 3, 9, 4);
    FILE *f = tmpfile();
    CHECK_OK(dod_csr_save(&a, f));
    CHECK_OK(dod_csr_save(&b, f));
    CHECK_EQ(fputc('!', f), '!');
    rewind(f);
    CHECK_OK(dod_csr_load(&got, f));
    CHECK(dod_csr_equal(&got, &a));
    CHECK_OK(dod_csr_load(&got, f));
    CHECK(dod_csr_equal(&got, &b));
    CHECK_EQ(fgetc(f), '!');
    fclose(f);
    dod_csr_free(&a);
    dod_csr_free(&b);
    dod_csr_free(&got);
}

/* ---- the bytes ---- */

static void test_format_bytes(void)
{
    uint32_t keys[5] = { 2, 0, 2, 1, 2 }; /* offsets 0 1 2 5, items 1 3 0 2 4 */
    dod_csr idx;
    dod_csr_init(&idx, NULL);
    CHECK_OK(dod_csr_build(&idx, 3, keys, 4, 5));
    image im = save_image(&idx);
    const unsigned char *b = im.bytes;
    CHECK_EQ(im.len, 64 + 64 + 64 + 64);
    CHECK(memcmp(b, "\x89" "DODCSR\n", 8) == 0);
    CHECK_EQ(dod__get_le32(b + 8), 1);  /* version */
    CHECK_EQ(dod__get_le32(b + 12), 0); /* flags */
    CHECK_EQ(dod__get_le32(b + 16), 64);
    CHECK_EQ(dod__get_le32(b + 20), 4);
    CHECK_EQ(dod__get_le32(b + 24), 4);
    CHECK_EQ(dod__get_le32(b + 28), 3);
    CHECK_EQ(dod__get_le32(b + 32), 5);
    CHECK_EQ(dod__get_le64(b + 40), 128); /* items_pos */
    CHECK_EQ(dod__get_le64(b + 48), 192); /* trailer_pos */
    CHECK_EQ(dod__get_le32(b + 60), dod__crc32c(0, b, 60));
    const uint32_t want_off[4] = { 0, 1, 2, 5 }, want_items[5] = { 1, 3, 0, 2, 4 };
    for (int i = 0; i < 4; ++i)
        CHECK_EQ(dod__get_le32(b + 64 + 4 * i), want_off[i]);
    CHECK(dod__file_all_zero(b + 64 + 16, 48));
    for (int i = 0; i < 5; ++i)
        CHECK_EQ(dod__get_le32(b + 128 + 4 * i), want_items[i]);
    CHECK(dod__file_all_zero(b + 128 + 20, 44));
    CHECK(memcmp(b + 192, "\x89" "DODEND\n", 8) == 0);
    CHECK_EQ(dod__get_le64(b + 200), 5); /* item_bound = 1 + the largest item */
    CHECK(dod__file_all_zero(b + 208, 44));
    CHECK_EQ(dod__get_le32(b + 252), dod__crc32c(0, b, 252));
    /* Section starts for other sizes: 64-byte aligned, exactly as docs/format.md computes. */
    CHECK_OK(dod_csr_build(&idx, 15, NULL, 4, 0));
    CHECK_EQ(dod_csr_saved_size(&idx), 64 + 64 + 64); /* 16 offsets fill one line, no items */
    CHECK_OK(dod_csr_build(&idx, 16, NULL, 4, 0));
    CHECK_EQ(dod_csr_saved_size(&idx), 64 + 128 + 64);
    CHECK_EQ(dod_csr_saved_size(NULL), 0);
    dod_csr_free(&idx);
    test_aligned_free(im.bytes);
}

/* The big-endian host's path, run here by the forced-swap hook (on a big-endian host the hook
 * runs the little-endian path instead): every array word goes to disk byte-swapped and comes
 * back intact; header fields do not depend on host order at all. */
static void test_swap_path(void)
{
    test_rng rng = { 17 };
    dod_csr idx, back;
    dod_csr_init(&idx, NULL);
    dod_csr_init(&back, NULL);
    build_random(&idx, &rng, 70000, 90000, 4); /* several 256 KiB steps */
    image le = save_image(&idx);
    dod__file_force_swap = 1;
    image be = save_image(&idx);
    CHECK_EQ(be.len, le.len);
    CHECK(memcmp(be.bytes, le.bytes, 64) == 0);
    uint64_t items_pos = dod__get_le64(le.bytes + 40), trailer_pos = dod__get_le64(le.bytes + 48);
    int words_swapped = 1;
    for (size_t p = 64; p < trailer_pos; p += 4) {
        int in_array = p < 64 + ((size_t)idx.n_rows + 1) * 4 ||
                       (p >= items_pos && p < items_pos + (size_t)idx.n_items * 4);
        const unsigned char *x = le.bytes + p, *y = be.bytes + p;
        if (in_array)
            words_swapped &= x[0] == y[3] && x[1] == y[2] && x[2] == y[1] && x[3] == y[0];
        else
            words_swapped &= memcmp(x, y, 4) == 0; /* padding */
    }
    CHECK(words_swapped);
    CHECK(memcmp(be.bytes + trailer_pos, le.bytes + trailer_pos, 60) == 0);
    CHECK_OK(dod_csr_load_mem(&back, be.bytes, be.len));
    CHECK(dod_csr_equal(&back, &idx));
    CHECK_EQ(back.item_bound, idx.item_bound);
    FILE *f = file_with(be.bytes, be.len);
    dod_csr_free(&back);
    CHECK_OK(dod_csr_load(&back, f));
    CHECK(dod_csr_equal(&back, &idx));
    fclose(f);
    FILE *saved = tmpfile();
    CHECK_OK(dod_csr_save(&idx, saved));
    CHECK_EQ((size_t)ftell(saved), be.len);
    fclose(saved);
    /* The host's own bytes are not what a swapping host accepts. */
    csr_snap s = csr_snap_take(&back);
    CHECK_STATUS(dod_csr_load_mem(&back, le.bytes, le.len), DOD_E_CORRUPT);
    CHECK(csr_snap_unchanged(&back, &s));
    dod__file_force_swap = 0;
    CHECK_STATUS(dod_csr_load_mem(&back, be.bytes, be.len), DOD_E_CORRUPT);
    dod_csr_free(&idx);
    dod_csr_free(&back);
    test_aligned_free(le.bytes);
    test_aligned_free(be.bytes);
}

/* ---- hostile input ---- */

/* Every way of loading these bytes is refused with `want`, the target unchanged. */
static void expect_refused(dod_csr *target, const unsigned char *bytes, size_t len,
                           dod_status want, int check_stream)
{
    image im = image_copy(bytes, len);
    csr_snap s = csr_snap_take(target);
    CHECK_STATUS(dod_csr_load_mem(target, im.bytes, len), want);
    CHECK(csr_snap_same(target, &s));
    if (check_stream) {
        FILE *f = file_with(bytes, len);
        CHECK_STATUS(dod_csr_load(target, f), want);
        CHECK(csr_snap_same(target, &s));
        fclose(f);
        if (len < 60000) {
            FILE *p = pipe_with(bytes, len);
            CHECK_STATUS(dod_csr_load(target, p), want);
            CHECK(csr_snap_same(target, &s));
            fclose(p);
        }
    }
    csr_snap_drop(&s);
    test_aligned_free(im.bytes);
}

static void sweep(const dod_csr *src, dod_csr *target, int streams)
{
    image im = save_image(src);
    for (size_t n = 0; n < im.len; ++n) { /* every truncation */
        expect_refused(target, im.bytes, n, DOD_E_CORRUPT, streams);
    }
    unsigned char *longer = (unsigned char *)malloc(im.len + 1); /* one byte too many */
    memcpy(longer, im.bytes, im.len);
    longer[im.len] = 0;
    expect_refused(target, longer, im.len + 1, DOD_E_CORRUPT, 0);
    free(longer);
    for (size_t bit = 0; bit < im.len * 8; ++bit) { /* every single-bit flip */
        im.bytes[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        expect_refused(target, im.bytes, im.len, DOD_E_CORRUPT, streams);
        im.bytes[bit / 8] ^= (unsigned char)(1u << (bit % 8));
    }
    csr_snap s = csr_snap_take(target);
    CHECK_OK(dod_csr_load_mem(target, im.bytes, im.len)); /* the intact image still loads */
    CHECK(dod_csr_equal(target, src));
    csr_snap_drop(&s);
    test_aligned_free(im.bytes);
}

static void test_truncations_and_flips(void)
{
    test_rng rng = { 23 };
    dod_csr small, medium, empty, target;
    dod_csr_init(&small, NULL);
    dod_csr_init(&medium, NULL);
    dod_csr_init(&empty, NULL);
    dod_csr_init(&target, NULL);
    build_random(&small, &rng, 3, 10, 4);
    build_random(&medium, &rng, 40, 150, 4);
    build_random(&target, &rng, 8, 20, 4); /* the target holds an index of its own */
    sweep(&small, &target, 1);
    build_random(&target, &rng, 8, 20, 4);
    sweep(&empty, &target, 1);
    build_random(&target, &rng, 8, 20, 4);
    sweep(&medium, &target, 0);
    dod_csr_free(&small);
    dod_csr_free(&medium);
    dod_csr_free(&empty);
    dod_csr_free(&target);
}

/* Headers that pass their own CRC but lie. One claiming more than the input holds is refused
 * before anything is allocated (memory, seekable streams) or after allocating at most about 3x
 * what really arrived (pipes); one claiming the same or a shorter length (the counts differ
 * inside the 64-byte padding) allocates at most twice the input's size (the spare offsets and
 * the items' staging area) and the CRC catches it. The same status on every host: a claim of
 * more than a 32-bit size_t holds is still a lie where the input's length is known. */
static void test_lying_headers(void)
{
    dod_csr src;
    dod_csr_init(&src, NULL);
    image im = lying_source(&src);
    for (uint32_t c = 0; c < LYING_CLAIMS; ++c) {
        dod__csr_layout l;
        image lie = lying_image(&im, c, &l);
        test_alloc ta;
        test_alloc_init(&ta);
        dod_allocator al = test_alloc_get(&ta);
        dod_csr t;
        dod_csr_init(&t, &al);
        csr_snap s = csr_snap_take(&t);
        CHECK_STATUS(dod_csr_load_mem(&t, lie.bytes, lie.len), DOD_E_CORRUPT);
        FILE *f = file_with(lie.bytes, lie.len);
        CHECK_STATUS(dod_csr_load(&t, f), DOD_E_CORRUPT);
        fclose(f);
        if (l.file_bytes > lie.len) /* more than there is: nothing allocated */
            CHECK_EQ(ta.calls, 0);
        else /* a valid length for a stream: at most the index's two double-buffered blocks */
            CHECK(ta.peak_bytes <= 2 * lie.len);
        FILE *p = pipe_with(lie.bytes, lie.len);
        /* a pipe cannot be measured: a claim this host cannot hold is refused as such */
        CHECK_STATUS(dod_csr_load(&t, p), l.file_bytes > SIZE_MAX ? DOD_E_OVERFLOW : DOD_E_CORRUPT);
        fclose(p);
        CHECK(ta.peak_bytes <= 3 * lie.len + 4096);
        CHECK(csr_snap_unchanged(&t, &s));
        dod_csr_free(&t);
        test_alloc_finish(&ta);
        test_aligned_free(lie.bytes);
    }
    dod_csr_free(&src);
    test_aligned_free(im.bytes);
}

/* Resealed edits: the CRCs pass, so each rule behind them must catch its own violation. */
static void test_each_rule(void)
{
    uint32_t keys[2] = { 0, 1 };
    dod_csr idx, t;
    dod_csr_init(&idx, NULL);
    dod_csr_init(&t, NULL);
    rule_index(&idx);
    CHECK_OK(dod_csr_build(&t, 2, keys, 4, 2)); /* the target holds an index of its own */
    image im = save_image(&idx);
    size_t n_edits;
    const rule_edit *edits = rule_edits(&n_edits);
    for (size_t e = 0; e < n_edits; ++e) {
        image x = apply_edit(&im, &edits[e]);
        expect_refused(&t, x.bytes, x.len, DOD_E_CORRUPT, 1);
        test_aligned_free(x.bytes);
    }
    /* A bound above the largest item is accepted (another writer may record its column
     * count), and the loaded bound is the real one. */
    image x = image_copy(im.bytes, im.len);
    dod__put_le64(x.bytes + 192 + 8, 1000);
    reseal(x.bytes, x.len);
    CHECK_OK(dod_csr_load_mem(&t, x.bytes, x.len));
    CHECK(dod_csr_equal(&t, &idx));
    CHECK_EQ(t.item_bound, 6);
    test_aligned_free(x.bytes);
    dod_csr_free(&idx);
    dod_csr_free(&t);
    test_aligned_free(im.bytes);
}

static void test_argument_errors(void)
{
    uint32_t keys[4] = { 0, 1, 1, 0 };
    dod_csr idx;
    dod_csr_init(&idx, NULL);
    CHECK_OK(dod_csr_build(&idx, 2, keys, 4, 4));
    image im = save_image(&idx);
    FILE *f = tmpfile();
    CHECK_STATUS(dod_csr_save(NULL, f), DOD_E_INVALID);
    CHECK_STATUS(dod_csr_save(&idx, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_csr_save_mem(NULL, im.bytes, im.len), DOD_E_INVALID);
    CHECK_STATUS(dod_csr_save_mem(&idx, NULL, im.len), DOD_E_INVALID);
    CHECK_STATUS(dod_csr_load(NULL, f), DOD_E_INVALID);
    CHECK_STATUS(dod_csr_load(&idx, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_csr_load_mem(NULL, im.bytes, im.len), DOD_E_INVALID);
    CHECK_STATUS(dod_csr_load_mem(&idx, NULL, 0), DOD_E_INVALID);
    fclose(f);

    /* A buffer one byte short is refused and untouched. */
    unsigned char *buf = (unsigned char *)malloc(im.len);
    memset(buf, 0x5A, im.len);
    CHECK_STATUS(dod_csr_save_mem(&idx, buf, im.len - 1), DOD_E_RANGE);
    CHECK(buf[0] == 0x5A && buf[im.len - 2] == 0x5A);
    free(buf);

    /* An index whose invariants were broken through its public fields is not saved. */
    idx.offsets[2] = 3;
    f = tmpfile();
    CHECK_STATUS(dod_csr_save(&idx, f), DOD_E_CORRUPT);
    CHECK_EQ(ftell(f), 0);
    fclose(f);
    idx.offsets[2] = 4;
    idx.offsets[0] = 1;
    CHECK_STATUS(dod_csr_save_mem(&idx, im.bytes, im.len), DOD_E_CORRUPT);
    idx.offsets[0] = 0;

    /* Streams that fail: writing to a read-only one, reading from a write-only one (a file in
     * the test's working directory, the build folder). */
    const char *path = "test_csr_io_streams.tmp";
    f = fopen(path, "wb");
    CHECK(f != NULL && fclose(f) == 0);
    f = fopen(path, "rb");
    CHECK_STATUS(dod_csr_save(&idx, f), DOD_E_IO);
    fclose(f);
    f = fopen(path, "wb");
    csr_snap s = csr_snap_take(&idx);
#ifdef _WIN32
    /* msvcrt (Wine's at least) sets no error flag for a read from a write-only stream, so the
     * load sees a stream that ended: DOD_E_CORRUPT there. */
    dod_status st = dod_csr_load(&idx, f);
    CHECK(st == DOD_E_IO || st == DOD_E_CORRUPT);
#else
    CHECK_STATUS(dod_csr_load(&idx, f), DOD_E_IO);
#endif
    CHECK(csr_snap_unchanged(&idx, &s));
    fclose(f);
    remove(path);

    image odd = image_copy(im.bytes, im.len + 1); /* load_mem has no alignment requirement */
    memmove(odd.bytes + 1, odd.bytes, im.len);
    CHECK_OK(dod_csr_load_mem(&idx, odd.bytes + 1, im.len));
    test_aligned_free(odd.bytes);
    dod_csr_free(&idx);
    test_aligned_free(im.bytes);
}

/* ---- failing allocations ---- */

typedef enum how { BY_MEM, BY_FILE, BY_PIPE } how;

static void walk_load_failures(how how_, int start_built)
{
    test_rng rng = { 31 };
    dod_csr src;
    dod_csr_init(&src, NULL);
    build_random(&src, &rng, 900, 3000, 4); /* saved: > 4 KiB, so the pipe stage grows */
    image im = save_image(&src);
    for (long n = 0;; ++n) {
        test_alloc ta;
        test_alloc_init(&ta);
        dod_allocator al = test_alloc_get(&ta);
        dod_csr t;
        dod_csr_init(&t, &al);
        if (start_built == 1) /* too small: the load needs fresh blocks */
            build_random(&t, &rng, 10, 30, 4);
        if (start_built == 2) /* big enough: a stream load stages in the scratch area */
            build_random(&t, &rng, 1000, 4000, 4);
        csr_snap s = csr_snap_take(&t);
        long live = ta.live;
        FILE *f = how_ == BY_FILE ? file_with(im.bytes, im.len)
                  : how_ == BY_PIPE ? pipe_with(im.bytes, im.len) : NULL;
        test_alloc_fail_after(&ta, n);
        dod_status st = how_ == BY_MEM ? dod_csr_load_mem(&t, im.bytes, im.len) : dod_csr_load(&t, f);
        int hit = ta.failed > 0;
        if (hit) {
            CHECK_STATUS(st, DOD_E_NOMEM);
            CHECK(csr_snap_unchanged(&t, &s));
            CHECK_EQ(ta.live, live);
        } else {
            CHECK_OK(st);
            CHECK(dod_csr_equal(&t, &src));
            csr_snap_drop(&s);
        }
        if (f)
            fclose(f);
        test_alloc_fail_after(&ta, -1);
        dod_csr_free(&t);
        test_alloc_finish(&ta);
        if (!hit) {
            if (how_ == BY_MEM && start_built == 2)
                CHECK_EQ(n, 0); /* load_mem into capacity that fits allocates nothing */
            else
                CHECK(n >= 1); /* at least one allocation was walked */
            break;
        }
    }
    dod_csr_free(&src);
    test_aligned_free(im.bytes);
}

static void test_allocation_failures(void)
{
    for (int built = 0; built < 3; ++built) {
        walk_load_failures(BY_MEM, built);
        walk_load_failures(BY_FILE, built);
        walk_load_failures(BY_PIPE, built);
    }
}

/* ---- files across hosts ---- */

/* The index of tests/data/index_v1.dod: 300 rows (some empty), 1200 items. */
static void committed_index(dod_csr *c)
{
    uint32_t keys[1200];
    for (uint32_t i = 0; i < 1200; ++i)
        keys[i] = (uint32_t)((i * 2654435761u) >> 8) % 300u;
    CHECK_OK(dod_csr_build(c, 300, keys, 4, 1200));
}

/* The whole of a file, or an empty image when it cannot be read. */
static image read_file(const char *path)
{
    image im = { NULL, 0 };
    FILE *f = fopen(path, "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0)
        goto done;
    long len = ftell(f);
    if (len <= 0 || fseek(f, 0, SEEK_SET) != 0)
        goto done;
    im.bytes = image_bytes((size_t)len);
    im.len = fread(im.bytes, 1, (size_t)len, f);
done:
    if (f)
        fclose(f);
    return im;
}

/* The file in tests/data was saved on x86-64 Linux. It loads here and equals the index it was
 * saved from, and this host saves that index to the same bytes: a file saved on any host
 * loads on every other. The host's own save is left in csr_io_saved_here.dod for CI to load
 * on another host (s390x's on x86-64), through DOD_TEST_FOREIGN_INDEX=path. */
static void check_portable_file(const dod_csr *want, const char *path)
{
    image im = read_file(path);
    CHECK(im.len > 0);
    dod_csr back;
    dod_csr_init(&back, NULL);
    CHECK_OK(dod_csr_load_mem(&back, im.bytes, im.len));
    CHECK(dod_csr_equal(&back, want));
    dod_csr_free(&back);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (f) {
        CHECK_OK(dod_csr_load(&back, f));
        CHECK(dod_csr_equal(&back, want));
        fclose(f);
    }
    dod_csr_free(&back);
    test_aligned_free(im.bytes);
}

static void test_files_across_hosts(void)
{
    dod_csr idx;
    dod_csr_init(&idx, NULL);
    committed_index(&idx);
    check_portable_file(&idx, DOD_TEST_DATA_DIR "/index_v1.dod");
    image committed = read_file(DOD_TEST_DATA_DIR "/index_v1.dod");
    image here = save_image(&idx);
    CHECK(here.len == committed.len && memcmp(here.bytes, committed.bytes, here.len) == 0);
    FILE *f = fopen("csr_io_saved_here.dod", "wb");
    CHECK(f != NULL);
    if (f) {
        CHECK_EQ(fwrite(here.bytes, 1, here.len, f), here.len);
        CHECK_EQ(fclose(f), 0);
    }
    const char *foreign = getenv("DOD_TEST_FOREIGN_INDEX");
    if (foreign) {
        check_portable_file(&idx, foreign);
        printf("loaded %s\n", foreign);
    }
    test_aligned_free(committed.bytes);
    test_aligned_free(here.bytes);
    dod_csr_free(&idx);
}

int main(void)
{
    test_round_trips();
    test_load_into_held_capacity();
    test_stream_of_indexes();
    test_format_bytes();
    test_swap_path();
    test_truncations_and_flips();
    test_lying_headers();
    test_each_rule();
    test_argument_errors();
    test_allocation_failures();
    test_files_across_hosts();
    return check_summary("test_csr_io");
}
