/* bench_frames: the seed's snapshot complaint, measured.
 *
 * 1. Runs examples/strategy_tick in quick mode and appends its per-tick figures (move, table
 *    copy, index rebuild, publish, AI / path / UI worker times) to bench/results/frames.jsonl.
 * 2. Alternating in one process, the snapshot the naive game took (a deep copy of the
 *    vector-of-vectors index, here an array of {ptr, len, cap} growable lists, under a
 *    pthread mutex) against handing out a dod frame: begin + publish when the index is built
 *    straight into the frame, and dod_csr_copy + publish when it is copied from live data.
 *    Reader threads acquire and release frames the whole time; the largest acquire latency
 *    they saw is reported (acquire is one fetch_add: they never wait for the writer).
 * Prints publish / deep copy and PASS or FAIL for <= 0.05. Exits 0 on a timing miss; non-zero
 * only when something failed. */
#define _POSIX_C_SOURCE 200809L
#include <dod/dod.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench.h"
#include "regiments.h"

int strategy_tick_main(int argc, char **argv, FILE *jsonl);

/* ---- the naive index: one growable list per location ---- */
typedef struct list {
    uint32_t *ptr;
    uint32_t len, cap;
} list;

static int naive_push(list *l, uint32_t v)
{
    if (l->len == l->cap) {
        uint32_t cap = l->cap ? l->cap * 2 : 1; /* grow like std::vector: 1, 2, 4, 8, ... */
        uint32_t *p = (uint32_t *)malloc((size_t)cap * sizeof(uint32_t));
        if (!p)
            return 0;
        if (l->len)
            memcpy(p, l->ptr, (size_t)l->len * sizeof(uint32_t));
        free(l->ptr);
        l->ptr = p;
        l->cap = cap;
    }
    l->ptr[l->len++] = v;
    return 1;
}

static void naive_free(list *lists, uint32_t n)
{
    for (uint32_t i = 0; lists && i < n; ++i)
        free(lists[i].ptr);
    free(lists);
}

/* The snapshot the naive game takes for a worker: a deep copy, under the world's mutex. */
static list *naive_snapshot(const list *src, uint32_t n, pthread_mutex_t *mutex)
{
    pthread_mutex_lock(mutex);
    list *dst = (list *)malloc((size_t)n * sizeof(list));
    for (uint32_t i = 0; dst && i < n; ++i) {
        dst[i] = src[i];
        dst[i].ptr = NULL;
        if (src[i].cap) {
            dst[i].ptr = (uint32_t *)malloc((size_t)src[i].cap * sizeof(uint32_t));
            if (dst[i].ptr)
                memcpy(dst[i].ptr, src[i].ptr, (size_t)src[i].len * sizeof(uint32_t));
        }
    }
    pthread_mutex_unlock(mutex);
    return dst;
}

/* ---- readers: acquire, look at the frame, release, as fast as they can ---- */
typedef struct readers {
    dod_frames *frames;
    atomic_int stop;
    double max_ns[2];
    long acquires[2], over_1us[2], failures[2];
} readers;

typedef struct reader_arg {
    readers *r;
    int id;
} reader_arg;

static void *reader_main(void *p)
{
    reader_arg *a = (reader_arg *)p;
    readers *r = a->r;
    while (!atomic_load_explicit(&r->stop, memory_order_relaxed)) {
        dod_frame h = { 0 };
        double t0 = bench_now_ms();
        dod_status st = dod_frames_acquire(r->frames, &h);
        double ns = (bench_now_ms() - t0) * 1e6;
        if (st != DOD_OK) {
            r->failures[a->id]++;
            break;
        }
        r->acquires[a->id]++;
        r->over_1us[a->id] += ns > 1000.0;
        r->max_ns[a->id] = ns > r->max_ns[a->id] ? ns : r->max_ns[a->id];
        /* a worker's short job on the frame: who stands in 64 locations */
        const dod_csr *idx = dod_frame_csr(&h, 0);
        uint64_t seen = 0;
        for (uint32_t k = 0; k < 64; ++k) {
            uint32_t loc = (uint32_t)((h.seq * 64 + k) * 2654435761u % idx->n_rows);
            for (const uint32_t *it = dod_csr_row_begin(idx, loc); it != dod_csr_row_end(idx, loc); ++it)
                seen += *it;
        }
        bench_sink += seen;
        if (dod_frames_release(r->frames, &h) != DOD_OK)
            r->failures[a->id]++;
        /* then the worker's other work: the two readers share two cores with the writer */
        struct timespec pause = { 0, 20000 };
        nanosleep(&pause, NULL);
    }
    return NULL;
}

