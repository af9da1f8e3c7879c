/* Drawing with gnuplot: one pipe per chart, the shared look (style.gp), fixed colours and point
 * shapes per variant, log ticks labelled 1, 10, 100, and clustered bar panels. */
#ifndef BENCH_RUNNER_GP_H
#define BENCH_RUNNER_GP_H

#include "runner.h"

/* gnuplot with the pngcairo terminal can be started; else why not, in `why`. */
int gp_available(char *why, size_t size);

typedef struct gp {
    FILE *pipe;
    char file[64];
} gp;

/* Starts a chart written to results_dir/file, width x height pixels, with style.gp loaded: a
 * multiplot with `layout` ("layout 1,2", margins...) and `title` (what is compared, in what
 * unit, over what; "\\n" breaks a line) over its panels. Returns 0 when gnuplot cannot be
 * started. */
int gp_begin(gp *g, const char *results_dir, const char *file, int width, int height,
             const char *layout, const char *title);
/* Finishes it; on success adds the file to `charts`, else says what failed. */
void gp_end(gp *g, chart_list *charts);

/* How a variant is drawn, the same in every chart: colour, point shape, dash, width. */
typedef struct gp_style {
    const char *color;
    int point, dash;
    double width;
} gp_style;
/* The style of a known variant name; other names get one of a fixed palette by index. */
gp_style gp_style_of(const char *name, int index);

/* A logarithmic axis ("x" or "y") a little wider than lo..hi, ticks labelled plainly at every
 * decade (0.01, 1, 100, 10000, or with counts 1K, 1M) and at 2 and 5 when it spans less than
 * two decades, the other integers minor ticks. */
enum { GP_COUNTS = 1, GP_FROM_DECADE = 2 }; /* label 1K, 1M; start at the decade below lo */
void gp_log_axis(FILE *g, const char *axis, double lo, double hi, unsigned flags);

/* One panel of clustered bars: n_groups groups along x, each a bar per series, the value on
 * every bar; NaN leaves a bar out. */
#define GP_BARS_GROUPS 64
#define GP_BARS_SERIES 12
typedef struct gp_bars {
    const char *title, *ylabel;
    int n_groups, n_series;
    char group[GP_BARS_GROUPS][48];
    char series[GP_BARS_SERIES][48];
    char style[GP_BARS_SERIES][48]; /* the name gp_style_of draws the series with */
    double v[GP_BARS_GROUPS][GP_BARS_SERIES];
    int log_y;
    int no_values;               /* 1: no value over the bars (too many to read) */
    double reference;            /* > 0: a dashed line at this value (kept in the y range) */
    const char *reference_label; /* its key entry */
} gp_bars;
void gp_bars_init(gp_bars *b, const char *title, const char *ylabel, int log_y);
/* The index of the group or series named so (the name is copied), added when new; -1 when
 * full. */
int gp_bars_group(gp_bars *b, const char *name);
int gp_bars_series(gp_bars *b, const char *name);
/* The same, drawn in the style of variant `style` (a key label that is not a variant name). */
int gp_bars_series_as(gp_bars *b, const char *name, const char *style);
void gp_bars_plot(FILE *g, const gp_bars *b);
/* A whole chart of one bar panel, the key outside on the right: gp_begin, `setup` (more
 * gnuplot settings, or ""), gp_bars_plot, gp_end. Nothing when b has no group. */
void gp_bars_chart(const char *results_dir, const char *file, int width, int height,
                   const char *title, const char *setup, const gp_bars *b, chart_list *charts);

/* "64K", "1M", "520": a count as the charts label it. */
void gp_count_label(char *out, size_t size, double n);

#endif
