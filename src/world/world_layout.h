/* The world's private layout, shared by the sources in src/world; not installed (docs/world.md
 * draws it).
 *
 * Entity index: one uint64_t slot per handle index,
 *   bits  0..15  generation (odd: alive; even: free or retired)
 *   bits 16..23  archetype
 *   bits 24..63  location: (block << arch.shift) | row in block   (alive)
 *                the next free slot, DOD__WORLD_NO_SLOT at the end  (free)
 * so a lookup is one load and a shift and mask, never a division. A fixed archetype has one
 * block and shift 32 (the location is the row). The parts a lookup reads (the world's head,
 * the archetypes' places) are declared in dod/world.h for its inline dod_world_get.
 *
 * Blocks: block b of an archetype is block 0 scaled by 2^s, s = min(b, place->max_scale): s
 * times block 0's rows and bytes, each column at block 0's offset << s. Other code reaches a
 * block's size and columns through dod__world_block_cap, dod__world_block_bytes and
 * dod__world_column below, never through the fields. */
#ifndef DOD_WORLD_LAYOUT_H
#define DOD_WORLD_LAYOUT_H

#include <dod/world.h>
#include "atomic.h"
#include "internal.h"

/* DOD__WORLD_GEN_BITS, DOD__WORLD_GEN_MASK and DOD__WORLD_LOC_SHIFT are in dod/world.h. */
#define DOD__WORLD_TAG_MASK 0xFFFFu
#define DOD__WORLD_LOC_BITS 40
#define DOD__WORLD_MAX_SLOTS 0xFFFFFFFFu   /* handle indexes 0 .. 2^32 - 2 */
#define DOD__WORLD_NO_SLOT UINT32_MAX      /* the free list's end */
#define DOD__WORLD_FIXED_SHIFT 32

typedef struct dod__world_col { /* a column of an archetype */
    size_t offset;               /* from block 0's start (block b's: << its scale) */
    size_t size;                 /* of an element */
    size_t comp;                 /* its component: the index into field tables */
    size_t end_offset;           /* from the end block's start: push and remove, which use
                                    the end block for every row they add or move, read this
                                    rather than scale `offset` (set with the end block) */
} dod__world_col;

/* What an archetype desc declares about its blocks, defaults filled in; all 0 for a fixed
 * archetype, which ignores them (dod__world_blocks_declared). */
typedef struct dod__world_blocks_decl {
    uint32_t block_bytes;       /* the largest block */
    uint32_t first_block_bytes; /* block 0 */
    uint64_t memory_cap;        /* bytes; UINT64_MAX: no cap */
} dod__world_blocks_decl;

typedef struct dod__world_arch {
    dod__world_place *place; /* its entry of head.places (dod/world.h reads them): blocks,
                                fields, shift, max_scale. The block list has n_blocks blocks:
                                n_open opened, then maybe one spare; it is &first_block until
                                it outgrows one entry */
    uint32_t n_rows;         /* live rows */
    uint32_t rows0;          /* rows of block 0 (a fixed archetype: its capacity) */
    uint32_t n_open;         /* blocks 0 .. n_open - 1 hold the rows: all full but the last,
                                the end block, which holds `tail`. When the archetype empties,
                                block 0 stays open with tail 0 (dod__world_used_blocks is 0),
                                so a row coming and going there does not reopen it */
    uint32_t tail;           /* rows in the end block; end_cap (0) when no block is open, so
                                "tail is full" means "open the next block" */
    uint32_t end_cap;        /* rows the end block holds (0 when none is open) */
    uint32_t end_scale;      /* its scale */
    unsigned char *end_block; /* the end block (n_open > 0), and the location of its row 0: */
    uint64_t end_loc;         /* push and remove read these, not the block list */
    uint32_t n_cols;         /* components */
    uint32_t n_blocks;       /* blocks allocated: n_open, or n_open + 1 with a spare */
    uint64_t rows_held;      /* the rows blocks 0 .. n_blocks - 1 hold: room without allocating */
    uint32_t blocks_cap;     /* entries of the block list */
    uint32_t max_blocks;     /* the memory cap (and the location bits) in blocks */
    int fixed;
    dod__world_blocks_decl decl; /* as declared (the world file's directory) */
    size_t bytes0;           /* bytes of block 0 */
    unsigned char *first_block;
    uint64_t comp_bits[DOD_WORLD_MAX_COMPONENTS / 64];     /* the components it has */
    dod__world_col cols[DOD_WORLD_MAX_ARCHETYPE_COMPONENTS]; /* in the desc's order */
    /* Change versions (the world's version counter when it last changed; see dod_world's):
     * its rows (a spawn, despawn or move in or out: every column and the ids), and each column
     * (a system's declared write, dod_world_touch). A column's version is the later of the two. */
    uint64_t rows_version;
    uint64_t col_version[DOD_WORLD_MAX_ARCHETYPE_COMPONENTS];
} dod__world_arch;

