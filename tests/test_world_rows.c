/* Rows by row number (dod/world_rows.h), relation indexes whose items are row numbers
 * (DOD_WORLD_INDEX_ROWS) and the gather over them: against the world's own walk, on worlds whose
 * matched archetypes are a few single blocks (the flat reader), many blocks (the cursor) and more
 * archetypes than the reader caches; in order and in random order; the typed reads; a query of a
 * live world reading its copy; every refusal with nothing written. */
#include <dod/world.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "csr_model.h"
#include "world_check.h"

static csr_execs execs;

/* ---- a typed world: two fixed archetypes, a chunked one of small blocks, an empty one ---- */
typedef struct cell { uint32_t id; } cell;
typedef struct hp { float value; } hp;
typedef struct gear { uint64_t a, b; } gear;
#define ROWS_COMPONENTS(C) C(cell) C(hp) C(gear)
#define SOLDIER(X) X(cell) X(hp)
#define KNIGHT(X) X(cell) X(hp) X(gear)
#define SCOUT(X) X(cell) X(hp)
#define PACK(X) X(gear)
#define ROWS_ARCHETYPES(A) A(soldier, SOLDIER, 3000) A(knight, KNIGHT, 3000) A(scout, SCOUT, 0) \
    A(pack, PACK, 0)
DOD_WORLD(rw, ROWS_COMPONENTS, ROWS_ARCHETYPES)
#define PLACED(W, R, X) R(cell) R(hp)
DOD_QUERY(rw, placed, PLACED)

/* A typed world: n soldiers, knights and scouts, some despawned and moved so rows were swapped;
 * scouts in blocks of 256 bytes (a few rows each) when chunky, else in one block. Every cell is
 * below n_cells. */
static dod_world *typed_world(test_rng *rng, uint32_t n, uint32_t n_cells, int chunky)
{
    rw_config cfg = rw_config_default();
    cfg.soldier.capacity = cfg.knight.capacity = 3 * n;
    cfg.scout.block_bytes = chunky ? 256u : 1u << 22;       /* a few rows, or all in one block */
    cfg.scout.first_block_bytes = cfg.scout.block_bytes;
    dod_world *w = NULL;
    CHECK_OK(rw_create_config(&w, &cfg, NULL, 0));
    dod_entity *ids = (dod_entity *)malloc((size_t)3 * n * sizeof *ids);
    uint32_t live = 0;
    for (uint32_t i = 0; i < 3 * n; ++i) {
        rw_soldier_row s = { { test_rng_below(rng, n_cells) }, { (float)i } };
        rw_knight_row k = { { test_rng_below(rng, n_cells) }, { (float)i + 0.5f },
                            { i, ~(uint64_t)i } };
        dod_status st = i % 3 == 0 ? rw_soldier_spawn(w, &s, &ids[live])
                        : i % 3 == 1 ? rw_knight_spawn(w, &k, &ids[live])
                                     : rw_scout_spawn(w, (const rw_scout_row *)&s, &ids[live]);
        CHECK_OK(st);
        live++;
    }
    for (uint32_t step = 0; step < n / 2; ++step) {
        uint32_t k = test_rng_below(rng, live);
        if (step % 3 == 0) {
            CHECK_OK(dod_world_despawn(w, ids[k]));
            ids[k] = ids[--live];
        } else {
            uint32_t to = step % 2 ? DOD_AID(rw, scout) : DOD_AID(rw, soldier);
            CHECK_OK(dod_world_move(w, ids[k], to));
        }
    }
    free(ids);
    return w;
}

/* A query's walk: the address of `component` in each row, in row-number order (NULL where the
 * archetype lacks it), and each row's handle. */
typedef struct walk {
    uint32_t n;
    unsigned char **at;
    dod_entity *ids;
} walk;

