/* test_world_tick_stress: examples/world_tick's loop at full speed, every frame read checked.
 *
 * The main thread ticks without pause (the systems on a 2-thread pool, begin, copy the world,
 * rebuild both indexes on the pool, publish); READERS threads acquire the latest frame, check
 * all of it against a walk of the frame's world, and release. Readers count what fails by kind
 * (check.h's counters belong to the main thread), and the main thread reports each kind once:
 *   intact   the frame's fingerprint (its world's every block, both indexes, the tick),
 *            recorded by the writer before it published, matches at acquire (the frame is
 *            complete) and at release (unchanged while held)
 *   seq      the frame's tick, written last, is the handle's seq, at acquire and at release
 *   index    location -> regiments and army -> regiments against a walk of the frame's world:
 *            every regiment once, in the row of its location / army
 *   order    each row lists its regiments in the order the walk met them
 *   reduce   the AI's strength and morale (gathered fields), and the UI's muster of a cell
 *            (items looked up), bit for bit against sums over the walk
 *   armies   every army keeps its size (each fallen regiment is replaced)
 *   routes   a route is a walk over the map from source to target through cells a march may
 *            enter, costing what the search says
 *   calls    every dod call returned DOD_OK
 * and the writer: never BUSY with READERS + 2 slots; a clean shutdown: every reader saw the
 * last frame; regiments routed, fell and were replaced. Then determinism: the same game run
 * on the calling thread and on pools of 1, 2 and 3 threads ends in the same world (every
 * block of every archetype, handles less the world's tag) and the same indexes as the run
 * the readers watched. DOD_TEST_SCALE (a positive integer, default 1) multiplies the map's
 * width, the regiments, the armies and the ticks. */
#include "../examples/world_tick.h"
#include "thread.h"
#include "tick_stress.h"

enum { READERS = 3, ROUTES_PER_FRAME = 4, POOL_THREADS = 2 };
enum { INTACT, SEQ, INDEX, ORDER, REDUCE, ARMIES, ROUTES, CALLS, N_KINDS };
static const char *const kind_name[N_KINDS] = {
    "intact frame", "tick is seq", "index against the world", "rows in walk order",
    "reduce against a walk", "army sizes", "routes", "dod calls",
};

typedef struct size {
    uint32_t width, height, regiments, armies, ticks;
} size;

typedef struct stress {
    campaign game;
    campaign_ring ring;
    size size;
    uint32_t *army_size;   /* as mustered */
    uint64_t *fingerprint; /* [seq]: written by the writer before it publishes frame seq */
    atomic_int finished;   /* set after the last publish */
} stress;

/* What a reader learns from one walk of a frame's world, per row number (an index's item). */
typedef struct walked {
    uint32_t cell, army;
} walked;

typedef struct reader {
    stress *s;
    uint32_t id;
    dod__thread thread;
    long bad[N_KINDS];
    long frames, routes, unreachable;
    uint64_t last_seq;
    dod_graph_scratch scratch;
    army_fields fields;
    float *strength, *morale;   /* the AI's answers */
    float *health, *mood;       /* the walk's sums per army */
    uint32_t *count;            /* the walk's regiments per army */
    walked *row;                /* per row number of the walk, up to n_rows of them */
    uint32_t *seen;             /* per row number: times an index listed it this frame */
    uint32_t n_rows, n_walked;
} reader;

/* Every row a frame's world can hold: a tick spawns a fallen regiment's replacement before
 * the fallen is despawned, so at most every regiment twice. */
static uint32_t row_bound(const stress *s)
{
    return 2 * s->size.regiments;
}

/* Every block of every archetype of w: ids less the world's tag (so two worlds of one game
 * compare), and every column. */
static uint64_t hash_world(const dod_world *w)
{
    uint64_t h = 0xCBF29CE484222325ull;
    war_marching_cols m;
    for (uint32_t b = 0; war_marching_block(w, b, &m); ++b)
        for (uint32_t i = 0; i < m.n; ++i) {
            uint64_t id = m.entities[i].bits & 0xFFFFFFFFFFFFull;
            h = tick_hash_words(h, &id, 2);
            h = tick_hash_words(h, &m.location[i], 1);
            h = tick_hash_words(h, &m.army[i], 1);
            h = tick_hash_words(h, &m.health[i], 1);
            h = tick_hash_words(h, &m.mood[i], 1);
            h = tick_hash_words(h, &m.speed[i], 1);
        }
    war_routed_cols r;
    for (uint32_t b = 0; war_routed_block(w, b, &r); ++b)
        for (uint32_t i = 0; i < r.n; ++i) {
            uint64_t id = r.entities[i].bits & 0xFFFFFFFFFFFFull;
            h = tick_hash_words(h, &id, 2);
            h = tick_hash_words(h, &r.location[i], 1);
            h = tick_hash_words(h, &r.army[i], 1);
            h = tick_hash_words(h, &r.health[i], 1);
            h = tick_hash_words(h, &r.mood[i], 1);
        }
    return h;
}

