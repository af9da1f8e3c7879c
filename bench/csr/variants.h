/* The jagged-index benchmark's variants behind one table of operations, so the driver can run
 * them round-robin: the seed's naive vector of vectors (and its fragmented-heap twin), its
 * three hacks, the library, and a plain memcpy of the bytes the library's snapshot copies.
 *
 * An instance is inst_size bytes of driver memory, zeroed, then given to init (may be NULL; it
 * never allocates through the counted paths); fini (may be NULL) undoes init. Every operation
 * that allocates does it through a counted path, so `count` can tell the driver the calls and
 * the heap bytes held. */
#ifndef BENCH_CSR_VARIANTS_H
#define BENCH_CSR_VARIANTS_H

#include <dod/base.h>
#include "bench.h"
#include "regiments.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum csr_op {
    OP_BUILD,        /* from nothing, as the seed measures it */
    OP_REBUILD,      /* steady state: the next frame (in->next) into the memory held */
    OP_QUERY,        /* every row in order: the seed's per-row logic */
    OP_QUERY_RANDOM, /* every row in the order in->order */
    OP_SNAPSHOT,     /* deep copy for another thread */
    OP_TEARDOWN,     /* free the index */
    OP_COUNT
} csr_op;

const char *csr_op_name(csr_op op);

/* What one configuration hands every variant. */
typedef struct csr_input {
    const Regiment *regs;  /* this frame: build and queries */
    const Regiment *next;  /* the next frame (same sizes, some regiments moved): rebuild */
    const uint32_t *order; /* a permutation of the rows, for query_random */
    uint32_t n_rows, n_items;
    dod_allocator alloc;   /* the counted allocator the C variants allocate through */
} csr_input;

/* Allocation calls, free calls and heap bytes held so far on one counted path. */
typedef struct csr_count {
    long allocs, frees;
    size_t heap_bytes;
} csr_count;

typedef struct csr_variant {
    const char *name;
    size_t inst_size;
    unsigned reported; /* bit (1u << op) for each op the driver times and reports */
    void (*init)(void *inst, const csr_input *in);
    void (*fini)(void *inst);
    void (*build)(void *inst, const csr_input *in);
    void (*after_build)(void *inst); /* untimed, may be NULL (the fragmented heap's frees) */
    /* Rebuild from regs (in->regs or in->next) into the memory held; NULL where reuse is not
     * natural. */
    void (*rebuild)(void *inst, const csr_input *in, const Regiment *regs);
    /* The seed's query: sum over rows of the row's travel budget; order NULL = row order.
     * Also run, untimed, on snapshots to check them. */
    double (*query)(const void *inst, const csr_input *in, const uint32_t *order);
    /* Untimed: make dst a destination with capacity, as a snapshot kept from frame to frame
     * is (written before, so the timed copy meets no fresh pages). May be NULL. */
    void (*snapshot_prepare)(void *dst, const void *src, const csr_input *in);
    void (*snapshot)(void *dst, const void *src, const csr_input *in);
    void (*snapshot_free)(void *dst, const csr_input *in);
    void (*teardown)(void *inst, const csr_input *in);
    void (*after_teardown)(void *inst); /* untimed, may be NULL */
    /* Bytes the structure asked its allocator for (no heap headers), for the memory ratio. */
    size_t (*requested)(const void *inst);
    void (*count)(csr_count *out, const csr_input *in);
} csr_variant;

extern const csr_variant csr_hack1, csr_hack2, csr_hack3; /* hacks.c */
extern const csr_variant csr_dod, csr_memcpy;             /* dod_variants.c */
extern const csr_variant csr_dod_auto, csr_dod_auto2;     /* dod_variants.c */
const csr_variant *csr_naive(int fragmented);              /* naive.cpp */

#ifdef __cplusplus
}
#endif

#endif
