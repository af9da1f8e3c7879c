/* Snapshots of a dod_csr for the index tests: prove that a failed call changed nothing. */
#ifndef DOD_TEST_CSR_SNAP_H
#define DOD_TEST_CSR_SNAP_H

#include <dod/csr.h>
#include <stdlib.h>
#include <string.h>

/* The index's fields (pointers and capacity included) and copies of what they show. */
typedef struct csr_snap {
    dod_csr fields;
    uint32_t *offsets, *items;
} csr_snap;

static inline csr_snap csr_snap_take(const dod_csr *c)
{
    csr_snap s;
    s.fields = *c;
    s.offsets = NULL;
    s.items = NULL;
    if (c->offsets) {
        s.offsets = (uint32_t *)malloc(((size_t)c->n_rows + 1) * 4);
        memcpy(s.offsets, c->offsets, ((size_t)c->n_rows + 1) * 4);
    }
    if (c->n_items) {
        s.items = (uint32_t *)malloc((size_t)c->n_items * 4);
        memcpy(s.items, c->items, (size_t)c->n_items * 4);
    }
    return s;
}

static inline int csr_snap_same(const dod_csr *c, const csr_snap *s)
{
    int ok = memcmp(&s->fields, c, sizeof *c) == 0;
    if (ok && c->offsets)
        ok = memcmp(s->offsets, c->offsets, ((size_t)c->n_rows + 1) * 4) == 0;
    if (ok && c->n_items)
        ok = memcmp(s->items, c->items, (size_t)c->n_items * 4) == 0;
    return ok;
}

static inline void csr_snap_drop(csr_snap *s)
{
    free(s->offsets);
    free(s->items);
}

/* csr_snap_same, then drop the snapshot. */
static inline int csr_snap_unchanged(const dod_csr *c, csr_snap *s)
{
    int ok = csr_snap_same(c, s);
    csr_snap_drop(s);
    return ok;
}

#endif
