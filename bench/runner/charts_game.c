/* The charts a game programmer reads first: the world against raw loops and the OOP baseline
 * (world.jsonl), the table layouts (soa.jsonl), and handing a frame to worker threads
 * (frames.jsonl). */
#include "bench.h"
#include "charts.h"
#include <dod/world.h>
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
    /* world_chunked is the world with the default blocks (the suite's desc says 0) */
    char title[512];
    snprintf(title, sizeof title,
             "The seed's update, position += movement over 3 entity types mixed 4:2:1: the "
             "world against raw arrays and the OOP baseline\\n(ns per entity, min of the "
             "passes; oop: a virtual update() per object, made with new or placed in "
             "pages;\\nworld: fixed archetypes, world_chunked: the default blocks, %u KiB "
             "growing to %u MiB; raw: one plain array per field and type)",
             DOD_WORLD_FIRST_BLOCK_BYTES >> 10, DOD_WORLD_BLOCK_BYTES >> 20);
    gp_bars_chart(dir, "world-update.png", 1200, 640, title, "", &b, out);
}

/* How a chart of the world's ops names a record's panel, group and series:
 *   BY_COUNT    one panel; group: the op, with its variant unless that is "world"; series: the
 *               entity count
 *   BY_VARIANT  a panel per entity count; group: the op; series: the variant
 *   BY_SIDE     the index cases' variants, "kind-dist-side-tN": a panel per key distribution;
 *               group: the op on N threads; series: kind and side ("chunked world") */
typedef enum { BY_COUNT, BY_VARIANT, BY_SIDE } ops_labels;

#define OPS_MAX 12
typedef struct ops_chart {
    const char *file, *title, *ylabel;
    ops_labels labels;
    int width;
    const char *ops[OPS_MAX];      /* none: every op no chart before it shows but update */
    const char *variants[OPS_MAX]; /* none: any variant of those ops */
} ops_chart;

static const ops_chart ops_charts[] = {
    { "world-fresh.png",
      "Spawning into a fresh world of one fixed {P,V} archetype: its memory fresh from the "
      "system (cold),\\ntouched by create (DOD_WORLD_PREFAULT) or recycled (warm)\\n(ns per "
      "entity, min of the passes; create: the world's creation, which pays the touch when "
      "prefaulted)",
      "ns per entity (log scale)", BY_VARIANT, 1100,
      { "spawn", "spawn_n", "spawn_fill", "spawn_rows", "create" },
      { "cold", "cold_prefault", "warm" } },
    { "world-scenarios.png",
      "The ecs_benchmark scenarios by entity count: spawn, despawn, get, move between "
      "archetypes, iterate a query against a raw loop\\n(ns per entity, min of the passes; "
      "iterate world_chunked_16k: equal 16 KiB blocks, the layout before blocks grew;\\n"
      "frag_iter: 26 archetypes of 20 entities)",
      "ns per entity (log scale)", BY_COUNT, 1300,
      { "spawn", "spawn_n", "despawn", "get1", "get2", "get3", "move_pair", "iterate",
        "frag_iter" },
      { NULL } },
    { "world-snapshots.png",
      "Copies and files of the seed's world by entity count: dod_world_copy against memcpy, "
      "a published frame against\\nthe OOP deep copy under a mutex, copying what changed, "
      "copy_full on 2 threads and 1, save and load against fwrite and fread\\n(ns per entity, "
      "min of the passes)",
      "ns per entity (log scale)", BY_COUNT, 1300,
      { "copy", "publish", "copy_changed", "copy_full", "save", "load" },
      { NULL } },
    { "world-index.png",
      "Relation indexes from the world against the same work over a plain array: regiments "
      "by location, in a fixed or a chunked archetype\\n(ns per regiment, min of the passes; "
      "tN: on N threads; frame: index + gather + query)",
      "ns per regiment (log scale)", BY_SIDE, 1500,
      { "index", "gather", "query", "query_random", "query_random_direct", "frame" },
      { NULL } },
    { "world-index-rows.png",
      "An index of a frame's world read by row numbers (DOD_WORLD_INDEX_ROWS) against plain "
      "arrays in the query's walk order, fixed or chunked archetypes\\n(ns per item, min of "
      "the passes; tN: on N threads)",
      "ns per item (log scale)", BY_SIDE, 1500,
      { "index_rows", "gather_rows", "read_rows", "read_random" },
      { NULL } },
    { "world-commands.png",
      "Command buffers: recording a command, applying them against direct calls (despawn; "
      "at scale: move, despawn,\\nspawn 2% of the entities), a frame of structural changes "
      "(cmds_frame) on 1 and 2 threads\\n(ns per command or entity, min of the passes)",
      "ns (log scale)", BY_COUNT, 1300,
      { "record", "despawn_cmds", "cmds_move", "cmds_despawn", "cmds_spawn", "cmds_frame" },
      { NULL } },
    { "world-systems.png",
      "The ecs_benchmark systems scenarios, 2 and 7 systems over a uniform and a mixed setup: "
      "the world's schedule on 1 and 2 threads against raw loops\\n(ns per entity, min of the "
      "frames; fixed or chunked archetypes; pps: a pass per system)",
      "ns per entity (log scale)", BY_VARIANT, 1500,
      { "uniform_2sys", "uniform_7sys", "mixed_2sys", "mixed_7sys" },
      { NULL } },
    { "world-ops-other.png",
      "The world's other operations by entity count (ns per entity, min of the passes)",
      "ns per entity (log scale)", BY_COUNT, 1300, { NULL }, { NULL } },
};
enum { N_OPS_CHARTS = (int)(sizeof ops_charts / sizeof ops_charts[0]) };