static walk walk_of(const dod_world *w, const dod_query *q, uint32_t component)
{
    walk k = { 0, NULL, NULL };
    uint32_t cap = 0;
    dod_world_iter it;
    dod_world_iter_init(&it, w, q);
    while (dod_world_next(&it)) {
        unsigned char *col = (unsigned char *)dod_world_field(&it, component);
        size_t size = col ? dod__world_fields(w, it.archetype)[component].size : 0;
        for (uint32_t r = 0; r < it.n; ++r, ++k.n) {
            if (k.n == cap) {
                cap = cap ? 2 * cap : 256;
                k.at = (unsigned char **)realloc(k.at, cap * sizeof *k.at);
                k.ids = (dod_entity *)realloc(k.ids, cap * sizeof *k.ids);
            }
            k.at[k.n] = col ? col + r * size : NULL;
            k.ids[k.n] = it.entities[r];
        }
    }
    return k;
}

static void walk_free(walk *k)
{
    free(k->at);
    free(k->ids);
}

/* Every row number of q read through a reader, in order, then in random order, then a few past
 * the end: the walk's addresses and handles. */
static int rows_read_as_walked(const dod_world *w, const dod_query *q, uint32_t component,
                               test_rng *rng)
{
    walk k = walk_of(w, q, component);
    dod_world_rows r;
    int ok = dod_world_rows_init(&r, w, q) == DOD_OK && dod_world_rows_count(&r) == k.n;
    for (uint32_t i = 0; ok && i < k.n; ++i)
        ok = dod_world_row_get(&r, i, component) == (void *)k.at[i] &&
             dod_world_row_entity(&r, i).bits == k.ids[i].bits;
    for (uint32_t t = 0; ok && t < 2 * k.n; ++t) {
        uint32_t i = test_rng_below(rng, k.n);
        ok = (dod_world_row_get)(&r, i, component) == (void *)k.at[i] &&
             dod_world_row_entity(&r, i).bits == k.ids[i].bits;
    }
    ok = ok && dod_world_row_get(&r, k.n, component) == NULL &&
         dod_world_row_get(&r, UINT32_MAX, component) == NULL &&
         dod_world_row_entity(&r, k.n).bits == 0 &&
         dod_world_row_get(&r, 0, DOD_NCOMPONENTS(rw)) == NULL;
    walk_free(&k);
    return ok;
}

static void test_rows_match_the_walk(void)
{
    test_rng rng = { 7 };
    for (int chunky = 0; chunky < 2; ++chunky) {
        dod_world *w = typed_world(&rng, 2000, 500, chunky);
        dod_query placed, all, gear_only;
        CHECK_OK(rw_placed_query(&placed, w));
        CHECK_OK(dod_query_init(&all, w, NULL, 0, NULL, 0));
        const uint32_t gear_id = DOD_CID(rw, gear);
        CHECK_OK(dod_query_init(&gear_only, w, &gear_id, 1, NULL, 0));
        for (uint32_t c = 0; c < DOD_NCOMPONENTS(rw); ++c) {
            CHECK(rows_read_as_walked(w, &placed, c, &rng));
            CHECK(rows_read_as_walked(w, &all, c, &rng)); /* pack holds no rows: not counted */
            CHECK(rows_read_as_walked(w, &gear_only, c, &rng));
        }
        dod_world_rows r;
        CHECK_OK(dod_world_rows_init(&r, w, &placed));
        CHECK_EQ(r.flat, !chunky); /* fixed archetypes, and scouts in one block or many */
        dod_world_destroy(w);
    }
}

