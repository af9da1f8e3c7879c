/* test_tick_stress: examples/strategy_tick's loop at full speed, every frame read checked.
 *
 * The main thread ticks without pause (march, begin, copy, rebuild on the pool, publish);
 * READERS threads acquire the latest frame, check all of it, and release. Readers count what
 * fails by kind (check.h's counters belong to the main thread), and the main thread reports
 * each kind once:
 *   intact   the frame's fingerprint, recorded by the writer before it published, matches at
 *            acquire (the frame is complete) and at release (unchanged while held)
 *   seq      the frame's tick, written last, is the handle's seq, at acquire and at release
 *   index    every item of location -> regiments and army -> regiments is a regiment whose
 *            location / army is that row, each regiment once
 *   order    rows ascending
 *   reduce   each army's strength and morale from dod_reduce_rows, bit for bit against a walk
 *            of the army's rows
 *   armies   every army keeps its size (armies never change)
 *   routes   a route is a walk over the map from source to target through cells a march may
 *            enter, costing what the search says
 *   calls    every dod call returned DOD_OK
 * and the writer: never BUSY with READERS + 2 slots; a clean shutdown: every reader saw the
 * last frame. DOD_TEST_SCALE (a positive integer, default 1) multiplies the map's width, the
 * regiments, the armies and the ticks. */
#include "../examples/strategy_world.h"
#include "thread.h"
#include "tick_stress.h"

enum { READERS = 3, ROUTES_PER_FRAME = 4 };
enum { INTACT, SEQ, INDEX, ORDER, REDUCE, ARMIES, ROUTES, CALLS, N_KINDS };
static const char *const kind_name[N_KINDS] = {
    "intact frame", "tick is seq", "index against table", "ascending rows",
    "reduce against a walk", "army sizes", "routes", "dod calls",
};

typedef struct stress {
    world world;
    world_ring ring;
    uint32_t ticks;
    uint32_t *army_size;  /* as spawned */
    uint64_t *fingerprint; /* [seq]: written by the writer before it publishes frame seq */
    atomic_int finished;   /* set after the last publish */
} stress;

typedef struct reader {
    stress *s;
    uint32_t id;
    dod__thread thread;
    long bad[N_KINDS];
    long frames, routes, unreachable;
    uint64_t last_seq;
    dod_graph_scratch scratch;
    float *strength, *morale;
} reader;

/* Everything a frame holds, in one number. */
static uint64_t fingerprint(const world_frame *f)
{
    regiment_cols c = regiment_columns(&f->regiments);
    uint32_t n = dod_table_count(&f->regiments);
    uint64_t h = strategy_dice(f->tick);
    h = tick_hash_words(h, c.location, n);
    h = tick_hash_words(h, c.army, n);
    h = tick_hash_words(h, c.health, n);
    h = tick_hash_words(h, c.mood, n);
    return tick_hash_index(tick_hash_index(h, &f->by_location), &f->by_army);
}

/* ---- the readers' checks ---- */

/* Each regiment once: n items in all, each in the row of its key, ascending in its row. */
static void check_index(reader *r, const dod_csr *idx, const uint32_t *key, uint32_t n)
{
    if (idx->n_items != n || dod_csr_check(idx, n) != DOD_OK) {
        ++r->bad[INDEX];
        return;
    }
    for (uint32_t row = 0; row < idx->n_rows; ++row)
        for (uint32_t k = idx->offsets[row]; k < idx->offsets[row + 1]; ++k) {
            r->bad[INDEX] += key[idx->items[k]] != row;
            r->bad[ORDER] += k > idx->offsets[row] && idx->items[k] <= idx->items[k - 1];
        }
}

static void check_armies(reader *r, const world_frame *f)
{
    regiment_cols c = regiment_columns(&f->regiments);
    r->bad[CALLS] += world_army_report(f, r->strength, r->morale) != DOD_OK;
    for (uint32_t a = 0; a < r->s->world.size.armies; ++a) {
        float health = 0.0f, mood = 0.0f;
        const uint32_t *it = dod_csr_row_begin(&f->by_army, a);
        for (; it != dod_csr_row_end(&f->by_army, a); ++it) {
            health += c.health[*it];
            mood += c.mood[*it];
        }
        uint32_t len = dod_csr_row_len(&f->by_army, a);
        /* Stored before comparing: C evaluates m / len in double on s390x and in long double
         * on x87 (FLT_EVAL_METHOD 1 and 2); the assignment rounds to float as the library's
         * store did. Comparing the expression itself failed there. */
        float morale = len ? mood / (float)len : 0.0f;
        r->bad[REDUCE] += health != r->strength[a] || morale != r->morale[a];
        r->bad[ARMIES] += len != r->s->army_size[a];
    }
}

static void check_routes(reader *r, const world_frame *f)
{
    for (uint32_t k = 0; k < ROUTES_PER_FRAME; ++k) {
        map_march o = world_order_march(&r->s->world, f, f->tick * 64 + r->id * 8 + k);
        dod_graph_route route;
        if (map_route(&o, &r->scratch, &route) != DOD_OK) {
            ++r->bad[CALLS];
            continue;
        }
        ++r->routes;
        if (r->scratch.n_order == 0)
            ++r->unreachable;
        else
            r->bad[ROUTES] += tick_route_faults(&r->scratch, &o, route.cost);
    }
}

