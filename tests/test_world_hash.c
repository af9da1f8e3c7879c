/* dod_world_equal and dod_world_hash: two worlds that saw the same calls (of different tags) are
 * equal and hash alike, as are a world, its copies (into worlds holding more blocks) and the
 * world loaded from its file; a changed byte, handle, free list or row order is seen; and a
 * fixed world's hash is the same number on every platform (the value below, checked on x86-64,
 * ARM64, i686, big-endian s390x and Windows in CI). */
#include <dod/world.h>
#include <stdio.h>
#include "check.h"
#include "world_io_check.h"

/* The same random history played on both worlds. */
static void play_both(dod_world *a, dod_world *b, uint64_t seed, uint32_t steps)
{
    dod_world *both[2] = { a, b };
    static io_play p;
    memset(&p, 0, sizeof p);
    p.w = both;
    p.n_worlds = 2;
    p.rng.s = seed;
    io_play_steps(&p, steps);
}

static void test_same_history(void)
{
    for (uint64_t seed = 1; seed <= 6; ++seed) {
        dod_world *a = io_world(NULL), *spacer = io_world(NULL), *b = io_world(NULL);
        CHECK(a->head.tag_hi != b->head.tag_hi); /* two tags: the ids differ in their bits */
        play_both(a, b, seed, 300 + 200 * (uint32_t)seed);
        CHECK(dod_world_equal(a, b));
        CHECK_EQ(dod_world_hash(a), dod_world_hash(b));
        /* a copy into a world that holds more blocks than it needs */
        CHECK_OK(dod_world_spawn_n(spacer, 0, 500, NULL));
        CHECK_OK(dod_world_spawn_n(spacer, 6, 5, NULL));
        CHECK_OK(dod_world_copy(spacer, a));
        CHECK(dod_world_equal(a, spacer));
        CHECK_EQ(dod_world_hash(a), dod_world_hash(spacer));
        /* a load of its file */
        size_t n = dod_world_saved_size(a);
        unsigned char *file = (unsigned char *)malloc(n);
        CHECK_OK(dod_world_save_mem(a, file, n));
        dod_world *loaded = io_world(NULL);
        CHECK_OK(dod_world_load_mem(loaded, file, n));
        CHECK(dod_world_equal(a, loaded));
        CHECK_EQ(dod_world_hash(a), dod_world_hash(loaded));
        free(file);
        dod_world_destroy(loaded);
        dod_world_destroy(spacer);
        dod_world_destroy(b);
        dod_world_destroy(a);
    }
}

/* One difference at a time: a byte of a component, a despawn (the free list and rows), the
 * order of two rows with the same contents. */
static void test_differences(void)
{
    dod_world *a = io_world(NULL), *b = io_world(NULL);
    dod_entity ea[3], eb[3];
    CHECK_OK(dod_world_spawn_n(a, 1, 3, ea));
    CHECK_OK(dod_world_spawn_n(b, 1, 3, eb));
    CHECK(dod_world_equal(a, b));
    uint64_t same = dod_world_hash(a);
    CHECK_EQ(dod_world_hash(b), same);
    float *pos = (float *)dod_world_get(b, eb[1], IO_POS);
    pos[1] = 0.5f;
    CHECK(!dod_world_equal(a, b));
    CHECK(dod_world_hash(b) != same);
    pos[1] = 0.0f;
    CHECK(dod_world_equal(a, b));
    /* despawn 0 then 2 in one, 2 then 0 in the other: the same live rows? No: the rows' order
     * and the free list differ. */
    CHECK_OK(dod_world_despawn(a, ea[0]));
    CHECK_OK(dod_world_despawn(a, ea[2]));
    CHECK_OK(dod_world_despawn(b, eb[2]));
    CHECK_OK(dod_world_despawn(b, eb[0]));
    CHECK(!dod_world_equal(a, b)); /* the free lists run 2, 0 and 0, 2 */
    CHECK(dod_world_hash(a) != dod_world_hash(b));
    /* spawning again takes the slots back in each one's order: then a and b agree again */
    dod_entity x, y;
    CHECK_OK(dod_world_spawn(a, 1, &x));
    CHECK_OK(dod_world_spawn(b, 1, &y));
    CHECK((uint32_t)x.bits != (uint32_t)y.bits); /* not the same slot */
    CHECK(!dod_world_equal(a, b));
    CHECK(dod_world_equal(a, a));
    CHECK(!dod_world_equal(NULL, a) && !dod_world_equal(a, NULL));
    CHECK_EQ(dod_world_hash(NULL), 0);
    /* another declaration is never equal */
    dod_world_desc d = io_desc(NULL);
    d.n_archetypes = 3;
    dod_world *other = NULL;
    CHECK_OK(dod_world_create(&other, &d));
    dod_world *empty = io_world(NULL);
    CHECK(!dod_world_equal(other, empty));
    CHECK(dod_world_hash(other) != dod_world_hash(empty));
    dod_world_destroy(empty);
    dod_world_destroy(other);
    dod_world_destroy(b);
    dod_world_destroy(a);
}

/* The same number on every platform: a fixed world of every archetype, component bytes that
 * depend on their position, a despawn so the free list is not empty. */
static void test_the_same_everywhere(void)
{
    dod_world *w = io_world(NULL);
    for (uint32_t arch = 0; arch < IO_N_ARCHS; ++arch) {
        dod_entity e[20];
        CHECK_OK(dod_world_spawn_n(w, arch, 20, e));
        for (uint32_t i = 0; i < 20; ++i)
            for (uint32_t k = 0; k < IO_ARCHS[arch].n_components; ++k) {
                uint32_t c = IO_ARCHS[arch].components[k];
                unsigned char *at = (unsigned char *)dod_world_get(w, e[i], c);
                /* scalars of the component's alignment, so every host reads the same values */
                size_t word = IO_COMPS[c].align < 8 ? IO_COMPS[c].align : 8;
                for (size_t off = 0; off < IO_COMPS[c].size; off += word) {
                    uint64_t v = (uint64_t)(arch * 1000 + i * 10 + k) * 0x0101010101ull + off;
                    if (word == 1) { unsigned char b = (unsigned char)v; memcpy(at + off, &b, 1); }
                    else if (word == 2) { uint16_t h = (uint16_t)v; memcpy(at + off, &h, 2); }
                    else if (word == 4) { uint32_t u = (uint32_t)v; memcpy(at + off, &u, 4); }
                    else memcpy(at + off, &v, 8);
                }
            }
        CHECK_OK(dod_world_despawn(w, e[arch % 20]));
    }
    uint64_t h = dod_world_hash(w);
    printf("test_world_hash: the fixed world hashes to 0x%016llx\n", (unsigned long long)h);
    CHECK_EQ(h, 0xddc4b5fcb1c6ee86ull); /* the value on x86-64, 2026-12-05 */
    dod_world_destroy(w);
}

int main(void)
{
    test_same_history();
    test_differences();
    test_the_same_everywhere();
    return check_summary("world_hash");
}
