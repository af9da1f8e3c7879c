/* dod_csr_gather: every column kind, strided sources, on every executor, against the items
 * the index holds; refusals write nothing; a value build's bound travels with its copies. */
#include <dod/csr_build.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "csr_model.h"

#define N_UNITS 120000u
#define N_ROWS 50000u

typedef struct unit_rec {
    uint32_t location;
    float health, mood, speed;
    unsigned char tag[3];
} unit_rec;

typedef struct fixture {
    unit_rec *units;
    dod_csr index; /* units by location */
    unsigned char *out[5]; /* room for N_UNITS elements of up to 16 bytes each */
} fixture;

static csr_execs execs;

static fixture make_fixture(void)
{
    test_rng rng = { 21 };
    fixture f;
    f.units = (unit_rec *)malloc(N_UNITS * sizeof *f.units);
    for (uint32_t i = 0; i < N_UNITS; ++i) {
        unit_rec *u = &f.units[i];
        u->location = test_rng_below(&rng, N_ROWS);
        u->health = (float)test_rng_below(&rng, 1000);
        u->mood = (float)i;
        u->speed = (float)(i % 77);
        u->tag[0] = (unsigned char)i;
        u->tag[1] = (unsigned char)(i >> 8);
        u->tag[2] = (unsigned char)(i >> 16);
    }
    dod_csr_init(&f.index, NULL);
    CHECK_OK(dod_csr_build(&f.index, N_ROWS, &f.units[0].location, sizeof(unit_rec), N_UNITS));
    for (int k = 0; k < 5; ++k)
        f.out[k] = (unsigned char *)calloc(N_UNITS, 16);
    return f;
}

static void free_fixture(fixture *f)
{
    dod_csr_free(&f->index);
    for (int k = 0; k < 5; ++k)
        free(f->out[k]);
    free(f->units);
}

/* A column from the field at `field` of every unit into out[k]. */
static dod_csr_column column(const fixture *f, int k, const void *field, size_t size)
{
    dod_csr_column c = { f->out[k], field, sizeof(unit_rec), size };
    return c;
}

/* The column holds, in row order, the `size` bytes of the unit each item names. */
static int gathered(const fixture *f, const dod_csr_column *c)
{
    const unsigned char *dst = (const unsigned char *)c->dst, *src = (const unsigned char *)c->src;
    for (uint32_t j = 0; j < N_UNITS; ++j)
        if (memcmp(dst + j * c->size, src + (size_t)f->index.items[j] * c->src_stride, c->size))
            return 0;
    return 1;
}

/* Up to four 4-byte columns go in one pass; one alone; mixed sizes column by column; records
 * of 8, 12 and 16 bytes; five columns, more than the one pass takes. */
static void test_column_kinds(fixture *f, const dod_executor *ex)
{
    const unit_rec *u = f->units;
    dod_csr_column four[4] = { column(f, 0, &u->health, 4), column(f, 1, &u->mood, 4),
                               column(f, 2, &u->speed, 4), column(f, 3, &u->location, 4) };
    for (uint32_t n = 1; n <= 4; ++n) {
        CHECK_OK(dod_csr_gather(&f->index, four, n, N_UNITS, ex));
        CHECK(gathered(f, &four[n - 1]));
    }
    dod_csr_column mixed[2] = { column(f, 0, &u->health, 4), column(f, 1, u->tag, 3) };
    CHECK_OK(dod_csr_gather(&f->index, mixed, 2, N_UNITS, ex));
    CHECK(gathered(f, &mixed[0]) && gathered(f, &mixed[1]));
    const size_t sizes[3] = { 8, 12, 16 };
    for (int z = 0; z < 3; ++z) {
        dod_csr_column rec = column(f, 4, sizes[z] == 16 ? (const void *)&u->location
                                                         : (const void *)&u->health, sizes[z]);
        CHECK_OK(dod_csr_gather(&f->index, &rec, 1, N_UNITS, ex));
        CHECK(gathered(f, &rec));
    }
    dod_csr_column five[5] = { four[0], four[1], four[2], four[3],
                               column(f, 4, &u->speed, 4) };
    for (int k = 0; k < 5; ++k)
        memset(f->out[k], 0, N_UNITS * 4);
    CHECK_OK(dod_csr_gather(&f->index, five, 5, N_UNITS, ex));
    for (int k = 0; k < 5; ++k)
        CHECK(gathered(f, &five[k]));
}

