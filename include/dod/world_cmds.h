/* dod/world_cmds.h: command buffers for the world (see docs/world.md, "Command buffers").
 *
 * A command buffer records structural changes (spawn, despawn, move, add or remove components,
 * set a component, combine a value into a field, link to an entity) while the world is being
 * read or iterated, and dod_world_apply carries them out later, at a sync point, in a
 * deterministic order:
 *
 *     dod_cmds cb;                                  one per worker or per task
 *     dod_cmds_init(&cb, w, NULL);
 *     ... while iterating w, on any thread that owns cb:
 *     dod_cmds_despawn(&cb, dying);
 *     dod_entity wreck;
 *     dod_cmds_spawn(&cb, WRECK, NULL, &wreck);     wreck: a provisional handle
 *     dod_cmds_set(&cb, wreck, POSITION, &where, sizeof where);
 *     ... at the sync point, no reader left:
 *     dod_world_apply(w, &cb, 1, &result);          all or nothing
 *     dod_entity real = dod_cmds_resolve(&cb, wreck);
 *     dod_cmds_clear(&cb);                          reuse: the capacity stays
 *     ...
 *     dod_cmds_destroy(&cb);                        (dod_cmds_free is the same call)
 *
 * What a buffer is bound to. dod_cmds_init binds a buffer to a world's declaration (its
 * components and archetypes, which never change after create): recording checks commands
 * against it and reads nothing else of the world, so the world must stay alive while the
 * buffer records. dod_world_apply accepts any world whose declaration is identical (the same
 * components, sizes and aligns, the same archetypes, capacities, block sizes and caps), the
 * bound world included, and reads nothing of the bound one.
 *
 * Provisional handles. A spawn returns a provisional handle: generation 0xFFFE (even, so it
 * never resolves in any world: dod_world_get, alive, despawn and move refuse it like a forged
 * handle), the buffer's 16-bit tag where a world's tag would be, and the spawn's ordinal in
 * the buffer as the index. Later commands of the same buffer may name it (every command but a
 * spawn); apply gives each spawn a real handle, in apply order, and those commands act on it.
 * After the apply, dod_cmds_resolve maps a provisional handle to the real one. Do not store
 * provisional handles in components with dod_cmds_set or through a pointer: the world never
 * sees them rewritten. dod_cmds_set_entity writes a handle into a component at apply, a
 * provisional one of the same buffer rewritten to the real one (a spawned squad naming its
 * spawned leader). Buffer tags come from a process-wide counter (like world tags), so two
 * buffers made 65536 apart share a tag: a provisional handle of one would then be taken as the
 * other's when its ordinal is in range.
 *
 * What is refused when it is recorded (the commands unchanged, nothing allocated; the sticky
 * status below remembers it): an unknown archetype or component (DOD_E_RANGE), a set whose
 * size is not the component's, a NULL value, a provisional handle that is not one of this
 * buffer's spawns, a set, accumulate or
 * set_entity on a live provisional handle whose archetype (its spawn's, after the moves, adds
 * and removes recorded since) lacks the component (DOD_E_INVALID), an add or remove on a live
 * provisional handle whose resulting set no single declared archetype has (DOD_E_UNDECLARED),
 * the null handle (DOD_E_NOT_FOUND, as dod_world_despawn). A provisional handle the buffer
 * already despawned is not checked: its commands are recorded, then skipped at apply (as on a
 * real handle). Real handles are not checked against the world: recording reads nothing of it.
 * Changed (issue 26): a set on a provisional handle the buffer despawned was refused
 * (DOD_E_INVALID) when its archetype lacked the component; it is now recorded and skipped.
 *
 * Sticky failure: a record call that fails (every call below that takes a dod_cmds and records,
 * not reserve) leaves the buffer's commands unchanged but remembers its status, the first one
 * since the last clear, for dod_cmds_status: a system records many commands and checks once.
 *
 * What apply skips: a command whose entity is not alive when the command is reached (stale,
 * from another world, or despawned by an earlier command of the same apply) is skipped and
 * counted, not an error: two systems that both kill a unit in one frame are normal, and the
 * second despawn has nothing left to do. A set, accumulate or set_entity on an entity whose
 * archetype lacks the component when it is reached (an earlier command took it away), and an
 * add or remove whose resulting set no single declared archetype has (the rule of
 * dod_world_add, DOD_E_UNDECLARED there), are counted as missing and change nothing.
 *
 * Thread safety: recording into different buffers on different threads at once is safe, and
 * safe while other threads read or iterate the world (recording reads only its declaration).
 * A buffer is used by one thread at a time. dod_world_apply needs exclusive access to the world
 * and to the buffers it applies. */
#ifndef DOD_WORLD_CMDS_H
#define DOD_WORLD_CMDS_H

