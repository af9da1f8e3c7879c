/* Frame snapshots: one writer, wait-free readers, a fixed number of slots.
 *
 * The protocol (a split reference count):
 *   latest     one 64-bit atomic word: the latest published slot in the top 8 bits, and in
 *              the low 56 bits the number of acquires made since that slot was published.
 *   refs[s]    per slot: (acquires transferred to s) - (releases of s), modulo 2^64.
 *
 *   acquire:   w = fetch_add(latest, 1, acquire); hold slot w >> 56.
 *   release:   fetch_sub(refs[s], 1, release).
 *   publish:   old = exchange(latest, s << 56, release); refs[old >> 56] += old & COUNT (relaxed).
 *   begin:     a slot s != latest slot, not being written, with load(refs[s], acquire) == 0.
 *
 * Why a reader never sees a slot change while it holds it:
 *   1. A reader enters a slot only through the fetch_add on `latest`, a single atomic step
 *      that both names the slot and counts the reader against it; so it can only enter the
 *      slot that is the latest at that instant, and the writer never writes the latest slot.
 *   2. The RMWs on `latest` are totally ordered. A reader's increment lands either before the
 *      publish exchange that moves `latest` away from s (then the exchange returns it in
 *      `old` and the writer adds it to refs[s]) or after it (then it counts against the new
 *      slot). So once the writer has transferred, refs[s] equals the readers still holding s
 *      (releases that came first made refs[s] transiently "negative"; the modular sum is
 *      still exact), and no new reader can enter s until it is published again.
 *   3. The writer transfers before it can ever begin (same thread, sequenced before), so when
 *      begin reads refs[s] == 0, every reader that entered s has released it. That load is an
 *      acquire reading a value in the release sequence of each reader's release fetch_sub
 *      (the transfer and other fetch_subs are RMWs, which continue it), so all of the
 *      readers' reads of s happen before the writer's next writes into s.
 *   4. The acquire fetch_add reads the value written by the publish exchange of s (or an
 *      increment after it, which is an RMW in that exchange's release sequence), so it
 *      synchronises with the publish: the reader sees every write made into s before it.
 * Wait-freedom: acquire is one load plus one fetch_add, release one fetch_sub; neither loops.
 * The writer's begin scans at most DOD_FRAME_MAX_SLOTS counters and never waits either.
 * Bound: 2^56 acquires of one published frame before the count would carry into the slot
 * bits (at a billion acquires per second, over two years without a publish). */
#include <dod/frame.h>
#include "atomic.h"
#include "internal.h"

#define SLOT_SHIFT 56
#define COUNT_MASK ((1ull << SLOT_SHIFT) - 1)
#define NO_SLOT 0xFFu

enum { ROLE_EMPTY = 0, ROLE_READER = 1, ROLE_WRITER = 2 };

/* One counter per cache line, so readers of different slots do not share a line. */
typedef struct slot_refs {
    _Alignas(DOD_ALIGN) dod__atomic_u64 refs;
} slot_refs;

struct dod_frames {
    _Alignas(DOD_ALIGN) dod__atomic_u64 latest; /* slot << 56 | acquires since its publish */
    slot_refs counts[DOD_FRAME_MAX_SLOTS];
    _Alignas(DOD_ALIGN) dod__atomic_u64 published; /* seq of the latest frame, 0 before any */
    /* below: the writer's own state, never touched by readers except payload[] and seq[],
     * which the writer only writes into slots no reader holds */
    void *payload[DOD_FRAME_MAX_SLOTS];
    uint64_t seq[DOD_FRAME_MAX_SLOTS];
    uint32_t n_slots;
    uint32_t writing;     /* the begun slot, or NO_SLOT */
    uint32_t latest_slot; /* the writer's copy of latest >> 56 */
    uint32_t n_csr;       /* dod_frames_create_csr: dod_csr per slot; 0 otherwise */
    dod_csr *csr_block;   /* n_slots * n_csr dod_csr, or NULL */
    dod_allocator alloc;
};

static void frame_reset(dod_frame *f)
{
    f->data = NULL;
    f->seq = 0;
    f->slot = 0;
    f->role = ROLE_EMPTY;
    f->owner = NULL;
}

