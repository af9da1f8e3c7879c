/* dod/world_core.h: the world's core, a statically typed archetype ECS (see docs/world.md):
 * create, spawn, despawn, move, lookups, queries and iteration. Include dod/world.h, which
 * brings this header and the rest of the world.
 *
 * Every component type and every archetype (entity type: a fixed set of components) is
 * declared once, in a dod_world_desc, when the world is created; nothing is added later.
 * Each archetype is a structure of arrays cut into blocks: a block is one allocation holding
 * the entity-id column and one column per component, each starting on a 64-byte line.
 *   - A fixed archetype (capacity > 0, the seed's SemiDynamicArray) is one block of
 *     `capacity` rows allocated by dod_world_create; a spawn past it is DOD_E_FULL.
 *   - A chunked archetype (capacity 0) is a list of blocks allocated as rows fill them and
 *     given back as they empty (one empty spare is kept). Its blocks grow: block 0 holds
 *     about first_block_bytes (16 KiB by default), each next block twice the rows of the one
 *     before, up to the largest that fits block_bytes (4 MiB by default), and every block
 *     after that is as large (docs/world.md, "Blocks": a loop streams over large blocks as
 *     over one array, where equal 16 KiB blocks cost it 1.3 - 2.9x on the benchmark's VM).
 *     Blocks are allocated in order, so the blocks' bytes, the spare's included, never
 *     exceed memory_cap. Changed from equal blocks of block_bytes (16 KiB by default): the
 *     default block_bytes (now the largest block), first_block_bytes (new, at the desc's
 *     end), the rows per block and the cap's meaning (bytes, no longer a number of blocks).
 * Rows stay dense: despawn moves the archetype's last row into the hole. Rows never move when
 * an archetype grows, so a component pointer stays valid until its entity is despawned or
 * moved, or until a despawn or move swaps the archetype's last row into another place.
 *
 * Entity handles (dod_entity, 64 bits):
 *   bits  0..31  slot index in the entity index
 *   bits 32..47  generation (16 bits; odd while the entity is alive, so a live handle != 0)
 *   bits 48..63  world tag (16 bits: the number of worlds the process created before this
 *                one, modulo 65536)
 * A despawned handle never resolves again: a slot whose generation would wrap is retired.
 * The null handle (bits == 0), stale, forged and other worlds' handles are refused:
 * DOD_E_NOT_FOUND from despawn and move, NULL / 0 / UINT32_MAX from the getters. Two worlds
 * created 65536 apart in one process share a tag (docs/world.md, "Handles").
 * Handles depend only on the calls made to the world and on how many worlds the process
 * created before it: the same calls give the same ids on every run and platform.
 *
 * Thread safety: any number of threads may read a world (get, get_at, entity_at, alive,
 * archetype_of, count, block, bytes, query_init, iteration, and dod/world_index.h's index
 * builds and gathers) while no thread changes it; reads never write to the world's contents (a
 * debug build counts live iterators with an atomic counter). Every other call (create, destroy,
 * spawn, spawn_n, despawn, move, add, remove) needs exclusive access.
 *
 * The rest of the world builds on this header (dod/world.h includes them all): command
 * buffers (dod/world_cmds.h), systems on a schedule (dod/world_systems.h), relation indexes
 * (dod/world_index.h) and the typed layer (dod/world_typed.h, DOD_WORLD: the C form of the
 * seed's templates). */
#ifndef DOD_WORLD_CORE_H
#define DOD_WORLD_CORE_H

#include <dod/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most archetypes a world holds. */
#define DOD_WORLD_MAX_ARCHETYPES 256
/* The most component types a world holds. */
#define DOD_WORLD_MAX_COMPONENTS 256
/* The most components one archetype has. */
#define DOD_WORLD_MAX_ARCHETYPE_COMPONENTS 64
/* The most bytes a block of a chunked archetype holds when its desc says 0: the size its
 * blocks grow to. */
#define DOD_WORLD_BLOCK_BYTES 4194304u
/* The bytes of a chunked archetype's first block when its desc says 0 (or block_bytes when
 * that is smaller). */
#define DOD_WORLD_FIRST_BLOCK_BYTES 16384u

