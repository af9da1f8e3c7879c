/* The index charts, from csr.jsonl: bench_csr's lifecycle ops against n_rows (time and time
 * relative to dod), its memory, bench_csr_build's strategies and grouped payloads by key
 * distribution, bench_csr_io's files. */
#include "charts.h"
#include <math.h>
#include <string.h>

/* ---- line charts: one series per variant, points by n_rows ---- */
#define LINE_POINTS 16
#define LINE_SERIES 12

typedef struct series {
    const char *name;
    int n;
    double x[LINE_POINTS], y[LINE_POINTS];
} series;

typedef struct lines {
    int n;
    series s[LINE_SERIES];
} lines;

static series *series_named(lines *l, const char *name)
{
    for (int i = 0; i < l->n; ++i)
        if (strcmp(l->s[i].name, name) == 0)
            return &l->s[i];
    if (l->n == LINE_SERIES)
        return NULL;
    series *s = &l->s[l->n++];
    memset(s, 0, sizeof *s);
    s->name = name;
    return s;
}

/* Adds (x, y) keeping x ascending. */
static void add_point(series *s, double x, double y)
{
    if (!s || s->n == LINE_POINTS || !(y > 0.0))
        return;
    int i = s->n++;
    for (; i > 0 && s->x[i - 1] > x; --i) {
        s->x[i] = s->x[i - 1];
        s->y[i] = s->y[i - 1];
    }
    s->x[i] = x;
    s->y[i] = y;
}

static double at(const series *s, double x)
{
    for (int i = 0; s && i < s->n; ++i)
        if (s->x[i] == x)
            return s->y[i];
    return NAN;
}

static void range(const lines *l, double *xlo, double *xhi, double *ylo, double *yhi)
{
    *xlo = *ylo = INFINITY;
    *xhi = *yhi = 0.0;
    for (int i = 0; i < l->n; ++i)
        for (int k = 0; k < l->s[i].n; ++k) {
            *xlo = fmin(*xlo, l->s[i].x[k]);
            *xhi = fmax(*xhi, l->s[i].x[k]);
            *ylo = fmin(*ylo, l->s[i].y[k]);
            *yhi = fmax(*yhi, l->s[i].y[k]);
        }
}

/* Each series as a datablock $<prefix><i>, then one plot of them all, log-log. Series are
 * dodged: each drawn a few percent to the side of the next, so equal figures (hack2, dod and
 * dod-auto hold the same bytes) show as markers side by side instead of one hiding the other. */
static void plot_lines(FILE *g, const lines *l, const char *prefix, int with_key)
{
    double xlo, xhi, ylo, yhi;
    range(l, &xlo, &xhi, &ylo, &yhi);
    const double widest = pow(10.0, 0.01 * (l->n - 1) / 2.0);
    xlo /= widest;
    xhi *= widest;
    for (int i = 0; i < l->n; ++i) {
        double dodge = pow(10.0, 0.01 * (i - (l->n - 1) / 2.0));
        fprintf(g, "$%s%d << EOD\n", prefix, i);
        for (int k = 0; k < l->s[i].n; ++k)
            fprintf(g, "%.9g %.9g\n", l->s[i].x[k] * dodge, l->s[i].y[k]);
        fprintf(g, "EOD\n");
    }
    gp_log_axis(g, "x", xlo, xhi, GP_COUNTS);
    gp_log_axis(g, "y", ylo, yhi, 0);
    fprintf(g, "set grid xtics mxtics\n");
    fprintf(g, with_key ? "set key at screen 0.995,0.86 right top\n" : "unset key\n");
    const char *sep = "plot ";
    for (int i = 0; i < l->n; ++i) {
        gp_style s = gp_style_of(l->s[i].name, i);
        fprintf(g, "%s$%s%d using 1:2 with linespoints lc rgb '%s' pt %d ps 1.4 dt %d lw %g "
                   "title \"%s\"",
                sep, prefix, i, s.color, s.point, s.dash, s.width, l->s[i].name);
        sep = ", \\\n";
    }
    fprintf(g, "\n");
}

