/* dod/table.h: a structure-of-arrays table with generational handles and hot/cold groups.
 *
 * A table holds `n_rows` rows of n_cols columns. Column k is one array of n_rows elements of
 * desc[k].size bytes; row i is element i of every column. Columns that share a group number
 * live in one allocation (a group), each column starting on a 64-byte line, so a loop that
 * reads the hot group streams only hot bytes.
 *
 * Rows stay dense: removal moves the last row into the hole (swap-remove) in every column.
 * Stable references are handles, dense-slot-map style: a sparse slot array
 * {generation, row or next free} plus a hidden back-pointer column row -> slot, patched on
 * every move, so a live handle resolves to its row after any remove, permute, sort or copy.
 *
 * Handle bits (see docs/table.md):
 *   bits  0..31  slot index
 *   bits 32..51  generation (20 bits; odd = live, so a live handle is never 0)
 *   bits 52..63  table tag (12 bits, from a per-process counter at init)
 * A removed handle never resolves again: a slot whose generation would wrap is retired.
 * The null handle (bits == 0), stale, forged and other tables' handles are all refused with
 * DOD_E_NOT_FOUND. (Two tables are told apart by their tag: tables initialised 4096 apart
 * share a tag; a copy shares its source's tag on purpose, it is the same table later.)
 *
 * Thread safety: any number of threads may read a table (find, handle_at, column, count,
 * copy
 * from it) while no thread modifies it; every other call needs exclusive access. */
#ifndef DOD_TABLE_H
#define DOD_TABLE_H

#include <dod/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most columns a table holds (the table is a plain struct, its metadata inline). */
#define DOD_TABLE_MAX_COLUMNS 32
/* The most rows (and slots) a table holds. */
#define DOD_TABLE_MAX_ROWS 0xFFFFFFFEu

/* One column: element size and alignment (size a multiple of align, align a power of two
 * <= DOD_ALIGN), and the group it lives in. */
typedef struct dod_table_column_desc {
    size_t size, align;
    uint32_t group; /* columns with the same group number live in one block; a hot loop's
                       stream then excludes cold columns */
} dod_table_column_desc;

/* A stable reference to a table's row (the bits above): it resolves to the row through
 * dod_table_find until the row is removed. Compare handles by their bits. */
typedef struct dod_table_handle {
    uint64_t bits; /* bits == 0 is the null handle */
} dod_table_handle;

typedef struct dod_table_slot { /* private */
    uint32_t gen;   /* odd: live; even: free; DOD__TABLE_RETIRED: never reused */
    uint32_t index; /* live: the row; free: the next free slot (UINT32_MAX ends the list) */
} dod_table_slot;

/* The table: a plain struct the caller owns (dod_table_init, dod_table_free), its metadata
 * inline (no allocation until the first push or reserve). n_rows, row_cap and n_cols may be
 * read; only the library's calls change them. */
typedef struct dod_table {
    uint32_t n_rows;  /* rows; read-only for users */
    uint32_t row_cap; /* rows every group holds before the next growth; read-only */
    uint32_t n_cols; /* read-only */
    /* private fields follow */
    uint32_t n_groups;  /* user groups; block[n_groups] holds the back-pointer column */
    uint32_t tag;       /* 12-bit table tag placed in every handle */
    uint32_t n_slots;   /* slots ever handed out (live + free + retired) */
    uint32_t slot_cap;  /* slots the slot array holds */
    uint32_t free_head; /* first free slot, UINT32_MAX when none */
    uint32_t n_free;    /* slots on the free list */
    dod_table_slot *slots;
    dod_table_column_desc desc[DOD_TABLE_MAX_COLUMNS];
    uint8_t col_block[DOD_TABLE_MAX_COLUMNS + 1];  /* column -> dense group index */
    void *col[DOD_TABLE_MAX_COLUMNS + 1];          /* column bases; [n_cols] = row -> slot */
    void *block[DOD_TABLE_MAX_COLUMNS + 1];        /* one allocation per group */
    size_t block_bytes[DOD_TABLE_MAX_COLUMNS + 1];
    dod_allocator alloc;
} dod_table;

/* Prepare an empty table with the given columns (copied; cols may be freed afterwards).
 * Allocates nothing: the first push or reserve does. alloc NULL = the default heap.
 * n_cols == 0 is valid (a pure handle allocator). Groups are numbered freely; columns of a
 * group keep their declaration order inside its block.
 * Errors (afterwards *t is an empty table with no columns, safe to free):
 *   DOD_E_INVALID  t NULL; cols NULL with n_cols > 0; a size of 0, an align that is not a
 *                  power of two or exceeds DOD_ALIGN, a size not a multiple of its align
 *   DOD_E_RANGE    n_cols > DOD_TABLE_MAX_COLUMNS */
DOD_API dod_status dod_table_init(dod_table *t, const dod_table_column_desc *cols, uint32_t n_cols,
                                  const dod_allocator *alloc);

/* Append a row whose every column is zero bytes and store its handle in *out. Growth is
 * geometric (1.5x, first 16 rows); within capacity (see reserve) nothing is allocated.
 * Moves columns when it grows. Errors (table unchanged, *out untouched): DOD_E_INVALID
 * (t or out NULL), DOD_E_OVERFLOW (DOD_TABLE_MAX_ROWS rows or slots, or bytes), DOD_E_NOMEM. */
DOD_API dod_status dod_table_push(dod_table *t, dod_table_handle *out);

/* Swap-remove the row of h in every column: the last row moves into its place and keeps
 * its handle. h never resolves again. Errors (unchanged): DOD_E_INVALID (t NULL),
 * DOD_E_NOT_FOUND (h null, stale, forged or from another table). */
