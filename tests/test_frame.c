#include <dod/frame.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "thread.h"
#include "thread_yield.h"

/* A user payload: WORDS values derived from the frame's seq, then a checksum written last. */
enum { WORDS = 48 };
typedef struct payload {
    uint64_t seq;
    uint64_t word[WORDS];
    uint64_t checksum;
} payload;

static uint64_t word_value(uint64_t seq, uint32_t i)
{
    uint64_t x = seq * 0x9E3779B97F4A7C15ull + i;
    x ^= x >> 29;
    return x * 0xBF58476D1CE4E5B9ull;
}

static uint64_t checksum_of(const payload *p)
{
    uint64_t h = p->seq;
    for (uint32_t i = 0; i < WORDS; ++i)
        h = (h ^ p->word[i]) * 0x100000001B3ull;
    return h;
}

static void fill(payload *p, uint64_t seq)
{
    p->seq = seq;
    for (uint32_t i = 0; i < WORDS; ++i)
        p->word[i] = word_value(seq, i);
    p->checksum = checksum_of(p); /* last */
}

/* Complete (checksum matches) and exactly the frame `seq` names. */
static int intact(const dod_frame *f)
{
    const payload *p = (const payload *)f->data;
    if (p->seq != f->seq || p->checksum != checksum_of(p))
        return 0;
    for (uint32_t i = 0; i < WORDS; ++i)
        if (p->word[i] != word_value(f->seq, i))
            return 0;
    return 1;
}

static int same_handle(const dod_frame *a, const dod_frame *b)
{
    return a->data == b->data && a->seq == b->seq && a->slot == b->slot && a->role == b->role &&
           a->owner == b->owner;
}

