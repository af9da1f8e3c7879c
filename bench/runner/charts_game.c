/* The charts a game programmer reads first: the world against raw loops and the OOP baseline
 * (world.jsonl), the table layouts (soa.jsonl), and handing a frame to worker threads
 * (frames.jsonl). */
#include "bench.h"
#include "charts.h"
#include <math.h>
#include <string.h>

/* "64K entities" */
static void entities(char *out, size_t size, double n)
{
    char count[32];
    gp_count_label(count, sizeof count, n);
    snprintf(out, size, "%s entities", count);
}

void chart_world_update(const char *dir, const jl_file *world, chart_list *out)
{
    static gp_bars b;
    gp_bars_init(&b, "", "ns per entity (log scale)", 1);
    for (int i = 0; i < world->n; ++i) {
        const jl_record *r = &world->r[i];
        char group[48];
        if (!jl_is(r, "op", "update"))
            continue;
        entities(group, sizeof group, jl_num(r, "n"));
        int g = gp_bars_group(&b, group), s = gp_bars_series(&b, jl_str(r, "variant"));
        if (g >= 0 && s >= 0)
            b.v[g][s] = jl_num(r, "ns_min");
    }
    gp_bars_chart(dir, "world-update.png", 1200, 640,
                  "The seed's update, position += movement over 3 entity types mixed 4:2:1: the "
                  "world against raw arrays and the OOP baseline\\n(ns per entity, min of the "
                  "passes; oop: a virtual update() per object, made with new or placed in "
                  "pages;\\nworld: fixed archetypes, world_chunked: 16 KiB blocks; raw: one "
                  "plain array per field and type)",
                  "", &b, out);
}

/* Every other timed op of the world suite, so new scenarios appear without an edit here. */
void chart_world_ops(const char *dir, const jl_file *world, chart_list *out)
{
    static gp_bars b;
    gp_bars_init(&b, "", "ns per entity (log scale)", 1);
    for (int i = 0; i < world->n; ++i) {
        const jl_record *r = &world->r[i];
        const char *op = jl_str(r, "op"), *variant = jl_str(r, "variant");
        double ns = jl_num(r, "ns_min");
        if (!op || !variant || ns != ns || strcmp(op, "update") == 0)
            continue;
        char group[48], series[48];
        if (strcmp(variant, "world") == 0)
            snprintf(group, sizeof group, "%s", op);
        else
            snprintf(group, sizeof group, "%s %s", op, variant);
        entities(series, sizeof series, jl_num(r, "n"));
        int g = gp_bars_group(&b, group), s = gp_bars_series(&b, series);
        if (g >= 0 && s >= 0)
            b.v[g][s] = ns;
    }
    gp_bars_chart(dir, "world-ops.png", 1500, 680,
                  "The world's operations by entity count: spawn, despawn, get, move between "
                  "archetypes, iterate a query against a raw loop\\n(ns per entity, min of the "
                  "passes; frag_iter: 26 archetypes of 20 entities)",
                  "set xtics rotate by 30 right\nset bmargin 9", &b, out);
}

static int is_step(const jl_record *r)
{
    return jl_is(r, "op", "step");
}

void chart_soa(const char *dir, const jl_file *soa, chart_list *out)
{
    static const struct {
        const char *variant, *label;
    } names[] = { { "aos", "AoS" },          { "hotcold", "hot/cold split" },
                  { "soa", "SoA (dod table)" }, { "aosoa8", "AoSoA, 8 a tile" },
                  { "aosoa16", "AoSoA, 16 a tile" }, { "dod", "dod table radix sort" },
                  { "qsort", "qsort of the structs" } };
    static gp_bars step, sort;
    double n = jl_max(soa, is_step, "n");
    if (n != n)
        return;
    gp_bars_init(&step, "the seed's step: pos += vel * dt over every entity", "ms", 0);
    gp_bars_init(&sort, "sort every record by a u32 key", "ms", 0);
    for (int i = 0; i < soa->n; ++i) {
        const jl_record *r = &soa->r[i];
        gp_bars *b = jl_is(r, "op", "step") ? &step : jl_is(r, "op", "sort") ? &sort : NULL;
        const char *variant = jl_str(r, "variant"), *label = variant;
        for (size_t k = 0; b && k < sizeof names / sizeof names[0]; ++k)
            if (strcmp(names[k].variant, variant) == 0)
                label = names[k].label;
        int g = b ? gp_bars_group(b, label) : -1;
        if (g < 0)
            continue;
        b->v[g][gp_bars_series(b, "min")] = jl_num(r, "ms_min");
        b->v[g][gp_bars_series(b, "median")] = jl_num(r, "ms_median");
    }
    char title[256], count[32];
    gp_count_label(count, sizeof count, n);
    snprintf(title, sizeof title, "Tables, %s entities of 88 bytes (24 of them hot): the layouts "
             "of the seed's step, and the table's sort against qsort\\n(ms, min and median of "
             "the passes)", count);
    gp g;
    if (!gp_begin(&g, dir, "soa.png", 1400, 620, "layout 1,2", title))
        return;
    fprintf(g.pipe, "set key outside bottom center horizontal\n");
    gp_bars_plot(g.pipe, &step);
    gp_bars_plot(g.pipe, &sort);
    gp_end(&g, out);
}

