/* dod_world_copy: a copy against its source (contents, handles, iteration, blocks), then the
 * same random calls on both giving the same handles and contents; copies into worlds that
 * hold more, less or the same; no allocation once the copy holds enough; queries and command
 * buffers shared through the tag; every refusal and every allocation failure.
 * DOD_TEST_SCALE (default 1) multiplies the random histories. */
#include <dod/world.h>
#include "check.h"
#include "world_io_check.h"

/* A query made for src visits dst's blocks in the same order with the same entities. */
static int same_iteration(const dod_world *src, const dod_world *dst)
{
    const uint32_t all[1] = { IO_POS };
    dod_query q;
    CHECK_OK(dod_query_init(&q, src, all, 1, NULL, 0));
    dod_world_iter x, y;
    dod_world_iter_init(&x, src, &q);
    dod_world_iter_init(&y, dst, &q);
    int ok = 1, nx, ny;
    do {
        nx = dod_world_next(&x);
        ny = dod_world_next(&y);
        ok &= nx == ny;
        if (nx && ny)
            ok &= x.n == y.n && x.archetype == y.archetype &&
                  memcmp(x.entities, y.entities, x.n * sizeof(dod_entity)) == 0 &&
                  memcmp(dod_world_field(&x, IO_POS), dod_world_field(&y, IO_POS),
                         x.n * IO_COMPS[IO_POS].size) == 0;
    } while (ok && nx && ny);
    return ok;
}

static void check_copy(const dod_world *src, const dod_world *dst)
{
    CHECK(io_same(src, dst, 1, 1));
    CHECK(io_handles_resolve(src, dst));
    CHECK(io_same_blocks(src, dst));
    CHECK(same_iteration(src, dst));
}

/* Random histories: copy into a new world, compare, play the same calls on both. Then copy
 * the source again into the played copy (now larger or smaller) and compare again. */
static void test_copy_then_play(void)
{
    const uint32_t rounds = 12 * test_scale();
    for (uint32_t round = 0; round < rounds; ++round) {
        dod_world *src = io_world(NULL), *dst = io_world(NULL);
        dod_world *both[2] = { src, NULL };
        io_play p;
        memset(&p, 0, sizeof p);
        p.w = both;
        p.n_worlds = 1;
        p.rng.s = 0xC0FFEE + round;
        io_play_steps(&p, 50 + 150 * round);
        if (round == 3)
            io_retire_a_slot(src); /* a retired slot (0) in the index */
        CHECK_OK(dod_world_copy(dst, src));
        check_copy(src, dst);
        both[1] = dst;
        p.n_worlds = 2;
        io_play_steps(&p, 400);
        CHECK(io_same(src, dst, 1, 1));
        CHECK(io_handles_resolve(src, dst));
        /* the source moved on alone; a copy again catches the copy up, whatever it held */
        p.n_worlds = 1;
        io_play_steps(&p, 100 + 20 * round);
        CHECK_OK(dod_world_copy(dst, src));
        check_copy(src, dst);
        /* and back: the copy's history into the source */
        p.w = &both[1];
        io_play_steps(&p, 50);
        CHECK_OK(dod_world_copy(src, dst));
        check_copy(dst, src);
        dod_world_destroy(src);
        dod_world_destroy(dst);
    }
}

