/* Change versions and dod_world_copy_with: random histories (spawns, despawns, moves, writes
 * declared with dod_world_touch, schedule runs whose systems declare their writes, rounds with
 * no change at all) copied into frames of worlds in a random order, each copy taking only what
 * changed, on the calling thread and on pools: every copy the same as its source, and no copy
 * ever leaving out a column that changed (a debug build reports one through the error hook).
 * A write that is not declared is caught in a debug build and kept out in a release one. Every
 * refusal leaves the destination as it was. */
#include <dod/world.h>
#include "check.h"
#include "world_io_check.h"

static long reports; /* DOD_E_STATE reports of the error hook: a column copied late */

static void count_reports(void *ctx, dod_status status, const char *file, int line,
                          const char *what)
{
    (void)ctx, (void)file, (void)line, (void)what;
    reports += status == DOD_E_STATE;
}

/* A system that adds 1 to the first byte of every IO_HP it is given, declaring the write. */
static void bump_hp(const dod_system_task *t)
{
    unsigned char *hp = (unsigned char *)dod_world_field(&t->rows, IO_HP);
    for (uint32_t i = 0; i < t->rows.n; ++i)
        hp[i * 4] = (unsigned char)(hp[i * 4] + 1); /* hp is 4 bytes */
}

/* Random bytes into component c of e, declared. */
static void write_declared(dod_world *w, test_rng *rng, dod_entity e, uint32_t c)
{
    unsigned char *at = (unsigned char *)dod_world_get(w, e, c);
    if (!at)
        return;
    for (size_t i = 0; i < IO_COMPS[c].size; ++i)
        at[i] = (unsigned char)test_rng_next(rng);
    CHECK_OK(dod_world_touch(w, dod_world_archetype_of(w, e), c));
}

/* One random change to w (or none), declared; live holds the live handles. */
static void change(dod_world *w, dod_schedule *s, test_rng *rng, dod_entity *live, uint32_t *n)
{
    uint32_t op = test_rng_below(rng, 12), arch = test_rng_below(rng, IO_N_ARCHS);
    if (op < 3 || *n == 0) {
        dod_entity e;
        if (dod_world_spawn(w, arch, &e) == DOD_OK && *n < IO_MAX_LIVE) {
            live[(*n)++] = e;
            for (uint32_t k = 0; k < IO_ARCHS[arch].n_components; ++k)
                write_declared(w, rng, e, IO_ARCHS[arch].components[k]);
        }
    } else if (op < 5) {
        uint32_t i = test_rng_below(rng, *n);
        CHECK_OK(dod_world_despawn(w, live[i]));
        live[i] = live[--*n];
    } else if (op == 5) {
        dod_status st = dod_world_move(w, live[test_rng_below(rng, *n)], arch);
        CHECK(st == DOD_OK || st == DOD_E_FULL);
    } else if (op < 8) {
        dod_entity e = live[test_rng_below(rng, *n)];
        uint32_t a = dod_world_archetype_of(w, e);
        if (IO_ARCHS[a].n_components)
            write_declared(w, rng, e, IO_ARCHS[a].components[test_rng_below(
                                          rng, IO_ARCHS[a].n_components)]);
    } else if (op < 10) {
        CHECK_OK(dod_schedule_run(s, w, NULL, NULL));
    } /* else: nothing changes */
}

static void test_frames_of_changes(void)
{
    enum { FRAMES = 3 };
    dod_threadpool *pool = NULL;
    CHECK_OK(dod_threadpool_create(&pool, 3, NULL));
    dod_executor ex = dod_threadpool_executor(pool);
    const uint32_t rounds = 6 * test_scale();
    for (uint32_t round = 0; round < rounds; ++round) {
        test_rng rng = { 0xFEED + round };
        dod_world *src = io_world(NULL), *frame[FRAMES];
        for (int f = 0; f < FRAMES; ++f)
            frame[f] = io_world(NULL);
        static const uint32_t hp[] = { IO_HP };
        dod_system_desc d = { .name = "bump", .fn = bump_hp, .all = hp, .n_all = 1,
                              .writes = hp, .n_writes = 1 };
        dod_schedule_desc sd = { .systems = &d, .n_systems = 1, .task_rows = 16 };
        dod_schedule *s = NULL;
        CHECK_OK(dod_schedule_create(&s, src, &sd));
        static dod_entity live[IO_MAX_LIVE];
        uint32_t n = 0;
        for (uint32_t step = 0; step < 600; ++step) {
            uint32_t changes = test_rng_below(&rng, 4); /* 0: a copy of an unchanged world */
            for (uint32_t c = 0; c < changes; ++c)
                change(src, s, &rng, live, &n);
            dod_world *dst = frame[test_rng_below(&rng, FRAMES)];
            dod_world_copy_desc cd = { test_rng_below(&rng, 2) ? &ex : NULL,
                                       DOD_WORLD_COPY_CHANGED };
            CHECK_OK(dod_world_copy_with(dst, src, &cd));
            CHECK(io_same(src, dst, 1, 1));
            CHECK(io_handles_resolve(src, dst));
        }
        dod_schedule_destroy(s);
        for (int f = 0; f < FRAMES; ++f)
            dod_world_destroy(frame[f]);
        dod_world_destroy(src);
    }
    CHECK_EQ(reports, 0);
    dod_threadpool_destroy(pool);
}

