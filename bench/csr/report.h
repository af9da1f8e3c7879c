/* What the index benchmark prints and writes: tables, JSON lines, the seed's closing sentence
 * and the required checks. */
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

/* One line for a configuration: dod's build against naive and hack3, snapshot against
 * memcpy, rebuild allocations, and at 1M rows the bytes naive holds against dod's. */
void csr_print_config(const csr_config *c);

/* The four required checks as targets (bench_target), each the worst value over every
 * configuration it applies to; a check that applies to none (the bytes at 1M rows, in quick
 * mode) is not reported. */
void csr_targets(const csr_config *cfgs, int n);

#endif
