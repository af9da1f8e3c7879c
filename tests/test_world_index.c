/* Relation indexes from the world (dod/world_index.h): builds over random worlds against a
 * reference walked with the world's iterator, every strategy on every executor; items leading to
 * their entities and components; gathers against direct gets; every refusal with its status and
 * the index (or the gathered columns) unchanged; every allocation failure. */
#include <dod/world_index.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "csr_model.h"
#include "csr_snap.h"
#include "world_check.h"
#include "world_game.h"

static csr_execs execs;

/* ---- the world ---- */

typedef struct tag { uint32_t key, other; } tag;                  /* the key at offset 0 */
typedef struct pos { float x, y, z; } pos;
typedef struct big { uint32_t a, key2; uint64_t pad[2]; } big;    /* a second key at offset 4 */

enum { C_TAG, C_POS, C_BIG, N_COMPS };
static const dod_component_desc COMPS[N_COMPS] = {
    { "tag", sizeof(tag), 4 }, { "pos", sizeof(pos), 4 }, { "big", sizeof(big), 8 },
};
static const uint32_t TAG_POS[] = { C_TAG, C_POS }, POS_TAG_BIG[] = { C_POS, C_TAG, C_BIG },
                      POS_ONLY[] = { C_POS }, TAG_ONLY[] = { C_TAG }, BIG_TAG[] = { C_BIG, C_TAG };
enum { A_FIXED, A_SMALL, A_POS, A_TAG, A_BIG, N_ARCHS };
/* Blocks of 1024 bytes hold 16 rows of {pos, tag, big}: thousands of blocks. */
static const dod_archetype_desc ARCHS[N_ARCHS] = {
    { "fixed", TAG_POS, 2, 40000, 0, 0, 0 },
    { "small", POS_TAG_BIG, 3, 0, 1024, 0, 0 },
    { "pos", POS_ONLY, 1, 0, 0, 0, 0 },
    { "tag", TAG_ONLY, 1, 0, 4096, 0, 0 },
    { "big", BIG_TAG, 2, 0, 0, 0, 0 },
};

static dod_world *make_world(const dod_allocator *alloc)
{
    dod_world_desc d = world_desc_of(COMPS, N_COMPS, ARCHS, N_ARCHS, alloc);
    dod_world *w = NULL;
    CHECK_OK(dod_world_create(&w, &d));
    return w;
}

static dod_query query_of(const dod_world *w, const uint32_t *all, uint32_t n_all)
{
    dod_query q;
    CHECK_OK(dod_query_init(&q, w, all, n_all, NULL, 0));
    return q;
}

/* Every component of every live entity gets values from its slot; the keys are drawn from
 * dist below n_rows (tag.key, big.key2). */
static void set_fields(dod_world *w, test_rng *rng, csr_keys dist, uint32_t n_rows)
{
    dod_query all = query_of(w, NULL, 0);
    dod_world_iter it;
    dod_world_iter_init(&it, w, &all);
    while (dod_world_next(&it)) {
        tag *t = (tag *)dod_world_field(&it, C_TAG);
        pos *p = (pos *)dod_world_field(&it, C_POS);
        big *b = (big *)dod_world_field(&it, C_BIG);
        uint32_t keys[2];
        for (uint32_t r = 0; r < it.n; ++r) {
            uint32_t slot = (uint32_t)it.entities[r].bits;
            csr_model_keys(rng, dist, n_rows, (unsigned char *)keys, 4, 2);
            if (t) {
                t[r].key = keys[0];
                t[r].other = slot * 3u + 1u;
            }
            if (p) {
                p[r].x = (float)slot;
                p[r].y = (float)r;
                p[r].z = -(float)slot;
            }
            if (b) {
                b[r].a = slot ^ 0x5A5Au;
                b[r].key2 = keys[1];
                b[r].pad[0] = slot;
                b[r].pad[1] = ~(uint64_t)slot;
            }
        }
    }
}

/* A world of about n entities in every archetype, then despawns, moves and spawns mixed, so
 * slots are reused and rows swapped, then keys below n_rows. */
