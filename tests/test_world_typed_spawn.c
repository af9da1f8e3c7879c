/* The typed bulk spawns (P_<a>_spawn_fill, _spawn_rows, _spawn_n) against their reference,
 * the same rows spawned one by one with P_<a>_spawn: after every step the two worlds hold the
 * same entities (the same handles but for the world tag), in the same rows, with the same
 * bytes in every column; random sizes cross block boundaries, random despawns make the slots
 * come back in another order, and a bulk spawn past a capacity or a memory cap is refused
 * whole with the world unchanged. Then the failing allocator, NULL handles, and an archetype
 * without components. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "world_check.h"
#include "world_game.h"

enum { B_CAP = 600, C_BLOCK = 1024, C_BLOCKS = 12, MAX_N = 300 };

static dod_world *make(const dod_allocator *alloc)
{
    game_config cfg = game_config_default();
    cfg.entity_b.capacity = B_CAP;
    cfg.entity_c.block_bytes = C_BLOCK;
    cfg.entity_c.memory_cap = C_BLOCKS * C_BLOCK;
    dod_world *w = NULL;
    CHECK_OK(game_create_config(&w, &cfg, alloc, 0));
    return w;
}

/* Rows an archetype holds at most (UINT32_MAX: no limit). */
static uint32_t max_rows(uint32_t arch)
{
    const size_t c_sizes[2] = { sizeof(position), sizeof(hitbox) };
    if (arch == DOD_AID(game, entity_a))
        return 4096;
    if (arch == DOD_AID(game, entity_b))
        return B_CAP;
    if (arch == DOD_AID(game, entity_c))
        return C_BLOCKS * world_expected_rows(C_BLOCK, c_sizes, 2);
    return UINT32_MAX;
}

/* The two worlds hold the same rows: ids equal but for the tag, every column byte for byte. */
static int same_worlds(const dod_world *a, const dod_world *b)
{
    int ok = 1;
    for (uint32_t arch = 0; arch < DOD_NARCHETYPES(game); ++arch) {
        ok &= dod_world_count(a, arch) == dod_world_count(b, arch);
        const dod__world_arch *x = &a->arch[arch], *y = &b->arch[arch];
        void *ca[8], *cb[8];
        for (uint32_t blk = 0, n; (n = dod_world_block(a, arch, blk, ca)) > 0; ++blk) {
            ok &= dod_world_block(b, arch, blk, cb) == n;
            const dod_entity *ia = (const dod_entity *)ca[0], *ib = (const dod_entity *)cb[0];
            for (uint32_t r = 0; r < n; ++r)
                ok &= (ia[r].bits ^ ib[r].bits) >> 48 == (a->head.tag_hi ^ b->head.tag_hi) >> 16 &&
                      (ia[r].bits & 0xFFFFFFFFFFFFull) == (ib[r].bits & 0xFFFFFFFFFFFFull);
            for (uint32_t k = 0; k < x->n_cols; ++k)
                ok &= memcmp(ca[1 + k], cb[1 + k], n * x->cols[k].size) == 0;
        }
        ok &= x->n_blocks == y->n_blocks;
    }
    return ok;
}

static void random_bytes(test_rng *rng, void *p, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        ((unsigned char *)p)[i] = (unsigned char)test_rng_next(rng);
}

/* Bulk into `bulk`, one by one into `ref`: rows[0 .. n) of one archetype, out or NULL. */
typedef struct rows_of {
    game_entity_a_row a[MAX_N];
    game_entity_b_row b[MAX_N];
    game_entity_c_row c[MAX_N];
    game_ice_row ice[MAX_N];
} rows_of;

static dod_status one_by_one(dod_world *w, uint32_t arch, uint32_t n, const rows_of *r, int fill)
{
    dod_status st = DOD_OK;
    for (uint32_t i = 0; i < n && st == DOD_OK; ++i) {
        uint32_t k = fill ? 0 : i;
        switch (arch) {
        case DOD_AID(game, entity_a): st = game_entity_a_spawn(w, r ? &r->a[k] : NULL, NULL); break;
        case DOD_AID(game, entity_b): st = game_entity_b_spawn(w, r ? &r->b[k] : NULL, NULL); break;
        case DOD_AID(game, entity_c): st = game_entity_c_spawn(w, r ? &r->c[k] : NULL, NULL); break;
        case DOD_AID(game, ice): st = game_ice_spawn(w, r ? &r->ice[k] : NULL, NULL); break;
        default: st = game_marker_spawn(w, NULL, NULL); break;
        }
    }
    return st;
}