static void check_frame(void *arg, const dod_frame *held)
{
    reader *r = (reader *)arg;
    const world_frame *f = (const world_frame *)held->data;
    uint64_t recorded = r->s->fingerprint[held->seq];
    r->bad[SEQ] += f->tick != held->seq;
    r->bad[INTACT] += fingerprint(f) != recorded;
    regiment_cols c = regiment_columns(&f->regiments);
    uint32_t n = dod_table_count(&f->regiments);
    check_index(r, &f->by_location, c.location, n);
    check_index(r, &f->by_army, c.army, n);
    check_armies(r, f);
    check_routes(r, f);
    r->bad[SEQ] += f->tick != held->seq; /* still the same frame */
    r->bad[INTACT] += fingerprint(f) != recorded;
}

static void reader_main(void *arg)
{
    reader *r = (reader *)arg;
    tick_read_frames(r->s->ring.frames, &r->s->finished, check_frame, r, &r->last_seq,
                     &r->frames, &r->bad[CALLS]);
}

/* ---- the writer ---- */

static dod_status stress_tick(stress *s, uint64_t t, long *busy)
{
    world_march(&s->world, t, 16);
    dod_frame next = { 0 };
    dod_status st = tick_begin(s->ring.frames, &next, busy);
    if (st != DOD_OK)
        return st;
    world_frame *f = (world_frame *)next.data;
    st = world_fill_frame(&s->world, f, next.seq);
    if (st != DOD_OK) {
        dod_frames_cancel(s->ring.frames, &next);
        return st;
    }
    s->fingerprint[next.seq] = fingerprint(f);
    return dod_frames_publish(s->ring.frames, &next);
}

static void count_armies(stress *s)
{
    const uint32_t *army = regiment_columns(&s->world.regiments).army;
    for (uint32_t i = 0; i < dod_table_count(&s->world.regiments); ++i)
        s->army_size[army[i]]++;
}

/* Returns how many reader threads started; all READERS are to be finished either way. */
static uint32_t start_readers(stress *s, reader *r)
{
    for (uint32_t i = 0; i < READERS; ++i) {
        r[i] = (reader){ .s = s, .id = i };
        dod_graph_scratch_init(&r[i].scratch, NULL);
        r[i].strength = (float *)malloc(s->world.size.armies * sizeof(float));
        r[i].morale = (float *)malloc(s->world.size.armies * sizeof(float));
    }
    for (uint32_t i = 0; i < READERS; ++i)
        if (!r[i].strength || !r[i].morale ||
            dod_graph_scratch_reserve(&r[i].scratch, world_cells(&s->world)) != DOD_OK ||
            dod__thread_start(&r[i].thread, reader_main, &r[i]) != 0)
            return i;
    return READERS;
}

/* Join the started readers, then one CHECK per kind of check over all of them. */
static void finish_readers(stress *s, reader *r, uint32_t started)
{
    long bad[N_KINDS] = { 0 }, frames = 0, routes = 0, unreachable = 0;
    for (uint32_t i = 0; i < READERS; ++i) {
        if (i < started) {
            dod__thread_join(&r[i].thread);
            CHECK_EQ(r[i].last_seq, s->ticks); /* every reader saw the last frame */
        }
        for (int k = 0; k < N_KINDS; ++k)
            bad[k] += r[i].bad[k];
        frames += r[i].frames;
        routes += r[i].routes;
        unreachable += r[i].unreachable;
        dod_graph_scratch_free(&r[i].scratch);
        free(r[i].strength);
        free(r[i].morale);
    }
    for (int k = 0; k < N_KINDS; ++k)
        tick_report_kind(kind_name[k], bad[k]);
    CHECK(routes > unreachable);
    printf("test_tick_stress: %u ticks, %ld frame reads by %d readers, %ld routes (%ld "
           "unreachable)\n", s->ticks, frames, READERS, routes, unreachable);
}

int main(void)
{
    static stress s; /* static: zeroed, and its frame ring is too big for some stacks */
    uint32_t scale = test_scale();
    const world_size size = { 64 * scale, 64, 24576 * scale, 32 * scale };
    s.ticks = 48 * scale;
    CHECK_OK(world_create(&s.world, size, 2));
    CHECK_OK(world_ring_create(&s.ring, &s.world, READERS + 2));
    s.army_size = (uint32_t *)calloc(size.armies, sizeof(uint32_t));
    s.fingerprint = (uint64_t *)calloc(s.ticks + 1, sizeof(uint64_t));
    atomic_init(&s.finished, 0);
    if (check_failed || !s.army_size || !s.fingerprint)
        return check_summary("test_tick_stress");
    count_armies(&s);

    reader r[READERS];
    uint32_t started = start_readers(&s, r);
    CHECK_EQ(started, READERS);
    long busy = 0;
    for (uint64_t t = 1; t <= s.ticks; ++t)
        CHECK_OK(stress_tick(&s, t, &busy));
    atomic_store(&s.finished, 1);
    CHECK_EQ(busy, 0);
    finish_readers(&s, r, started);

    world_ring_destroy(&s.ring);
    world_destroy(&s.world);
    free(s.army_size);
    free(s.fingerprint);
    return check_summary("test_tick_stress");
}