struct dod_world {
    dod__world_head head; /* first (dod/world.h reads it): slots, places, n_slots, tag,
                             n_components */
    uint32_t slot_cap;
    uint32_t free_head;   /* most recently freed slot, DOD__WORLD_NO_SLOT when none */
    uint32_t n_free;      /* slots on the free list */
    uint32_t n_archetypes;
    size_t bytes;         /* of this allocation (world, archetypes, places, field tables) */
    dod_allocator alloc;
    dod__world_arch *arch; /* n_archetypes, in the same allocation as the world */
    uint8_t *toggle;       /* [archetype * n_components + component]: where add or remove of
                              the component takes an entity of the archetype (the archetype
                              itself: no single declared one); same allocation */
    uint64_t declaration; /* dod__world_declaration_of(the desc) */
    uint32_t flags;       /* the desc's: DOD_WORLD_PREFAULT (dod_world_reserve touches what it
                             allocates) */
    int keep_blocks;      /* set while a command buffer applies: a row removal frees no block
                             (world_cmds_apply.c frees them once at the end) */
    int rows_only;        /* a copy without its entity index (DOD_WORLD_COPY_ROWS_ONLY): no
                             slot, so no handle resolves; what needs the index is refused */
    /* Change versions (world_copy.c reads them): version counts the changes the world has
     * seen, and each change stamps what it changed with the counter after it; slots_version is
     * the entity index's. A copy into this world remembers what it copied: the source, by
     * address and serial, and the source's version then; version_after_copy is this world's
     * version just after, so a change to this world since shows. */
    uint64_t version, slots_version;
    /* Misuse checks of a debug build: its iterators live now (dod/world_core.h), and 1 while a
     * schedule runs systems over it. */
    dod__atomic_u64 live_iters;
    int in_systems;
    uint32_t serial;      /* the worlds the process created before this one (the tag: its low
                             16 bits) */
    const dod_world *copied_from;
    uint32_t copied_serial;
    uint64_t copied_version, version_after_copy;
    size_t comp_size[DOD_WORLD_MAX_COMPONENTS]; /* every component's size (command buffers
                                                   check a set's size against it) */
    size_t comp_align[DOD_WORLD_MAX_COMPONENTS];  /* and alignment */
    uint64_t comp_name[DOD_WORLD_MAX_COMPONENTS]; /* dod__world_name_hash of its name */
    size_t row_bytes[DOD_WORLD_MAX_ARCHETYPES]; /* each archetype's components' sizes added
                                                   up: a command buffer's spawn payload */
};

/* A world copied without its entity index refuses what needs one (DOD_WORLD_COPY_ROWS_ONLY), in
 * every build: a release program meets it too, and learns why only from the error hook. A spawn
 * would hand out slot 0 while the rows' ids name slots the world does not hold. */
