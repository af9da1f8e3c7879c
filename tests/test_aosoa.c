/* AoSoA tiles: round trips AoS <-> tiles <-> SoA at lengths that are not multiples of W, W = 1,
 * and the loop helper over full tiles and the tail. */
#include <dod/aosoa.h>
#include <stdio.h>
#include <stdlib.h>
#include "check.h"

typedef char name24[24];
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
    test_aosoa();
    return check_summary("test_aosoa");
}
