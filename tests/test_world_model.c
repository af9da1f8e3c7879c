/* The world against a reference model: random spawn / spawn_n / despawn / move / add /
 * remove / writes through get, with every live entity's archetype and components, the counts, the refusals
 * of dead handles, the queries and the iteration checked after every step.
 * DOD_TEST_SCALE (default 1) multiplies the number of steps. */
#include <dod/world.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "world_check.h"

enum { C_POS, C_VEL, C_HP, C_BIG, C_LINE, C_BYTE, C_WIDE, N_COMPS };
static const dod_component_desc COMPS[N_COMPS] = {
    { "pos", 8, 4 },   { "vel", 8, 4 },   { "hp", 4, 4 },    { "big", 48, 16 },
    { "line", 64, 64 }, { "byte", 1, 1 }, { "wide", 24, 8 },
};
static const uint32_t A0[] = { C_POS, C_VEL };
static const uint32_t A1[] = { C_POS };
static const uint32_t A2[] = { C_POS, C_HP, C_BIG };
static const uint32_t A4[] = { C_LINE, C_BYTE, C_VEL };
static const uint32_t A5[] = { C_BIG, C_POS, C_VEL, C_HP, C_BYTE, C_WIDE };
static const uint32_t A6[] = { C_BYTE };
enum { N_ARCHS = 10 };
static const dod_archetype_desc ARCHS[N_ARCHS] = {
    { "pv", A0, 2, 0, 512, 0, 0 },             /* small equal blocks: many of them */
    { "p", A1, 1, 200, 0, 0, 0 },              /* fixed */
    { "phb", A2, 3, 0, 2048, 4 * 2048, 0 },    /* a memory cap of four equal blocks */
    { "empty", NULL, 0, 0, 256, 0, 0 },        /* ids only */
    { "lbv", A4, 3, 64, 0, 0, 0 },             /* fixed, 64-byte aligned component */
    { "wide", A5, 6, 0, 0, 0, 0 },             /* default blocks */
    { "b", A6, 1, 0, 128, 0, 0 },              /* tiny blocks */
    { "grow", A0, 2, 0, 400, 1060, 200 },      /* growing blocks of 8, 16, 16 rows, capped */
    { "grow_phb", A2, 3, 0, 6144, 0, 512 },    /* 16 rows (> 512 bytes), 32, then 64 */
    { "b_twin", A6, 1, 3, 0, 0, 0 },           /* b's set again: neither is an add / remove target */
};

enum { MAX_SLOTS = 1 << 14, MAX_DEAD = 64 };

typedef struct ent {
    dod_entity e;
    uint32_t arch;
    unsigned char data[N_COMPS][64];
} ent;

typedef struct model {
    ent *by_slot;            /* indexed by the handle's index bits */
    uint32_t *live;          /* slot indexes of live entities, any order */
    uint32_t n_live;
    uint32_t count[N_ARCHS];
    uint32_t max_rows[N_ARCHS]; /* UINT32_MAX: no limit */
    dod_entity dead[MAX_DEAD];
    uint32_t n_dead;
    uint32_t *seen;          /* iteration: the step that saw each slot */
} model;

static int arch_has(uint32_t a, uint32_t c)
{
    return world_desc_has(&ARCHS[a], c);
}

/* Where adding (add 1) or removing `c` takes an entity of archetype a, by the contract's
 * words: a itself when a already has (lacks) c; else the one archetype whose set is a's with
 * c added (removed), or UINT32_MAX when none or several are. */
static uint32_t model_toggle_target(uint32_t a, uint32_t c, int add)
{
    if (arch_has(a, c) == add)
        return a;
    uint32_t found = UINT32_MAX, n_found = 0;
    for (uint32_t b = 0; b < N_ARCHS; ++b) {
        int same = 1;
        for (uint32_t k = 0; k < N_COMPS; ++k)
            same &= arch_has(b, k) == (k == c ? add : arch_has(a, k));
        if (same) {
            found = b;
            ++n_found;
        }
    }
    return n_found == 1 ? found : UINT32_MAX;
}