/* More archetypes holding rows than a reader caches: the walk over the archetypes. */
static void test_many_archetypes(void)
{
    enum { N_ARCH = DOD_WORLD_ROWS_CACHED + 5 };
    const dod_component_desc comps[2] = { { "k", 4, 4 }, { "v", 8, 8 } };
    const uint32_t kv[2] = { 0, 1 }, k_only[1] = { 0 };
    dod_archetype_desc archs[N_ARCH];
    for (uint32_t a = 0; a < N_ARCH; ++a)
        archs[a] = world_archetype(a % 3 ? kv : k_only, a % 3 ? 2 : 1, a % 2 ? 0 : 64, 512, 0, 0);
    dod_world_desc d = world_desc_of(comps, 2, archs, N_ARCH, NULL);
    dod_world *w = NULL;
    CHECK_OK(dod_world_create(&w, &d));
    test_rng rng = { 99 };
    for (uint32_t i = 0; i < 40 * N_ARCH; ++i) {
        uint32_t a = test_rng_below(&rng, N_ARCH);
        if (dod_world_count(w, a) < 64 || a % 2)
            CHECK_OK(dod_world_spawn(w, a, NULL));
    }
    dod_query all;
    CHECK_OK(dod_query_init(&all, w, NULL, 0, NULL, 0));
    dod_world_rows r;
    CHECK_OK(dod_world_rows_init(&r, w, &all));
    CHECK_EQ(r.n_cached, 0);
    CHECK(rows_read_as_walked(w, &all, 0, &rng));
    CHECK(rows_read_as_walked(w, &all, 1, &rng));
    dod_world_destroy(w);
}

/* Five to eight archetypes of one block each: the flat reader counts past its first four
 * starts. */
static void test_flat_many(void)
{
    const dod_component_desc comps[2] = { { "k", 4, 4 }, { "v", 8, 8 } };
    const uint32_t kv[2] = { 0, 1 };
    for (uint32_t n_arch = 5; n_arch <= DOD_WORLD_ROWS_CACHED; ++n_arch) {
        dod_archetype_desc archs[DOD_WORLD_ROWS_CACHED];
        for (uint32_t a = 0; a < n_arch; ++a)
            archs[a] = world_archetype(kv, 2, 100, 0, 0, 0);
        dod_world_desc d = world_desc_of(comps, 2, archs, n_arch, NULL);
        dod_world *w = NULL;
        CHECK_OK(dod_world_create(&w, &d));
        test_rng rng = { n_arch };
        for (uint32_t a = 0; a < n_arch; ++a)
            CHECK_OK(dod_world_spawn_n(w, a, 1 + test_rng_below(&rng, 90), NULL));
        dod_query all;
        CHECK_OK(dod_query_init(&all, w, NULL, 0, NULL, 0));
        dod_world_rows r;
        CHECK_OK(dod_world_rows_init(&r, w, &all));
        CHECK(r.flat && r.n_cached == n_arch);
        CHECK(rows_read_as_walked(w, &all, 0, &rng));
        CHECK(rows_read_as_walked(w, &all, 1, &rng));
        /* keys below 10 and v from the row, then an index, gathers of both sizes */
        for (uint32_t i = 0; i < r.count; ++i) {
            *(uint32_t *)dod_world_row_get(&r, i, 0) = test_rng_below(&rng, 10);
            *(uint64_t *)dod_world_row_get(&r, i, 1) = (uint64_t)i * 0x9E3779B97F4A7C15ull;
        }
        dod_world_index_desc id = { &all, 0, 0, 10, NULL, NULL, DOD_CSR_BUILD_AUTO,
                                    DOD_WORLD_INDEX_ROWS };
        dod_csr c;
        dod_csr_init(&c, NULL);
        CHECK_OK(dod_world_index_build(&c, w, &id));
        uint32_t keys[800];
        uint64_t vs[800];
        dod_world_gather_col cols[2] = { { keys, 0, 0, 4 }, { vs, 1, 0, 8 } };
        CHECK_OK(dod_world_gather_rows(&c, w, &all, cols, 2, NULL));
        int ok = 1;
        for (uint32_t row = 0; row < 10; ++row)
            for (uint32_t j = c.offsets[row]; j < c.offsets[row + 1]; ++j)
                ok &= keys[j] == row && vs[j] == (uint64_t)c.items[j] * 0x9E3779B97F4A7C15ull;
        CHECK(ok);
        dod_csr_free(&c);
        dod_world_destroy(w);
    }
}

/* ---- indexes of row numbers ---- */

