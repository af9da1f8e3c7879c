#define _POSIX_C_SOURCE 200809L
#include "gp.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

int gp_available(char *why, size_t size)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        snprintf(why, size, "gnuplot not found (Debian: apt-get install gnuplot-nox)");
        return 0;
    }
    if (system("gnuplot -e 'set terminal pngcairo' </dev/null >/dev/null 2>&1") != 0) {
        snprintf(why, size, "this gnuplot has no pngcairo terminal");
        return 0;
    }
    return 1;
}

int gp_begin(gp *g, const char *results_dir, const char *file, int width, int height,
             const char *layout, const char *title)
{
    snprintf(g->file, sizeof g->file, "%s", file);
    g->pipe = popen("gnuplot", "w");
    if (!g->pipe) {
        printf("chart %s: cannot start gnuplot\n", file);
        return 0;
    }
    fprintf(g->pipe,
            "set terminal pngcairo size %d,%d font 'sans,11' noenhanced\n"
            "set output '%s/%s'\nload '%s'\nset multiplot %s title \"%s\" font ',13'\n",
            width, height, results_dir, file, DOD_BENCH_STYLE_GP, layout, title);
    return 1;
}

void gp_end(gp *g, chart_list *charts)
{
    fprintf(g->pipe, "unset multiplot\nset output\n");
    if (pclose(g->pipe) != 0)
        printf("chart %s: gnuplot failed (its messages are above)\n", g->file);
    else if (charts->n < CHARTS_MAX)
        snprintf(charts->file[charts->n++], sizeof charts->file[0], "%s", g->file);
}

static const struct {
    const char *name;
    gp_style style;
} known[] = {
    /* the seed's index variants: naive reds, hacks warm to blue, dod green, references black */
    { "naive", { "#d62728", 5, 1, 2 } },
    { "naive-fragmented", { "#8c564b", 4, 2, 2 } },
    { "hack1", { "#ff7f0e", 9, 1, 2 } },
    { "hack2", { "#9467bd", 11, 1, 2 } },
    { "hack3", { "#1f77b4", 13, 1, 2 } },
    { "dod", { "#2ca02c", 7, 1, 3 } },
    { "dod-auto", { "#00897b", 6, 1, 2 } },
    { "dod-auto-2t", { "#c2185b", 8, 1, 2 } },
    { "memcpy", { "#000000", 1, 3, 2 } },
    /* the world against its baselines */
    { "oop_new", { "#d62728", 5, 1, 2 } },
    { "oop_pages", { "#8c564b", 4, 2, 2 } },
    { "world", { "#2ca02c", 7, 1, 3 } },
    { "world_fixed", { "#2ca02c", 7, 1, 3 } },
    { "world_chunked", { "#00897b", 6, 1, 2 } },
    { "world_chunked_256k", { "#1f77b4", 13, 1, 2 } },
    { "raw", { "#404040", 2, 2, 2 } },
    { "floor", { "#404040", 2, 2, 2 } },
    /* the build strategies: a hue per strategy, light on 2 threads */
    { "dod_csr_build", { "#1f77b4", 13, 1, 2 } },
    { "plain t1", { "#2ca02c", 7, 1, 2 } },
    { "plain t2", { "#98df8a", 6, 1, 2 } },
    { "partitioned t1", { "#d62728", 5, 1, 2 } },
    { "partitioned t2", { "#ff9896", 4, 1, 2 } },
    { "auto t1", { "#9467bd", 9, 1, 2 } },
    { "auto t2", { "#c5b0d5", 8, 1, 2 } },
    /* tables */
    { "aos", { "#d62728", 5, 1, 2 } },
    { "hotcold", { "#ff7f0e", 9, 1, 2 } },
    { "soa", { "#2ca02c", 7, 1, 2 } },
    { "aosoa8", { "#1f77b4", 13, 1, 2 } },
    { "aosoa16", { "#9467bd", 11, 1, 2 } },
    { "qsort", { "#d62728", 5, 1, 2 } },
    /* files */
    { "fwrite", { "#404040", 2, 2, 2 } },
};

