/* The schedule's determinism: random worlds (fixed and chunked archetypes, holes from
 * despawns) and random schedules of systems that read, write, look up, and spawn, despawn,
 * move and set through their command buffers, run for several
 * frames on a NULL executor, thread pools of 1, 2, 3 and 8 threads, and executors that run the
 * tasks in reverse or shuffled order (on one thread, and on three), each in one pass a phase and
 * in a pass per system (DOD_SCHEDULE_PASS_PER_SYSTEM): every world must end
 * byte for byte the same (every handle, row and block), and so must what the systems that are
 * not DOD_SYSTEM_PARALLEL (the default) computed outside the world, in row order. It runs under
 * the thread sanitizer in CI. */
#include <dod/dod.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "sched_check.h"

enum { N_COMPS = 5, N_ARCHS = 6, MAX_SYSTEMS = 8, FRAMES = 4, SEEDS = 12, MAX_WORDS = 4,
       MAX_TASKS = 4096 };
static const dod_component_desc COMPS[N_COMPS] = {
    { "w1", 4, 4 }, { "w2", 8, 8 }, { "w3", 12, 4 }, { "w4", 16, 16 }, { "v1", 4, 4 },
};

static uint32_t words_of(uint32_t c)
{
    return (uint32_t)(COMPS[c].size / 4);
}

static uint32_t mix(uint32_t h, uint32_t v)
{
    h ^= v + 0x9E3779B9u + (h << 6) + (h >> 2);
    return h * 0x85EBCA6Bu;
}

typedef struct scenario_archs {
    dod_archetype_desc archs[N_ARCHS];
    uint32_t comps[N_ARCHS][N_COMPS];
} scenario_archs;

/* What one system does, drawn at random. */
typedef struct spec {
    uint32_t all[N_COMPS], n_all, none[N_COMPS], n_none;
    uint32_t writes[N_COMPS], n_writes, reads[N_COMPS], n_reads;
    uint32_t salt, flags;
    const dod_entity *pool; /* handles it looks up, the same in every world but the tag */
    uint32_t n_pool;
    uint32_t outside;       /* a system's running hash of every row, in order, unless it is
                               DOD_SYSTEM_PARALLEL */
    unsigned char failed[MAX_TASKS]; /* a task whose recording failed */
} spec;

/* A structural command for a row, chosen by its hash: despawn it, move it, spawn an entity
 * with values from the hash, set one of its components or one of another entity's, or none.
 * Returns 0 when recording failed. */
static int record(const dod_system_task *t, const spec *s, dod_entity e, uint32_t h)
{
    uint32_t arch = (h >> 8) % N_ARCHS, c = (h >> 12) % N_COMPS;
    uint32_t values[N_COMPS][MAX_WORDS];
    const void *ptrs[N_COMPS];
    for (uint32_t k = 0; k < N_COMPS; ++k) {
        for (uint32_t x = 0; x < MAX_WORDS; ++x)
            values[k][x] = mix(h, k * MAX_WORDS + x);
        ptrs[k] = values[k];
    }
    dod_entity spawned;
    switch (h % 12) {
    case 0: return dod_cmds_despawn(t->cmds, e) == DOD_OK;
    case 1: return dod_cmds_move(t->cmds, e, arch) == DOD_OK;
    case 2: return dod_cmds_spawn(t->cmds, arch, ptrs, &spawned) == DOD_OK;
    case 3: return dod_cmds_spawn(t->cmds, arch, NULL, NULL) == DOD_OK;
    case 4: return dod_cmds_set(t->cmds, e, c, values[0], COMPS[c].size) == DOD_OK;
    case 5:
        return dod_cmds_set(t->cmds, s->pool[(h >> 4) % s->n_pool], c, values[1],
                            COMPS[c].size) == DOD_OK;
    default: return 1;
    }
}

/* Every row: a hash of its id, of its components (the old values of those it writes too)
 * and of components of other entities it looks up, written into every word it writes. A system
 * that is not parallel also folds the hash into state outside the world; a recording system
 * records a command chosen by the hash. */
static void random_system(const dod_system_task *t)
{
    spec *s = (spec *)t->ctx;
    int ok = 1;
    for (uint32_t i = 0; i < t->rows.n; ++i) {
        uint32_t h = mix(s->salt, (uint32_t)t->rows.entities[i].bits);
        for (uint32_t k = 0; k < s->n_all; ++k)
            h = mix(h, ((const uint32_t *)dod_world_field(&t->rows, s->all[k]))[i * words_of(s->all[k])]);
        for (uint32_t k = 0; k < s->n_reads; ++k) {
            const uint32_t *p = (const uint32_t *)dod_world_get(t->world, s->pool[h % s->n_pool],
                                                                s->reads[k]);
            h = mix(h, p ? p[0] : 0xDEADu);
        }
        for (uint32_t k = 0; k < s->n_writes; ++k) {
            uint32_t *p = (uint32_t *)dod_world_field(&t->rows, s->writes[k]);
            for (uint32_t x = 0; x < words_of(s->writes[k]); ++x)
                p[i * words_of(s->writes[k]) + x] = mix(h, x);
        }
        if (!(s->flags & DOD_SYSTEM_PARALLEL)) /* one thread at a time, rows in order */
            s->outside = mix(s->outside, h);
        if (t->cmds)
            ok &= record(t, s, t->rows.entities[i], h);
    }
    if (!ok) /* each task its own byte: read after the run */
        s->failed[t->task < MAX_TASKS ? t->task : MAX_TASKS - 1] = 1;
}