/* The row numbers of q grouped by the key in `component` at key_offset, in walk order: what an
 * array build gives over the walk's keys. */
static csr_model rows_model(const dod_world *w, const dod_query *q, uint32_t component,
                            uint32_t n_rows)
{
    walk k = walk_of(w, q, component);
    uint32_t *keys = (uint32_t *)malloc((size_t)k.n * 4 + 4);
    for (uint32_t i = 0; i < k.n; ++i)
        memcpy(&keys[i], k.at[i], 4);
    csr_model m = csr_model_build(n_rows, (const unsigned char *)keys, 4, NULL, 0, k.n, 0);
    free(keys);
    walk_free(&k);
    return m;
}

static void test_row_indexes(void)
{
    test_rng rng = { 11 };
    dod_arena arena;
    dod_arena_init(&arena, 0, NULL);
    for (int chunky = 0; chunky < 2; ++chunky) {
        const uint32_t n_cells = 700;
        dod_world *w = typed_world(&rng, 30000, n_cells, chunky);
        dod_query placed;
        CHECK_OK(rw_placed_query(&placed, w));
        csr_model m = rows_model(w, &placed, DOD_CID(rw, cell), n_cells);
        for (int s = DOD_CSR_BUILD_AUTO; s <= DOD_CSR_BUILD_PARTITIONED; ++s)
            for (int e = -1; e < CSR_EXECS; ++e)
                for (int sort = 0; sort < 2; ++sort) {
                    dod_world_index_desc d = { &placed, DOD_CID(rw, cell), 0, n_cells,
                                               e < 0 ? NULL : &execs.e[e], e % 2 ? &arena : NULL,
                                               (dod_csr_build_strategy)s,
                                               DOD_WORLD_INDEX_ROWS |
                                                   (sort ? DOD_CSR_BUILD_SORT_ROWS : 0u) };
                    dod_csr c;
                    dod_csr_init(&c, NULL);
                    CHECK_OK(dod_world_index_build(&c, w, &d));
                    CHECK(csr_model_matches(&c, &m));
                    CHECK_EQ(c.item_bound, (uint64_t)c.n_items);
                    dod_csr_free(&c);
                }
        csr_model_free(&m);
        dod_world_destroy(w);
    }
    dod_arena_free(&arena);
}

/* A query made for a live world numbers the rows of its copy alike: a frame's reader uses it. */
static void test_copies_read_with_the_live_query(void)
{
    test_rng rng = { 23 };
    dod_world *live = typed_world(&rng, 1000, 200, 0), *copy = NULL;
    rw_config cfg = rw_config_default();
    cfg.soldier.capacity = cfg.knight.capacity = 3000;
    cfg.scout.block_bytes = cfg.scout.first_block_bytes = 1u << 22;
    CHECK_OK(rw_create_config(&copy, &cfg, NULL, 0));
    CHECK_OK(dod_world_copy(copy, live));
    dod_query placed;
    CHECK_OK(rw_placed_query(&placed, live));
    dod_world_rows a, b;
    CHECK_OK(dod_world_rows_init(&a, live, &placed));
    CHECK_OK(dod_world_rows_init(&b, copy, &placed));
    CHECK_EQ(a.count, b.count);
    int same = 1;
    for (uint32_t i = 0; i < a.count; ++i)
        same &= rw_row_hp(&a, i)->value == rw_row_hp(&b, i)->value &&
                rw_row_cell(&a, i)->id == rw_row_cell(&b, i)->id &&
                (void *)rw_row_hp(&a, i) != (void *)rw_row_hp(&b, i);
    CHECK(same);
    dod_world_destroy(copy);
    dod_world_destroy(live);
}

/* ---- the gather and the reduction ---- */

/* A typed world of n of each kind and its index of row numbers by cell over `placed`. */
typedef struct cells_fixture {
    dod_world *w;
    dod_query placed;
    dod_csr c;
} cells_fixture;

