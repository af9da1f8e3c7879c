#include <dod/table.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "table_snap.h"

/* The columns every model test uses: two hot 4-byte columns and a byte, two cold ones. */
enum { C_KEY, C_F, C_BLOB, C_BYTE, C_WIDE, N_COLS };
static const dod_table_column_desc COLS[N_COLS] = {
    { 4, 4, 0 }, { 4, 4, 0 }, { 24, 1, 7 }, { 1, 1, 0 }, { 8, 8, 7 },
};

typedef struct rec {
    dod_table_handle h;
    uint32_t key;
    float f;
    unsigned char blob[24];
    uint8_t byte;
    uint64_t wide;
} rec;

/* The reference model: the records in row order, and handles that must never resolve. */
typedef struct model {
    rec *rows;
    uint32_t n, cap;
    dod_table_handle dead[256];
    uint32_t n_dead, next_dead;
} model;

static void model_add_dead(model *m, dod_table_handle h)
{
    m->dead[m->next_dead] = h;
    m->next_dead = (m->next_dead + 1) % 256;
    if (m->n_dead < 256)
        m->n_dead++;
}

static void write_row(dod_table *t, uint32_t row, const rec *r)
{
    memcpy((char *)dod_table_column(t, C_KEY) + row * 4, &r->key, 4);
    memcpy((char *)dod_table_column(t, C_F) + row * 4, &r->f, 4);
    memcpy((char *)dod_table_column(t, C_BLOB) + row * 24, r->blob, 24);
    memcpy((char *)dod_table_column(t, C_BYTE) + row, &r->byte, 1);
    memcpy((char *)dod_table_column(t, C_WIDE) + row * 8, &r->wide, 8);
}

static int row_matches(const dod_table *t, uint32_t row, const rec *r)
{
    return memcmp((char *)dod_table_column(t, C_KEY) + row * 4, &r->key, 4) == 0 &&
           memcmp((char *)dod_table_column(t, C_F) + row * 4, &r->f, 4) == 0 &&
           memcmp((char *)dod_table_column(t, C_BLOB) + row * 24, r->blob, 24) == 0 &&
           memcmp((char *)dod_table_column(t, C_BYTE) + row, &r->byte, 1) == 0 &&
           memcmp((char *)dod_table_column(t, C_WIDE) + row * 8, &r->wide, 8) == 0;
}

/* Every live handle resolves to its row with its values, rows map back to handles, every
 * dead handle is refused. Returns 1 when all hold. */
static int matches(const dod_table *t, const model *m)
{
    if (dod_table_count(t) != m->n)
        return 0;
    for (uint32_t i = 0; i < m->n; ++i) {
        uint32_t row = UINT32_MAX;
        if (dod_table_find(t, m->rows[i].h, &row) != DOD_OK || row != i)
            return 0;
        if (dod_table_handle_at(t, i).bits != m->rows[i].h.bits || !row_matches(t, i, &m->rows[i]))
            return 0;
    }
    for (uint32_t d = 0; d < m->n_dead; ++d) {
        uint32_t row = 12345;
        if (dod_table_find(t, m->dead[d], &row) != DOD_E_NOT_FOUND || row != 12345)
            return 0;
    }
    for (uint32_t c = 0; c < N_COLS && t->row_cap > 0; ++c)
        if ((uintptr_t)dod_table_column(t, c) % DOD_ALIGN != 0)
            return 0;
    return 1;
}

static void random_rec(test_rng *rng, rec *r)
{
    r->key = test_rng_below(rng, 20); /* few keys, so sorts meet ties */
    if (test_rng_below(rng, 4) == 0)
        r->key = (uint32_t)test_rng_next(rng);
    r->f = (float)((int)test_rng_below(rng, 200) - 100) * 0.5f;
    for (int k = 0; k < 24; ++k)
        r->blob[k] = (unsigned char)test_rng_below(rng, 3);
    r->byte = (uint8_t)test_rng_next(rng);
    r->wide = test_rng_next(rng);
}

/* Stable reference sorts over the model's rows (insertion sort). */
typedef int (*rec_less)(const rec *a, const rec *b);
static int less_u32(const rec *a, const rec *b) { return a->key < b->key; }
static int less_i32(const rec *a, const rec *b) { return (int32_t)a->key < (int32_t)b->key; }
static int less_f32(const rec *a, const rec *b) { return a->f < b->f; }
static int less_blob(const rec *a, const rec *b) { return memcmp(a->blob, b->blob, 24) < 0; }

