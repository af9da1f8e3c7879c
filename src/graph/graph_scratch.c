/* The graph queries' scratch: one block of seven per-node arrays, and the query stamp. */
#include "graph_internal.h"
#include "internal.h"

enum { N_ARRAYS = 7 }; /* order, mark, aux, heap, pos (uint32_t), dist, key (float) */

void dod_graph_scratch_init(dod_graph_scratch *s, const dod_allocator *alloc)
{
    if (!s)
        return;
    memset(s, 0, sizeof *s);
    s->alloc = dod__allocator_or_heap(alloc);
}

dod_status dod_graph_scratch_reserve(dod_graph_scratch *s, uint32_t n_nodes)
{
    DOD__REFUSE_IF(!s, DOD_E_INVALID);
    if (n_nodes <= s->cap)
        return DOD_OK;
    size_t array_bytes, total;
    /* uint32_t and float are both 4 bytes, so every array has the same padded size */
    DOD__REFUSE_IF(!dod__mul(n_nodes, sizeof(uint32_t), &array_bytes), DOD_E_OVERFLOW);
    DOD__REFUSE_IF(!dod__align_up(array_bytes, &array_bytes), DOD_E_OVERFLOW);
    DOD__REFUSE_IF(!dod__mul(array_bytes, N_ARRAYS, &total), DOD_E_OVERFLOW);
    unsigned char *block = (unsigned char *)dod__alloc(&s->alloc, total);
    DOD__REFUSE_IF(!block, DOD_E_NOMEM);
    dod__free(&s->alloc, s->block, s->block_bytes);
    s->block = block;
    s->block_bytes = total;
    s->order = (uint32_t *)(void *)block;
    s->mark = (uint32_t *)(void *)(block + array_bytes);
    s->aux = (uint32_t *)(void *)(block + 2 * array_bytes);
    s->heap = (uint32_t *)(void *)(block + 3 * array_bytes);
    s->pos = (uint32_t *)(void *)(block + 4 * array_bytes);
    s->dist = (float *)(void *)(block + 5 * array_bytes);
    s->key = (float *)(void *)(block + 6 * array_bytes);
    memset(s->mark, 0, (size_t)n_nodes * sizeof(uint32_t));
    s->cap = n_nodes;
    s->stamp = 0;
    s->n_order = 0;
    return DOD_OK;
}

void dod_graph_scratch_free(dod_graph_scratch *s)
{
    if (!s)
        return;
    dod_allocator a = s->alloc;
    dod__free(&a, s->block, s->block_bytes);
    dod_graph_scratch_init(s, &a);
}

dod_status dod__graph_begin(dod_graph_scratch *s, uint32_t n_nodes)
{
    dod_status st = dod_graph_scratch_reserve(s, n_nodes);
    if (st != DOD_OK)
        return st;
    s->n_order = 0;
    if (++s->stamp == 0) { /* wrapped: forget every old mark once per 2^32 queries */
        memset(s->mark, 0, (size_t)s->cap * sizeof(uint32_t));
        s->stamp = 1;
    }
    return DOD_OK;
}
