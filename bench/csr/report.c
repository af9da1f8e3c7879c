#include "report.h"
#include <string.h>

static const csr_result *result(const csr_config *c, const char *variant, csr_op op)
{
    int v = csr_find_variant(c, variant);
    return v >= 0 && c->r[v][op].measured ? &c->r[v][op] : NULL;
}

void csr_print_table(const csr_config *c)
{
    printf("\n== n_rows %u, n_items %u, %s: %d runs, batch %d\n", c->n_rows, c->n_items,
           regiment_dist_name(c->dist), c->runs, c->batch);
    printf("%-17s %-13s %11s %11s %8s %12s %9s %9s\n", "variant", "op", "min ms", "median ms",
           "x dod", "bytes", "allocs", "frees");
    for (int v = 0; v < c->n_variants; ++v)
        for (int op = 0; op < OP_COUNT; ++op) {
            const csr_result *r = &c->r[v][op];
            if (!r->measured)
                continue;
            const csr_result *d = result(c, "dod", (csr_op)op);
            char rel[16] = "-";
            if (d && d->median > 0.0)
                snprintf(rel, sizeof rel, "%.2f", r->median / d->median);
            printf("%-17s %-13s %11.4g %11.4g %8s %12lld %9ld %9ld\n", c->variants[v]->name,
                   csr_op_name((csr_op)op), r->min, r->median, rel, r->bytes, r->allocs,
                   r->frees);
        }
}

void csr_write_json(FILE *f, const csr_config *c)
{
    for (int v = 0; v < c->n_variants; ++v)
        for (int op = 0; op < OP_COUNT; ++op) {
            const csr_result *r = &c->r[v][op];
            if (!r->measured)
                continue;
            fprintf(f,
                    "{\"bench\":\"csr\",\"variant\":\"%s\",\"op\":\"%s\",\"dist\":\"%s\","
                    "\"n_rows\":%u,\"n_items\":%u,\"threads\":1,\"ms_min\":%.6g,"
                    "\"ms_median\":%.6g,\"bytes\":%lld,\"allocs\":%ld}\n",
                    c->variants[v]->name, csr_op_name((csr_op)op), regiment_dist_name(c->dist),
                    c->n_rows, c->n_items, r->min, r->median, r->bytes, r->allocs);
        }
}

/* The configuration of `dist` with the most rows. */
static const csr_config *largest(const csr_config *cfgs, int n, regiment_dist dist)
{
    const csr_config *best = NULL;
    for (int i = 0; i < n; ++i)
        if (cfgs[i].dist == dist && (!best || cfgs[i].n_rows > best->n_rows))
            best = &cfgs[i];
    return best;
}

static double speedup(const csr_config *c, const char *base, const char *contender, csr_op op)
{
    const csr_result *b = result(c, base, op), *x = result(c, contender, op);
    return b && x && x->median > 0.0 ? b->median / x->median : 0.0;
}

void csr_print_sentence(const csr_config *cfgs, int n)
{
    const csr_config *c = largest(cfgs, n, DIST_LONGTAIL);
    const csr_result *nb = c ? result(c, "naive", OP_BUILD) : NULL;
    const csr_result *db = c ? result(c, "dod", OP_BUILD) : NULL;
    if (!nb || !db || db->bytes <= 0)
        return;
    printf("\nAt %u rows, %u items, longtail (medians): compared to naive, dod builds %.1fx "
           "faster,\n  snapshots %.1fx, frees %.1fx, random traversal %.1fx, %.1fx less memory, "
           "%ld allocations instead of %ld.\n",
           c->n_rows, c->n_items, speedup(c, "naive", "dod", OP_BUILD),
           speedup(c, "naive", "dod", OP_SNAPSHOT), speedup(c, "naive", "dod", OP_TEARDOWN),
           speedup(c, "naive", "dod", OP_QUERY_RANDOM), (double)nb->bytes / (double)db->bytes,
           db->allocs, nb->allocs);
    int vn = csr_find_variant(c, "naive"), vd = csr_find_variant(c, "dod");
    printf("  Memory is heap blocks (glibc usable size + 8-byte header); counting only the bytes\n"
           "  requested: %.1fx. dod snapshots into a destination with capacity (0 allocations);\n"
           "  hack3, which copies into fresh vectors as the seed does, snapshots %.1fx faster "
           "than naive.\n  Query in row order: %.1fx faster. Time of naive-fragmented / naive: "
           "query_random %.2f, snapshot %.2f.\n",
           (double)c->requested[vn] / (double)c->requested[vd],
           speedup(c, "naive", "hack3", OP_SNAPSHOT), speedup(c, "naive", "dod", OP_QUERY),
           speedup(c, "naive-fragmented", "naive", OP_QUERY_RANDOM),
           speedup(c, "naive-fragmented", "naive", OP_SNAPSHOT));
}