/* A column written through a pointer and not declared: a debug build reports it and copies it;
 * a release build keeps it out (which is what shows that the copy left it out). Writing into
 * the destination, or copying from another source, makes the next copy a whole one. */
static void test_undeclared_write(void)
{
    dod_world *src = io_world(NULL), *dst = io_world(NULL), *other = io_world(NULL);
    dod_entity e[64];
    CHECK_OK(dod_world_spawn_n(src, 1, 64, e)); /* archetype 1: { pos } */
    dod_world_copy_desc cd = { NULL, DOD_WORLD_COPY_CHANGED };
    CHECK_OK(dod_world_copy_with(dst, src, &cd));
    float *pos = (float *)dod_world_get(src, e[5], IO_POS);
    pos[0] = 42.0f; /* not declared */
    long before = reports;
    CHECK_OK(dod_world_copy_with(dst, src, &cd));
    const float *copied = (const float *)dod_world_get(dst, io_in(dst, e[5]), IO_POS);
#if DOD_DEBUG
    CHECK_EQ(reports, before + 1);
    CHECK(copied[0] == 42.0f);
#else
    CHECK_EQ(reports, before);
    CHECK(copied[0] != 42.0f);
#endif
    CHECK_OK(dod_world_touch(src, 1, IO_POS));
    CHECK_OK(dod_world_copy_with(dst, src, &cd));
    CHECK(io_same(src, dst, 1, 1));
    /* dst changed since its copy: whole */
    float *mine = (float *)dod_world_get(dst, io_in(dst, e[7]), IO_POS);
    CHECK_OK(dod_world_spawn(dst, 2, NULL));
    mine = (float *)dod_world_get(dst, io_in(dst, e[7]), IO_POS);
    mine[1] = -1.0f;
    before = reports;
    CHECK_OK(dod_world_copy_with(dst, src, &cd));
    CHECK(io_same(src, dst, 1, 1));
    CHECK_EQ(reports, before);
    /* another source, then back: whole both times */
    CHECK_OK(dod_world_spawn_n(other, 3, 10, NULL));
    CHECK_OK(dod_world_copy_with(dst, other, &cd));
    CHECK(io_same(other, dst, 1, 1));
    CHECK_OK(dod_world_copy_with(dst, src, &cd));
    CHECK(io_same(src, dst, 1, 1));
    CHECK_EQ(reports, before);
    dod_world_destroy(other);
    dod_world_destroy(dst);
    dod_world_destroy(src);
}

static void test_refusals(void)
{
    dod_world *src = io_world(NULL), *dst = io_world(NULL);
    CHECK_OK(dod_world_spawn_n(src, 1, 100, NULL));
    CHECK_OK(dod_world_spawn_n(dst, 2, 7, NULL));
    dod_world_copy_desc bad_flags = { NULL, 4 }; /* no such flag */
    dod_executor no_run = { NULL, NULL, 2 }, no_threads = { NULL, NULL, 0 };
    dod_world_copy_desc bad_exec = { &no_run, 0 }, zero = { &no_threads, 0 };
    const dod_world_copy_desc *bad[3] = { &bad_flags, &bad_exec, &zero };
    for (int i = 0; i < 3; ++i) {
        dod_world *before = io_world(NULL);
        CHECK_OK(dod_world_copy(before, dst));
        CHECK_STATUS(dod_world_copy_with(dst, src, bad[i]), DOD_E_INVALID);
        CHECK(io_same(before, dst, 1, 1));
        dod_world_destroy(before);
    }
    CHECK_STATUS(dod_world_touch(src, IO_N_ARCHS, IO_POS), DOD_E_RANGE);
    CHECK_STATUS(dod_world_touch(src, 1, IO_N_COMPS), DOD_E_RANGE);
    CHECK_STATUS(dod_world_touch(src, 1, IO_VEL), DOD_E_NOT_FOUND); /* { pos } */
    CHECK_OK(dod_world_touch(src, 1, IO_POS));
    dod_world_destroy(src);
    dod_world_destroy(dst);
}

int main(void)
{
    dod_set_error_hook(count_reports, NULL);
    test_frames_of_changes();
    test_undeclared_write();
    test_refusals();
    dod_set_error_hook(NULL, NULL);
    return check_summary("world_versions");
}