static dod_world *random_world(test_rng *rng, uint32_t n, csr_keys dist, uint32_t n_rows,
                               const dod_allocator *alloc)
{
    dod_world *w = make_world(alloc);
    uint32_t cap = n + n / 2;
    dod_entity *ids = (dod_entity *)malloc((size_t)cap * sizeof *ids);
    uint32_t live = 0;
    const uint32_t share[N_ARCHS] = { n / 5, n / 4, n / 10, n / 5, n / 4 };
    for (uint32_t a = 0; a < N_ARCHS; ++a) {
        CHECK_OK(dod_world_spawn_n(w, a, share[a], ids + live));
        live += share[a];
    }
    for (uint32_t step = 0; step < n / 2 && live > 0; ++step) {
        uint32_t k = test_rng_below(rng, live), op = test_rng_below(rng, 3);
        if (op == 0) {
            CHECK_OK(dod_world_despawn(w, ids[k]));
            ids[k] = ids[--live];
        } else if (op == 1) {
            uint32_t to = test_rng_below(rng, N_ARCHS);
            dod_status st = dod_world_move(w, ids[k], to);
            CHECK(st == DOD_OK || (st == DOD_E_FULL && to == A_FIXED));
        } else if (live < cap) {
            uint32_t to = 1 + test_rng_below(rng, N_ARCHS - 1);
            CHECK_OK(dod_world_spawn(w, to, &ids[live]));
            live++;
        }
    }
    free(ids);
    set_fields(w, rng, dist, n_rows);
    return w;
}

/* ---- the reference: the world walked with its iterator, rows as naive per-row lists ---- */

typedef struct ref_index {
    uint32_t n_rows, n_items;
    uint32_t *offsets, *items;
} ref_index;

/* Row k of each matched entity, in walk order, listing its slot; rows sorted when asked. */
static ref_index ref_build(const dod_world *w, const dod_query *q, uint32_t component,
                           uint32_t key_offset, uint32_t n_rows, int sort)
{
    uint32_t n = 0, cap = 1024;
    uint32_t *keys = (uint32_t *)malloc(cap * 4), *slots = (uint32_t *)malloc(cap * 4);
    dod_world_iter it;
    dod_world_iter_init(&it, w, q);
    while (dod_world_next(&it)) {
        const unsigned char *col = (const unsigned char *)dod_world_field(&it, component);
        for (uint32_t r = 0; r < it.n; ++r, ++n) {
            if (n == cap) {
                cap *= 2;
                keys = (uint32_t *)realloc(keys, cap * 4);
                slots = (uint32_t *)realloc(slots, cap * 4);
            }
            memcpy(&keys[n], col + (size_t)r * COMPS[component].size + key_offset, 4);
            slots[n] = (uint32_t)it.entities[r].bits;
        }
    }
    /* The seed's naive form: one growable list a row, appended in walk order. */
    uint32_t **lists = (uint32_t **)calloc((size_t)n_rows + 1, sizeof *lists);
    uint32_t *lens = (uint32_t *)calloc((size_t)n_rows + 1, 4);
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t row = keys[i], len = lens[row];
        if (len == 0 || (len & (len - 1)) == 0) /* full at powers of two: double */
            lists[row] = (uint32_t *)realloc(lists[row], (len ? 2 * (size_t)len : 1) * 4);
        lists[row][lens[row]++] = slots[i];
    }
    ref_index m;
    m.n_rows = n_rows;
    m.n_items = n;
    m.offsets = (uint32_t *)malloc(((size_t)n_rows + 1) * 4);
    m.items = (uint32_t *)malloc((size_t)n * 4 + 4);
    uint32_t at = 0;
    for (uint32_t row = 0; row < n_rows; ++row) {
        m.offsets[row] = at;
        for (uint32_t i = 0; i < lens[row]; ++i) {
            uint32_t j = at++; /* insertion into place when sorting */
            for (; sort && j > m.offsets[row] && m.items[j - 1] > lists[row][i]; --j)
                m.items[j] = m.items[j - 1];
            m.items[j] = lists[row][i];
        }
        free(lists[row]);
    }
    m.offsets[n_rows] = at;
    free(lists);
    free(lens);
    CHECK_EQ(at, n); /* every key was below n_rows */
    free(keys);
    free(slots);
    return m;
}

static void ref_free(ref_index *m)
{
    free(m->offsets);
    free(m->items);
}

static int matches(const dod_csr *c, const ref_index *m)
{
    if (c->n_rows != m->n_rows || c->n_items != m->n_items || dod_csr_check(c, 0) != DOD_OK)
        return 0;
    uint32_t max = 0;
    for (uint32_t i = 0; i < m->n_items; ++i)
        max = m->items[i] > max ? m->items[i] : max;
    return memcmp(c->offsets, m->offsets, ((size_t)m->n_rows + 1) * 4) == 0 &&
           (m->n_items == 0 || memcmp(c->items, m->items, (size_t)m->n_items * 4) == 0) &&
           c->item_bound == (m->n_items ? (uint64_t)max + 1 : 0);
}

static dod_world_index_desc desc_of(const dod_query *q, uint32_t component, uint32_t key_offset,
                                    uint32_t n_rows)
{
    dod_world_index_desc d;
    memset(&d, 0, sizeof d);
    d.query = q;
    d.component = component;
    d.key_offset = key_offset;
    d.n_rows = n_rows;
    return d;
}

/* A random world, a query over `all` and the index of its tag keys over it. Stays in place
 * (the desc points at the query). */
