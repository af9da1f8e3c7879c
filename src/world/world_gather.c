/* The gathers (dod/world_index.h): row numbers in runs that lie in one block, each run copied as
 * dod_csr_gather copies an array; slots resolved a chunk at a time through the entity index,
 * then each column's fields copied. Every field is fetched ahead of its copy. */
#include <dod/world_index.h>
#include "exec_dispatch.h"
#include "world_layout.h"

#define GATHER_MIN_ITEMS 16384u /* per task: smaller pieces are not worth a thread */
#define GATHER_TASKS_PER_THREAD 4u
#define GATHER_MAX_TASKS 256u
#define GATHER_CHUNK 256u       /* slot items resolved at once, then their fields copied */
#define SLOT_PREFETCH 32u       /* items ahead whose slot is fetched: about a memory latency */
#define FIELD_PREFETCH 16u      /* items ahead whose field is fetched by the copy */

typedef struct world_gather_ctx {
    const dod_csr *index;
    const dod_world *w;
    const dod_world_gather_col *cols;
    uint32_t n_cols, n_tasks;
    dod_world_rows rows;                            /* row items: each task copies this reader */
    uint64_t usable[DOD_WORLD_MAX_ARCHETYPES / 64]; /* slot items: archetypes having every column */
    unsigned char bad[GATHER_MAX_TASKS];
} world_gather_ctx;

/* Where the entities of a chunk of items live (their archetype's field table, block and
 * row), and the elements of the column being copied. */
typedef struct resolved_chunk {
    const dod__world_field *fields[GATHER_CHUNK];
    const unsigned char *block[GATHER_CHUNK];
    uint32_t row[GATHER_CHUNK];
    uint32_t scale[GATHER_CHUNK]; /* of the item's block */
    const unsigned char *src[GATHER_CHUNK];
} resolved_chunk;

/* Slots: items [lo, lo + n) through their slots, each fetched SLOT_PREFETCH items ahead (hi:
 * the task's end). */
