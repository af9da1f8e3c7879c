/* Command buffers recorded on several threads at once, each thread also reading the world
 * while it records (a query's iteration, gets), then applied in a fixed order (by pointer,
 * dod_world_apply_ptrs): the world afterwards is the one the same buffers give when recorded
 * one after another on one thread, in any order, whatever the threads' start order and timing;
 * float accumulates into one field from every thread included, byte for byte. (Run under the thread sanitizer
 * in CI.) */
#include <dod/world.h>
#include <string.h>
#include "check.h"
#include "thread.h"
#include "thread_yield.h"
#include "world_check.h"

enum { C_POS, C_VEL, C_HP, N_COMPS };
static const dod_component_desc COMPS[N_COMPS] = { { "pos", 8, 4 }, { "vel", 8, 4 },
                                                   { "hp", 4, 4 } };
static const uint32_t PV[] = { C_POS, C_VEL };
static const uint32_t PH[] = { C_POS, C_HP };
enum { N_ARCHS = 3 };
static const dod_archetype_desc ARCHS[N_ARCHS] = {
    { "pv", PV, 2, 0, 1024, 0, 0 },
    { "ph", PH, 2, 3000, 0, 0, 0 },
    { "p", PV, 1, 0, 512, 0, 0 },
};
enum { THREADS = 4, START = 600, COMMANDS = 3000 };

typedef struct worker {
    const dod_world *w;
    const dod_entity *start; /* the entities the world started with */
    dod_cmds cb;
    uint64_t seed;
    uint32_t delay;          /* yields before recording, to shuffle the threads' order */
    float seen;              /* what the reads summed, so they are not optimised away */
    uint32_t refused;        /* calls that failed (checked by the main thread: the check
                                counters are not atomic) */
    dod_entity mine[COMMANDS]; /* its provisional handles */
    uint32_t n_mine;
} worker;

/* The thread's commands: spawns with values, sets, accumulates, removes, moves and despawns
 * of the starting entities and of its own provisional handles. Depends on the seed alone. */
static void record_script(worker *k)
{
    test_rng rng = { k->seed };
    dod_entity *mine = k->mine;
    uint32_t n_mine = 0;
    dod_status st = DOD_OK;
    for (uint32_t i = 0; i < COMMANDS; ++i) {
        uint32_t op = test_rng_below(&rng, 7);
        float v[2] = { (float)i, (float)k->seed };
        dod_entity e = n_mine && test_rng_below(&rng, 2) ? mine[test_rng_below(&rng, n_mine)]
                                                          : k->start[test_rng_below(&rng, START)];
        if (op == 0) {
            const void *values[2] = { v, v };
            st = dod_cmds_spawn(&k->cb, test_rng_below(&rng, 2), values, &mine[n_mine++]);
        } else if (op == 1) {
            st = dod_cmds_despawn(&k->cb, e);
        } else if (op == 2) {
            st = dod_cmds_move(&k->cb, e, test_rng_below(&rng, N_ARCHS));
        } else if (op == 3) { /* sums in apply order: the same bytes for any thread timing */
            float hit = 0.1f * (float)(i % 7) - 0.3f;
            st = dod_cmds_accumulate(&k->cb, e, C_POS, 4, DOD_ACC_F32_ADD, &hit, sizeof hit);
        } else if (op == 4) { /* pv -> p; a no-op for the others */
            st = dod_cmds_remove(&k->cb, e, C_VEL);
        } else { /* every archetype has a position */
            st = dod_cmds_set(&k->cb, e, C_POS, v, sizeof v);
        }
        k->refused += st != DOD_OK;
        if (i % 64 == 0) /* read the world while the other threads record */
            k->seen += *(const float *)dod_world_get(k->w, k->start[i % START], C_POS);
    }
    k->n_mine = n_mine;
    dod_query q;
    k->refused += dod_query_init(&q, k->w, NULL, 0, NULL, 0) != DOD_OK;
    dod_world_iter it;
    for (dod_world_iter_init(&it, k->w, &q); dod_world_next(&it);)
        k->seen += ((const float *)dod_world_field(&it, C_POS))[it.n - 1];
}

