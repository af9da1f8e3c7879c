/* Relation indexes from the world's components (docs/world.md, "Relation indexes"): the build
 * hands the index build one run a block of the matched archetypes (the keys in the component's
 * column and, for slot items, the values: the entity slots in the id column), so it reads the
 * world's blocks directly. Row items need no values: item i is the i-th row of the walk, what
 * the build stores for an array's item i. The gathers are in world_gather.c. */
#include <dod/world_index.h>
#include "csr_job.h"
#include "world_layout.h"

/* The byte offset of a dod_entity's low 32 bits (the slot) inside its 8 bytes. */
static size_t slot_half(void)
{
    const uint64_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first ? 0 : 4;
}

static dod_status check_build(const dod_csr *index, const dod_world *w,
                              const dod_world_index_desc *d)
{
    DOD__REFUSE_IF(!index || !w || !d || !d->query, DOD_E_INVALID);
    DOD__REFUSE_IF(d->query->tag != w->head.tag_hi, DOD_E_INVALID);
    DOD__REFUSE_IF(d->component >= w->head.n_components, DOD_E_RANGE);
    DOD__REFUSE_IF((d->flags & ~(DOD_CSR_BUILD_SORT_ROWS | DOD_WORLD_INDEX_ROWS)) != 0,
                   DOD_E_INVALID);
    DOD__REFUSE_IF((unsigned)d->strategy > DOD_CSR_BUILD_PARTITIONED, DOD_E_INVALID);
    DOD__REFUSE_IF(!dod__exec_usable(d->exec), DOD_E_INVALID);
    DOD__REFUSE_IF(d->n_rows == UINT32_MAX, DOD_E_OVERFLOW);
    DOD__REFUSE_IF(d->key_offset % 4 != 0, DOD_E_INVALID);
    DOD__REFUSE_IF((uint64_t)d->key_offset + 4 > dod__world_component_size(w, d->component),
                   DOD_E_INVALID);
    if (!(d->flags & DOD_WORLD_INDEX_ROWS)) /* its items would be slots w does not hold */
        DOD__WORLD_REFUSE_ROWS_ONLY(w, "dod_world_index_build");
    for (uint32_t i = 0; i < w->n_archetypes; ++i)
        DOD__REFUSE_IF(dod__query_matches(d->query, i) &&
                           w->arch[i].place->fields[d->component].offset == 0,
                       DOD_E_INVALID);
    return DOD_OK;
}

/* The matched rows and the blocks holding them (the runs). */
static dod_status count_matched(const dod_world *w, const dod_query *q, uint32_t *n_items,
                                uint32_t *n_runs)
{
    uint64_t items = 0, runs = 0;
    for (uint32_t i = 0; i < w->n_archetypes; ++i) {
        if (!dod__query_matches(q, i))
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
 * component's column (at key_offset) and, for slot items, the values in the id column (each
 * id's slot half). */
static void fill_runs(const dod_world *w, const dod_world_index_desc *d, dod__csr_run *runs)
{
    uint32_t first = 0, r = 0;
    size_t values_at = slot_half();
    int slots = (d->flags & DOD_WORLD_INDEX_ROWS) == 0;
    for (uint32_t i = 0; i < w->n_archetypes; ++i) {
        const dod__world_arch *a = &w->arch[i];
        if (!dod__query_matches(d->query, i))
            continue;
        size_t keys_at = a->place->fields[d->component].offset; /* in block 0 */
        for (uint32_t b = 0; b < dod__world_used_blocks(a); ++b) {
            const unsigned char *block = a->place->blocks[b];
            runs[r].keys = block + (keys_at << dod__world_block_scale(a, b)) + d->key_offset;
            runs[r].values = slots ? block + values_at : NULL;
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
    job.key_stride = dod__world_component_size(w, desc->component); /* >= 4: check_build */
    job.has_values = n_items > 0 && (desc->flags & DOD_WORLD_INDEX_ROWS) == 0;
    job.value_stride = sizeof(dod_entity);
    dod_csr_desc d;
    memset(&d, 0, sizeof d);
    d.n_rows = desc->n_rows;
    d.n_items = n_items;
    d.exec = desc->exec;
    d.value_bound = job.has_values ? w->head.n_slots : 0; /* every slot is below it: the
                                                              narrow build */
    d.flags = desc->flags & DOD_CSR_BUILD_SORT_ROWS;
    d.strategy = desc->strategy;
    d.scratch = desc->scratch;
    st = dod__csr_build_job(index, &job, &d);

    if (list.heap_bytes)
        dod__free(&index->alloc, list.runs, list.heap_bytes);
    if (desc->scratch)
        dod_arena_rewind(desc->scratch, mark);
    return st;
}