typedef struct check {
    int considered;
    double worst;
} check;

static void check_value(check *k, double value, int higher_is_worse)
{
    if (!k->considered || (higher_is_worse ? value > k->worst : value < k->worst))
        k->worst = value;
    k->considered++;
}

/* The figures behind the checks of one configuration (n/a where a check does not apply). */
typedef struct config_checks {
    double build, snapshot, rebuild_allocs, bytes; /* < 0: does not apply */
} config_checks;

static config_checks checks_of(const csr_config *c)
{
    const csr_result *db = result(c, "dod", OP_BUILD), *hb = result(c, "hack3", OP_BUILD);
    const csr_result *ds = result(c, "dod", OP_SNAPSHOT), *ms = result(c, "memcpy", OP_SNAPSHOT);
    const csr_result *dr = result(c, "dod", OP_REBUILD), *nb = result(c, "naive", OP_BUILD);
    config_checks k = { -1.0, -1.0, -1.0, -1.0 };
    if (db && hb && c->n_rows >= 65536)
        k.build = db->median / hb->median;
    if (ds && ms)
        k.snapshot = ds->median / ms->median;
    if (dr)
        k.rebuild_allocs = (double)dr->allocs;
    if (nb && db && db->bytes > 0 && c->n_rows == 1000000)
        k.bytes = (double)nb->bytes / (double)db->bytes;
    return k;
}

void csr_print_config(const csr_config *c)
{
    config_checks k = checks_of(c);
    const csr_result *nb = result(c, "naive", OP_BUILD), *db = result(c, "dod", OP_BUILD);
    printf("  %7u rows %-9s", c->n_rows, regiment_dist_name(c->dist));
    if (nb && db && db->median > 0.0)
        printf("  build %.1fx faster than naive", nb->median / db->median);
    if (k.build >= 0.0)
        printf(", %.3fx hack3", k.build);
    if (k.snapshot >= 0.0)
        printf("; snapshot %.3fx memcpy", k.snapshot);
    if (k.rebuild_allocs >= 0.0)
        printf("; rebuild %.0f allocs", k.rebuild_allocs);
    if (k.bytes >= 0.0)
        printf("; naive holds %.2fx the bytes", k.bytes);
    printf("\n");
}

void csr_targets(const csr_config *cfgs, int n)
{
    check build = { 0, 0.0 }, snap = { 0, 0.0 }, rebuild = { 0, 0.0 }, bytes = { 0, 0.0 };
    for (int i = 0; i < n; ++i) {
        config_checks k = checks_of(&cfgs[i]);
        if (k.build >= 0.0)
            check_value(&build, k.build, 1);
        if (k.snapshot >= 0.0)
            check_value(&snap, k.snapshot, 1);
        if (k.rebuild_allocs >= 0.0)
            check_value(&rebuild, k.rebuild_allocs, 1);
        if (k.bytes >= 0.0)
            check_value(&bytes, k.bytes, 0);
    }
    if (build.considered)
        bench_target("x", build.worst, BENCH_AT_MOST, 1.05,
                     "dod build / hack3 build (medians), worst of every dist at >= 65536 rows");
    if (snap.considered)
        bench_target("x", snap.worst, BENCH_AT_MOST, 1.25,
                     "dod snapshot / memcpy of the same bytes (medians), worst of every size");
    if (rebuild.considered)
        bench_target("allocs", rebuild.worst, BENCH_AT_MOST, 0.0,
                     "dod rebuild allocations, most of every size and dist");
    if (bytes.considered)
        bench_target("x", bytes.worst, BENCH_AT_LEAST, 2.0,
                     "naive bytes / dod bytes, least of every dist at 1000000 rows");
}
