#include "durations.h"
#include <stdio.h>
#include <string.h>

/* Typical seconds on the development VM (2 shared cores): the quiet full `make bench` of
 * 2026-12-05 (load 1.1, 12.4 min) and the quick run in CI the same morning (load 1.5 - 1.9);
 * bench_world since with its row-number index, changed copies and commands at scale (about 4 s
 * more quick, 13 s full). A suite not listed here gets its estimate after its first run. */
static const struct {
    const char *program;
    double quick, full;
} typical[] = {
    { "bench_csr", 4, 155 },     { "bench_csr_build", 21, 330 }, { "bench_csr_io", 1, 5 },
    { "bench_frames", 1, 30 },   { "bench_soa", 1, 27 },         { "bench_world", 40, 144 },
    { "bench_world_blocks", 4, 31 },
};

static int find(const durations *d, const char *mode, const char *program)
{
    for (int i = 0; i < d->n; ++i)
        if (strcmp(d->e[i].mode, mode) == 0 && strcmp(d->e[i].program, program) == 0)
            return i;
    return -1;
}

void durations_read(durations *d, const char *path)
{
    d->n = 0;
    FILE *f = fopen(path, "r");
    char mode[8], program[64];
    double seconds;
    while (f && d->n < DURATIONS_MAX && fscanf(f, "%7s %63s %lf", mode, program, &seconds) == 3)
        durations_set(d, mode, program, seconds);
    if (f)
        fclose(f);
}

int durations_write(const durations *d, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    for (int i = 0; i < d->n; ++i)
        fprintf(f, "%s %s %.1f\n", d->e[i].mode, d->e[i].program, d->e[i].seconds);
    return fclose(f) == 0;
}

void durations_set(durations *d, const char *mode, const char *program, double seconds)
{
    int i = find(d, mode, program);
    if (i < 0) {
        if (d->n == DURATIONS_MAX)
            return;
        i = d->n++;
        snprintf(d->e[i].mode, sizeof d->e[i].mode, "%s", mode);
        snprintf(d->e[i].program, sizeof d->e[i].program, "%s", program);
    }
    d->e[i].seconds = seconds;
}

double durations_expect(const durations *d, const char *mode, const char *program)
{
    int i = find(d, mode, program);
    if (i >= 0)
        return d->e[i].seconds;
    for (size_t k = 0; k < sizeof typical / sizeof typical[0]; ++k)
        if (strcmp(typical[k].program, program) == 0)
            return strcmp(mode, "quick") == 0 ? typical[k].quick : typical[k].full;
    return -1.0;
}