static void resolve_slots(const world_gather_ctx *c, uint32_t lo, uint32_t n, uint32_t hi,
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

/* Every column's fields of the chunk of items at `at` (n of them, resolved in r). */
static void copy_chunk(const world_gather_ctx *c, resolved_chunk *r, uint32_t at, uint32_t n)
{
    for (uint32_t k = 0; k < c->n_cols; ++k) {
        const dod_world_gather_col *col = &c->cols[k];
        column_sources(r, n, col);
        copy_any((unsigned char *)col->dst + (size_t)at * col->size, r->src, n, col->size);
    }
}

/* Row items: a run of n items (row numbers) lying in one block whose first row is row number
 * `first`. A column's elements lie `stride` bytes apart from src; dst takes them packed. Loops as
 * dod_csr_gather's: the hardware follows an index row's ascending items. */
typedef struct row_run {
    const uint32_t *items;
    uint32_t n, first;
} row_run;

static inline void copy_run(unsigned char *restrict dst, const unsigned char *src, size_t stride,
                            row_run run, size_t size)
{
    for (uint32_t k = 0; k < run.n; ++k)
        memcpy(dst + (size_t)k * size, src + (size_t)(run.items[k] - run.first) * stride, size);
}

/* Up to 4 columns of 4 bytes in one pass, each item's row touched once (dod_csr_gather's
 * gather_u32_n): the pointers sit in local arrays the stores cannot alias. */
static inline void copy_run_u32(uint32_t n_cols, uint32_t *const d[4],
                                const unsigned char *const s[4], const size_t st[4], row_run run)
{
    for (uint32_t k = 0; k < run.n; ++k) {
        size_t at = run.items[k] - run.first;
        for (uint32_t c = 0; c < n_cols; ++c)
            d[c][k] = dod__load_u32(s[c] + at * st[c]);
    }
}

/* The columns of a run: `at` is the run's first item, r the reader standing on its block. */
static void copy_run_columns(const world_gather_ctx *c, const dod_world_rows *r, uint32_t at,
                             row_run run)
{
    uint32_t *d[4];
    const unsigned char *s[4];
    size_t st[4];
    int all_u32 = c->n_cols <= 4;
    for (uint32_t k = 0; k < c->n_cols; ++k) {
        const dod_world_gather_col *col = &c->cols[k];
        const dod__world_field *f = &r->fields[col->component];
        const unsigned char *src = r->base + (f->offset << r->scale) + col->offset;
        if (all_u32 && col->size == 4) {
            d[k] = (uint32_t *)col->dst + at;
            s[k] = src;
            st[k] = f->size;
            continue;
        }
        all_u32 = 0;
        unsigned char *dst = (unsigned char *)col->dst + (size_t)at * col->size;
        switch (col->size) {
        case 4: copy_run(dst, src, f->size, run, 4); break;
        case 8: copy_run(dst, src, f->size, run, 8); break;
        case 12: copy_run(dst, src, f->size, run, 12); break;
        case 16: copy_run(dst, src, f->size, run, 16); break;
        default: copy_run(dst, src, f->size, run, col->size); break;
        }
    }
    if (!all_u32 || c->n_cols == 0)
        return;
    switch (c->n_cols) { /* constant counts: each call unrolls its inner loop */
    case 1: copy_run_u32(1, d, s, st, run); break;
    case 2: copy_run_u32(2, d, s, st, run); break;
    case 3: copy_run_u32(3, d, s, st, run); break;
    default: copy_run_u32(4, d, s, st, run); break;
    }
}

/* A flat reader (a few archetypes of one block each): every item's archetype counted without a
 * branch, its element at its column's base for that archetype, less the archetype's first row
 * number, plus the row number times the stride. No runs: items that hop between archetypes (a
 * map cell's regiments of four kinds) cost what items of one archetype cost. */
typedef struct flat_column {
    uintptr_t base[DOD_WORLD_ROWS_CACHED]; /* per cached archetype: the element of row number 0,
                                              an address only computed with */
    size_t stride;
} flat_column;

static void flat_column_of(const dod_world_rows *r, const dod_world *w,
                           const dod_world_gather_col *col, flat_column *out)
{
    out->stride = dod__world_component_size(w, col->component);
    for (uint32_t k = 0; k < r->n_cached; ++k)
        out->base[k] = dod__world_rows_column_base(r, k, col->component, col->offset, out->stride);
}

static inline const unsigned char *flat_elem(const flat_column *f, uint32_t k, uint32_t row)
{
    return (const unsigned char *)(f->base[k] + (uintptr_t)row * f->stride);
}

/* One column of any size, n items. */
static inline void flat_copy(unsigned char *restrict dst, const flat_column *f,
                             const dod_world_rows *r, const uint32_t *items, uint32_t n,
                             size_t size)
{
    for (uint32_t j = 0; j < n; ++j) {
        uint32_t row = items[j];
        memcpy(dst + (size_t)j * size, flat_elem(f, dod__world_rows_archetype(r, row), row), size);
    }
}

/* Up to 4 columns of 4 bytes, each item's archetype counted once. */
static inline void flat_copy_u32(uint32_t n_cols, uint32_t *const d[4], const flat_column *f,
                                 const dod_world_rows *r, const uint32_t *items, uint32_t n)
{
    for (uint32_t j = 0; j < n; ++j) {
        uint32_t row = items[j], k = dod__world_rows_archetype(r, row);
        for (uint32_t c = 0; c < n_cols; ++c)
            d[c][j] = dod__load_u32(flat_elem(&f[c], k, row));
    }
}

static void gather_flat(const world_gather_ctx *c, uint32_t lo, uint32_t hi)
{
    const dod_world_rows *r = &c->rows;
    const uint32_t *items = c->index->items + lo;
    flat_column f[4];
    uint32_t *d[4];
    int all_u32 = c->n_cols <= 4;
    for (uint32_t k = 0; all_u32 && k < c->n_cols; ++k)
        all_u32 = c->cols[k].size == 4;
    if (all_u32 && c->n_cols > 0) {
        for (uint32_t k = 0; k < c->n_cols; ++k) {
            flat_column_of(r, c->w, &c->cols[k], &f[k]);
            d[k] = (uint32_t *)c->cols[k].dst + lo;
        }
        switch (c->n_cols) { /* constant counts: each call unrolls its inner loop */
        case 1: flat_copy_u32(1, d, f, r, items, hi - lo); break;
        case 2: flat_copy_u32(2, d, f, r, items, hi - lo); break;
        case 3: flat_copy_u32(3, d, f, r, items, hi - lo); break;
        default: flat_copy_u32(4, d, f, r, items, hi - lo); break;
        }
        return;
    }
    for (uint32_t k = 0; k < c->n_cols; ++k) {
        const dod_world_gather_col *col = &c->cols[k];
        unsigned char *dst = (unsigned char *)col->dst + (size_t)lo * col->size;
        flat_column_of(r, c->w, col, &f[0]);
        switch (col->size) {
        case 4: flat_copy(dst, &f[0], r, items, hi - lo, 4); break;
        case 8: flat_copy(dst, &f[0], r, items, hi - lo, 8); break;
        case 12: flat_copy(dst, &f[0], r, items, hi - lo, 12); break;
        case 16: flat_copy(dst, &f[0], r, items, hi - lo, 16); break;
        default: flat_copy(dst, &f[0], r, items, hi - lo, col->size); break;
        }
    }
}

/* Row items: flat, item by item; else the task's items in runs that lie in one block (an index
 * row's items ascend, so a run is usually the part of an index row in one block). */
static void gather_rows_task(void *arg, uint32_t t)
{
    const world_gather_ctx *c = (const world_gather_ctx *)arg;
    uint32_t lo, hi;
    dod__exec_share(c->index->n_items, c->n_tasks, t, &lo, &hi);
    if (c->rows.flat) {
        gather_flat(c, lo, hi);
        return;
    }
    dod_world_rows r = c->rows;
    const uint32_t *items = c->index->items;
    for (uint32_t at = lo, end; at < hi; at = end) {
        end = dod__world_rows_run(&r, items, at, hi); /* items < count: on the item bound */
        row_run run = { items + at, end - at, r.first };
        copy_run_columns(c, &r, at, run);
    }
}

static void gather_slots_task(void *arg, uint32_t t)
{
    const world_gather_ctx *c = (const world_gather_ctx *)arg;
    uint32_t lo, hi;
    dod__exec_share(c->index->n_items, c->n_tasks, t, &lo, &hi);
    resolved_chunk r;
    for (uint32_t at = lo; at < hi; at += GATHER_CHUNK) {
        uint32_t n = hi - at < GATHER_CHUNK ? hi - at : GATHER_CHUNK;
        resolve_slots(c, at, n, hi, &r);
        copy_chunk(c, &r, at, n);
    }
}

/* The checks both gathers share; they name the public call. */
static dod_status check_gather(const char *call, const dod_csr *index, const dod_world *w,
                               const dod_world_gather_col *cols, uint32_t n_cols,
                               const dod_executor *exec)
{
    (void)call; /* named by the refusals in a debug build only */
    DOD__REFUSE_IF_IN(call, !index || !w, DOD_E_INVALID);
    DOD__REFUSE_IF_IN(call, !cols && n_cols > 0, DOD_E_INVALID);
    DOD__REFUSE_IF_IN(call, !dod__exec_usable(exec), DOD_E_INVALID);
    for (uint32_t k = 0; k < n_cols; ++k) {
        const dod_world_gather_col *col = &cols[k];
        size_t bytes;
        DOD__REFUSE_IF_IN(call, col->component >= w->head.n_components, DOD_E_RANGE);
        DOD__REFUSE_IF_IN(call, col->size == 0, DOD_E_INVALID);
        DOD__REFUSE_IF_IN(call, (uint64_t)col->offset + col->size >
                                    dod__world_component_size(w, col->component),
                          DOD_E_INVALID);
        DOD__REFUSE_IF_IN(call, index->n_items > 0 && !col->dst, DOD_E_INVALID);
        DOD__REFUSE_IF_IN(call, !dod__mul(index->n_items, col->size, &bytes), DOD_E_OVERFLOW);
    }
    return DOD_OK;
}

/* 1 when archetype i has every column's component. */
static int has_columns(const dod_world *w, uint32_t i, const dod_world_gather_col *cols,
                       uint32_t n_cols)
{
    int has_all = 1;
    for (uint32_t k = 0; k < n_cols; ++k)
        has_all &= w->arch[i].place->fields[cols[k].component].offset != 0;
    return has_all;
}

/* The context of a gather that has passed its checks, its tasks counted for exec. */
static void gather_setup(world_gather_ctx *c, const dod_csr *index, const dod_world *w,
                         const dod_world_gather_col *cols, uint32_t n_cols,
                         const dod_executor *exec)
{
    memset(c, 0, sizeof *c);
    c->index = index;
    c->w = w;
    c->cols = cols;
    c->n_cols = n_cols;
    uint32_t most = index->n_items / GATHER_MIN_ITEMS;
    uint32_t tasks = dod__exec_tasks(exec, GATHER_TASKS_PER_THREAD, GATHER_MAX_TASKS);
    tasks = tasks < most ? tasks : most;
    c->n_tasks = tasks ? tasks : 1;
}

dod_status dod_world_gather_rows(const dod_csr *index, const dod_world *w, const dod_query *q,
                                 const dod_world_gather_col *cols, uint32_t n_cols,
                                 const dod_executor *exec)
{
    dod_status st = check_gather(__func__, index, w, cols, n_cols, exec);
    if (st != DOD_OK)
        return st;
    DOD__REFUSE_IF(!q || q->tag != w->head.tag_hi, DOD_E_INVALID);
    for (uint32_t i = 0; i < w->n_archetypes; ++i)
        DOD__REFUSE_IF(dod__query_matches(q, i) && !has_columns(w, i, cols, n_cols),
                       DOD_E_INVALID);
    world_gather_ctx c;
    gather_setup(&c, index, w, cols, n_cols, exec);
    st = dod_world_rows_init(&c.rows, w, q);
    DOD_ASSERT(st == DOD_OK); /* w and q checked */
    DOD__REFUSE_IF(index->item_bound > c.rows.count, DOD_E_RANGE);
    if (index->n_items > 0 && n_cols > 0)
        dod__exec_run(exec, c.n_tasks, gather_rows_task, &c);
    return DOD_OK;
}

/* Slots: check items [lo, hi), each a live slot whose archetype has every column's component. */
static int slots_ok(const world_gather_ctx *c, uint32_t lo, uint32_t hi)
{
    const uint32_t *items = c->index->items;
    const uint64_t *slots = c->w->head.slots;
    for (uint32_t j = lo; j < hi; ++j) {
        if (j + SLOT_PREFETCH < hi)
            DOD__PREFETCH(&slots[items[j + SLOT_PREFETCH]]);
        uint64_t s = slots[items[j]];
        uint32_t a = dod__world_slot_arch(s);
        if (!(s & 1u) || !dod__bit_test(c->usable, a))
            return 0;
    }
    return 1;
}

static void check_slots_task(void *arg, uint32_t t)
{
    world_gather_ctx *c = (world_gather_ctx *)arg;
    uint32_t lo, hi;
    dod__exec_share(c->index->n_items, c->n_tasks, t, &lo, &hi);
    c->bad[t] = !slots_ok(c, lo, hi);
}

dod_status dod_world_gather(const dod_csr *index, const dod_world *w,
                            const dod_world_gather_col *cols, uint32_t n_cols,
                            const dod_executor *exec)
{
    dod_status st = check_gather(__func__, index, w, cols, n_cols, exec);
    if (st != DOD_OK)
        return st;
    DOD__WORLD_REFUSE_ROWS_ONLY(w, "dod_world_gather");
    DOD__REFUSE_IF(index->item_bound > w->head.n_slots, DOD_E_RANGE);
    if (index->n_items == 0 || n_cols == 0)
        return DOD_OK;
    world_gather_ctx c;
    gather_setup(&c, index, w, cols, n_cols, exec);
    for (uint32_t i = 0; i < w->n_archetypes; ++i)
        c.usable[i / 64] |= (uint64_t)has_columns(w, i, cols, n_cols) << (i % 64);
    /* Every item is checked before anything is written. */
    dod__exec_run(exec, c.n_tasks, check_slots_task, &c);
    for (uint32_t t = 0; t < c.n_tasks; ++t)
        DOD__REFUSE_IF(c.bad[t], DOD_E_NOT_FOUND);
    dod__exec_run(exec, c.n_tasks, gather_slots_task, &c);
    return DOD_OK;
}
