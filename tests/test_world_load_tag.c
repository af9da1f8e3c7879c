/* Handles stored in components across a save and a load into another world (another tag):
 * dod_world_load_with / dod_world_load_mem_with and their handle fields make them the loading
 * world's, on every path of the loader (into a fresh world, into one that holds entities, from
 * memory, from a seekable stream); without the fields they do not resolve (the world's tag
 * differs), as before; a refused desc leaves the world as it was; every allocation fails in
 * turn. */
#include <dod/world.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "world_check.h"

typedef struct link {
    dod_entity target, other;
} link;

enum { C_POS, C_LINK, N_COMPS };
static const dod_component_desc COMPS[N_COMPS] = { { "pos", 8, 4 },
                                                   { "link", sizeof(link), 8 } };
static const uint32_t PL[] = { C_POS, C_LINK };
static const uint32_t L[] = { C_LINK };
static const uint32_t P[] = { C_POS };
enum { A_UNITS, A_FIXED, A_POS, N_ARCHS, N_UNITS = 3000, N_FIXED = 40 };
static const dod_archetype_desc ARCHS[N_ARCHS] = {
    { "units", PL, 2, 0, 0, 0, 0 },
    { "fixed", L, 1, 50, 0, 0, 0 },
    { "pos", P, 1, 0, 0, 0, 0 },
};
static const dod_world_handle_field FIELDS[2] = { { C_LINK, 0 }, { C_LINK, 8 } };

static dod_world *make(const dod_allocator *alloc)
{
    dod_world_desc d = world_desc_of(COMPS, N_COMPS, ARCHS, N_ARCHS, alloc);
    dod_world *w = NULL;
    CHECK_OK(dod_world_create(&w, &d));
    return w;
}

/* A world whose links name units and positions (a null link, a link to a despawned unit). */
static dod_world *saved_world(void)
{
    dod_world *w = make(NULL);
    dod_entity units[N_UNITS], fixed[N_FIXED], pos[100], gone;
    CHECK_OK(dod_world_spawn_n(w, A_POS, 100, pos));
    CHECK_OK(dod_world_spawn_n(w, A_UNITS, N_UNITS, units));
    CHECK_OK(dod_world_spawn_n(w, A_FIXED, N_FIXED, fixed));
    CHECK_OK(dod_world_spawn(w, A_UNITS, &gone));
    for (uint32_t i = 0; i < N_UNITS; ++i) {
        float *p = (float *)dod_world_get(w, units[i], C_POS);
        p[0] = (float)i;
        p[1] = 0.5f;
        link *l = (link *)dod_world_get(w, units[i], C_LINK);
        l->target = i % 7 == 0 ? (dod_entity){ 0 } : units[(i * 31u + 1) % N_UNITS];
        l->other = i % 5 == 0 ? gone : pos[i % 100];
    }
    for (uint32_t i = 0; i < N_FIXED; ++i) {
        link *l = (link *)dod_world_get(w, fixed[i], C_LINK);
        l->target = units[i];
        l->other = fixed[(i + 1) % N_FIXED];
    }
    CHECK_OK(dod_world_despawn(w, gone));
    return w;
}

/* Every link of `to` (loaded from `from`) names, or not, the entity it named in `from`: in
 * its slot, with its generation; resolves says whether the live ones resolve in `to`. */
static void check_links(const dod_world *from, const dod_world *to, int resolves)
{
    dod_query q;
    const uint32_t all[] = { C_LINK };
    CHECK_OK(dod_query_init(&q, to, all, 1, NULL, 0));
    dod_world_iter it;
    dod_world_iter_init(&it, to, &q);
    uint32_t live = 0, dead = 0, null = 0, wrong = 0;
    while (dod_world_next(&it)) {
        const link *l = (const link *)dod_world_field(&it, C_LINK);
        for (uint32_t r = 0; r < it.n; ++r) {
            /* the same entity in `from`: its slot (the handles' tags differ) */
            dod_entity e = dod_world_entity_at(from, (uint32_t)it.entities[r].bits);
            const link *was = (const link *)dod_world_get(from, e, C_LINK);
            const dod_entity got[2] = { l[r].target, l[r].other };
            const dod_entity want[2] = { was->target, was->other };
            for (int k = 0; k < 2; ++k) {
                const uint64_t low = ((uint64_t)1 << 48) - 1;
                wrong += (got[k].bits & low) != (want[k].bits & low);
                if (got[k].bits == 0) {
                    null++;
                } else if (dod_world_alive(from, want[k])) {
                    live++;
                    wrong += dod_world_alive(to, got[k]) != resolves;
                } else {
                    dead++;
                    wrong += dod_world_alive(to, got[k]) != 0;
                }
            }
        }
    }
    CHECK_EQ(wrong, 0);
    CHECK(live > 0 && dead > 0 && null > 0);
}

/* The image of w, malloc'ed. */
static unsigned char *image_of(const dod_world *w, size_t *len)
{
    *len = dod_world_saved_size(w);
    unsigned char *bytes = (unsigned char *)malloc(*len);
    CHECK_OK(dod_world_save_mem(w, bytes, *len));
    return bytes;
}

