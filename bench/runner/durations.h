/* How long each suite takes, for make bench's "about N min left": the previous run's times
 * (bench/results/durations.txt, one "<mode> <program> <seconds>" a line, mode quick or full),
 * else typical times measured on the development machine. */
#ifndef BENCH_RUNNER_DURATIONS_H
#define BENCH_RUNNER_DURATIONS_H

#define DURATIONS_MAX 64

typedef struct durations {
    int n;
    struct {
        char mode[8], program[64];
        double seconds;
    } e[DURATIONS_MAX];
} durations;

/* A missing or unreadable file reads as no entries. */
void durations_read(durations *d, const char *path);
/* Writes every entry; 0 when the file cannot be written. */
int durations_write(const durations *d, const char *path);
void durations_set(durations *d, const char *mode, const char *program, double seconds);
/* The seconds program took last time in this mode, else its typical time; < 0 when neither
 * is known (a new suite before its first run). */
double durations_expect(const durations *d, const char *mode, const char *program);

#endif