#define DOD__WORLD_REFUSE_ROWS_ONLY(w, call)                                                  \
    do {                                                                                     \
        if ((w)->rows_only)                                                                  \
            return DOD__REPORT_IN(call, DOD_E_STATE,                                         \
                                  "the world is a copy without its entity index "            \
                                  "(DOD_WORLD_COPY_ROWS_ONLY): copy it whole first");       \
    } while (0)

/* A debug build refuses a structural change of a world that is being iterated or that a
 * schedule is running systems over (dod/world_core.h, "Live iterators"): `call` names the
 * refused call in the error hook's report. A release build checks nothing. */
#if DOD_DEBUG
#    define DOD__WORLD_REFUSE_BUSY(w, call)                                                   \
        do {                                                                                 \
            if (dod__atomic_u64_load_relaxed(&(w)->live_iters) != 0)                          \
                return DOD__FAIL_IN(call, DOD_E_BUSY,                                        \
                                    "an iterator of the world is live: record the change "   \
                                    "in a command buffer and apply it after the loop (or "   \
                                    "end the iteration: dod_world_iter_end)");              \
            if ((w)->in_systems)                                                             \
                return DOD__FAIL_IN(call, DOD_E_BUSY,                                        \
                                    "a schedule is running systems over the world: record "  \
                                    "the change in the task's buffer (t->cmds)");           \
        } while (0)
#else
#    define DOD__WORLD_REFUSE_BUSY(w, call) ((void)0)
#endif

/* Change versions: a's rows changed (a spawn, despawn or move in or out: the ids and every
 * column, and the entity index); one column of a was written. */
static inline void dod__world_rows_changed(dod_world *w, dod__world_arch *a)
{
    a->rows_version = w->slots_version = ++w->version;
}

static inline void dod__world_column_changed(dod_world *w, dod__world_arch *a, uint32_t col)
{
    a->col_version[col] = ++w->version;
}

/* Everything changed (a load, a copy into w). */
static inline void dod__world_all_changed(dod_world *w)
{
    w->slots_version = ++w->version;
    for (uint32_t i = 0; i < w->n_archetypes; ++i)
        w->arch[i].rows_version = w->version;
}

/* The column of component `component` in a, or UINT32_MAX when a lacks it. */
static inline uint32_t dod__world_col_of(const dod__world_arch *a, uint32_t component)
{
    for (uint32_t k = 0; k < a->n_cols; ++k)
        if (a->cols[k].comp == component)
            return k;
    return UINT32_MAX;
}

static inline uint32_t dod__world_slot_gen(uint64_t slot)
{
    return (uint32_t)(slot & DOD__WORLD_GEN_MASK);
}

static inline uint32_t dod__world_slot_arch(uint64_t slot)
{
    return (uint32_t)(slot >> DOD__WORLD_GEN_BITS) & 0xFFu;
}

static inline uint64_t dod__world_slot_loc(uint64_t slot)
{
    return slot >> DOD__WORLD_LOC_SHIFT;
}

static inline uint64_t dod__world_slot_make(uint32_t gen, uint32_t arch, uint64_t loc)
{
    return (uint64_t)gen | (uint64_t)arch << DOD__WORLD_GEN_BITS | loc << DOD__WORLD_LOC_SHIFT;
}

/* The slot of e when e is alive in w, else NULL. No writes: readers may call it. */
static inline const uint64_t *dod__world_resolve(const dod_world *w, dod_entity e)
{
    return dod__world_find(&w->head, e);
}

/* The handle of a live slot. */
static inline dod_entity dod__world_handle(const dod_world *w, uint32_t index, uint32_t gen)
{
    dod_entity e;
    e.bits = (uint64_t)(w->head.tag_hi | gen) << 32 | index;
    return e;
}

/* Blocks of a holding rows: 0 .. this - 1. */
static inline uint32_t dod__world_used_blocks(const dod__world_arch *a)
{
    return a->n_rows ? a->n_open : 0;
}

/* The scale of block b of a: it is block 0 scaled by 2^scale. */
static inline uint32_t dod__world_block_scale(const dod__world_arch *a, uint32_t b)
{
    return dod__world_scale(a->place, b);
}