/* An entity's handle (the bits above: slot, generation, tag); the null handle is 0. Compare
 * handles by their bits. */
typedef struct dod_entity {
    uint64_t bits; /* bits == 0 is the null entity */
} dod_entity;

/* A component type: element size and alignment (align a power of two <= DOD_ALIGN, size a
 * non-zero multiple of align: the table's rule). The name (NULL allowed) is not kept, but a
 * hash of it is part of the world's declaration: two worlds whose components are named
 * differently are of different declarations (command buffers, dod_world_copy and world files
 * refuse to cross them), so a renamed component does not load another's saved bytes. */
typedef struct dod_component_desc {
    const char *name;
    size_t size, align;
} dod_component_desc;

/* An archetype: its components (by id, in column order) and how its rows are stored, a fixed
 * capacity or chunked blocks. Zero-initialise it and set what you need: capacity 0 makes it
 * chunked, and a zero block field takes its default. */
typedef struct dod_archetype_desc {
    const char *name;            /* for people; not kept */
    const uint32_t *components;  /* component ids (indexes into dod_world_desc.components), no
                                    repeats; its columns keep this order */
    uint32_t n_components;
    uint32_t capacity;           /* > 0: fixed capacity, the seed's SemiDynamicArray: every block
                                    this archetype will ever use is allocated by dod_world_create,
                                    and a spawn past capacity fails with DOD_E_FULL. 0: chunked */
    uint32_t block_bytes;        /* chunked: the most bytes of a block, the size blocks grow to;
                                    0 = DOD_WORLD_BLOCK_BYTES */
    size_t memory_cap;           /* chunked: the most bytes its blocks (the spare too) may hold,
                                    0 = no cap */
    uint32_t first_block_bytes;  /* chunked: the bytes of block 0, where the growth starts;
                                    0 = DOD_WORLD_FIRST_BLOCK_BYTES or block_bytes, the smaller.
                                    first_block_bytes >= block_bytes: equal blocks, all
                                    block_bytes (the layout before blocks grew) */
} dod_archetype_desc;

/* dod_world_desc.flags: create writes to every page of what it allocates, each fixed
 * archetype's block and the entity index, so the operating system maps them there and then
 * rather than on the first spawns (the first spawns into a fresh world otherwise pay a page
 * fault every 4 KiB). Chunked archetypes allocate their blocks as they grow, untouched; what
 * dod_world_reserve (and dod_world_frames_create_from) allocates for them is touched too, so
 * reserve a chunked archetype's rows, or declare a capacity, where the first spawns must not
 * fault. */
#define DOD_WORLD_PREFAULT 1u

/* What dod_world_create makes a world of: every component type and every archetype (ids are
 * their indexes here), the allocator and the flags. Copied by create. */
typedef struct dod_world_desc {
    const dod_component_desc *components;
    uint32_t n_components;
    const dod_archetype_desc *archetypes;
    uint32_t n_archetypes;
    const dod_allocator *alloc; /* NULL = the default heap */
    uint32_t flags;             /* DOD_WORLD_PREFAULT, or 0 */
} dod_world_desc;

/* A world, opaque: dod_world_create, dod_world_destroy. */
typedef struct dod_world dod_world; /* opaque */

