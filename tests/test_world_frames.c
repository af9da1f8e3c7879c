/* Frames whose slots hold worlds (dod_world_frames_create): one writer ticks a live world
 * (spawns, despawns, moves, writes) and publishes a copy of it every tick; READERS threads
 * acquire the latest world and check that it is whole: a ledger entity the writer keeps in
 * every frame holds the sum of every entity's value, their count and the frame's seq, and the
 * readers' own walk of the world (a query made for the live world) must agree, with every
 * row's handle resolving to that row. Run under the thread sanitizer in CI. Then the helper's
 * refusals and allocation failures. DOD_TEST_SCALE (default 1) multiplies the frames. */
#include <dod/world.h>
#include <stdatomic.h>
#include <string.h>
#include "check.h"
#include "thread.h"
#include "thread_yield.h"

enum { READERS = 3, SLOTS = READERS + 2, FRAMES = 2000 };

enum { C_VALUE, C_POS, C_EXTRA, C_LEDGER, N_COMPS };
typedef struct ledger { int64_t total; uint64_t count, seq; } ledger;
static const dod_component_desc COMPS[N_COMPS] = {
    { "value", 8, 8 }, { "pos", 8, 4 }, { "extra", 16, 16 }, { "ledger", sizeof(ledger), 8 },
};
static const uint32_t UNIT[] = { C_VALUE, C_POS };
static const uint32_t HEAVY[] = { C_POS, C_VALUE, C_EXTRA };
static const uint32_t LEDGER[] = { C_LEDGER };
enum { A_UNIT, A_HEAVY, A_LEDGER, N_ARCHS };
static const dod_archetype_desc ARCHS[N_ARCHS] = {
    { .name = "unit", .components = UNIT, .n_components = 2, .first_block_bytes = 1024 },
    { .name = "heavy", .components = HEAVY, .n_components = 3, .capacity = 1024 },
    { .name = "ledger", .components = LEDGER, .n_components = 1, .capacity = 1 },
};

static dod_world_desc desc_of(const dod_allocator *alloc)
{
    dod_world_desc d = { .components = COMPS, .n_components = N_COMPS, .archetypes = ARCHS,
                         .n_archetypes = N_ARCHS, .alloc = alloc };
    return d;
}

typedef struct shared {
    dod_frames *frames;
    dod_query values; /* made for the live world: it fits every copy (same tag) */
    atomic_int done;
    atomic_long failures, frames_read;
} shared;

/* One frame's world, whole: the ledger against a walk of every entity with a value, and every
 * row's handle resolving to its own row. 0 when something is off. */
static int frame_whole(const shared *s, const dod_world *w, uint64_t seq)
{
    dod_world_iter it;
    int64_t total = 0;
    uint64_t count = 0;
    int ok = 1;
    dod_world_iter_init(&it, w, &s->values);
    while (dod_world_next(&it)) {
        const int64_t *v = (const int64_t *)dod_world_field(&it, C_VALUE);
        for (uint32_t r = 0; r < it.n; ++r) {
            total += v[r];
            ok &= dod_world_get(w, it.entities[r], C_VALUE) == (const void *)&v[r];
        }
        count += it.n;
    }
    if (dod_world_count(w, A_LEDGER) != 1)
        return 0;
    void *cols[2];
    if (dod_world_block(w, A_LEDGER, 0, cols) != 1)
        return 0;
    const ledger *l = (const ledger *)cols[1];
    return ok && l->total == total && l->count == count && l->seq == seq &&
           dod_world_count(w, A_UNIT) + dod_world_count(w, A_HEAVY) == count;
}

static void reader_main(void *arg)
{
    shared *s = (shared *)arg;
    long failures = 0, read = 0;
    uint64_t last_seq = 0;
    /* A reader that has read nothing goes on after the writer is done (under Wine a thread
     * can start after the last publish): every reader reads at least the last frame. */
    while (!atomic_load(&s->done) || read == 0) {
        dod_frame f = { 0 };
        if (dod_frames_acquire(s->frames, &f) != DOD_OK) {
            test_thread_yield(); /* nothing published yet */
            continue;
        }
        failures += f.seq < last_seq;
        last_seq = f.seq;
        failures += !frame_whole(s, dod_frame_world_read(&f), f.seq);
        failures += dod_frames_release(s->frames, &f) != DOD_OK;
        ++read;
    }
    atomic_fetch_add(&s->failures, failures);
    atomic_fetch_add(&s->frames_read, read);
}