static void cells_make(cells_fixture *f, test_rng *rng, uint32_t n, uint32_t n_cells, int chunky)
{
    f->w = typed_world(rng, n, n_cells, chunky);
    CHECK_OK(rw_placed_query(&f->placed, f->w));
    dod_world_index_desc d = { &f->placed, DOD_CID(rw, cell), 0, n_cells, NULL, NULL,
                               DOD_CSR_BUILD_AUTO, DOD_WORLD_INDEX_ROWS };
    dod_csr_init(&f->c, NULL);
    CHECK_OK(dod_world_index_build(&f->c, f->w, &d));
}

static void cells_free(cells_fixture *f)
{
    dod_csr_free(&f->c);
    dod_world_destroy(f->w);
}

static void test_gather_rows(void)
{
    test_rng rng = { 31 };
    for (int chunky = 0; chunky < 2; ++chunky) {
        const uint32_t n_cells = 300;
        cells_fixture fx;
        cells_make(&fx, &rng, 20000, n_cells, chunky);
        dod_world *w = fx.w;
        const dod_query placed = fx.placed;
        const dod_csr c = fx.c;
        uint32_t n = c.n_items;
        float *hps = (float *)malloc((size_t)n * 4), *want = (float *)malloc((size_t)n * 4);
        uint32_t *cells = (uint32_t *)malloc((size_t)n * 4);
        uint64_t *whole = (uint64_t *)malloc((size_t)n * 8); /* cell and hp: one 8-byte column */
        dod_world_rows r;
        CHECK_OK(dod_world_rows_init(&r, w, &placed));
        for (uint32_t j = 0; j < n; ++j)
            want[j] = rw_row_hp(&r, c.items[j])->value;
        for (int e = -1; e < CSR_EXECS; ++e) {
            const dod_executor *x = e < 0 ? NULL : &execs.e[e];
            memset(hps, 0, (size_t)n * 4);
            memset(cells, 0xFF, (size_t)n * 4);
            dod_world_gather_col cols[2] = { { hps, DOD_CID(rw, hp), 0, 4 },
                                             { cells, DOD_CID(rw, cell), 0, 4 } };
            CHECK_OK(dod_world_gather_rows(&c, w, &placed, cols, 2, x));
            CHECK(memcmp(hps, want, (size_t)n * 4) == 0);
            int rows_ok = 1; /* row r of the index lists cells equal to r */
            for (uint32_t row = 0; row < n_cells; ++row)
                for (uint32_t j = c.offsets[row]; j < c.offsets[row + 1]; ++j)
                    rows_ok &= cells[j] == row;
            CHECK(rows_ok);
            /* columns of other sizes take the column-by-column path */
            dod_world_gather_col other = { whole, DOD_CID(rw, hp), 0, 4 };
            other.size = 4;
            dod_world_gather_col three[3] = { other, cols[0], cols[1] };
            three[0].dst = whole;
            CHECK_OK(dod_world_gather_rows(&c, w, &placed, three, 3, x));
            CHECK(memcmp(whole, want, (size_t)n * 4) == 0);
        }
        free(hps);
        free(want);
        free(cells);
        free(whole);
        cells_free(&fx);
    }
}

/* Knights' gear (16 bytes) gathered whole, and a field of it at an offset. */
static void test_gather_rows_sizes(void)
{
    test_rng rng = { 37 };
    dod_world *w = typed_world(&rng, 4000, 50, 1);
    dod_query knights;
    const uint32_t gear_id = DOD_CID(rw, gear), cell_id = DOD_CID(rw, cell);
    const uint32_t both[2] = { gear_id, cell_id };
    CHECK_OK(dod_query_init(&knights, w, both, 2, NULL, 0));
    dod_world_index_desc d = { &knights, cell_id, 0, 50, NULL, NULL, DOD_CSR_BUILD_AUTO,
                               DOD_WORLD_INDEX_ROWS };
    dod_csr c;
    dod_csr_init(&c, NULL);
    CHECK_OK(dod_world_index_build(&c, w, &d));
    gear *g = (gear *)malloc((size_t)c.n_items * sizeof *g + 1);
    uint64_t *b = (uint64_t *)malloc((size_t)c.n_items * 8 + 1);
    dod_world_gather_col cols[2] = { { g, gear_id, 0, sizeof(gear) },
                                     { b, gear_id, 8, 8 } };
    CHECK_OK(dod_world_gather_rows(&c, w, &knights, cols, 2, &execs.e[2]));
    dod_world_rows r;
    CHECK_OK(dod_world_rows_init(&r, w, &knights));
    int ok = 1;
    for (uint32_t j = 0; j < c.n_items; ++j) {
        const gear *want = rw_row_gear(&r, c.items[j]);
        ok &= want && memcmp(&g[j], want, sizeof *want) == 0 && b[j] == want->b;
    }
    CHECK(ok);
    free(g);
    free(b);
    dod_csr_free(&c);
    dod_world_destroy(w);
}

