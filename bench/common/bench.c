#define _POSIX_C_SOURCE 200112L
#include "bench.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

volatile uint64_t bench_sink;

void bench_die(const char *what)
{
    fprintf(stderr, "benchmark failed: %s\n", what);
    exit(1);
}

double bench_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int env_flag(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

int bench_quick(void)
{
    return env_flag("DOD_BENCH_QUICK");
}

int bench_verbose(void)
{
    return env_flag("DOD_BENCH_VERBOSE");
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

static void *recycle_alloc(void *ctx, size_t size, size_t align)
{
    bench_recycler *r = (bench_recycler *)ctx;
    for (int i = 0; i < r->n; ++i)
        if (r->kept[i].size == size && r->kept[i].align >= align) {
            void *p = r->kept[i].ptr;
            r->kept[i] = r->kept[--r->n];
            return p;
        }
    dod_allocator heap = dod_heap_allocator();
    return heap.alloc(heap.ctx, size, align < 64 ? 64 : align);
}

static void recycle_free(void *ctx, void *ptr, size_t size)
{
    bench_recycler *r = (bench_recycler *)ctx;
    if (r->n < BENCH_RECYCLER_KEEP) {
        r->kept[r->n].ptr = ptr;
        r->kept[r->n].size = size;
        r->kept[r->n].align = 64;
        r->n++;
        return;
    }
    dod_allocator heap = dod_heap_allocator();
    heap.free(heap.ctx, ptr, size);
}

dod_allocator bench_recycler_allocator(bench_recycler *r)
{
    dod_allocator a = { recycle_alloc, recycle_free, r };
    return a;
}

void bench_recycler_free(bench_recycler *r)
{
    dod_allocator heap = dod_heap_allocator();
    while (r->n > 0) {
        --r->n;
        heap.free(heap.ctx, r->kept[r->n].ptr, r->kept[r->n].size);
    }
}

/* ---- the suite: its JSON lines, its targets and their tally ---- */

static struct {
    const char *name;
    FILE *json;
    double t0;
    int passed, missed;
} suite = { "bench", NULL, 0.0, 0, 0 };

static FILE *results_file(const char *name, const char *mode)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.jsonl", DOD_BENCH_RESULTS_DIR, name);
    FILE *f = fopen(path, mode);
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

FILE *bench_begin(const char *name, const char *results)
{
    suite.name = name;
    suite.t0 = bench_now_ms();
    suite.json = results_file(results, "a");
    return suite.json;
}

int bench_end(int status)
{
    if (suite.json)
        fclose(suite.json);
    suite.json = NULL;
    printf("%s: %d targets, %d PASS, %d MISS, %.1f s\n", suite.name,
           suite.passed + suite.missed, suite.passed, suite.missed,
           (bench_now_ms() - suite.t0) / 1000.0);
    return status;
}

void bench_format(char *out, size_t size, double v, const char *unit)
{
    double a = v < 0.0 ? -v : v;
    const char *sep = strcmp(unit, "x") == 0 ? "" : " ";
    if (v != v)
        snprintf(out, size, "n/a");
    else if (sep[0] && a < 1e6 && (double)(long long)v == v) /* a count: 0 allocs, 32 bytes */
        snprintf(out, size, "%lld%s%s", (long long)v, sep, unit);
    else if (a != 0.0 && (a < 0.001 || a >= 1e6))
        snprintf(out, size, "%.3g%s%s", v, sep, unit);
    else
        snprintf(out, size, "%.*f%s%s", a >= 0.1 || a == 0.0 ? 3 : a >= 0.01 ? 4 : 5, v, sep,
                 unit);
}

void bench_format_bound(char *out, size_t size, double bound, const char *unit)
{
    snprintf(out, size, "%g%s%s", bound, strcmp(unit, "x") == 0 ? "" : " ", unit);
}

/* A JSON string: the characters JSON needs escaped are escaped, nothing else. */
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", (unsigned)(unsigned char)*s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static void write_target(FILE *f, const char *name, double measured, const char *unit,
                         bench_direction direction, double bound, int pass)
{
    fprintf(f, "{\"suite\":");
    json_string(f, suite.name);
    fprintf(f, ",\"target\":");
    json_string(f, name);
    fprintf(f, ",\"measured\":%.6g,\"unit\":", measured == measured ? measured : -1.0);
    json_string(f, unit);
    fprintf(f, ",\"direction\":\"%s\",\"bound\":%.6g,\"pass\":%s}\n",
            direction == BENCH_AT_LEAST ? ">=" : "<=", bound, pass ? "true" : "false");
}

int bench_target(const char *unit, double measured, bench_direction direction, double bound,
                 const char *name, ...)
{
    char what[256], m[64], b[64];
    va_list ap;
    va_start(ap, name);
    vsnprintf(what, sizeof what, name, ap);
    va_end(ap);
    int pass = measured == measured && measured >= 0.0 &&
               (direction == BENCH_AT_LEAST ? measured >= bound : measured <= bound);
    suite.passed += pass;
    suite.missed += !pass;
    bench_format(m, sizeof m, measured, unit);
    bench_format_bound(b, sizeof b, bound, unit);
    printf("%s  %s: %s (bound %s %s)\n", pass ? "PASS" : "MISS", what, m,
           direction == BENCH_AT_LEAST ? ">=" : "<=", b);
    if (suite.json)
        write_target(suite.json, what, measured, unit, direction, bound, pass);
    FILE *all = results_file("targets", "a");
    if (all) {
        write_target(all, what, measured, unit, direction, bound, pass);
        fclose(all);
    }
    return pass;
}