/* The writer's live world and what it knows of it. */
enum { MAX_LIVE = 3000 };
typedef struct live {
    dod_world *w;
    dod_entity ledger_e;
    dod_entity e[MAX_LIVE];
    uint32_t n;
    test_rng rng;
} live;

static ledger *ledger_of(live *l)
{
    return (ledger *)dod_world_get(l->w, l->ledger_e, C_LEDGER);
}

static int64_t *value_of(live *l, dod_entity e)
{
    return (int64_t *)dod_world_get(l->w, e, C_VALUE);
}

/* One tick: a few spawns, despawns, moves between the two archetypes and writes, the ledger
 * kept true after each. 0 when a call failed. */
static int tick(live *l)
{
    int ok = 1;
    for (uint32_t k = 0; k < 24; ++k) {
        uint32_t op = test_rng_below(&l->rng, 8);
        if ((op < 3 && l->n < MAX_LIVE) || l->n == 0) {
            uint32_t arch = test_rng_below(&l->rng, 4) == 0 ? A_HEAVY : A_UNIT;
            dod_entity e;
            if (dod_world_spawn(l->w, arch, &e) != DOD_OK)
                continue; /* heavy is full */
            int64_t v = (int64_t)test_rng_below(&l->rng, 1000) - 300;
            *value_of(l, e) = v;
            ledger_of(l)->total += v;
            ledger_of(l)->count++;
            l->e[l->n++] = e;
        } else if (op < 5) {
            uint32_t i = test_rng_below(&l->rng, l->n);
            ledger_of(l)->total -= *value_of(l, l->e[i]);
            ledger_of(l)->count--;
            ok &= dod_world_despawn(l->w, l->e[i]) == DOD_OK;
            l->e[i] = l->e[--l->n];
        } else if (op == 5) { /* the value moves with the entity: both archetypes have it */
            dod_entity e = l->e[test_rng_below(&l->rng, l->n)];
            uint32_t to = dod_world_archetype_of(l->w, e) == A_UNIT ? A_HEAVY : A_UNIT;
            dod_status st = dod_world_move(l->w, e, to);
            ok &= st == DOD_OK || st == DOD_E_FULL;
        } else {
            int64_t *v = value_of(l, l->e[test_rng_below(&l->rng, l->n)]);
            int64_t now = (int64_t)test_rng_below(&l->rng, 1000) - 300;
            ledger_of(l)->total += now - *v;
            *v = now;
        }
    }
    return ok;
}

