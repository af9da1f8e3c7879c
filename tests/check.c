#include "check.h"
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#  include <malloc.h>
#endif

long check_passed, check_failed;

void check_report(int ok, const char *file, int line, const char *what)
{
    if (ok) {
        check_passed++;
        return;
    }
    check_failed++;
    if (check_failed <= 50)
        fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
}

int check_summary(const char *suite)
{
    printf("%s: %ld passed, %ld failed\n", suite, check_passed, check_failed);
    return check_failed == 0 && check_passed > 0 ? 0 : 1;
}

typedef struct record { void *ptr; size_t size; } record;

static void *t_alloc(void *ctx, size_t size, size_t align)
{
    test_alloc *t = (test_alloc *)ctx;
    long call = t->calls++;
    check_report(size > 0, __FILE__, __LINE__, "allocation of 0 bytes");
    check_report(align > 0 && (align & (align - 1)) == 0, __FILE__, __LINE__,
                 "alignment is a power of two");
    if (t->fail_at >= 0 && call >= t->fail_at) {
        t->failed++;
        return NULL;
    }
    if (t->n_records == t->cap_records) {
        size_t cap = t->cap_records ? 2 * t->cap_records : 64;
        void *r = realloc(t->records, cap * sizeof(record));
        if (!r)
            return NULL;
        t->records = r;
        t->cap_records = cap;
    }
    size_t a = align < sizeof(void *) ? sizeof(void *) : align;
    void *p = test_aligned_alloc(a, size);
    if (!p)
        return NULL;
    memset(p, 0xA5, size); /* never hand out zeroes the caller might rely on */
    record *rec = (record *)t->records;
    rec[t->n_records].ptr = p;
    rec[t->n_records].size = size;
    t->n_records++;
    t->live++;
    t->live_bytes += size;
    if (t->live_bytes > t->peak_bytes)
        t->peak_bytes = t->live_bytes;
    return p;
}

static void t_free(void *ctx, void *ptr, size_t size)
{
    test_alloc *t = (test_alloc *)ctx;
    record *rec = (record *)t->records;
    for (size_t i = 0; i < t->n_records; ++i) {
        if (rec[i].ptr == ptr) {
            check_report(rec[i].size == size, __FILE__, __LINE__, "free size matches alloc size");
            t->live--;
            t->live_bytes -= rec[i].size;
            rec[i] = rec[--t->n_records];
            test_aligned_free(ptr);
            return;
        }
    }
    check_report(0, __FILE__, __LINE__, "free of a pointer this allocator did not hand out");
}

void test_alloc_init(test_alloc *t)
{
    memset(t, 0, sizeof *t);
    t->fail_at = -1;
}

void test_alloc_fail_after(test_alloc *t, long n)
{
    t->fail_at = n < 0 ? -1 : t->calls + n;
}

dod_allocator test_alloc_get(test_alloc *t)
{
    dod_allocator a = { t_alloc, t_free, t };
    return a;
}

void test_alloc_finish(test_alloc *t)
{
    check_report(t->live == 0, __FILE__, __LINE__, "every allocated block was freed");
    record *rec = (record *)t->records;
    for (size_t i = 0; i < t->n_records; ++i)
        test_aligned_free(rec[i].ptr);
    free(t->records);
    memset(t, 0, sizeof *t);
    t->fail_at = -1;
}

void *test_aligned_alloc(size_t align, size_t size)
{
#ifdef _WIN32
    return _aligned_malloc(size, align);
#else
    return aligned_alloc(align, (size + align - 1) / align * align); /* size: a multiple */
#endif
}

void test_aligned_free(void *p)
{
#ifdef _WIN32
    _aligned_free(p);
#else
    free(p);
#endif
}

uint64_t test_rng_next(test_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint32_t test_rng_below(test_rng *r, uint32_t bound)
{
    return (uint32_t)(((test_rng_next(r) >> 32) * (uint64_t)bound) >> 32);
}

char *test_read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    long len = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (text = (char *)malloc((size_t)len + 1)) != NULL) {
        size_t n = fread(text, 1, (size_t)len, f);
        text[n] = 0;
    }
    if (f)
        fclose(f);
    if (!text)
        fprintf(stderr, "  cannot read %s\n", path);
    CHECK(text != NULL);
    return text;
}

uint32_t test_scale(void)
{
    const char *env = getenv("DOD_TEST_SCALE");
    long v = env ? strtol(env, NULL, 10) : 1;
    return v > 0 && v < 4096 ? (uint32_t)v : 1;
}

int test_list_next(const char **list, char *name, size_t cap)
{
    const char *h = *list;
    if (!*h)
        return 0;
    const char *comma = strchr(h, ',');
    size_t len = comma ? (size_t)(comma - h) : strlen(h);
    snprintf(name, cap, "%.*s", (int)len, h);
    *list = h + len + (comma ? 1 : 0);
    return 1;
}