static void model_init(model *m)
{
    memset(m, 0, sizeof *m);
    m->by_slot = (ent *)calloc(MAX_SLOTS, sizeof *m->by_slot);
    m->live = (uint32_t *)calloc(MAX_SLOTS, sizeof *m->live);
    m->seen = (uint32_t *)calloc(MAX_SLOTS, sizeof *m->seen);
    for (uint32_t a = 0; a < N_ARCHS; ++a) {
        size_t sizes[8];
        for (uint32_t k = 0; k < ARCHS[a].n_components; ++k)
            sizes[k] = COMPS[ARCHS[a].components[k]].size;
        m->max_rows[a] = UINT32_MAX;
        if (ARCHS[a].capacity)
            m->max_rows[a] = ARCHS[a].capacity;
        else if (ARCHS[a].memory_cap) {
            uint32_t s = 0, n = ARCHS[a].n_components;
            size_t row, cap = ARCHS[a].memory_cap, first = ARCHS[a].first_block_bytes;
            if (first == 0)
                first = DOD_WORLD_FIRST_BLOCK_BYTES;
            uint32_t r0 = world_expected_growth(first, ARCHS[a].block_bytes, sizes, n, &s, &row);
            m->max_rows[a] = r0 ? (uint32_t)world_expected_cap_rows(r0, s, r0 * row, cap)
                                : (uint32_t)(cap / ARCHS[a].block_bytes) *
                                      world_expected_rows(ARCHS[a].block_bytes, sizes, n);
        }
    }
    CHECK_EQ(m->max_rows[7], 8 + 16 + 16); /* "grow": three blocks */
}

static void model_free(model *m)
{
    free(m->by_slot);
    free(m->live);
    free(m->seen);
}

static void add_live(model *m, dod_entity e, uint32_t arch)
{
    uint32_t slot = (uint32_t)e.bits;
    CHECK(slot < MAX_SLOTS);
    if (slot >= MAX_SLOTS)
        return;
    ent *x = &m->by_slot[slot];
    memset(x, 0, sizeof *x);
    x->e = e;
    x->arch = arch;
    m->live[m->n_live++] = slot;
    m->count[arch]++;
}

static void kill(model *m, uint32_t live_i)
{
    uint32_t slot = m->live[live_i];
    ent *x = &m->by_slot[slot];
    m->count[x->arch]--;
    m->dead[m->n_dead++ % MAX_DEAD] = x->e;
    m->live[live_i] = m->live[--m->n_live];
    x->e.bits = 0;
}

/* Every live entity resolves to its archetype and components; counts; dead handles. */
static int check_entities(const dod_world *w, const model *m)
{
    int ok = 1;
    for (uint32_t a = 0; a < N_ARCHS; ++a)
        ok &= dod_world_count(w, a) == m->count[a];
    for (uint32_t i = 0; i < m->n_live; ++i) {
        const ent *x = &m->by_slot[m->live[i]];
        ok &= dod_world_alive(w, x->e) && dod_world_archetype_of(w, x->e) == x->arch;
        for (uint32_t c = 0; c < N_COMPS; ++c) {
            const void *p = dod_world_get(w, x->e, c);
            if (!arch_has(x->arch, c))
                ok &= p == NULL;
            else
                ok &= p != NULL && (uintptr_t)p % COMPS[c].align == 0 &&
                      memcmp(p, x->data[c], COMPS[c].size) == 0;
        }
    }
    for (uint32_t i = 0; i < m->n_dead && i < MAX_DEAD; ++i)
        ok &= !dod_world_alive(w, m->dead[i]) && dod_world_get(w, m->dead[i], C_POS) == NULL;
    return ok;
}

/* A random query matches exactly the archetypes it should, and its iteration visits each of
 * their live entities once, with its own components, in archetype order then block order. */