static void test_readers_see_whole_worlds(void)
{
    dod_world_desc d = desc_of(NULL);
    live l;
    memset(&l, 0, sizeof l);
    l.rng.s = 2024;
    CHECK_OK(dod_world_create(&l.w, &d));
    CHECK_OK(dod_world_spawn(l.w, A_LEDGER, &l.ledger_e));
    shared s;
    CHECK_OK(dod_world_frames_create(&s.frames, SLOTS, &d));
    const uint32_t with_value[1] = { C_VALUE };
    CHECK_OK(dod_query_init(&s.values, l.w, with_value, 1, NULL, 0));
    atomic_init(&s.done, 0);
    atomic_init(&s.failures, 0);
    atomic_init(&s.frames_read, 0);
    dod__thread th[READERS];
    for (uint32_t i = 0; i < READERS; ++i)
        CHECK_EQ(dod__thread_start(&th[i], reader_main, &s), 0);
    const long frames = (long)FRAMES * (long)test_scale();
    long published = 0, busy = 0;
    int ok = 1;
    while (published < frames && ok) {
        ok &= tick(&l);
        dod_frame f = { 0 };
        dod_status st = dod_frames_begin(s.frames, &f);
        if (st == DOD_E_BUSY) { /* every other slot held: tick on, publish later */
            ++busy;
            continue;
        }
        ok &= st == DOD_OK;
        ledger_of(&l)->seq = f.seq; /* the live world names the frame it is copied into */
        ok &= dod_world_copy(dod_frame_world(&f), l.w) == DOD_OK;
        ok &= dod_frames_publish(s.frames, &f) == DOD_OK;
        ++published;
    }
    atomic_store(&s.done, 1);
    for (uint32_t i = 0; i < READERS; ++i)
        dod__thread_join(&th[i]);
    CHECK(ok);
    CHECK_EQ(published, frames);
    CHECK_EQ(busy, 0); /* READERS + 2 slots: the writer always finds one */
    CHECK_EQ(atomic_load(&s.failures), 0);
    CHECK(atomic_load(&s.frames_read) >= READERS);
    /* the last frame is the live world, handle for handle */
    dod_frame last = { 0 };
    CHECK_OK(dod_frames_acquire(s.frames, &last));
    CHECK(frame_whole(&s, dod_frame_world_read(&last), last.seq));
    for (uint32_t i = 0; i < l.n; ++i)
        CHECK(*(const int64_t *)dod_world_get(dod_frame_world_read(&last), l.e[i], C_VALUE) ==
              *value_of(&l, l.e[i]));
    CHECK_OK(dod_frames_release(s.frames, &last));
    printf("  %ld frames published, %ld read by %d readers\n", published,
           atomic_load(&s.frames_read), READERS);
    dod_world_frames_destroy(s.frames);
    dod_world_destroy(l.w);
}

/* The payloads are the slots' worlds; refusals leave *frames untouched. */
static void test_create_and_refusals(void)
{
    dod_world_desc d = desc_of(NULL);
    dod_frames *f = NULL;
    CHECK_OK(dod_world_frames_create(&f, 3, &d));
    CHECK_EQ(dod_frames_slot_count(f), 3);
    for (uint32_t s = 0; s < 3; ++s) {
        const dod_world *w = (const dod_world *)dod_frames_payload(f, s);
        CHECK(w != NULL && dod_world_count(w, A_HEAVY) == 0);
    }
    CHECK(dod_frames_payload(f, 3) == NULL);
    dod_world_frames_destroy(f);
    dod_frames *untouched = (dod_frames *)&d;
    CHECK_STATUS(dod_world_frames_create(&untouched, 1, &d), DOD_E_RANGE);
    CHECK_STATUS(dod_world_frames_create(&untouched, DOD_FRAME_MAX_SLOTS + 1, &d), DOD_E_RANGE);
    CHECK_STATUS(dod_world_frames_create(NULL, 2, &d), DOD_E_INVALID);
    CHECK_STATUS(dod_world_frames_create(&untouched, 2, NULL), DOD_E_INVALID);
    dod_component_desc bad = { "bad", 3, 2 };
    dod_world_desc bad_desc = { .components = &bad, .n_components = 1 };
    CHECK_STATUS(dod_world_frames_create(&untouched, 2, &bad_desc), DOD_E_INVALID);
    CHECK(untouched == (dod_frames *)&d);
    dod_world_frames_destroy(NULL);
}

/* Every allocation fails in turn: DOD_E_NOMEM, nothing leaked, *frames untouched. */
static void test_allocation_failures(void)
{
    int made = 0;
    for (long k = 0; k < 64 && !made; ++k) {
        test_alloc ta;
        test_alloc_init(&ta);
        dod_allocator a = test_alloc_get(&ta);
        dod_world_desc d = desc_of(&a);
        test_alloc_fail_after(&ta, k);
        dod_frames *f = NULL;
        dod_status st = dod_world_frames_create(&f, 4, &d);
        if (st == DOD_OK) {
            made = 1;
            CHECK(k > 4); /* four worlds (each several allocations) and the object */
            dod_world_frames_destroy(f);
        } else {
            CHECK_STATUS(st, DOD_E_NOMEM);
            CHECK(f == NULL);
        }
        test_alloc_finish(&ta);
    }
    CHECK(made);
}

int main(void)
{
    test_create_and_refusals();
    test_allocation_failures();
    test_readers_see_whole_worlds();
    return check_summary("test_world_frames");
}
