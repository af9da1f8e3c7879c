/* The charts, one function each, from the JSON lines of their suites (charts.c draws them all). */
#ifndef BENCH_RUNNER_CHARTS_H
#define BENCH_RUNNER_CHARTS_H

#include "gp.h"
#include "jsonl.h"

/* charts_csr.c: bench_csr's ops and memory, bench_csr_build's strategies and grouped payloads,
 * bench_csr_io's files (all in csr.jsonl) */
void chart_csr_ops(const char *dir, const jl_file *csr, chart_list *out);
void chart_csr_memory(const char *dir, const jl_file *csr, chart_list *out);
void chart_csr_builds(const char *dir, const jl_file *csr, chart_list *out);
void chart_csr_grouped(const char *dir, const jl_file *csr, chart_list *out);
void chart_csr_io(const char *dir, const jl_file *csr, chart_list *out);

/* charts_game.c: the world, the tables, the frames */
void chart_world_update(const char *dir, const jl_file *world, chart_list *out);
void chart_world_ops(const char *dir, const jl_file *world, chart_list *out);
void chart_soa(const char *dir, const jl_file *soa, chart_list *out);
void chart_frames(const char *dir, const jl_file *frames, chart_list *out);

#endif