static void test_create_errors(void)
{
    payload store[DOD_FRAME_MAX_SLOTS + 1];
    void *ptrs[DOD_FRAME_MAX_SLOTS + 1];
    for (uint32_t i = 0; i <= DOD_FRAME_MAX_SLOTS; ++i)
        ptrs[i] = &store[i];
    dod_frames *f = (dod_frames *)&store[0]; /* a sentinel that must stay untouched */
    dod_frames *const sentinel = f;
    CHECK_STATUS(dod_frames_create(NULL, 2, ptrs, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_frames_create(&f, 2, NULL, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_frames_create(&f, 0, ptrs, NULL), DOD_E_RANGE);
    CHECK_STATUS(dod_frames_create(&f, 1, ptrs, NULL), DOD_E_RANGE);
    CHECK_STATUS(dod_frames_create(&f, DOD_FRAME_MAX_SLOTS + 1, ptrs, NULL), DOD_E_RANGE);
    CHECK_STATUS(dod_frames_create_csr(NULL, 2, 1, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_frames_create_csr(&f, 2, 0, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_frames_create_csr(&f, 1, 1, NULL), DOD_E_RANGE);
    CHECK(f == sentinel);
    CHECK_OK(dod_frames_create(&f, DOD_FRAME_MAX_SLOTS, ptrs, NULL));
    CHECK_EQ(dod_frames_slot_count(f), DOD_FRAME_MAX_SLOTS);
    CHECK_EQ(dod_frames_latest_seq(f), 0);
    dod_frames_destroy(f);
    dod_frames_destroy(NULL);
    CHECK_EQ(dod_frames_slot_count(NULL), 0);
    CHECK_EQ(dod_frames_latest_seq(NULL), 0);
}

/* Every allocation of create and create_csr failed in turn: the status, *frames untouched,
 * nothing leaked; then success once the walk runs past the last allocation. */
static void test_alloc_failures(void)
{
    payload store[2];
    void *ptrs[2] = { &store[0], &store[1] };
    for (int which = 0; which < 2; ++which) {
        int succeeded = 0;
        for (long n = 0; n < 8 && !succeeded; ++n) {
            test_alloc t;
            test_alloc_init(&t);
            test_alloc_fail_after(&t, n);
            dod_allocator a = test_alloc_get(&t);
            dod_frames *f = NULL;
            dod_status st = which == 0 ? dod_frames_create(&f, 2, ptrs, &a)
                                       : dod_frames_create_csr(&f, 3, 2, &a);
            if (st == DOD_OK) {
                succeeded = 1;
                CHECK_EQ(t.failed, 0);
                test_alloc_fail_after(&t, -1);
                CHECK_EQ(n, which == 0 ? 1 : 2); /* create: one block; create_csr: two */
                if (which == 1) {
                    /* the dod_csr payloads use the same allocator and are freed by destroy */
                    dod_frame w = { 0 };
                    CHECK_OK(dod_frames_begin(f, &w));
                    uint32_t keys[3] = { 1, 0, 1 };
                    CHECK_OK(dod_csr_build(dod_frame_csr(&w, 1), 2, keys, 4, 3));
                    CHECK_OK(dod_frames_publish(f, &w));
                }
                dod_frames_destroy(f);
            } else {
                CHECK_STATUS(st, DOD_E_NOMEM);
                CHECK(f == NULL);
            }
            test_alloc_finish(&t);
        }
        CHECK(succeeded);
    }
}

static void test_misuse(void)
{
    payload store[3], other_store[2];
    void *ptrs[3] = { &store[0], &store[1], &store[2] };
    void *other_ptrs[2] = { &other_store[0], &other_store[1] };
    dod_frames *f, *other;
    CHECK_OK(dod_frames_create(&f, 3, ptrs, NULL));
    CHECK_OK(dod_frames_create(&other, 2, other_ptrs, NULL));

    dod_frame r = { 0 }, w = { 0 }, empty = { 0 };
    CHECK_STATUS(dod_frames_acquire(f, &r), DOD_E_STATE); /* nothing published yet */
    CHECK(same_handle(&r, &empty));
    CHECK_STATUS(dod_frames_acquire(NULL, &r), DOD_E_INVALID);
    CHECK_STATUS(dod_frames_acquire(f, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_frames_release(f, &r), DOD_E_STATE); /* never acquired */
    CHECK_STATUS(dod_frames_release(NULL, &r), DOD_E_INVALID);
    CHECK_STATUS(dod_frames_release(f, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_frames_publish(f, &w), DOD_E_STATE); /* never begun */
    CHECK_STATUS(dod_frames_cancel(f, &w), DOD_E_STATE);
    CHECK_STATUS(dod_frames_begin(NULL, &w), DOD_E_INVALID);
    CHECK_STATUS(dod_frames_begin(f, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_frames_publish(NULL, &w), DOD_E_INVALID);
    CHECK_STATUS(dod_frames_publish(f, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_frames_cancel(NULL, &w), DOD_E_INVALID);
    CHECK_STATUS(dod_frames_cancel(f, NULL), DOD_E_INVALID);

    CHECK_OK(dod_frames_begin(f, &w));
    CHECK_EQ(w.seq, 1);
    CHECK(w.data == ptrs[w.slot]);
    dod_frame w_copy = w, w2 = { 0 };
    CHECK_STATUS(dod_frames_begin(f, &w2), DOD_E_STATE); /* one frame begun at a time */
    CHECK(same_handle(&w2, &empty));
    CHECK_STATUS(dod_frames_release(f, &w), DOD_E_STATE); /* the writer's handle */
    CHECK_STATUS(dod_frames_publish(other, &w), DOD_E_STATE); /* another object's */
    CHECK(same_handle(&w, &w_copy));
    fill((payload *)w.data, w.seq);
    CHECK_OK(dod_frames_publish(f, &w));
    CHECK(same_handle(&w, &empty));
    CHECK_STATUS(dod_frames_publish(f, &w), DOD_E_STATE);  /* publish twice */
    CHECK_STATUS(dod_frames_publish(f, &w_copy), DOD_E_STATE); /* a stale copy */
    CHECK_EQ(dod_frames_latest_seq(f), 1);

    CHECK_OK(dod_frames_acquire(f, &r));
    CHECK_EQ(r.seq, 1);
    CHECK(intact(&r));
    dod_frame r_copy = r;
    CHECK_STATUS(dod_frames_acquire(f, &r), DOD_E_STATE); /* the handle is holding */
    CHECK(same_handle(&r, &r_copy));
    CHECK_STATUS(dod_frames_release(other, &r), DOD_E_STATE); /* not acquired from other */
    CHECK_STATUS(dod_frames_publish(f, &r), DOD_E_STATE);     /* a reader's handle */
    CHECK_STATUS(dod_frames_begin(f, &r), DOD_E_STATE);       /* not an empty handle */
    CHECK(same_handle(&r, &r_copy));
    CHECK_OK(dod_frames_release(f, &r));
    CHECK(same_handle(&r, &empty));
    CHECK_STATUS(dod_frames_release(f, &r), DOD_E_STATE); /* release twice */

    /* cancel: the seq is not used and the slot can be begun again */
    CHECK_OK(dod_frames_begin(f, &w));
    CHECK_EQ(w.seq, 2);
    uint32_t cancelled_slot = w.slot;
    CHECK_OK(dod_frames_cancel(f, &w));
    CHECK(same_handle(&w, &empty));
    CHECK_STATUS(dod_frames_cancel(f, &w), DOD_E_STATE);
    CHECK_EQ(dod_frames_latest_seq(f), 1);
    CHECK_OK(dod_frames_acquire(f, &r)); /* still frame 1 */
    CHECK_EQ(r.seq, 1);
    CHECK(intact(&r));
    CHECK_OK(dod_frames_release(f, &r));
    CHECK_OK(dod_frames_begin(f, &w));
    CHECK_EQ(w.seq, 2);
    CHECK_EQ(w.slot, cancelled_slot);
    fill((payload *)w.data, w.seq);
    CHECK_OK(dod_frames_publish(f, &w));
    CHECK_EQ(dod_frames_latest_seq(f), 2);

    dod_frames_destroy(other);
    dod_frames_destroy(f);
}

/* The version bound: with n slots, readers can hold n frames (the latest and n - 1 older
 * ones) while the writer keeps publishing; then begin is refused with DOD_E_BUSY until one is released. Held frames never
 * change, and the slot handed out is never one a reader holds. */
static void test_version_bound(void)
{
    for (uint32_t n = 2; n <= DOD_FRAME_MAX_SLOTS; ++n) {
        payload store[DOD_FRAME_MAX_SLOTS];
        void *ptrs[DOD_FRAME_MAX_SLOTS];
        for (uint32_t i = 0; i < n; ++i)
            ptrs[i] = &store[i];
        dod_frames *f;
        CHECK_OK(dod_frames_create(&f, n, ptrs, NULL));
        dod_frame held[DOD_FRAME_MAX_SLOTS];
        memset(held, 0, sizeof held);
        int ok = 1;
        for (uint32_t k = 0; k <= n; ++k) {
            dod_frame w = { 0 };
            if (k == n) {
                /* every slot is held, the latest one included */
                ok &= dod_frames_begin(f, &w) == DOD_E_BUSY;
                ok &= w.role == 0 && w.data == NULL;
                break;
            }
            ok &= dod_frames_begin(f, &w) == DOD_OK;
            for (uint32_t j = 0; j < k; ++j)
                ok &= w.slot != held[j].slot;
            fill((payload *)w.data, w.seq);
            ok &= dod_frames_publish(f, &w) == DOD_OK;
            ok &= dod_frames_acquire(f, &held[k]) == DOD_OK;
            ok &= held[k].seq == k + 1;
            for (uint32_t j = 0; j <= k; ++j)
                ok &= intact(&held[j]);
        }
        /* n frames held; the latest is held[n - 1]. Release the oldest: begin gets its slot. */
        uint32_t oldest_slot = held[0].slot;
        ok &= dod_frames_release(f, &held[0]) == DOD_OK;
        dod_frame w = { 0 };
        ok &= dod_frames_begin(f, &w) == DOD_OK;
        ok &= w.slot == oldest_slot;
        fill((payload *)w.data, w.seq);
        ok &= dod_frames_publish(f, &w) == DOD_OK;
        for (uint32_t j = 1; j < n; ++j) {
            ok &= intact(&held[j]);
            ok &= dod_frames_release(f, &held[j]) == DOD_OK;
        }
        CHECK(ok);
        dod_frames_destroy(f);
    }
    /* two readers on the same frame: the slot stays held until both release */
    payload store[2];
    void *ptrs[2] = { &store[0], &store[1] };
    dod_frames *f;
    CHECK_OK(dod_frames_create(&f, 2, ptrs, NULL));
    dod_frame w = { 0 }, a = { 0 }, b = { 0 };
    CHECK_OK(dod_frames_begin(f, &w));
    fill((payload *)w.data, w.seq);
    CHECK_OK(dod_frames_publish(f, &w));
    CHECK_OK(dod_frames_acquire(f, &a));
    CHECK_OK(dod_frames_acquire(f, &b));
    CHECK_OK(dod_frames_begin(f, &w));
    fill((payload *)w.data, w.seq);
    CHECK_OK(dod_frames_publish(f, &w));
    CHECK_STATUS(dod_frames_begin(f, &w), DOD_E_BUSY);
    CHECK_OK(dod_frames_release(f, &a));
    CHECK_STATUS(dod_frames_begin(f, &w), DOD_E_BUSY);
    CHECK(intact(&b));
    CHECK_OK(dod_frames_release(f, &b));
    CHECK_OK(dod_frames_begin(f, &w));
    CHECK_EQ(w.seq, 3);
    CHECK_OK(dod_frames_cancel(f, &w));
    dod_frames_destroy(f);
}

/* The typed convenience: each slot holds two dod_csr; build straight into one and copy the
 * live index into the other. */
static void test_csr_frames(void)
{
    dod_frames *f;
    CHECK_OK(dod_frames_create_csr(&f, 3, 2, NULL));
    dod_csr live;
    dod_csr_init(&live, NULL);
    uint32_t keys[64];
    dod_frame held = { 0 };
    for (uint32_t tick = 1; tick <= 10; ++tick) {
        for (uint32_t i = 0; i < 64; ++i)
            keys[i] = (i * tick + tick) % 9;
        CHECK_OK(dod_csr_build(&live, 9, keys, 4, 64));
        dod_frame w = { 0 };
        CHECK_OK(dod_frames_begin(f, &w));
        CHECK_OK(dod_csr_build(dod_frame_csr(&w, 0), 9, keys, 4, 64));
        CHECK_OK(dod_csr_copy(dod_frame_csr(&w, 1), &live));
        CHECK_OK(dod_frames_publish(f, &w));
        if (tick == 3)
            CHECK_OK(dod_frames_acquire(f, &held));
        dod_frame r = { 0 };
        CHECK_OK(dod_frames_acquire(f, &r));
        CHECK(dod_csr_equal(dod_frame_csr(&r, 0), &live));
        CHECK(dod_csr_equal(dod_frame_csr(&r, 1), &live));
        CHECK_OK(dod_frames_release(f, &r));
    }
    /* the frame of tick 3 is still tick 3's index */
    for (uint32_t i = 0; i < 64; ++i)
        keys[i] = (i * 3 + 3) % 9;
    CHECK_OK(dod_csr_build(&live, 9, keys, 4, 64));
    CHECK(dod_csr_equal(dod_frame_csr(&held, 0), &live));
    CHECK_OK(dod_frames_release(f, &held));
    dod_csr_free(&live);
    dod_frames_destroy(f);
}

/* The stress test: one writer, several readers, many frames. Readers hold up to two frames
 * at once, check each is complete when acquired, spin a little, and check it again just
 * before release; seqs they see never go backwards. */
enum { READERS = 3, SLOTS = 4, FRAMES = 50000 };

typedef struct stress {
    dod_frames *frames;
    atomic_int done;
    atomic_long failures;
    atomic_long acquires;
} stress;

typedef struct reader_arg {
    stress *s;
    uint32_t id;
} reader_arg;

static void reader_main(void *p)
{
    reader_arg *ra = (reader_arg *)p;
    stress *s = ra->s;
    test_rng rng = { 1000 + ra->id };
    dod_frame held[2];
    memset(held, 0, sizeof held);
    uint64_t last_seq = 0;
    long failures = 0, acquires = 0;
    /* A reader that has not acquired yet goes on after the writer is done: under Wine a
     * thread can start after all the frames are published, and the last one still is. */
    while (!atomic_load_explicit(&s->done, memory_order_relaxed) || acquires == 0) {
        uint32_t h = test_rng_below(&rng, 2);
        if (held[h].role != 0) {
            failures += !intact(&held[h]);
            failures += dod_frames_release(s->frames, &held[h]) != DOD_OK;
            continue;
        }
        if (dod_frames_acquire(s->frames, &held[h]) != DOD_OK)
            continue; /* nothing published yet */
        ++acquires;
        failures += !intact(&held[h]);
        failures += held[h].seq < last_seq;
        last_seq = held[h].seq;
        uint32_t spin = test_rng_below(&rng, 64);
        volatile uint64_t sink = 0;
        for (uint32_t i = 0; i < spin; ++i)
            sink += ((const payload *)held[h].data)->word[i % WORDS];
        (void)sink;
    }
    for (int h = 0; h < 2; ++h)
        if (held[h].role != 0) {
            failures += !intact(&held[h]);
            failures += dod_frames_release(s->frames, &held[h]) != DOD_OK;
        }
    atomic_fetch_add(&s->failures, failures);
    atomic_fetch_add(&s->acquires, acquires);
}

static void test_stress(void)
{
    payload *store = (payload *)calloc(SLOTS, sizeof(payload));
    void *ptrs[SLOTS];
    for (uint32_t i = 0; i < SLOTS; ++i)
        ptrs[i] = &store[i];
    stress s;
    CHECK_OK(dod_frames_create(&s.frames, SLOTS, ptrs, NULL));
    atomic_init(&s.done, 0);
    atomic_init(&s.failures, 0);
    atomic_init(&s.acquires, 0);
    dod__thread th[READERS];
    reader_arg args[READERS];
    for (uint32_t i = 0; i < READERS; ++i) {
        args[i].s = &s;
        args[i].id = i;
        CHECK_EQ(dod__thread_start(&th[i], reader_main, &args[i]), 0);
    }
    long busy = 0, published = 0;
    while (published < FRAMES) {
        dod_frame w = { 0 };
        dod_status st = dod_frames_begin(s.frames, &w);
        if (st == DOD_E_BUSY) {
            ++busy;
            test_thread_yield(); /* let the readers run while every slot is held */
            continue;
        }
        if (st != DOD_OK)
            break;
        fill((payload *)w.data, w.seq);
        if (dod_frames_publish(s.frames, &w) != DOD_OK)
            break;
        ++published;
    }
    atomic_store(&s.done, 1);
    for (uint32_t i = 0; i < READERS; ++i)
        dod__thread_join(&th[i]);
    CHECK_EQ(published, FRAMES);
    CHECK_EQ(dod_frames_latest_seq(s.frames), (uint64_t)FRAMES);
    CHECK_EQ(atomic_load(&s.failures), 0);
    CHECK(atomic_load(&s.acquires) >= READERS);
    printf("  stress: %ld frames, %ld acquires, writer saw DOD_E_BUSY %ld times\n", published,
           atomic_load(&s.acquires), busy);
    dod_frames_destroy(s.frames);
    free(store);
}

/* Normal answers are not reported through the error hook: acquiring before the first publish,
 * beginning while readers hold every other slot. A refusal still is (in a debug build). */
static long hook_calls;

static void count_hook(void *ctx, dod_status status, const char *file, int line,
                       const char *what)
{
    (void)ctx, (void)status, (void)file, (void)line, (void)what;
    hook_calls++;
}

static void test_normal_answers_quiet(void)
{
    payload store[2];
    void *ptrs[2] = { &store[0], &store[1] };
    dod_frames *f;
    CHECK_OK(dod_frames_create(&f, 2, ptrs, NULL));
    dod_set_error_hook(count_hook, NULL);
    dod_frame r = { 0 }, w = { 0 }, x = { 0 };
    CHECK_STATUS(dod_frames_acquire(f, &r), DOD_E_STATE);
    CHECK_OK(dod_frames_begin(f, &w));
    CHECK_OK(dod_frames_publish(f, &w));
    CHECK_OK(dod_frames_acquire(f, &r));      /* holds the latest */
    CHECK_OK(dod_frames_begin(f, &w));
    CHECK_OK(dod_frames_publish(f, &w));      /* the other slot is the latest now */
    dod_frame r2 = { 0 };
    CHECK_OK(dod_frames_acquire(f, &r2));     /* every slot held */
    CHECK_STATUS(dod_frames_begin(f, &x), DOD_E_BUSY);
    CHECK_EQ(hook_calls, 0);
    CHECK_STATUS(dod_frames_release(f, &x), DOD_E_STATE); /* a refusal: reported */
#if DOD_DEBUG
    CHECK_EQ(hook_calls, 1);
#endif
    dod_set_error_hook(NULL, NULL);
    CHECK_OK(dod_frames_release(f, &r));
    CHECK_OK(dod_frames_release(f, &r2));
    dod_frames_destroy(f);
}

int main(void)
{
    test_create_errors();
    test_alloc_failures();
    test_misuse();
    test_normal_answers_quiet();
    test_version_bound();
    test_csr_frames();
    test_stress();
    return check_summary("frame");
}