/* A random subset of the components not in `avoid`, as a list and a mask. */
static uint32_t pick(test_rng *r, uint32_t avoid, uint32_t percent, uint32_t *out, uint32_t *n)
{
    uint32_t mask = 0;
    *n = 0;
    for (uint32_t c = 0; c < N_COMPS; ++c)
        if (!(avoid >> c & 1u) && test_rng_below(r, 100) < percent) {
            out[(*n)++] = c;
            mask |= 1u << c;
        }
    return mask;
}

typedef struct scenario {
    scenario_archs a;
    spec specs[MAX_SYSTEMS];
    uint32_t n_systems, task_rows;
    uint64_t world_seed;
} scenario;

static void draw_scenario(scenario *sc, uint64_t seed)
{
    test_rng r = { seed };
    memset(sc, 0, sizeof *sc);
    for (uint32_t a = 0; a < N_ARCHS; ++a) {
        dod_archetype_desc *d = &sc->a.archs[a];
        do
            (void)pick(&r, 0, 50, sc->a.comps[a], &d->n_components);
        while (d->n_components == 0);
        d->components = sc->a.comps[a];
        if (test_rng_below(&r, 2))
            d->capacity = 300 + test_rng_below(&r, 500);
        else
            d->block_bytes = 512u << test_rng_below(&r, 3);
    }
    sc->n_systems = 3 + test_rng_below(&r, MAX_SYSTEMS - 2);
    for (uint32_t i = 0; i < sc->n_systems; ++i) {
        spec *s = &sc->specs[i];
        uint32_t all;
        do
            all = pick(&r, 0, 40, s->all, &s->n_all);
        while (s->n_all == 0);
        (void)pick(&r, all, 20, s->none, &s->n_none);
        /* writes: a subset of all */
        for (uint32_t k = 0; k < s->n_all; ++k)
            if (test_rng_below(&r, 2))
                s->writes[s->n_writes++] = s->all[k];
        uint32_t writes = 0;
        for (uint32_t k = 0; k < s->n_writes; ++k)
            writes |= 1u << s->writes[k];
        (void)pick(&r, writes, 25, s->reads, &s->n_reads);
        s->salt = (uint32_t)test_rng_next(&r);
        /* a parallel system half the time; else the default, or said explicitly */
        static const uint32_t split[4] = { DOD_SYSTEM_PARALLEL, DOD_SYSTEM_PARALLEL, 0,
                                           DOD_SYSTEM_SEQUENTIAL };
        s->flags = split[test_rng_below(&r, 4)];
        s->flags |= test_rng_below(&r, 3) == 0 ? DOD_SYSTEM_COMMANDS : 0;
    }
    static const uint32_t rows[] = { 16, 32, 64, 0 };
    sc->task_rows = rows[test_rng_below(&r, 4)];
    sc->world_seed = test_rng_next(&r);
}

/* The scenario's world: entities spawned into every archetype with random values, some
 * despawned again (holes, a free list). pool gets every handle ever spawned. */
static dod_world *build_world(const scenario *sc, dod_entity *pool, uint32_t *n_pool)
{
    dod_world_desc d;
    memset(&d, 0, sizeof d);
    d.components = COMPS, d.n_components = N_COMPS;
    d.archetypes = sc->a.archs, d.n_archetypes = N_ARCHS;
    dod_world *w = NULL;
    CHECK_OK(dod_world_create(&w, &d));
    test_rng r = { sc->world_seed };
    *n_pool = 0;
    for (uint32_t a = 0; w && a < N_ARCHS; ++a) {
        uint32_t n = 100 + test_rng_below(&r, 200);
        for (uint32_t i = 0; i < n; ++i) {
            dod_entity e;
            CHECK_OK(dod_world_spawn(w, a, &e));
            pool[(*n_pool)++] = e;
            for (uint32_t k = 0; k < sc->a.archs[a].n_components; ++k) {
                uint32_t c = sc->a.archs[a].components[k];
                uint32_t *p = (uint32_t *)dod_world_get(w, e, c);
                for (uint32_t x = 0; x < words_of(c); ++x)
                    p[x] = (uint32_t)test_rng_next(&r);
            }
            dod_entity victim = pool[test_rng_below(&r, *n_pool)];
            if (test_rng_below(&r, 5) == 0 && dod_world_alive(w, victim))
                CHECK_OK(dod_world_despawn(w, victim));
        }
    }
    return w;
}

typedef struct outcome {
    sched_bytes world;
    uint32_t outside[MAX_SYSTEMS];
    dod_status status[FRAMES];  /* each run's */
    dod_apply_result applied[FRAMES];
    int changed; /* the frames changed the world */
} outcome;

