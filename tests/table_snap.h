/* Snapshots of a dod_table for the table tests: prove that a failed call changed nothing. */
#ifndef DOD_TEST_TABLE_SNAP_H
#define DOD_TEST_TABLE_SNAP_H

#include <dod/table.h>
#include <stdlib.h>
#include <string.h>

typedef struct table_snap {
    dod_table fields;
    unsigned char *cols[DOD_TABLE_MAX_COLUMNS + 1];
    dod_table_slot *slots;
} table_snap;

static inline size_t snap_col_size(const dod_table *t, uint32_t c)
{
    return c < t->n_cols ? t->desc[c].size : sizeof(uint32_t);
}

static inline table_snap snap_take(const dod_table *t)
{
    table_snap s;
    s.fields = *t;
    for (uint32_t c = 0; c <= DOD_TABLE_MAX_COLUMNS; ++c)
        s.cols[c] = NULL;
    for (uint32_t c = 0; c <= t->n_cols && t->n_rows > 0; ++c) {
        size_t n = (size_t)t->n_rows * snap_col_size(t, c);
        s.cols[c] = (unsigned char *)malloc(n);
        memcpy(s.cols[c], t->col[c], n);
    }
    s.slots = NULL;
    if (t->n_slots) {
        s.slots = (dod_table_slot *)malloc(t->n_slots * sizeof(dod_table_slot));
        memcpy(s.slots, t->slots, t->n_slots * sizeof(dod_table_slot));
    }
    return s;
}

/* 1 when t's fields and contents equal the snapshot; frees the snapshot. */
static inline int snap_unchanged(const dod_table *t, table_snap *s)
{
    const dod_table *f = &s->fields;
    int ok = f->n_rows == t->n_rows && f->row_cap == t->row_cap && f->n_cols == t->n_cols &&
             f->n_groups == t->n_groups && f->tag == t->tag && f->n_slots == t->n_slots &&
             f->slot_cap == t->slot_cap && f->free_head == t->free_head &&
             f->n_free == t->n_free && f->slots == t->slots;
    for (uint32_t c = 0; ok && c <= DOD_TABLE_MAX_COLUMNS; ++c)
        ok = f->col[c] == t->col[c] && f->block[c] == t->block[c] &&
             f->block_bytes[c] == t->block_bytes[c];
    for (uint32_t c = 0; ok && c <= t->n_cols && t->n_rows > 0; ++c)
        ok = memcmp(s->cols[c], t->col[c], (size_t)t->n_rows * snap_col_size(t, c)) == 0;
    if (ok && t->n_slots)
        ok = memcmp(s->slots, t->slots, t->n_slots * sizeof(dod_table_slot)) == 0;
    for (uint32_t c = 0; c <= DOD_TABLE_MAX_COLUMNS; ++c)
        free(s->cols[c]);
    free(s->slots);
    return ok;
}

#endif