/* Everything a frame holds, in one number. */
static uint64_t fingerprint(const campaign_frame *f)
{
    uint64_t h = hash_world(f->world) ^ strategy_dice(f->tick);
    return tick_hash_index(tick_hash_index(h, f->by_location), f->by_army);
}

/* ---- the readers' checks ---- */

/* The frame's world, walked as its iterator walks it (marching, then routed; blocks and rows
 * in order): each row number's cell and army, and the sums per army (each regiment's fields
 * read from the iterator's columns, not by its row number; the frame is a rows-only copy, so
 * no handle or slot resolves in it). */
static void walk(reader *r, const dod_world *w)
{
    memset(r->health, 0, r->s->size.armies * sizeof(float));
    memset(r->mood, 0, r->s->size.armies * sizeof(float));
    memset(r->count, 0, r->s->size.armies * sizeof(uint32_t));
    r->n_walked = 0;
    dod_world_iter it;
    war_placed_cols c;
    for (war_placed_begin(&it, w); war_placed_next(&it, &c);)
        for (uint32_t i = 0; i < c.n; ++i) {
            uint32_t a = c.army[i].id;
            if (r->n_walked >= r->n_rows || a >= r->s->size.armies) {
                ++r->bad[INDEX];
                continue;
            }
            r->row[r->n_walked++] = (walked){ c.location[i].cell, a };
            r->health[a] += DOD_FIELD(&it, war, health)[i].hp;
            r->mood[a] += DOD_FIELD(&it, war, mood)[i].value;
            r->count[a]++;
        }
}

/* Each walked regiment once: as many items as the walk met, each a row number of the walk, in
 * the row of its key, in walk order (ascending) within its row. */
static void check_index(reader *r, const dod_csr *idx, int by_army)
{
    if (idx->n_items != r->n_walked || dod_csr_check(idx, r->n_walked) != DOD_OK) {
        ++r->bad[INDEX];
        return;
    }
    memset(r->seen, 0, r->n_walked * sizeof(uint32_t));
    for (uint32_t row = 0; row < idx->n_rows; ++row)
        for (uint32_t k = idx->offsets[row]; k < idx->offsets[row + 1]; ++k) {
            uint32_t item = idx->items[k];
            const walked *e = &r->row[item];
            uint32_t key = by_army ? e->army : e->cell;
            r->bad[INDEX] += key != row || r->seen[item] != 0;
            r->seen[item] = 1;
            r->bad[ORDER] += k > idx->offsets[row] && item <= idx->items[k - 1];
        }
}

static void check_armies(reader *r, const campaign_frame *f)
{
    r->bad[CALLS] += campaign_army_report(f, &r->fields, r->strength, r->morale) != DOD_OK;
    for (uint32_t a = 0; a < r->s->size.armies; ++a) {
        uint32_t len = dod_csr_row_len(f->by_army, a);
        /* Stored before comparing: C evaluates m / len in double on s390x and in long double
         * on x87 (FLT_EVAL_METHOD 1 and 2); the assignment rounds to float as the job's
         * store did. */
        float morale = len ? r->mood[a] / (float)len : 0.0f;
        r->bad[REDUCE] += r->health[a] != r->strength[a] || morale != r->morale[a];
        r->bad[ARMIES] += len != r->s->army_size[a] || r->count[a] != len;
    }
}

/* The UI's muster of the cell where the frame's first listed regiment stands, against the walk
 * (the cell's regiments in walk order). */
static void check_muster(reader *r, campaign_frame *f)
{
    if (f->by_location->n_items == 0)
        return;
    uint32_t cell = r->row[f->by_location->items[0]].cell, n = 0;
    float hp = 0.0f, walked_hp = 0.0f;
    uint32_t listed = campaign_muster_at(f, cell, &hp);
    war_placed_cols c;
    dod_world_iter it;
    for (war_placed_begin(&it, f->world); war_placed_next(&it, &c);)
        for (uint32_t i = 0; i < c.n; ++i)
            if (c.location[i].cell == cell) {
                walked_hp += DOD_FIELD(&it, war, health)[i].hp;
                ++n;
            }
    r->bad[REDUCE] += listed != n || hp != walked_hp;
}

