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

/* Print a target's line, PASS when 0 <= r <= limit, and count it; bench_targets gives the
 * counts so far. */
void bench_target(const char *what, double r, double limit);
void bench_targets(int *pass, int *fail);

/* A dod_allocator that counts calls and live bytes, over the heap. */
typedef struct bench_counter {
    long allocs, frees;
    size_t live_bytes, peak_bytes;
} bench_counter;
dod_allocator bench_counter_allocator(bench_counter *c);

/* Open bench/results/<name>.jsonl for appending (the `bench` target empties it first). */
FILE *bench_results_open(const char *name);

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