int main(void)
{
    int quick = bench_quick();
    FILE *out = bench_results_open("frames");
    if (!out)
        return 1;

    /* 1. the tick */
    char *tick_argv[] = { (char *)"strategy_tick", (char *)"--quick", NULL };
    int tick_rc = strategy_tick_main(2, tick_argv, out);

    /* 2. snapshot: deep copy against publish */
    const uint32_t n_rows = quick ? 1u << 16 : 1u << 20, n_items = quick ? 6u << 16 : 6u << 20;
    const int reps = quick ? 5 : 9;
    Regiment *regs = (Regiment *)malloc((size_t)n_items * sizeof(Regiment));
    list *live = (list *)calloc(n_rows, sizeof(list));
    if (!regs || !live)
        return 1;
    regiments_generate(regs, n_items, n_rows, DIST_LONGTAIL);
    for (uint32_t i = 0; i < n_items; ++i)
        if (!naive_push(&live[regs[i].location], i))
            return 1;
    pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;

    dod_csr index;
    dod_csr_init(&index, NULL);
    dod_frames *frames = NULL;
    int failed = dod_csr_build(&index, n_rows, &regs[0].location, sizeof(Regiment), n_items) != DOD_OK ||
                 dod_frames_create_csr(&frames, 4, 1, NULL) != DOD_OK;
    /* warm every slot so steady-state copies allocate nothing, and publish a first frame */
    for (int k = 0; k < 4 && !failed; ++k) {
        dod_frame w = { 0 };
        failed |= dod_frames_begin(frames, &w) != DOD_OK ||
                  dod_csr_copy(dod_frame_csr(&w, 0), &index) != DOD_OK ||
                  dod_frames_publish(frames, &w) != DOD_OK;
    }
    if (failed) {
        fprintf(stderr, "bench_frames: setup failed\n");
        return 1;
    }

    readers rd;
    memset(&rd, 0, sizeof rd);
    rd.frames = frames;
    atomic_init(&rd.stop, 0);
    pthread_t th[2];
    reader_arg args[2] = { { &rd, 0 }, { &rd, 1 } };
    for (int i = 0; i < 2; ++i)
        if (pthread_create(&th[i], NULL, reader_main, &args[i]) != 0)
            return 1;

    double deep[16], publish[16], copy_publish[16];
    for (int rep = 0; rep < reps && !failed; ++rep) {
        double t0 = bench_now_ms();
        list *snap = naive_snapshot(live, n_rows, &mutex);
        double t1 = bench_now_ms();
        failed |= snap == NULL;
        naive_free(snap, n_rows);

        /* zero copy: the index was built into the frame; the hand-off is begin + publish */
        dod_frame w = { 0 };
        double t2 = bench_now_ms();
        dod_status st = dod_frames_begin(frames, &w);
        if (st == DOD_OK)
            st = dod_frames_publish(frames, &w);
        double t3 = bench_now_ms();
        failed |= st != DOD_OK;

        /* copy from the live index into the frame, then publish */
        double t4 = bench_now_ms();
        st = dod_frames_begin(frames, &w);
        if (st == DOD_OK)
            st = dod_csr_copy(dod_frame_csr(&w, 0), &index);
        if (st == DOD_OK)
            st = dod_frames_publish(frames, &w);
        double t5 = bench_now_ms();
        failed |= st != DOD_OK;
        deep[rep] = t1 - t0;
        publish[rep] = t3 - t2;
        copy_publish[rep] = t5 - t4;
    }
    atomic_store(&rd.stop, 1);
    for (int i = 0; i < 2; ++i)
        pthread_join(th[i], NULL);

    double deep_med = bench_median(deep, reps), pub_med = bench_median(publish, reps);
    double copy_med = bench_median(copy_publish, reps);
    double ratio = pub_med / deep_med, copy_ratio = copy_med / deep_med;
    double max_ns = rd.max_ns[0] > rd.max_ns[1] ? rd.max_ns[0] : rd.max_ns[1];
    long acquires = rd.acquires[0] + rd.acquires[1], over = rd.over_1us[0] + rd.over_1us[1];
    failed |= rd.failures[0] + rd.failures[1] != 0;

    printf("snapshot of %u locations / %u regiments (median of %d, alternating):\n", n_rows,
           n_items, reps);
    printf("  deep copy of vector-of-vectors under a mutex  %10.3f ms\n", deep_med);
    printf("  frame begin + publish (built into the frame)   %10.6f ms\n", pub_med);
    printf("  frame begin + dod_csr_copy + publish           %10.3f ms  (%.3f x deep copy)\n",
           copy_med, copy_ratio);
    printf("  publish / deep copy = %.2e  %s (<= 0.05)\n", ratio, ratio <= 0.05 ? "PASS" : "FAIL");
    printf("  readers: %ld acquires, max acquire %.0f ns, %ld over 1 us (acquire never waits: "
           "one fetch_add; the tail is the OS descheduling a reader)\n", acquires, max_ns, over);
    fprintf(out,
            "{\"bench\":\"frames\",\"case\":\"snapshot\",\"locations\":%u,\"regiments\":%u,"
            "\"reps\":%d,\"deep_copy_ms\":%.4f,\"publish_ms\":%.6f,\"copy_publish_ms\":%.4f,"
            "\"publish_over_deep\":%.3e,\"copy_publish_over_deep\":%.4f,\"pass\":%s,"
            "\"acquires\":%ld,\"acquire_max_ns\":%.0f,\"acquires_over_1us\":%ld}\n",
            n_rows, n_items, reps, deep_med, pub_med, copy_med, ratio, copy_ratio,
            ratio <= 0.05 ? "true" : "false", acquires, max_ns, over);
    fclose(out);

    dod_frames_destroy(frames);
    dod_csr_free(&index);
    naive_free(live, n_rows);
    free(regs);
    if (tick_rc != 0 || failed) {
        fprintf(stderr, "bench_frames: %s\n", failed ? "a frame operation failed" : "the tick's checks failed");
        return 1;
    }
    return 0;
}
