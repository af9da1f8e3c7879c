#include <dod/arena.h>
#include <dod/csr.h>
#include <string.h>
#include "check.h"

static void test_alignment_and_growth(void)
{
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator a = test_alloc_get(&ta);
    dod_arena arena;
    dod_arena_init(&arena, 256, &a);
    CHECK_EQ(ta.calls, 0); /* init allocates nothing */
    CHECK_EQ(dod_arena_used(&arena), 0);

    void *first = NULL;
    CHECK_OK(dod_arena_push(&arena, 10, 1, &first));
    memset(first, 7, 10);
    size_t aligns[] = { 0, 1, 2, 8, 16, 64, 128, 4096 };
    for (int round = 0; round < 20; ++round) {
        for (size_t i = 0; i < sizeof aligns / sizeof aligns[0]; ++i) {
            void *p = NULL;
            size_t al = aligns[i] ? aligns[i] : DOD_ALIGN;
            CHECK_OK(dod_arena_push(&arena, 3 + (size_t)round * 7, aligns[i], &p));
            CHECK(((uintptr_t)p & (al - 1)) == 0);
            memset(p, 0xCC, 3 + (size_t)round * 7);
        }
    }
    /* Earlier allocations never move or get overwritten while blocks are chained. */
    for (int i = 0; i < 10; ++i)
        CHECK_EQ(((unsigned char *)first)[i], 7);
    CHECK(ta.calls > 1);

    /* A push larger than a block gets a block of its own. */
    void *big = NULL;
    CHECK_OK(dod_arena_push(&arena, 10000, 64, &big));
    memset(big, 1, 10000);
    CHECK(dod_arena_capacity(&arena) >= 10000);
    dod_arena_free(&arena);
    CHECK_EQ(dod_arena_capacity(&arena), 0);
    test_alloc_finish(&ta);
}

static void test_mark_rewind_reset(void)
{
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator a = test_alloc_get(&ta);
    dod_arena arena;
    dod_arena_init(&arena, 128, &a);

    void *p = NULL, *q = NULL, *r = NULL;
    CHECK_OK(dod_arena_push(&arena, 16, 16, &p));
    dod_arena_mark m = dod_arena_get_mark(&arena);
    size_t used_at_mark = dod_arena_used(&arena);
    CHECK_OK(dod_arena_push(&arena, 16, 16, &q));
    for (int i = 0; i < 10; ++i) /* spill into further blocks */
        CHECK_OK(dod_arena_push(&arena, 100, 8, &r));
    dod_arena_rewind(&arena, m);
    CHECK_EQ(dod_arena_used(&arena), used_at_mark);
    void *q2 = NULL;
    CHECK_OK(dod_arena_push(&arena, 16, 16, &q2));
    CHECK(q2 == q); /* rewinding hands the same bytes out again */

    /* After a reset the next frame reuses the chained blocks: no new parent allocation. */
    long calls = ta.calls;
    size_t cap = dod_arena_capacity(&arena);
    dod_arena_reset(&arena);
    CHECK_EQ(dod_arena_used(&arena), 0);
    for (int frame = 0; frame < 5; ++frame) {
        void *s = NULL;
        CHECK_OK(dod_arena_push(&arena, 16, 16, &s));
        for (int i = 0; i < 10; ++i)
            CHECK_OK(dod_arena_push(&arena, 100, 8, &s));
        dod_arena_reset(&arena);
    }
    CHECK_EQ(ta.calls, calls);
    CHECK_EQ(dod_arena_capacity(&arena), cap);

    /* Rewinding to a mark taken on an empty arena is a reset. */
    dod_arena fresh;
    dod_arena_init(&fresh, 0, &a);
    dod_arena_mark empty = dod_arena_get_mark(&fresh);
    CHECK_OK(dod_arena_push(&fresh, 8, 8, &p));
    dod_arena_rewind(&fresh, empty);
    CHECK_EQ(dod_arena_used(&fresh), 0);
    dod_arena_free(&fresh);
    dod_arena_free(&arena);
    test_alloc_finish(&ta);
}

static void test_errors(void)
{
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator a = test_alloc_get(&ta);
    dod_arena arena;
    dod_arena_init(&arena, 64, &a);
    void *p = (void *)&arena;

    CHECK_STATUS(dod_arena_push(NULL, 8, 8, &p), DOD_E_INVALID);
    CHECK_STATUS(dod_arena_push(&arena, 8, 8, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_arena_push(&arena, 8, 3, &p), DOD_E_INVALID);
    CHECK_STATUS(dod_arena_push(&arena, 8, 8192, &p), DOD_E_INVALID);
    CHECK_STATUS(dod_arena_push(&arena, SIZE_MAX - 10, 64, &p), DOD_E_OVERFLOW);
    CHECK(p == (void *)&arena);

    /* The parent fails: the arena is unchanged and still works afterwards. */
    CHECK_OK(dod_arena_push(&arena, 8, 8, &p));
    dod_arena_mark before = dod_arena_get_mark(&arena);
    size_t used = dod_arena_used(&arena), cap = dod_arena_capacity(&arena);
    test_alloc_fail_after(&ta, 0);
    void *untouched = (void *)&ta;
    CHECK_STATUS(dod_arena_push(&arena, 1000, 8, &untouched), DOD_E_NOMEM);
    CHECK(untouched == (void *)&ta);
    CHECK_EQ(dod_arena_used(&arena), used);
    CHECK_EQ(dod_arena_capacity(&arena), cap);
    dod_arena_mark after = dod_arena_get_mark(&arena);
    CHECK(before.block == after.block && before.used == after.used);
    test_alloc_fail_after(&ta, -1);
    CHECK_OK(dod_arena_push(&arena, 1000, 8, &p));
    dod_arena_free(&arena);
    test_alloc_finish(&ta);
}

/* A whole index lives in the arena; a frame reset releases it with no free calls. */
static void test_index_in_arena(void)
{
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator parent = test_alloc_get(&ta);
    dod_arena arena;
    dod_arena_init(&arena, 1 << 16, &parent);
    dod_allocator in_arena = dod_arena_allocator(&arena);

    uint32_t keys[1000];
    for (uint32_t i = 0; i < 1000; ++i)
        keys[i] = (i * 7919u) % 100u;
    long parent_calls = 0;
    for (int frame = 0; frame < 4; ++frame) {
        dod_csr idx;
        dod_csr_init(&idx, &in_arena);
        CHECK_OK(dod_csr_build(&idx, 100, keys, sizeof keys[0], 1000));
        CHECK_OK(dod_csr_check(&idx, 1000));
        CHECK(((uintptr_t)idx.offsets & (DOD_ALIGN - 1)) == 0);
        CHECK(((uintptr_t)idx.items & (DOD_ALIGN - 1)) == 0);
        CHECK_EQ(dod_csr_row_len(&idx, 3), 10);
        dod_csr_free(&idx); /* a no-op on the arena's side */
        dod_arena_reset(&arena);
        if (frame == 0)
            parent_calls = ta.calls;
        CHECK_EQ(ta.calls, parent_calls); /* later frames reuse the arena's blocks */
    }
    dod_arena_free(&arena);
    test_alloc_finish(&ta);
}

int main(void)
{
    test_alignment_and_growth();
    test_mark_rewind_reset();
    test_errors();
    test_index_in_arena();
    return check_summary("test_arena");
}