typedef struct fixture {
    dod_world *w;
    dod_query q;
    dod_world_index_desc d;
    dod_csr c;
} fixture;

static void fixture_make(fixture *f, uint64_t seed, uint32_t n, csr_keys dist, uint32_t n_rows,
                         const uint32_t *all, uint32_t n_all)
{
    test_rng rng = { seed };
    f->w = random_world(&rng, n, dist, n_rows, NULL);
    f->q = query_of(f->w, all, n_all);
    f->d = desc_of(&f->q, C_TAG, 0, n_rows);
    dod_csr_init(&f->c, NULL);
    CHECK_OK(dod_world_index_build(&f->c, f->w, &f->d));
}

static void fixture_free(fixture *f)
{
    dod_csr_free(&f->c);
    dod_world_destroy(f->w);
}

/* ---- builds ---- */

/* Every strategy on the calling thread and on every executor (pools of 1, 2, 3, 4 and 7
 * threads, and one running tasks backwards), with and without a scratch arena, sorted or not:
 * the reference's bytes. */
static int all_builds_match(const dod_world *w, dod_world_index_desc d, const ref_index *m,
                            dod_csr *reused)
{
    int ok = 1;
    dod_arena arena;
    dod_arena_init(&arena, 0, NULL);
    for (int s = DOD_CSR_BUILD_AUTO; s <= DOD_CSR_BUILD_PARTITIONED; ++s) {
        /* AUTO picks one of the other two, so it needs fewer executors. */
        for (int e = -1; e < (s == DOD_CSR_BUILD_AUTO ? 2 : CSR_EXECS); ++e) {
            d.strategy = (dod_csr_build_strategy)s;
            d.exec = e < 0 ? NULL : &execs.e[e];
            d.scratch = e % 2 ? &arena : NULL;
            dod_csr c;
            dod_csr_init(&c, NULL);
            ok = ok && dod_world_index_build(&c, w, &d) == DOD_OK && matches(&c, m);
            ok = ok && dod_arena_used(&arena) == 0;
            dod_csr_free(&c);
            ok = ok && dod_world_index_build(reused, w, &d) == DOD_OK && matches(reused, m);
        }
    }
    dod_arena_free(&arena);
    return ok;
}

static void test_builds_match_the_walk(void)
{
    test_rng rng = { 41 };
    dod_csr reused;
    dod_csr_init(&reused, NULL);
    const csr_keys dists[] = { CSR_KEYS_UNIFORM, CSR_KEYS_LONGTAIL, CSR_KEYS_FEW_ROWS,
                               CSR_KEYS_ONE_ROW };
    for (int i = 0; i < 4; ++i) {
        /* 90000 entities: several blocks of items on the pools, thousands of world blocks */
        uint32_t n_rows = i == 0 ? 60000 : 1 + test_rng_below(&rng, 3000);
        dod_world *w = random_world(&rng, i < 2 ? 90000 : 20000, dists[i], n_rows, NULL);
        dod_query tags = query_of(w, TAG_ONLY, 1), bigs = query_of(w, BIG_TAG, 1);
        for (int sort = 0; sort < 2; ++sort) {
            dod_world_index_desc d = desc_of(&tags, C_TAG, 0, n_rows);
            d.flags = sort ? DOD_CSR_BUILD_SORT_ROWS : 0;
            ref_index m = ref_build(w, &tags, C_TAG, 0, n_rows, sort);
            CHECK(all_builds_match(w, d, &m, &reused));
            ref_free(&m);
        }
        /* the key at offset 4 of the big component, over the two archetypes that have it */
        ref_index m = ref_build(w, &bigs, C_BIG, 4, n_rows, 0);
        CHECK(all_builds_match(w, desc_of(&bigs, C_BIG, 4, n_rows), &m, &reused));
        ref_free(&m);
        dod_world_destroy(w);
    }
    dod_csr_free(&reused);
}