static int check_iteration(const dod_world *w, model *m, test_rng *rng, uint32_t step)
{
    uint32_t all[3], none[2], n_all = test_rng_below(rng, 3), n_none = test_rng_below(rng, 2);
    for (uint32_t i = 0; i < n_all; ++i)
        all[i] = test_rng_below(rng, N_COMPS);
    for (uint32_t i = 0; i < n_none; ++i)
        none[i] = test_rng_below(rng, N_COMPS);
    dod_query q;
    CHECK_OK(dod_query_init(&q, w, all, n_all, none, n_none));
    int match[N_ARCHS];
    for (uint32_t a = 0; a < N_ARCHS; ++a) {
        match[a] = 1;
        for (uint32_t i = 0; i < n_all; ++i)
            match[a] &= arch_has(a, all[i]);
        for (uint32_t i = 0; i < n_none; ++i)
            match[a] &= !arch_has(a, none[i]);
    }
    int ok = 1;
    uint32_t visited = 0, last_arch = UINT32_MAX, block = 0;
    dod_world_iter it;
    dod_world_iter_init(&it, w, &q);
    while (dod_world_next(&it)) {
        ok &= it.n > 0 && it.archetype < N_ARCHS && match[it.archetype];
        ok &= last_arch == UINT32_MAX || it.archetype >= last_arch;
        block = it.archetype == last_arch ? block + 1 : 0;
        last_arch = it.archetype;
        void *cols[1 + 8];
        ok &= dod_world_block(w, it.archetype, block, cols) == it.n &&
              cols[0] == (const void *)it.entities;
        for (uint32_t r = 0; r < it.n; ++r) {
            uint32_t slot = (uint32_t)it.entities[r].bits;
            const ent *x = slot < MAX_SLOTS ? &m->by_slot[slot] : NULL;
            ok &= x && x->e.bits == it.entities[r].bits && x->arch == it.archetype &&
                  m->seen[slot] != step + 1;
            if (!x)
                continue;
            m->seen[slot] = step + 1;
            for (uint32_t c = 0; c < N_COMPS; ++c) {
                const unsigned char *col = (const unsigned char *)dod_world_field(&it, c);
                ok &= (col != NULL) == arch_has(it.archetype, c);
                if (col)
                    ok &= (uintptr_t)col % 64 == 0 &&
                          memcmp(col + r * COMPS[c].size, x->data[c], COMPS[c].size) == 0;
            }
        }
        visited += it.n;
    }
    uint32_t want = 0;
    for (uint32_t a = 0; a < N_ARCHS; ++a)
        want += match[a] ? m->count[a] : 0;
    ok &= visited == want;
    return ok;
}

static void random_bytes(test_rng *rng, unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        p[i] = (unsigned char)test_rng_next(rng);
}

/* The handles of the last n rows of an archetype, in row order: what a spawn without out
 * made. */
static void last_rows_ids(const dod_world *w, uint32_t arch, uint32_t n, dod_entity *ids)
{
    uint32_t total = dod_world_count(w, arch), b = 0, seen = 0;
    void *cols[1 + 8];
    for (uint32_t rows; (rows = dod_world_block(w, arch, b, cols)) > 0; ++b)
        for (uint32_t r = 0; r < rows; ++r, ++seen)
            if (seen >= total - n)
                ids[seen - (total - n)] = ((const dod_entity *)cols[0])[r];
}

static dod_entity last_row_id(const dod_world *w, uint32_t arch)
{
    dod_entity e = { 0 };
    last_rows_ids(w, arch, 1, &e);
    return e;
}