/* Rows block b of a can hold. */
static inline uint32_t dod__world_block_cap(const dod__world_arch *a, uint32_t b)
{
    return a->rows0 << dod__world_block_scale(a, b);
}

/* Bytes of block b of a: its allocation's size. */
static inline size_t dod__world_block_bytes(const dod__world_arch *a, uint32_t b)
{
    return a->bytes0 << dod__world_block_scale(a, b);
}

/* Rows in block b of a (b < dod__world_used_blocks(a)). */
static inline uint32_t dod__world_block_rows(const dod__world_arch *a, uint32_t b)
{
    return b + 1 < a->n_open ? dod__world_block_cap(a, b) : a->tail;
}

/* Column `col` (desc order) of block b of a (b < a->n_blocks). */
static inline unsigned char *dod__world_column(const dod__world_arch *a, uint32_t b, uint32_t col)
{
    return a->place->blocks[b] + (a->cols[col].offset << dod__world_block_scale(a, b));
}

/* Block n_open - 1 is a's end block (n_open > 0): the fields push and remove read. */
static inline void dod__world_set_end(dod__world_arch *a)
{
    uint32_t b = a->n_open - 1;
    a->end_block = a->place->blocks[b];
    a->end_loc = (uint64_t)b << a->place->shift;
    a->end_scale = dod__world_block_scale(a, b);
    a->end_cap = dod__world_block_cap(a, b);
    for (uint32_t k = 0; k < a->n_cols; ++k)
        a->cols[k].end_offset = a->cols[k].offset << a->end_scale;
}

/* The address of row `row` of column `col` in the end block of a. */
static inline unsigned char *dod__world_end_cell(const dod__world_arch *a, uint32_t col,
                                                 uint32_t row)
{
    return a->end_block + a->cols[col].end_offset + (size_t)row * a->cols[col].size;
}

/* The entity-id column of a block (offset 0). */
static inline dod_entity *dod__world_ids(unsigned char *block)
{
    return (dod_entity *)(void *)block;
}

/* The declaration (world_declaration.c). */

/* A 64-bit fingerprint of what a desc declares, once create has checked it: every component's
 * size, align and name (dod__world_name_hash), and every archetype's component list, capacity,
 * and (chunked) block sizes and memory cap, with 0 fields made their defaults; the same on
 * every platform. Two worlds with equal fingerprints and equal counts of components and
 * archetypes lay out and behave alike: a command buffer, a snapshot or a file of one fits the
 * other. */
uint64_t dod__world_declaration_of(const dod_world_desc *d);

/* FNV-1a (64 bits) of a component's name bytes, without the terminating zero; NULL hashes to
 * 0, which no name reaches in practice ("" gives FNV's offset basis). */
uint64_t dod__world_name_hash(const char *name);

/* What archetype desc a declares about its blocks, defaults filled in. */
dod__world_blocks_decl dod__world_blocks_declared(const dod_archetype_desc *a);

/* The fingerprint of w's declaration, kept by create. */
static inline uint64_t dod__world_declaration(const dod_world *w)
{
    return w->declaration;
}

/* 1 when a and b were created from different declarations, compared field by field (every
 * component's size, alignment and name hash; every archetype's components, capacity and
 * declared blocks: everything the fingerprint mixes, so two declarations whose fingerprints
 * collide are still told apart). why (NULL: not written): the first difference for a
 * person, naming a and b as an and bn: "another declaration: the size of component 2 is 12 in
 * dst, 8 in src" (cut to cap bytes). */
int dod__world_declaration_differs(const dod_world *a, const dod_world *b, const char *an,
                                   const char *bn, char *why, size_t cap);

/* 1 when a and b were created from the same declaration (dod__world_declaration_differs). */
static inline int dod__world_same_declaration(const dod_world *a, const dod_world *b)
{
    return !dod__world_declaration_differs(a, b, "a", "b", NULL, 0);
}

/* Iteration (world_query.c). */

