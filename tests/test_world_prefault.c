/* DOD_WORLD_PREFAULT: create maps every page of the fixed blocks and of the entity index (on
 * Linux, checked with mincore over memory fresh from mmap, which no page of is mapped before
 * it is touched); a prefaulted world behaves exactly as another; an unknown flag is refused. */
#if defined(__linux__)
#  define _DEFAULT_SOURCE /* mincore, MAP_ANONYMOUS */
#  include <sys/mman.h>
#  include <unistd.h>
#endif
#include <dod/world.h>
#include <string.h>
#include "check.h"
#include "world_check.h"

enum { C_POS, C_VEL, N_COMPS };
static const dod_component_desc COMPS[N_COMPS] = { { "pos", 8, 4 }, { "vel", 8, 4 } };
static const uint32_t PV[] = { C_POS, C_VEL };
enum { ROWS = 100000 }; /* 2.4 MB of fixed block, 800 KB of entity index */
static const dod_archetype_desc ARCHS[2] = {
    { "fixed", PV, 2, ROWS, 0, 0, 0 },
    { "chunked", PV, 2, 0, 0, 0, 0 },
};

static dod_world *make(uint32_t flags, const dod_allocator *alloc)
{
    dod_world_desc d = world_desc_of(COMPS, N_COMPS, ARCHS, 2, alloc);
    d.flags = flags;
    dod_world *w = NULL;
    CHECK_OK(dod_world_create(&w, &d));
    return w;
}

/* The same calls give the same world, prefaulted or not. */
static void test_same_world(void)
{
    dod_world *plain = make(0, NULL), *pre = make(DOD_WORLD_PREFAULT, NULL);
    CHECK_EQ(dod_world_bytes(plain), dod_world_bytes(pre));
    dod_entity a[300], b[300];
    for (uint32_t i = 0; i < 300; ++i) {
        CHECK_OK(dod_world_spawn(plain, i % 2, &a[i]));
        CHECK_OK(dod_world_spawn(pre, i % 2, &b[i]));
        float *pa = (float *)dod_world_get(plain, a[i], C_POS);
        float *pb = (float *)dod_world_get(pre, b[i], C_POS);
        CHECK(pa && pb && pa[0] == 0.0f && pb[0] == 0.0f); /* a spawn still zeroes its row */
        if (pa && pb)
            pa[1] = pb[1] = (float)i;
        CHECK_EQ((uint32_t)a[i].bits, (uint32_t)b[i].bits); /* the same slots */
    }
    CHECK_OK(dod_world_spawn_n(plain, 0, 5000, NULL));
    CHECK_OK(dod_world_spawn_n(pre, 0, 5000, NULL));
    for (uint32_t k = 0; k < 2; ++k)
        CHECK_EQ(dod_world_count(plain, k), dod_world_count(pre, k));
    void *ca[3], *cb[3];
    uint32_t n = dod_world_block(plain, 0, 0, ca);
    CHECK(n == 5150 && dod_world_block(pre, 0, 0, cb) == n);
    CHECK(memcmp(ca[1], cb[1], n * 8) == 0 && memcmp(ca[2], cb[2], n * 8) == 0);
    dod_world_destroy(plain);
    dod_world_destroy(pre);
}

static void test_flags_refused(void)
{
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator a = test_alloc_get(&ta);
    dod_world_desc d = world_desc_of(COMPS, N_COMPS, ARCHS, 2, &a);
    dod_world *sentinel = (dod_world *)(void *)&ta, *w = sentinel;
    d.flags = 2;
    CHECK_STATUS(dod_world_create(&w, &d), DOD_E_INVALID);
    d.flags = DOD_WORLD_PREFAULT | 0x80000000u;
    CHECK_STATUS(dod_world_create(&w, &d), DOD_E_INVALID);
    CHECK(w == sentinel && ta.calls == 0);
    /* and a prefaulting create that fails half-way leaks nothing either */
    d.flags = DOD_WORLD_PREFAULT;
    for (long k = 0; k < 3; ++k) {
        test_alloc_fail_after(&ta, k);
        CHECK_STATUS(dod_world_create(&w, &d), DOD_E_NOMEM);
        CHECK(w == sentinel);
    }
    test_alloc_fail_after(&ta, -1);
    CHECK_OK(dod_world_create(&w, &d));
    dod_world_destroy(w);
    test_alloc_finish(&ta);
}

#if defined(__linux__)
/* An allocator handing out fresh anonymous mappings: none of their pages is mapped until
 * written. ctx counts the live mappings. */
static void *map_alloc(void *ctx, size_t size, size_t align)
{
    (void)align; /* a mapping is page-aligned */
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    ++*(long *)ctx;
    return p;
}

static void map_free(void *ctx, void *p, size_t size)
{
    munmap(p, size);
    --*(long *)ctx;
}

/* Pages of [p, p + bytes) the process has mapped; SIZE_MAX when mincore cannot say. */
static size_t resident_pages(const void *p, size_t bytes, size_t *total)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), n = (bytes + page - 1) / page, resident = 0;
    unsigned char vec[4096];
    *total = n;
    if (n > sizeof vec || mincore((void *)(uintptr_t)p, bytes, vec) != 0)
        return SIZE_MAX;
    for (size_t i = 0; i < n; ++i)
        resident += vec[i] & 1u;
    return resident;
}

static void test_pages_mapped(void)
{
    long live = 0;
    dod_allocator a = { map_alloc, map_free, &live };
    for (int pre = 0; pre < 2; ++pre) {
        dod_world *w = make(pre ? DOD_WORLD_PREFAULT : 0u, &a);
        const dod__world_arch *fixed = &w->arch[0];
        size_t total, block = resident_pages(fixed->place->blocks[0], dod__world_block_bytes(fixed, 0), &total);
        size_t slots_total, slots = resident_pages(w->head.slots, w->slot_cap * sizeof(uint64_t),
                                                   &slots_total);
        CHECK(total > 0 && slots_total > 0 && w->slot_cap == ROWS);
        if (block == SIZE_MAX || slots == SIZE_MAX) { /* an emulator without mincore */
            printf("test_world_prefault: mincore refused, the page check is skipped\n");
        } else if (pre) {
            CHECK_EQ(block, total);
            CHECK_EQ(slots, slots_total);
        } else { /* untouched: create writes nothing there */
            CHECK_EQ(block, 0);
            CHECK_EQ(slots, 0);
        }
        CHECK(w->arch[1].n_blocks == 0); /* a chunked archetype has no block to touch yet */
        dod_world_destroy(w);
    }
    CHECK_EQ(live, 0);
}
#endif

int main(void)
{
    test_same_world();
    test_flags_refused();
#if defined(__linux__)
    test_pages_mapped();
#else
    printf("test_world_prefault: no mincore here, the page check is skipped\n");
#endif
    return check_summary("world_prefault");
}