/* Empty worlds, a world emptied by despawns (block 0 kept open), a copy of itself. */
static void test_edges(void)
{
    dod_world *src = io_world(NULL), *dst = io_world(NULL);
    CHECK_OK(dod_world_copy(dst, src));
    check_copy(src, dst);
    dod_entity e[100];
    CHECK_OK(dod_world_spawn_n(src, 0, 100, e));
    for (int i = 0; i < 100; ++i)
        CHECK_OK(dod_world_despawn(src, e[i]));
    CHECK_EQ(src->arch[0].n_open, 1); /* block 0 stays open, empty */
    CHECK_OK(dod_world_copy(dst, src));
    check_copy(src, dst);
    CHECK_EQ(dst->arch[0].n_open, 1);
    uint64_t before = world_snap(dst);
    CHECK_OK(dod_world_copy(dst, dst));
    CHECK(world_snap(dst) == before);
    /* later spawns: the same handles (the free list came along) */
    dod_entity a, b;
    CHECK_OK(dod_world_spawn(src, 5, &a));
    CHECK_OK(dod_world_spawn(dst, 5, &b));
    CHECK_EQ(a.bits, b.bits);
    CHECK_EQ((uint32_t)a.bits, (uint32_t)e[99].bits); /* the most recently freed slot */
    dod_world_destroy(src);
    dod_world_destroy(dst);
}

/* A copy into a world that holds enough allocates nothing; one that held more keeps its spare
 * blocks, and gives them back as a despawn empties a block. */
static void test_no_allocation_when_held(void)
{
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator al = test_alloc_get(&ta);
    dod_world *src = io_world(NULL), *dst = io_world(&al);
    dod_world *one[1] = { src };
    io_play p;
    memset(&p, 0, sizeof p);
    p.w = one;
    p.n_worlds = 1;
    p.rng.s = 99;
    io_play_steps(&p, 2000);
    CHECK_OK(dod_world_copy(dst, src));
    long calls = ta.calls;
    for (int i = 0; i < 5; ++i) { /* a frame's world, copied into every frame */
        io_play_steps(&p, 10);
        /* the source may have grown past what dst holds: copy until it holds enough */
        CHECK_OK(dod_world_copy(dst, src));
    }
    calls = ta.calls;
    CHECK_OK(dod_world_copy(dst, src));
    CHECK_EQ(ta.calls, calls);
    check_copy(src, dst);
    /* shrink the source: dst keeps its blocks (more bytes than src), still no allocation */
    while (p.n_live > 10) {
        CHECK_OK(dod_world_despawn(src, p.live[p.n_live - 1]));
        p.n_live--;
    }
    CHECK_OK(dod_world_copy(dst, src));
    CHECK_EQ(ta.calls, calls);
    check_copy(src, dst);
    CHECK(dod_world_bytes(dst) > dod_world_bytes(src));
    /* dst's spares go as its own despawns empty blocks */
    for (uint32_t i = 0; i < p.n_live; ++i)
        CHECK_OK(dod_world_despawn(dst, p.live[i]));
    for (uint32_t i = 0; i < IO_N_ARCHS; ++i)
        CHECK(dst->arch[i].n_blocks <= dod__world_used_blocks(&dst->arch[i]) + 1 ||
              dst->arch[i].n_rows == 0);
    dod_world_destroy(src);
    dod_world_destroy(dst);
    test_alloc_finish(&ta);
}

/* A snapshot is the same world: a query made for the source iterates the copy; commands
 * recorded against the copy apply to the source; an index of the copy names the source's
 * slots. Queries made for the copy before it took the source's tag iterate nothing. */
static void test_shared_handles(void)
{
    dod_world *live = io_world(NULL), *snap = io_world(NULL);
    dod_entity e[10];
    CHECK_OK(dod_world_spawn_n(live, 0, 10, e));
    const uint32_t pos[1] = { IO_POS };
    dod_query before;
    CHECK_OK(dod_query_init(&before, snap, pos, 1, NULL, 0));
    CHECK_OK(dod_world_copy(snap, live));
    dod_world_iter it;
    dod_world_iter_init(&it, snap, &before);
    CHECK(!dod_world_next(&it)); /* made for snap's former tag */
    dod_cmds cb;
    CHECK_OK(dod_cmds_init(&cb, snap, NULL));
    CHECK_OK(dod_cmds_despawn(&cb, e[3])); /* a handle read from the snapshot */
    float v[2] = { 7, 7 };
    CHECK_OK(dod_cmds_set(&cb, e[4], IO_VEL, v, sizeof v));
    dod_apply_result r;
    CHECK_OK(dod_world_apply(live, &cb, 1, &r));
    CHECK_EQ(r.applied, 2);
    CHECK(!dod_world_alive(live, e[3]) && dod_world_alive(snap, e[3]));
    CHECK(memcmp(dod_world_get(live, e[4], IO_VEL), v, sizeof v) == 0);
    dod_cmds_free(&cb);
    dod_world_destroy(live);
    dod_world_destroy(snap);
}

