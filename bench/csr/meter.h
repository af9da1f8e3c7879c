/* Heap accounting for the index benchmark: what a block really occupies on the heap, and a
 * counted dod_allocator for the library and the C variants. */
#ifndef BENCH_CSR_METER_H
#define BENCH_CSR_METER_H

#include "bench.h"
#include "variants.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The heap bytes a block returned by malloc / posix_memalign occupies: glibc's usable size
 * plus its 8-byte chunk header (a 32-byte request is a 48-byte block, as the seed counts). */
size_t heap_block_bytes(void *ptr);

/* Fix the heap's policy for the whole run, so a variant's timing does not depend on what the
 * variant before it freed: glibc returns the free top of the heap to the kernel past a
 * threshold (then the next build pays page faults) and moves its mmap threshold as mmapped
 * blocks are freed. Trimming is turned off and the mmap threshold pinned at 32 MiB, the
 * ceiling glibc's own adjustment reaches: blocks below it come from the heap, warm after the
 * first repetition; larger ones are mapped fresh, and pay page faults, on every allocation. */
void csr_heap_setup(void);

/* bench_counter_allocator (which counts the calls) wrapped to also sum heap_block_bytes. */
typedef struct csr_meter {
    bench_counter counter;
    dod_allocator counted;
    size_t heap_bytes;
} csr_meter;

dod_allocator csr_meter_allocator(csr_meter *m); /* m is reset */
void csr_meter_count(csr_count *out, const csr_input *in); /* in->alloc must be a meter's */

/* Allocate through in->alloc or die; free through it (size as allocated, ptr may be NULL). */
void *csr_alloc(const csr_input *in, size_t size, size_t align);
void csr_free(const csr_input *in, void *ptr, size_t size);

#ifdef __cplusplus
}
#endif

#endif