/* Distinct and dark enough on white: no yellow. */
static const char *const palette[] = { "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                       "#8c564b", "#c2185b", "#00897b", "#404040", "#6b8e23" };

gp_style gp_style_of(const char *name, int index)
{
    for (size_t i = 0; i < sizeof known / sizeof known[0]; ++i)
        if (strcmp(known[i].name, name) == 0)
            return known[i].style;
    static const int points[] = { 7, 5, 9, 11, 13, 6, 4, 8, 10, 12 };
    gp_style s = { palette[index % 10], points[index % 10], 1, 2 };
    return s;
}

/* m * 10^k written plainly: 0.002, 50, 1000, or with counts 1K, 20K, 1M. */
static void tick_label(char *out, size_t size, int m, int k, int counts)
{
    static const char *const suffix[] = { "", "K", "M", "G" };
    if (counts && k >= 3 && k < 12)
        snprintf(out, size, "%.0f%s", m * pow(10.0, k % 3), suffix[k / 3]);
    else if (k >= 0)
        snprintf(out, size, "%.0f", m * pow(10.0, k));
    else
        snprintf(out, size, "%.*f", -k, m * pow(10.0, k));
}

void gp_log_axis(FILE *g, const char *axis, double lo, double hi, unsigned flags)
{
    const int counts = (flags & GP_COUNTS) != 0;
    if (!(lo > 0.0) || !(hi >= lo)) {
        lo = 1.0;
        hi = 10.0;
    }
    /* a margin, so no point sits on the frame; bars grow from a decade */
    lo = flags & GP_FROM_DECADE ? pow(10.0, floor(log10(lo))) : lo / 1.3;
    hi *= 1.3;
    /* Every decade is labelled; 2 and 5 too when the axis spans less than two decades. */
    const int more = log10(hi / lo) < 2.0;
    fprintf(g, "set logscale %s 10\nset %srange [%g:%g]\nset %stics (", axis, axis, lo, hi, axis);
    const char *sep = "";
    for (int k = (int)floor(log10(lo)); k <= (int)ceil(log10(hi)); ++k)
        for (int m = 1; m <= 9; ++m) {
            double v = m * pow(10.0, k);
            if (v < lo || v > hi)
                continue;
            char label[32] = "";
            int major = m == 1 || (more && (m == 2 || m == 5));
            if (major)
                tick_label(label, sizeof label, m, k, counts);
            fprintf(g, "%s\"%s\" %g %d", sep, label, v, !major);
            sep = ", ";
        }
    fprintf(g, ")\n");
}

void gp_count_label(char *out, size_t size, double n)
{
    double mi = 1024.0 * 1024.0;
    if (n >= mi && fmod(n, mi) == 0.0)
        snprintf(out, size, "%.0fM", n / mi);
    else if (n >= 1024.0 && fmod(n, 1024.0) == 0.0)
        snprintf(out, size, "%.0fK", n / 1024.0);
    else
        snprintf(out, size, "%.0f", n);
}

void gp_bars_init(gp_bars *b, const char *title, const char *ylabel, int log_y)
{
    memset(b, 0, sizeof *b);
    b->title = title;
    b->ylabel = ylabel;
    b->log_y = log_y;
    for (int i = 0; i < GP_BARS_GROUPS; ++i)
        for (int k = 0; k < GP_BARS_SERIES; ++k)
            b->v[i][k] = NAN;
}

static int index_of(char (*names)[48], int *n, int max, const char *name)
{
    for (int i = 0; i < *n; ++i)
        if (strcmp(names[i], name) == 0)
            return i;
    if (*n == max)
        return -1;
    snprintf(names[*n], sizeof names[0], "%s", name);
    return (*n)++;
}

int gp_bars_group(gp_bars *b, const char *name)
{
    return index_of(b->group, &b->n_groups, GP_BARS_GROUPS, name);
}

int gp_bars_series_as(gp_bars *b, const char *name, const char *style)
{
    int k = index_of(b->series, &b->n_series, GP_BARS_SERIES, name);
    if (k >= 0)
        snprintf(b->style[k], sizeof b->style[k], "%s", style);
    return k;
}

int gp_bars_series(gp_bars *b, const char *name)
{
    return gp_bars_series_as(b, name, name);
}

void gp_bars_plot(FILE *g, const gp_bars *b)
{
    static int block;
    double lo = INFINITY, hi = 0.0;
    int id = block++;
    fprintf(g, "$bars%d << EOD\n", id);
    for (int i = 0; i < b->n_groups; ++i) {
        fprintf(g, "\"%s\"", b->group[i]);
        for (int k = 0; k < b->n_series; ++k) {
            double v = b->v[i][k];
            fprintf(g, v == v ? " %.6g" : " NaN", v);
            if (v == v && v > 0.0) {
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
            }
        }
        fprintf(g, "\n");
    }
    fprintf(g, "EOD\n");
    if (b->reference > 0.0) {
        lo = b->reference < lo ? b->reference : lo;
        hi = b->reference > hi ? b->reference : hi;
    }
    fprintf(g, "set title \"%s\"\nset ylabel \"%s\"\n", b->title, b->ylabel);
    fprintf(g, "set style data histograms\nset style histogram clustered gap 1\n"
               "set style fill solid 0.9 border lc rgb '#303030'\nset xrange [-0.6:%g]\n"
               "unset logscale x\nset xtics () scale 0\nset grid noxtics nomxtics\n",
            b->n_groups - 0.4);
    if (b->log_y)
        gp_log_axis(g, "y", lo, hi * 1.6, GP_FROM_DECADE);
    else
        fprintf(g, "unset logscale y\nset yrange [0:%g]\nset ytics autofreq\n",
                hi > 0.0 ? hi * 1.15 : 1.0);
    const char *sep = "plot ";
    for (int k = 0; k < b->n_series; ++k) {
        gp_style s = gp_style_of(b->style[k], k);
        fprintf(g, "%s$bars%d using %d%s title \"%s\" lc rgb '%s'", sep, id, k + 2,
                k == 0 ? ":xtic(1)" : "", b->series[k], s.color);
        sep = ", \\\n";
    }
    /* the value over each bar: bar k of n sits (k - (n-1)/2) / (n + gap) from its group */
    for (int k = 0; k < b->n_series && !b->no_values; ++k)
        fprintf(g, "%s$bars%d using ($0 + %g):%d:(fmt($%d)) with labels offset 0,0.6 font ',8' "
                   "notitle",
                sep, id, (k - (b->n_series - 1) / 2.0) / (b->n_series + 1.0), k + 2, k + 2);
    if (b->reference > 0.0)
        fprintf(g, "%s%g with lines dt 2 lw 2 lc rgb '#000000' title \"%s\"", sep, b->reference,
                b->reference_label ? b->reference_label : "");
    fprintf(g, "\n");
}

void gp_bars_chart(const char *results_dir, const char *file, int width, int height,
                   const char *title, const char *setup, const gp_bars *b, chart_list *charts)
{
    gp g;
    if (b->n_groups == 0 || !gp_begin(&g, results_dir, file, width, height, "layout 1,1", title))
        return;
    fprintf(g.pipe, "set key outside right top\n%s\n", setup);
    gp_bars_plot(g.pipe, b);
    gp_end(&g, charts);
}
