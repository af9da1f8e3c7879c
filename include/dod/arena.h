/* dod/arena.h: a frame arena. Bump allocation out of chained blocks: pushes never move earlier
 * allocations, mark/rewind pops back to a point, reset empties it for the next frame while
 * keeping its blocks, so a steady frame allocates nothing from the parent.
 *
 * The arena can stand in as a dod_allocator (its free is a no-op), so a whole index or table
 * can live in it and a per-frame dod_arena_reset releases everything at once.
 *
 * Thread safety: an arena is used by one thread at a time. */
#ifndef DOD_ARENA_H
#define DOD_ARENA_H

#include <dod/base.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dod_arena_block dod_arena_block; /* private */

/* A frame arena: a plain struct the caller owns (stack, global, embedded), prepared by
 * dod_arena_init and emptied by dod_arena_free; every field is private. */
typedef struct dod_arena {
    /* all fields private */
    dod_allocator parent;
    dod_arena_block *first;   /* blocks in the order they were chained */
    dod_arena_block *current; /* the block pushes come from */
    size_t used;              /* bytes used in `current` */
    size_t block_size;        /* the default size of a new block */
} dod_arena;

/* A point to rewind to: everything pushed after it is released together. */
typedef struct dod_arena_mark {
    dod_arena_block *block; /* private */
    size_t used;            /* private */
} dod_arena_mark;

/* Default block size when dod_arena_init is given 0. */
#define DOD_ARENA_DEFAULT_BLOCK ((size_t)1 << 20)

/* Prepare an empty arena; allocates nothing. block_size 0 = DOD_ARENA_DEFAULT_BLOCK; a push
 * larger than a block gets a block of its own. parent NULL = the default heap. arena NULL:
 * no-op. */
DOD_API void dod_arena_init(dod_arena *arena, size_t block_size, const dod_allocator *parent);

/* Return every block to the parent and leave an initialised, empty arena. NULL: no-op. */
DOD_API void dod_arena_free(dod_arena *arena);

/* Push `size` bytes aligned to `align` (a power of two, at most 4096; 0 means DOD_ALIGN) and
 * store the pointer in *out. size 0 succeeds with a non-NULL, unique-enough pointer that must
 * not be dereferenced. Errors: DOD_E_INVALID (NULL arena/out, bad align), DOD_E_OVERFLOW,
 * DOD_E_NOMEM (the parent failed: the arena is unchanged, *out untouched). */
DOD_API dod_status dod_arena_push(dod_arena *arena, size_t size, size_t align, void **out);

/* The current position, and rewinding to it. Rewinding to a mark taken before a reset, or to
 * a mark of another arena, is a caller error (checked by DOD_ASSERT in debug builds).
 * get_mark(NULL) is the empty mark; rewind(NULL, ...) is a no-op. */
DOD_API dod_arena_mark dod_arena_get_mark(const dod_arena *arena);
DOD_API void dod_arena_rewind(dod_arena *arena, dod_arena_mark mark);

/* Release every push but keep the blocks for the next frame. NULL: no-op. */
DOD_API void dod_arena_reset(dod_arena *arena);

/* Bytes handed out since the last reset (including alignment padding), and bytes held in
 * blocks; 0 for NULL. */
DOD_API size_t dod_arena_used(const dod_arena *arena);
DOD_API size_t dod_arena_capacity(const dod_arena *arena);

/* A dod_allocator that pushes into `arena` (align as asked) and whose free does nothing.
 * Valid while the arena lives; memory returns at the next reset, rewind or free. For a NULL
 * arena: an allocator whose every allocation fails (so its user gets DOD_E_NOMEM). */
DOD_API dod_allocator dod_arena_allocator(dod_arena *arena);

#ifdef __cplusplus
}
#endif

#endif /* DOD_ARENA_H */
