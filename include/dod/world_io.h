/* dod/world_io.h: a world copied (snapshots, and frames of worlds for reader threads) and
 * saved to and loaded from checked files (docs/world.md, "Snapshots and frames" and "World
 * files"; the file format: docs/format.md, "The world file").
 *
 * A snapshot is the same world seen later: dod_world_copy gives the copy the source's entity
 * index, rows, block layout and tag, so every handle of the source resolves in the copy to
 * equal components, queries made for the source iterate the copy, and commands recorded
 * against the copy (dod_cmds_init on it) apply to the source, which shares its handles and
 * declaration. A frames object whose slots hold worlds (dod_world_frames_create) hands such
 * snapshots to reader threads that never wait.
 *
 * A world file holds one world: a header fingerprinting its declaration, a directory (every
 * component's name hash, size and align; every archetype's components, capacity and blocks;
 * its row count), the entity index, then each archetype's rows in order (ids, then each
 * component's column), and a trailer with the CRC-32C of everything before it. The world's
 * own fields (counts, slots, ids) are little-endian on every host. Components are bytes the
 * world knows only the size and alignment of: each element is saved as little-endian words of
 * its alignment, 8 bytes at most (a float or int32 component as 32-bit words, a double or
 * int64 as 64-bit words, bytes as they are). That is exact for a component whose scalars are
 * all as wide as its alignment, on every host; a component mixing widths (a struct of a
 * uint64_t and two uint16_t) or aligned past its scalars (16-byte aligned floats) is saved
 * exactly and loads exactly on hosts of the same byte order, but a host of the other order
 * reads it with its scalars swapped as if they were words of its alignment. On a
 * little-endian host (x86-64, ARM64) a component's column is written and read as it is.
 *
 * Thread safety: dod_world_copy reads src (other readers may run alongside) and needs dst
 * exclusively; saving reads the world (a reader thread may save a frame's world; a large save
 * to a stream borrows a stage from the world's allocator, which must then be safe to call from
 * that thread: the default heap is); loading needs the world exclusively. */
#ifndef DOD_WORLD_IO_H
#define DOD_WORLD_IO_H

