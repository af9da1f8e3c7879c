/* What a benchmark figure depends on besides the code: the machine, the compiler, the date and
 * how busy the machine was. Every field reads "n/a" where the system does not say. */
#ifndef BENCH_RUNNER_MACHINE_H
#define BENCH_RUNNER_MACHINE_H

#include <stddef.h>

typedef struct machine {
    char cpu[128];      /* /proc/cpuinfo's model name */
    char system[256];   /* uname: "Linux 6.1.0 x86_64" */
    long cores;         /* online processors; 0: unknown */
    char compiler[128]; /* the compiler these programs were built with, and the build type */
} machine;

void machine_read(machine *m);

/* /proc/loadavg's three averages ("1.54 1.35 0.72"), or "n/a". */
void load_average(char *out, size_t size);

/* The local time as "2026-12-05 10:14 +0100". */
void date_now(char *out, size_t size);

#endif