/* Create a world from desc (copied: desc and its arrays may be freed afterwards). Allocates
 * the world, the block list of every chunked archetype, the one block of every fixed
 * archetype (align_up(8 * capacity) + the sum of align_up(size * capacity) bytes, 64-byte
 * lines), and an entity index sized for the sum of the fixed capacities. A zeroed desc makes
 * an empty world (no archetypes). The rows of a chunked archetype's blocks (R = 8 bytes for
 * the id + the component sizes, a row's bytes; g = the fewest rows for which every column,
 * the ids too, is a whole number of 64-byte lines: 8, 16, 32 or 64):
 *   - growing blocks (first_block_bytes < block_bytes): block b holds r0 << min(b, k) rows
 *     in exactly (r0 << min(b, k)) * R bytes, columns back to back. r0, a multiple of g (of
 *     16 too when first_block_bytes holds 16 rows), is at most first_block_bytes / R rows,
 *     or g rows when first_block_bytes holds fewer (the first block is then larger than
 *     asked); r0 and k are chosen so that the largest block, (r0 << k) * R bytes, is the
 *     largest such block within block_bytes (so block 0 may be as small as about half
 *     first_block_bytes). When even block 1 would not fit block_bytes, the blocks are equal:
 *   - equal blocks (first_block_bytes >= block_bytes, or no room to grow): every block is
 *     block_bytes and holds the most rows for which every column starts on a 64-byte line
 *     and fits, rounded down to a multiple of 16 when that is 16 or more.
 * With DOD_WORLD_PREFAULT in desc->flags, create also writes a byte every 4096 of the fixed
 * blocks and of the entity index, so their pages are mapped before the first spawn.
 * Errors (*w left as it was, nothing leaked):
 *   DOD_E_INVALID   w or desc NULL; a flag other than DOD_WORLD_PREFAULT; components or
 *                   archetypes NULL with a count > 0; a component breaking the element rule;
 *                   an archetype's components NULL with n_components > 0, or a component
 *                   repeated in it; a chunked archetype whose block_bytes cannot hold one row
 *   DOD_E_RANGE     more than DOD_WORLD_MAX_COMPONENTS components or DOD_WORLD_MAX_ARCHETYPES
 *                   archetypes; an archetype with more than DOD_WORLD_MAX_ARCHETYPE_COMPONENTS
 *                   components; a component id >= n_components
 *   DOD_E_OVERFLOW  a fixed archetype's bytes do not fit size_t
 *   DOD_E_NOMEM     an allocation failed
 * Thread safety: creating worlds on several threads at once is safe (the tag is taken
 * atomically). */
DOD_API dod_status dod_world_create(dod_world **w, const dod_world_desc *desc);

/* Return every byte of the world to its allocator. Every handle, pointer and iterator of the
 * world becomes invalid. NULL: no-op. */
DOD_API void dod_world_destroy(dod_world *w);

/* Append a row to `archetype`, every component zero bytes, and store its handle in *out
 * (out NULL: the entity is made all the same, its handle not stored). Takes a free slot of
 * the entity index (the most recently freed first) or a new one.
 * Allocates only when the archetype's last block is full and no spare block is kept (the next
 * block; and, every time the block list doubles, the list), or when the entity index is full
 * (the index grows by half). Moves no row: pointers stay valid; iterators in progress may or
 * may not see the new row.
 * Errors (world unchanged, *out untouched): DOD_E_INVALID (w NULL), DOD_E_RANGE
 * (archetype >= n_archetypes), DOD_E_FULL (a fixed archetype at capacity, or a chunked one
 * needing a block that would take its blocks' bytes past its memory cap), DOD_E_OVERFLOW
 * (2^32 - 1 slots), DOD_E_NOMEM, DOD_E_STATE (w a copy without its entity index:
 * DOD_WORLD_COPY_ROWS_ONLY, dod/world_io.h). */
DOD_API dod_status dod_world_spawn(dod_world *w, uint32_t archetype, dod_entity *out);

/* Spawn n entities of `archetype` at once, components zeroed. out: n handles, or NULL; the n
 * rows are appended in order and out[i] is the handle of the i-th new row (the same handles
 * n calls of dod_world_spawn would give). All or nothing: every block and slot it needs is
 * allocated before anything changes. n == 0 is a no-op. Invalidates as dod_world_spawn.
 * Errors (world unchanged, out untouched): as dod_world_spawn. */
DOD_API dod_status dod_world_spawn_n(dod_world *w, uint32_t archetype, uint32_t n,
                                     dod_entity *out);

/* Remove e: the archetype's last row moves into e's row (its entity keeps its handle) and e
 * never resolves again. When the archetype's last block holding rows empties it is kept as
 * the spare (the next spawn fills it again) and the block after it, an older spare, is freed:
 * the blocks kept are always blocks 0 .. m - 1 for some m, at most one of them empty (block 0
 * when the archetype is empty). Invalidates pointers to e's components and to those of the
 * entity that was in the archetype's last row, and every iterator of the world.
 * Errors (world unchanged): DOD_E_INVALID (w NULL), DOD_E_NOT_FOUND (e null, stale, forged
 * or from another world). */
