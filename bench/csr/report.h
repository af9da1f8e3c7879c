/* What the index benchmark prints and writes: tables, JSON lines, the seed's closing sentence,
 * the required checks and the charts. */
#ifndef BENCH_CSR_REPORT_H
#define BENCH_CSR_REPORT_H

#include "run.h"
#include <stdio.h>

/* One configuration as a human table: variant x op, min and median ms, median relative to
 * dod's, heap bytes held, allocation and free calls. */
void csr_print_table(const csr_config *c);

/* One JSON object a line per measured (variant, op) of c. */
void csr_write_json(FILE *f, const csr_config *c);

/* "compared to naive, dod builds Nx faster, ..." at the largest n_rows measured, longtail. */
void csr_print_sentence(const csr_config *cfgs, int n);

/* The four required checks, one PASS/FAIL (or SKIP) line each plus the figures behind it.
 * Returns the number that failed (reported only: timings on a shared machine are noisy). */
int csr_print_checks(const csr_config *cfgs, int n);

/* bench/results/csr-<op>.png for each op: median ms against n_rows per variant, log-log, for
 * `dist`, through gnuplot and plot.gp; says so and does nothing when gnuplot is not on PATH. */
void csr_charts(const csr_config *cfgs, int n, regiment_dist dist);

#endif
