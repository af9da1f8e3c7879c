/* The world's queries and iteration: matching by bitset, archetypes in id order, blocks in
 * order, empty archetypes skipped, fields, and queries that match nothing. */
#include <dod/world.h>
#include <string.h>
#include "check.h"
#include "world_check.h"

enum { C_A, C_B, C_C, C_D, N_COMPS };
static const dod_component_desc COMPS[N_COMPS] = {
    { "a", 4, 4 }, { "b", 8, 8 }, { "c", 16, 16 }, { "d", 2, 2 },
};
static const uint32_t AB[] = { C_A, C_B }, A[] = { C_A }, BC[] = { C_B, C_C },
                      ABC[] = { C_C, C_B, C_A }, D[] = { C_D };
enum { N_ARCHS = 6 };
static const dod_archetype_desc ARCHS[N_ARCHS] = {
    { "ab", AB, 2, 0, 256, 0, 0 }, { "a", A, 1, 50, 0, 0, 0 },    { "bc", BC, 2, 0, 512, 0, 0 },
    { "abc", ABC, 3, 0, 1024, 0, 0 }, { "d", D, 1, 0, 0, 0, 0 }, { "none", NULL, 0, 0, 0, 0, 0 },
};

static dod_world *make(void)
{
    dod_world_desc d = world_desc_of(COMPS, N_COMPS, ARCHS, N_ARCHS, NULL);
    dod_world *w = NULL;
    CHECK_OK(dod_world_create(&w, &d));
    return w;
}

/* The archetypes a query matches, as a bit mask, read through iteration over a world in
 * which every archetype holds rows. */
static uint32_t matched(const dod_world *w, const uint32_t *all, uint32_t n_all,
                        const uint32_t *none, uint32_t n_none)
{
    dod_query q;
    CHECK_OK(dod_query_init(&q, w, all, n_all, none, n_none));
    dod_world_iter it;
    dod_world_iter_init(&it, w, &q);
    uint32_t mask = 0;
    while (dod_world_next(&it))
        mask |= 1u << it.archetype;
    return mask;
}

static void test_matching(void)
{
    dod_world *w = make();
    for (uint32_t a = 0; a < N_ARCHS; ++a)
        CHECK_OK(dod_world_spawn_n(w, a, 3, NULL));
    const uint32_t a[] = { C_A }, b[] = { C_B }, ab[] = { C_A, C_B, C_A }, c[] = { C_C };
    CHECK_EQ(matched(w, NULL, 0, NULL, 0), 0x3Fu); /* everything, ids-only archetype too */
    CHECK_EQ(matched(w, a, 1, NULL, 0), 0x0Bu);
    CHECK_EQ(matched(w, ab, 3, NULL, 0), 0x09u);  /* repeats are fine */
    CHECK_EQ(matched(w, b, 1, c, 1), 0x01u);
    CHECK_EQ(matched(w, NULL, 0, a, 1), 0x34u);
    CHECK_EQ(matched(w, a, 1, a, 1), 0x00u);
    /* refusals leave the query as it was */
    dod_query q, copy;
    CHECK_OK(dod_query_init(&q, w, a, 1, NULL, 0));
    copy = q;
    const uint32_t unknown[] = { N_COMPS };
    CHECK_STATUS(dod_query_init(&q, w, unknown, 1, NULL, 0), DOD_E_RANGE);
    CHECK_STATUS(dod_query_init(&q, w, a, 1, unknown, 1), DOD_E_RANGE);
    CHECK_STATUS(dod_query_init(&q, w, NULL, 2, NULL, 0), DOD_E_INVALID);
    CHECK(memcmp(&q, &copy, sizeof q) == 0);
    dod_world_destroy(w);
}

/* Visits: archetypes in id order, blocks in order, empty ones skipped, each row once. */
static void test_iteration(void)
{
    dod_world *w = make();
    dod_entity e[400];
    CHECK_OK(dod_world_spawn_n(w, 3, 400, e));   /* several blocks of abc */
    CHECK_OK(dod_world_spawn_n(w, 0, 100, NULL)); /* and of ab */
    CHECK_OK(dod_world_spawn_n(w, 2, 10, NULL));
    CHECK_OK(dod_world_despawn(w, e[399]));
    const uint32_t b[] = { C_B };
    dod_query q;
    CHECK_OK(dod_query_init(&q, w, b, 1, NULL, 0));
    dod_world_iter it;
    dod_world_iter_init(&it, w, &q);
    uint32_t want_arch[3] = { 0, 2, 3 }, step = 0, rows[N_ARCHS] = { 0 };
    for (uint32_t k = 0; k < 3; ++k) {
        for (uint32_t blk = 0;; ++blk) {
            void *cols[4];
            uint32_t n = dod_world_block(w, want_arch[k], blk, cols);
            if (!n)
                break;
            CHECK(dod_world_next(&it));
            CHECK_EQ(it.archetype, want_arch[k]);
            CHECK_EQ(it.n, n);
            CHECK(it.entities == (const dod_entity *)cols[0]);
            const char *fb = (const char *)dod_world_field(&it, C_B);
            CHECK(fb != NULL && (uintptr_t)fb % 64 == 0);
            CHECK(dod_world_field(&it, C_D) == NULL);
            CHECK(dod_world_field(&it, N_COMPS) == NULL);
            CHECK(dod_world_field(&it, UINT32_MAX) == NULL);
            /* the field is the block's column of that component, whatever its position */
            uint32_t k_b = want_arch[k] == 3 ? 1 : want_arch[k] == 2 ? 0 : 1;
            CHECK(fb == (const char *)cols[1 + k_b]);
            rows[want_arch[k]] += n;
            ++step;
        }
    }
    CHECK(!dod_world_next(&it));
    CHECK(!dod_world_next(&it)); /* and stays done */
    CHECK(dod_world_field(&it, C_B) == NULL);
    CHECK_EQ(rows[0], 100);
    CHECK_EQ(rows[2], 10);
    CHECK_EQ(rows[3], 399);
    CHECK(step > 4);

    /* a query of another world, or an uninitialised-to-zero one, visits nothing */
    dod_world *other = make();
    dod_query theirs, zero;
    memset(&zero, 0, sizeof zero);
    CHECK_OK(dod_query_init(&theirs, other, NULL, 0, NULL, 0));
    dod_world_iter_init(&it, w, &theirs);
    CHECK(!dod_world_next(&it));
    dod_world_iter_init(&it, w, &zero);
    CHECK(!dod_world_next(&it));
    dod_world_iter_init(&it, w, NULL);
    CHECK(!dod_world_next(&it));
    dod_world_destroy(other);

    /* an archetype emptied by despawns is skipped */
    for (uint32_t i = 0; i < 399; ++i)
        CHECK_OK(dod_world_despawn(w, e[i]));
    dod_world_iter_init(&it, w, &q);
    uint32_t seen = 0;
    while (dod_world_next(&it)) {
        CHECK(it.archetype != 3);
        seen += it.n;
    }
    CHECK_EQ(seen, 110);
    dod_world_destroy(w);
}

int main(void)
{
    test_matching();
    test_iteration();
    return check_summary("world_query");
}
