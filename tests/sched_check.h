/* What the schedule's tests share: a world's content as bytes (to compare two worlds byte for
 * byte), and executors that run tasks out of order. */
#ifndef DOD_TEST_SCHED_CHECK_H
#define DOD_TEST_SCHED_CHECK_H

#include <dod/world_systems.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "world_layout.h"

/* A growable byte string. */
typedef struct sched_bytes {
    unsigned char *p;
    size_t n, cap;
} sched_bytes;

static inline void sched_put(sched_bytes *b, const void *src, size_t n)
{
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n)
            cap *= 2;
        unsigned char *p = (unsigned char *)realloc(b->p, cap);
        CHECK(p != NULL);
        if (!p)
            return;
        b->p = p, b->cap = cap;
    }
    memcpy(b->p + b->n, src, n);
    b->n += n;
}

/* Everything a world holds but addresses and its tag: the entity index (slots carry no tag),
 * its free list, and per archetype its counters and every used block's ids (tag masked) and
 * columns, row by row. Two worlds given the same calls give the same bytes. */
static inline sched_bytes sched_world_bytes(const dod_world *w)
{
    sched_bytes b = { NULL, 0, 0 };
    sched_put(&b, &w->head.n_slots, sizeof w->head.n_slots);
    sched_put(&b, &w->free_head, sizeof w->free_head);
    sched_put(&b, &w->n_free, sizeof w->n_free);
    sched_put(&b, w->head.slots, w->head.n_slots * sizeof *w->head.slots);
    for (uint32_t i = 0; i < w->n_archetypes; ++i) {
        const dod__world_arch *a = &w->arch[i];
        uint32_t used = dod__world_used_blocks(a);
        sched_put(&b, &a->n_rows, sizeof a->n_rows);
        sched_put(&b, &used, sizeof used);
        for (uint32_t blk = 0; blk < used; ++blk) {
            uint32_t n = dod__world_block_rows(a, blk);
            const dod_entity *ids = dod__world_ids(a->place->blocks[blk]);
            sched_put(&b, &n, sizeof n);
            for (uint32_t r = 0; r < n; ++r) {
                uint64_t id = ids[r].bits & 0xFFFFFFFFFFFFull; /* less the tag */
                sched_put(&b, &id, sizeof id);
            }
            for (uint32_t k = 0; k < a->n_cols; ++k)
                sched_put(&b, dod__world_column(a, blk, k), n * a->cols[k].size);
        }
    }
    return b;
}

static inline int sched_same_world(const dod_world *x, const dod_world *y)
{
    sched_bytes a = sched_world_bytes(x), b = sched_world_bytes(y);
    int same = a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
    free(a.p);
    free(b.p);
    return same;
}

/* Executors that run every task once, in another order. */
typedef struct sched_order_exec {
    uint64_t seed;           /* 0: reverse order; else a shuffle seeded from it */
    const dod_executor *pool; /* NULL: on the calling thread; else the shuffled order on it */
    uint32_t *perm;
    uint32_t cap;
    void (*task)(void *arg, uint32_t index);
    void *arg;
} sched_order_exec;

static inline void sched_order_task(void *ctx, uint32_t index)
{
    sched_order_exec *o = (sched_order_exec *)ctx;
    o->task(o->arg, o->perm[index]);
}

static inline void sched_order_run(void *ctx, uint32_t n, void (*task)(void *, uint32_t), void *arg)
{
    sched_order_exec *o = (sched_order_exec *)ctx;
    if (n > o->cap) {
        free(o->perm);
        o->perm = (uint32_t *)malloc(n * sizeof *o->perm);
        o->cap = o->perm ? n : 0;
        CHECK(o->perm != NULL);
        if (!o->perm)
            return;
    }
    for (uint32_t i = 0; i < n; ++i)
        o->perm[i] = o->seed ? i : n - 1 - i;
    if (o->seed) {
        test_rng r = { o->seed++ };
        for (uint32_t i = n; i > 1; --i) {
            uint32_t j = test_rng_below(&r, i), t = o->perm[i - 1];
            o->perm[i - 1] = o->perm[j], o->perm[j] = t;
        }
    }
    o->task = task, o->arg = arg;
    if (o->pool)
        o->pool->run(o->pool->ctx, n, sched_order_task, o);
    else
        for (uint32_t i = 0; i < n; ++i)
            sched_order_task(o, i);
}

static inline dod_executor sched_order_executor(sched_order_exec *o)
{
    dod_executor e;
    e.run = sched_order_run;
    e.ctx = o;
    e.n_threads = o->pool ? o->pool->n_threads : 1;
    return e;
}

#endif
