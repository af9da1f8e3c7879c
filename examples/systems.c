/* systems: a frame of systems on a schedule, one of them with a command buffer.
 *
 * Units move, burn, and those whose health runs out become wrecks (velocity and health removed
 * at once, recorded by the system and applied after its phase), each leaving a spark (a spawn)
 * and adding one to a tally that every thread writes through its commands. Each system writes only its rows and its buffer, so each is DOD_SYSTEM_PARALLEL: its
 * rows are split across the pool's threads. dt reaches them as the run's frame argument
 * (dod_schedule_run_with). The schedule runs the frame on a thread pool; the same frame on the
 * calling thread gives the same world, byte for byte. Checks its own results; exits non-zero if
 * wrong. */
#include <dod/dod.h>
#include <stdio.h>
#include <string.h>

typedef struct position { float x, y; } position;
typedef struct velocity { float x, y; } velocity;
typedef struct health { float hp; } health;
typedef struct tally { uint32_t wrecked; } tally;

#define GAME_COMPONENTS(C) C(position) C(velocity) C(health) C(tally)
#define UNIT(X) X(position) X(velocity) X(health)
#define WRECK(X) X(position)
#define SPARK(X) X(position) X(velocity)
#define STATS(X) X(tally)
#define GAME_ARCHETYPES(A)                                                                     \
    A(unit, UNIT, 100000) A(wreck, WRECK, 0) A(spark, SPARK, 0) A(stats, STATS, 1)
DOD_WORLD(game, GAME_COMPONENTS, GAME_ARCHETYPES)
#define LIFE(X) X(velocity) X(health) /* a unit less its life is a wreck */
DOD_COMPONENT_SET(game, life, LIFE)

enum { N_UNITS = 100000, FRAMES = 10 };

/* position += velocity * dt, over one task's rows: the seed's loop, restrict pointers. */
static void step(uint32_t n, position *restrict p, const velocity *restrict v, float dt)
{
    for (uint32_t i = 0; i < n; ++i) {
        p[i].x += v[i].x * dt;
        p[i].y += v[i].y * dt;
    }
}

static void movement(const dod_system_task *t) /* t->frame: the run's dt */
{
    step(t->rows.n, DOD_FIELD(&t->rows, game, position), DOD_FIELD(&t->rows, game, velocity),
         *(const float *)t->frame);
}

static void burn(const dod_system_task *t)
{
    health *h = DOD_FIELD(&t->rows, game, health);
    for (uint32_t i = 0; i < t->rows.n; ++i)
        h[i].hp -= 1.0f;
}

/* Units out of health: recorded, not done; the world is const in here. Applied after the
 * phase, in row order, whatever thread ran which rows. A refused record needs no check: the
 * buffer keeps the first failure and the run returns it, applying nothing of the phase. */
static void die(const dod_system_task *t)
{
    const dod_entity *stats = (const dod_entity *)t->ctx;
    const health *h = DOD_FIELD(&t->rows, game, health);
    const position *p = DOD_FIELD(&t->rows, game, position);
    for (uint32_t i = 0; i < t->rows.n; ++i) {
        if (h[i].hp > 0.0f)
            continue;
        game_cmd_remove_life(t->cmds, t->rows.entities[i]); /* one move: unit -> wreck */
        game_spark_row r = { p[i], { 0.0f, 1.0f } };
        game_spark_cmd_spawn(t->cmds, &r, NULL);
        /* Every task adds to the one tally: combined at apply, in order, none lost. */
        uint32_t one = 1;
        DOD_CMDS_ACCUMULATE(t->cmds, *stats, game, tally, wrecked, DOD_ACC_U32_ADD, &one);
    }
}

/* Archetype a's blocks hold the same bytes in both worlds. */
static int same_blocks(const dod_world *x, const dod_world *y, uint32_t a)
{
    dod_world_desc d = game_desc();
    const dod_component_desc *comps = d.components;
    const dod_archetype_desc *arch = &d.archetypes[a];
    void *cx[4], *cy[4];
    for (uint32_t b = 0;; ++b) {
        uint32_t n = dod_world_block(x, a, b, cx);
        if (n != dod_world_block(y, a, b, cy))
            return 0;
        if (n == 0)
            return 1;
        for (uint32_t k = 0; k < arch->n_components; ++k)
            if (memcmp(cx[1 + k], cy[1 + k], n * comps[arch->components[k]].size) != 0)
                return 0;
    }
}

