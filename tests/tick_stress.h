/* What the two strategy-tick stress tests share (test_tick_stress.c, the tick on a table;
 * test_world_tick_stress.c, the tick on the world): hashes for fingerprints, the route check,
 * a reader's loop over the published frames, and the report of a kind of check. Include after
 * examples/strategy_map.h. */
#ifndef DOD_TEST_TICK_STRESS_H
#define DOD_TEST_TICK_STRESS_H

#include <stdatomic.h>
#include <string.h>
#include "check.h"
#include "thread_yield.h"

/* FNV-1a over n 4-byte words (any alignment). */
static inline uint64_t tick_hash_words(uint64_t h, const void *words, uint32_t n)
{
    const unsigned char *p = (const unsigned char *)words;
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t v;
        memcpy(&v, p + (size_t)i * 4, 4);
        h = (h ^ v) * 0x100000001B3ull;
    }
    return h;
}

static inline uint64_t tick_hash_index(uint64_t h, const dod_csr *idx)
{
    h = tick_hash_words(h, idx->offsets, idx->n_rows + 1);
    return tick_hash_words(h, idx->items, idx->n_items);
}

/* How many things are wrong with the route in s->order that a search for march o found at
 * `cost`: it must walk the map from o's source to its target through cells the march may
 * enter, costing what the search says. */
static inline long tick_route_faults(const dod_graph_scratch *s, map_march *o, float cost)
{
    const uint32_t *p = s->order;
    uint32_t n = s->n_order;
    long bad = p[0] != o->from || p[n - 1] != o->to;
    float sum = 0.0f;
    for (uint32_t i = 0; i + 1 < n; ++i) {
        float step = map_step_cost(o->map, p[i], p[i + 1]);
        bad += step < 0.0f || !map_may_enter(o, p[i + 1]);
        sum += step;
    }
    float diff = sum > cost ? sum - cost : cost - sum;
    return bad + (diff > 1e-3f * (1.0f + cost));
}

/* A reader's loop: acquire each new frame, check it, release it, until `finished` is set and
 * the last frame was seen. *last_seq is the last frame checked; a failed acquire or release
 * counts in *bad_calls. */
typedef void (*tick_check_fn)(void *reader, const dod_frame *held);

static inline void tick_read_frames(dod_frames *frames, atomic_int *finished, tick_check_fn check,
                                    void *reader, uint64_t *last_seq, long *n_frames,
                                    long *bad_calls)
{
    for (;;) {
        /* `finished` first: a frame published before it was set is still seen below */
        int done = atomic_load(finished);
        if (dod_frames_latest_seq(frames) <= *last_seq) {
            if (done)
                return;
            test_thread_yield();
            continue;
        }
        dod_frame held = { 0 };
        if (dod_frames_acquire(frames, &held) != DOD_OK) {
            ++*bad_calls;
            return;
        }
        check(reader, &held);
        *last_seq = held.seq;
        ++*n_frames;
        *bad_calls += dod_frames_release(frames, &held) != DOD_OK;
    }
}

/* The writer's begin: retried while every slot is held (counted in *busy). */
static inline dod_status tick_begin(dod_frames *frames, dod_frame *next, long *busy)
{
    dod_status st;
    while ((st = dod_frames_begin(frames, next)) == DOD_E_BUSY) {
        ++*busy;
        test_thread_yield();
    }
    return st;
}

/* One CHECK for a kind of check over all the readers, its failures printed first. */
static inline void tick_report_kind(const char *kind, long failures)
{
    if (failures)
        fprintf(stderr, "  %s: %ld failed checks\n", kind, failures);
    check_report(failures == 0, __FILE__, __LINE__, kind);
}

#endif /* DOD_TEST_TICK_STRESS_H */