#include <dod/world_core.h>
#include <dod/exec.h>
#include <dod/frame.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Make dst an exact copy of src, a world of the same declaration: the same entity index (every
 * slot, the free list: later spawns give the same handles in both), the same rows of every
 * archetype in the same blocks and order (iteration and dod_world_block see them alike), and
 * src's tag, so every handle of src resolves in dst to equal components.
 * Copies the live rows only: for every block holding rows, its ids and one memcpy per
 * component column; and src's slots. dst keeps every block it holds and gains the blocks and
 * entity index it lacks, allocated before anything changes: into a dst that holds enough (a
 * frame's world after the first copies) it allocates nothing. dst may keep more spare blocks
 * than src holds (its dod_world_bytes may be larger); its first despawn that empties a block
 * trims them as usual. dst == src: no-op.
 * Invalidates every handle dst gave before (they now name src's entities or nothing), every
 * pointer into dst and its iterators; queries and schedules made for dst before carry its
 * former tag (a query then iterates nothing, dod_schedule_run refuses with DOD_E_INVALID):
 * make them for src, which fit dst after the copy.
 * Errors (dst unchanged): DOD_E_INVALID (dst or src NULL; worlds of different declarations,
 * compared field by field: the error hook names the first difference, in a release build too:
 * "another declaration: the size of component 2 is 12 in dst, 8 in src"), DOD_E_NOMEM. */
DOD_API dod_status dod_world_copy(dod_world *dst, const dod_world *src);

/* dod_world_copy_desc.flags: copy only what changed since dst last held a copy of src (below). */
#define DOD_WORLD_COPY_CHANGED 1u
/* dod_world_copy_desc.flags: copy the rows (every archetype's ids and columns) without the entity
 * index, for a frame whose readers never look a handle up: they walk queries, read by row number
 * (dod/world_rows.h), build DOD_WORLD_INDEX_ROWS indexes and gather by them, and take a row's
 * handle (dod_world_row_entity, an iterator's entities) to the live world. The index is 8 bytes
 * a slot, about a fifth of a small entity's bytes, which the copy then does not move. dst then
 * answers no handle: dod_world_get, get_at and alive find nothing, despawn and move give
 * DOD_E_NOT_FOUND, and what would need the index is refused with DOD_E_STATE, in every build,
 * the error hook saying why: a spawn (any form), an apply, a schedule's run that applies, a
 * save, a relation index of slots (without DOD_WORLD_INDEX_ROWS) or a gather by slots. A copy
 * from dst gives another rows-only world; a copy without the flag, or a load, into dst gives it
 * an index again. dod_world_equal and dod_world_hash see a world with no slots, so a rows-only
 * copy is not equal to its source: compare or hash the source. */
#define DOD_WORLD_COPY_ROWS_ONLY 2u

/* How dod_world_copy_with copies: zero-initialise it and set what you need. */
typedef struct dod_world_copy_desc {
    const dod_executor *exec; /* copy on it (NULL: the calling thread) */
    uint32_t flags;           /* DOD_WORLD_COPY_CHANGED, DOD_WORLD_COPY_ROWS_ONLY, or 0 */
} dod_world_copy_desc;

/* dod_world_copy, the bytes cut into shares copied at once on desc->exec, and with
 * DOD_WORLD_COPY_CHANGED only what changed since dst last held a copy of src. desc NULL: as
 * dod_world_copy.
 *
 * Change versions. Every world counts its changes, and each change stamps what it changed: a
 * spawn, despawn or move (add, remove, an apply's commands) its archetypes' rows (the ids and
 * every column) and the entity index; a schedule's phase the columns its systems declare they
 * write, in every archetype they run over; dod_world_touch one column; a load everything. A
 * copy into dst remembers src (its address and serial) and src's count. The next copy with
 * DOD_WORLD_COPY_CHANGED from the same src into a dst that has not changed since copies the
 * entity index only if it changed, an archetype's ids and columns whole if its rows changed, and
 * else only the columns written since; anything else (another src, a dst changed or never a
 * copy) is copied whole. A frame's slot holds the world of a few frames ago, so the columns no
 * system wrote since, in archetypes no spawn, despawn or move touched, are not copied again.
 * The granularity is an archetype's column: a structural change in an archetype rewrites rows
 * anywhere in it (a despawn moves its last row into the hole), so it counts as a change of every
 * column there.
 * A write through a pointer (dod_world_get, get_at, row_get, an iterator's or a block's column)
 * stamps nothing: declare it with dod_world_touch before copying with DOD_WORLD_COPY_CHANGED, or
 * the copy keeps the column as dst held it. A debug build of the library compares what such a
 * copy leaves out with src and, on a difference, reports it through the error hook (DOD_E_STATE)
 * and copies everything; a release build trusts the versions.
 * Cost: the bytes copied, shared by the executor's threads (at least 1 MiB a task); with nothing
 * changed, O(archetypes + blocks). Allocates as dod_world_copy.
 * Errors (dst unchanged): as dod_world_copy, and DOD_E_INVALID (unknown flags; exec with run
 * NULL or 0 threads).
 * Thread safety: as dod_world_copy; the executor's threads read src and write dst. */
DOD_API dod_status dod_world_copy_with(dod_world *dst, const dod_world *src,
                                       const dod_world_copy_desc *desc);

/* Declare that `component` of `archetype` was written through a pointer (a loop over an
 * iterator's or a block's column, a dod_world_get): stamps its column with a new change version,
 * so a copy with DOD_WORLD_COPY_CHANGED takes it. Systems on a schedule need not: their declared
 * writes are stamped. O(components of the archetype). Exclusive access to w.
 * Errors: DOD_E_INVALID (w NULL), DOD_E_RANGE (archetype or component out of range),
 * DOD_E_NOT_FOUND (the archetype lacks the component). */
DOD_API dod_status dod_world_touch(dod_world *w, uint32_t archetype, uint32_t component);

/* 1 when a and b hold the same state: the same declaration, the same entity index up to the
 * world's tag (every slot's generation; a live entity's archetype; the free list, which decides
 * the handles later spawns get), and every archetype's rows in the same order with the same
 * ids less the tag and the same bytes in every component. The blocks that hold the rows (spares,
 * capacities of the lists) may differ, and so may the tags: two peers' worlds, a world and its
 * copy, a world and one loaded from its file. A handle stored in a component keeps its world's
 * tag in its bits: two worlds of different tags that store handles are not equal unless the
 * handles were written without the tag (the world does not know which fields are handles). 0
 * for NULL. O(slots + live bytes). Thread safety: reads both worlds. */
DOD_API int dod_world_equal(const dod_world *a, const dod_world *b);

/* A 64-bit hash of the state dod_world_equal compares (equal worlds hash alike): for two peers
 * of a lockstep game to compare every frame, or a replay to check against its recording. It
 * does not depend on the world's tag, its blocks, the thread count or the platform: the state
 * is read as one stream of little-endian words, each component's bytes as the world file lays
 * them out (words of its alignment, 8 bytes at most), so a big-endian and a little-endian host
 * give the same number for the same state (the same caveat as the file: a component mixing
 * scalar widths is compared as words of its alignment). Not a cryptographic hash: it detects a
 * desync, it does not resist a forger. 0 for NULL. O(slots + live bytes), about the speed of a
 * copy. Thread safety: reads w. */
DOD_API uint64_t dod_world_hash(const dod_world *w);

/* A frames object (dod/frame.h) whose n_slots slots each hold a world created from desc
 * (desc->alloc for the worlds and the object), for handing snapshots of a live world to
 * reader threads:
 *   writer:  dod_frame f = {0};
 *            if (dod_frames_begin(frames, &f) == DOD_OK) {
 *                dod_world_copy(dod_frame_world(&f), live);  (or rebuild the slot's world)
 *                dod_frames_publish(frames, &f);             (or dod_frames_cancel)
 *            }
 *   reader:  dod_frame f = {0};
 *            if (dod_frames_acquire(frames, &f) == DOD_OK) {
 *                const dod_world *w = dod_frame_world_read(&f);  gets, queries, indexes
 *                dod_frames_release(frames, &f);
 *            }
 * The slots' worlds start empty (a fixed archetype's block is allocated by create, in every
 * slot) and grow to the live world's size as copies fill them; from then on a copy allocates
 * nothing. Readers only read their world (the world's reads never write to it); the protocol
 * (dod/frame.h) makes the copy happen before any read of the frame it publishes. A reader that
 * saves its frame's world to a stream calls desc->alloc (dod_world_save), alongside the
 * writer's copies: give such frames a thread-safe allocator (NULL, the default heap, is).
 * Destroy with dod_world_frames_destroy (dod_frames_destroy would leak the worlds).
 * Errors (*frames untouched, nothing leaked): DOD_E_INVALID (frames or desc NULL),
 * DOD_E_RANGE (n_slots < 2 or > DOD_FRAME_MAX_SLOTS), every error of dod_world_create,
 * DOD_E_NOMEM. */
DOD_API dod_status dod_world_frames_create(dod_frames **frames, uint32_t n_slots,
                                           const dod_world_desc *desc);

/* dod_world_frames_create, and every slot's world then holds what `live` (a world of desc's
 * declaration) holds now: an entity index of its capacity and as many blocks of every
 * archetype, its spares too, allocated here and, with DOD_WORLD_PREFAULT in desc->flags,
 * written to (a byte every 4096) so their pages are mapped. The first copy of live into a
 * slot then allocates nothing and faults no page while live has not grown: without it, the
 * first copy into each slot allocates the chunked archetypes' blocks and maps their pages,
 * 40 - 50x the next copy at 1M entities (docs/world-measurements.md, "First copy into a
 * frame"); without DOD_WORLD_PREFAULT this call only allocates, and the pages still fault then.
 * Costs n_slots times live's memory up front, as the first copies would. live is only read.
 * Errors (*frames untouched, nothing leaked): as dod_world_frames_create, and DOD_E_INVALID
 * (live NULL; live of another declaration than desc: the error hook names the first
 * difference). Thread safety: reads live (other readers may run alongside). */
DOD_API dod_status dod_world_frames_create_from(dod_frames **frames, uint32_t n_slots,
                                                const dod_world_desc *desc,
                                                const dod_world *live);

/* Destroy a frames object made by dod_world_frames_create and its slots' worlds. No thread may
 * hold or be about to acquire a frame. NULL: no-op. */
DOD_API void dod_world_frames_destroy(dod_frames *frames);

/* The world of a frame of an object made by dod_world_frames_create: the writer's, to copy or
 * build into between begin and publish. */
static inline dod_world *dod_frame_world(const dod_frame *frame)
{
    return (dod_world *)frame->data;
}

/* The same for a reader, read-only. */
static inline const dod_world *dod_frame_world_read(const dod_frame *frame)
{
    return (const dod_world *)frame->data;
}

/* Bytes dod_world_save / dod_world_save_mem write for w now; 0 when w is NULL, a rows-only
 * copy (DOD_WORLD_COPY_ROWS_ONLY) or the file would not fit size_t. */
DOD_API size_t dod_world_saved_size(const dod_world *w);

/* Write w to f at its current position: exactly dod_world_saved_size(w) bytes. Component
 * columns go to f straight from the blocks on a little-endian host; the ids (saved without
 * the world's tag) and a big-endian host's conversions go through a stage: 256 KiB from w's
 * allocator, given back before the call returns, when they are more than 16 KiB; else, or
 * when that allocation fails, 16 KiB on the stack (the same bytes, more write calls: that
 * failure is not an error). Saving from several threads at once needs a thread-safe allocator.
 * Errors: DOD_E_INVALID (w or f NULL), DOD_E_OVERFLOW (the file would not fit size_t: only on
 * 32-bit hosts; nothing written), DOD_E_STATE (w a rows-only copy: DOD_WORLD_COPY_ROWS_ONLY;
 * nothing written), DOD_E_IO (a write came up short; how much reached f is then unknown). Errors the stream reports later, at fflush or fclose, are the caller's to check. */
DOD_API dod_status dod_world_save(const dod_world *w, FILE *f);

/* The same bytes into buf, converted in place (no stage; allocates nothing). Errors, buf
 * untouched: DOD_E_INVALID (w or buf NULL), DOD_E_RANGE (size < dod_world_saved_size(w)),
 * DOD_E_OVERFLOW, DOD_E_STATE (as dod_world_save). */
DOD_API dod_status dod_world_save_mem(const dod_world *w, void *buf, size_t size);

/* Replace w's contents with exactly one saved world read from f's current position; on
 * success the stream is left just after it. The file must have been saved from a world of
 * w's declaration. Every saved entity comes back with its handle (slot and generation; the tag
 * is w's), every archetype's rows in the saved order, and the entity index as saved (the free
 * list, retired slots), so later spawns give the handles the saved world would have given.
 *
 * Nothing in the file is trusted before it is checked, and w changes only once every check
 * has passed: the header's magic, version, fields and CRC; its declaration (the fingerprint
 * and counts: another declaration is DOD_E_INVALID; then every directory record equal to w's);
 * every count capped before it is used (a seekable stream is measured first, so a header
 * claiming more bytes than remain is refused before anything is allocated; each archetype's
 * rows within what its capacity or memory cap holds; every section's size adding up to the
 * file's); each slot a live entity, a free slot or a retired one; the free list visiting every
 * free slot once and ending; each row's id naming a live slot whose archetype and location
 * are that row; zero padding; the CRC-32C of the whole file.
 *
 * A world that never held an entity (no slot handed out: a new world) is loaded straight from
 * the stream into its blocks, the blocks it lacks allocated first (no more than the checked
 * counts need). Into a world that holds or held entities, the file is read whole into a
 * staging buffer first (memory for the file, and one more copy of its bytes), then loaded as
 * by dod_world_load_mem. A stream that cannot seek (a pipe) is staged in a buffer that grows
 * only as bytes actually arrive.
 * Blocks w holds past what the file's rows need stay w's (spares), as for dod_world_copy.
 * Invalidates every handle w gave before (one may now name a loaded entity), every pointer
 * into w and its iterators; queries and schedules stay valid (the tag is kept). Handles
 * stored in components keep the saving world's tag: dod_world_load_with makes them w's.
 * Errors, each leaving w exactly as it was: DOD_E_INVALID (w or f NULL; a file of another
 * declaration), DOD_E_CORRUPT (any check above fails, including a stream that ends early),
 * DOD_E_OVERFLOW (a file this host's size_t cannot hold: only on 32-bit hosts), DOD_E_IO (a
 * read error the stream reports), DOD_E_NOMEM. After an error the stream position is
 * unspecified. */
DOD_API dod_status dod_world_load(dod_world *w, FILE *f);

/* Replace w's contents with the world saved in buf, which must hold exactly one saved world
 * (size == its saved size). The image is validated in place first (every check of
 * dod_world_load), then copied into w: a load into a world that holds the blocks and slots it
 * needs allocates nothing.
 * Errors (w unchanged): DOD_E_INVALID (w or buf NULL; another declaration), DOD_E_CORRUPT
 * (also a header claiming a size other than `size`), DOD_E_NOMEM. */
DOD_API dod_status dod_world_load_mem(dod_world *w, const void *buf, size_t size);

/* A field of a component that holds a dod_entity: its 8 bytes at `offset` in the element. */
typedef struct dod_world_handle_field {
    uint32_t component;
    uint32_t offset; /* offset + 8 <= the component's size */
} dod_world_handle_field;

/* How dod_world_load_with / dod_world_load_mem_with load: zero-initialise it and set what you
 * need; NULL or all zero loads as dod_world_load. */
typedef struct dod_world_load_desc {
    const dod_world_handle_field *handles; /* the fields that hold handles, n_handles of them */
    uint32_t n_handles;
    uint32_t flags;                        /* 0 (none defined yet) */
} dod_world_load_desc;

/* dod_world_load (dod_world_load_mem), and then every handle the listed fields hold in the
 * loaded rows (every archetype with the field's component) is made a handle of w: its tag bits
 * (48..63) are replaced with w's, the null handle stays null. A handle stored in a component
 * keeps the tag of the world that wrote it, and the file does not record that world's tag, so
 * after a load into another world (another run of the game, another world's tag) it no longer
 * resolves; with its field listed here it resolves again to the loaded entity it named (or to
 * nothing, when that entity was despawned before the save: the generation still decides).
 * The world keeps its own tag (queries and schedules made for it stay valid), and no two live
 * worlds are made to share a tag. The other way, a load that adopts the saving world's tag, is
 * not offered: the file does not hold it, and a tag shared by two live worlds makes each accept
 * the other's handles: a handle of one resolves in the other to whatever entity holds that
 * slot and generation there (wrong components, no error), and a query or schedule made for one
 * runs over the other. (A copy shares its source's tag on purpose: it is the same world seen
 * later.) The fields are rewritten whatever they hold: a listed field must hold a handle of the
 * saved world, or null. Across byte orders a handle is loaded right when its component's
 * alignment is 8 (it is saved as 64-bit words); else on hosts of the same byte order only.
 * Cost: dod_world_load's, and one read and write of 8 bytes a listed field a loaded row.
 * Errors: those of dod_world_load (dod_world_load_mem), each leaving w as it was, and, checked
 * before anything is read: DOD_E_INVALID (desc->flags not 0; handles NULL with n_handles > 0),
 * DOD_E_RANGE (a field's component >= n_components, or offset + 8 > its size). desc NULL: as
 * dod_world_load. Thread safety: as dod_world_load. */
DOD_API dod_status dod_world_load_with(dod_world *w, FILE *f, const dod_world_load_desc *desc);
DOD_API dod_status dod_world_load_mem_with(dod_world *w, const void *buf, size_t size,
                                           const dod_world_load_desc *desc);

#ifdef __cplusplus
}
#endif

#endif /* DOD_WORLD_IO_H */
