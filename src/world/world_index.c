/* Relation indexes from the world's components (docs/world.md, "Relation indexes"): the build
 * hands the index build one run a block of the matched archetypes (the keys in the component's
 * column, the values, the entity slots, in the id column), so it reads the world's blocks
 * directly; the gather resolves each item through its slot. */
#include <dod/world_index.h>
#include "csr_job.h"
#include "world_layout.h"

#define GATHER_MIN_ITEMS 16384u /* per task: smaller pieces are not worth a thread */
#define GATHER_TASKS_PER_THREAD 4u
#define GATHER_MAX_TASKS 256u
#define GATHER_CHUNK 256u       /* items resolved at once: their slots, then their fields */
#define SLOT_PREFETCH 32u       /* items ahead whose slot is fetched: about a memory latency */
#define FIELD_PREFETCH 16u      /* items ahead whose field is fetched by the copy */

/* The byte offset of a dod_entity's low 32 bits (the slot) inside its 8 bytes. */
static size_t slot_half(void)
{
    const uint64_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first ? 0 : 4;
}

/* 1 when archetype i is one of q's. */
static int matched(const dod_query *q, uint32_t i)
{
    return (int)(q->archetypes[i / 64] >> (i % 64) & 1u);
}

/* The size of `component` in w's archetypes (they all agree), 0 when none has it. */
static size_t component_size(const dod_world *w, uint32_t component)
{
    for (uint32_t i = 0; i < w->n_archetypes; ++i) {
        const dod__world_field *f = &w->arch[i].place->fields[component];
        if (f->offset)
            return f->size;
    }
    return 0;
}

static dod_status check_build(const dod_csr *index, const dod_world *w,
                              const dod_world_index_desc *d)
{
    DOD__REFUSE_IF(!index || !w || !d || !d->query, DOD_E_INVALID);
    DOD__REFUSE_IF(d->query->tag != w->head.tag_hi, DOD_E_INVALID);
    DOD__REFUSE_IF(d->component >= w->head.n_components, DOD_E_RANGE);
    DOD__REFUSE_IF((d->flags & ~DOD_CSR_BUILD_SORT_ROWS) != 0, DOD_E_INVALID);
    DOD__REFUSE_IF((unsigned)d->strategy > DOD_CSR_BUILD_PARTITIONED, DOD_E_INVALID);
    DOD__REFUSE_IF(!dod__exec_usable(d->exec), DOD_E_INVALID);
    DOD__REFUSE_IF(d->n_rows == UINT32_MAX, DOD_E_OVERFLOW);
    DOD__REFUSE_IF(d->key_offset % 4 != 0, DOD_E_INVALID);
    DOD__REFUSE_IF((uint64_t)d->key_offset + 4 > component_size(w, d->component), DOD_E_INVALID);
    for (uint32_t i = 0; i < w->n_archetypes; ++i)
        DOD__REFUSE_IF(matched(d->query, i) && w->arch[i].place->fields[d->component].offset == 0,
                       DOD_E_INVALID);
    return DOD_OK;
}

/* The matched rows and the blocks holding them (the runs). */
static dod_status count_matched(const dod_world *w, const dod_query *q, uint32_t *n_items,
                                uint32_t *n_runs)
{
    uint64_t items = 0, runs = 0;
    for (uint32_t i = 0; i < w->n_archetypes; ++i) {
        if (!matched(q, i))
            continue;
        items += w->arch[i].n_rows;
        runs += dod__world_used_blocks(&w->arch[i]);
    }
    DOD__REFUSE_IF(items > UINT32_MAX, DOD_E_OVERFLOW);
    *n_items = (uint32_t)items;
    *n_runs = (uint32_t)runs; /* at most one a row */
    return DOD_OK;
}

/* One run a block of the matched archetypes, in the query's walk order: the keys in the
 * component's column (at key_offset), the values in the id column (each id's slot half). */