static void model_sort(model *m, rec_less less)
{
    for (uint32_t i = 1; i < m->n; ++i) {
        rec v = m->rows[i];
        uint32_t j = i;
        while (j > 0 && less(&v, &m->rows[j - 1])) {
            m->rows[j] = m->rows[j - 1];
            --j;
        }
        m->rows[j] = v;
    }
}

static int cmp_blob(const void *a, const void *b, void *ctx)
{
    (*(int *)ctx)++;
    return memcmp(a, b, 24);
}

static void model_swap_remove(model *m, uint32_t i)
{
    model_add_dead(m, m->rows[i].h);
    m->rows[i] = m->rows[--m->n];
}

static void test_model(void)
{
    test_rng rng = { 7 };
    for (int round = 0; round < 12; ++round) {
        dod_table t, other;
        CHECK_OK(dod_table_init(&t, COLS, N_COLS, NULL));
        CHECK_OK(dod_table_init(&other, COLS, N_COLS, NULL));
        model m;
        memset(&m, 0, sizeof m);
        m.cap = 1024;
        m.rows = (rec *)malloc(m.cap * sizeof(rec));
        int ok = 1;
        for (int step = 0; step < 700 && ok; ++step) {
            uint32_t op = test_rng_below(&rng, 100);
            if (op < 45 && m.n < m.cap) { /* push */
                rec r;
                random_rec(&rng, &r);
                CHECK_OK(dod_table_push(&t, &r.h));
                CHECK(r.h.bits != 0);
                uint32_t row = 0;
                CHECK_OK(dod_table_find(&t, r.h, &row));
                CHECK(row == m.n && row_matches(&t, row, &(rec){ r.h, 0, 0.0f, { 0 }, 0, 0 }));
                write_row(&t, row, &r);
                m.rows[m.n++] = r;
            } else if (op < 60 && m.n > 0) { /* swap-remove */
                uint32_t i = test_rng_below(&rng, m.n);
                CHECK_OK(dod_table_remove(&t, m.rows[i].h));
                model_swap_remove(&m, i);
            } else if (op < 65 && m.n > 0) { /* ordered remove */
                uint32_t i = test_rng_below(&rng, m.n);
                CHECK_OK(dod_table_remove_ordered(&t, m.rows[i].h));
                model_add_dead(&m, m.rows[i].h);
                memmove(&m.rows[i], &m.rows[i + 1], (m.n - i - 1) * sizeof(rec));
                m.n--;
            } else if (op < 68 && m.n > 0) { /* pop */
                CHECK_OK(dod_table_pop(&t));
                model_swap_remove(&m, m.n - 1);
            } else if (op < 72 && m.n_dead > 0) { /* stale handles change nothing */
                dod_table_handle h = m.dead[test_rng_below(&rng, m.n_dead)];
                table_snap s = snap_take(&t);
                CHECK_STATUS(dod_table_remove(&t, h), DOD_E_NOT_FOUND);
                CHECK_STATUS(dod_table_remove_ordered(&t, h), DOD_E_NOT_FOUND);
                CHECK(snap_unchanged(&t, &s));
            } else if (op < 78) { /* permute */
                uint32_t *perm = (uint32_t *)malloc((m.n + 1) * sizeof(uint32_t));
                for (uint32_t i = 0; i < m.n; ++i)
                    perm[i] = i;
                for (uint32_t i = m.n; i > 1; --i) {
                    uint32_t j = test_rng_below(&rng, i), x = perm[i - 1];
                    perm[i - 1] = perm[j];
                    perm[j] = x;
                }
                CHECK_OK(dod_table_permute(&t, perm));
                rec *old = (rec *)malloc((m.n + 1) * sizeof(rec));
                memcpy(old, m.rows, m.n * sizeof(rec));
                for (uint32_t i = 0; i < m.n; ++i)
                    m.rows[i] = old[perm[i]];
                free(old);
                free(perm);
            } else if (op < 81) {
                CHECK_OK(dod_table_sort_u32(&t, C_KEY));
                model_sort(&m, less_u32);
            } else if (op < 84) {
                CHECK_OK(dod_table_sort_i32(&t, C_KEY));
                model_sort(&m, less_i32);
            } else if (op < 87) {
                CHECK_OK(dod_table_sort_f32(&t, C_F));
                model_sort(&m, less_f32);
            } else if (op < 90) {
                int calls = 0;
                CHECK_OK(dod_table_sort_by(&t, C_BLOB, cmp_blob, &calls));
                CHECK(m.n < 2 || calls > 0);
                model_sort(&m, less_blob);
            } else if (op < 96) { /* copy, then carry on with the copy */
                CHECK_OK(dod_table_copy(&other, &t));
                CHECK(matches(&other, &m));
                dod_table x = t;
                t = other;
                other = x;
            } else if (op < 98) {
                CHECK_OK(dod_table_reserve(&t, m.n + test_rng_below(&rng, 100)));
            } else if (op < 99) {
                for (uint32_t i = 0; i < m.n; ++i)
                    model_add_dead(&m, m.rows[i].h);
                dod_table_clear(&t);
                m.n = 0;
            }
            ok = matches(&t, &m);
            CHECK(ok);
        }
        free(m.rows);
        dod_table_free(&t);
        dod_table_free(&other);
    }
}