#include <dod/world_core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A command buffer: a plain struct the caller owns (dod_cmds_init / dod_cmds_destroy). */
typedef struct dod_cmds {
    /* all fields private */
    const dod_world *world;     /* the declaration recorded against (read while recording) */
    uint64_t declaration;       /* its fingerprint, checked by apply */
    uint32_t n_archetypes;      /* of the declaration, checked by apply with the fingerprint */
    uint32_t n_components;
    dod_allocator alloc;
    unsigned char *records;     /* the byte stream of records, 8-byte aligned */
    size_t n_bytes, bytes_cap;
    dod_entity *spawned;        /* spawn ordinal -> the real handle its last apply gave */
    uint16_t *spawn_arch;       /* spawn ordinal -> its archetype after the recorded moves,
                                   adds and removes, 0x100 added once it is despawned */
    uint32_t n_spawns, spawns_cap; /* spawned and spawn_arch are one allocation */
    uint32_t n_commands;
    uint32_t n_moves;           /* moves, adds and removes: apply skips planning without them
                                   (despawns, sets and field commands add no row) */
    uint32_t tag_hi;            /* a provisional handle's high half: tag << 16 | 0xFFFE */
    int applied;                /* spawned holds the last apply's handles, nothing since */
    dod_status status;          /* the first failure of a record call since the last clear */
} dod_cmds;

/* What an apply did, per command. */
typedef struct dod_apply_result {
    uint32_t applied; /* commands carried out (a move to the archetype the entity is in too) */
    uint32_t skipped; /* commands on an entity not alive when reached (stale, foreign,
                         despawned earlier in this apply) */
    uint32_t missing; /* sets, accumulates and set_entity on an entity whose archetype lacks
                         the component when reached; adds and removes to an undeclared set */
} dod_apply_result;

/* How dod_cmds_accumulate combines its value v into a field x, by the field's type: ADD x + v
 * (integers wrap, as unsigned arithmetic; floats round as one IEEE-754 addition), MIN / MAX
 * the smaller / larger (floats: x stays when either is NaN), OR the bits of both. */
typedef enum dod_acc {
    DOD_ACC_I32_ADD,
    DOD_ACC_U32_ADD,
    DOD_ACC_I64_ADD,
    DOD_ACC_U64_ADD,
    DOD_ACC_F32_ADD,
    DOD_ACC_F64_ADD,
    DOD_ACC_I32_MIN,
    DOD_ACC_I32_MAX,
    DOD_ACC_F32_MIN,
    DOD_ACC_F32_MAX,
    DOD_ACC_U32_OR,
    DOD_ACC_COUNT /* not an operation: the number of them */
} dod_acc;

/* Bind cb to w's declaration and to an allocator for its memory (NULL = the heap; for arena
 * memory pass dod_arena_allocator(&arena), whose free does nothing), and take the buffer's tag
 * (an atomic add on a process-wide counter). Allocates nothing. w must stay alive while cb
 * records; apply may target any world of the same declaration.
 * Errors (cb untouched): DOD_E_INVALID (cb or w NULL).
 * Thread safety: initialising buffers on several threads at once is safe. */
DOD_API dod_status dod_cmds_init(dod_cmds *cb, const dod_world *w, const dod_allocator *alloc);

/* Return every byte cb holds to its allocator; cb stays bound and initialised, empty, its
 * provisional handles and its status forgotten (it may record again). NULL: no-op.
 * dod_cmds_destroy is the same call, named like every other object's end; dod_cmds_free stays
 * (the name of an earlier contract). */
DOD_API void dod_cmds_destroy(dod_cmds *cb);
DOD_API void dod_cmds_free(dod_cmds *cb);

/* Forget the commands, the provisional handles and the sticky status (DOD_OK again), keep the
 * memory: recording the same number of commands again allocates nothing. NULL: no-op. */
DOD_API void dod_cmds_clear(dod_cmds *cb);

/* The first failure of a record call on cb since it was initialised or last cleared, DOD_OK
 * when none (and for NULL). A system records without checking each call and returns this. */
DOD_API dod_status dod_cmds_status(const dod_cmds *cb);

/* Make room for n_commands more commands, any of them spawns, carrying payload_bytes more
 * component bytes in all (each spawn with values carries its archetype's row, each set and add
 * with a value its component, each add_n and remove_n 32 bytes, each accumulate and set_entity
 * 16), so that recording them allocates nothing. Room is 16 bytes a command and up to 7 of
 * padding (a record's payload is rounded up to 8 bytes), the payload, and 10 bytes a command
 * for the handles and archetypes of the spawns among them.
 * Errors (cb unchanged): DOD_E_INVALID (cb NULL), DOD_E_OVERFLOW (the room does not fit
 * size_t, or more than 2^32 - 1 commands), DOD_E_NOMEM. */
