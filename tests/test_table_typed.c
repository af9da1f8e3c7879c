/* The typed X-macro layer over a table, and AoSoA tiles: round trips at lengths that are not
 * multiples of W. */
#include <dod/table_typed.h>
#include <dod/aosoa.h>
#include <stdlib.h>
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

#define BODY(X) X(float, px, 0) X(float, py, 0) X(uint32_t, id, 1) X(name24, tag, 1) \
                X(uint8_t, flags, 1)
DOD_AOSOA(body16, DOD_AOSOA_W, BODY)
DOD_AOSOA(body8, 8, BODY)
DOD_AOSOA(body1, 1, BODY)

static void fill_aos(body16_aos *a, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        memset(&a[i], 0, sizeof a[i]);
        a[i].px = (float)i;
        a[i].py = (float)i * -2.0f;
        a[i].id = (uint32_t)(i * 7 + 1);
        snprintf(a[i].tag, sizeof a[i].tag, "b%zu", i);
        a[i].flags = (uint8_t)(i * 13);
    }
}

static int aos_equal(const body16_aos *a, const body16_aos *b, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (a[i].px != b[i].px || a[i].py != b[i].py || a[i].id != b[i].id ||
            memcmp(a[i].tag, b[i].tag, 24) != 0 || a[i].flags != b[i].flags)
            return 0;
    return 1;
}

/* Kernel for the loop helper: counts lanes and moves px by the context's step. */
typedef struct step_ctx { float dt; size_t lanes, calls; } step_ctx;
static inline void step16(body16 *t, size_t lanes, step_ctx *c)
{
    for (size_t l = 0; l < lanes; ++l)
        t->px[l] += t->py[l] * c->dt;
    c->lanes += lanes;
    c->calls++;
}

static void test_aosoa(void)
{
    CHECK(sizeof(((body16 *)0)->px) == 64 && body16_W == 16 && body8_W == 8);
    const size_t lengths[] = { 0, 1, 7, 8, 15, 16, 17, 33, 100 };
    for (int li = 0; li < 9; ++li) {
        size_t n = lengths[li];
        body16_aos *aos = (body16_aos *)malloc((n + 1) * sizeof *aos);
        body16_aos *back = (body16_aos *)malloc((n + 1) * sizeof *back);
        fill_aos(aos, n);
        size_t nt = body16_tiles(n);
        CHECK(nt == (n + 15) / 16 && body8_tiles(n) == (n + 7) / 8 && body1_tiles(n) == n);
        body16 *tiles = (body16 *)malloc((nt + 1) * sizeof *tiles);
        memset(tiles, 0xCD, (nt + 1) * sizeof *tiles);
        body16_from_aos(tiles, aos, n);
        /* Record i is lane i % 16 of tile i / 16; unused lanes of the last tile are zero. */
        for (size_t i = 0; i < n; ++i)
            CHECK(tiles[i / 16].id[i % 16] == aos[i].id);
        for (size_t l = n % 16; n % 16 && l < 16; ++l)
            CHECK(tiles[n / 16].px[l] == 0.0f && tiles[n / 16].id[l] == 0 &&
                  tiles[n / 16].tag[l][23] == 0 && tiles[n / 16].flags[l] == 0);
        memset(back, 0, (n + 1) * sizeof *back);
        body16_to_aos(back, tiles, n);
        CHECK(aos_equal(aos, back, n));

        /* AoS -> SoA -> AoSoA (W = 8) -> SoA -> AoS. */
        float *px = (float *)malloc((n + 1) * 4), *py = (float *)malloc((n + 1) * 4);
        uint32_t *id = (uint32_t *)malloc((n + 1) * 4);
        name24 *tag = (name24 *)malloc((n + 1) * sizeof(name24));
        uint8_t *flags = (uint8_t *)malloc(n + 1);
        body16_soa soa = { px, py, id, tag, flags };
        body16_aos_to_soa(soa, aos, n);
        for (size_t i = 0; i < n; ++i)
            CHECK(px[i] == aos[i].px && id[i] == aos[i].id && flags[i] == aos[i].flags);
        body8_soa soa8 = { px, py, id, tag, flags };
        body8 *t8 = (body8 *)malloc((body8_tiles(n) + 1) * sizeof *t8);
        body8_from_soa(t8, soa8, n);
        for (size_t i = 0; i < n; ++i)
            CHECK(t8[i / 8].py[i % 8] == aos[i].py);
        memset(px, 0, (n + 1) * 4);
        memset(tag, 0, (n + 1) * sizeof(name24));
        body8_to_soa(soa8, t8, n);
        memset(back, 0, (n + 1) * sizeof *back);
        body16_soa_to_aos(back, soa, n);
        CHECK(aos_equal(aos, back, n));

        /* W = 1 degenerates to AoS with one record a tile. */
        body1 *t1 = (body1 *)malloc((n + 1) * sizeof *t1);
        body1_aos *a1 = (body1_aos *)malloc((n + 1) * sizeof *a1);
        body1_soa soa1 = { px, py, id, tag, flags };
        body1_from_soa(t1, soa1, n);
        body1_to_aos(a1, t1, n);
        for (size_t i = 0; i < n; ++i)
            CHECK(a1[i].px == aos[i].px && a1[i].flags == aos[i].flags &&
                  memcmp(a1[i].tag, aos[i].tag, 24) == 0);
        free(a1);

        /* The loop helper visits every record once: full tiles then the tail. */
        step_ctx ctx = { 0.5f, 0, 0 };
        DOD_AOSOA_EACH(tiles, n, 16, step16, &ctx);
        CHECK(ctx.lanes == n && ctx.calls == nt);
        body16_to_aos(back, tiles, n);
        for (size_t i = 0; i < n; ++i)
            CHECK(back[i].px == aos[i].px + aos[i].py * 0.5f && back[i].id == aos[i].id);

        free(t1);
        free(t8);
        free(px), free(py), free(id), free(tag), free(flags);
        free(tiles);
        free(aos);
        free(back);
    }
}

int main(void)
{
    test_typed();
    test_aosoa();
    return check_summary("test_table_typed");
}