/* 1 when archetype i is one of q's. */
static inline int dod__query_matches(const dod_query *q, uint32_t i)
{
    return dod__bit_test(q->archetypes, i);
}

/* Reading runs of row numbers (dod/world_rows.h): put r on the block of items[at] (a row number
 * below r's count) and return the end of the run of items from `at` on, below hi, that lie in
 * that block: an index row's items ascend, so a run is the part of an index row in one block. */
static inline uint32_t dod__world_rows_run(dod_world_rows *r, const uint32_t *items, uint32_t at,
                                           uint32_t hi)
{
    if (items[at] - r->first >= r->n)
        (void)dod__world_rows_seek(r, items[at]);
    uint32_t end = at + 1;
    while (end < hi && items[end] - r->first < r->n)
        ++end;
    return end;
}

/* For a flat r (its cached archetypes of one block each): the address of the element of row
 * number 0 in cached archetype k's column of `component`, plus `offset` bytes into the element;
 * `stride` the component's size. An address only computed with: row number `row`'s element in
 * that archetype is at this + row * stride. */
static inline uintptr_t dod__world_rows_column_base(const dod_world_rows *r, uint32_t k,
                                                    uint32_t component, size_t offset,
                                                    size_t stride)
{
    const dod__world_place *p = r->world->arch[r->cached_archetype[k]].place;
    uintptr_t at = (uintptr_t)(p->blocks[0] + p->fields[component].offset + offset);
    return at - (uintptr_t)r->cached_first[k] * stride;
}

/* The size of `component` in w's archetypes (they all agree), 0 when none has it. */
static inline size_t dod__world_component_size(const dod_world *w, uint32_t component)
{
    for (uint32_t i = 0; i < w->n_archetypes; ++i) {
        const dod__world_field *f = &w->arch[i].place->fields[component];
        if (f->offset)
            return f->size;
    }
    return 0;
}

/* Put *it on rows first_row .. first_row + n - 1 of block `block` of `archetype` (all in
 * range, n > 0), as one step of dod_world_next would put it on a whole block: n, archetype,
 * entities and dod_world_field then cover those rows only. dod_world_next on it ends the
 * iteration. For a system's task, which covers part of a block. */
void dod__world_iter_rows(dod_world_iter *it, const dod_world *w, uint32_t archetype,
                          uint32_t block, uint32_t first_row, uint32_t n);

/* Storage (world_storage.c). */

/* Rows blocks 0 .. k - 1 of a hold together (k <= a->max_blocks). */
uint64_t dod__world_rows_upto(const dod__world_arch *a, uint64_t k);
/* Bytes of blocks 0 .. k - 1 of a (k <= a->n_blocks: blocks that exist). */
size_t dod__world_bytes_upto(const dod__world_arch *a, uint32_t k);
/* The most blocks of a (from block 0 on) whose bytes are at most cap. */
uint64_t dod__world_blocks_within(const dod__world_arch *a, size_t cap);

/* The fewest blocks of a (from block 0 on) that hold `rows` rows. */
uint64_t dod__world_blocks_for_rows(const dod__world_arch *a, uint64_t rows);

/* Make room for n more rows at the end of a: the spare block, then new blocks (and a longer
 * block list) allocated before anything changes; on failure nothing changed.
 * DOD_E_FULL (capacity or memory cap), DOD_E_NOMEM. */
dod_status dod__world_reserve_rows(dod_world *w, dod__world_arch *a, uint32_t n);

/* dod__world_reserve_rows in two steps, for a call that reserves in several archetypes all or
 * nothing: prepare allocates the blocks (and list) n more rows need without changing what the
 * world shows (*room records them), then install makes them a's or discard frees them. */
typedef struct dod__world_rows_room {
    unsigned char **list; /* a's block list, or a longer copy of it, with the new blocks */
    uint32_t list_cap;
    uint32_t blocks;      /* a's n_blocks once installed */
} dod__world_rows_room;
dod_status dod__world_prepare_rows(dod_world *w, dod__world_arch *a, uint32_t n,
                                   dod__world_rows_room *room);