/* Every refusal leaves the destination as it was. */
static void test_refusals(fixture *f)
{
    dod_csr_column col = column(f, 0, &f->units[0].health, 4), bad;
    memset(f->out[0], 0x5A, N_UNITS * 4);
    CHECK_STATUS(dod_csr_gather(&f->index, &col, 1, N_UNITS - 1, NULL), DOD_E_RANGE);
    CHECK_STATUS(dod_csr_gather(NULL, &col, 1, N_UNITS, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_csr_gather(&f->index, NULL, 1, N_UNITS, NULL), DOD_E_INVALID);
    bad = col;
    bad.size = 0;
    CHECK_STATUS(dod_csr_gather(&f->index, &bad, 1, N_UNITS, NULL), DOD_E_INVALID);
    bad = col;
    bad.src_stride = 2;
    CHECK_STATUS(dod_csr_gather(&f->index, &bad, 1, N_UNITS, NULL), DOD_E_INVALID);
    bad = col;
    bad.dst = NULL;
    CHECK_STATUS(dod_csr_gather(&f->index, &bad, 1, N_UNITS, NULL), DOD_E_INVALID);
    bad = col;
    bad.src = NULL;
    CHECK_STATUS(dod_csr_gather(&f->index, &bad, 1, N_UNITS, NULL), DOD_E_INVALID);
    bad = col;
    bad.size = SIZE_MAX / 2;
    bad.src_stride = SIZE_MAX;
    CHECK_STATUS(dod_csr_gather(&f->index, &bad, 1, N_UNITS, NULL), DOD_E_OVERFLOW);
    dod_executor broken = { NULL, NULL, 2 }, no_threads = execs.e[1];
    no_threads.n_threads = 0;
    CHECK_STATUS(dod_csr_gather(&f->index, &col, 1, N_UNITS, &broken), DOD_E_INVALID);
    CHECK_STATUS(dod_csr_gather(&f->index, &col, 1, N_UNITS, &no_threads), DOD_E_INVALID);
    int untouched = 1;
    for (size_t j = 0; j < N_UNITS * 4; ++j)
        untouched = untouched && f->out[0][j] == 0x5A;
    CHECK(untouched);
    CHECK_OK(dod_csr_gather(&f->index, NULL, 0, N_UNITS, NULL));
}

/* A value build remembers its largest value; copies keep it, a cleared index has none. */
static void test_value_bound(fixture *f)
{
    uint32_t keys[3] = { 0, 1, 0 }, vals[3] = { 5, 2, 9 };
    dod_csr_desc d;
    memset(&d, 0, sizeof d);
    d.n_rows = 2;
    d.n_items = 3;
    d.keys = keys;
    d.values = vals;
    dod_csr built, copy;
    dod_csr_init(&built, NULL);
    dod_csr_init(&copy, NULL);
    CHECK_OK(dod_csr_build_desc(&built, &d));
    CHECK_OK(dod_csr_copy(&copy, &built));
    dod_csr_column col = column(f, 0, &f->units[0].health, 4);
    const float *health = (const float *)(const void *)f->out[0];
    CHECK_STATUS(dod_csr_gather(&copy, &col, 1, 9, NULL), DOD_E_RANGE);
    CHECK_OK(dod_csr_gather(&copy, &col, 1, 10, NULL));
    CHECK(health[0] == f->units[5].health && health[1] == f->units[9].health &&
          health[2] == f->units[2].health);
    dod_csr_clear(&copy);
    CHECK_OK(dod_csr_gather(&copy, &col, 1, 0, NULL));
    dod_csr_free(&copy);
    dod_csr_free(&built);
}

int main(void)
{
    csr_execs_start(&execs);
    fixture f = make_fixture();
    for (int e = -1; e < CSR_EXECS; ++e)
        test_column_kinds(&f, e < 0 ? NULL : &execs.e[e]);
    test_refusals(&f);
    test_value_bound(&f);
    free_fixture(&f);
    csr_execs_stop(&execs);
    return check_summary("test_csr_gather");
}
