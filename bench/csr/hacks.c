/* The seed's three steps from the vector of vectors to CSR, as written there, in C. Where the
 * seed uses std::vector<T> v(n) (value-initialised) these allocate and zero; where it uses
 * new T[n] (default-initialised) they only allocate. Everything goes through in->alloc. */
#include "meter.h"
#include <string.h>

#define ALL_OPS ((1u << OP_BUILD) | (1u << OP_QUERY) | (1u << OP_QUERY_RANDOM) | \
                 (1u << OP_SNAPSHOT) | (1u << OP_TEARDOWN))

/* The seed's per-row logic over one list of regiment ids. */
static float row_budget(const uint32_t *ids, uint32_t n, const Regiment *regs)
{
    float travel_budget = 0.0f;
    for (uint32_t i = 0; i < n; ++i) {
        const Regiment *g = &regs[ids[i]];
        if (g->mood < 0.25f || g->health <= 0.0f)
            continue;
        travel_budget += g->speed;
    }
    return travel_budget;
}

/* ---- hack 1: count first, then one exact block per non-empty list ---- */

typedef struct hack1_list {
    uint32_t count, written;
    uint32_t *data;
} hack1_list;

typedef struct hack1 {
    hack1_list *lists;
    uint32_t n_rows;
} hack1;

static void hack1_build(void *p, const csr_input *in)
{
    hack1 *h = (hack1 *)p;
    const Regiment *regs = in->regs;
    const uint32_t n = in->n_rows;
    hack1_list *lists = (hack1_list *)csr_alloc(in, (size_t)n * sizeof *lists, _Alignof(hack1_list));
    memset(lists, 0, (size_t)n * sizeof *lists);
    for (uint32_t r = 0; r < in->n_items; ++r)
        lists[regs[r].location].count++;
    for (uint32_t i = 0; i < n; ++i)
        if (lists[i].count > 0)
            lists[i].data = (uint32_t *)csr_alloc(in, (size_t)lists[i].count * sizeof(uint32_t),
                                                  _Alignof(uint32_t));
    for (uint32_t r = 0; r < in->n_items; ++r) {
        hack1_list *list = &lists[regs[r].location];
        list->data[list->written] = r;
        list->written++;
    }
    h->lists = lists;
    h->n_rows = n;
}

static double hack1_query(const void *p, const csr_input *in, const uint32_t *order)
{
    const hack1 *h = (const hack1 *)p;
    double total = 0.0;
    for (uint32_t i = 0; i < h->n_rows; ++i) {
        const hack1_list *l = &h->lists[order ? order[i] : i];
        total += row_budget(l->data, l->count, in->regs);
    }
    return total;
}

static void hack1_copy(void *d, const void *s, const csr_input *in)
{
    hack1 *dst = (hack1 *)d;
    const hack1 *src = (const hack1 *)s;
    const uint32_t n = src->n_rows;
    dst->lists = (hack1_list *)csr_alloc(in, (size_t)n * sizeof *dst->lists, _Alignof(hack1_list));
    memcpy(dst->lists, src->lists, (size_t)n * sizeof *dst->lists);
    for (uint32_t i = 0; i < n; ++i) {
        const hack1_list *l = &src->lists[i];
        if (l->count > 0) {
            size_t bytes = (size_t)l->count * sizeof(uint32_t);
            dst->lists[i].data = (uint32_t *)csr_alloc(in, bytes, _Alignof(uint32_t));
            memcpy(dst->lists[i].data, l->data, bytes);
        }
    }
    dst->n_rows = n;
}

static void hack1_teardown(void *p, const csr_input *in)
{
    hack1 *h = (hack1 *)p;
    for (uint32_t i = 0; i < h->n_rows; ++i)
        csr_free(in, h->lists[i].data, (size_t)h->lists[i].count * sizeof(uint32_t));
    csr_free(in, h->lists, (size_t)h->n_rows * sizeof *h->lists);
    h->lists = NULL;
    h->n_rows = 0;
}

static size_t hack1_requested(const void *p)
{
    const hack1 *h = (const hack1 *)p;
    size_t bytes = (size_t)h->n_rows * sizeof *h->lists;
    for (uint32_t i = 0; i < h->n_rows; ++i)
        bytes += (size_t)h->lists[i].count * sizeof(uint32_t);
    return bytes;
}

