/* dod/frame.h: frame snapshots for worker threads.
 *
 * One writer publishes frame N (indexes, tables, any blocks) while readers still hold frame
 * N - 1 or older. A dod_frames object owns a fixed number of slots, n_slots in
 * [2, DOD_FRAME_MAX_SLOTS], chosen at create time; that bound is all the memory it ever uses.
 * Each slot carries a payload: a pointer the user registers per slot (their own struct holding
 * dod_csr, dod_table or any blocks), or, with dod_frames_create_csr, an array of dod_csr the
 * object owns.
 *
 *   writer:  dod_frames_begin   -> a slot no reader holds and that is not the latest
 *            fill it             (build straight into the slot's objects, or dod_csr_copy /
 *                                 dod_table_copy from the live data)
 *            dod_frames_publish  -> one atomic release exchange makes it the latest
 *   readers: dod_frames_acquire  -> the latest published frame, wait-free (one atomic load,
 *                                   then one atomic fetch_add; no locks, no retry loop)
 *            read it, then dod_frames_release (one atomic fetch_sub)
 *
 * The writer never hands out a slot a reader holds. With n_slots slots, one is the latest,
 * one may be being written, and n_slots - 2 more can be held by readers that lag behind; when
 * every slot other than the latest is held, dod_frames_begin returns DOD_E_BUSY and the
 * writer keeps its live data until a reader lets go.
 *
 * Memory ordering (C11 atomics inside frame.c; this header has none, so it compiles as C++):
 *   - publish is a release exchange on the "latest" word: it orders every write the writer
 *     made into the slot before it;
 *   - acquire is an acquire fetch_add on the same word: it synchronises with the publish it
 *     reads from, so the reader sees the slot complete, and it counts the reader against that
 *     slot in the same step (no window in which the slot could be reused);
 *   - release is a release fetch_sub on the slot's count; the writer reads counts with
 *     acquire loads in dod_frames_begin, so every read a reader made happens before the
 *     writer writes into that slot again.
 * docs/frame.md has the proof.
 *
 * Thread safety: begin, publish and cancel are the writer's: one thread at a time (any
 * thread, but not concurrently). acquire and release may be called by any number of threads
 * at once, concurrently with the writer. create and destroy need exclusive access. A handle
 * (dod_frame) belongs to one thread. */
#ifndef DOD_FRAME_H
#define DOD_FRAME_H

#include <dod/base.h>
#include <dod/csr.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most slots a dod_frames object can have. */
#define DOD_FRAME_MAX_SLOTS 16u

/* A frames object: the slots and their counts, opaque (dod_frames_create or
 * dod_frames_create_csr, dod_frames_destroy; a frames object of worlds:
 * dod_world_frames_create, dod_world_frames_destroy in dod/world_io.h). */
typedef struct dod_frames dod_frames; /* opaque; holds the atomics */

/* A frame held by the writer (between begin and publish/cancel) or by a reader (between
 * acquire and release). Zero-initialise a handle before its first use (`dod_frame f = {0};`
 * in C, `dod_frame f{};` in C++); calls that end a hold reset it to that state. Do not copy
 * a holding handle and release both copies: the count would be released twice, which the
 * object cannot tell from two readers. */
typedef struct dod_frame {
    void *data;   /* the slot's payload; readers must only read through it */
    uint64_t seq; /* the frame number: 1 for the first, +1 per publish (cancel reuses it) */
    uint32_t slot;
    /* private */
    uint32_t role; /* 0 empty, 1 held by a reader, 2 held by the writer */
    const dod_frames *owner;
} dod_frame;

/* Make a frames object with n_slots slots whose payloads are payloads[0 .. n_slots - 1]
 * (pointers the caller keeps and owns; NULL entries are allowed). Nothing is published yet.
 * Errors (*frames untouched, nothing leaked): DOD_E_INVALID (frames NULL, payloads NULL),
 * DOD_E_RANGE (n_slots < 2 or > DOD_FRAME_MAX_SLOTS), DOD_E_NOMEM. */
DOD_API dod_status dod_frames_create(dod_frames **frames, uint32_t n_slots,
                                     void *const *payloads, const dod_allocator *alloc);

/* The typed convenience: each slot's payload is an array of n_csr dod_csr (initialised with
 * `alloc`, owned and freed by the object); reach them with dod_frame_csr. n_csr >= 1.
 * Errors as dod_frames_create, and DOD_E_INVALID for n_csr == 0. */
