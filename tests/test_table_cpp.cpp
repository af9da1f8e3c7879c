// The table, its typed layer and the AoSoA tiles compile as C++ and link against the C library.
#include <dod/table_typed.h>
#include <dod/aosoa.h>
#include <cstring>
#include "check.h"

typedef char name8[8];
#define UNIT(X) X(float, x, 0) X(float, y, 0) X(name8, name, 1)
DOD_TABLE_TYPED(unit, UNIT)
DOD_AOSOA(unit4, 4, UNIT)

static void kernel(unit4 *t, size_t lanes, float *sum)
{
    for (size_t l = 0; l < lanes; ++l)
        *sum += t->x[l];
}

int main()
{
    dod_table t;
    CHECK_OK(unit_init(&t, nullptr));
    unit_handle h[6];
    for (int i = 0; i < 6; ++i) {
        unit_row r;
        std::memset(&r, 0, sizeof r);
        r.x = (float)i;
        r.y = 2.0f * (float)i;
        r.name[0] = (char)('a' + i);
        CHECK_OK(unit_push(&t, &r, &h[i]));
    }
    CHECK_OK(dod_table_sort_f32(&t, DOD_COL(unit, x)));
    CHECK_OK(unit_remove(&t, h[0]));
    uint32_t row = 0;
    CHECK_OK(unit_find(&t, h[5], &row));
    CHECK(*DOD_AT(unit, &t, x, row) == 5.0f && (*DOD_AT(unit, &t, name, row))[0] == 'f');

    unit_cols c = unit_columns(&t);
    unit4_soa soa = { c.x, c.y, c.name };
    unit4 tiles[2];
    unit4_from_soa(tiles, soa, dod_table_count(&t));
    float sum = 0.0f;
    DOD_AOSOA_EACH(tiles, dod_table_count(&t), 4, kernel, &sum);
    CHECK(sum == 1.0f + 2.0f + 3.0f + 4.0f + 5.0f);
    dod_table copy;
    CHECK_OK(unit_init(&copy, nullptr));
    CHECK_OK(dod_table_copy(&copy, &t));
    CHECK_OK(unit_find(&copy, h[5], &row));
    dod_table_free(&copy);
    dod_table_free(&t);
    return check_summary("test_table_cpp");
}