DOD_API dod_status dod_world_despawn(dod_world *w, dod_entity e);

/* Move e to `archetype` (what other ECSs call adding or removing components): components
 * both archetypes have are copied, the new archetype's others are zeroed; e stays the same
 * valid handle. The old row is removed as by despawn (the old archetype's last row moves into
 * it). Costs a copy per column of the new archetype and a swap-remove; allocates only as a
 * spawn into `archetype` would. Moving e to the archetype it is in is a no-op (DOD_OK).
 * Invalidates pointers to e's components and to those of the old archetype's last entity,
 * and every iterator of the world.
 * Errors (world unchanged): DOD_E_INVALID (w NULL), DOD_E_RANGE (archetype >= n_archetypes),
 * DOD_E_NOT_FOUND (e not alive in w), DOD_E_FULL (into a full fixed archetype or past a
 * memory cap), DOD_E_NOMEM. */
DOD_API dod_status dod_world_move(dod_world *w, dod_entity e, uint32_t archetype);

/* Add `component` to e, or remove it: move e (as dod_world_move) to the declared archetype
 * whose component set is exactly e's set plus, or minus, that component; the added component
 * is zeroed, the others are kept. Which archetype that is was worked out once, by
 * dod_world_create, for every archetype and component (a table of n_archetypes x
 * n_components bytes, counted by dod_world_bytes): the call is a lookup and a move. Adding a
 * component e has, or removing one it lacks, is a no-op (DOD_OK), as in flecs and EnTT.
 * Two archetypes may have the same component set (typed entities); a set that two or more
 * archetypes share is never a target of add or remove (DOD_E_UNDECLARED): the game names the
 * one it means with dod_world_move. Invalidates as dod_world_move.
 * Errors (world unchanged): DOD_E_INVALID (w NULL), DOD_E_RANGE (component >= n_components),
 * DOD_E_NOT_FOUND (e not alive in w), DOD_E_UNDECLARED (no declared archetype, or more than
 * one, has exactly that set), DOD_E_FULL, DOD_E_NOMEM (as dod_world_move). */
DOD_API dod_status dod_world_add(dod_world *w, dod_entity e, uint32_t component);
DOD_API dod_status dod_world_remove(dod_world *w, dod_entity e, uint32_t component);

/* The declared archetype whose component set is exactly components[0 .. n - 1] (a duplicate
 * id counts once; n == 0 is the empty set, an archetype of ids only) into *archetype: the
 * lookup a game needs to move an entity to the archetype of a set it builds. O(archetypes).
 * Errors (*archetype untouched): DOD_E_INVALID (w or archetype NULL; components NULL with
 * n > 0), DOD_E_RANGE (an id >= n_components), DOD_E_UNDECLARED (no declared archetype, or
 * more than one, has exactly that set). Thread safety: reads the declaration only. */
DOD_API dod_status dod_world_archetype_for(const dod_world *w, const uint32_t *components,
                                           uint32_t n, uint32_t *archetype);

/* Add components[0 .. n - 1] to e, or remove them, in one move (as dod_world_move) to the
 * declared archetype whose set is exactly e's plus, or minus, them: no intermediate set has to
 * be declared (adding four components one at a time would pass through three). The added
 * components are zeroed; those e has, or lacks, already change nothing; a duplicate id counts
 * once; nothing to change (or n == 0) is a no-op (DOD_OK). O(archetypes) for the lookup, then
 * a move. Invalidates as dod_world_move.
 * Errors (world unchanged): as dod_world_add, and DOD_E_INVALID (components NULL with n > 0),
 * DOD_E_RANGE (an id >= n_components). */
DOD_API dod_status dod_world_add_n(dod_world *w, dod_entity e, const uint32_t *components,
                                   uint32_t n);
DOD_API dod_status dod_world_remove_n(dod_world *w, dod_entity e, const uint32_t *components,
                                      uint32_t n);