static void check_routes(reader *r, campaign_frame *f)
{
    for (uint32_t k = 0; k < ROUTES_PER_FRAME; ++k) {
        map_march o = campaign_order_march(&r->s->game, f, f->tick * 64 + r->id * 8 + k);
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
    campaign_frame f = campaign_frame_of(&r->s->game, &r->s->ring, held);
    uint64_t recorded = r->s->fingerprint[held->seq];
    r->bad[SEQ] += f.tick != held->seq;
    r->bad[INTACT] += fingerprint(&f) != recorded;
    long wrong = r->bad[INDEX];
    walk(r, f.world);
    check_index(r, f.by_location, 0);
    check_index(r, f.by_army, 1);
    if (r->bad[INDEX] == wrong) { /* the jobs trust the indexes: each item a live regiment */
        check_armies(r, &f);
        check_muster(r, &f);
        check_routes(r, &f);
    }
    r->bad[SEQ] += f.tick != held->seq; /* still the same frame */
    r->bad[INTACT] += fingerprint(&f) != recorded;
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
    dod_status st = campaign_run(&s->game, t);
    dod_frame next = { 0 };
    if (st == DOD_OK)
        st = tick_begin(s->ring.frames, &next, busy);
    if (st != DOD_OK)
        return st;
    st = campaign_fill(&s->game, dod_frame_world(&next), &s->ring.slot[next.slot], next.seq);
    if (st != DOD_OK) {
        dod_frames_cancel(s->ring.frames, &next);
        return st;
    }
    campaign_frame f = campaign_frame_of(&s->game, &s->ring, &next);
    s->fingerprint[next.seq] = fingerprint(&f);
    return dod_frames_publish(s->ring.frames, &next);
}

/* Returns how many reader threads started; all READERS are to be finished either way. */
static uint32_t start_readers(stress *s, reader *r)
{
    uint32_t armies = s->size.armies, n_rows = row_bound(s);
    for (uint32_t i = 0; i < READERS; ++i) {
        r[i] = (reader){ .s = s, .id = i, .n_rows = n_rows };
        dod_graph_scratch_init(&r[i].scratch, NULL);
        r[i].strength = (float *)malloc(armies * sizeof(float));
        r[i].morale = (float *)malloc(armies * sizeof(float));
        r[i].health = (float *)malloc(armies * sizeof(float));
        r[i].mood = (float *)malloc(armies * sizeof(float));
        r[i].count = (uint32_t *)malloc(armies * sizeof(uint32_t));
        r[i].row = (walked *)malloc(n_rows * sizeof(walked));
        r[i].seen = (uint32_t *)malloc(n_rows * sizeof(uint32_t));
    }
    for (uint32_t i = 0; i < READERS; ++i)
        if (!r[i].strength || !r[i].morale || !r[i].health || !r[i].mood || !r[i].count ||
            !r[i].row || !r[i].seen ||
            dod_graph_scratch_reserve(&r[i].scratch, map_cells(&s->game.map)) != DOD_OK ||
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
            CHECK_EQ(r[i].last_seq, s->size.ticks); /* every reader saw the last frame */
        }
        for (int k = 0; k < N_KINDS; ++k)
            bad[k] += r[i].bad[k];
        frames += r[i].frames;
        routes += r[i].routes;
        unreachable += r[i].unreachable;
        dod_graph_scratch_free(&r[i].scratch);
        army_fields_free(&r[i].fields);
        free(r[i].strength);
        free(r[i].morale);
        free(r[i].health);
        free(r[i].mood);
        free(r[i].count);
        free(r[i].row);
        free(r[i].seen);
    }
    for (int k = 0; k < N_KINDS; ++k)
        tick_report_kind(kind_name[k], bad[k]);
    CHECK(routes > unreachable);
    printf("test_world_tick_stress: %u ticks, %ld frame reads by %d readers, %ld routes (%ld "
           "unreachable)\n", s->size.ticks, frames, READERS, routes, unreachable);
}

/* Every live handle of g, in walk order, into out (n of them: every regiment); returns out. */
static dod_entity *handles(const campaign *g, dod_entity *out)
{
    dod_world_iter it;
    war_placed_cols c;
    uint32_t n = 0;
    for (war_placed_begin(&it, g->live); out && war_placed_next(&it, &c); n += c.n)
        memcpy(out + n, c.entities, c.n * sizeof(dod_entity));
    return out;
}

/* ---- the run the readers watch ---- */