void chart_frames(const char *dir, const jl_file *frames, chart_list *out)
{
    static const struct {
        const char *key, *label, *style;
    } snapshot[] = { { "deep_copy_ms", "deep copy under a mutex", "naive" },
                     { "copy_publish_ms", "dod_csr_copy + publish", "auto t1" },
                     { "publish_ms", "publish (index built in the frame)", "dod" } },
      /* the tick's forms (their JSON case), and their update's key */
      forms[] = { { "tick", "table (its own game)", "move_ms" },
                  { "plain_tick", "plain arrays by hand", "systems_ms" },
                  { "world_tick", "world", "systems_ms" } };
    static const struct {
        const char *key, *label;
    } phases[] = { { NULL, "update" },       { "copy_ms", "copy" }, { "rebuild_ms", "rebuild" },
                   { "AI_ms", "AI" },        { "path_ms", "path" }, { "UI_ms", "UI" },
                   { "main", "main thread" } };
    enum { N_FORMS_SHOWN = 3, N_SHOWN = 7, MAX_TICKS_READ = 64 };
    static gp_bars snap, tick;
    char titles[2][160];
    double locations = NAN, regiments = NAN;
    for (int i = 0; i < frames->n; ++i)
        if (jl_is(&frames->r[i], "case", "snapshot")) {
            locations = jl_num(&frames->r[i], "locations");
            regiments = jl_num(&frames->r[i], "regiments");
        }
    if (locations != locations)
        return;
    snprintf(titles[0], sizeof titles[0], "a snapshot of the index for the workers (median)");
    snprintf(titles[1], sizeof titles[1], "the strategy tick phase by phase, min of the ticks "
             "(main thread: update + copy + rebuild)");
    gp_bars_init(&snap, titles[0], "ms", 1);
    gp_bars_init(&tick, titles[1], "ms", 1);
    static double per_phase[N_FORMS_SHOWN][N_SHOWN][MAX_TICKS_READ];
    int ticks[N_FORMS_SHOWN] = { 0 };
    double largest = 0; /* the ticks of the largest game in the file (a full run's) */
    for (int i = 0; i < frames->n; ++i)
        if (jl_num(&frames->r[i], "tick") == jl_num(&frames->r[i], "tick") &&
            jl_num(&frames->r[i], "regiments") > largest)
            largest = jl_num(&frames->r[i], "regiments");
    for (int i = 0; i < frames->n; ++i) {
        const jl_record *r = &frames->r[i];
        char group[48];
        if (jl_is(r, "case", "snapshot")) {
            gp_count_label(group, sizeof group, jl_num(r, "locations"));
            strcat(group, " locations");
            int g = gp_bars_group(&snap, group);
            for (int k = 0; k < 3 && g >= 0; ++k)
                snap.v[g][gp_bars_series_as(&snap, snapshot[k].label, snapshot[k].style)] =
                    jl_num(r, snapshot[k].key);
            continue;
        }
        for (int f = 0; f < N_FORMS_SHOWN; ++f) {
            if (!jl_is(r, "case", forms[f].key) || ticks[f] >= MAX_TICKS_READ ||
                jl_num(r, "regiments") != largest)
                continue;
            double *at[N_SHOWN];
            for (int p = 0; p < N_SHOWN; ++p)
                at[p] = &per_phase[f][p][ticks[f]];
            for (int p = 1; p < N_SHOWN - 1; ++p)
                *at[p] = jl_num(r, phases[p].key);
            *at[0] = jl_num(r, forms[f].style);
            *at[N_SHOWN - 1] = *at[0] + *at[1] + *at[2];
            ticks[f]++;
        }
    }
    for (int f = 0; f < N_FORMS_SHOWN; ++f)
        for (int p = 0; p < N_SHOWN && ticks[f] > 0; ++p) {
            int g = gp_bars_group(&tick, phases[p].label);
            tick.v[g][gp_bars_series(&tick, forms[f].label)] =
                bench_min(per_phase[f][p], ticks[f]);
        }
    char title[256], where[32], who[32];
    gp_count_label(where, sizeof where, locations);
    gp_count_label(who, sizeof who, regiments);
    snprintf(title, sizeof title, "Handing the world to worker threads, %s locations, %s "
             "regiments: a deep copy under a mutex against dod frames; the strategy tick on a "
             "table, by hand on plain arrays and on the world\n(ms, log scale)", where, who);
    gp g;
    if (!gp_begin(&g, dir, "frames.png", 1500, 640, "layout 1,2", title))
        return;
    fprintf(g.pipe, "set key outside bottom center vertical\n");
    gp_bars_plot(g.pipe, &snap);
    fprintf(g.pipe, "set key outside bottom center horizontal\n");
    gp_bars_plot(g.pipe, &tick);
    gp_end(&g, out);
}