/* Small and empty worlds: no entity matched, one, and every archetype empty but one. */
static void test_small_worlds(void)
{
    dod_world *w = make_world(NULL);
    dod_query tags = query_of(w, TAG_ONLY, 1);
    dod_csr c;
    dod_csr_init(&c, NULL);
    dod_world_index_desc d = desc_of(&tags, C_TAG, 0, 5);
    CHECK_OK(dod_world_index_build(&c, w, &d));
    CHECK(c.n_rows == 5 && c.n_items == 0 && c.offsets[5] == 0 && c.item_bound == 0);
    d.n_rows = 0;
    CHECK_OK(dod_world_index_build(&c, w, &d)); /* no rows, no items: valid and empty */
    CHECK(c.n_rows == 0 && c.n_items == 0);
    dod_entity e;
    CHECK_OK(dod_world_spawn(w, A_TAG, &e));
    ((tag *)dod_world_get(w, e, C_TAG))->key = 3;
    d.n_rows = 5;
    CHECK_OK(dod_world_index_build(&c, w, &d));
    CHECK(c.n_items == 1 && dod_csr_row_len(&c, 3) == 1 && c.items[0] == (uint32_t)e.bits);
    CHECK(c.item_bound == (uint64_t)(uint32_t)e.bits + 1);
    dod_csr_free(&c);
    dod_world_destroy(w);

    /* A component no archetype has has no size: no key fits in it, no field either. */
    const dod_component_desc comps[2] = { { "tag", sizeof(tag), 4 }, { "unused", 8, 4 } };
    const uint32_t tag_only = 0, unused = 1;
    dod_archetype_desc arch;
    memset(&arch, 0, sizeof arch); /* chunked, defaults */
    arch.name = "tag";
    arch.components = &tag_only;
    arch.n_components = 1;
    dod_world_desc wd = world_desc_of(comps, 2, &arch, 1, NULL);
    CHECK_OK(dod_world_create(&w, &wd));
    dod_query none = query_of(w, &unused, 1); /* matches nothing */
    dod_csr_init(&c, NULL);
    d = desc_of(&none, unused, 0, 5);
    csr_snap snap = csr_snap_take(&c);
    CHECK_STATUS(dod_world_index_build(&c, w, &d), DOD_E_INVALID);
    CHECK(csr_snap_unchanged(&c, &snap));
    uint32_t out = 0;
    dod_world_gather_col col = { &out, unused, 0, 4 };
    CHECK_STATUS(dod_world_gather(&c, w, &col, 1, NULL), DOD_E_INVALID);
    dod_world_destroy(w);
}

/* ---- items ---- */

static void test_items_lead_to_entities(void)
{
    const uint32_t n_rows = 2000;
    fixture f;
    fixture_make(&f, 43, 20000, CSR_KEYS_UNIFORM, n_rows, TAG_ONLY, 1);
    dod_world *w = f.w;
    int ok = 1;
    for (uint32_t row = 0; row < n_rows; ++row) {
        for (const uint32_t *it = dod_csr_row_begin(&f.c, row); it != dod_csr_row_end(&f.c, row); ++it) {
            dod_entity e = dod_world_entity_at(w, *it);
            const tag *t = (const tag *)dod_world_get_at(w, *it, C_TAG);
            ok = ok && dod_world_alive(w, e) && (uint32_t)e.bits == *it;
            ok = ok && t == dod_world_get(w, e, C_TAG) && t->key == row;
            ok = ok && (dod_world_get_at)(w, *it, C_TAG) == t;
            ok = ok && dod_world_get_at(w, *it, C_POS) == dod_world_get(w, e, C_POS);
            ok = ok && dod_world_get_at(w, *it, C_BIG) == dod_world_get(w, e, C_BIG);
        }
    }
    CHECK(ok);
    /* An item stays its entity's through a move and the swap-removes of others, until the
     * entity is despawned; then the slot resolves to nothing, and a later spawn may take it. */
    uint32_t item = f.c.items[f.c.n_items / 2];
    dod_entity e = dod_world_entity_at(w, item);
    uint32_t other = f.c.items[f.c.n_items / 3];
    CHECK_OK(dod_world_despawn(w, dod_world_entity_at(w, other)));
    CHECK_OK(dod_world_move(w, e, A_POS));
    CHECK_EQ(dod_world_entity_at(w, item).bits, e.bits);
    CHECK(dod_world_get_at(w, item, C_POS) == dod_world_get(w, e, C_POS));
    CHECK(dod_world_get_at(w, item, C_TAG) == NULL); /* A_POS has no tag */
    CHECK_OK(dod_world_despawn(w, e));
    CHECK_EQ(dod_world_entity_at(w, item).bits, 0);
    CHECK(dod_world_get_at(w, item, C_POS) == NULL);
    dod_entity reuse;
    CHECK_OK(dod_world_spawn(w, A_TAG, &reuse)); /* the most recently freed slot */
    CHECK_EQ((uint32_t)reuse.bits, item);
    CHECK_EQ(dod_world_entity_at(w, item).bits, reuse.bits);
    CHECK(reuse.bits != e.bits);
    /* slots never handed out, unknown components, NULL */
    CHECK_EQ(dod_world_entity_at(w, UINT32_MAX).bits, 0);
    CHECK_EQ(dod_world_entity_at(NULL, item).bits, 0);
    CHECK(dod_world_get_at(w, UINT32_MAX, C_TAG) == NULL);
    CHECK(dod_world_get_at(w, item, N_COMPS) == NULL);
    fixture_free(&f);
}