static void fill_runs(const dod_world *w, const dod_world_index_desc *d, dod__csr_run *runs)
{
    uint32_t first = 0, r = 0;
    size_t values_at = slot_half();
    for (uint32_t i = 0; i < w->n_archetypes; ++i) {
        const dod__world_arch *a = &w->arch[i];
        if (!matched(d->query, i))
            continue;
        size_t keys_at = a->place->fields[d->component].offset; /* in block 0 */
        for (uint32_t b = 0; b < dod__world_used_blocks(a); ++b) {
            const unsigned char *block = a->place->blocks[b];
            runs[r].keys = block + (keys_at << dod__world_block_scale(a, b)) + d->key_offset;
            runs[r].values = block + values_at;
            runs[r].first = first;
            first += dod__world_block_rows(a, b);
            r++;
        }
    }
}

/* Where the runs live: on the stack for a few blocks, else in the scratch arena (rewound by
 * the caller) or from the index's allocator. */
typedef struct run_list {
    dod__csr_run local[DOD_WORLD_INDEX_STACK_RUNS];
    dod__csr_run *runs;
    size_t heap_bytes; /* > 0: runs came from the index's allocator */
} run_list;

static dod_status take_runs(run_list *l, uint32_t n_runs, dod_arena *scratch,
                            const dod_csr *index)
{
    l->runs = l->local;
    l->heap_bytes = 0;
    if (n_runs <= DOD_WORLD_INDEX_STACK_RUNS)
        return DOD_OK;
    size_t bytes;
    DOD__REFUSE_IF(!dod__mul(n_runs, sizeof(dod__csr_run), &bytes), DOD_E_OVERFLOW);
    void *p = NULL;
    if (scratch) {
        DOD__REFUSE_IF(dod_arena_push(scratch, bytes, DOD_ALIGN, &p) != DOD_OK, DOD_E_NOMEM);
    } else {
        p = dod__alloc(&index->alloc, bytes);
        DOD__REFUSE_IF(!p, DOD_E_NOMEM);
        l->heap_bytes = bytes;
    }
    l->runs = (dod__csr_run *)p;
    return DOD_OK;
}

dod_status dod_world_index_build(dod_csr *index, const dod_world *w,
                                 const dod_world_index_desc *desc)
{
    dod_status st = check_build(index, w, desc);
    uint32_t n_items = 0, n_runs = 0;
    if (st == DOD_OK)
        st = count_matched(w, desc->query, &n_items, &n_runs);
    if (st != DOD_OK)
        return st;
    DOD__REFUSE_IF(desc->n_rows == 0 && n_items > 0, DOD_E_RANGE);

    dod_arena_mark mark = { 0 };
    if (desc->scratch)
        mark = dod_arena_get_mark(desc->scratch);
    run_list list;
    st = take_runs(&list, n_runs, desc->scratch, index);
    if (st != DOD_OK)
        return st;
    fill_runs(w, desc, list.runs);

    dod__csr_job job;
    memset(&job, 0, sizeof job);
    job.runs = list.runs;
    job.n_runs = n_runs;
    job.key_stride = component_size(w, desc->component); /* >= 4: check_build */
    job.has_values = n_items > 0;
    job.value_stride = sizeof(dod_entity);
    dod_csr_desc d;
    memset(&d, 0, sizeof d);
    d.n_rows = desc->n_rows;
    d.n_items = n_items;
    d.exec = desc->exec;
    d.value_bound = w->head.n_slots; /* every slot is below it: the narrow build */
    d.flags = desc->flags;
    d.strategy = desc->strategy;
    d.scratch = desc->scratch;
    st = dod__csr_build_job(index, &job, &d);

    if (list.heap_bytes)
        dod__free(&index->alloc, list.runs, list.heap_bytes);
    if (desc->scratch)
        dod_arena_rewind(desc->scratch, mark);
    return st;
}

/* ---- the gather ---- */

typedef struct world_gather_ctx {
    const dod_csr *index;
    const dod_world *w;
    const dod_world_gather_col *cols;
    uint32_t n_cols, n_tasks;
    uint64_t usable[DOD_WORLD_MAX_ARCHETYPES / 64]; /* archetypes having every column */
    unsigned char bad[GATHER_MAX_TASKS];
} world_gather_ctx;

