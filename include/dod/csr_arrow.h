/* dod/csr_arrow.h: hand an index to Arrow consumers (DuckDB, Polars, pyarrow, nanoarrow, ...)
 * through the Arrow C Data Interface, without copying.
 *
 * The index becomes a List<UInt32> array: format "+l" (32-bit offsets) with one child of
 * format "I" (uint32). The parent's length is n_rows and its offsets buffer is csr->offsets;
 * the child's length is n_items and its data buffer is csr->items. Neither has nulls
 * (null_count 0, validity buffers NULL), offsets 0, no dictionary, no metadata.
 *
 * Lifetime: the exported buffers ARE the index's arrays. The index must stay alive and
 * unchanged (no build, copy into it, load, reserve, shrink, clear or free) until the consumer
 * has called the array's release callback, and the child's if it moved the child out. The
 * schema refers to no index memory and may outlive it.
 *
 * Release follows the specification: each release callback releases the children it still
 * owns (those whose release is not NULL), frees what that structure allocated, and sets its
 * own `release` to NULL. Consumers may move children out and release them separately, in
 * any order. Memory for the structures' private parts comes from the index's allocator. */
#ifndef DOD_CSR_ARROW_H
#define DOD_CSR_ARROW_H

#include <dod/csr.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The Arrow C Data Interface ABI, as the specification gives it (keep the guard as is, so
 * several projects' copies coexist). */
#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

/* The type of an exported array (for an index: "+l" with one child "I"). */
struct ArrowSchema {
    /* Array type description */
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    /* Release callback */
    void (*release)(struct ArrowSchema *);
    /* Opaque producer-specific data */
    void *private_data;
};

/* The data of an exported array (for an index: its offsets, and a child for its items). */
struct ArrowArray {
    /* Array data description */
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    /* Release callback */
    void (*release)(struct ArrowArray *);
    /* Opaque producer-specific data */
    void *private_data;
};

#endif /* ARROW_C_DATA_INTERFACE */

/* Fill *schema and *array (caller-owned structs, overwritten) to describe the index. A
 * never-built index exports as an empty list array whose offsets buffer is a static { 0 }.
 * Allocates three small blocks. Errors, *schema and *array untouched: DOD_E_INVALID (an
 * argument NULL), DOD_E_OVERFLOW (n_items > INT32_MAX: "+l" offsets are int32; the 64-bit
 * large list is not offered), DOD_E_NOMEM. Thread-safe with other readers of the index. */
DOD_API dod_status dod_csr_export_arrow(const dod_csr *csr, struct ArrowSchema *schema,
                                        struct ArrowArray *array);

#ifdef __cplusplus
}
#endif

#endif /* DOD_CSR_ARROW_H */
