/* The typed system (DOD_SYSTEM, and DOD_QUERY_SYSTEM declaring the query with it): its desc
 * carries the list's query and access and the flags given, its function gets the task's rows as
 * typed columns and the run's frame, and a frame of typed systems on a thread pool gives the
 * same world as the typed loops written by hand. */
#include <dod/world_systems.h>
#include <string.h>
#include "check.h"
#include "sched_check.h"
#include "world_game.h"

DOD_SYSTEM(game, movers, MOVERS)
#define BOXES(W, R, X) W(hitbox) R(position)
DOD_QUERY_SYSTEM(game, boxes, BOXES)
DOD_SYSTEM(game, everything, EVERYTHING)

static void step(uint32_t n, position *restrict p, const velocity *restrict v, float dt)
{
    for (uint32_t i = 0; i < n; ++i) {
        p[i].x += v[i].x * dt;
        p[i].y += v[i].y * dt;
    }
}

static void box(uint32_t n, hitbox *restrict h, const position *restrict p)
{
    for (uint32_t i = 0; i < n; ++i) {
        h[i].x = p[i].x - h[i].w / 2;
        h[i].y = p[i].y - h[i].h / 2;
    }
}

/* dt is the run's frame argument (dod_schedule_run_with). */
static void move_system(const game_movers_cols *c, const dod_system_task *t)
{
    step(c->n, c->position, c->velocity, *(const float *)t->frame);
}

static void box_system(const game_boxes_cols *c, const dod_system_task *t)
{
    (void)t;
    box(c->n, c->hitbox, c->position);
}

/* Not parallel (the default): one thread at a time, in order, so it may count into its ctx. */
static void count_system(const game_everything_cols *c, const dod_system_task *t)
{
    *(uint32_t *)t->ctx += c->n;
}

static int same_ids(const uint32_t *a, uint32_t n, const uint32_t *b, uint32_t m)
{
    return n == m && (n == 0 || memcmp(a, b, n * sizeof *a) == 0);
}

static void test_desc(void)
{
    float dt = 0.5f;
    dod_system_desc d = game_movers_system(move_system, &dt, DOD_SYSTEM_SEQUENTIAL);
    const uint32_t all[] = { DOD_CID(game, position), DOD_CID(game, velocity) };
    const uint32_t writes[] = { DOD_CID(game, position) }, none[] = { DOD_CID(game, frozen) };
    CHECK(same_ids(d.all, d.n_all, all, 2));
    CHECK(same_ids(d.writes, d.n_writes, writes, 1));
    CHECK(same_ids(d.none, d.n_none, none, 1));
    CHECK(d.n_reads == 0 && d.ctx == &dt && d.flags == DOD_SYSTEM_SEQUENTIAL);
    CHECK(d.fn == game_movers_system_run);
    CHECK(d.typed_fn == (void (*)(void))move_system);
    CHECK(strcmp(d.name, "movers") == 0);
    d = game_everything_system(count_system, NULL, 0);
    CHECK(d.n_all == 0 && d.n_none == 0 && d.n_writes == 0 && d.flags == 0);
    /* the flags reach the desc as given, DOD_SYSTEM_PARALLEL too */
    d = game_boxes_system(box_system, NULL, DOD_SYSTEM_PARALLEL | DOD_SYSTEM_COMMANDS);
    CHECK(d.flags == (DOD_SYSTEM_PARALLEL | DOD_SYSTEM_COMMANDS));
    const uint32_t box_all[] = { DOD_CID(game, hitbox), DOD_CID(game, position) };
    const uint32_t box_writes[] = { DOD_CID(game, hitbox) };
    CHECK(same_ids(d.all, d.n_all, box_all, 2));
    CHECK(same_ids(d.writes, d.n_writes, box_writes, 1));
    CHECK(d.fn == game_boxes_system_run && d.n_none == 0);
}

/* A world of every archetype, the same in w and in ref. */
static dod_world *make_world(void)
{
    dod_world *w = NULL;
    CHECK_OK(game_create(&w, NULL));
    for (uint32_t i = 0; w && i < 3000; ++i) {
        float f = (float)i;
        dod_entity e;
        switch (i % 5) {
        case 0: {
            game_entity_a_row r = { { f, 1 }, { 1, 2 }, { 0, 0, 2, 4 }, { { 1 }, { 2 } } };
            CHECK_OK(game_entity_a_spawn(w, &r, &e));
            break;
        }
        case 1: {
            game_entity_b_row r = { { f, 2 }, { -1, 1 }, { 0, 0, 4, 2 } };
            CHECK_OK(game_entity_b_spawn(w, &r, &e));
            break;
        }
        case 2: {
            game_entity_c_row r = { { f, 3 }, { 0, 0, 1, 1 } };
            CHECK_OK(game_entity_c_spawn(w, &r, &e));
            break;
        }
        case 3: {
            game_ice_row r = { { f, 4 }, { 5, 5 }, { 7 } };
            CHECK_OK(game_ice_spawn(w, &r, &e));
            break;
        }
        default:
            CHECK_OK(game_marker_spawn(w, NULL, &e));
        }
    }
    return w;
}

static void test_frame(void)
{
    dod_world *w = make_world(), *ref = make_world();
    float dt = 0.25f;
    uint32_t counted = 0;
    dod_system_desc d[3] = {
        game_movers_system(move_system, NULL, DOD_SYSTEM_PARALLEL),
        game_boxes_system(box_system, NULL, DOD_SYSTEM_PARALLEL),
        game_everything_system(count_system, &counted, 0),
    };
    dod_schedule_desc sd = { .systems = d, .n_systems = 3, .task_rows = 64 };
    dod_schedule *s = NULL;
    CHECK_OK(dod_schedule_create(&s, w, &sd));
    /* boxes reads what movers writes; everything reads nothing and joins boxes' phase */
    CHECK(dod_schedule_phase_of(s, 0) == 0 && dod_schedule_phase_of(s, 1) == 1 &&
          dod_schedule_phase_of(s, 2) == 1);
    dod_threadpool *p = NULL;
    CHECK_OK(dod_threadpool_create(&p, 2, NULL));
    dod_executor ex = dod_threadpool_executor(p);
    for (int f = 0; f < 3; ++f) {
        CHECK_OK(dod_schedule_run_with(s, w, &ex, &dt, NULL));
        /* the same frame by hand, with the typed queries */
        dod_world_iter it;
        game_movers_cols m;
        CHECK_OK(game_movers_begin(&it, ref));
        while (game_movers_next(&it, &m))
            step(m.n, m.position, m.velocity, dt);
        game_boxes_cols b;
        CHECK_OK(game_boxes_begin(&it, ref));
        while (game_boxes_next(&it, &b))
            box(b.n, b.hitbox, b.position);
    }
    CHECK(sched_same_world(w, ref));
    CHECK_EQ(counted, 3 * 3000);
    dod_schedule_destroy(s);
    dod_threadpool_destroy(p);
    dod_world_destroy(ref);
    dod_world_destroy(w);
}

int main(void)
{
    test_desc();
    test_frame();
    return check_summary("test_world_schedule_typed");
}
