/* Every chart make bench draws, from the JSON lines in the results folder. A chart whose suite
 * wrote no figures is left out; without gnuplot none is drawn and one line says why. */
#include "charts.h"
#include <math.h>
#include <string.h>

static void read_results(jl_file *f, const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.jsonl", dir, name);
    if (!jl_read(f, path))
        printf("charts: out of memory reading %s\n", path);
}

void charts_draw(const char *dir, chart_list *out)
{
    memset(out, 0, sizeof *out);
    if (!gp_available(out->skipped, sizeof out->skipped)) {
        printf("charts skipped: %s\n", out->skipped);
        return;
    }
    jl_file csr, world, soa, frames;
    read_results(&csr, dir, "csr");
    read_results(&world, dir, "world");
    read_results(&soa, dir, "soa");
    read_results(&frames, dir, "frames");
    chart_csr_ops(dir, &csr, out);
    chart_csr_memory(dir, &csr, out);
    chart_csr_builds(dir, &csr, out);
    chart_csr_grouped(dir, &csr, out);
    chart_csr_io(dir, &csr, out);
    chart_world_update(dir, &world, out);
    chart_world_ops(dir, &world, out);
    chart_soa(dir, &soa, out);
    chart_frames(dir, &frames, out);
    jl_free(&csr);
    jl_free(&world);
    jl_free(&soa);
    jl_free(&frames);
    int column = printf("charts: %d in %s:", out->n, shown_path(dir));
    for (int i = 0; i < out->n; ++i) {
        if (column + 1 + (int)strlen(out->file[i]) > 100)
            column = printf("\n ") - 1;
        column += printf(" %s", out->file[i]);
    }
    printf("\n");
}
