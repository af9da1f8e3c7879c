/* The typed X-macro layer over a table: generated descs, typed columns, rows and handles. */
#include <dod/table_typed.h>
#include <string.h>
#include "check.h"

typedef char name24[24];
#define REGIMENT(X) X(float, health, 0) X(float, mood, 0) X(uint32_t, location, 0) \
                    X(name24, name, 1) X(double, speed, 2)
DOD_TABLE_TYPED(regiment, REGIMENT)

/* A hot loop over typed columns, written the way the benchmark's step is. */
static void heal(float *restrict health, const float *restrict mood, uint32_t n, float k)
{
    for (uint32_t i = 0; i < n; ++i)
        health[i] += mood[i] * k;
}

static void test_typed(void)
{
    CHECK(DOD_NCOLS(regiment) == 5 && DOD_COL(regiment, health) == 0 &&
          DOD_COL(regiment, name) == 3 && DOD_COL(regiment, speed) == 4);
    dod_table t;
    CHECK_OK(regiment_init(&t, NULL));
    CHECK(t.n_cols == 5 && t.n_groups == 3);
    CHECK(t.desc[3].size == 24 && t.desc[3].align == 1 && t.desc[3].group == 1);
    CHECK(t.desc[4].size == 8 && t.desc[4].align == _Alignof(double));
    regiment_handle h[40];
    for (uint32_t i = 0; i < 40; ++i) {
        regiment_row r;
        memset(&r, 0, sizeof r);
        r.health = (float)i;
        r.mood = 0.5f;
        r.location = i * 3;
        r.speed = i * 0.25;
        snprintf(r.name, sizeof r.name, "regiment %u", i);
        CHECK_OK(regiment_push(&t, &r, &h[i]));
    }
    regiment_cols c = regiment_columns(&t);
    CHECK((void *)c.health == dod_table_column(&t, 0) && (void *)c.name == dod_table_column(&t, 3));
    heal(c.health, c.mood, dod_table_count(&t), 2.0f);
    CHECK_OK(regiment_remove(&t, h[5]));
    uint32_t row;
    CHECK_STATUS(regiment_find(&t, h[5], &row), DOD_E_NOT_FOUND);
    CHECK_STATUS(regiment_remove(&t, h[5]), DOD_E_NOT_FOUND);
    CHECK_OK(regiment_find(&t, h[39], &row));
    CHECK_OK(dod_table_find(&t, h[39].h, &row)); /* the untyped handle inside */
    CHECK(row == 5);
    regiment_row r;
    regiment_get(&t, row, &r);
    CHECK(r.health == 40.0f && r.location == 117 && r.speed == 9.75 &&
          strcmp(r.name, "regiment 39") == 0);
    CHECK(*DOD_AT(regiment, &t, location, row) == 117);
    CHECK(strcmp(*DOD_AT(regiment, &t, name, row), "regiment 39") == 0);
    r.mood = -1.0f;
    regiment_set(&t, 0, &r);
    CHECK(c.mood[0] == -1.0f && c.location[0] == 117);
    /* Sorting by a typed column keeps typed rows whole. */
    CHECK_OK(dod_table_sort_u32(&t, DOD_COL(regiment, location)));
    c = regiment_columns(&t);
    for (uint32_t i = 1; i < dod_table_count(&t); ++i)
        CHECK(c.location[i - 1] <= c.location[i]);
    CHECK_OK(regiment_find(&t, h[7], &row));
    CHECK(c.location[row] == 21 && strcmp(c.name[row], "regiment 7") == 0);

    /* push with no record: a zeroed row; NULL out and NULL table are refused like the untyped
     * calls, and a refused push leaves the table as it was */
    regiment_handle z;
    CHECK_OK(regiment_push(&t, NULL, &z));
    CHECK_OK(regiment_find(&t, z, &row));
    regiment_get(&t, row, &r);
    CHECK(r.health == 0.0f && r.location == 0 && r.name[0] == 0);
    uint32_t n = dod_table_count(&t);
    CHECK_STATUS(regiment_push(&t, NULL, NULL), DOD_E_INVALID);
    CHECK_STATUS(regiment_push(NULL, NULL, &z), DOD_E_INVALID);
    CHECK_STATUS(regiment_find(NULL, z, &row), DOD_E_INVALID);
    CHECK_STATUS(regiment_remove(NULL, z), DOD_E_INVALID);
    CHECK_EQ(dod_table_count(&t), n);
    dod_table_free(&t);
}

int main(void)
{
    test_typed();
    return check_summary("test_table_typed");
}
