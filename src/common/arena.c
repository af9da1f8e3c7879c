/* The frame arena: a chain of blocks, each a header followed by its bytes. */
#include <dod/arena.h>
#include "internal.h"

struct dod_arena_block {
    dod_arena_block *next;
    size_t capacity;   /* usable bytes after the header */
    size_t alloc_size; /* what was asked of the parent, to give back */
};

/* The header is padded to a cache line so every block's bytes start 64-byte aligned. */
#define HEADER_SIZE ((sizeof(dod_arena_block) + DOD_ALIGN - 1) & ~(size_t)(DOD_ALIGN - 1))
#define MAX_ALIGN ((size_t)4096)

static unsigned char *block_bytes(dod_arena_block *b)
{
    return (unsigned char *)b + HEADER_SIZE;
}

/* Offset at which a push of `size` aligned to `align` would start in `b` after `used`
 * bytes, or SIZE_MAX if it does not fit. */
static size_t fit(dod_arena_block *b, size_t used, size_t size, size_t align)
{
    uintptr_t base = (uintptr_t)block_bytes(b);
    uintptr_t at = (base + used + (align - 1)) & ~(uintptr_t)(align - 1);
    size_t start = (size_t)(at - base);
    if (start > b->capacity || size > b->capacity - start)
        return SIZE_MAX;
    return start;
}

void dod_arena_init(dod_arena *arena, size_t block_size, const dod_allocator *parent)
{
    if (!arena)
        return;
    arena->parent = dod__allocator_or_heap(parent);
    arena->first = NULL;
    arena->current = NULL;
    arena->used = 0;
    arena->block_size = block_size ? block_size : DOD_ARENA_DEFAULT_BLOCK;
}

void dod_arena_free(dod_arena *arena)
{
    if (!arena)
        return;
    dod_arena_block *b = arena->first;
    while (b) {
        dod_arena_block *next = b->next;
        dod__free(&arena->parent, b, b->alloc_size);
        b = next;
    }
    arena->first = NULL;
    arena->current = NULL;
    arena->used = 0;
}

/* Chain a new block able to hold the push, right after the current one. */
static dod_status grow(dod_arena *arena, size_t size, size_t align)
{
    size_t need, capacity, total;
    DOD__REFUSE_IF(!dod__add(size, align - 1, &need), DOD_E_OVERFLOW);
    capacity = need > arena->block_size ? need : arena->block_size;
    DOD__REFUSE_IF(!dod__add(capacity, HEADER_SIZE, &total), DOD_E_OVERFLOW);
    dod_arena_block *b = (dod_arena_block *)arena->parent.alloc(arena->parent.ctx, total, DOD_ALIGN);
    DOD__REFUSE_IF(!b, DOD_E_NOMEM);
    b->capacity = capacity;
    b->alloc_size = total;
    if (arena->current) {
        b->next = arena->current->next;
        arena->current->next = b;
    } else {
        b->next = arena->first;
        arena->first = b;
    }
    arena->current = b;
    arena->used = 0;
    return DOD_OK;
}

dod_status dod_arena_push(dod_arena *arena, size_t size, size_t align, void **out)
{
    DOD__REFUSE_IF(!arena, DOD_E_INVALID);
    DOD__REFUSE_IF(!out, DOD_E_INVALID);
    if (align == 0)
        align = DOD_ALIGN;
    DOD__REFUSE_IF((align & (align - 1)) != 0, DOD_E_INVALID);
    DOD__REFUSE_IF(align > MAX_ALIGN, DOD_E_INVALID);

    /* The current block, then the empty blocks kept after it by an earlier frame. */
    for (dod_arena_block *b = arena->current; b; b = b->next) {
        size_t start = fit(b, b == arena->current ? arena->used : 0, size, align);
        if (start != SIZE_MAX) {
            arena->current = b;
            arena->used = start + size;
            *out = block_bytes(b) + start;
            return DOD_OK;
        }
    }
    dod_status st = grow(arena, size, align); /* changes nothing on failure */
    if (st != DOD_OK)
        return st;
    size_t start = fit(arena->current, 0, size, align);
    DOD_ASSERT(start != SIZE_MAX);
    arena->used = start + size;
    *out = block_bytes(arena->current) + start;
    return DOD_OK;
}

dod_arena_mark dod_arena_get_mark(const dod_arena *arena)
{
    dod_arena_mark m = { NULL, 0 };
    if (arena) {
        m.block = arena->current;
        m.used = arena->used;
    }
    return m;
}

void dod_arena_rewind(dod_arena *arena, dod_arena_mark mark)
{
    if (!arena)
        return;
    if (!mark.block) {
        dod_arena_reset(arena);
        return;
    }
    DOD_ASSERT(mark.used <= mark.block->capacity);
    arena->current = mark.block;
    arena->used = mark.used;
}

void dod_arena_reset(dod_arena *arena)
{
    if (!arena)
        return;
    arena->current = arena->first;
    arena->used = 0;
}

size_t dod_arena_used(const dod_arena *arena)
{
    size_t total = 0;
    if (!arena)
        return 0;
    for (dod_arena_block *b = arena->first; b && b != arena->current; b = b->next)
        total += b->capacity;
    return arena->current ? total + arena->used : 0;
}

size_t dod_arena_capacity(const dod_arena *arena)
{
    size_t total = 0;
    if (!arena)
        return 0;
    for (dod_arena_block *b = arena->first; b; b = b->next)
        total += b->capacity;
    return total;
}

static void *arena_alloc(void *ctx, size_t size, size_t align)
{
    void *p = NULL;
    return dod_arena_push((dod_arena *)ctx, size, align, &p) == DOD_OK ? p : NULL;
}

static void arena_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    (void)ptr;
    (void)size;
}

/* The allocator of a NULL arena: it refuses every allocation. */
static void *no_alloc(void *ctx, size_t size, size_t align)
{
    (void)ctx;
    (void)size;
    (void)align;
    return NULL;
}

dod_allocator dod_arena_allocator(dod_arena *arena)
{
    dod_allocator a = { arena ? arena_alloc : no_alloc, arena_free, arena };
    return a;
}