static void test_init_errors(void)
{
    dod_table t;
    dod_table_column_desc bad[2] = { { 4, 4, 0 }, { 4, 4, 0 } };
    CHECK_STATUS(dod_table_init(NULL, COLS, N_COLS, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_table_init(&t, NULL, 1, NULL), DOD_E_INVALID);
    CHECK(t.n_cols == 0 && t.n_rows == 0 && t.row_cap == 0);
    CHECK_STATUS(dod_table_init(&t, COLS, DOD_TABLE_MAX_COLUMNS + 1, NULL), DOD_E_RANGE);
    bad[1].size = 0;
    CHECK_STATUS(dod_table_init(&t, bad, 2, NULL), DOD_E_INVALID);
    bad[1].size = 4, bad[1].align = 3;
    CHECK_STATUS(dod_table_init(&t, bad, 2, NULL), DOD_E_INVALID);
    bad[1].align = 0;
    CHECK_STATUS(dod_table_init(&t, bad, 2, NULL), DOD_E_INVALID);
    bad[1].size = 128, bad[1].align = 128;
    CHECK_STATUS(dod_table_init(&t, bad, 2, NULL), DOD_E_INVALID);
    bad[1].size = 6, bad[1].align = 4;
    CHECK_STATUS(dod_table_init(&t, bad, 2, NULL), DOD_E_INVALID);
    CHECK(t.n_cols == 0);
    dod_table_free(&t); /* an init that failed is safe to free */
    bad[1].size = 64, bad[1].align = 64;
    CHECK_OK(dod_table_init(&t, bad, 2, NULL));
    CHECK(t.n_cols == 2 && dod_table_column(&t, 0) == NULL && dod_table_bytes(&t) == 0);
    dod_table_free(&t);

    /* Zero columns: a table of handles only. */
    CHECK_OK(dod_table_init(&t, NULL, 0, NULL));
    dod_table_handle h[3];
    for (int i = 0; i < 3; ++i)
        CHECK_OK(dod_table_push(&t, &h[i]));
    CHECK_OK(dod_table_remove(&t, h[0]));
    uint32_t row;
    CHECK_OK(dod_table_find(&t, h[2], &row));
    CHECK(row == 0 && dod_table_count(&t) == 2);
    dod_table_free(&t);
}

/* Groups: columns of one group share one block, in declaration order, each on a line. */
static void test_layout(void)
{
    dod_table t;
    CHECK_OK(dod_table_init(&t, COLS, N_COLS, NULL));
    CHECK(t.n_groups == 2);
    CHECK_OK(dod_table_reserve(&t, 100));
    CHECK(t.row_cap == 100);
    char *b0 = (char *)t.block[0], *b1 = (char *)t.block[1];
    CHECK((char *)dod_table_column(&t, C_KEY) == b0);
    CHECK((char *)dod_table_column(&t, C_F) == b0 + 448);   /* 400 rounded up to 448 */
    CHECK((char *)dod_table_column(&t, C_BYTE) == b0 + 896);
    CHECK(t.block_bytes[0] == 896 + 128);
    CHECK((char *)dod_table_column(&t, C_BLOB) == b1);
    CHECK((char *)dod_table_column(&t, C_WIDE) == b1 + 2432); /* 2400 -> 2432 */
    CHECK(t.block_bytes[1] == 2432 + 832);
    CHECK(t.block_bytes[2] == 448); /* the back-pointer column, 4 bytes a row */
    CHECK(dod_table_column(&t, N_COLS) == NULL && dod_table_column(NULL, 0) == NULL);
    CHECK(dod_table_bytes(&t) == 1024 + 3264 + 448 + 100 * sizeof(dod_table_slot));
    dod_table_free(&t);
    CHECK(t.n_cols == N_COLS && t.row_cap == 0 && t.block[0] == NULL && dod_table_bytes(&t) == 0);
}

static void test_handles_refused(void)
{
    dod_table t, u;
    CHECK_OK(dod_table_init(&t, COLS, N_COLS, NULL));
    CHECK_OK(dod_table_init(&u, COLS, N_COLS, NULL));
    dod_table_handle h[4], hu;
    for (int i = 0; i < 4; ++i)
        CHECK_OK(dod_table_push(&t, &h[i]));
    CHECK_OK(dod_table_push(&u, &hu));
    CHECK_OK(dod_table_remove(&t, h[1]));
    uint32_t row = 99;
    dod_table_handle null_h = { 0 };
    dod_table_handle forged[6];
    forged[0] = null_h;
    forged[1] = h[1];                                   /* stale */
    forged[2] = hu;                                     /* another table's, same slot 0 */
    forged[3].bits = h[0].bits + 2ull * (1ull << 32);   /* a later generation */
    forged[4].bits = h[0].bits + 1ull * (1ull << 32);   /* an even generation */
    forged[5].bits = (h[0].bits & ~0xFFFFFFFFull) | 1000; /* a slot never handed out */
    for (int i = 0; i < 6; ++i) {
        table_snap s = snap_take(&t);
        CHECK_STATUS(dod_table_find(&t, forged[i], &row), DOD_E_NOT_FOUND);
        CHECK_STATUS(dod_table_remove(&t, forged[i]), DOD_E_NOT_FOUND);
        CHECK_STATUS(dod_table_remove_ordered(&t, forged[i]), DOD_E_NOT_FOUND);
        CHECK(snap_unchanged(&t, &s));
        CHECK(row == 99);
    }
    CHECK((hu.bits >> 52) != (h[0].bits >> 52)); /* the tags differ */
    CHECK((uint32_t)hu.bits == (uint32_t)h[0].bits);
    CHECK_STATUS(dod_table_find(NULL, h[0], &row), DOD_E_INVALID);
    CHECK_STATUS(dod_table_find(&t, h[0], NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_table_remove(NULL, h[0]), DOD_E_INVALID);
    CHECK_STATUS(dod_table_remove_ordered(NULL, h[0]), DOD_E_INVALID);
    CHECK_STATUS(dod_table_push(NULL, &hu), DOD_E_INVALID);
    CHECK_STATUS(dod_table_push(&t, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_table_pop(NULL), DOD_E_INVALID);
    CHECK(dod_table_handle_at(&t, 3).bits == 0 && dod_table_handle_at(NULL, 0).bits == 0);
    CHECK(dod_table_count(NULL) == 0);

    /* A slot freed and reused gets a new generation; the old handle stays refused. */
    dod_table_handle again;
    CHECK_OK(dod_table_push(&t, &again));
    CHECK((uint32_t)again.bits == (uint32_t)h[1].bits && again.bits != h[1].bits);
    CHECK_STATUS(dod_table_find(&t, h[1], &row), DOD_E_NOT_FOUND);

    /* After free, the re-initialised table has a fresh tag: old handles are refused. */
    dod_table_free(&t);
    CHECK_OK(dod_table_push(&t, &again));
    CHECK_STATUS(dod_table_find(&t, h[0], &row), DOD_E_NOT_FOUND);
    CHECK_OK(dod_table_find(&t, again, &row));

    /* pop on an empty table; clear refuses every handle and reuses slots. */
    dod_table_clear(&t);
    CHECK_STATUS(dod_table_find(&t, again, &row), DOD_E_NOT_FOUND);
    table_snap s = snap_take(&t);
    CHECK_STATUS(dod_table_pop(&t), DOD_E_RANGE);
    CHECK(snap_unchanged(&t, &s));
    dod_table_free(&t);
    dod_table_free(&u);
}

/* A slot whose generation would wrap is retired: never handed out again. */
static void test_generation_retires(void)
{
    dod_table t;
    CHECK_OK(dod_table_init(&t, NULL, 0, NULL));
    dod_table_handle first, h;
    CHECK_OK(dod_table_push(&t, &first));
    h = first;
    uint32_t lives = 1;
    while ((uint32_t)h.bits == 0) {
        CHECK_OK(dod_table_remove(&t, h));
        CHECK_OK(dod_table_push(&t, &h));
        ++lives;
        if (lives > (1u << 19) + 1)
            break;
    }
    CHECK(lives == (1u << 19) + 1); /* generations 1, 3, ..., 2^20 - 1, then a new slot */
    CHECK((uint32_t)h.bits == 1 && t.n_slots == 2 && t.n_free == 0);
    CHECK(t.slots[0].gen == (1u << 20));
    uint32_t row;
    CHECK_STATUS(dod_table_find(&t, first, &row), DOD_E_NOT_FOUND);
    dod_table_handle last_of_slot0 = { first.bits | (0xFFFFFull << 32) };
    CHECK_STATUS(dod_table_find(&t, last_of_slot0, &row), DOD_E_NOT_FOUND);
    dod_table_free(&t);
}

static void test_errors_unchanged(void)
{
    dod_table t;
    CHECK_OK(dod_table_init(&t, COLS, N_COLS, NULL));
    dod_table_handle h;
    for (int i = 0; i < 10; ++i) {
        CHECK_OK(dod_table_push(&t, &h));
        *((uint32_t *)dod_table_column(&t, C_KEY) + i) = (uint32_t)(7 * i % 10);
    }
    uint32_t perm[10] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    table_snap s = snap_take(&t);
    CHECK_STATUS(dod_table_permute(NULL, perm), DOD_E_INVALID);
    CHECK_STATUS(dod_table_permute(&t, NULL), DOD_E_INVALID);
    perm[9] = 10;
    CHECK_STATUS(dod_table_permute(&t, perm), DOD_E_RANGE);
    perm[9] = 8;
    CHECK_STATUS(dod_table_permute(&t, perm), DOD_E_INVALID);
    CHECK_STATUS(dod_table_sort_u32(NULL, 0), DOD_E_INVALID);
    CHECK_STATUS(dod_table_sort_u32(&t, N_COLS), DOD_E_RANGE);
    CHECK_STATUS(dod_table_sort_i32(&t, C_BLOB), DOD_E_INVALID);
    CHECK_STATUS(dod_table_sort_f32(&t, C_WIDE), DOD_E_INVALID);
    CHECK_STATUS(dod_table_sort_by(&t, C_KEY, NULL, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_table_sort_by(NULL, C_KEY, cmp_blob, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_table_sort_by(&t, N_COLS, cmp_blob, NULL), DOD_E_RANGE);
    CHECK_STATUS(dod_table_reserve(NULL, 1), DOD_E_INVALID);
    CHECK_STATUS(dod_table_reserve(&t, UINT32_MAX), DOD_E_OVERFLOW);
    CHECK_STATUS(dod_table_copy(NULL, &t), DOD_E_INVALID);
    CHECK_STATUS(dod_table_copy(&t, NULL), DOD_E_INVALID);
    CHECK_OK(dod_table_copy(&t, &t));
    CHECK(snap_unchanged(&t, &s));

    /* An element size whose byte count overflows size_t. */
    dod_table_column_desc huge = { (size_t)1 << (sizeof(size_t) * 8 - 4), 64, 0 };
    dod_table big;
    CHECK_OK(dod_table_init(&big, &huge, 1, NULL));
    s = snap_take(&big);
    CHECK_STATUS(dod_table_push(&big, &h), DOD_E_OVERFLOW);
    CHECK_STATUS(dod_table_reserve(&big, 1000), DOD_E_OVERFLOW);
    CHECK(snap_unchanged(&big, &s));
    dod_table_free(&big);
    dod_table_free(&t);
}

/* The seed's swap-remove: the last row moves into the hole and its handle follows it. */
static void test_swap_remove_moves_last(void)
{
    dod_table t;
    CHECK_OK(dod_table_init(&t, COLS, N_COLS, NULL));
    dod_table_handle h[8];
    for (uint32_t i = 0; i < 8; ++i) {
        CHECK_OK(dod_table_push(&t, &h[i]));
        ((uint32_t *)dod_table_column(&t, C_KEY))[i] = 100 + i;
    }
    CHECK_OK(dod_table_remove(&t, h[3]));
    uint32_t row;
    CHECK_OK(dod_table_find(&t, h[7], &row));
    CHECK(row == 3 && ((uint32_t *)dod_table_column(&t, C_KEY))[3] == 107);
    CHECK(dod_table_count(&t) == 7);
    dod_table_free(&t);
}

int main(void)
{
    test_init_errors();
    test_layout();
    test_handles_refused();
    test_generation_retires();
    test_errors_unchanged();
    test_swap_remove_moves_last();
    test_model();
    return check_summary("test_table");
}