/* The typed layer's lookups by item: game_get_at_<component>. */
static void test_typed_get_at(void)
{
    dod_world *w = NULL;
    CHECK_OK(game_create(&w, NULL));
    dod_entity a, c;
    game_entity_a_row row;
    memset(&row, 0, sizeof row);
    row.position.x = 7.0f;
    CHECK_OK(game_entity_a_spawn(w, &row, &a));
    CHECK_OK(game_entity_c_spawn(w, NULL, &c));
    uint32_t ia = (uint32_t)a.bits, ic = (uint32_t)c.bits;
    CHECK(game_get_at_position(w, ia) == game_get_position(w, a));
    CHECK(game_get_at_position(w, ia)->x == 7.0f);
    CHECK(game_get_at_buffs(w, ia) == game_get_buffs(w, a));
    CHECK(game_get_at_hitbox(w, ic) == game_get_hitbox(w, c));
    CHECK(game_get_at_velocity(w, ic) == NULL); /* entity_c has no velocity */
    CHECK_OK(dod_world_despawn(w, a));
    CHECK(game_get_at_position(w, ia) == NULL);
    dod_world_destroy(w);
}

/* ---- gathers ---- */

/* dst[j] against a direct get of item j's component, at offset, size bytes. */
static int gathered_right(const dod_world *w, const dod_csr *c, const unsigned char *dst,
                          uint32_t component, uint32_t offset, uint32_t size)
{
    for (uint32_t j = 0; j < c->n_items; ++j) {
        const unsigned char *src = (const unsigned char *)dod_world_get_at(w, c->items[j], component);
        if (!src || memcmp(dst + (size_t)j * size, src + offset, size) != 0)
            return 0;
    }
    return 1;
}

static void test_gathers(void)
{
    const uint32_t n_rows = 5000;
    fixture f;
    fixture_make(&f, 47, 90000, CSR_KEYS_LONGTAIL, n_rows, TAG_POS, 2);
    dod_world *w = f.w;
    dod_query bigs = query_of(w, BIG_TAG, 1);
    CHECK(f.c.n_items > 32768); /* two tasks of the gather on the pools */
    uint32_t *other = (uint32_t *)malloc((size_t)f.c.n_items * 4);
    pos *p = (pos *)malloc((size_t)f.c.n_items * sizeof *p);
    tag *t = (tag *)malloc((size_t)f.c.n_items * sizeof *t);
    float *y = (float *)malloc((size_t)f.c.n_items * 4);
    for (int e = -1; e < CSR_EXECS; ++e) {
        const dod_executor *ex = e < 0 ? NULL : &execs.e[e];
        memset(other, 0, (size_t)f.c.n_items * 4);
        memset(p, 0, (size_t)f.c.n_items * sizeof *p);
        memset(t, 0, (size_t)f.c.n_items * sizeof *t);
        memset(y, 0, (size_t)f.c.n_items * 4);
        const dod_world_gather_col cols[] = {
            { other, C_TAG, 4, 4 }, { p, C_POS, 0, sizeof(pos) }, { t, C_TAG, 0, sizeof(tag) },
            { y, C_POS, 4, 4 },
        };
        CHECK_OK(dod_world_gather(&f.c, w, cols, 4, ex));
        CHECK(gathered_right(w, &f.c, (const unsigned char *)other, C_TAG, 4, 4));
        CHECK(gathered_right(w, &f.c, (const unsigned char *)p, C_POS, 0, sizeof(pos)));
        CHECK(gathered_right(w, &f.c, (const unsigned char *)t, C_TAG, 0, sizeof(tag)));
        CHECK(gathered_right(w, &f.c, (const unsigned char *)y, C_POS, 4, 4));
    }
    /* the 24-byte component whole (the general copy) and its key, over another index */
    dod_world_index_desc d = desc_of(&bigs, C_BIG, 4, n_rows);
    CHECK_OK(dod_world_index_build(&f.c, w, &d));
    big *b = (big *)malloc((size_t)f.c.n_items * sizeof *b);
    other = (uint32_t *)realloc(other, (size_t)f.c.n_items * 4);
    const dod_world_gather_col cols[] = { { b, C_BIG, 0, sizeof(big) }, { other, C_BIG, 4, 4 } };
    CHECK_OK(dod_world_gather(&f.c, w, cols, 2, &execs.e[1]));
    CHECK(gathered_right(w, &f.c, (const unsigned char *)b, C_BIG, 0, sizeof(big)));
    CHECK(gathered_right(w, &f.c, (const unsigned char *)other, C_BIG, 4, 4));
    int rows_ok = 1;
    for (uint32_t j = 0; j < f.c.n_items; ++j)
        rows_ok = rows_ok && f.c.offsets[other[j]] <= j && j < f.c.offsets[other[j] + 1];
    CHECK(rows_ok); /* each gathered key is its row */
    CHECK_OK(dod_world_gather(&f.c, w, NULL, 0, NULL)); /* no columns: nothing to do */
    free(other);
    free(p);
    free(t);
    free(b);
    free(y);
    fixture_free(&f);
}