const csr_variant csr_hack1 = {
    .name = "hack1", .inst_size = sizeof(hack1), .reported = ALL_OPS,
    .build = hack1_build, .query = hack1_query,
    .snapshot = hack1_copy, .snapshot_free = hack1_teardown, .teardown = hack1_teardown,
    .requested = hack1_requested, .count = csr_meter_count,
};

/* ---- hack 2: one blob for every list, {count, offset} per row ---- */

typedef struct hack2_list {
    uint32_t count, offset;
} hack2_list;

typedef struct hack2 {
    hack2_list *lists;
    uint32_t *data;
    uint32_t n_rows, n_items;
} hack2;

/* The seed's passes into lists (zeroed) and data (n_items entries). */
static void hack2_passes(hack2_list *lists, uint32_t *data, const Regiment *regs, uint32_t n_items,
                         uint32_t n_rows)
{
    for (uint32_t r = 0; r < n_items; ++r)
        lists[regs[r].location].count++;
    uint32_t sum = 0;
    for (uint32_t i = 0; i < n_rows; ++i) {
        lists[i].offset = sum;
        sum += lists[i].count;
    }
    for (uint32_t r = 0; r < n_items; ++r) {
        hack2_list *list = &lists[regs[r].location];
        data[list->offset] = r;
        list->offset++;
    }
    for (uint32_t i = 0; i < n_rows; ++i)
        lists[i].offset -= lists[i].count;
}

static void hack2_build(void *p, const csr_input *in)
{
    hack2 *h = (hack2 *)p;
    const size_t list_bytes = (size_t)in->n_rows * sizeof(hack2_list);
    const size_t data_bytes = (size_t)in->n_items * sizeof(uint32_t);
    h->lists = (hack2_list *)csr_alloc(in, list_bytes, _Alignof(hack2_list));
    memset(h->lists, 0, list_bytes);
    /* The seed allocates `std::vector<unsigned> data(sum)` after the counting pass; sum is
     * n_items, so allocating it first changes nothing but the order. */
    h->data = (uint32_t *)csr_alloc(in, data_bytes, _Alignof(uint32_t));
    memset(h->data, 0, data_bytes);
    hack2_passes(h->lists, h->data, in->regs, in->n_items, in->n_rows);
    h->n_rows = in->n_rows;
    h->n_items = in->n_items;
}

/* Next frame into the same buffers: the counts are reset (std::fill), data keeps its size
 * (the frame has as many regiments), so nothing is allocated. */
static void hack2_rebuild(void *p, const csr_input *in, const Regiment *regs)
{
    hack2 *h = (hack2 *)p;
    memset(h->lists, 0, (size_t)h->n_rows * sizeof *h->lists);
    hack2_passes(h->lists, h->data, regs, in->n_items, in->n_rows);
}

static double hack2_query(const void *p, const csr_input *in, const uint32_t *order)
{
    const hack2 *h = (const hack2 *)p;
    double total = 0.0;
    for (uint32_t i = 0; i < h->n_rows; ++i) {
        const hack2_list *l = &h->lists[order ? order[i] : i];
        total += row_budget(h->data + l->offset, l->count, in->regs);
    }
    return total;
}

static void hack2_copy(void *d, const void *s, const csr_input *in)
{
    hack2 *dst = (hack2 *)d;
    const hack2 *src = (const hack2 *)s;
    const size_t list_bytes = (size_t)src->n_rows * sizeof(hack2_list);
    const size_t data_bytes = (size_t)src->n_items * sizeof(uint32_t);
    dst->lists = (hack2_list *)csr_alloc(in, list_bytes, _Alignof(hack2_list));
    memcpy(dst->lists, src->lists, list_bytes);
    dst->data = (uint32_t *)csr_alloc(in, data_bytes, _Alignof(uint32_t));
    memcpy(dst->data, src->data, data_bytes);
    dst->n_rows = src->n_rows;
    dst->n_items = src->n_items;
}

static void hack2_teardown(void *p, const csr_input *in)
{
    hack2 *h = (hack2 *)p;
    csr_free(in, h->lists, (size_t)h->n_rows * sizeof *h->lists);
    csr_free(in, h->data, (size_t)h->n_items * sizeof *h->data);
    memset(h, 0, sizeof *h);
}

