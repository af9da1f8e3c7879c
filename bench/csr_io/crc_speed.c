/* The checksum every file pays: CRC-32C's paths on this CPU, each against the portable tables
 * (the baseline), alternating, at 256 KiB (in L2) and 16 MiB (past it). Library-internal
 * code: this program compiles the library's crc32c.c and crc32c_x86.c itself, so it measures
 * them in static and shared builds alike.
 * Appends {"bench":"crc32c",...} lines to bench/results/csr.jsonl; target where the CPU folds:
 * folding at most 0.67x the crc32 instruction's time at 256 KiB (1.5x its speed). */
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "crc32c.h"
#include "crc_speed.h"

static const char *const level_name[] = { "portable", "crc32_instruction", "folding" };

/* Minimum and median ms of `reps` checksums of n bytes at each level, levels alternating. */
static void time_levels(const unsigned char *buf, size_t n, int reps, int top, int runs,
                        double min_ms[3], double med_ms[3])
{
    double t[3][15];
    volatile uint32_t sink = 0;
    for (int r = 0; r < runs; ++r)
        for (int k = 0; k <= top; ++k) {
            int level = (r + k) % (top + 1);
            double t0 = bench_now_ms();
            for (int i = 0; i < reps; ++i)
                sink ^= dod__crc32c_at(level, sink, buf, n);
            t[level][r] = bench_now_ms() - t0;
        }
    for (int level = 0; level <= top; ++level) {
        min_ms[level] = bench_min(t[level], runs);
        med_ms[level] = bench_median(t[level], runs);
    }
}

void crc_speed_bench(FILE *out, int quick)
{
    const int top = dod__crc32c_hardware();
    /* 256 KiB checksummed 64 times: as many bytes as the one 16 MiB pass from memory */
    const size_t sizes[2] = { (size_t)256 << 10, (size_t)16 << 20 };
    const int reps[2] = { 64, 1 };
    const int runs = quick ? 3 : 15;
    unsigned char *buf = (unsigned char *)malloc(sizes[1]);
    if (!buf)
        bench_die("crc32c buffer");
    for (size_t i = 0; i < sizes[1]; ++i)
        buf[i] = (unsigned char)(i * 131u + (i >> 12));
    printf("crc32c: the fastest path here is %s\n", level_name[top]);
    double fold_ratio = -1;
    for (int s = 0; s < 2; ++s) {
        double mn[3], md[3];
        time_levels(buf, sizes[s], reps[s], top, runs, mn, md);
        for (int level = 0; level <= top; ++level) {
            double bytes = (double)sizes[s] * reps[s];
            double best = bytes / (mn[level] * 1e6), median = bytes / (md[level] * 1e6);
            printf("  %-18s %9zu bytes  best %6.1f GB/s  median %6.1f GB/s  (%.2fx portable)\n",
                   level_name[level], sizes[s], best, median, mn[0] / mn[level]);
            if (out)
                fprintf(out,
                        "{\"bench\":\"crc32c\",\"variant\":\"%s\",\"bytes\":%zu,\"reps\":%d,"
                        "\"ms_min\":%.5f,\"ms_median\":%.5f,\"gbps_best\":%.2f,"
                        "\"gbps_median\":%.2f}\n",
                        level_name[level], sizes[s], reps[s], mn[level], md[level], best, median);
        }
        if (s == 0 && top == DOD__CRC32C_FOLD)
            fold_ratio = mn[DOD__CRC32C_FOLD] / mn[DOD__CRC32C_SSE42];
    }
    if (fold_ratio >= 0)
        bench_target("x", fold_ratio, BENCH_AT_MOST, 0.67,
                     "crc32c folding / crc32 instruction (min), 256 KiB");
    else
        printf("crc32c: folding target skipped: this CPU (or build) has no AVX-512 VPCLMULQDQ "
               "path\n");
    free(buf);
}