/* Two panels with room on the right for the key the second one places there. */
#define LINES_LAYOUT "layout 1,2 margins 0.06,0.84,0.12,0.84 spacing 0.08,0"

static const char *op_title(const char *op)
{
    static const struct {
        const char *op, *title;
    } titles[] = {
        { "build", "build the index from the regiments' locations" },
        { "rebuild", "rebuild it for the next frame, in the memory it holds" },
        { "query", "the seed's query over every location in order" },
        { "query_random", "the seed's query over every location in random order" },
        { "snapshot", "copy it for another thread" },
        { "teardown", "free it" },
    };
    for (size_t i = 0; i < sizeof titles / sizeof titles[0]; ++i)
        if (strcmp(titles[i].op, op) == 0)
            return titles[i].title;
    return op;
}

static int is_seed_longtail(const jl_record *r)
{
    return jl_is(r, "bench", "csr") && jl_is(r, "dist", "longtail");
}

void chart_csr_ops(const char *dir, const jl_file *csr, chart_list *out)
{
    static const char *const ops[] = { "build", "rebuild", "query", "query_random", "snapshot",
                                       "teardown" };
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; ++o) {
        lines time, rel;
        time.n = rel.n = 0;
        for (int i = 0; i < csr->n; ++i) {
            const jl_record *r = &csr->r[i];
            if (is_seed_longtail(r) && jl_is(r, "op", ops[o]))
                add_point(series_named(&time, jl_str(r, "variant")), jl_num(r, "n_rows"),
                          jl_num(r, "ms_median"));
        }
        const series *dod = NULL;
        for (int i = 0; i < time.n; ++i)
            if (strcmp(time.s[i].name, "dod") == 0)
                dod = &time.s[i];
        if (!dod)
            continue;
        for (int i = 0; i < time.n; ++i)
            for (int k = 0; k < time.s[i].n; ++k)
                add_point(series_named(&rel, time.s[i].name), time.s[i].x[k],
                          time.s[i].y[k] / at(dod, time.s[i].x[k]));
        char file[64], title[256];
        snprintf(file, sizeof file, "csr-%s.png", ops[o]);
        snprintf(title, sizeof title, "Jagged index, %s: the seed's naive vector of vectors, its "
                 "hacks 1-3 and dod_csr\\n(long-tail locations, 6 regiments per location; "
                 "median of the runs)", op_title(ops[o]));
        gp g;
        if (!gp_begin(&g, dir, file, 1400, 620, LINES_LAYOUT, title))
            return;
        fprintf(g.pipe, "set title 'time per %s'\nset xlabel 'locations (rows)'\n"
                        "set ylabel 'ms'\n", ops[o]);
        plot_lines(g.pipe, &time, "t", 0);
        fprintf(g.pipe, "set title 'relative to dod (lower is faster)'\n"
                        "set ylabel \"time / dod's time\"\n");
        plot_lines(g.pipe, &rel, "r", 1);
        gp_end(&g, out);
    }
}

void chart_csr_memory(const char *dir, const jl_file *csr, chart_list *out)
{
    lines mb, allocs;
    mb.n = allocs.n = 0;
    for (int i = 0; i < csr->n; ++i) {
        const jl_record *r = &csr->r[i];
        if (!is_seed_longtail(r) || !jl_is(r, "op", "build"))
            continue;
        add_point(series_named(&mb, jl_str(r, "variant")), jl_num(r, "n_rows"),
                  jl_num(r, "bytes") / 1e6);
        add_point(series_named(&allocs, jl_str(r, "variant")), jl_num(r, "n_rows"),
                  jl_num(r, "allocs"));
    }
    gp g;
    if (mb.n == 0 || !gp_begin(&g, dir, "csr-memory.png", 1400, 620, LINES_LAYOUT,
                               "Jagged index after a build: the heap it holds and the allocation "
                               "calls it made\\n(long-tail locations, 6 regiments per location; "
                               "heap blocks with glibc's headers)"))
        return;
    fprintf(g.pipe, "set title 'heap held'\nset xlabel 'locations (rows)'\nset ylabel 'MB'\n");
    plot_lines(g.pipe, &mb, "m", 0);
    fprintf(g.pipe, "set title 'allocation calls per build'\nset ylabel 'calls'\n");
    plot_lines(g.pipe, &allocs, "a", 1);
    gp_end(&g, out);
}