static dod_status frames_new(uint32_t n_slots, const dod_allocator *alloc, dod_frames **out)
{
    DOD__REFUSE_IF(n_slots < 2, DOD_E_RANGE);
    DOD__REFUSE_IF(n_slots > DOD_FRAME_MAX_SLOTS, DOD_E_RANGE);
    dod_allocator a = dod__allocator_or_heap(alloc);
    dod_frames *f = (dod_frames *)dod__alloc(&a, sizeof *f);
    DOD__REFUSE_IF(!f, DOD_E_NOMEM);
    memset(f, 0, sizeof *f);
    dod__atomic_u64_init(&f->latest, (uint64_t)NO_SLOT << SLOT_SHIFT);
    for (uint32_t s = 0; s < DOD_FRAME_MAX_SLOTS; ++s)
        dod__atomic_u64_init(&f->counts[s].refs, 0);
    dod__atomic_u64_init(&f->published, 0);
    f->n_slots = n_slots;
    f->writing = NO_SLOT;
    f->latest_slot = NO_SLOT;
    f->alloc = a;
    *out = f;
    return DOD_OK;
}

dod_status dod_frames_create(dod_frames **frames, uint32_t n_slots, void *const *payloads,
                             const dod_allocator *alloc)
{
    DOD__REFUSE_IF(!frames, DOD_E_INVALID);
    DOD__REFUSE_IF(!payloads, DOD_E_INVALID);
    dod_frames *f;
    dod_status st = frames_new(n_slots, alloc, &f);
    if (st != DOD_OK)
        return st;
    for (uint32_t s = 0; s < n_slots; ++s)
        f->payload[s] = payloads[s];
    *frames = f;
    return DOD_OK;
}

dod_status dod_frames_create_csr(dod_frames **frames, uint32_t n_slots, uint32_t n_csr,
                                 const dod_allocator *alloc)
{
    DOD__REFUSE_IF(!frames, DOD_E_INVALID);
    DOD__REFUSE_IF(n_csr == 0, DOD_E_INVALID);
    dod_frames *f;
    dod_status st = frames_new(n_slots, alloc, &f);
    if (st != DOD_OK)
        return st;
    size_t count, bytes;
    if (!dod__mul(n_slots, n_csr, &count) || !dod__mul(count, sizeof(dod_csr), &bytes)) {
        dod__free(&f->alloc, f, sizeof *f);
        return DOD__FAIL(DOD_E_OVERFLOW, "n_slots * n_csr * sizeof(dod_csr) overflows");
    }
    dod_csr *block = (dod_csr *)dod__alloc(&f->alloc, bytes);
    if (!block) {
        dod__free(&f->alloc, f, sizeof *f);
        return DOD__FAIL(DOD_E_NOMEM, "allocating the payload indexes");
    }
    for (size_t i = 0; i < count; ++i)
        dod_csr_init(&block[i], alloc);
    for (uint32_t s = 0; s < n_slots; ++s)
        f->payload[s] = block + (size_t)s * n_csr;
    f->csr_block = block;
    f->n_csr = n_csr;
    *frames = f;
    return DOD_OK;
}

void dod_frames_destroy(dod_frames *frames)
{
    if (!frames)
        return;
    if (frames->csr_block) {
        size_t count = (size_t)frames->n_slots * frames->n_csr;
        for (size_t i = 0; i < count; ++i)
            dod_csr_free(&frames->csr_block[i]);
        dod__free(&frames->alloc, frames->csr_block, count * sizeof(dod_csr));
    }
    dod_allocator a = frames->alloc;
    dod__free(&a, frames, sizeof *frames);
}

dod_status dod_frames_begin(dod_frames *frames, dod_frame *out)
{
    DOD__REFUSE_IF(!frames, DOD_E_INVALID);
    DOD__REFUSE_IF(!out, DOD_E_INVALID);
    DOD__REFUSE_IF(frames->writing != NO_SLOT, DOD_E_STATE);
    DOD__REFUSE_IF(out->role != ROLE_EMPTY, DOD_E_STATE);
    /* Scan from the slot after the latest, so slots are reused round-robin. */
    uint32_t n = frames->n_slots;
    uint32_t start = frames->latest_slot == NO_SLOT ? 0 : (frames->latest_slot + 1) % n;
    for (uint32_t k = 0; k < n; ++k) {
        uint32_t s = (start + k) % n;
        if (s == frames->latest_slot)
            continue;
        if (dod__atomic_u64_load_acquire(&frames->counts[s].refs) != 0)
            continue;
        frames->writing = s;
        frames->seq[s] = dod__atomic_u64_load_relaxed(&frames->published) + 1;
        out->data = frames->payload[s];
        out->seq = frames->seq[s];
        out->slot = s;
        out->role = ROLE_WRITER;
        out->owner = frames;
        return DOD_OK;
    }
    return DOD_E_BUSY; /* a normal answer (the writer skips a frame): not reported */
}

