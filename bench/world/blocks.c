/* bench_world_blocks: the block-size sweep behind docs/world-measurements.md ("Block size").
 * For each block layout of the chunked archetypes, at 64K and 1M entities: iterate over {P,V}
 * and the seed's update against the raw loop (ratios of minima, the layout and raw alternately
 * in one process; warm, as the suite runs them, and cold, the caches flushed before each run),
 * spawn, move_pair and get1 (ns per entity, min, the layouts alternately), bytes per {P,V}
 * entity and the block bytes a 20-entity {P,V} archetype holds. Prints the table
 * docs/world-measurements.md quotes, appends JSON lines to bench/results/world_blocks.jsonl
 * and draws bench/results/world-blocks.png with gnuplot (skipped when gnuplot is missing).
 * DOD_BENCH_QUICK=1: 64K only. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include "world_bench.h"
#ifdef __GLIBC__
#  include <malloc.h>
#endif

/* A layout of the sweep: its series (the chart draws one line per series and n) and blocks. */
typedef struct sweep_layout {
    const char *series;
    wb_layout layout;
} sweep_layout;

/* Equal blocks (the layout before blocks grew: first_block_bytes = block_bytes), then
 * blocks growing from the default first block (16 KiB) to block_bytes. */
#define EQUAL(kib) { "equal", { (kib) << 10, (kib) << 10 } }
#define GROWING(kib) { "growing", { (kib) << 10, 0 } }
static const sweep_layout layouts[] = {
    EQUAL(16u),    EQUAL(32u),     EQUAL(64u),     EQUAL(128u),    EQUAL(256u),
    EQUAL(512u),   EQUAL(1024u),   EQUAL(2048u),   EQUAL(4096u),   GROWING(32u),
    GROWING(64u),  GROWING(128u),  GROWING(256u),  GROWING(512u),  GROWING(1024u),
    GROWING(2048u), GROWING(4096u), GROWING(8192u),
};
enum { N_LAYOUTS = sizeof layouts / sizeof layouts[0] };
_Static_assert(N_LAYOUTS <= WB_MAX_LAYOUTS, "the sweep's layouts fit its arrays");

/* One row of the table (a markdown row when md, else gnuplot's columns). */
static void print_row(FILE *f, int md, size_t n, const sweep_layout *l, const wb_sweep *s)
{
    const char *sep = md ? " | " : " ";
    fprintf(f, "%s%s%s%u%s%zu%s%.3f%s%.3f%s%.3f%s%.3f%s%.2f%s%.2f%s%.2f%s%.2f%s%.0f%s\n",
            md ? "| " : "", l->series, sep, l->layout.block_bytes >> 10, sep, n, sep, s->iterate,
            sep, s->iterate_cold, sep, s->update, sep, s->update_cold, sep, s->spawn, sep,
            s->move_pair, sep, s->get1, sep, s->bytes, sep, s->bytes20, md ? " |" : "");
}

static void record(FILE *jsonl, size_t n, const sweep_layout *l, const wb_sweep *s)
{
    if (!jsonl)
        return;
    fprintf(jsonl,
            "{\"bench\":\"world_blocks\",\"series\":\"%s\",\"block_bytes\":%u,\"n\":%zu,"
            "\"iterate_over_raw\":%.4f,\"iterate_over_raw_cold\":%.4f,"
            "\"update_over_raw\":%.4f,\"update_over_raw_cold\":%.4f,\"spawn_ns\":%.3f,"
            "\"move_pair_ns\":%.3f,\"get1_ns\":%.3f,\"bytes_per_entity\":%.3f,"
            "\"bytes_20\":%.0f}\n",
            l->series, l->layout.block_bytes, n, s->iterate, s->iterate_cold, s->update,
            s->update_cold, s->spawn, s->move_pair, s->get1, s->bytes, s->bytes20);
}

static int on_path(const char *program)
{
    char command[256];
    snprintf(command, sizeof command, "command -v %s >/dev/null 2>&1", program);
    return system(command) == 0;
}

/* The chart: one data block per series and n ("series n" title, then the rows), then
 * blocks.gp draws it. */
static void chart(const size_t *sizes, int n_sizes, wb_sweep results[][N_LAYOUTS])
{
    if (!on_path("gnuplot")) {
        printf("gnuplot not found: chart skipped\n");
        return;
    }
    FILE *g = popen("gnuplot", "w");
    if (!g) {
        printf("cannot start gnuplot: chart skipped\n");
        return;
    }
    int blocks = 0;
    fprintf(g, "$data << EOD\n");
    for (int i = 0; i < n_sizes; ++i)
        for (int k = 0; k < N_LAYOUTS; ++k) {
            if (k == 0 || strcmp(layouts[k].series, layouts[k - 1].series) != 0)
                fprintf(g, "%s\"%s, %zuK entities\"\n", blocks++ ? "\n\n" : "",
                        layouts[k].series, sizes[i] >> 10);
            print_row(g, 0, sizes[i], &layouts[k], &results[i][k]);
        }
    fprintf(g, "EOD\nnblocks = %d\noutfile = '%s/world-blocks.png'\nload '%s'\n", blocks,
            DOD_BENCH_RESULTS_DIR, WB_BLOCKS_PLOT_SCRIPT);
    if (pclose(g) != 0)
        printf("gnuplot failed on %s/world-blocks.png\n", DOD_BENCH_RESULTS_DIR);
    else
        printf("chart: %s/world-blocks.png\n", DOD_BENCH_RESULTS_DIR);
}

/* glibc's heap keeps what a pass frees for the next one (no trimming, no mmap of its own per
 * large block): the layouts then pay the same page faults, once, whatever ran before them.
 * Left to glibc's dynamic thresholds, a layout's passes fault their memory anew or not
 * depending on the blocks the layouts before it freed, and a page fault costs about 14 us on
 * the VM the figures come from (80 ns per {P,V} entity). */
static void keep_freed_memory(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

int main(void)
{
    keep_freed_memory();
    int quick = bench_quick();
    const size_t sizes[2] = { WB_64K, WB_1M };
    int n_sizes = quick ? 1 : 2, passes = WB_MAX_PASSES;
    static wb_sweep results[2][N_LAYOUTS];
    FILE *jsonl = wb_open("world_blocks");
    printf("bench_world_blocks: %d passes%s\n", passes, quick ? " (quick: 64K only)" : "");
    for (int i = 0; i < n_sizes; ++i) {
        wb_layout l[N_LAYOUTS];
        for (int k = 0; k < N_LAYOUTS; ++k)
            l[k] = layouts[k].layout;
        seed_update_sweep(sizes[i], passes, l, N_LAYOUTS, results[i]);
        scenarios_sweep((uint32_t)sizes[i], passes, l, N_LAYOUTS, results[i]);
    }
    printf("| layout | block KiB | n | iterate / raw | cold | update / raw | cold | spawn ns "
           "| move_pair ns | get1 ns | bytes / entity | bytes, 20 entities |\n"
           "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < n_sizes; ++i)
        for (int k = 0; k < N_LAYOUTS; ++k) {
            print_row(stdout, 1, sizes[i], &layouts[k], &results[i][k]);
            record(jsonl, sizes[i], &layouts[k], &results[i][k]);
        }
    chart(sizes, n_sizes, results);
    return wb_close();
}
