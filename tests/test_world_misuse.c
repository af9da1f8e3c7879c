/* Misuse reported (a debug build of the library): every structural call on a world that an
 * iterator is walking, or that a schedule is running systems over, is refused with DOD_E_BUSY,
 * the world unchanged, the error hook naming the call and the remedy; an iterator that ran to
 * its end or was ended is no longer live; a release build refuses nothing (and counts nothing). */
#include <dod/world.h>
#include <string.h>
#include "check.h"
#include "world_check.h"
#include "world_io_check.h"

static long busy_reports;
static char last_report[256];

static void hook(void *ctx, dod_status status, const char *file, int line, const char *what)
{
    (void)ctx, (void)file, (void)line;
    if (status == DOD_E_BUSY) {
        busy_reports++;
        strncpy(last_report, what, sizeof last_report - 1);
    }
}

#if DOD_DEBUG
#    define WANT_BUSY DOD_E_BUSY
#else
#    define WANT_BUSY DOD_OK /* a release build checks nothing */
#endif

enum { N_CALLS = 9 };

/* Structural call k on w (e a live entity of archetype 1, { pos }), into a world of the same
 * declaration (other), from a buffer holding a despawn of e and a file of w. */
static dod_status structural(int k, dod_world *w, dod_entity e, dod_world *other, dod_cmds *cb,
                             const unsigned char *file, size_t file_size)
{
    switch (k) {
    case 0: return dod_world_spawn(w, 1, NULL);
    case 1: return dod_world_spawn_n(w, 1, 3, NULL);
    case 2: return dod_world_despawn(w, e);
    case 3: return dod_world_move(w, e, 5);
    case 4: return dod_world_add(w, e, IO_POS); /* e has it: a no-op, still a structural call */
    case 5: return dod_world_remove(w, e, IO_POS);
    case 6: return dod_world_apply(w, cb, 1, NULL);
    case 7: return dod_world_copy(w, other);
    default: return dod_world_load_mem(w, file, file_size);
    }
}

static void test_live_iterator(void)
{
    for (int k = 0; k < N_CALLS; ++k) {
        dod_world *w = io_world(NULL), *other = io_world(NULL);
        dod_entity e[8];
        CHECK_OK(dod_world_spawn_n(w, 1, 8, e));
        CHECK_OK(dod_world_spawn_n(other, 0, 3, NULL));
        dod_cmds cb;
        CHECK_OK(dod_cmds_init(&cb, w, NULL));
        CHECK_OK(dod_cmds_despawn(&cb, e[2]));
        size_t n = dod_world_saved_size(w);
        unsigned char *file = (unsigned char *)malloc(n);
        CHECK_OK(dod_world_save_mem(w, file, n));

        const uint32_t pos = IO_POS;
        dod_query q;
        CHECK_OK(dod_query_init(&q, w, &pos, 1, NULL, 0));
        dod_world_iter it;
        dod_world_iter_init(&it, w, &q);
        CHECK(dod_world_next(&it)); /* live from here */
        uint64_t before = world_snap(w);
        long reports = busy_reports;
        CHECK_STATUS(structural(k, w, e[1], other, &cb, file, n), WANT_BUSY);
#if DOD_DEBUG
        CHECK_EQ(world_snap(w), before);
        CHECK_EQ(busy_reports, reports + 1);
        CHECK(strstr(last_report, "command buffer") != NULL);
#else
        (void)before, (void)reports;
#endif
        /* ended early: the change goes through */
        dod_world_iter_end(&it);
        CHECK(!dod_world_next(&it));
        dod_world_iter_end(&it); /* twice: nothing */
        if (k != 2 && k != 3 && k != 5 && k != 6)
            CHECK_OK(structural(k, w, e[3], other, &cb, file, n));
        else
            CHECK_OK(structural(k, w, e[4 + (k % 4)], other, &cb, file, n));
        /* a loop that runs to its end leaves nothing live */
        dod_world_iter_init(&it, w, &q);
        while (dod_world_next(&it))
            ;
        CHECK_OK(dod_world_spawn(w, 1, NULL));
        free(file);
        dod_cmds_free(&cb);
        dod_world_destroy(other);
        dod_world_destroy(w);
    }
}

/* Two iterators at once, one of them on another thread's worth of reading: the world stays busy
 * until both are done. */
static void test_two_iterators(void)
{
    dod_world *w = io_world(NULL);
    CHECK_OK(dod_world_spawn_n(w, 1, 100, NULL));
    dod_query q;
    const uint32_t pos = IO_POS;
    CHECK_OK(dod_query_init(&q, w, &pos, 1, NULL, 0));
    dod_world_iter a, b;
    dod_world_iter_init(&a, w, &q);
    dod_world_iter_init(&b, w, &q);
    CHECK(dod_world_next(&a) && dod_world_next(&b));
    while (dod_world_next(&a))
        ;
    CHECK_STATUS(dod_world_spawn(w, 1, NULL), WANT_BUSY);
    while (dod_world_next(&b))
        ;
    CHECK_OK(dod_world_spawn(w, 1, NULL));
    /* the typed loop ends its iterator when it runs out */
    dod_world_destroy(w);
}

/* A system that despawns through a pointer to the world it was given as const (what the
 * schedule's docs forbid): refused in a debug build, reported through t->status. */
static dod_world *sneaky_world;

static void sneaky(const dod_system_task *t)
{
    dod_status st = dod_world_despawn(sneaky_world, t->rows.entities[0]);
    if (st != DOD_OK)
        *t->status = st;
}

static void test_inside_a_schedule(void)
{
    dod_world *w = io_world(NULL);
    CHECK_OK(dod_world_spawn_n(w, 1, 10, NULL));
    sneaky_world = w;
    const uint32_t pos = IO_POS;
    dod_system_desc d = { .name = "sneaky", .fn = sneaky, .all = &pos, .n_all = 1,
                          .flags = DOD_SYSTEM_SEQUENTIAL };
    dod_schedule_desc sd = { .systems = &d, .n_systems = 1 };
    dod_schedule *s = NULL;
    CHECK_OK(dod_schedule_create(&s, w, &sd));
    uint64_t before = world_snap(w);
    long reports = busy_reports;
    CHECK_STATUS(dod_schedule_run(s, w, NULL, NULL), WANT_BUSY);
#if DOD_DEBUG
    CHECK_EQ(world_snap(w), before);
    CHECK_EQ(busy_reports, reports + 1);
    CHECK(strstr(last_report, "t->cmds") != NULL);
#else
    (void)before, (void)reports;
#endif
    CHECK_OK(dod_world_spawn(w, 1, NULL)); /* the run is over: not busy */
    dod_schedule_destroy(s);
    dod_world_destroy(w);
}

int main(void)
{
    dod_set_error_hook(hook, NULL);
    test_live_iterator();
    test_two_iterators();
    test_inside_a_schedule();
    dod_set_error_hook(NULL, NULL);
    return check_summary("world_misuse");
}