/* The same for blocks 0 .. blocks - 1 (blocks <= a->max_blocks): a has at least that many
 * once installed. DOD_E_NOMEM, DOD_E_OVERFLOW. */
dod_status dod__world_prepare_blocks(dod_world *w, dod__world_arch *a, uint32_t blocks,
                                     dod__world_rows_room *room);
void dod__world_install_rows(dod_world *w, dod__world_arch *a, const dod__world_rows_room *room);
void dod__world_discard_rows(dod_world *w, const dod__world_arch *a,
                             const dod__world_rows_room *room);

/* After a's end block emptied: blocks past the ones holding rows, beyond one empty block,
 * are freed. */
void dod__world_trim_blocks(dod_world *w, dod__world_arch *a);

/* Free a's blocks past its first `keep` (keep >= the blocks holding rows). */
void dod__world_free_blocks_past(dod_world *w, dod__world_arch *a, uint32_t keep);

/* Make sure n more slots can be taken without allocating: a larger entity index goes into
 * *fresh (NULL when none is needed) for dod__world_install_slots, after the other
 * allocations of the call succeeded. DOD_E_OVERFLOW, DOD_E_NOMEM. */
dod_status dod__world_prepare_slots(const dod_world *w, uint32_t n, uint64_t **fresh,
                                    uint32_t *fresh_cap);
void dod__world_install_slots(dod_world *w, uint64_t *fresh, uint32_t fresh_cap);
void dod__world_discard_slots(const dod_world *w, uint64_t *fresh, uint32_t fresh_cap);

/* Free every block and the block list of a (the world is being destroyed). */
void dod__world_free_blocks(dod_world *w, dod__world_arch *a);

/* Make w (which holds no entity: a slot's fresh world) hold, allocated and, when w has
 * DOD_WORLD_PREFAULT, touched, what `like` (a world of w's declaration) holds: an entity index
 * of its slot capacity and as many blocks of every archetype, so a copy of `like` into w
 * allocates nothing and faults no page. All or nothing: DOD_E_NOMEM, DOD_E_OVERFLOW, and w
 * unchanged (world.c). */
dod_status dod__world_reserve_like(dod_world *w, const dod_world *like);

/* Replacing a world's contents wholesale: a copy, a load (world_replace.c). */

/* What w needs before it takes other contents: an entity index of n_slots slots and blocks
 * 0 .. blocks[i] - 1 of each archetype i (blocks[i] <= its max_blocks). */
typedef struct dod__world_room {
    uint64_t *slots;  /* a larger entity index, or NULL when the held one is large enough */
    uint32_t slot_cap;
    dod__world_rows_room rows[DOD_WORLD_MAX_ARCHETYPES];
} dod__world_room;

/* Allocate what w lacks, all or nothing (nothing when it holds enough; the blocks it holds
 * past blocks[i] stay its own). DOD_E_NOMEM, DOD_E_OVERFLOW; on failure nothing changed. */
dod_status dod__world_prepare_room(dod_world *w, uint32_t n_slots, const uint32_t *blocks,
                                   dod__world_room *room);
/* Make the room w's: its blocks, and the larger entity index (the old one's contents are not
 * kept: the caller writes every slot). */
void dod__world_install_room(dod_world *w, const dod__world_room *room);
/* Give the room back (a later check failed). */
void dod__world_discard_room(dod_world *w, const dod__world_room *room);
/* a holds n_rows rows in blocks 0 .. n_open - 1 (held), `tail` of them in the last; n_open 0:
 * no block is open (n_rows and tail 0). */
void dod__world_set_rows(dod__world_arch *a, uint32_t n_rows, uint32_t n_open, uint32_t tail);

/* Transitions (world_transitions.c). */

/* Fill w->toggle from the archetypes' component sets (create, once). */
void dod__world_fill_transitions(dod_world *w);

#endif /* DOD_WORLD_LAYOUT_H */
