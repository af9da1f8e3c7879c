/* Mapped files (dod/file_map.h): a saved index mapped read-only loads and opens as a view over
 * the mapping; an empty file maps to nothing; a missing file is DOD_E_IO and leaves the map as
 * it was; NULLs are refused; closing twice is harmless. */
#include <dod/csr_io.h>
#include <dod/csr_view.h>
#include <dod/file_map.h>
#include "check.h"
#include "csr_image.h"

static void test_file_map(void)
{
    test_rng rng = { 37 };
    dod_csr idx;
    dod_csr_init(&idx, NULL);
    uint32_t keys[2000];
    csr_model_keys(&rng, CSR_KEYS_UNIFORM, 300, (unsigned char *)keys, sizeof *keys, 2000);
    CHECK_OK(dod_csr_build(&idx, 300, keys, sizeof *keys, 2000));
    const char *path = "test_file_map.tmp";
    FILE *f = fopen(path, "wb");
    CHECK_OK(dod_csr_save(&idx, f));
    CHECK_EQ(fclose(f), 0);

    dod_file_map m;
    CHECK_OK(dod_file_map_open(&m, path));
    CHECK_EQ(m.size, dod_csr_saved_size(&idx));
    CHECK(((uintptr_t)m.data & 63) == 0);
    dod_csr back; /* the mapped bytes load on every host */
    dod_csr_init(&back, NULL);
    CHECK_OK(dod_csr_load_mem(&back, m.data, m.size));
    CHECK(dod_csr_equal(&back, &idx));
    dod_csr_free(&back);
    dod_csr_view v;
    dod_status st = dod_csr_view_open(&v, m.data, m.size, DOD_CSR_VIEW_VALIDATE_FULL);
    CHECK_STATUS(st, view_want(DOD_OK));
    if (st == DOD_OK) {
        CHECK(view_matches(&v, &idx));
        uint32_t total = 0;
        for (uint32_t r = 0; r < v.n_rows; ++r) {
            CHECK_EQ(dod_csr_view_row_len(&v, r), dod_csr_row_len(&idx, r));
            CHECK(dod_csr_view_row_end(&v, r) - dod_csr_view_row_begin(&v, r) ==
                  (ptrdiff_t)dod_csr_view_row_len(&v, r));
            total += dod_csr_view_row_len(&v, r);
        }
        CHECK_EQ(total, idx.n_items);
    }
    dod_file_map_close(&m);
    CHECK(m.data == NULL && m.size == 0);
    dod_file_map_close(&m); /* a reset map is a no-op */

    f = fopen(path, "wb"); /* an empty file maps to nothing, and no view opens over it */
    fclose(f);
    CHECK_OK(dod_file_map_open(&m, path));
    CHECK(m.data == NULL && m.size == 0);
    CHECK_STATUS(dod_csr_view_open(&v, m.data, m.size, DOD_CSR_VIEW_VALIDATE_NONE), DOD_E_INVALID);
    dod_file_map_close(&m);
    remove(path);

    dod_file_map untouched = { (const void *)&idx, 7 };
    CHECK_STATUS(dod_file_map_open(&untouched, "/nonexistent/dod.idx"), DOD_E_IO);
    CHECK(untouched.data == (const void *)&idx && untouched.size == 7);
    CHECK_STATUS(dod_file_map_open(NULL, path), DOD_E_INVALID);
    CHECK_STATUS(dod_file_map_open(&m, NULL), DOD_E_INVALID);
    dod_csr_free(&idx);
}

int main(void)
{
    test_file_map();
    return check_summary("test_file_map");
}
