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
           "faster, snapshots %.1fx, frees %.1fx, random traversal %.1fx, %.1fx less memory, "
           "%ld allocations instead of %ld.\n",
           c->n_rows, c->n_items, speedup(c, "naive", "dod", OP_BUILD),
           speedup(c, "naive", "dod", OP_SNAPSHOT), speedup(c, "naive", "dod", OP_TEARDOWN),
           speedup(c, "naive", "dod", OP_QUERY_RANDOM), (double)nb->bytes / (double)db->bytes,
           db->allocs, nb->allocs);
    int vn = csr_find_variant(c, "naive"), vd = csr_find_variant(c, "dod");
    printf("  memory is heap blocks (glibc usable size + 8-byte header); counting only the bytes "
           "requested: %.1fx. dod snapshots into a destination with capacity (0 allocations);\n"
           "  hack3, which copies into fresh vectors as the seed does, snapshots %.1fx faster "
           "than naive. Query in row order: %.1fx faster. Time of naive-fragmented / naive: "
           "query_random %.2f, snapshot %.2f.\n",
           (double)c->requested[vn] / (double)c->requested[vd],
           speedup(c, "naive", "hack3", OP_SNAPSHOT), speedup(c, "naive", "dod", OP_QUERY),
           speedup(c, "naive-fragmented", "naive", OP_QUERY_RANDOM),
           speedup(c, "naive-fragmented", "naive", OP_SNAPSHOT));
}

typedef struct check {
    const char *what;
    int considered, failed;
    double worst;
    const csr_config *worst_at;
} check;

static void check_value(check *k, const csr_config *c, double value, int fails, int higher_is_worse)
{
    if (!k->considered || (higher_is_worse ? value > k->worst : value < k->worst)) {
        k->worst = value;
        k->worst_at = c;
    }
    k->considered++;
    k->failed += fails;
}

static int print_check(const check *k)
{
    if (!k->considered) {
        printf("SKIP %s: no configuration it applies to was run\n", k->what);
        return 0;
    }
    printf("%s %s: worst %.3f at n_rows %u %s (%d of %d configurations failed)\n",
           k->failed ? "FAIL" : "PASS", k->what, k->worst, k->worst_at->n_rows,
           regiment_dist_name(k->worst_at->dist), k->failed, k->considered);
    return k->failed != 0;
}

int csr_print_checks(const csr_config *cfgs, int n)
{
    check build = { "dod build <= 1.05 x hack3 build (medians, n_rows >= 65536, every dist)",
                    0, 0, 0.0, NULL };
    check snap = { "dod snapshot <= 1.25 x memcpy of the same bytes (medians, every size and dist)",
                   0, 0, 0.0, NULL };
    check rebuild = { "dod rebuild makes 0 allocations (every size and dist; worst = allocs)",
                      0, 0, 0.0, NULL };
    check bytes = { "naive bytes / dod bytes >= 2.0 at n_rows 1000000 (every dist)", 0, 0, 0.0,
                    NULL };
    printf("\nchecks (per configuration: dod/hack3 build, dod/memcpy snapshot, dod rebuild "
           "allocs, naive/dod bytes):\n");
    for (int i = 0; i < n; ++i) {
        const csr_config *c = &cfgs[i];
        const csr_result *db = result(c, "dod", OP_BUILD), *hb = result(c, "hack3", OP_BUILD);
        const csr_result *ds = result(c, "dod", OP_SNAPSHOT), *ms = result(c, "memcpy", OP_SNAPSHOT);
        const csr_result *dr = result(c, "dod", OP_REBUILD), *nb = result(c, "naive", OP_BUILD);
        printf("  n_rows %7u %-9s", c->n_rows, regiment_dist_name(c->dist));
        if (db && hb && c->n_rows >= 65536) {
            double x = db->median / hb->median;
            check_value(&build, c, x, x > 1.05, 1);
            printf("  build %.3f", x);
        }
        if (ds && ms) {
            double x = ds->median / ms->median;
            check_value(&snap, c, x, x > 1.25, 1);
            printf("  snapshot %.3f", x);
        }
        if (dr) {
            check_value(&rebuild, c, (double)dr->allocs, dr->allocs != 0, 1);
            printf("  rebuild allocs %ld", dr->allocs);
        }
        if (nb && db && db->bytes > 0 && c->n_rows == 1000000) {
            double x = (double)nb->bytes / (double)db->bytes;
            check_value(&bytes, c, x, x < 2.0, 0);
            printf("  bytes %.2f", x);
        }
        printf("\n");
    }
    return print_check(&build) + print_check(&snap) + print_check(&rebuild) + print_check(&bytes);
}
