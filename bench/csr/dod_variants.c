/* The library (dod_csr through the counted allocator), its adaptive build on 1 and 2 threads,
 * and the floor its snapshot is held to: a plain memcpy of the same two arrays into buffers
 * allocated beforehand. */
#include <dod/csr_build.h>
#include "meter.h"
#include <stdlib.h>
#include <string.h>

static void must(dod_status st, const char *what)
{
    if (st != DOD_OK)
        bench_die(what);
}

static void dod_init(void *inst, const csr_input *in)
{
    dod_csr_init((dod_csr *)inst, &in->alloc);
}

static void dod_build(void *inst, const csr_input *in)
{
    dod_csr *csr = (dod_csr *)inst;
    dod_csr_init(csr, &in->alloc);
    must(dod_csr_build(csr, in->n_rows, &in->regs[0].location, sizeof(Regiment), in->n_items),
         "dod_csr_build");
}

static void dod_rebuild(void *inst, const csr_input *in, const Regiment *regs)
{
    must(dod_csr_build((dod_csr *)inst, in->n_rows, &regs[0].location, sizeof(Regiment),
                       in->n_items),
         "dod_csr_build (rebuild)");
}

/* The seed's loop spelled with the library's row accessors. */
static float dod_row(const dod_csr *csr, const Regiment *regs, uint32_t row)
{
    float travel_budget = 0.0f;
    const uint32_t *it = dod_csr_row_begin(csr, row), *end = dod_csr_row_end(csr, row);
    for (; it != end; ++it) {
        const Regiment *g = &regs[*it];
        if (g->mood < 0.25f || g->health <= 0.0f)
            continue;
        travel_budget += g->speed;
    }
    return travel_budget;
}

static double dod_query(const void *inst, const csr_input *in, const uint32_t *order)
{
    const dod_csr *csr = (const dod_csr *)inst;
    double total = 0.0;
    for (uint32_t i = 0; i < csr->n_rows; ++i)
        total += dod_row(csr, in->regs, order ? order[i] : i);
    return total;
}

/* The snapshot destination of earlier frames: capacity held, and copied into twice, so both
 * of its offsets arrays (a copy writes the spare one, then swaps) have been written. */
static void dod_snapshot_prepare(void *dst, const void *src, const csr_input *in)
{
    dod_csr_init((dod_csr *)dst, &in->alloc);
    must(dod_csr_copy((dod_csr *)dst, (const dod_csr *)src), "dod_csr_copy (prepare)");
    must(dod_csr_copy((dod_csr *)dst, (const dod_csr *)src), "dod_csr_copy (prepare)");
}

static void dod_snapshot(void *dst, const void *src, const csr_input *in)
{
    (void)in;
    must(dod_csr_copy((dod_csr *)dst, (const dod_csr *)src), "dod_csr_copy");
}

static void dod_teardown(void *inst, const csr_input *in)
{
    (void)in;
    dod_csr_free((dod_csr *)inst);
}

static size_t dod_requested(const void *inst)
{
    return dod_csr_bytes((const dod_csr *)inst);
}

const csr_variant csr_dod = {
    .name = "dod", .inst_size = sizeof(dod_csr),
    .reported = (1u << OP_BUILD) | (1u << OP_REBUILD) | (1u << OP_QUERY) |
                (1u << OP_QUERY_RANDOM) | (1u << OP_SNAPSHOT) | (1u << OP_TEARDOWN),
    .init = dod_init, .build = dod_build, .rebuild = dod_rebuild, .query = dod_query,
    .snapshot_prepare = dod_snapshot_prepare, .snapshot = dod_snapshot,
    .snapshot_free = dod_teardown, .teardown = dod_teardown, .requested = dod_requested,
    .count = csr_meter_count,
};

/* dod-auto, dod-auto-2t: dod_csr_build_desc with the adaptive strategy and the build scratch
 * from a frame arena (the recommended form), on the calling thread or a 2-thread pool. The
 * index comes first, so the dod query and checks read the instance as a dod_csr. */
typedef struct auto_inst {
    dod_csr csr;
    dod_arena scratch;
} auto_inst;

static dod_threadpool *pool2; /* shared by every dod-auto-2t instance, made on first use */

static void stop_pool(void)
{
    dod_threadpool_destroy(pool2);
}

static void auto_init(void *inst, const csr_input *in)
{
    auto_inst *a = (auto_inst *)inst;
    dod_csr_init(&a->csr, &in->alloc);
    dod_arena_init(&a->scratch, 0, &in->alloc);
}

static void auto_rebuild_on(auto_inst *a, const csr_input *in, const Regiment *regs,
                            const dod_executor *exec)
{
    dod_csr_desc d;
    memset(&d, 0, sizeof d);
    d.n_rows = in->n_rows;
    d.n_items = in->n_items;
    d.keys = &regs[0].location;
    d.key_stride = sizeof(Regiment);
    d.exec = exec;
    d.scratch = &a->scratch;
    must(dod_csr_build_desc(&a->csr, &d), "dod_csr_build_desc");
}

static const dod_executor *exec2(void)
{
    static dod_executor e;
    if (!pool2) {
        must(dod_threadpool_create(&pool2, 2, NULL), "dod_threadpool_create");
        e = dod_threadpool_executor(pool2);
        atexit(stop_pool);
    }
    return &e;
}