/* ---- refusals ---- */

static void test_build_refusals(void)
{
    const uint32_t n_rows = 3000;
    fixture f; /* its index is what every refusal must leave */
    fixture_make(&f, 53, 80000, CSR_KEYS_UNIFORM, n_rows, TAG_ONLY, 1);
    dod_world *w = f.w, *other = make_world(NULL);
    dod_query poss = query_of(w, POS_ONLY, 1), foreign = query_of(other, TAG_ONLY, 1);
    const dod_world_index_desc good = f.d;
    dod_arena arena;
    dod_arena_init(&arena, 0, NULL);
    void *first = NULL;
    CHECK_OK(dod_arena_push(&arena, 40, 8, &first));
    size_t used = dod_arena_used(&arena);
    dod_executor no_run = { NULL, NULL, 2 }, no_threads = execs.e[1];
    no_threads.n_threads = 0;
    uint64_t world_before = world_snap(w);

    enum { N_BAD = 13 };
    for (int i = 0; i < N_BAD; ++i) {
        dod_world_index_desc d = good;
        dod_status want = DOD_E_INVALID;
        switch (i) {
        case 0: d.query = NULL; break;
        case 1: d.query = &foreign; break;
        case 2: d.component = N_COMPS, want = DOD_E_RANGE; break;
        case 3: d.query = &poss; break; /* matches "pos", which has no tag */
        case 4: d.key_offset = 2; break;
        case 5: d.key_offset = 8; break; /* past the component's end */
        case 6: d.flags = 4; break; /* neither DOD_CSR_BUILD_SORT_ROWS nor DOD_WORLD_INDEX_ROWS */
        case 7: d.strategy = (dod_csr_build_strategy)3; break;
        case 8: d.exec = &no_run; break;
        case 9: d.exec = &no_threads; break;
        case 10: d.n_rows = UINT32_MAX, want = DOD_E_OVERFLOW; break;
        case 11: d.n_rows = 0, want = DOD_E_RANGE; break;
        default: d.n_rows = n_rows - 1, want = DOD_E_RANGE; break; /* some key is n_rows - 1 */
        }
        for (int with_arena = 0; with_arena < 2; ++with_arena) {
            d.scratch = with_arena ? &arena : NULL;
            csr_snap snap = csr_snap_take(&f.c);
            CHECK_STATUS(dod_world_index_build(&f.c, w, &d), want);
            CHECK(csr_snap_unchanged(&f.c, &snap));
            CHECK_EQ(dod_arena_used(&arena), used);
        }
    }
    csr_snap snap = csr_snap_take(&f.c);
    CHECK_STATUS(dod_world_index_build(NULL, w, &good), DOD_E_INVALID);
    CHECK_STATUS(dod_world_index_build(&f.c, NULL, &good), DOD_E_INVALID);
    CHECK_STATUS(dod_world_index_build(&f.c, w, NULL), DOD_E_INVALID);
    CHECK(csr_snap_unchanged(&f.c, &snap));

    /* A key out of range in the first, a middle and the last matched block, found by every
     * strategy on every thread count, with the index and the arena unchanged. */
    dod_world_iter it;
    dod_world_iter_init(&it, w, &f.q);
    tag *where[3] = { NULL, NULL, NULL };
    uint32_t blocks = 0;
    while (dod_world_next(&it)) {
        tag *t = (tag *)dod_world_field(&it, C_TAG);
        if (!where[0])
            where[0] = &t[0];
        if (blocks++ == 700)
            where[1] = &t[it.n / 2];
        where[2] = &t[it.n - 1];
    }
    CHECK(where[1] != NULL);
    for (int k = 0; k < 3; ++k) {
        uint32_t saved = where[k]->key;
        where[k]->key = n_rows + (uint32_t)k * 1000u;
        for (int s = DOD_CSR_BUILD_AUTO; s <= DOD_CSR_BUILD_PARTITIONED; ++s) {
            for (int e = -1; e < CSR_EXECS; e += 2) {
                dod_world_index_desc d = good;
                d.strategy = (dod_csr_build_strategy)s;
                d.exec = e < 0 ? NULL : &execs.e[e];
                d.scratch = e < 0 ? NULL : &arena;
                snap = csr_snap_take(&f.c);
                CHECK_STATUS(dod_world_index_build(&f.c, w, &d), DOD_E_RANGE);
                CHECK(csr_snap_unchanged(&f.c, &snap));
                CHECK_EQ(dod_arena_used(&arena), used);
            }
        }
        where[k]->key = saved;
    }
    CHECK_EQ(world_snap(w), world_before); /* builds only read the world */
    dod_arena_free(&arena);
    dod_world_destroy(other);
    fixture_free(&f);
}

