/* Charts through gnuplot: the figures go to gnuplot's stdin as a datablock, plot.gp draws. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int on_path(const char *program)
{
    const char *path = getenv("PATH");
    char file[4096];
    while (path && *path) {
        const char *end = strchr(path, ':');
        size_t len = end ? (size_t)(end - path) : strlen(path);
        if (len > 0 && len + strlen(program) + 2 <= sizeof file) {
            memcpy(file, path, len);
            file[len] = '/';
            strcpy(file + len + 1, program);
            if (access(file, X_OK) == 0)
                return 1;
        }
        path = end ? end + 1 : NULL;
    }
    return 0;
}

/* One block per variant that has the op: its name, then "n_rows median_ms" by n_rows. */
static int write_data(FILE *g, const csr_config *cfgs, int n, regiment_dist dist, csr_op op)
{
    int blocks = 0;
    const csr_config *first = NULL;
    for (int i = 0; i < n && !first; ++i)
        if (cfgs[i].dist == dist)
            first = &cfgs[i];
    if (!first)
        return 0;
    fprintf(g, "$data << EOD\n");
    for (int v = 0; v < first->n_variants; ++v) {
        int rows = 0;
        for (int i = 0; i < n; ++i) {
            const csr_result *r = &cfgs[i].r[v][op];
            if (cfgs[i].dist != dist || !r->measured)
                continue;
            if (rows++ == 0)
                fprintf(g, "%s\"%s\"\n", blocks++ ? "\n\n" : "", first->variants[v]->name);
            fprintf(g, "%u %.9g\n", cfgs[i].n_rows, r->median);
        }
    }
    fprintf(g, "EOD\n");
    return blocks;
}

void csr_charts(const csr_config *cfgs, int n, regiment_dist dist)
{
    if (!on_path("gnuplot")) {
        printf("gnuplot not found: charts skipped\n");
        return;
    }
    for (int op = 0; op < OP_COUNT; ++op) {
        FILE *g = popen("gnuplot", "w");
        if (!g) {
            printf("cannot start gnuplot: charts skipped\n");
            return;
        }
        int blocks = write_data(g, cfgs, n, dist, (csr_op)op);
        fprintf(g, "nblocks = %d\nop = '%s'\ndist = '%s'\noutfile = '%s/csr-%s.png'\n"
                   "load '%s'\n",
                blocks, csr_op_name((csr_op)op), regiment_dist_name(dist), BENCH_CSR_RESULTS_DIR,
                csr_op_name((csr_op)op), BENCH_CSR_PLOT_SCRIPT);
        if (pclose(g) != 0)
            printf("gnuplot failed on %s/csr-%s.png\n", BENCH_CSR_RESULTS_DIR,
                   csr_op_name((csr_op)op));
        else
            printf("chart: %s/csr-%s.png\n", BENCH_CSR_RESULTS_DIR, csr_op_name((csr_op)op));
    }
}