/* Component `component` of e: a pointer into its column, valid until e is despawned or moved
 * or a despawn or move swaps another row into e's place. O(1), no hashing, no allocation.
 * NULL when w is NULL, e is not alive in w, or its archetype has no such component.
 * A macro below makes calls inline (a handful of loads, no call); (dod_world_get)(...) or
 * &dod_world_get reach the library's function, which does the same. */
DOD_API void *dod_world_get(const dod_world *w, dod_entity e, uint32_t component);

/* The items of a relation index (dod/world_index.h) are slots: the low 32 bits of a handle,
 * its index in the entity index. A slot stays its entity's through moves and the swap-removes
 * of other entities, until the entity is despawned (a later spawn may then reuse it). */

/* The live handle of the entity in slot `item`, or the null handle (a free, retired or never
 * handed out slot; w NULL). O(1). */
DOD_API dod_entity dod_world_entity_at(const dod_world *w, uint32_t item);

/* Component `component` of the entity in slot `item`: dod_world_get without the generation
 * check (the slot is the entity's for as long as it lives). NULL when w is NULL, the slot
 * holds no live entity, or its archetype has no such component. Inline like dod_world_get
 * (a macro below); (dod_world_get_at)(...) reaches the library's function. */
DOD_API void *dod_world_get_at(const dod_world *w, uint32_t item, uint32_t component);

/* 1 when e is alive in w, else 0 (also for NULL). */
DOD_API int dod_world_alive(const dod_world *w, dod_entity e);

/* The archetype of e; UINT32_MAX when e is not alive in w or w is NULL. */
DOD_API uint32_t dod_world_archetype_of(const dod_world *w, dod_entity e);

/* Live entities of `archetype` (0 for NULL or an unknown archetype). */
DOD_API uint32_t dod_world_count(const dod_world *w, uint32_t archetype);

/* Block `block` of `archetype`: returns its rows (0 when block is past the last block holding
 * rows, or w is NULL or the archetype unknown) and, when it is > 0 and columns is not NULL,
 * stores columns[0] = the block's entity ids (dod_entity) and columns[1 + k] = the column of
 * the archetype's k-th component in its desc order (1 + n_components pointers, each 64-byte
 * aligned, n elements). Blocks 0 .. last hold rows; every one but the last is full (blocks of
 * a chunked archetype differ in size: see dod_world_create). O(number of columns). The typed
 * layer's P_<archetype>_block is this. */
DOD_API uint32_t dod_world_block(const dod_world *w, uint32_t archetype, uint32_t block,
                                 void **columns);

/* Bytes of memory the world holds: blocks (spares too), block lists, the entity index and the
 * world itself (0 for NULL). */
DOD_API size_t dod_world_bytes(const dod_world *w);

/* Make room for `rows` rows of `archetype` in all (not `rows` more): the blocks they need and
 * an entity index with room for rows - count more entities, allocated now, so the spawns (or a
 * copy) that bring the archetype to `rows` rows allocate nothing. A fixed archetype holds its
 * capacity from create: rows <= capacity reserves only the entity index. With
 * DOD_WORLD_PREFAULT in the world's desc what this call allocates is also written to, a byte
 * every 4096, so the first spawns or copies into it fault no page (else they fault a page every
 * 4 KiB: the cost of a first copy into a fresh frame, dod_world_frames_create_from).
 * All or nothing. The blocks stay the archetype's as spares do: a despawn or move that empties
 * the archetype's end block gives back every block past the next one, reserved or not
 * (dod_world_despawn). Moves no row: pointers and iterators stay valid. When the blocks and the
 * entity index already have that room, allocates nothing (DOD_OK).
 * Errors (world unchanged, nothing leaked): DOD_E_INVALID (w NULL), DOD_E_RANGE (archetype >=
 * n_archetypes), DOD_E_FULL (a fixed archetype's rows > capacity; a chunked one whose blocks
 * for `rows` would pass its memory cap), DOD_E_OVERFLOW (an entity index past 2^32 - 1
 * slots), DOD_E_NOMEM.
 * Thread safety: exclusive access to w, as dod_world_spawn. */
DOD_API dod_status dod_world_reserve(dod_world *w, uint32_t archetype, uint32_t rows);