/* Refusals leave dst as it was: NULLs, worlds of other declarations (other counts, another
 * capacity, a renamed component). */
static void test_refusals(void)
{
    dod_world *src = io_world(NULL), *dst = io_world(NULL);
    CHECK_OK(dod_world_spawn(src, 0, NULL));
    CHECK_OK(dod_world_spawn(dst, 1, NULL));
    uint64_t before = world_snap(dst);
    CHECK_STATUS(dod_world_copy(NULL, src), DOD_E_INVALID);
    CHECK_STATUS(dod_world_copy(dst, NULL), DOD_E_INVALID);
    dod_component_desc comps[IO_N_COMPS];
    dod_archetype_desc archs[IO_N_ARCHS];
    for (int change = 0; change < 4; ++change) {
        memcpy(comps, IO_COMPS, sizeof comps);
        memcpy(archs, IO_ARCHS, sizeof archs);
        dod_world_desc d = world_desc_of(comps, IO_N_COMPS, archs, IO_N_ARCHS, NULL);
        switch (change) {
        case 0: d.n_archetypes--; break;
        case 1: archs[1].capacity++; break;
        case 2: comps[IO_HP].name = "health"; break;
        default: comps[IO_HALF].align = 1; break;
        }
        dod_world *other = NULL;
        CHECK_OK(dod_world_create(&other, &d));
        CHECK_STATUS(dod_world_copy(dst, other), DOD_E_INVALID);
        CHECK_STATUS(dod_world_copy(other, dst), DOD_E_INVALID);
        dod_world_destroy(other);
    }
    CHECK(world_snap(dst) == before);
    dod_world_destroy(src);
    dod_world_destroy(dst);
}

/* Every allocation of a copy fails in turn: DOD_E_NOMEM, dst as it was, nothing leaked. Into
 * a new world, and into one holding a little (its entity index and some blocks held). */
static dod_world *walk_src;

static dod_world *make_empty(const dod_allocator *alloc, void *ctx)
{
    (void)ctx;
    return io_world(alloc);
}

static dod_world *make_small(const dod_allocator *alloc, void *ctx)
{
    (void)ctx;
    dod_world *w = io_world(alloc);
    dod_entity e;
    for (uint32_t a = 0; a < IO_N_ARCHS; a += 2)
        CHECK_OK(dod_world_spawn(w, a, &e));
    return w;
}

static dod_status copy_op(dod_world *w, void *ctx)
{
    (void)ctx;
    return dod_world_copy(w, walk_src);
}

static void test_allocation_failures(void)
{
    walk_src = io_world(NULL);
    dod_world *one[1] = { walk_src };
    io_play p;
    memset(&p, 0, sizeof p);
    p.w = one;
    p.n_worlds = 1;
    p.rng.s = 7;
    io_play_steps(&p, 120); /* blocks in every archetype, within the walk's 64 allocations */
    world_walk empty = { make_empty, copy_op, NULL }, small = { make_small, copy_op, NULL };
    long made = world_alloc_walk(&empty);
    CHECK(made > 2); /* the entity index, blocks, block lists */
    CHECK(world_alloc_walk(&small) > 0);
    dod_world_destroy(walk_src);
}

int main(void)
{
    test_copy_then_play();
    test_edges();
    test_no_allocation_when_held();
    test_shared_handles();
    test_refusals();
    test_allocation_failures();
    return check_summary("test_world_copy");
}