/* how: 0 fill, 1 rows, 2 spawn_n (zeroed). */
#define IN_BULK(a, rows)                                                                       \
    return how == 0 ? game_##a##_spawn_fill(w, n, rows, out)                                   \
         : how == 1 ? game_##a##_spawn_rows(w, n, rows, out)                                   \
                    : game_##a##_spawn_n(w, n, out)
static dod_status in_bulk(dod_world *w, uint32_t arch, uint32_t n, const rows_of *r, int how,
                          dod_entity *out)
{
    switch (arch) {
    case DOD_AID(game, entity_a): IN_BULK(entity_a, r->a);
    case DOD_AID(game, entity_b): IN_BULK(entity_b, r->b);
    case DOD_AID(game, entity_c): IN_BULK(entity_c, r->c);
    case DOD_AID(game, ice): IN_BULK(ice, r->ice);
    default: IN_BULK(marker, NULL);
    }
}

static uint32_t typed_count(const dod_world *w, uint32_t arch)
{
    switch (arch) {
    case DOD_AID(game, entity_a): return game_entity_a_count(w);
    case DOD_AID(game, entity_b): return game_entity_b_count(w);
    case DOD_AID(game, entity_c): return game_entity_c_count(w);
    case DOD_AID(game, ice): return game_ice_count(w);
    default: return game_marker_count(w);
    }
}

static void test_against_one_by_one(uint64_t seed)
{
    dod_world *bulk = make(NULL), *ref = make(NULL);
    rows_of *r = (rows_of *)malloc(sizeof *r);
    dod_entity *out = (dod_entity *)malloc(MAX_N * sizeof *out);
    test_rng rng = { seed };
    long failed_before = check_failed;
    for (uint32_t step = 0; step < 400 && r && out && check_failed == failed_before; ++step) {
        uint32_t arch = test_rng_below(&rng, DOD_NARCHETYPES(game));
        uint32_t total = dod_world_count(bulk, arch);
        if (test_rng_below(&rng, 3) == 0 && total > 0) { /* despawn a few, in both */
            for (uint32_t k = test_rng_below(&rng, 40) + 1; k > 0 && total > 0; --k, --total) {
                void *cols[8];
                uint32_t row = test_rng_below(&rng, total), blk = 0, n;
                while ((n = dod_world_block(bulk, arch, blk, cols)) <= row)
                    row -= n, ++blk;
                dod_entity e = ((const dod_entity *)cols[0])[row];
                dod_world_block(ref, arch, blk, cols);
                CHECK_OK(dod_world_despawn(bulk, e));
                CHECK_OK(dod_world_despawn(ref, ((const dod_entity *)cols[0])[row]));
            }
            CHECK(same_worlds(bulk, ref));
            continue;
        }
        uint32_t n = test_rng_below(&rng, MAX_N), how = test_rng_below(&rng, 3);
        random_bytes(&rng, r, sizeof *r);
        int want_ids = test_rng_below(&rng, 2) == 0;
        uint64_t before = world_snap(bulk);
        dod_status st = in_bulk(bulk, arch, n, r, (int)how, want_ids ? out : NULL);
        if ((uint64_t)total + n > max_rows(arch)) {
            CHECK_STATUS(st, DOD_E_FULL);
            CHECK(world_snap(bulk) == before); /* all or nothing */
            continue;
        }
        CHECK_OK(st);
        CHECK_OK(one_by_one(ref, arch, n, how == 2 ? NULL : r, how == 0));
        CHECK_EQ(typed_count(bulk, arch), total + n);
        if (want_ids && n > 0) { /* out[i]: the i-th new row's handle */
            void *cols[8];
            uint32_t row = total, blk = 0, rows_in;
            while ((rows_in = dod_world_block(bulk, arch, blk, cols)) <= row)
                row -= rows_in, ++blk;
            CHECK_EQ(out[0].bits, ((const dod_entity *)cols[0])[row].bits);
            CHECK(dod_world_alive(bulk, out[n - 1]) && dod_world_archetype_of(bulk, out[n - 1]) == arch);
        }
        CHECK(same_worlds(bulk, ref));
        if (check_failed != failed_before)
            fprintf(stderr, "  seed %llu: first failure at step %u (arch %u, n %u, how %u)\n",
                    (unsigned long long)seed, step, arch, n, how);
    }
    free(r);
    free(out);
    dod_world_destroy(bulk);
    dod_world_destroy(ref);
}