static int usable(const world_gather_ctx *c, uint32_t archetype)
{
    return (int)(c->usable[archetype / 64] >> (archetype % 64) & 1u);
}

/* Check items [lo, hi): each a live slot whose archetype has every column's component. */
static int items_ok(const world_gather_ctx *c, uint32_t lo, uint32_t hi)
{
    const uint32_t *items = c->index->items;
    const uint64_t *slots = c->w->head.slots;
    for (uint32_t j = lo; j < hi; ++j) {
        if (j + SLOT_PREFETCH < hi)
            DOD__PREFETCH(&slots[items[j + SLOT_PREFETCH]]);
        uint64_t s = slots[items[j]];
        if (!(s & 1u) || !usable(c, dod__world_slot_arch(s)))
            return 0;
    }
    return 1;
}

static void check_items_task(void *arg, uint32_t t)
{
    world_gather_ctx *c = (world_gather_ctx *)arg;
    uint32_t lo, hi;
    dod__exec_share(c->index->n_items, c->n_tasks, t, &lo, &hi);
    c->bad[t] = !items_ok(c, lo, hi);
}

/* Where the entities of a chunk of items live (their archetype's field table, block and
 * row), and the elements of the column being copied. */
typedef struct resolved_chunk {
    const dod__world_field *fields[GATHER_CHUNK];
    const unsigned char *block[GATHER_CHUNK];
    uint32_t row[GATHER_CHUNK];
    uint32_t scale[GATHER_CHUNK]; /* of the item's block */
    const unsigned char *src[GATHER_CHUNK];
} resolved_chunk;

/* Resolve items [lo, lo + n) through their slots, each fetched SLOT_PREFETCH items ahead (hi:
 * the task's end). */
static void resolve_chunk(const world_gather_ctx *c, uint32_t lo, uint32_t n, uint32_t hi,
                          resolved_chunk *r)
{
    const uint32_t *items = c->index->items;
    const dod__world_head *h = &c->w->head;
    for (uint32_t k = 0; k < n; ++k) {
        uint32_t j = lo + k;
        if (j + SLOT_PREFETCH < hi)
            DOD__PREFETCH(&h->slots[items[j + SLOT_PREFETCH]]);
        uint64_t s = h->slots[items[j]];
        const dod__world_place *p = &h->places[dod__world_slot_arch(s)];
        uint64_t loc = dod__world_slot_loc(s);
        size_t b = (size_t)(loc >> p->shift);
        r->fields[k] = p->fields;
        r->block[k] = p->blocks[b];
        r->scale[k] = dod__world_scale(p, b);
        r->row[k] = (uint32_t)loc & p->row_mask;
    }
}

/* The chunk's elements of one column; the first FIELD_PREFETCH are fetched now. */
static void column_sources(resolved_chunk *r, uint32_t n, const dod_world_gather_col *col)
{
    for (uint32_t k = 0; k < n; ++k) {
        const dod__world_field *f = &r->fields[k][col->component];
        r->src[k] = r->block[k] + (f->offset << r->scale[k]) + (size_t)r->row[k] * f->size +
                    col->offset;
        if (k < FIELD_PREFETCH)
            DOD__PREFETCH(r->src[k]);
    }
}

/* Copy n elements to dst, each fetched FIELD_PREFETCH ahead: dod_csr_gather's loop, with the
 * sources resolved. size is a constant in the common cases below, so each copy is a few moves. */
static inline void copy_column(unsigned char *restrict dst, const unsigned char *const *src,
                               uint32_t n, size_t size)
{
    for (uint32_t k = 0; k < n; ++k) {
        if (k + FIELD_PREFETCH < n)
            DOD__PREFETCH(src[k + FIELD_PREFETCH]);
        memcpy(dst + (size_t)k * size, src[k], size);
    }
}