static void auto_build(void *inst, const csr_input *in)
{
    auto_init(inst, in);
    auto_rebuild_on((auto_inst *)inst, in, in->regs, NULL);
}

static void auto_rebuild(void *inst, const csr_input *in, const Regiment *regs)
{
    auto_rebuild_on((auto_inst *)inst, in, regs, NULL);
}

static void auto2_build(void *inst, const csr_input *in)
{
    auto_init(inst, in);
    auto_rebuild_on((auto_inst *)inst, in, in->regs, exec2());
}

static void auto2_rebuild(void *inst, const csr_input *in, const Regiment *regs)
{
    auto_rebuild_on((auto_inst *)inst, in, regs, exec2());
}

static void auto_teardown(void *inst, const csr_input *in)
{
    (void)in;
    dod_csr_free(&((auto_inst *)inst)->csr);
    dod_arena_free(&((auto_inst *)inst)->scratch);
}

static size_t auto_requested(const void *inst)
{
    const auto_inst *a = (const auto_inst *)inst;
    return dod_csr_bytes(&a->csr) + dod_arena_capacity(&a->scratch);
}

const csr_variant csr_dod_auto = {
    .name = "dod-auto", .inst_size = sizeof(auto_inst),
    .reported = (1u << OP_BUILD) | (1u << OP_REBUILD),
    .build = auto_build, .rebuild = auto_rebuild, .query = dod_query,
    .teardown = auto_teardown, .requested = auto_requested, .count = csr_meter_count,
};

const csr_variant csr_dod_auto2 = {
    .name = "dod-auto-2t", .inst_size = sizeof(auto_inst),
    .reported = (1u << OP_BUILD) | (1u << OP_REBUILD),
    .build = auto2_build, .rebuild = auto2_rebuild, .query = dod_query,
    .teardown = auto_teardown, .requested = auto_requested, .count = csr_meter_count,
};

/* memcpy: its source is an index the library built (untimed, unreported); its snapshot copies
 * exactly the bytes dod_csr_copy copies, offsets[n_rows + 1] and items[n_items], into two
 * buffers of those sizes written once beforehand, as the dod destination was. */
typedef struct memcpy_inst {
    dod_csr src;
    uint32_t *offsets, *items;
    uint32_t n_rows, n_items;
} memcpy_inst;

static void memcpy_init(void *inst, const csr_input *in)
{
    dod_init(&((memcpy_inst *)inst)->src, in);
}

static void memcpy_build(void *inst, const csr_input *in)
{
    dod_build(&((memcpy_inst *)inst)->src, in);
}

/* Only to check a snapshot: the seed's query over the copied arrays. */
static double memcpy_query(const void *inst, const csr_input *in, const uint32_t *order)
{
    const memcpy_inst *m = (const memcpy_inst *)inst;
    double total = 0.0;
    for (uint32_t i = 0; i < m->n_rows; ++i)
        total += seed_query_row(m->offsets, m->items, in->regs, order ? order[i] : i);
    return total;
}

static void memcpy_snapshot(void *d, const void *s, const csr_input *in)
{
    (void)in;
    memcpy_inst *dst = (memcpy_inst *)d;
    const dod_csr *src = &((const memcpy_inst *)s)->src;
    memcpy(dst->offsets, src->offsets, ((size_t)src->n_rows + 1) * sizeof(uint32_t));
    memcpy(dst->items, src->items, (size_t)src->n_items * sizeof(uint32_t));
}

static void memcpy_snapshot_prepare(void *d, const void *s, const csr_input *in)
{
    memcpy_inst *dst = (memcpy_inst *)d;
    const dod_csr *src = &((const memcpy_inst *)s)->src;
    dst->n_rows = src->n_rows;
    dst->n_items = src->n_items;
    dst->offsets =
        (uint32_t *)csr_alloc(in, ((size_t)src->n_rows + 1) * sizeof(uint32_t), DOD_ALIGN);
    dst->items = (uint32_t *)csr_alloc(in, (size_t)src->n_items * sizeof(uint32_t), DOD_ALIGN);
    memcpy_snapshot(d, s, in);
}

static void memcpy_snapshot_free(void *d, const csr_input *in)
{
    memcpy_inst *dst = (memcpy_inst *)d;
    csr_free(in, dst->offsets, ((size_t)dst->n_rows + 1) * sizeof(uint32_t));
    csr_free(in, dst->items, (size_t)dst->n_items * sizeof(uint32_t));
    dst->offsets = dst->items = NULL;
}

static void memcpy_teardown(void *inst, const csr_input *in)
{
    dod_teardown(&((memcpy_inst *)inst)->src, in);
}

static size_t memcpy_requested(const void *inst)
{
    return dod_requested(&((const memcpy_inst *)inst)->src);
}

const csr_variant csr_memcpy = {
    .name = "memcpy", .inst_size = sizeof(memcpy_inst), .reported = 1u << OP_SNAPSHOT,
    .init = memcpy_init, .build = memcpy_build, .query = memcpy_query,
    .snapshot_prepare = memcpy_snapshot_prepare,
    .snapshot = memcpy_snapshot, .snapshot_free = memcpy_snapshot_free,
    .teardown = memcpy_teardown, .requested = memcpy_requested, .count = csr_meter_count,
};