/* Long fills, written a line of copies at a time with a remainder (1023 rows) or none:
 * every column of entity_a, against the same spawns one by one. */
static void test_long_fill(void)
{
    dod_world *bulk = make(NULL), *ref = make(NULL);
    rows_of *r = (rows_of *)calloc(1, sizeof *r);
    test_rng rng = { 99 };
    if (r)
        random_bytes(&rng, &r->a[0], sizeof r->a[0]);
    for (uint32_t n = 1023; r && n <= 3000; n += 1977) {
        CHECK_OK(game_entity_a_spawn_fill(bulk, n, &r->a[0], NULL));
        CHECK_OK(one_by_one(ref, DOD_AID(game, entity_a), n, r, 1));
        CHECK(same_worlds(bulk, ref));
    }
    free(r);
    dod_world_destroy(bulk);
    dod_world_destroy(ref);
}

/* Every allocation of a bulk spawn (the block list and six blocks of 32 rows, for 205 rows)
 * fails in turn. */
static const game_entity_c_row c_row = { { 1, 2 }, { 3, 4, 5, 6 } };
static game_entity_c_row rows_200[200];

static dod_world *make_five(const dod_allocator *alloc, void *ctx)
{
    (void)ctx;
    dod_world *w = make(alloc);
    CHECK_OK(game_entity_c_spawn_fill(w, 5, &c_row, NULL));
    return w;
}

static dod_status fill_200(dod_world *w, void *ctx)
{
    return *(const int *)ctx ? game_entity_c_spawn_rows(w, 200, rows_200, NULL)
                             : game_entity_c_spawn_fill(w, 200, &c_row, NULL);
}

static void test_alloc_walk(void)
{
    for (int rows = 0; rows < 2; ++rows) {
        const world_walk o = { make_five, fill_200, &rows };
        CHECK_EQ(world_alloc_walk(&o), 7);
    }
}

/* The refusals of the private entry the bulk spawns use, and the typed ones' own. */
static void test_refusals(void)
{
    dod_world *w = make(NULL);
    uint32_t b = 9, r = 9;
    uint64_t before = world_snap(w);
    CHECK_STATUS(dod__world_spawn_rows(w, DOD_NARCHETYPES(game), 1, NULL, &b, &r), DOD_E_RANGE);
    CHECK_OK(dod__world_spawn_rows(w, 0, 0, NULL, &b, &r));
    CHECK(b == 0 && r == 0 && world_snap(w) == before);
    game_entity_b_row row;
    memset(&row, 0, sizeof row);
    CHECK_STATUS(game_entity_b_spawn_fill(NULL, 1, &row, NULL), DOD_E_INVALID);
    CHECK_STATUS(game_entity_b_spawn_rows(NULL, 1, &row, NULL), DOD_E_INVALID);
    CHECK_STATUS(game_entity_b_spawn_n(NULL, 1, NULL), DOD_E_INVALID);
    CHECK_STATUS(game_entity_b_spawn_fill(w, B_CAP + 1, &row, NULL), DOD_E_FULL);
    CHECK_OK(game_entity_b_spawn_fill(w, 0, &row, NULL));
    CHECK(world_snap(w) == before);
    CHECK_EQ(game_entity_b_count(NULL), 0);
    dod_world_destroy(w);
}

/* An archetype without components: ids only, spawned with NULL for the row it cannot have. */
static void test_marker(void)
{
    dod_world *w = make(NULL);
    dod_entity e[3];
    CHECK_OK(game_marker_spawn(w, NULL, &e[0]));
    CHECK_OK(game_marker_spawn_fill(w, 1, NULL, &e[1]));
    CHECK_OK(game_marker_spawn_rows(w, 1, NULL, &e[2]));
    CHECK_OK(game_marker_spawn_n(w, 100, NULL));
    CHECK_EQ(game_marker_count(w), 103);
    game_marker_cols c;
    CHECK(game_marker_block(w, 0, &c) && c.entities[1].bits == e[1].bits);
    CHECK(!game_marker_block(w, 0, NULL));
    CHECK(game_get_position(w, e[2]) == NULL);
    CHECK_OK(game_move_to_entity_c(w, e[2])); /* it may gain components by a move */
    CHECK(game_get_position(w, e[2])->x == 0.0f);
    dod_world_destroy(w);
}

int main(void)
{
    for (uint64_t seed = 1; seed <= 3; ++seed)
        test_against_one_by_one(seed);
    test_long_fill();
    test_alloc_walk();
    test_refusals();
    test_marker();
    return check_summary("world_typed_spawn");
}