static void copy_any(unsigned char *dst, const unsigned char *const *src, uint32_t n, size_t size)
{
    switch (size) {
    case 4: copy_column(dst, src, n, 4); break;
    case 8: copy_column(dst, src, n, 8); break;
    case 12: copy_column(dst, src, n, 12); break;
    case 16: copy_column(dst, src, n, 16); break;
    default: copy_column(dst, src, n, size); break;
    }
}

static void world_gather_task(void *arg, uint32_t t)
{
    world_gather_ctx *c = (world_gather_ctx *)arg;
    uint32_t lo, hi;
    dod__exec_share(c->index->n_items, c->n_tasks, t, &lo, &hi);
    resolved_chunk r;
    for (uint32_t at = lo; at < hi; at += GATHER_CHUNK) {
        uint32_t n = hi - at < GATHER_CHUNK ? hi - at : GATHER_CHUNK;
        resolve_chunk(c, at, n, hi, &r);
        for (uint32_t k = 0; k < c->n_cols; ++k) {
            const dod_world_gather_col *col = &c->cols[k];
            column_sources(&r, n, col);
            copy_any((unsigned char *)col->dst + (size_t)at * col->size, r.src, n, col->size);
        }
    }
}

static dod_status check_gather(const dod_csr *index, const dod_world *w,
                               const dod_world_gather_col *cols, uint32_t n_cols,
                               const dod_executor *exec)
{
    DOD__REFUSE_IF(!index || !w, DOD_E_INVALID);
    DOD__REFUSE_IF(!cols && n_cols > 0, DOD_E_INVALID);
    DOD__REFUSE_IF(!dod__exec_usable(exec), DOD_E_INVALID);
    for (uint32_t k = 0; k < n_cols; ++k) {
        const dod_world_gather_col *col = &cols[k];
        size_t bytes;
        DOD__REFUSE_IF(col->component >= w->head.n_components, DOD_E_RANGE);
        DOD__REFUSE_IF(col->size == 0, DOD_E_INVALID);
        DOD__REFUSE_IF((uint64_t)col->offset + col->size > component_size(w, col->component),
                       DOD_E_INVALID);
        DOD__REFUSE_IF(index->n_items > 0 && !col->dst, DOD_E_INVALID);
        DOD__REFUSE_IF(!dod__mul(index->n_items, col->size, &bytes), DOD_E_OVERFLOW);
    }
    DOD__REFUSE_IF(index->item_bound > w->head.n_slots, DOD_E_RANGE);
    return DOD_OK;
}

dod_status dod_world_gather(const dod_csr *index, const dod_world *w,
                            const dod_world_gather_col *cols, uint32_t n_cols,
                            const dod_executor *exec)
{
    dod_status st = check_gather(index, w, cols, n_cols, exec);
    if (st != DOD_OK || index->n_items == 0 || n_cols == 0)
        return st;
    world_gather_ctx c;
    memset(&c, 0, sizeof c);
    c.index = index;
    c.w = w;
    c.cols = cols;
    c.n_cols = n_cols;
    for (uint32_t i = 0; i < w->n_archetypes; ++i) {
        int has_all = 1;
        for (uint32_t k = 0; k < n_cols; ++k)
            has_all &= w->arch[i].place->fields[cols[k].component].offset != 0;
        c.usable[i / 64] |= (uint64_t)has_all << (i % 64);
    }
    uint32_t most = index->n_items / GATHER_MIN_ITEMS;
    uint32_t tasks = dod__exec_tasks(exec, GATHER_TASKS_PER_THREAD, GATHER_MAX_TASKS);
    tasks = tasks < most ? tasks : most;
    c.n_tasks = tasks ? tasks : 1;
    /* Every item is checked before anything is written. */
    dod__exec_run(exec, c.n_tasks, check_items_task, &c);
    for (uint32_t t = 0; t < c.n_tasks; ++t)
        DOD__REFUSE_IF(c.bad[t], DOD_E_NOT_FOUND);
    dod__exec_run(exec, c.n_tasks, world_gather_task, &c);
    return DOD_OK;
}