/* The bytes of blocks that `rows` rows of archetype `archetype` of a world created from desc
 * take, into *bytes: for a chunked archetype the blocks 0 .. k - 1 that hold them (block 0
 * and its growth as dod_world_create lays them out, whatever the desc's memory_cap), so
 * memory_cap = *bytes lets the archetype hold `rows` rows (and the rest of the last block's)
 * and no more; 0 for 0 rows. For a fixed archetype its one block, whatever rows <= capacity.
 * The entity index (8 bytes a slot) and the world itself are not counted (dod_world_bytes
 * counts everything a world holds). O(components + archetypes): the desc is checked as create
 * checks it. Allocates nothing.
 * Errors (*bytes untouched): DOD_E_INVALID (desc or bytes NULL), DOD_E_RANGE (archetype >=
 * n_archetypes), DOD_E_FULL (a fixed archetype's rows > capacity), DOD_E_OVERFLOW (the bytes do
 * not fit size_t), and every error dod_world_create finds in desc (reported as its).
 * Thread safety: reads desc only. */
DOD_API dod_status dod_world_rows_bytes(const dod_world_desc *desc, uint32_t archetype,
                                        uint32_t rows, size_t *bytes);

/* A query: the archetypes that have every component of `all` and none of `none`, matched
 * once by dod_query_init. A small fixed-size struct the caller owns; its fields are private. */
typedef struct dod_query {
    uint64_t archetypes[DOD_WORLD_MAX_ARCHETYPES / 64]; /* private: the matched archetypes */
    uint32_t tag;                                       /* private: the world's tag */
} dod_query;

/* Match every archetype of w against all / none (bitsets, O(archetypes)). all / none may be
 * NULL when their count is 0; ids may repeat. No archetype changes after create, so q stays
 * valid for the world's life. Allocates nothing.
 * Errors (q untouched): DOD_E_INVALID (q or w NULL; all or none NULL with a count > 0),
 * DOD_E_RANGE (a component id >= the world's n_components). */
DOD_API dod_status dod_query_init(dod_query *q, const dod_world *w, const uint32_t *all,
                                  uint32_t n_all, const uint32_t *none, uint32_t n_none);

/* Iteration, one block at a time: n rows, the entity ids, and a column per component. */
typedef struct dod_world_iter {
    uint32_t n;                  /* rows in this block, > 0 */
    uint32_t archetype;
    const dod_entity *entities;  /* the block's entity ids */
    /* private fields follow */
    const dod_world *world;
    unsigned char *base;         /* the current block */
    const struct dod__world_field *fields; /* the current archetype's field table */
    uint32_t n_components;       /* of the world: the field table's length */
    uint32_t block;              /* the current block's number in its archetype */
    uint32_t first_row;          /* of the block: n rows from here on (a system's task may
                                    cover part of a block) */
    uint32_t scale;              /* the block's columns are at the field table's offsets
                                    << scale (dod__world_place) */
    uint32_t live;               /* counted among its world's live iterators (a debug build) */
    uint64_t matched[DOD_WORLD_MAX_ARCHETYPES / 64]; /* the query's archetypes */
} dod_world_iter;

/* Start iterating q's archetypes of w: each dod_world_next then steps to the next block
 * holding rows, archetypes in id order, blocks in order (empty archetypes and spare blocks are
 * skipped at no cost per row). A NULL w or q, or a q made for another world, gives an iterator
 * that visits nothing. it NULL: no-op. Allocates nothing. Do not init an iterator that is live
 * (below) without ending it first.
 * Thread safety: a reader; a spawn, spawn_n, despawn or move invalidates the iterator.
 *
 * Live iterators (a debug build of the library: DOD_DEBUG, the default without NDEBUG). An
 * iterator is live from the dod_world_next that first returns 1 until the one that returns 0,
 * or until dod_world_iter_end. While any iterator of a world is live, a structural change of
 * that world (spawn, spawn_n, despawn, move, add, remove, dod_world_apply, a copy or load into
 * it) is refused with DOD_E_BUSY, the world unchanged, and the error hook names the call and the
 * remedy: record the change in a command buffer (dod/world_cmds.h) and apply it after the loop.
 * (Changing rows under an iterator moves rows it has not visited yet into the ones it has: the
 * most common ECS bug, silent otherwise.) So a loop that leaves early (a break, a return) ends
 * its iterator with dod_world_iter_end, as flecs asks ecs_iter_fini. A release build counts
 * nothing and refuses nothing: the check costs nothing there. */