static void step_once(dod_world *w, model *m, test_rng *rng)
{
    uint32_t op = test_rng_below(rng, 100);
    uint32_t arch = test_rng_below(rng, N_ARCHS);
    if (m->n_live > 600 && op < 45)
        op += 45; /* keep the population bounded */
    if (op < 25) { /* spawn, sometimes without the handle */
        dod_entity e;
        int want_id = test_rng_below(rng, 4) != 0;
        uint64_t before = world_snap(w);
        dod_status st = dod_world_spawn(w, arch, want_id ? &e : NULL);
        CHECK_STATUS(st, m->count[arch] < m->max_rows[arch] ? DOD_OK : DOD_E_FULL);
        if (st != DOD_OK) {
            CHECK(world_snap(w) == before);
            return;
        }
        if (!want_id)
            e = last_row_id(w, arch);
        add_live(m, e, arch);
    } else if (op < 35) { /* spawn_n, sometimes without ids */
        uint32_t n = test_rng_below(rng, 40);
        dod_entity e[40];
        int want_ids = test_rng_below(rng, 4) != 0;
        uint64_t before = world_snap(w);
        dod_status st = dod_world_spawn_n(w, arch, n, want_ids ? e : NULL);
        int fits = (uint64_t)m->count[arch] + n <= m->max_rows[arch];
        CHECK_STATUS(st, fits ? DOD_OK : DOD_E_FULL);
        if (st != DOD_OK) {
            CHECK(world_snap(w) == before);
            return;
        }
        if (!want_ids)
            last_rows_ids(w, arch, n, e);
        for (uint32_t i = 0; i < n; ++i)
            add_live(m, e[i], arch);
    } else if (op < 60 && m->n_live) { /* despawn */
        uint32_t i = test_rng_below(rng, m->n_live);
        CHECK_OK(dod_world_despawn(w, m->by_slot[m->live[i]].e));
        kill(m, i);
    } else if (op < 80 && m->n_live) { /* move, add or remove: kept, zeroed, or refused */
        uint32_t i = test_rng_below(rng, m->n_live);
        ent *x = &m->by_slot[m->live[i]];
        uint32_t c = test_rng_below(rng, N_COMPS), how = test_rng_below(rng, 3);
        /* most (archetype, component) pairs lead nowhere: half the time, look for one that
         * moves the entity */
        for (int tries = 0; how && tries < 8 && test_rng_below(rng, 2); ++tries) {
            uint32_t to = model_toggle_target(x->arch, c, how == 1);
            if (to != UINT32_MAX && to != x->arch)
                break;
            c = test_rng_below(rng, N_COMPS);
        }
        uint64_t before = world_snap(w);
        dod_status st, want = DOD_OK;
        if (how == 0) {
            st = dod_world_move(w, x->e, arch);
        } else {
            arch = model_toggle_target(x->arch, c, how == 1);
            st = how == 1 ? dod_world_add(w, x->e, c) : dod_world_remove(w, x->e, c);
            if (arch == UINT32_MAX)
                want = DOD_E_UNDECLARED;
        }
        if (want == DOD_OK && arch != x->arch && m->count[arch] >= m->max_rows[arch])
            want = DOD_E_FULL;
        CHECK_STATUS(st, want);
        if (st != DOD_OK) {
            CHECK(world_snap(w) == before);
            return;
        }
        if (arch == x->arch) { /* a no-op: nothing moved */
            CHECK(world_snap(w) == before);
            return;
        }
        for (uint32_t k = 0; k < N_COMPS; ++k)
            if (!arch_has(arch, k))
                memset(x->data[k], 0, sizeof x->data[k]);
        m->count[x->arch]--;
        m->count[arch]++;
        x->arch = arch;
    } else if (op < 95 && m->n_live) { /* write through get */
        ent *x = &m->by_slot[m->live[test_rng_below(rng, m->n_live)]];
        uint32_t c = test_rng_below(rng, N_COMPS);
        void *p = dod_world_get(w, x->e, c);
        CHECK((p != NULL) == arch_has(x->arch, c));
        if (p) {
            random_bytes(rng, x->data[c], COMPS[c].size);
            memcpy(p, x->data[c], COMPS[c].size);
        }
    } else if (m->n_dead) { /* a dead handle changes nothing */
        dod_entity dead = m->dead[test_rng_below(rng, m->n_dead < MAX_DEAD ? m->n_dead : MAX_DEAD)];
        uint64_t before = world_snap(w);
        CHECK_STATUS(dod_world_despawn(w, dead), DOD_E_NOT_FOUND);
        CHECK_STATUS(dod_world_move(w, dead, arch), DOD_E_NOT_FOUND);
        CHECK_STATUS(dod_world_add(w, dead, C_POS), DOD_E_NOT_FOUND);
        CHECK_STATUS(dod_world_remove(w, dead, C_POS), DOD_E_NOT_FOUND);
        CHECK(world_snap(w) == before);
    }
}

static void run(uint64_t seed, uint32_t steps)
{
    dod_world_desc d = world_desc_of(COMPS, N_COMPS, ARCHS, N_ARCHS, NULL);
    dod_world *w;
    CHECK_OK(dod_world_create(&w, &d));
    model m;
    model_init(&m);
    test_rng rng = { seed };
    long failed_before = check_failed;
    for (uint32_t s = 0; s < steps && check_failed == failed_before; ++s) {
        step_once(w, &m, &rng);
        CHECK(check_entities(w, &m));
        CHECK(check_iteration(w, &m, &rng, s));
        if (check_failed != failed_before)
            fprintf(stderr, "  seed %llu: first failure at step %u\n", (unsigned long long)seed,
                    s);
    }
    /* and back to empty: every block but one spare per chunked archetype is returned */
    while (m.n_live) {
        CHECK_OK(dod_world_despawn(w, m.by_slot[m.live[m.n_live - 1]].e));
        kill(&m, m.n_live - 1);
    }
    CHECK(check_entities(w, &m));
    for (uint32_t a = 0; a < N_ARCHS; ++a)
        CHECK(w->arch[a].n_blocks <= 1);
    model_free(&m);
    dod_world_destroy(w);
}

int main(void)
{
    for (uint64_t seed = 1; seed <= 4; ++seed)
        run(seed, 1500 * test_scale());
    return check_summary("world_model");
}
