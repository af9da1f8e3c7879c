/* bench_runner: what make bench runs after the build. Empties bench/results, runs every suite
 * program in turn ("[3/6] bench_csr_io (about 2 min left)"), recording its exit status, time
 * and the load average before and after it in bench/results/targets.jsonl (where bench_target
 * records the targets), then draws the charts and prints the summary, last.
 *
 *   bench_runner            run every suite (the list CMake wrote), then the report
 *   bench_runner --report   the charts and the summary of the results already there
 *
 * Exits 1 when a suite failed (a wrong result, a crash), 0 otherwise: a timing target missed
 * is a MISS in the summary, not a failure. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "durations.h"
#include "machine.h"
#include "runner.h"
#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define SUITES_MAX 64

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && strcmp(s + n - k, tail) == 0;
}

/* A run starts from nothing: the suites append to the JSON lines, and a chart or summary
 * left from an earlier run would pass for this one's. durations.txt stays. */
static void empty_results(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[1024];
    while (d && (e = readdir(d)) != NULL)
        if (ends_with(e->d_name, ".jsonl") || ends_with(e->d_name, ".png") ||
            strcmp(e->d_name, "summary.md") == 0) {
            results_path(path, sizeof path, dir, e->d_name);
            remove(path);
        }
    if (d)
        closedir(d);
}

/* The suite programs, one path a line, in the order CMake declared them. */
static int read_suites(const char *path, char suites[][1024])
{
    FILE *f = fopen(path, "r");
    int n = 0;
    while (f && n < SUITES_MAX && fgets(suites[n], 1024, f)) {
        suites[n][strcspn(suites[n], "\r\n")] = '\0';
        n += suites[n][0] != '\0';
    }
    if (f)
        fclose(f);
    return n;
}

/* Runs program with stdout and stderr shared; returns its exit status (128 + the signal
 * that killed it, 127 when it could not be started). */
static int run_program(const char *program)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        execl(program, program, (char *)NULL);
        perror(program);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0)
        return 127;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* One JSON line (printf-formatted) appended to targets.jsonl, next to the targets. */
BENCH_PRINTF(2, 3)
static void append_record(const char *results_dir, const char *format, ...)
{
    char path[1024];
    results_path(path, sizeof path, results_dir, "targets.jsonl");
    FILE *f = fopen(path, "a");
    if (f) {
        va_list ap;
        va_start(ap, format);
        vfprintf(f, format, ap);
        va_end(ap);
        fclose(f);
    }
}

/* "[3/6] bench_csr_io (about 3 min left)": the expected times of suites first..n-1. */
static void print_progress(char suites[][1024], int first, int n, const durations *d,
                           const char *mode)
{
    double left = 0.0;
    int unknown = 0;
    for (int i = first; i < n; ++i) {
        double s = durations_expect(d, mode, base_name(suites[i]));
        left += s > 0.0 ? s : 0.0;
        unknown += s < 0.0;
    }
    printf("\n[%d/%d] %s", first + 1, n, base_name(suites[first]));
    if (left >= 90.0)
        printf(" (about %.0f min left", left / 60.0);
    else
        printf(" (about %.0f s left", left < 5.0 ? 5.0 : left);
    printf("%s)\n", unknown ? ", more for suites not timed before" : "");
}

static int run_suites(const char *results_dir, const char *suites_file)
{
    static char suites[SUITES_MAX][1024];
    int n = read_suites(suites_file, suites);
    if (n == 0) {
        fprintf(stderr, "bench_runner: no suites listed in %s\n", suites_file);
        return 0;
    }
    const char *mode = bench_quick() ? "quick" : "full";
    char durations_file[1024], date[64];
    results_path(durations_file, sizeof durations_file, results_dir, "durations.txt");
    durations d;
    durations_read(&d, durations_file);
    mkdir(results_dir, 0777); /* a fresh clone has no results folder yet */
    empty_results(results_dir);
    date_now(date, sizeof date);
    append_record(results_dir, "{\"run\":\"%s\",\"date\":\"%s\"}\n", mode, date);
    printf("make bench: %d suites, %s run%s; figures in %s\n", n, mode,
           strcmp(mode, "quick") == 0 ? " (DOD_BENCH_QUICK=1)" : "", shown_path(results_dir));
    for (int i = 0; i < n; ++i) {
        char load_start[64], load_end[64];
        print_progress(suites, i, n, &d, mode);
        load_average(load_start, sizeof load_start);
        double t0 = bench_now_ms();
        int status = run_program(suites[i]);
        double seconds = (bench_now_ms() - t0) / 1000.0;
        load_average(load_end, sizeof load_end);
        if (status != 0)
            printf("%s FAILED: exit status %d\n", base_name(suites[i]), status);
        append_record(results_dir,
                      "{\"suite_run\":\"%s\",\"exit\":%d,\"seconds\":%.1f,\"load_start\":\"%s\","
                      "\"load_end\":\"%s\"}\n",
                      base_name(suites[i]), status, seconds, load_start, load_end);
        durations_set(&d, mode, base_name(suites[i]), seconds);
        durations_write(&d, durations_file);
    }
    return 1;
}

int main(int argc, char **argv)
{
    const char *results_dir = DOD_BENCH_RESULTS_DIR;
    int report_only = argc > 1 && strcmp(argv[1], "--report") == 0;
    if (argc > 1 && !report_only) {
        fprintf(stderr, "usage: bench_runner [--report]\n");
        return 2;
    }
    if (!report_only && !run_suites(results_dir, DOD_BENCH_SUITES_FILE))
        return 1;
    printf("\n");
    chart_list charts;
    charts_draw(results_dir, &charts);
    return summary_report(results_dir, &charts) ? 1 : 0;
}