DOD_API void dod_world_iter_init(dod_world_iter *it, const dod_world *w, const dod_query *q);

/* Step to the next block: 1 and it->n, archetype and entities set, or 0 when done (also for
 * NULL). */
DOD_API int dod_world_next(dod_world_iter *it);

/* End an iteration before dod_world_next returned 0 (a loop that breaks out early): the iterator
 * visits nothing more and no longer counts as live. NULL, or an iterator already done: no-op.
 * Thread safety: as dod_world_next. */
DOD_API void dod_world_iter_end(dod_world_iter *it);

/* The current block's column of `component`: n elements, 64-byte aligned. O(1). NULL when it
 * is NULL, not on a block, or the archetype has no such component. A macro below makes calls
 * inline (the block's address plus the field table's offset); (dod_world_field)(...) reaches
 * the library's function, which does the same. */
DOD_API void *dod_world_field(const dod_world_iter *it, uint32_t component);

/* Private, for the typed layer's spawn: as dod_world_spawn, but the components are left as
 * they are, for the caller to write, every one, before any other call: the new row is row
 * *row of *block, whose scale is *scale, and component c's element lies at
 * dod__world_elem(*block, dod__world_fields(w, archetype)[c].offset, *scale, *row, its
 * size). */
DOD_API dod_status dod__world_spawn_row(dod_world *w, uint32_t archetype, dod_entity *out,
                                        unsigned char **block, uint32_t *row, uint32_t *scale);

/* Private, for the typed layer's bulk spawns: as dod_world_spawn_n, but the components are
 * left as they are, for the caller to write, every one, before any other call: the n new
 * rows are the archetype's rows from row *row of block *block on, in block order (the rest
 * of that block, then rows 0 .. of the next ones: dod_world_block gives their columns).
 * n == 0: no-op, *block and *row set to 0. Errors as dod_world_spawn_n, and DOD_E_INVALID
 * for a NULL block or row. */
DOD_API dod_status dod__world_spawn_rows(dod_world *w, uint32_t archetype, uint32_t n,
                                         dod_entity *out, uint32_t *block, uint32_t *row);

/* Private, for the inline lookups below; the layout may change in any release.
 * Every dod_world starts with a dod__world_head, which points at one dod__world_place per
 * archetype. A slot of the entity index: generation (DOD__WORLD_GEN_BITS), archetype (8 bits),
 * then from DOD__WORLD_LOC_SHIFT on the location, block << shift | row in block.
 * Block b of an archetype is block 0 scaled by 2^s, s = min(b, max_scale): s times the rows,
 * and each column at its offset in block 0 << s (block 0 has no padding between columns when
 * max_scale > 0, so the columns scale exactly; a fixed archetype and equal blocks have
 * max_scale 0). */
#define DOD__WORLD_GEN_BITS 16
#define DOD__WORLD_GEN_MASK 0xFFFFu /* also the last live generation */
#define DOD__WORLD_LOC_SHIFT 24
typedef struct dod__world_field { /* where a component lives in an archetype's blocks */
    size_t offset;                /* of its column from block 0's start (block b's: << its
                                     scale); 0 (the id column's): the archetype lacks it */
    size_t size;                  /* of an element */
} dod__world_field;

typedef struct dod__world_place {
    unsigned char **blocks;         /* the archetype's blocks */
    const dod__world_field *fields; /* one per component of the world */
    uint32_t row_mask;              /* (1 << shift) - 1: a location's row in its block */
    uint32_t shift;                 /* a location is block << shift | row in block */
    uint32_t max_scale;             /* block b's scale is min(b, max_scale) */
} dod__world_place;

typedef struct dod__world_head {
    uint64_t *slots;          /* the entity index */
    dod__world_place *places; /* one per archetype */
    uint32_t n_slots;         /* slots ever handed out */
    uint32_t tag_hi;          /* the world's 16-bit tag << DOD__WORLD_GEN_BITS: a live handle's
                                 high half but the generation */
    uint32_t n_components;
} dod__world_head;