/* ---- bench_csr_build ---- */
static int is_build(const jl_record *r)
{
    return jl_is(r, "bench", "csr_build") && jl_is(r, "op", "build");
}

static int is_grouped(const jl_record *r)
{
    return jl_is(r, "bench", "csr_build") && !jl_is(r, "op", "build");
}

/* "auto t2"; the variants that only run on one thread without the suffix */
static void strategy_label(char *out, size_t size, const jl_record *r)
{
    const char *v = jl_str(r, "variant");
    if (strcmp(v, "floor") == 0 || strcmp(v, "hack3") == 0 || strcmp(v, "dod_csr_build") == 0)
        snprintf(out, size, "%s", v);
    else
        snprintf(out, size, "%s t%s", v, jl_str(r, "threads"));
}

void chart_csr_builds(const char *dir, const jl_file *csr, chart_list *out)
{
    double rows = jl_max(csr, is_build, "n_rows");
    if (rows != rows)
        return;
    char title[256], count[32];
    gp_count_label(count, sizeof count, rows);
    snprintf(title, sizeof title, "Index build, %s rows, 6 items per row: each strategy's time / "
             "hack 3's, by key distribution\\n(min of the runs; t1 on the calling thread, t2 on "
             "a pool of 2; floor = read the keys twice, write the items once)", count);
    static gp_bars b;
    gp_bars_init(&b, "", "time / hack 3's time (lower is faster)", 0);
    b.no_values = 1;
    b.reference = 1.0;
    b.reference_label = "hack 3";
    for (int i = 0; i < csr->n; ++i) {
        const jl_record *r = &csr->r[i];
        if (!is_build(r) || jl_num(r, "n_rows") != rows || jl_is(r, "variant", "hack3"))
            continue;
        char label[32];
        strategy_label(label, sizeof label, r);
        int k = gp_bars_series(&b, label);
        int d = gp_bars_group(&b, jl_str(r, "dist"));
        if (k >= 0 && d >= 0)
            b.v[d][k] = jl_num(r, "x_hack3");
    }
    gp_bars_chart(dir, "csr-builds.png", 1500, 640, title, "set xlabel 'key distribution'",
                  &b, out);
}

/* The min ms of (op, variant, threads) at rows and dist, NaN when absent. */
static double grouped_ms(const jl_file *csr, double rows, const char *dist, const char *op,
                         const char *variant, const char *threads)
{
    for (int i = 0; i < csr->n; ++i) {
        const jl_record *r = &csr->r[i];
        if (is_grouped(r) && jl_num(r, "n_rows") == rows && jl_is(r, "dist", dist) &&
            jl_is(r, "op", op) && jl_is(r, "variant", variant) && jl_is(r, "threads", threads))
            return jl_num(r, "ms_min");
    }
    return NAN;
}

