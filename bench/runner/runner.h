/* make bench's runner: every suite in turn with its progress and load, then the charts and the
 * summary, both from the JSON lines in bench/results. What its files share. */
#ifndef BENCH_RUNNER_H
#define BENCH_RUNNER_H

#include <stdio.h>

#define CHARTS_MAX 32

/* What charts.c drew: the PNG files written in the results folder, or why none were. */
typedef struct chart_list {
    int n;
    char file[CHARTS_MAX][64];
    char skipped[160]; /* empty when the charts were drawn */
} chart_list;

/* Draws every chart whose figures are in the results folder (with gnuplot; skipped, and
 * said so in one line, when gnuplot or its pngcairo terminal is missing). */
void charts_draw(const char *results_dir, chart_list *out);

/* Prints the summary (the targets missed, then every target with its verdict, then every
 * suite with its exit status, time and load average) and writes it to summary.md in the
 * results folder. Returns the number of suites that did not exit 0. */
int summary_report(const char *results_dir, const chart_list *charts);

/* paths.c: results_dir/name into out. */
void results_path(char *out, size_t size, const char *results_dir, const char *name);
/* path as a person reads it: relative to the working directory when it lies below it. */
const char *shown_path(const char *path);

#endif
