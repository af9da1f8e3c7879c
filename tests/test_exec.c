/* The built-in thread pool: every index runs exactly once, for any task count, on any number
 * of threads; creation validates and cleans up after every failed allocation. */
#include <dod/exec.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "exec_internal.h"

typedef struct hits {
    unsigned char *seen; /* one counter per index; each task writes only its own */
    uint32_t n;
} hits;

static void mark(void *arg, uint32_t index)
{
    hits *h = (hits *)arg;
    if (index < h->n)
        h->seen[index]++;
}

/* Run n tasks and check each index ran exactly once. */
static int runs_each_once(const dod_executor *e, uint32_t n)
{
    hits h;
    h.n = n;
    h.seen = (unsigned char *)calloc(n ? n : 1, 1);
    e->run(e->ctx, n, mark, &h);
    int ok = 1;
    for (uint32_t i = 0; i < n; ++i)
        ok = ok && h.seen[i] == 1;
    free(h.seen);
    return ok;
}

static void never(void *arg, uint32_t index)
{
    (void)index;
    *(int *)arg = 1;
}

static void test_runs(uint32_t n_threads)
{
    dod_threadpool *pool = NULL;
    CHECK_OK(dod_threadpool_create(&pool, n_threads, NULL));
    dod_executor e = dod_threadpool_executor(pool);
    CHECK(e.run != NULL);
    CHECK(e.ctx == pool);
    CHECK_EQ(e.n_threads, n_threads);

    int called = 0;
    e.run(e.ctx, 0, never, &called);
    CHECK_EQ(called, 0);
    CHECK(runs_each_once(&e, 1));
    CHECK(runs_each_once(&e, 2));
    CHECK(runs_each_once(&e, n_threads + 1));
    CHECK(runs_each_once(&e, 10007));
    /* Many jobs back to back: no lost wake-up, no task of one job leaking into the next. */
    int all = 1;
    for (uint32_t r = 0; r < 300; ++r)
        all = all && runs_each_once(&e, 1 + r % 17);
    CHECK(all);
    dod_threadpool_destroy(pool);
}

/* Tasks really run at once: with 2+ threads, two tasks that each wait for the other finish. */
typedef struct rendezvous {
    atomic_int arrived[2];
    int met;
} rendezvous;

static void meet(void *arg, uint32_t index)
{
    rendezvous *r = (rendezvous *)arg;
    atomic_store(&r->arrived[index], 1);
    /* Bounded spin: if the pool were serial the partner never arrives and we give up. */
    for (long spin = 0; spin < 400000000L; ++spin)
        if (atomic_load(&r->arrived[1 - index]))
            break;
    if (atomic_load(&r->arrived[1 - index]) && index == 0)
        r->met = 1;
}

static void test_parallel(void)
{
    dod_threadpool *pool = NULL;
    CHECK_OK(dod_threadpool_create(&pool, 2, NULL));
    dod_executor e = dod_threadpool_executor(pool);
    rendezvous r;
    atomic_init(&r.arrived[0], 0);
    atomic_init(&r.arrived[1], 0);
    r.met = 0;
    e.run(e.ctx, 2, meet, &r);
    CHECK_EQ(r.met, 1);
    dod_threadpool_destroy(pool);
}

static void test_errors(void)
{
    dod_threadpool *pool = (dod_threadpool *)&pool; /* a marker that must stay untouched */
    dod_threadpool *marker = pool;
    CHECK_STATUS(dod_threadpool_create(NULL, 2, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_threadpool_create(&pool, 0, NULL), DOD_E_INVALID);
    CHECK(pool == marker);
    dod_threadpool_destroy(NULL); /* a no-op */

    /* Every allocation of create failed in turn: the status, *pool untouched, no leak. */
    for (uint32_t n = 1; n <= 4; ++n) {
        long walked = 0;
        for (long fail = 0;; ++fail) {
            test_alloc t;
            test_alloc_init(&t);
            test_alloc_fail_after(&t, fail);
            dod_allocator a = test_alloc_get(&t);
            pool = marker;
            dod_status st = dod_threadpool_create(&pool, n, &a);
            if (st == DOD_OK) {
                dod_executor e = dod_threadpool_executor(pool);
                CHECK(runs_each_once(&e, 100));
                dod_threadpool_destroy(pool);
                test_alloc_finish(&t);
                break;
            }
            CHECK_STATUS(st, DOD_E_NOMEM);
            CHECK(pool == marker);
            walked++;
            test_alloc_finish(&t);
        }
        CHECK(walked >= 1);
    }
}

/* Thread creation failing at the k-th worker: DOD_E_SYSTEM, *pool untouched, the workers
 * already started stopped and joined (the sanitizers see any thread or byte left behind). */
static int starts_left;
static int failing_start(dod__thread *thread, dod__thread_fn fn, void *arg)
{
    if (starts_left-- == 0)
        return EAGAIN; /* as pthread_create reports running out of threads */
    return dod__thread_start(thread, fn, arg);
}

static void test_thread_start_failure(void)
{
    int (*real)(dod__thread *, dod__thread_fn, void *) = dod__exec_start_thread;
    dod__exec_start_thread = failing_start;
    for (int k = 0; k < 3; ++k) {
        test_alloc t;
        test_alloc_init(&t);
        dod_allocator a = test_alloc_get(&t);
        dod_threadpool *pool = (dod_threadpool *)&pool;
        dod_threadpool *marker = pool;
        starts_left = k;
        CHECK_STATUS(dod_threadpool_create(&pool, 4, &a), DOD_E_SYSTEM);
        CHECK(pool == marker);
        CHECK_EQ(t.live, 0);
        test_alloc_finish(&t);
    }
    dod__exec_start_thread = real;
    dod_threadpool *pool = NULL;
    CHECK_OK(dod_threadpool_create(&pool, 4, NULL));
    dod_executor e = dod_threadpool_executor(pool);
    CHECK(runs_each_once(&e, 100));
    dod_threadpool_destroy(pool);
}

int main(void)
{
    test_runs(1);
    test_runs(2);
    test_runs(3);
    test_runs(8);
    test_parallel();
    test_errors();
    test_thread_start_failure();
    return check_summary("test_exec");
}