static int listed(const char *const *names, const char *name)
{
    for (int i = 0; i < OPS_MAX && names[i]; ++i)
        if (strcmp(names[i], name) == 0)
            return 1;
    return 0;
}

/* The first chart that lists op and variant shows it (the last, which lists none, every op
 * the others leave but update). */
static int shows(const ops_chart *c, const char *op, const char *variant)
{
    const ops_chart *k = ops_charts;
    while (k->ops[0] && !(listed(k->ops, op) && (!k->variants[0] || listed(k->variants, variant))))
        ++k;
    return k == c && strcmp(op, "update") != 0;
}

/* r's panel, group and series in a chart labelled so (48 bytes each); 0 when it has none. */
static int place(ops_labels labels, const jl_record *r, char *panel, char *group, char *series)
{
    const char *op = jl_str(r, "op"), *variant = jl_str(r, "variant");
    char kind[16], dist[16], side[16];
    int threads;
    panel[0] = '\0';
    switch (labels) {
    case BY_COUNT:
        if (strcmp(variant, "world") == 0)
            snprintf(group, 48, "%s", op);
        else
            snprintf(group, 48, "%s %s", op, variant);
        entities(series, 48, jl_num(r, "n"));
        return 1;
    case BY_VARIANT:
        entities(panel, 48, jl_num(r, "n"));
        snprintf(group, 48, "%s", op);
        snprintf(series, 48, "%s", variant);
        return 1;
    case BY_SIDE:
        if (sscanf(variant, "%15[^-]-%15[^-]-%15[^-]-t%d", kind, dist, side, &threads) != 4)
            return 0;
        snprintf(panel, 48, "%s keys", dist);
        snprintf(group, 48, "%s t%d", op, threads);
        snprintf(series, 48, "%s %s", kind, side);
        return 1;
    }
    return 0;
}

/* One chart of ops_charts: a bar panel per panel name, side by side (the last figure of a
 * bar wins, as in a file that later runs appended to). */
static void chart_ops(const char *dir, const jl_file *world, const ops_chart *c,
                      chart_list *out)
{
    enum { MAX_PANELS = 3 };
    static gp_bars panel[MAX_PANELS];
    static char name[MAX_PANELS][48];
    int n = 0;
    for (int i = 0; i < world->n; ++i) {
        const jl_record *r = &world->r[i];
        const char *op = jl_str(r, "op"), *variant = jl_str(r, "variant");
        double ns = jl_num(r, "ns_min");
        char p[48], group[48], series[48];
        if (!op || !variant || ns != ns || !shows(c, op, variant) ||
            !place(c->labels, r, p, group, series))
            continue;
        int k = 0;
        while (k < n && strcmp(name[k], p) != 0)
            ++k;
        if (k == MAX_PANELS)
            continue;
        if (k == n) {
            snprintf(name[n], sizeof name[n], "%s", p);
            gp_bars_init(&panel[n++], name[k], c->ylabel, 1);
        }
        int g = gp_bars_group(&panel[k], group), s = gp_bars_series(&panel[k], series);
        if (g >= 0 && s >= 0)
            panel[k].v[g][s] = ns;
    }
    char layout[32];
    gp g;
    snprintf(layout, sizeof layout, "layout 1,%d", n);
    if (n == 0 || !gp_begin(&g, dir, c->file, c->width, 640, layout, c->title))
        return;
    fprintf(g.pipe, "set key outside %s\nset xtics rotate by 30 right\nset lmargin 14\n",
            n == 1 ? "right top" : "bottom center horizontal");
    for (int k = 0; k < n; ++k)
        gp_bars_plot(g.pipe, &panel[k]);
    gp_end(&g, out);
}

/* Every other timed op of the world suite, in charts by subject; an op none of them lists has
 * a chart of its own, so new scenarios appear without an edit here. */
void chart_world_ops(const char *dir, const jl_file *world, chart_list *out)
{
    for (int k = 0; k < N_OPS_CHARTS; ++k)
        chart_ops(dir, world, &ops_charts[k], out);
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
    char title[320], where[32], who[32];
    gp_count_label(where, sizeof where, locations);
    gp_count_label(who, sizeof who, regiments);
    snprintf(title, sizeof title, "Handing the world to worker threads, %s locations, %s "
             "regiments: a deep copy under a mutex against dod frames;\\nthe strategy tick on "
             "a table, by hand on plain arrays and on the world (ms, log scale)", where, who);
    gp g;
    if (!gp_begin(&g, dir, "frames.png", 1500, 640, "layout 1,2", title))
        return;
    fprintf(g.pipe, "set key outside bottom center vertical\n");
    gp_bars_plot(g.pipe, &snap);
    fprintf(g.pipe, "set key outside bottom center horizontal\n");
    gp_bars_plot(g.pipe, &tick);
    gp_end(&g, out);
}
