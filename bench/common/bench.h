/* Shared benchmark plumbing: a clock, min/median statistics, a counting allocator, quick mode
 * and JSON lines. Every benchmark runs baseline and contender alternately in one process. */
#ifndef DOD_BENCH_H
#define DOD_BENCH_H

#include <dod/base.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

double bench_now_ms(void);                 /* a monotonic clock, in milliseconds */
int bench_quick(void);                     /* 1 when DOD_BENCH_QUICK is set and not "0" */
void bench_sort(double *v, int n);
double bench_min(const double *v, int n);
double bench_median(const double *v, int n); /* sorts v */

/* Report a failure the benchmark cannot continue from ("benchmark failed: what") and exit(1). */
void bench_die(const char *what);

int bench_verbose(void);                   /* 1 when DOD_BENCH_VERBOSE is set and not "0" */

/* ---- a suite's run: its JSON lines and its targets ----
 * main calls bench_begin first and returns bench_end(status). In between, every figure goes
 * to the returned file as one JSON object a line, and every target through bench_target. */

/* Starts the suite named `suite` (its target records say so, e.g. "csr_build") and opens
 * bench/results/<results>.jsonl for appending (make bench empties the results first; several
 * suites may share one file). Returns the file, or NULL after a message on stderr when it
 * cannot be opened: the suite then runs without JSON lines. */
FILE *bench_begin(const char *suite, const char *results);

/* Closes the JSON lines, prints "<suite>: N targets, P PASS, M MISS, T s" and returns status
 * (main's exit status: 0, or 1 when a result was wrong; a MISS never changes it). */
int bench_end(int status);

/* printf-style arguments, checked by gcc and clang (MinGW's printf is its own: %zu as C99). */
#if defined(__MINGW32__) && defined(__MINGW_PRINTF_FORMAT)
#define BENCH_PRINTF(fmt, args) __attribute__((format(__MINGW_PRINTF_FORMAT, fmt, args)))
#elif defined(__GNUC__)
#define BENCH_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define BENCH_PRINTF(fmt, args)
#endif

typedef enum bench_direction {
    BENCH_AT_MOST,  /* PASS when measured <= bound: times, ratios of times */
    BENCH_AT_LEAST  /* PASS when measured >= bound: speedups, savings */
} bench_direction;

/* Checks one target: measured against bound in `direction`, both in `unit` ("x" for a ratio,
 * "ns/entity", ...). Prints one line, "PASS  <name>: 0.968x (bound <= 1.05x)" or "MISS  ...",
 * and records the target in the suite's JSON lines and in bench/results/targets.jsonl, which
 * make bench's summary reads. The name is printf-formatted. A NaN or negative measurement (a
 * ratio whose figures are missing) is a MISS. Returns 1 for PASS, 0 for MISS: a miss is
 * reported, it does not fail the program (timings on a shared machine are noisy). */
BENCH_PRINTF(5, 6)
int bench_target(const char *unit, double measured, bench_direction direction, double bound,
                 const char *name, ...);

/* A measured figure as the verdicts and the summary print it, unit included: no exponent from
 * 0.001 to 1e6, 3 decimals (at least 3 significant digits below 1), so 1.0504 against a bound
 * of 1.05 reads "1.050x"; "x" is glued to a ratio, other units follow a space; a whole number
 * in another unit than "x" has no decimals ("0 allocs", "32 bytes/entity"). */
void bench_format(char *out, size_t size, double value, const char *unit);
/* A bound: its shortest form ("1.05x", "20 ns/entity"). */
void bench_format_bound(char *out, size_t size, double bound, const char *unit);

/* A dod_allocator that counts calls and live bytes, over the heap. */
typedef struct bench_counter {
    long allocs, frees;
    size_t live_bytes, peak_bytes;
} bench_counter;
dod_allocator bench_counter_allocator(bench_counter *c);

/* A dod_allocator that keeps what is freed (up to BENCH_RECYCLER_KEEP allocations) and hands
 * it back for a request of the same size, as an engine's own allocator reuses its memory.
 * Where a benchmark creates a world before each pass, this keeps its memory mapped and warm,
 * the same for every variant (on this VM the first touch of a page, by the program or by the
 * kernel's read() into it, costs microseconds). Every allocation is 64-byte aligned.
 * bench_recycler_free gives what it keeps back to the heap. Not thread-safe. */
enum { BENCH_RECYCLER_KEEP = 64 };
typedef struct bench_recycler {
    struct { void *ptr; size_t size, align; } kept[BENCH_RECYCLER_KEEP];
    int n;
} bench_recycler;
dod_allocator bench_recycler_allocator(bench_recycler *r);
void bench_recycler_free(bench_recycler *r);

/* Where benchmarks write their files: $DOD_BENCH_TMPDIR, else /dev/shm when it is a writable
 * directory, else /tmp. On a disk-backed /tmp the kernel's writeback of earlier saves lands in
 * later timings (a raw fwrite of the index varied 14 - 40 ms at 1M rows); a memory-backed file
 * system measures what the save itself costs, the same way for every variant. */
const char *bench_tmp_dir(void);

/* Keep the optimiser from deleting a computation. */
extern volatile uint64_t bench_sink;

#ifdef __cplusplus
}
#endif

#endif