static size_t hack2_requested(const void *p)
{
    const hack2 *h = (const hack2 *)p;
    return (size_t)h->n_rows * sizeof *h->lists + (size_t)h->n_items * sizeof *h->data;
}

const csr_variant csr_hack2 = {
    .name = "hack2", .inst_size = sizeof(hack2), .reported = ALL_OPS | (1u << OP_REBUILD),
    .build = hack2_build, .rebuild = hack2_rebuild,
    .query = hack2_query, .snapshot = hack2_copy, .snapshot_free = hack2_teardown,
    .teardown = hack2_teardown, .requested = hack2_requested, .count = csr_meter_count,
};

/* ---- hack 3: offsets[n_rows + 1] and the blob (CSR) ---- */

typedef struct hack3 {
    uint32_t *offsets, *blob;
    uint32_t n_rows, n_items;
} hack3;

/* std::vector<unsigned> offsets(n + 1) and blob(sum), both zero-initialised: hack3_build's
 * memset is the offsets' zeroing, the blob's is done here. */
static void hack3_new(void *p, const csr_input *in)
{
    hack3 *h = (hack3 *)p;
    const size_t blob_bytes = (size_t)in->n_items * sizeof(uint32_t);
    h->offsets = (uint32_t *)csr_alloc(in, ((size_t)in->n_rows + 1) * sizeof(uint32_t),
                                       _Alignof(uint32_t));
    h->blob = (uint32_t *)csr_alloc(in, blob_bytes, _Alignof(uint32_t));
    memset(h->blob, 0, blob_bytes);
    hack3_build(h->offsets, h->blob, in->regs, in->n_items, in->n_rows);
    h->n_rows = in->n_rows;
    h->n_items = in->n_items;
}

/* Next frame into the same vectors: hack3_build zeroes the offsets (std::fill), the blob
 * keeps its size. */
static void hack3_rebuild(void *p, const csr_input *in, const Regiment *regs)
{
    hack3 *h = (hack3 *)p;
    hack3_build(h->offsets, h->blob, regs, in->n_items, in->n_rows);
}

static double hack3_query(const void *p, const csr_input *in, const uint32_t *order)
{
    const hack3 *h = (const hack3 *)p;
    double total = 0.0;
    for (uint32_t i = 0; i < h->n_rows; ++i)
        total += seed_query_row(h->offsets, h->blob, in->regs, order ? order[i] : i);
    return total;
}

static void hack3_copy(void *d, const void *s, const csr_input *in)
{
    hack3 *dst = (hack3 *)d;
    const hack3 *src = (const hack3 *)s;
    const size_t off_bytes = ((size_t)src->n_rows + 1) * sizeof(uint32_t);
    const size_t blob_bytes = (size_t)src->n_items * sizeof(uint32_t);
    dst->offsets = (uint32_t *)csr_alloc(in, off_bytes, _Alignof(uint32_t));
    memcpy(dst->offsets, src->offsets, off_bytes);
    dst->blob = (uint32_t *)csr_alloc(in, blob_bytes, _Alignof(uint32_t));
    memcpy(dst->blob, src->blob, blob_bytes);
    dst->n_rows = src->n_rows;
    dst->n_items = src->n_items;
}

static void hack3_teardown(void *p, const csr_input *in)
{
    hack3 *h = (hack3 *)p;
    csr_free(in, h->offsets, ((size_t)h->n_rows + 1) * sizeof(uint32_t));
    csr_free(in, h->blob, (size_t)h->n_items * sizeof(uint32_t));
    memset(h, 0, sizeof *h);
}

static size_t hack3_requested(const void *p)
{
    const hack3 *h = (const hack3 *)p;
    return ((size_t)h->n_rows + 1 + h->n_items) * sizeof(uint32_t);
}

const csr_variant csr_hack3 = {
    .name = "hack3", .inst_size = sizeof(hack3), .reported = ALL_OPS | (1u << OP_REBUILD),
    .build = hack3_new, .rebuild = hack3_rebuild,
    .query = hack3_query, .snapshot = hack3_copy, .snapshot_free = hack3_teardown,
    .teardown = hack3_teardown, .requested = hack3_requested, .count = csr_meter_count,
};