/* dod_world_reduce_rows against dod_reduce_rows over the same values in walk order: the same
 * bits, on every executor, over worlds of single blocks and of many. */
static void test_reduce_rows(void)
{
    test_rng rng = { 43 };
    for (int chunky = 0; chunky < 2; ++chunky) {
        cells_fixture fx;
        cells_make(&fx, &rng, 20000, 500, chunky);
        dod_world *w = fx.w;
        const dod_query placed = fx.placed;
        const dod_csr c = fx.c;
        walk k = walk_of(w, &placed, DOD_CID(rw, hp));
        float *values = (float *)malloc((size_t)k.n * sizeof(float) + 4);
        for (uint32_t i = 0; i < k.n; ++i)
            memcpy(&values[i], k.at[i], sizeof(float));
        values[k.n / 3] = -INFINITY; /* an infinity adds up the same way in both */
        memcpy(k.at[k.n / 3], &values[k.n / 3], sizeof(float));
        float want[4][500], got[4][500];
        dod_reduce_out wo = { want[0], want[1], want[2], want[3] };
        CHECK_OK(dod_reduce_rows(&c, values, sizeof(float), k.n, &wo, NULL));
        for (int e = -1; e < CSR_EXECS; ++e) {
            memset(got, 0xA5, sizeof got);
            dod_reduce_out go = { got[0], got[1], got[2], got[3] };
            CHECK_OK(dod_world_reduce_rows(&c, w, &placed, DOD_CID(rw, hp), 0, &go,
                                           e < 0 ? NULL : &execs.e[e]));
            CHECK(memcmp(got, want, sizeof got) == 0);
        }
        free(values);
        walk_free(&k);
        cells_free(&fx);
    }
}

