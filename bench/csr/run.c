/* The measurement loop: each repetition runs every variant's whole lifecycle once, starting
 * with a different variant each time (round-robin), so baseline and contenders alternate and
 * share the machine's noise. */
#include "run.h"
#include "bench.h"
#include "meter.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each sample covers at least this many items (a batch of lifecycles at small sizes), so the
 * clock's resolution and the call overhead stay far below what is measured. */
#define BATCH_ITEMS 400000u

/* Below this many items an untimed warm-up repetition comes first (heap and caches). Beyond
 * it nothing of one repetition survives in the caches for the next and a repetition costs
 * seconds for the naive variants, so every repetition is timed. */
#define WARMUP_MAX_ITEMS 1000000u

const char *csr_op_name(csr_op op)
{
    static const char *names[OP_COUNT] = { "build",    "rebuild",  "query",
                                           "query_random", "snapshot", "teardown" };
    return names[op];
}

int csr_find_variant(const csr_config *c, const char *name)
{
    for (int v = 0; v < c->n_variants; ++v)
        if (strcmp(c->variants[v]->name, name) == 0)
            return v;
    return -1;
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (!p)
        bench_die("out of memory");
    return p;
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The next frame: the same regiments, about 1% of them moved to a uniformly random location. */
static void next_frame(Regiment *next, const Regiment *regs, uint32_t n_items, uint32_t n_rows)
{
    uint64_t s = 0xF7A3E2ull + n_rows;
    memcpy(next, regs, (size_t)n_items * sizeof *next);
    for (uint32_t i = 0; i < n_items; ++i)
        if (splitmix(&s) % 100 == 0)
            next[i].location = (uint32_t)(splitmix(&s) % n_rows);
}

/* The seed's query over hack3_build's arrays: what every variant must return. */
static double reference_query(const Regiment *regs, const uint32_t *order, uint32_t n_rows,
                              uint32_t n_items)
{
    uint32_t *offsets = (uint32_t *)xmalloc(((size_t)n_rows + 1) * sizeof *offsets);
    uint32_t *blob = (uint32_t *)xmalloc((size_t)n_items * sizeof *blob);
    hack3_build(offsets, blob, regs, n_items, n_rows);
    double total = 0.0;
    for (uint32_t i = 0; i < n_rows; ++i)
        total += seed_query_row(offsets, blob, regs, order ? order[i] : i);
    free(offsets);
    free(blob);
    return total;
}

typedef struct refs {
    double query, query_random, next; /* frame 1 in order, frame 1 in order[], frame 2 */
} refs;

typedef struct lifecycle {
    const csr_variant *v;
    const csr_input *in;
    const refs *ref;
    csr_result *res;      /* the variant's OP_COUNT results */
    int batch;
    int rec;              /* the repetition's slot, -1 for the warm-up */
    int first;            /* the configuration's first lifecycle: check and size the index */
    size_t *requested;    /* where the first lifecycle stores the variant's requested bytes */
    unsigned char *insts; /* batch instances */
    unsigned char *snaps; /* batch snapshot destinations */
} lifecycle;

static void *inst(const lifecycle *l, unsigned char *base, int k)
{
    return base + (size_t)k * l->v->inst_size;
}

static csr_count count_now(const lifecycle *l)
{
    csr_count c;
    l->v->count(&c, l->in);
    return c;
}

/* Store one op's sample and counts (counts are per lifecycle, bytes relative to `base`). */
static void record(const lifecycle *l, csr_op op, double batch_ms, const csr_count *base,
                   const csr_count *before, const csr_count *after)
{
    csr_result *r = &l->res[op];
    r->measured = 1;
    r->bytes = ((long long)after->heap_bytes - (long long)base->heap_bytes) / l->batch;
    r->allocs = (after->allocs - before->allocs) / l->batch;
    r->frees = (after->frees - before->frees) / l->batch;
    if (l->rec >= 0) {
        r->ms[l->rec] = batch_ms / l->batch;
        r->n = l->rec + 1;
    }
}

static int reports(const csr_variant *v, csr_op op)
{
    return (v->reported >> op) & 1u;
}

static void check_query(const lifecycle *l, double got, double want, const char *what)
{
    if (got != want) {
        fprintf(stderr, "bench_csr: %s %s: query %.17g, reference %.17g\n", l->v->name, what,
                got, want);
        bench_die("a variant's index is wrong");
    }
}

/* Every timed query is checked against the reference (a compare per call, nothing more). */
static void run_query(const lifecycle *l, csr_op op, const uint32_t *order, double want,
                      const csr_count *base)
{
    csr_count c0 = count_now(l);
    double t0 = bench_now_ms();
    int ok = 1;
    for (int k = 0; k < l->batch; ++k)
        ok &= l->v->query(inst(l, l->insts, k), l->in, order) == want;
    double ms = bench_now_ms() - t0;
    csr_count c1 = count_now(l);
    if (!ok)
        check_query(l, l->v->query(l->insts, l->in, order), want, csr_op_name(op));
    record(l, op, ms, base, &c0, &c1);
}

/* The first lifecycle also checks what the untimed queries would otherwise not see. */
static void check_first(const lifecycle *l, const unsigned char *base, double want,
                        const char *what)
{
    if (l->first)
        check_query(l, l->v->query(base, l->in, NULL), want, what);
}

static void run_lifecycle(const lifecycle *l)
{
    const csr_variant *v = l->v;
    for (int k = 0; k < l->batch; ++k) {
        memset(inst(l, l->insts, k), 0, v->inst_size);
        memset(inst(l, l->snaps, k), 0, v->inst_size);
        if (v->init) {
            v->init(inst(l, l->insts, k), l->in);
            v->init(inst(l, l->snaps, k), l->in);
        }
    }

    csr_count base = count_now(l);
    double t0 = bench_now_ms();
    for (int k = 0; k < l->batch; ++k)
        v->build(inst(l, l->insts, k), l->in);
    double ms = bench_now_ms() - t0;
    csr_count c = count_now(l);
    if (reports(v, OP_BUILD))
        record(l, OP_BUILD, ms, &base, &base, &c);
    if (l->first)
        *l->requested = v->requested(l->insts);
    if (v->after_build)
        for (int k = 0; k < l->batch; ++k)
            v->after_build(inst(l, l->insts, k));

    if (reports(v, OP_QUERY))
        run_query(l, OP_QUERY, NULL, l->ref->query, &base);
    if (reports(v, OP_QUERY_RANDOM))
        run_query(l, OP_QUERY_RANDOM, l->in->order, l->ref->query_random, &base);

    double expect = l->ref->query;
    if (reports(v, OP_REBUILD)) {
        /* Steady state: one untimed rebuild of this frame first, so the timed one, of the
         * next frame, meets memory a rebuild has already used. The counts cover both. */
        csr_count c0 = count_now(l);
        for (int k = 0; k < l->batch; ++k)
            v->rebuild(inst(l, l->insts, k), l->in, l->in->regs);
        t0 = bench_now_ms();
        for (int k = 0; k < l->batch; ++k)
            v->rebuild(inst(l, l->insts, k), l->in, l->in->next);
        ms = bench_now_ms() - t0;
        c = count_now(l);
        record(l, OP_REBUILD, ms, &base, &c0, &c);
        expect = l->ref->next;
        check_first(l, l->insts, expect, "rebuild");
    }

    if (reports(v, OP_SNAPSHOT)) {
        csr_count s0 = count_now(l);
        if (v->snapshot_prepare)
            for (int k = 0; k < l->batch; ++k)
                v->snapshot_prepare(inst(l, l->snaps, k), inst(l, l->insts, k), l->in);
        csr_count s1 = count_now(l);
        t0 = bench_now_ms();
        for (int k = 0; k < l->batch; ++k)
            v->snapshot(inst(l, l->snaps, k), inst(l, l->insts, k), l->in);
        ms = bench_now_ms() - t0;
        c = count_now(l);
        record(l, OP_SNAPSHOT, ms, &s0, &s1, &c);
        check_first(l, l->snaps, expect, "snapshot");
        for (int k = 0; k < l->batch; ++k)
            v->snapshot_free(inst(l, l->snaps, k), l->in);
    }

    csr_count c0 = count_now(l);
    t0 = bench_now_ms();
    for (int k = 0; k < l->batch; ++k)
        v->teardown(inst(l, l->insts, k), l->in);
    ms = bench_now_ms() - t0;
    c = count_now(l);
    if (reports(v, OP_TEARDOWN))
        record(l, OP_TEARDOWN, ms, &base, &c0, &c);
    if (c.heap_bytes != base.heap_bytes)
        bench_die("a variant's teardown left heap blocks behind");
    for (int k = 0; k < l->batch; ++k) {
        if (v->after_teardown)
            v->after_teardown(inst(l, l->insts, k));
        if (v->fini) {
            v->fini(inst(l, l->insts, k));
            v->fini(inst(l, l->snaps, k));
        }
    }
}

void csr_run_config(csr_config *c)
{
    if (c->runs > CSR_MAX_RUNS || c->n_variants > CSR_MAX_VARIANTS)
        bench_die("too many runs or variants");
    c->n_items = 6 * c->n_rows;
    c->batch = c->n_items >= BATCH_ITEMS ? 1 : (int)(BATCH_ITEMS / c->n_items);
    memset(c->r, 0, sizeof c->r);

    Regiment *regs = (Regiment *)xmalloc((size_t)c->n_items * sizeof *regs);
    Regiment *next = (Regiment *)xmalloc((size_t)c->n_items * sizeof *next);
    uint32_t *order = (uint32_t *)xmalloc((size_t)c->n_rows * sizeof *order);
    regiments_generate(regs, c->n_items, c->n_rows, c->dist);
    next_frame(next, regs, c->n_items, c->n_rows);
    regiments_permutation(order, c->n_rows, 0xC5A);

    refs ref;
    ref.query = reference_query(regs, NULL, c->n_rows, c->n_items);
    ref.query_random = reference_query(regs, order, c->n_rows, c->n_items);
    ref.next = reference_query(next, NULL, c->n_rows, c->n_items);

    csr_meter meter;
    csr_input in;
    in.regs = regs;
    in.next = next;
    in.order = order;
    in.n_rows = c->n_rows;
    in.n_items = c->n_items;
    in.alloc = csr_meter_allocator(&meter);

    size_t inst_size = 0;
    for (int v = 0; v < c->n_variants; ++v)
        if (c->variants[v]->inst_size > inst_size)
            inst_size = c->variants[v]->inst_size;
    unsigned char *insts = (unsigned char *)xmalloc((size_t)c->batch * inst_size);
    unsigned char *snaps = (unsigned char *)xmalloc((size_t)c->batch * inst_size);

    const int warmup = c->n_items < WARMUP_MAX_ITEMS;
    for (int rep = warmup ? -1 : 0; rep < c->runs; ++rep) {
        for (int j = 0; j < c->n_variants; ++j) {
            int v = (rep + 1 + j) % c->n_variants;
            lifecycle l = { c->variants[v], &in, &ref, c->r[v], c->batch, rep,
                            rep == (warmup ? -1 : 0), &c->requested[v], insts, snaps };
            run_lifecycle(&l);
        }
    }

    for (int v = 0; v < c->n_variants; ++v)
        for (int op = 0; op < OP_COUNT; ++op) {
            csr_result *r = &c->r[v][op];
            if (r->measured) {
                r->min = bench_min(r->ms, r->n);
                r->median = bench_median(r->ms, r->n);
            }
        }
    free(insts);
    free(snaps);
    free(order);
    free(next);
    free(regs);
}
