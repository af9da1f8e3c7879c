/* libFuzzer target: arbitrary bytes (as given, and with their CRCs recomputed) into
 * dod_csr_load_mem, dod_csr_load (a seekable stream) and the view at DOD_CSR_VIEW_VALIDATE_HEADER and
 * DOD_CSR_VIEW_VALIDATE_FULL. Whatever the bytes, nothing may
 * read out of bounds or leak, the loaders and the full view must agree (a stream may hold more
 * after one index), and an accepted index or full view must satisfy every invariant (walked
 * row by row). */
#define _POSIX_C_SOURCE 200809L
#include <dod/csr_io.h>
#include <dod/csr_view.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "crc32c.h"
#include "csr_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int cond)
{
    if (!cond)
        abort();
}

static void walk_index(const dod_csr *c)
{
    require(dod_csr_check(c, c->item_bound) == DOD_OK);
    uint64_t sum = 0;
    for (uint32_t r = 0; r < c->n_rows; ++r)
        for (const uint32_t *it = dod_csr_row_begin(c, r); it != dod_csr_row_end(c, r); ++it)
            sum += *it;
    (void)sum;
}

static void walk_view(const dod_csr_view *v)
{
    require(v->offsets[0] == 0 && v->offsets[v->n_rows] == v->n_items);
    for (uint32_t r = 0; r < v->n_rows; ++r) {
        require(v->offsets[r] <= v->offsets[r + 1]);
        for (const uint32_t *it = dod_csr_view_row_begin(v, r); it != dod_csr_view_row_end(v, r);
             ++it)
            require(*it < v->item_bound);
    }
}

static void one_input(const uint8_t *data, size_t size)
{
    /* The view needs 4-byte alignment, which libFuzzer's buffer may lack: a malloc'd copy of
     * exactly `size` bytes is aligned and keeps ASan's bounds exact. */
    unsigned char *aligned = (unsigned char *)malloc(size ? size : 1);
    if (!aligned)
        return;
    if (size)
        memcpy(aligned, data, size);

    dod_csr a;
    dod_csr_init(&a, NULL);
    dod_status st_mem = dod_csr_load_mem(&a, data, size);
    if (st_mem == DOD_OK)
        walk_index(&a);

    dod_csr_view v;
    dod_status st_full = dod_csr_view_open(&v, aligned, size, DOD_CSR_VIEW_VALIDATE_FULL);
    require((st_full == DOD_OK) == (st_mem == DOD_OK));
    if (st_full == DOD_OK) {
        walk_view(&v);
        require(v.n_rows == a.n_rows && v.n_items == a.n_items);
    }
    dod_csr_view h;
    if (dod_csr_view_open(&h, aligned, size, DOD_CSR_VIEW_VALIDATE_HEADER) == DOD_OK) {
        /* HEADER trusts the contents but its pointers and counts must fit the buffer. */
        require((const unsigned char *)(h.items + h.n_items) <= aligned + size);
        require((const unsigned char *)(h.offsets + h.n_rows + 1) <= aligned + size);
    }

    FILE *f = size ? fmemopen((void *)aligned, size, "rb") : NULL;
    if (f) {
        dod_csr b;
        dod_csr_init(&b, NULL);
        dod_status st_file = dod_csr_load(&b, f);
        if (st_mem == DOD_OK) /* one whole index: the stream reads it and ends right after */
            require(st_file == DOD_OK && dod_csr_equal(&a, &b) && ftell(f) == (long)size);
        if (st_file == DOD_OK && st_mem != DOD_OK) {
            /* A stream may go on after the index: then the prefix it read is one index. */
            long used = ftell(f);
            require(used > 0 && (size_t)used < size);
            dod_csr p;
            dod_csr_init(&p, NULL);
            require(dod_csr_load_mem(&p, data, (size_t)used) == DOD_OK && dod_csr_equal(&p, &b));
            dod_csr_free(&p);
        }
        dod_csr_free(&b);
        fclose(f);
    }
    dod_csr_free(&a);
    free(aligned);
}

/* Each input runs as is and once more with both CRCs recomputed (header bytes 0..59, and the
 * last 4 bytes over everything before them), so mutations reach the checks behind the CRCs. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    one_input(data, size);
    if (size < 128)
        return 0;
    unsigned char *sealed = (unsigned char *)malloc(size);
    if (!sealed)
        return 0;
    memcpy(sealed, data, size);
    dod__put_le32(sealed + 60, dod__crc32c(0, sealed, 60));
    dod__put_le32(sealed + size - 4, dod__crc32c(0, sealed, size - 4));
    one_input(sealed, size);
    free(sealed);
    return 0;
}