DOD_API dod_status dod_table_remove(dod_table *t, dod_table_handle h);

/* Like dod_table_remove but keeps the order of the remaining rows (moves every later row
 * down one: O(n_rows - row)). Errors as dod_table_remove. */
DOD_API dod_status dod_table_remove_ordered(dod_table *t, dod_table_handle h);

/* Remove the last row. Errors (unchanged): DOD_E_INVALID (t NULL), DOD_E_RANGE (empty). */
DOD_API dod_status dod_table_pop(dod_table *t);

/* Store the row of h in *row. O(1), allocates nothing. Errors (*row untouched):
 * DOD_E_INVALID (t or row NULL), DOD_E_NOT_FOUND (null, stale, forged, other table). */
DOD_API dod_status dod_table_find(const dod_table *t, dod_table_handle h, uint32_t *row);

/* The handle of row `row`, or the null handle when t is NULL or row >= n_rows. */
DOD_API dod_table_handle dod_table_handle_at(const dod_table *t, uint32_t row);

/* Rows in the table (0 for NULL). */
DOD_API uint32_t dod_table_count(const dod_table *t);

/* Column `col`'s base: 64-byte aligned, element i is row i. Valid until the next structural
 * change (a push that grows, reserve, copy into t, free; permute and sort reorder in place
 * and keep it). NULL when t is NULL, col >= n_cols, or nothing is allocated yet (row_cap == 0). */
DOD_API void *dod_table_column(const dod_table *t, uint32_t col);

/* Reorder rows: new row i = old row perm[i], in every column; handles follow their rows.
 * perm has n_rows entries and must be a permutation of 0..n_rows-1. Works column by column in
 * place through one scratch block (n_rows * the largest element, plus a bit a row) taken from
 * the table's allocator and given back. Columns do not move. Errors (unchanged):
 * DOD_E_INVALID (t NULL, perm NULL with n_rows > 0, a repeated entry), DOD_E_RANGE (an entry
 * >= n_rows; checked before anything is allocated), DOD_E_NOMEM. */
DOD_API dod_status dod_table_permute(dod_table *t, const uint32_t *perm);

/* Stable sorts by column `col`, ascending, permuting every column and keeping handles valid.
 * u32/i32: LSD radix on the integer (passes whose byte is constant are skipped); f32: the
 * same on the float bits mapped to an order-preserving integer (-inf < ... < -0 < +0 < ...
 * < +inf; NaNs with the sign bit set sort first, others last). From 65536 rows on, rows are
 * first bucketed by the key's top byte so each column's final gather stays in cache. Scratch
 * (21 bytes a row plus n_rows * the largest element) comes from the table's allocator in one
 * block and is given back; columns stay where they are. Errors (unchanged): DOD_E_INVALID (t NULL,
 * the column's size is not 4), DOD_E_RANGE (col >= n_cols), DOD_E_NOMEM. */
DOD_API dod_status dod_table_sort_u32(dod_table *t, uint32_t col);
DOD_API dod_status dod_table_sort_i32(dod_table *t, uint32_t col);
DOD_API dod_status dod_table_sort_f32(dod_table *t, uint32_t col);

/* Compare two elements of the key column: <0, 0, >0 as a before, equal to, after b. */
typedef int (*dod_table_cmp)(const void *a, const void *b, void *ctx);

/* Stable merge sort by column `col` with cmp (ctx passed through). Scratch, one block: 8 bytes
 * a row plus n_rows * the largest element.
 * Errors (unchanged): DOD_E_INVALID (t or cmp NULL), DOD_E_RANGE (col >= n_cols),
 * DOD_E_NOMEM. */
DOD_API dod_status dod_table_sort_by(dod_table *t, uint32_t col, dod_table_cmp cmp, void *ctx);

/* Make sure the table holds `rows` rows and that pushes up to that many rows allocate
 * nothing (groups and slots). Contents and handles are kept; columns move if it allocates.
 * Errors (unchanged): DOD_E_INVALID, DOD_E_OVERFLOW (rows > DOD_TABLE_MAX_ROWS or bytes),
 * DOD_E_NOMEM. */
DOD_API dod_status dod_table_reserve(dod_table *t, uint32_t rows);

/* Remove every row (every handle goes stale), keeping capacity. O(n_rows). NULL: no-op. */
DOD_API void dod_table_clear(dod_table *t);

/* Make dst an exact copy of src (the snapshot): columns, rows, slots and tag, so every handle
 * of src resolves in dst to the same row. dst must be initialised; it keeps its own
 * allocator. When dst has src's columns and capacity for src's rows and slots, nothing is
 * allocated and the cost is one memcpy per column plus the slots. Otherwise dst gets blocks
 * of src's capacity. dst == src is a no-op. Errors (dst unchanged): DOD_E_INVALID (NULL),
 * DOD_E_NOMEM. Thread safety: src may be read by other threads meanwhile. */
DOD_API dod_status dod_table_copy(dod_table *dst, const dod_table *src);

/* Bytes of memory the table holds (every group and the slot array); 0 for NULL. */
DOD_API size_t dod_table_bytes(const dod_table *t);

/* Return every byte to the allocator and leave an empty table with the same columns, the
 * same allocator and a fresh tag. NULL: no-op. */
DOD_API void dod_table_free(dod_table *t);

/* Unchecked column base for generated code (the typed layer): col < n_cols. */
static inline void *dod__table_col(const dod_table *t, uint32_t col)
{
    return t->col[col];
}

#ifdef __cplusplus
}
#endif


#endif /* DOD_TABLE_H */