static outcome run_scenario(const scenario *sc, const dod_executor *exec, uint32_t flags)
{
    static dod_entity pool[N_ARCHS * 300];
    uint32_t n_pool = 0;
    outcome out;
    memset(&out, 0, sizeof out);
    dod_world *w = build_world(sc, pool, &n_pool);
    static spec specs[MAX_SYSTEMS];
    dod_system_desc d[MAX_SYSTEMS];
    memset(d, 0, sizeof d);
    for (uint32_t i = 0; i < sc->n_systems; ++i) {
        specs[i] = sc->specs[i];
        specs[i].pool = pool, specs[i].n_pool = n_pool;
        d[i].fn = random_system;
        d[i].ctx = &specs[i];
        d[i].all = specs[i].all, d[i].n_all = specs[i].n_all;
        d[i].none = specs[i].none, d[i].n_none = specs[i].n_none;
        d[i].writes = specs[i].writes, d[i].n_writes = specs[i].n_writes;
        d[i].reads = specs[i].reads, d[i].n_reads = specs[i].n_reads;
        d[i].flags = specs[i].flags;
    }
    dod_schedule_desc sd = { .systems = d, .n_systems = sc->n_systems,
                             .task_rows = sc->task_rows, .flags = flags };
    dod_schedule *s = NULL;
    CHECK_OK(dod_schedule_create(&s, w, &sd));
    sched_bytes before = sched_world_bytes(w);
    for (int f = 0; s && f < FRAMES; ++f) {
        out.status[f] = dod_schedule_run(s, w, exec, &out.applied[f]);
        /* an apply into a fixed archetype at capacity is refused; anything else is a bug */
        CHECK(out.status[f] == DOD_OK || out.status[f] == DOD_E_FULL);
    }
    out.world = sched_world_bytes(w);
    out.changed = before.n != out.world.n || memcmp(before.p, out.world.p, before.n) != 0;
    free(before.p);
    for (uint32_t i = 0; i < sc->n_systems; ++i) {
        out.outside[i] = specs[i].outside;
        for (uint32_t k = 0; k < MAX_TASKS; ++k)
            CHECK(!specs[i].failed[k]);
    }
    dod_schedule_destroy(s);
    dod_world_destroy(w);
    return out;
}

static void test_determinism(void)
{
    enum { N_POOLS = 4, N_EXECS = 8 };
    static const uint32_t threads[N_POOLS] = { 1, 2, 3, 8 };
    dod_threadpool *pools[N_POOLS];
    dod_executor pe[N_POOLS];
    for (int i = 0; i < N_POOLS; ++i) {
        CHECK_OK(dod_threadpool_create(&pools[i], threads[i], NULL));
        pe[i] = dod_threadpool_executor(pools[i]);
    }
    sched_order_exec rev = { 0, NULL, NULL, 0, NULL, NULL };
    sched_order_exec shuf = { 11, NULL, NULL, 0, NULL, NULL };
    sched_order_exec shuf3 = { 12, &pe[2], NULL, 0, NULL, NULL };
    dod_executor er = sched_order_executor(&rev), es = sched_order_executor(&shuf),
                 es3 = sched_order_executor(&shuf3);
    const dod_executor *execs[N_EXECS] = { NULL, &pe[0], &pe[1], &pe[2], &pe[3], &er, &es, &es3 };
    uint32_t changed = 0, commands = 0;
    for (uint64_t seed = 1; seed <= SEEDS; ++seed) {
        scenario sc;
        draw_scenario(&sc, seed * 0x9E3779B97F4A7C15ull);
        outcome first = run_scenario(&sc, NULL, DOD_SCHEDULE_PASS_PER_SYSTEM);
        CHECK(first.world.n > 0);
        for (int e = 0; e < 2 * N_EXECS; ++e) { /* one pass a phase, then a pass per system */
            if (e == N_EXECS)
                continue; /* the first run */
            outcome o = run_scenario(&sc, execs[e % N_EXECS],
                                     e < N_EXECS ? 0u : DOD_SCHEDULE_PASS_PER_SYSTEM);
            CHECK_EQ(o.world.n, first.world.n);
            CHECK(o.world.n == first.world.n &&
                  memcmp(o.world.p, first.world.p, first.world.n) == 0);
            CHECK(memcmp(o.outside, first.outside, sizeof o.outside) == 0);
            CHECK(memcmp(o.status, first.status, sizeof o.status) == 0);
            CHECK(memcmp(o.applied, first.applied, sizeof o.applied) == 0);
            free(o.world.p);
        }
        free(first.world.p);
        changed += (uint32_t)first.changed;
        for (int f = 0; f < FRAMES; ++f)
            commands += first.applied[f].applied;
    }
    CHECK(changed > SEEDS / 2); /* most schedules write something */
    CHECK(commands > 0);        /* and some record commands */
    free(rev.perm);
    free(shuf.perm);
    free(shuf3.perm);
    for (int i = 0; i < N_POOLS; ++i)
        dod_threadpool_destroy(pools[i]);
}

int main(void)
{
    test_determinism();
    return check_summary("test_world_schedule_det");
}