static void test_refusals(void)
{
    test_rng rng = { 41 };
    dod_world *w = typed_world(&rng, 1000, 40, 0), *other = typed_world(&rng, 10, 40, 0);
    dod_query placed, foreign, all;
    CHECK_OK(rw_placed_query(&placed, w));
    CHECK_OK(rw_placed_query(&foreign, other));
    CHECK_OK(dod_query_init(&all, w, NULL, 0, NULL, 0)); /* matches soldiers, which lack gear */
    dod_world_index_desc d = { &placed, DOD_CID(rw, cell), 0, 40, NULL, NULL,
                               DOD_CSR_BUILD_AUTO, DOD_WORLD_INDEX_ROWS };
    dod_csr c, past;
    dod_csr_init(&c, NULL);
    dod_csr_init(&past, NULL);
    CHECK_OK(dod_world_index_build(&c, w, &d));
    /* an index of more rows than the query matches: its item bound is past the count */
    uint32_t keys[4096] = { 0 };
    dod_csr_desc big = { 1, 4096, keys, 0, NULL, 0, NULL, 0, 0, DOD_CSR_BUILD_AUTO, NULL };
    CHECK_OK(dod_csr_build_desc(&past, &big));
    float *dst = (float *)malloc((size_t)c.n_items * 4 + 4096 * 4);
    dod_executor no_run = { NULL, NULL, 2 };
    const dod_world_gather_col good = { dst, DOD_CID(rw, hp), 0, 4 };
    enum { N_BAD = 11 };
    for (int i = 0; i < N_BAD; ++i) {
        dod_world_gather_col col = good;
        const dod_csr *index = &c;
        const dod_query *q = &placed;
        const dod_executor *x = NULL;
        dod_status want = DOD_E_INVALID;
        switch (i) {
        case 0: q = &foreign; break;
        case 1: col.dst = NULL; break;
        case 2: col.size = 0; break;
        case 3: col.offset = 4; break; /* hp is 4 bytes */
        case 4: col.component = DOD_NCOMPONENTS(rw), want = DOD_E_RANGE; break;
        case 5: col.component = DOD_CID(rw, gear), col.size = 8; break; /* soldiers lack it */
        case 6: q = &all; break;
        case 7: x = &no_run; break;
        case 8: index = &past, want = DOD_E_RANGE; break;
        case 9: col.size = UINT32_MAX, col.offset = 0, want = DOD_E_INVALID; break;
        default: q = NULL; break;
        }
        memset(dst, 0xAB, (size_t)c.n_items * 4);
        CHECK_STATUS(dod_world_gather_rows(index, w, q, &col, 1, x), want);
        int untouched = 1;
        for (uint32_t j = 0; j < c.n_items; ++j)
            untouched &= ((const unsigned char *)dst)[4 * j] == 0xAB;
        CHECK(untouched);
    }
    CHECK_STATUS(dod_world_gather_rows(&c, w, &placed, NULL, 1, NULL), DOD_E_INVALID);
    /* the reduce's refusals write nothing either */
    float sums[40];
    dod_reduce_out out = { sums, NULL, NULL, NULL };
    for (int i = 0; i < 9; ++i) {
        const dod_csr *index = &c;
        const dod_query *q = &placed;
        const dod_reduce_out *o = &out;
        const dod_executor *x = NULL;
        uint32_t component = DOD_CID(rw, hp), offset = 0;
        dod_status want = DOD_E_INVALID;
        switch (i) {
        case 0: o = NULL; break;
        case 1: q = &foreign; break;
        case 2: offset = 2; break;
        case 3: offset = 4; break; /* past hp's end */
        case 4: component = DOD_CID(rw, gear), q = &all; break; /* soldiers lack it */
        case 5: component = DOD_NCOMPONENTS(rw), want = DOD_E_RANGE; break;
        case 6: index = &past, want = DOD_E_RANGE; break;
        case 7: x = &no_run; break;
        default: q = NULL; break;
        }
        memset(sums, 0xAB, sizeof sums);
        CHECK_STATUS(dod_world_reduce_rows(index, w, q, component, offset, o, x), want);
        CHECK(((const unsigned char *)sums)[0] == 0xAB &&
              ((const unsigned char *)sums)[159] == 0xAB);
    }
    CHECK_OK(dod_world_gather_rows(&c, w, &placed, NULL, 0, NULL)); /* no columns: nothing */
    dod_world_rows r;
    memset(&r, 0x5A, sizeof r);
    dod_world_rows before = r;
    CHECK_STATUS(dod_world_rows_init(&r, w, &foreign), DOD_E_INVALID);
    CHECK_STATUS(dod_world_rows_init(&r, NULL, &placed), DOD_E_INVALID);
    CHECK(memcmp(&r, &before, sizeof r) == 0);
    free(dst);
    dod_csr_free(&c);
    dod_csr_free(&past);
    dod_world_destroy(w);
    dod_world_destroy(other);
}

int main(void)
{
    csr_execs_start(&execs);
    test_rows_match_the_walk();
    test_many_archetypes();
    test_flat_many();
    test_row_indexes();
    test_copies_read_with_the_live_query();
    test_gather_rows();
    test_gather_rows_sizes();
    test_reduce_rows();
    test_refusals();
    csr_execs_stop(&execs);
    return check_summary("world_rows");
}
