#include "meter.h"
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>

void csr_heap_setup(void)
{
    if (!mallopt(M_TRIM_THRESHOLD, INT_MAX) || !mallopt(M_MMAP_THRESHOLD, 32 << 20))
        printf("heap policy not applied: this malloc (a sanitizer's?) refuses mallopt\n");
}

size_t heap_block_bytes(void *ptr)
{
    return malloc_usable_size(ptr) + sizeof(size_t);
}

static void *meter_alloc(void *ctx, size_t size, size_t align)
{
    csr_meter *m = (csr_meter *)ctx;
    void *p = m->counted.alloc(m->counted.ctx, size, align);
    if (p)
        m->heap_bytes += heap_block_bytes(p);
    return p;
}

static void meter_free(void *ctx, void *ptr, size_t size)
{
    csr_meter *m = (csr_meter *)ctx;
    m->heap_bytes -= heap_block_bytes(ptr);
    m->counted.free(m->counted.ctx, ptr, size);
}

dod_allocator csr_meter_allocator(csr_meter *m)
{
    memset(m, 0, sizeof *m);
    m->counted = bench_counter_allocator(&m->counter);
    dod_allocator a = { meter_alloc, meter_free, m };
    return a;
}

void csr_meter_count(csr_count *out, const csr_input *in)
{
    const csr_meter *m = (const csr_meter *)in->alloc.ctx;
    out->allocs = m->counter.allocs;
    out->frees = m->counter.frees;
    out->heap_bytes = m->heap_bytes;
}

void *csr_alloc(const csr_input *in, size_t size, size_t align)
{
    void *p = in->alloc.alloc(in->alloc.ctx, size, align);
    if (!p)
        bench_die("out of memory");
    return p;
}

void csr_free(const csr_input *in, void *ptr, size_t size)
{
    if (ptr)
        in->alloc.free(in->alloc.ctx, ptr, size);
}