DOD_API dod_status dod_cmds_reserve(dod_cmds *cb, uint32_t n_commands, size_t payload_bytes);

/* Commands recorded since the last clear (0 for NULL). */
DOD_API uint32_t dod_cmds_count(const dod_cmds *cb);

/* Record a spawn into `archetype`. values: NULL = every component zero; else one pointer per
 * component of the archetype, in its declared order, to the initial value (copied now, its
 * size the component's; a NULL entry = that component zero). out: the provisional handle (see
 * above), or NULL. Amortised O(columns); allocates only when the buffer is full (it doubles).
 * Errors (cb unchanged, *out untouched): DOD_E_INVALID (cb NULL), DOD_E_RANGE (archetype >=
 * the declaration's n_archetypes), DOD_E_OVERFLOW (2^32 - 1 commands or spawns, or a row of
 * 4 GiB), DOD_E_NOMEM. */
DOD_API dod_status dod_cmds_spawn(dod_cmds *cb, uint32_t archetype, const void *const *values,
                                  dod_entity *out);

/* Private, for the typed layer's spawn: as dod_cmds_spawn with values, but the caller writes
 * them: *payload receives where, row_bytes bytes (the archetype's components' sizes added up),
 * the components packed in declared order, to be written before any other call on cb.
 * Errors (cb unchanged): as dod_cmds_spawn, and DOD_E_INVALID (payload NULL; row_bytes not
 * the archetype's). */
DOD_API dod_status dod__cmds_spawn_row(dod_cmds *cb, uint32_t archetype, size_t row_bytes,
                                       dod_entity *out, unsigned char **payload);

/* Record a despawn of e (a real handle, or a provisional one of cb: commands recorded on it
 * afterwards are not checked, and are skipped at apply).
 * Errors (cb unchanged): DOD_E_INVALID (cb NULL; e a provisional handle not of cb's spawns),
 * DOD_E_NOT_FOUND (e null), DOD_E_OVERFLOW (2^32 - 1 commands), DOD_E_NOMEM. */
DOD_API dod_status dod_cmds_despawn(dod_cmds *cb, dod_entity e);

/* Record a move of e to `archetype` (as dod_world_move when applied).
 * Errors (cb unchanged): as dod_cmds_despawn, and DOD_E_RANGE (archetype >= n_archetypes). */
DOD_API dod_status dod_cmds_move(dod_cmds *cb, dod_entity e, uint32_t archetype);

/* Record a write of `size` bytes from value (copied now) to e's component `component`.
 * Errors (cb unchanged): as dod_cmds_despawn, and DOD_E_INVALID (value NULL; size not the
 * component's; e a live provisional handle, not despawned by cb, whose archetype lacks the
 * component), DOD_E_RANGE (component >= the declaration's n_components). */
DOD_API dod_status dod_cmds_set(dod_cmds *cb, dod_entity e, uint32_t component,
                                const void *value, size_t size);

/* Record an add of `component` to e (as dod_world_add when applied, through the same
 * transition table) with value (size bytes, the component's, copied now; NULL: the added
 * component zeroed, or left as it was when e has it; with a value it is written either way).
 * dod_cmds_remove records a remove (as dod_world_remove). At apply, a resulting set that no
 * single declared archetype has is counted as missing; on a live provisional handle the set is
 * known now and refused. Soldier -> corpse in one command: dod_cmds_remove(cb, e, VELOCITY).
 * Errors (cb unchanged): as dod_cmds_despawn, and DOD_E_RANGE (component >= n_components),
 * DOD_E_INVALID (size not the component's), DOD_E_UNDECLARED (e a live provisional handle and
 * no single declared archetype has its set plus, or minus, the component). */
DOD_API dod_status dod_cmds_add(dod_cmds *cb, dod_entity e, uint32_t component,
                                const void *value, size_t size);
DOD_API dod_status dod_cmds_remove(dod_cmds *cb, dod_entity e, uint32_t component);

/* Record an add (remove) of components[0 .. n - 1] at once (as dod_world_add_n, _remove_n):
 * one move, through no intermediate set; the added components zeroed. A duplicate id counts
 * once; n == 0 records a command that changes nothing. Undeclared sets as dod_cmds_add.
 * Errors (cb unchanged): as dod_cmds_add, and DOD_E_INVALID (components NULL with n > 0). */
DOD_API dod_status dod_cmds_add_n(dod_cmds *cb, dod_entity e, const uint32_t *components,
                                  uint32_t n);
DOD_API dod_status dod_cmds_remove_n(dod_cmds *cb, dod_entity e, const uint32_t *components,
                                     uint32_t n);