/* The field table of an archetype of w (w not NULL, archetype < its n_archetypes). */
static inline const dod__world_field *dod__world_fields(const dod_world *w, uint32_t archetype)
{
    return ((const dod__world_head *)(const void *)w)->places[archetype].fields;
}

/* The scale of block b of the archetype at p. */
static inline uint32_t dod__world_scale(const dod__world_place *p, size_t b)
{
    return b < p->max_scale ? (uint32_t)b : p->max_scale;
}

/* The element in row `row` of the column at `offset` (in block 0) of a block of that scale. */
static inline unsigned char *dod__world_elem(unsigned char *block, size_t offset, uint32_t scale,
                                             size_t row, size_t size)
{
    return block + (offset << scale) + row * size;
}

/* The slot of e when e is alive in the world of h, else NULL. */
static inline const uint64_t *dod__world_find(const dod__world_head *h, dod_entity e)
{
    uint32_t index = (uint32_t)e.bits, hi = (uint32_t)(e.bits >> 32);
    if (index >= h->n_slots)
        return NULL;
    const uint64_t *s = &h->slots[index];
    uint32_t want = h->tag_hi | (uint32_t)(*s & DOD__WORLD_GEN_MASK);
    return hi == want && (hi & 1u) ? s : NULL; /* generation and tag, and odd */
}

/* The slot `index` when it holds a live entity (its generation is odd), else NULL. */
static inline const uint64_t *dod__world_slot_at(const dod__world_head *h, uint32_t index)
{
    return index < h->n_slots && (h->slots[index] & 1u) ? &h->slots[index] : NULL;
}

/* Component `component` of the live entity in slot s: its element of `size` bytes (0: the
 * field table's size), NULL when the archetype lacks it. */
static inline void *dod__world_slot_get(const dod__world_head *h, const uint64_t *s,
                                        uint32_t component, size_t size)
{
    const dod__world_place *p = &h->places[(size_t)(*s >> DOD__WORLD_GEN_BITS) & 0xFFu];
    const dod__world_field *f = &p->fields[component];
    if (f->offset == 0)
        return NULL;
    uint64_t loc = *s >> DOD__WORLD_LOC_SHIFT;
    size_t row = (uint32_t)loc & p->row_mask, b = (size_t)(loc >> p->shift);
    return dod__world_elem(p->blocks[b], f->offset, dod__world_scale(p, b), row,
                           size ? size : f->size);
}

/* dod_world_get, for a caller that knows the component's size (the typed layer: a constant);
 * size 0 reads it from the field table. */
static inline void *dod__world_get_sized(const dod_world *w, dod_entity e, uint32_t component,
                                         size_t size)
{
    const dod__world_head *h = (const dod__world_head *)(const void *)w;
    if (!w || component >= h->n_components)
        return NULL;
    const uint64_t *s = dod__world_find(h, e);
    return s ? dod__world_slot_get(h, s, component, size) : NULL;
}

#define dod_world_get(w, e, component) dod__world_get_sized((w), (e), (component), 0)

/* dod_world_get_at, sized as dod__world_get_sized. */
static inline void *dod__world_get_at_sized(const dod_world *w, uint32_t item, uint32_t component,
                                            size_t size)
{
    const dod__world_head *h = (const dod__world_head *)(const void *)w;
    if (!w || component >= h->n_components)
        return NULL;
    const uint64_t *s = dod__world_slot_at(h, item);
    return s ? dod__world_slot_get(h, s, component, size) : NULL;
}

#define dod_world_get_at(w, item, component) dod__world_get_at_sized((w), (item), (component), 0)

static inline void *dod__world_field_at(const dod_world_iter *it, uint32_t component)
{
    if (!it || !it->base || component >= it->n_components)
        return NULL;
    const dod__world_field *f = &it->fields[component];
    return f->offset ? dod__world_elem(it->base, f->offset, it->scale, it->first_row, f->size)
                     : NULL;
}

#define dod_world_field(it, component) dod__world_field_at((it), (component))

#ifdef __cplusplus
}
#endif

#endif /* DOD_WORLD_CORE_H */
