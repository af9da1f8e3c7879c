/* A small assertion and test-allocator kit shared by the tests. */
#ifndef DOD_TEST_CHECK_H
#define DOD_TEST_CHECK_H

#include <dod/base.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

extern long check_passed, check_failed;
void check_report(int ok, const char *file, int line, const char *what);
/* Print "N passed, N failed" for the executable and return its exit code. */
int check_summary(const char *suite);

#define CHECK(cond) check_report((cond) ? 1 : 0, __FILE__, __LINE__, #cond)
#define CHECK_EQ(a, b) CHECK((a) == (b))
#define CHECK_STATUS(expr, want)                                                               \
    do {                                                                                       \
        dod_status check_st_ = (expr);                                                         \
        if (check_st_ != (want))                                                               \
            fprintf(stderr, "  got %s, want %s\n", dod_status_str(check_st_),                  \
                    dod_status_str(want));                                                     \
        check_report(check_st_ == (want), __FILE__, __LINE__, #expr " == " #want);             \
    } while (0)
#define CHECK_OK(expr) CHECK_STATUS(expr, DOD_OK)

/* A counting allocator that can fail its N-th call and checks every free against what it
 * handed out (pointer, size, no double free); `live` reaching 0 means no leak. */
typedef struct test_alloc {
    long calls;     /* alloc calls so far */
    long fail_at;   /* the call number (0-based) that returns NULL; -1 = never */
    long failed;    /* how many calls were failed */
    long live;      /* blocks handed out and not yet freed */
    size_t live_bytes;
    size_t peak_bytes;
    void *records;  /* private: the live blocks */
    size_t n_records, cap_records;
} test_alloc;

void test_alloc_init(test_alloc *t);
/* Fail from the next call on at `n` calls from now (0 = the very next call); -1 = never. */
void test_alloc_fail_after(test_alloc *t, long n);
dod_allocator test_alloc_get(test_alloc *t);
/* Reports a failed check for every block still live, then releases the bookkeeping. */
void test_alloc_finish(test_alloc *t);

/* size bytes aligned to align (a power of two), or NULL; free them with test_aligned_free.
 * (C11's aligned_alloc is not in the Windows C runtime.) */
void *test_aligned_alloc(size_t align, size_t size);
void test_aligned_free(void *p);

/* The project's source file at DOD_SOURCE_DIR-relative `path` (the caller passes the full
 * path), read whole and NUL-terminated, or NULL (with a failed check) when it cannot be read.
 * free() it. */
char *test_read_text(const char *path);

/* The next name of a comma-separated list: copies it into name (cap bytes, NUL-terminated),
 * advances *list past it and its comma; 0 when the list is used up. */
int test_list_next(const char **list, char *name, size_t cap);

/* DOD_TEST_SCALE, the factor by which long property and stress tests multiply their steps: a
 * positive integer below 4096, else 1 (also when it is not set). */
uint32_t test_scale(void);

/* A small deterministic PRNG (splitmix64) for property tests. */
typedef struct test_rng { uint64_t s; } test_rng;
uint64_t test_rng_next(test_rng *r);
uint32_t test_rng_below(test_rng *r, uint32_t bound); /* uniform in [0, bound), bound > 0 */

#ifdef __cplusplus
}
#endif

#endif
