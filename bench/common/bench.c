#define _POSIX_C_SOURCE 200112L
#include "bench.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

volatile uint64_t bench_sink;

void bench_die(const char *what)
{
    fprintf(stderr, "benchmark failed: %s\n", what);
    exit(1);
}

static int targets_passed, targets_failed;

void bench_target(const char *what, double r, double limit)
{
    int ok = r >= 0 && r <= limit;
    targets_passed += ok;
    targets_failed += !ok;
    printf("%s %-62s %.3f (target <= %.2f)\n", ok ? "PASS" : "FAIL", what, r, limit);
}

void bench_targets(int *pass, int *fail)
{
    *pass = targets_passed;
    *fail = targets_failed;
}

double bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

int bench_quick(void)
{
    const char *q = getenv("DOD_BENCH_QUICK");
    return q && *q && strcmp(q, "0") != 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_sort(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
}

double bench_min(const double *v, int n)
{
    double m = v[0];
    for (int i = 1; i < n; ++i)
        if (v[i] < m)
            m = v[i];
    return m;
}

double bench_median(const double *v, int n)
{
    double *t = (double *)malloc((size_t)n * sizeof *t);
    memcpy(t, v, (size_t)n * sizeof *t);
    bench_sort(t, n);
    double m = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
    free(t);
    return m;
}

static void *count_alloc(void *ctx, size_t size, size_t align)
{
    bench_counter *c = (bench_counter *)ctx;
    dod_allocator heap = dod_heap_allocator();
    void *p = heap.alloc(heap.ctx, size, align);
    if (p) {
        c->allocs++;
        c->live_bytes += size;
        if (c->live_bytes > c->peak_bytes)
            c->peak_bytes = c->live_bytes;
    }
    return p;
}

static void count_free(void *ctx, void *ptr, size_t size)
{
    bench_counter *c = (bench_counter *)ctx;
    dod_allocator heap = dod_heap_allocator();
    c->frees++;
    c->live_bytes -= size;
    heap.free(heap.ctx, ptr, size);
}

dod_allocator bench_counter_allocator(bench_counter *c)
{
    dod_allocator a = { count_alloc, count_free, c };
    return a;
}

FILE *bench_results_open(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.jsonl", DOD_BENCH_RESULTS_DIR, name);
    FILE *f = fopen(path, "a");
    if (!f)
        fprintf(stderr, "bench: cannot open %s\n", path);
    return f;
}

const char *bench_tmp_dir(void)
{
    const char *dir = getenv("DOD_BENCH_TMPDIR");
    if (dir && *dir)
        return dir;
    FILE *probe = fopen("/dev/shm/dod_bench_probe", "wb");
    if (!probe)
        return "/tmp";
    fclose(probe);
    remove("/dev/shm/dod_bench_probe");
    return "/dev/shm";
}