static void test_paths(void)
{
    dod_world *from = saved_world();
    size_t len;
    unsigned char *bytes = image_of(from, &len);
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (f)
        CHECK_OK(dod_world_save(from, f));
    const dod_world_load_desc desc = { FIELDS, 2, 0 };
    for (int stream = 0; stream < 2; ++stream)
        for (int used = 0; used < 2; ++used)
            for (int fields = 0; fields < 2; ++fields) {
                if (stream && !f)
                    continue;
                dod_world *to = make(NULL);
                CHECK(to->head.tag_hi != from->head.tag_hi);
                if (used)
                    CHECK_OK(dod_world_spawn_n(to, A_POS, 10, NULL));
                const dod_world_load_desc *d = fields ? &desc : NULL;
                if (stream) {
                    rewind(f);
                    CHECK_OK(dod_world_load_with(to, f, d));
                } else {
                    CHECK_OK(dod_world_load_mem_with(to, bytes, len, d));
                }
                /* equal up to the tag, but for the rewritten handles' tag bits */
                CHECK_EQ(dod_world_equal(from, to), !fields);
                check_links(from, to, fields);
                dod_world_destroy(to);
            }
    /* the plain calls are the calls with no desc; a zeroed desc is no desc */
    dod_world *to = make(NULL);
    const dod_world_load_desc zero = { NULL, 0, 0 };
    CHECK_OK(dod_world_load_mem_with(to, bytes, len, &zero));
    check_links(from, to, 0);
    CHECK_OK(dod_world_load_mem(to, bytes, len));
    check_links(from, to, 0);
    dod_world_destroy(to);
    if (f)
        fclose(f);
    free(bytes);
    dod_world_destroy(from);
}

/* A refused desc changes nothing and reads nothing. */
static void test_refused(void)
{
    dod_world *from = saved_world();
    size_t len;
    unsigned char *bytes = image_of(from, &len);
    dod_world *to = make(NULL);
    CHECK_OK(dod_world_spawn_n(to, A_UNITS, 5, NULL));
    uint64_t before = world_snap(to);
    const dod_world_handle_field past[1] = { { C_LINK, 9 } };     /* 9 + 8 > 16 */
    const dod_world_handle_field unknown[1] = { { N_COMPS, 0 } };
    const dod_world_load_desc flags = { FIELDS, 2, 1 }, none = { NULL, 1, 0 },
                              range = { past, 1, 0 }, comp = { unknown, 1, 0 };
    CHECK_STATUS(dod_world_load_mem_with(to, bytes, len, &flags), DOD_E_INVALID);
    CHECK_STATUS(dod_world_load_mem_with(to, bytes, len, &none), DOD_E_INVALID);
    CHECK_STATUS(dod_world_load_mem_with(to, bytes, len, &range), DOD_E_RANGE);
    CHECK_STATUS(dod_world_load_mem_with(to, bytes, len, &comp), DOD_E_RANGE);
    CHECK_STATUS(dod_world_load_mem_with(NULL, bytes, len, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_world_load_mem_with(to, NULL, len, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_world_load_with(NULL, stdin, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_world_load_with(to, NULL, NULL), DOD_E_INVALID);
    FILE *f = tmpfile();
    if (f) {
        CHECK_OK(dod_world_save(from, f));
        rewind(f);
        CHECK_STATUS(dod_world_load_with(to, f, &range), DOD_E_RANGE);
        CHECK_EQ(ftell(f), 0); /* refused before a byte was read */
        CHECK_STATUS(dod_world_load_with(to, f, &flags), DOD_E_INVALID);
        fclose(f);
    }
    /* a damaged image is refused as by dod_world_load_mem, handles untouched */
    bytes[len - 1] ^= 1;
    const dod_world_load_desc desc = { FIELDS, 2, 0 };
    CHECK_STATUS(dod_world_load_mem_with(to, bytes, len, &desc), DOD_E_CORRUPT);
    CHECK(world_snap(to) == before);
    dod_world_destroy(to);
    free(bytes);
    dod_world_destroy(from);
}

/* The failing allocator on every allocation of a load with handle fields, from memory and
 * from a stream, into a world that holds entities. */
typedef struct walk_ctx {
    const unsigned char *bytes;
    size_t len;
    FILE *f;
} walk_ctx;

static dod_world *walk_make(const dod_allocator *alloc, void *ctx)
{
    (void)ctx;
    dod_world *w = make(alloc);
    CHECK_OK(dod_world_spawn_n(w, A_POS, 10, NULL));
    return w;
}

static dod_status walk_load(dod_world *w, void *ctx)
{
    const walk_ctx *c = (const walk_ctx *)ctx;
    const dod_world_load_desc desc = { FIELDS, 2, 0 };
    if (!c->f)
        return dod_world_load_mem_with(w, c->bytes, c->len, &desc);
    rewind(c->f);
    return dod_world_load_with(w, c->f, &desc);
}

static void test_alloc_walk(void)
{
    dod_world *from = saved_world();
    walk_ctx c = { NULL, 0, NULL };
    unsigned char *bytes = image_of(from, &c.len);
    c.bytes = bytes;
    world_walk o = { walk_make, walk_load, &c };
    /* the entity index, the units' block list and blocks */
    long blocks = (long)from->arch[A_UNITS].n_blocks;
    CHECK_EQ(world_alloc_walk(&o), 1 + 1 + blocks);
    c.f = tmpfile();
    if (c.f) {
        CHECK_OK(dod_world_save(from, c.f));
        CHECK_EQ(world_alloc_walk(&o), 1 + 1 + 1 + blocks); /* and the staging buffer */
        fclose(c.f);
    }
    free(bytes);
    dod_world_destroy(from);
}

int main(void)
{
    test_paths();
    test_refused();
    test_alloc_walk();
    return check_summary("world_load_tag");
}