static void test_gather_refusals(void)
{
    fixture f;
    fixture_make(&f, 59, 6000, CSR_KEYS_UNIFORM, 500, TAG_ONLY, 1);
    dod_world *w = f.w;
    size_t bytes = (size_t)f.c.n_items * sizeof(tag);
    unsigned char *dst = (unsigned char *)malloc(bytes), *want = (unsigned char *)malloc(bytes);
    memset(want, 0xAB, bytes);
    memcpy(dst, want, bytes);
    dod_executor no_run = { NULL, NULL, 2 };
    struct bad {
        dod_world_gather_col col;
        dod_status want;
    } bad[] = {
        { { NULL, C_TAG, 0, 4 }, DOD_E_INVALID },        /* dst NULL with items */
        { { dst, C_TAG, 0, 0 }, DOD_E_INVALID },         /* size 0 */
        { { dst, C_TAG, 4, 8 }, DOD_E_INVALID },         /* past the component's end */
        { { dst, C_TAG, UINT32_MAX, 4 }, DOD_E_INVALID },
        { { dst, N_COMPS, 0, 4 }, DOD_E_RANGE },         /* no such component */
        { { dst, C_POS, 0, 4 }, DOD_E_NOT_FOUND },       /* "tag" and "big" items lack pos */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        for (int e = -1; e < 2; ++e) {
            CHECK_STATUS(dod_world_gather(&f.c, w, &bad[i].col, 1, e < 0 ? NULL : &execs.e[e]),
                         bad[i].want);
            CHECK(memcmp(dst, want, bytes) == 0);
        }
    }
    dod_world_gather_col good = { dst, C_TAG, 0, 4 };
    CHECK_STATUS(dod_world_gather(NULL, w, &good, 1, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_world_gather(&f.c, NULL, &good, 1, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_world_gather(&f.c, w, NULL, 1, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_world_gather(&f.c, w, &good, 1, &no_run), DOD_E_INVALID);
    /* two columns, the second bad: nothing of the first is written either */
    dod_world_gather_col two[2] = { good, { dst, C_POS, 0, 4 } };
    CHECK_STATUS(dod_world_gather(&f.c, w, two, 2, NULL), DOD_E_NOT_FOUND);
    CHECK(memcmp(dst, want, bytes) == 0);

    /* Items that are no longer what they were: despawned (first, middle, last item), moved to
     * an archetype without the component; and an index whose items the world never handed out. */
    const uint32_t at[3] = { 0, f.c.n_items / 2, f.c.n_items - 1 };
    for (int k = 0; k < 3; ++k) {
        dod_csr copy;
        dod_csr_init(&copy, NULL);
        CHECK_OK(dod_csr_copy(&copy, &f.c));
        dod_entity e = dod_world_entity_at(w, f.c.items[at[k]]);
        CHECK_OK(dod_world_move(w, e, A_POS));
        for (int ex = -1; ex < 2; ++ex) {
            CHECK_STATUS(dod_world_gather(&f.c, w, &good, 1, ex < 0 ? NULL : &execs.e[ex]),
                         DOD_E_NOT_FOUND);
            CHECK(memcmp(dst, want, bytes) == 0);
        }
        CHECK_OK(dod_world_despawn(w, e));
        CHECK_STATUS(dod_world_gather(&f.c, w, &good, 1, &execs.e[1]), DOD_E_NOT_FOUND);
        CHECK(memcmp(dst, want, bytes) == 0);
        CHECK(dod_csr_equal(&f.c, &copy)); /* the gather only reads the index */
        dod_csr_free(&copy);
        CHECK_OK(dod_world_index_build(&f.c, w, &f.d)); /* the next round's index */
    }
    uint32_t keys[2] = { 0, 0 }, values[2] = { 1, 0 };
    values[0] = w->head.n_slots; /* one past the last slot handed out */
    dod_csr_desc forged;
    memset(&forged, 0, sizeof forged);
    forged.n_rows = 1;
    forged.n_items = 2;
    forged.keys = keys;
    forged.values = values;
    CHECK_OK(dod_csr_build_desc(&f.c, &forged));
    CHECK_STATUS(dod_world_gather(&f.c, w, &good, 1, NULL), DOD_E_RANGE);
    CHECK(memcmp(dst, want, bytes) == 0);
    free(dst);
    free(want);
    fixture_free(&f);
}

/* ---- allocation failures ---- */

/* Every allocation of a first build (the list of blocks, the row block, the items block with
 * its held scratch) failed in turn, for every strategy: DOD_E_NOMEM, the index unchanged, no
 * leak. Then from a frame arena whose parent fails. */
static void test_alloc_failures(void)
{
    test_rng rng = { 61 };
    const uint32_t n_rows = 40000;
    dod_world *w = random_world(&rng, 80000, CSR_KEYS_UNIFORM, n_rows, NULL);
    dod_query tags = query_of(w, TAG_ONLY, 1);
    for (int s = DOD_CSR_BUILD_AUTO; s <= DOD_CSR_BUILD_PARTITIONED; ++s) {
        for (int e = -1; e < 2; ++e) {
            dod_world_index_desc d = desc_of(&tags, C_TAG, 0, n_rows);
            d.strategy = (dod_csr_build_strategy)s;
            d.exec = e < 0 ? NULL : &execs.e[e];
            long walked = 0;
            for (long fail = 0;; ++fail) {
                test_alloc t;
                test_alloc_init(&t);
                dod_allocator a = test_alloc_get(&t);
                dod_csr c;
                dod_csr_init(&c, &a);
                uint32_t keys[2] = { 0, 1 };
                CHECK_OK(dod_csr_build(&c, 2, keys, 4, 2)); /* holds too little */
                test_alloc_fail_after(&t, fail);
                csr_snap snap = csr_snap_take(&c);
                dod_status st = dod_world_index_build(&c, w, &d);
                if (st == DOD_OK) {
                    csr_snap_drop(&snap);
                    test_alloc_fail_after(&t, -1);
                    long before = t.calls;
                    CHECK_OK(dod_world_index_build(&c, w, &d));
                    CHECK_EQ(t.calls, before + 1); /* the list of blocks, and nothing else */
                    CHECK_EQ(t.live, 2);
                    dod_csr_free(&c);
                    CHECK_EQ(t.live, 0);
                    test_alloc_finish(&t);
                    break;
                }
                CHECK_STATUS(st, DOD_E_NOMEM);
                CHECK(csr_snap_unchanged(&c, &snap));
                CHECK_EQ(t.live, 2); /* what the index held before */
                walked++;
                dod_csr_free(&c);
                test_alloc_finish(&t);
            }
            CHECK_EQ(walked, 3); /* the list of blocks, the row block, the items block */
        }
    }

    /* From a frame arena: its parent fails each of its allocations in turn (the list of
     * blocks, then the strategy's scratch); afterwards a second frame allocates nothing. */
    for (int e = -1; e < 2; ++e) {
        dod_world_index_desc d = desc_of(&tags, C_TAG, 0, n_rows);
        d.strategy = DOD_CSR_BUILD_PARTITIONED;
        d.exec = e < 0 ? NULL : &execs.e[e];
        test_alloc ta, tc;
        test_alloc_init(&ta);
        test_alloc_init(&tc);
        dod_allocator aa = test_alloc_get(&ta), ac = test_alloc_get(&tc);
        dod_csr c;
        dod_csr_init(&c, &ac);
        CHECK_OK(dod_csr_reserve(&c, n_rows, 80000));
        long index_calls = tc.calls, walked = 0;
        for (long fail = 0;; ++fail) {
            dod_arena arena;
            dod_arena_init(&arena, 4096, &aa);
            void *first = NULL;
            CHECK_OK(dod_arena_push(&arena, 40, 8, &first));
            size_t used = dod_arena_used(&arena);
            d.scratch = &arena;
            test_alloc_fail_after(&ta, fail);
            csr_snap snap = csr_snap_take(&c);
            dod_status st = dod_world_index_build(&c, w, &d);
            test_alloc_fail_after(&ta, -1);
            CHECK_EQ(dod_arena_used(&arena), used);
            if (st == DOD_OK) {
                csr_snap_drop(&snap);
                long arena_calls = ta.calls;
                CHECK_OK(dod_world_index_build(&c, w, &d));
                CHECK_EQ(ta.calls, arena_calls);
                CHECK_EQ(tc.calls, index_calls);
                dod_arena_free(&arena);
                break;
            }
            CHECK_STATUS(st, DOD_E_NOMEM);
            CHECK(csr_snap_unchanged(&c, &snap));
            CHECK_EQ(tc.calls, index_calls);
            walked++;
            dod_arena_free(&arena);
        }
        CHECK_EQ(walked, 2);
        dod_csr_free(&c);
        CHECK_EQ(ta.live, 0);
        CHECK_EQ(tc.live, 0);
        test_alloc_finish(&ta);
        test_alloc_finish(&tc);
    }
    dod_world_destroy(w);
}

int main(void)
{
    csr_execs_start(&execs);
    test_builds_match_the_walk();
    test_small_worlds();
    test_items_lead_to_entities();
    test_typed_get_at();
    test_gathers();
    test_build_refusals();
    test_gather_refusals();
    test_alloc_failures();
    csr_execs_stop(&execs);
    return check_summary("world_index");
}