static void worker_main(void *arg)
{
    worker *k = (worker *)arg;
    for (uint32_t i = 0; i < k->delay; ++i)
        test_thread_yield();
    record_script(k);
}

static dod_world *start_world(dod_entity *start)
{
    dod_world_desc d = world_desc_of(COMPS, N_COMPS, ARCHS, N_ARCHS, NULL);
    dod_world *w;
    CHECK_OK(dod_world_create(&w, &d));
    for (uint32_t i = 0; i < START; ++i) {
        CHECK_OK(dod_world_spawn(w, i % N_ARCHS, &start[i]));
        float *p = (float *)dod_world_get(w, start[i], C_POS);
        p[0] = (float)i;
    }
    return w;
}

/* Record the four scripts, on threads started in `order` (or on this thread, in reverse), and
 * apply the buffers in thread order. */
static dod_world *run(const uint32_t *order, int threaded, worker *k, dod_entity *start)
{
    dod_world *w = start_world(start);
    for (uint32_t t = 0; t < THREADS; ++t) {
        k[t].w = w;
        k[t].start = start;
        k[t].seed = 100 + t;
        k[t].delay = order[t] * 50;
        k[t].seen = 0;
        k[t].refused = 0;
        CHECK_OK(dod_cmds_init(&k[t].cb, w, NULL));
    }
    if (threaded) {
        dod__thread th[THREADS];
        for (uint32_t t = 0; t < THREADS; ++t)
            CHECK_EQ(dod__thread_start(&th[order[t]], worker_main, &k[order[t]]), 0);
        for (uint32_t t = 0; t < THREADS; ++t)
            dod__thread_join(&th[t]);
    } else {
        for (uint32_t t = THREADS; t-- > 0;)
            record_script(&k[t]);
    }
    dod_cmds *buffers[THREADS]; /* where they are: nothing copied */
    for (uint32_t t = 0; t < THREADS; ++t)
        buffers[t] = &k[t].cb;
    CHECK_OK(dod_world_apply_ptrs(w, buffers, THREADS, NULL));
    return w;
}

int main(void)
{
    static const uint32_t orders[3][THREADS] = { { 0, 1, 2, 3 }, { 3, 2, 1, 0 }, { 2, 0, 3, 1 } };
    static worker ref[THREADS], got[THREADS];
    static dod_entity ref_start[START], got_start[START];
    const uint64_t less_tag = (1ull << 48) - 1;
    dod_world *reference = run(orders[0], 0, ref, ref_start);
    for (uint32_t t = 0; t < THREADS; ++t)
        CHECK_EQ(ref[t].refused, 0);
    for (int o = 0; o < 3; ++o) {
        dod_world *w = run(orders[o], 1, got, got_start);
        CHECK(world_same(w, reference));
        for (uint32_t t = 0; t < THREADS; ++t) {
            CHECK_EQ(got[t].refused, 0);
            CHECK_EQ(dod_cmds_count(&got[t].cb), COMMANDS);
            CHECK(got[t].n_mine == ref[t].n_mine && got[t].n_mine > COMMANDS / 10);
            for (uint32_t i = 0; i < got[t].n_mine; ++i) { /* resolved alike */
                dod_entity a = dod_cmds_resolve(&got[t].cb, got[t].mine[i]);
                dod_entity b = dod_cmds_resolve(&ref[t].cb, ref[t].mine[i]);
                CHECK(a.bits != 0 && (a.bits & less_tag) == (b.bits & less_tag));
            }
            dod_cmds_free(&got[t].cb);
        }
        dod_world_destroy(w);
    }
    for (uint32_t t = 0; t < THREADS; ++t)
        dod_cmds_free(&ref[t].cb);
    dod_world_destroy(reference);
    return check_summary("world_cmds_threads");
}