/* Record a combine of *value (size bytes, copied now) into the field at byte `offset` of e's
 * component, by op (dod_acc): at apply, in apply order, the field becomes op(field, value).
 * Two projectiles hitting one soldier in one frame both count, where two sets would keep the
 * last: each system records DOD_ACC_F32_ADD of its damage (negative: health goes down), and the
 * result is byte-identical for any thread count, since apply is sequential and ordered. The
 * field is read and written with memcpy: any offset is accepted (a packed struct, i686's
 * 4-byte-aligned doubles). The typed form is DOD_CMDS_ACCUMULATE (dod/world_typed.h).
 * Errors (cb unchanged): as dod_cmds_set, and DOD_E_INVALID (op not a dod_acc, size not op's
 * width: 4 or 8), DOD_E_RANGE (offset + size past the component's size). */
DOD_API dod_status dod_cmds_accumulate(dod_cmds *cb, dod_entity e, uint32_t component,
                                       size_t offset, dod_acc op, const void *value,
                                       size_t size);

/* Record a write of the handle `target` into the dod_entity field at byte `offset` of e's
 * component (memcpy: any offset). At apply a provisional target of cb becomes the real handle
 * its spawn got in this apply; since a provisional handle exists only once its spawn is
 * recorded, and spawns apply in order, that spawn has always been carried out when the write
 * is reached. A real target (or the null handle, to clear a link) is written as it is, alive
 * or not; a target spawn that was despawned gives its real, dead handle. The typed form is
 * DOD_CMDS_SET_ENTITY.
 * Errors (cb unchanged): as dod_cmds_set (on e), DOD_E_INVALID (target a provisional handle
 * not of cb's spawns), DOD_E_RANGE (offset + 8 past the component's size). */
DOD_API dod_status dod_cmds_set_entity(dod_cmds *cb, dod_entity e, uint32_t component,
                                       size_t offset, dod_entity target);

/* Apply buffers[0 .. n_buffers - 1] to w in that order, each in recording order, and count
 * what was done in *result (may be NULL). Spawns take real handles in that order, so the world
 * afterwards depends only on the buffers' contents and order, never on which thread recorded
 * what when. Applying does not consume a buffer: each is left as it was (its commands kept:
 * dod_cmds_clear it to reuse it; applying it again replays every command) but for its
 * provisional handles' real ones (dod_cmds_resolve). A buffer's sticky status is not read.
 * All or nothing: every block and entity-index slot the commands will need is reserved before
 * anything changes (the peak row count of each archetype during the sequence, so a fixed
 * archetype at capacity accepts "despawn 10, spawn 10" in one apply), and blocks the commands
 * empty are freed at the end, so the world ends as the same direct calls would leave it
 * (every handle, row and block; the capacities of the entity index and block lists may
 * differ: they grow once, for the whole apply). Commands skipped as above are not errors.
 * buffers is an array of buffers (a dod_cmds may be copied into it as a plain struct: then
 * free one of the two, not both).
 * Cost: O(commands + their payload) plus O(archetypes); allocates only what the world needs
 * and, when the commands could overflow a fixed capacity or a memory cap, scratch for an exact
 * count (O(commands), from the world's allocator, freed before returning).
 * Invalidates what the same direct calls would: pointers to moved or removed rows, iterators.
 * Errors (world and buffers unchanged, *result untouched): DOD_E_INVALID (w NULL; buffers
 * NULL with n_buffers > 0; a buffer bound to another declaration), DOD_E_FULL (a fixed
 * archetype or a memory cap would be crossed), DOD_E_OVERFLOW (2^32 - 1 entity slots),
 * DOD_E_NOMEM, DOD_E_STATE (w a copy without its entity index: DOD_WORLD_COPY_ROWS_ONLY). */
DOD_API dod_status dod_world_apply(dod_world *w, dod_cmds *buffers, uint32_t n_buffers,
                                   dod_apply_result *result);

/* dod_world_apply of *buffers[0], ..., *buffers[n_buffers - 1]: buffers kept wherever they
 * live (a system's, a task's), applied by pointer, nothing copied. A buffer may appear twice
 * (it is then applied twice, its handles the second apply's).
 * Errors: as dod_world_apply, and DOD_E_INVALID (a NULL entry). */
DOD_API dod_status dod_world_apply_ptrs(dod_world *w, dod_cmds *const *buffers,
                                        uint32_t n_buffers, dod_apply_result *result);

/* The real handle a provisional handle of cb got in cb's last apply, O(1); the null handle
 * when e is another buffer's provisional handle, or cb's but cb was not applied since it was
 * recorded (or cleared), or cb is NULL. A real handle (or the null one) is returned as it is. */
DOD_API dod_entity dod_cmds_resolve(const dod_cmds *cb, dod_entity e);

#ifdef __cplusplus
}
#endif

#endif /* DOD_WORLD_CMDS_H */