static int is_begun(const dod_frames *frames, const dod_frame *frame)
{
    return frame->role == ROLE_WRITER && frame->owner == frames && frames->writing != NO_SLOT &&
           frame->slot == frames->writing;
}

dod_status dod_frames_publish(dod_frames *frames, dod_frame *frame)
{
    DOD__REFUSE_IF(!frames, DOD_E_INVALID);
    DOD__REFUSE_IF(!frame, DOD_E_INVALID);
    DOD__REFUSE_IF(!is_begun(frames, frame), DOD_E_STATE);
    uint32_t s = frames->writing;
    uint64_t old = dod__atomic_u64_exchange_release(&frames->latest, (uint64_t)s << SLOT_SHIFT);
    uint32_t old_slot = (uint32_t)(old >> SLOT_SHIFT);
    if (old_slot != NO_SLOT)
        dod__atomic_u64_fetch_add_relaxed(&frames->counts[old_slot].refs, old & COUNT_MASK);
    dod__atomic_u64_store_release(&frames->published, frames->seq[s]);
    frames->latest_slot = s;
    frames->writing = NO_SLOT;
    frame_reset(frame);
    return DOD_OK;
}

dod_status dod_frames_cancel(dod_frames *frames, dod_frame *frame)
{
    DOD__REFUSE_IF(!frames, DOD_E_INVALID);
    DOD__REFUSE_IF(!frame, DOD_E_INVALID);
    DOD__REFUSE_IF(!is_begun(frames, frame), DOD_E_STATE);
    frames->writing = NO_SLOT;
    frame_reset(frame);
    return DOD_OK;
}

dod_status dod_frames_acquire(dod_frames *frames, dod_frame *out)
{
    DOD__REFUSE_IF(!frames, DOD_E_INVALID);
    DOD__REFUSE_IF(!out, DOD_E_INVALID);
    DOD__REFUSE_IF(out->role != ROLE_EMPTY, DOD_E_STATE);
    /* Once a slot is published the top bits never return to NO_SLOT, so a load that sees a
     * slot guarantees the fetch_add below sees one too; before the first publish we must not
     * count (no publish would transfer the count). */
    uint64_t w = dod__atomic_u64_load_relaxed(&frames->latest);
    if ((w >> SLOT_SHIFT) == NO_SLOT)
        return DOD_E_STATE; /* nothing published yet: a normal answer, not reported */
    w = dod__atomic_u64_fetch_add_acquire(&frames->latest, 1);
    uint32_t s = (uint32_t)(w >> SLOT_SHIFT);
    DOD_ASSERT(s < frames->n_slots);
    out->data = frames->payload[s];
    out->seq = frames->seq[s];
    out->slot = s;
    out->role = ROLE_READER;
    out->owner = frames;
    return DOD_OK;
}

dod_status dod_frames_release(dod_frames *frames, dod_frame *frame)
{
    DOD__REFUSE_IF(!frames, DOD_E_INVALID);
    DOD__REFUSE_IF(!frame, DOD_E_INVALID);
    DOD__REFUSE_IF(frame->role != ROLE_READER, DOD_E_STATE);
    DOD__REFUSE_IF(frame->owner != frames, DOD_E_STATE);
    DOD__REFUSE_IF(frame->slot >= frames->n_slots, DOD_E_STATE);
    dod__atomic_u64_fetch_sub_release(&frames->counts[frame->slot].refs, 1);
    frame_reset(frame);
    return DOD_OK;
}

uint32_t dod_frames_slot_count(const dod_frames *frames)
{
    return frames ? frames->n_slots : 0;
}

void *dod_frames_payload(const dod_frames *frames, uint32_t slot)
{
    return frames && slot < frames->n_slots ? frames->payload[slot] : NULL;
}

uint64_t dod_frames_latest_seq(dod_frames *frames)
{
    return frames ? dod__atomic_u64_load_acquire(&frames->published) : 0;
}