/* The fingerprint of the latest frame of r. */
static uint64_t last_frame(const campaign *g, const campaign_ring *r)
{
    dod_frame last = { 0 };
    CHECK_OK(dod_frames_acquire(r->frames, &last));
    campaign_frame f = campaign_frame_of(g, r, &last);
    uint64_t h = last.data ? fingerprint(&f) : 0;
    CHECK_OK(dod_frames_release(r->frames, &last));
    return h;
}

/* Returns the hash of the world and indexes of the last frame (0 when the run failed). */
static uint64_t watched_run(stress *s)
{
    const size *z = &s->size;
    CHECK_OK(campaign_create(&s->game, z->width, z->height, z->regiments, z->armies,
                             POOL_THREADS));
    CHECK_OK(campaign_ring_create(&s->ring, &s->game, READERS + 2));
    s->army_size = (uint32_t *)calloc(z->armies, sizeof(uint32_t));
    s->fingerprint = (uint64_t *)calloc(z->ticks + 1, sizeof(uint64_t));
    dod_entity *mustered = handles(&s->game, (dod_entity *)malloc(z->regiments * sizeof(dod_entity)));
    atomic_init(&s->finished, 0);
    if (check_failed || !s->army_size || !s->fingerprint || !mustered) {
        free(mustered);
        return 0;
    }
    for (uint32_t k = 0; k < z->regiments; ++k)
        s->army_size[war_get_army(s->game.live, mustered[k])->id]++;
    /* march, morale (and its routs), losses | reinforce, deaths: what world_tick.h says */
    static const uint32_t phase[] = { 0, 0, 0, 1, 1 };
    CHECK_EQ(dod_schedule_phase_count(s->game.schedule), 2);
    for (uint32_t k = 0; k < 5; ++k)
        CHECK_EQ(dod_schedule_phase_of(s->game.schedule, k), phase[k]);

    reader r[READERS];
    uint32_t started = start_readers(s, r);
    CHECK_EQ(started, READERS);
    long busy = 0, whole = 0;
    for (uint64_t t = 1; t <= z->ticks; ++t) {
        CHECK_OK(stress_tick(s, t, &busy));
        whole += war_marching_count(s->game.live) + war_routed_count(s->game.live) == z->regiments;
    }
    atomic_store(&s->finished, 1);
    CHECK_EQ(busy, 0);
    CHECK_EQ(whole, (long)z->ticks); /* every tick replaced each regiment that fell */
    finish_readers(s, r, started);

    uint32_t fallen = 0;
    for (uint32_t k = 0; k < z->regiments; ++k)
        fallen += !dod_world_alive(s->game.live, mustered[k]);
    printf("test_world_tick_stress: after %u ticks %u of %u regiments routed, %u of the first "
           "fell and were replaced\n", z->ticks, war_routed_count(s->game.live), z->regiments,
           fallen);
    CHECK(war_routed_count(s->game.live) > 0);
    CHECK(fallen > 0);
    free(mustered);
    return last_frame(&s->game, &s->ring);
}

/* ---- determinism: the same game, no readers, on every thread count ---- */

/* The fingerprint of the frame of the last tick, or 0 when something failed. */
static uint64_t quiet_run(const size *z, uint32_t threads)
{
    static campaign g;
    static campaign_ring ring;
    dod_status st = campaign_create(&g, z->width, z->height, z->regiments, z->armies, threads);
    if (st == DOD_OK)
        st = campaign_ring_create(&ring, &g, 2);
    for (uint64_t t = 1; st == DOD_OK && t <= z->ticks; ++t)
        st = campaign_run(&g, t);
    if (st == DOD_OK)
        st = campaign_publish(&g, &ring, z->ticks);
    CHECK_OK(st);
    uint64_t h = st == DOD_OK ? last_frame(&g, &ring) : 0;
    campaign_ring_destroy(&ring);
    campaign_destroy(&g);
    return h;
}

int main(void)
{
    static stress s; /* static: zeroed, and its frame ring is too big for some stacks */
    uint32_t scale = test_scale();
    s.size = (size){ 64 * scale, 64, 24576 * scale, 32 * scale, 48 * scale };
    uint64_t watched = watched_run(&s);
    campaign_ring_destroy(&s.ring);
    campaign_destroy(&s.game);
    free(s.army_size);
    free(s.fingerprint);
    CHECK(watched != 0);
    for (uint32_t threads = 0; threads <= 3; ++threads) /* 0: no pool, the calling thread */
        if (quiet_run(&s.size, threads) != watched) {
            fprintf(stderr, "  %u pool threads: another world than the watched run's\n", threads);
            CHECK(0);
        }
    return check_summary("test_world_tick_stress");
}