void chart_csr_grouped(const char *dir, const jl_file *csr, chart_list *out)
{
    static const struct {
        const char *op, *variant, *threads, *label, *style, *base_op;
    } bars[] = {
        { "frame", "dod", "1", "dod", "plain t1", "frame" },
        { "frame", "dod", "2", "dod t2", "plain t2", "frame" },
        { "frame_grouped", "dod", "1", "dod, gathered", "auto t1", "frame" },
        { "frame_grouped", "dod", "2", "dod, gathered t2", "auto t2", "frame" },
        { "query_random", "hack3_prefetch", "1", "hack3 + hand-written prefetch", "hack3",
          "query_random" },
        { "query_random_grouped", "dod_no_prefetch", "1", "dod, gathered", "auto t1",
          "query_random" },
        { "query_random_grouped", "dod", "1", "dod, gathered + dod_csr_prefetch_rows", "dod",
          "query_random" },
    };
    double rows = jl_max(csr, is_grouped, "n_rows");
    if (rows != rows)
        return;
    static gp_bars frame, query;
    char title[256], count[32];
    gp_count_label(count, sizeof count, rows);
    snprintf(title, sizeof title, "Payload gathered into row order (dod_csr_gather) against hack "
             "3's regiments[items[j]], %s rows, by key distribution\\n(time / hack 3's, min of "
             "the runs; t2 on a pool of 2)", count);
    gp_bars_init(&frame, "a frame: build, then the query over every row",
                 "time / hack 3's (lower is faster)", 0);
    gp_bars_init(&query, "the query over every row in random order",
                 "time / hack 3's (lower is faster)", 0);
    frame.reference = query.reference = 1.0;
    frame.reference_label = query.reference_label = "hack 3";
    for (int i = 0; i < csr->n; ++i) {
        const jl_record *r = &csr->r[i];
        if (!is_grouped(r) || jl_num(r, "n_rows") != rows)
            continue;
        const char *dist = jl_str(r, "dist");
        for (size_t k = 0; k < sizeof bars / sizeof bars[0]; ++k) {
            if (!jl_is(r, "op", bars[k].op) || !jl_is(r, "variant", bars[k].variant) ||
                !jl_is(r, "threads", bars[k].threads))
                continue;
            gp_bars *b = strcmp(bars[k].base_op, "frame") == 0 ? &frame : &query;
            int d = gp_bars_group(b, dist), s = gp_bars_series_as(b, bars[k].label, bars[k].style);
            double base = grouped_ms(csr, rows, dist, bars[k].base_op, "hack3", "1");
            if (d >= 0 && s >= 0)
                b->v[d][s] = jl_num(r, "ms_min") / base;
        }
    }
    gp g;
    if (frame.n_groups == 0 ||
        !gp_begin(&g, dir, "csr-grouped.png", 1500, 640, "layout 1,2", title))
        return;
    fprintf(g.pipe, "set key outside bottom center horizontal\n");
    gp_bars_plot(g.pipe, &frame);
    gp_bars_plot(g.pipe, &query);
    gp_end(&g, out);
}

/* ---- bench_csr_io ---- */
static int is_file_op(const jl_record *r)
{
    static const char *const ops[] = { "save", "load", "load_full", "reload_full" };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; ++i)
        if (jl_is(r, "bench", "csr") && jl_is(r, "op", ops[i]))
            return 1;
    return 0;
}

void chart_csr_io(const char *dir, const jl_file *csr, chart_list *out)
{
    double rows = jl_max(csr, is_file_op, "n_rows");
    if (rows != rows)
        return;
    char title[256], count[32];
    gp_count_label(count, sizeof count, rows);
    snprintf(title, sizeof title, "Saving and loading the index, %s rows, to a file: "
             "dod's format against a naive per-row loop and raw fwrite/fread\\n(ms, min of "
             "the runs; load = fread + a header-checked view, load_full = dod_csr_load, every "
             "check)", count);
    static gp_bars b;
    gp_bars_init(&b, "", "ms (log scale)", 1);
    for (int i = 0; i < csr->n; ++i) {
        const jl_record *r = &csr->r[i];
        if (!is_file_op(r) || jl_num(r, "n_rows") != rows)
            continue;
        int d = gp_bars_group(&b, jl_str(r, "op")), s = gp_bars_series(&b, jl_str(r, "variant"));
        if (d >= 0 && s >= 0)
            b.v[d][s] = jl_num(r, "ms_min");
    }
    gp_bars_chart(dir, "csr-io.png", 1200, 600, title, "", &b, out);
}
