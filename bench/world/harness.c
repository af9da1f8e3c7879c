/* The suite's plumbing on top of bench.h: variants run alternately, ns per entity (min and
 * median), the printed table and its JSON lines in bench/results/world.jsonl, and the result
 * checks that decide the exit status. */
#include <stdlib.h>
#include <string.h>
#include "world_bench.h"

static FILE *results;
static int failed;

FILE *wb_open(const char *suite)
{
    results = bench_begin(suite, suite);
    return results;
}

int wb_close(void)
{
    results = NULL;
    return bench_end(failed);
}

void wb_alternate(int n_variants, int passes, wb_run_fn prepare, wb_run_fn run, void *ctx,
                  double t[][WB_MAX_PASSES])
{
    for (int p = 0; p < passes; ++p)
        for (int k = 0; k < n_variants; ++k) {
            int v = (k + p) % n_variants;
            if (prepare)
                prepare(ctx, v);
            double t0 = bench_now_ms();
            run(ctx, v);
            t[v][p] = bench_now_ms() - t0;
        }
}

double wb_emit(const char *op, const char *variant, size_t n, double per, const double *ms,
               int passes)
{
    double mn = bench_min(ms, passes) * 1e6 / per, med = bench_median(ms, passes) * 1e6 / per;
    printf("  %-10s %-14s n %8zu  min %8.2f  median %8.2f ns/entity\n", op, variant, n, mn, med);
    if (results)
        fprintf(results,
                "{\"bench\":\"world\",\"op\":\"%s\",\"variant\":\"%s\",\"n\":%zu,"
                "\"ns_min\":%.3f,\"ns_median\":%.3f}\n",
                op, variant, n, mn, med);
    return mn;
}

void wb_emit_bytes(const char *variant, size_t n, double bytes_per_entity)
{
    printf("  %-10s %-14s n %8zu  %8.2f bytes/entity\n", "bytes", variant, n, bytes_per_entity);
    if (results)
        fprintf(results,
                "{\"bench\":\"world\",\"op\":\"bytes\",\"variant\":\"%s\",\"n\":%zu,"
                "\"bytes_per_entity\":%.3f}\n",
                variant, n, bytes_per_entity);
}

void wb_require(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "bench_world: wrong result: %s\n", what);
        failed = 1;
    }
}

void wb_evict_caches(void *ctx, int variant)
{
    enum { EVICT_BYTES = 64 << 20 };
    static unsigned char *junk;
    (void)ctx;
    (void)variant;
    if (!junk) {
        junk = (unsigned char *)wb_alloc(EVICT_BYTES);
        memset(junk, 1, EVICT_BYTES);
    }
    uint64_t sum = 0;
    for (size_t i = 0; i < EVICT_BYTES; i += 64)
        sum += junk[i]++;
    bench_sink += sum;
}

void *wb_alloc(size_t bytes)
{
    dod_allocator heap = dod_heap_allocator();
    void *p = heap.alloc(heap.ctx, bytes ? bytes : 1, DOD_ALIGN);
    if (!p)
        bench_die("bench_world: out of memory");
    return p;
}

void wb_free(void *p, size_t bytes)
{
    dod_allocator heap = dod_heap_allocator();
    if (p)
        heap.free(heap.ctx, p, bytes ? bytes : 1);
}

void wb_check(dod_status st, const char *what)
{
    if (st != DOD_OK) {
        fprintf(stderr, "bench_world: %s: %s\n", what, dod_status_str(st));
        exit(1);
    }
}