DOD_API dod_status dod_frames_create_csr(dod_frames **frames, uint32_t n_slots, uint32_t n_csr,
                                         const dod_allocator *alloc);

/* Destroy the object (and the dod_csr payloads of dod_frames_create_csr). No thread may hold
 * or be about to acquire a frame. NULL is a no-op. */
DOD_API void dod_frames_destroy(dod_frames *frames);

/* The writer: take the slot for the next frame into the empty handle `out`. The slot is never
 * the latest published one and no reader holds it; its payload still has whatever an older
 * frame left there (so a rebuild reuses its memory). out->seq is the number it will publish as.
 * Errors (nothing changes): DOD_E_INVALID (NULL), DOD_E_STATE (a frame is already begun, or
 * `out` is not an empty handle), DOD_E_BUSY (every other slot is held by readers). */
DOD_API dod_status dod_frames_begin(dod_frames *frames, dod_frame *out);

/* The writer: make the begun frame the latest, with one atomic release; `frame` becomes
 * empty. The previous latest frame stays intact for the readers that hold it.
 * Errors (nothing changes): DOD_E_INVALID (NULL), DOD_E_STATE (`frame` is not the frame
 * begun on this object). */
DOD_API dod_status dod_frames_publish(dod_frames *frames, dod_frame *frame);

/* The writer: give up the begun frame without publishing it (its slot becomes free again and
 * its seq is not used); `frame` becomes empty. Errors as dod_frames_publish. */
DOD_API dod_status dod_frames_cancel(dod_frames *frames, dod_frame *frame);

/* A reader: hold the latest published frame in the empty handle `out`. Wait-free: one atomic
 * load and one atomic fetch_add, whatever the writer does meanwhile. The frame stays exactly
 * as published until dod_frames_release. A thread may hold several frames (several handles).
 * Errors (nothing changes): DOD_E_INVALID (NULL), DOD_E_STATE (nothing published yet, or
 * `out` is not an empty handle). */
DOD_API dod_status dod_frames_acquire(dod_frames *frames, dod_frame *out);

/* A reader: let go of a frame acquired from this object; `frame` becomes empty. Wait-free.
 * Errors (nothing changes): DOD_E_INVALID (NULL), DOD_E_STATE (`frame` is not a frame
 * acquired from this object and still held: released twice, never acquired, the writer's). */
DOD_API dod_status dod_frames_release(dod_frames *frames, dod_frame *frame);

/* How many slots the object has; 0 for NULL. */
DOD_API uint32_t dod_frames_slot_count(const dod_frames *frames);

/* The payload slot `slot` was created with (what dod_frames_create was given, or the slot's
 * dod_csr array); NULL for NULL frames or slot >= the slot count. Payloads never change after
 * create, so any thread may call it; for an owner tearing down what it registered (the
 * world's dod_world_frames_destroy). */
DOD_API void *dod_frames_payload(const dod_frames *frames, uint32_t slot);

/* The seq of the latest frame whose dod_frames_publish has completed its update of this
 * counter, 0 before the first publish. Any thread, wait-free (one atomic load).
 *
 * What a reader may conclude from a value v it reads:
 *   - every frame up to seq v has been published, so an acquire made after this call returns
 *     a frame with seq >= v (the values a thread reads never decrease);
 *   - it may be one behind a frame an acquire already returned: publish makes the frame
 *     acquirable first and updates this counter just after, so a reader that holds frame v + 1
 *     can still read v here. Do not compare it with a held frame's seq to ask "is mine the
 *     latest?"; a held frame's own seq (dod_frame.seq) is exact, and a fresh acquire is the
 *     way to get the newest frame.
 * Typical use: a cheap "has anything new been published since I last looked" poll before
 * paying for an acquire. */
DOD_API uint64_t dod_frames_latest_seq(dod_frames *frames);

/* The i-th dod_csr of a frame of an object made by dod_frames_create_csr (i < n_csr,
 * unchecked, like an array subscript). */
static inline dod_csr *dod_frame_csr(const dod_frame *frame, uint32_t i)
{
    return (dod_csr *)frame->data + i;
}

#ifdef __cplusplus
}
#endif

#endif /* DOD_FRAME_H */