static int fail(const char *what, dod_status st)
{
    fprintf(stderr, "systems: %s: %s\n", what, dod_status_str(st));
    return 1;
}

/* A world of N_UNITS units, health 1 .. 20, and a stats entity, and its frame as a
 * schedule. */
static dod_status make(dod_world **w, dod_schedule **s, dod_entity *stats)
{
    dod_status st = game_create(w, NULL);
    if (st == DOD_OK)
        st = game_stats_spawn(*w, NULL, stats);
    for (uint32_t i = 0; i < N_UNITS && st == DOD_OK; ++i) {
        game_unit_row r = { { (float)i, 0 }, { 1, 0.5f }, { (float)(1 + i % 20) } };
        dod_entity e;
        st = game_unit_spawn(*w, &r, &e);
    }
    static const uint32_t pv[] = { DOD_CID(game, position), DOD_CID(game, velocity) };
    static const uint32_t p[] = { DOD_CID(game, position) }, h[] = { DOD_CID(game, health) };
    static const uint32_t ph[] = { DOD_CID(game, position), DOD_CID(game, health) };
    /* movement and burn write different components: one phase, run at the same time. die
     * reads health, which burn writes: the next phase. */
    const dod_system_desc systems[3] = {
        { .name = "movement", .fn = movement, .all = pv, .n_all = 2, .writes = p, .n_writes = 1,
          .flags = DOD_SYSTEM_PARALLEL },
        { .name = "burn", .fn = burn, .all = h, .n_all = 1, .writes = h, .n_writes = 1,
          .flags = DOD_SYSTEM_PARALLEL },
        { .name = "die", .fn = die, .ctx = stats, .all = ph, .n_all = 2,
          .flags = DOD_SYSTEM_PARALLEL | DOD_SYSTEM_COMMANDS },
    };
    dod_schedule_desc sd = { .systems = systems, .n_systems = 3 };
    if (st == DOD_OK)
        st = dod_schedule_create(s, *w, &sd);
    return st;
}

int main(void)
{
    float dt = 1.0f / 60;
    dod_world *w[2] = { NULL, NULL };
    dod_schedule *s[2] = { NULL, NULL };
    dod_entity stats[2];
    dod_threadpool *pool = NULL;
    dod_status st = dod_threadpool_create(&pool, 2, NULL);
    for (int k = 0; k < 2 && st == DOD_OK; ++k)
        st = make(&w[k], &s[k], &stats[k]);
    if (st)
        return fail("setup", st);
    dod_executor exec = dod_threadpool_executor(pool);
    for (int f = 0; f < FRAMES && st == DOD_OK; ++f) {
        st = dod_schedule_run_with(s[0], w[0], &exec, &dt, NULL); /* two threads */
        if (st == DOD_OK)
            st = dod_schedule_run_with(s[1], w[1], NULL, &dt, NULL); /* this thread */
    }
    if (st)
        return fail("run", st);
    printf("phases %u: movement and burn in phase %u, die in phase %u\n",
           dod_schedule_phase_count(s[0]), dod_schedule_phase_of(s[0], 0),
           dod_schedule_phase_of(s[0], 2));
    /* Health 1 .. 20 less 1 a frame: those with 1 .. 10 are wrecks after 10 frames. */
    uint32_t wrecks = dod_world_count(w[0], DOD_AID(game, wreck));
    uint32_t sparks = dod_world_count(w[0], DOD_AID(game, spark));
    printf("after %d frames: %u units, %u wrecks, %u sparks\n", FRAMES,
           dod_world_count(w[0], DOD_AID(game, unit)), wrecks, sparks);
    int ok = wrecks == N_UNITS / 2 && sparks == wrecks &&
             game_get_tally(w[0], stats[0])->wrecked == wrecks;
    /* The same world on two threads and on one: every column of every block. */
    for (uint32_t a = 0; a < 4; ++a)
        ok &= same_blocks(w[0], w[1], a);
    printf("two threads and one: %s\n", ok ? "the same world" : "DIFFERENT");
    for (int k = 0; k < 2; ++k) {
        dod_schedule_destroy(s[k]);
        dod_world_destroy(w[k]);
    }
    dod_threadpool_destroy(pool);
    return ok ? 0 : 1;
}
