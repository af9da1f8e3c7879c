/* dod/world_cmds.h: command buffers for the world (see docs/world.md, "Command buffers").
 *
 * A command buffer records structural changes (spawn, despawn, move, set a component) while
 * the world is being read or iterated, and dod_world_apply carries them out later, at a sync
 * point, in a deterministic order:
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
 * the buffer as the index. Later commands of the same buffer may name it (set, move,
 * despawn); apply gives each spawn a real handle, in apply order, and those commands act on
 * it. After the apply, dod_cmds_resolve maps a provisional handle to the real one. Do not
 * store provisional handles in components: the world never sees them rewritten; resolve them
 * after the apply. Buffer tags come from a process-wide counter (like world tags), so two
 * buffers made 65536 apart share a tag: a provisional handle of one would then be taken as the
 * other's when its ordinal is in range.
 *
 * What is refused when it is recorded (the buffer unchanged, nothing allocated): an unknown
 * archetype or component (DOD_E_RANGE), a set whose size is not the component's, a NULL value,
 * a provisional handle that is not one of this buffer's spawns, a set on a provisional handle
 * whose archetype (its spawn's, after the moves recorded since) lacks the component
 * (DOD_E_INVALID), the null handle (DOD_E_NOT_FOUND, as dod_world_despawn). Real handles are
 * not checked against the world: recording reads nothing of it.
 *
 * What apply skips: a command whose entity is not alive when the command is reached (stale,
 * from another world, or despawned by an earlier command of the same apply) is skipped and
 * counted, not an error: two systems that both kill a unit in one frame are normal, and the
 * second despawn has nothing left to do. A set on an entity whose archetype lacks the
 * component when it is reached (a move recorded earlier took it away) is counted as missing.
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

/* A command buffer: a plain struct the caller owns (dod_cmds_init / dod_cmds_free). */
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
    unsigned char *spawn_arch;  /* spawn ordinal -> its archetype after the recorded moves */
    uint32_t n_spawns, spawns_cap; /* spawned and spawn_arch are one allocation */
    uint32_t n_commands;
    uint32_t n_moves;           /* apply skips planning for a buffer of despawns and sets */
    uint32_t tag_hi;            /* a provisional handle's high half: tag << 16 | 0xFFFE */
    int applied;                /* spawned holds the last apply's handles, nothing since */
} dod_cmds;

/* What an apply did, per command. */
typedef struct dod_apply_result {
    uint32_t applied; /* commands carried out (a move to the archetype the entity is in too) */
    uint32_t skipped; /* commands on an entity not alive when reached (stale, foreign,
                         despawned earlier in this apply) */
    uint32_t missing; /* sets on an entity whose archetype lacks the component when reached */
} dod_apply_result;

/* Bind cb to w's declaration and to an allocator for its memory (NULL = the heap; for arena
 * memory pass dod_arena_allocator(&arena), whose free does nothing), and take the buffer's tag
 * (an atomic add on a process-wide counter). Allocates nothing. w must stay alive while cb
 * records; apply may target any world of the same declaration.
 * Errors (cb untouched): DOD_E_INVALID (cb or w NULL).
 * Thread safety: initialising buffers on several threads at once is safe. */
DOD_API dod_status dod_cmds_init(dod_cmds *cb, const dod_world *w, const dod_allocator *alloc);

/* Return every byte cb holds to its allocator; cb stays bound and initialised, empty, its
 * provisional handles forgotten. NULL: no-op. */
DOD_API void dod_cmds_free(dod_cmds *cb);

/* Forget the commands and the provisional handles, keep the memory: recording the same
 * number of commands again allocates nothing. NULL: no-op. */
DOD_API void dod_cmds_clear(dod_cmds *cb);

/* Make room for n_commands more commands, any of them spawns, carrying payload_bytes more
 * component bytes in all (each spawn with values carries its archetype's row, each set its
 * component), so that recording them allocates nothing. Room is 16 bytes a command and up to 7
 * of padding (a record's payload is rounded up to 8 bytes), the payload, and 9 bytes a command
 * for the handles of the spawns among them.
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

/* Record a despawn of e (a real handle, or a provisional one of cb).
 * Errors (cb unchanged): DOD_E_INVALID (cb NULL; e a provisional handle not of cb's spawns),
 * DOD_E_NOT_FOUND (e null), DOD_E_OVERFLOW (2^32 - 1 commands), DOD_E_NOMEM. */
DOD_API dod_status dod_cmds_despawn(dod_cmds *cb, dod_entity e);

/* Record a move of e to `archetype` (as dod_world_move when applied).
 * Errors (cb unchanged): as dod_cmds_despawn, and DOD_E_RANGE (archetype >= n_archetypes). */
DOD_API dod_status dod_cmds_move(dod_cmds *cb, dod_entity e, uint32_t archetype);

/* Record a write of `size` bytes from value (copied now) to e's component `component`.
 * Errors (cb unchanged): as dod_cmds_despawn, and DOD_E_INVALID (value NULL; size not the
 * component's; e provisional and its archetype lacking the component), DOD_E_RANGE (component
 * >= the declaration's n_components). */
DOD_API dod_status dod_cmds_set(dod_cmds *cb, dod_entity e, uint32_t component,
                                const void *value, size_t size);

/* Apply buffers[0 .. n_buffers - 1] to w in that order, each in recording order, and count
 * what was done in *result (may be NULL). Spawns take real handles in that order, so the world
 * afterwards depends only on the buffers' contents and order, never on which thread recorded
 * what when. Each buffer is left as it was (its commands kept: clear it to reuse it; applying
 * it again replays it) but for its provisional handles' real ones (dod_cmds_resolve).
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
 * DOD_E_NOMEM. */
DOD_API dod_status dod_world_apply(dod_world *w, dod_cmds *buffers, uint32_t n_buffers,
                                   dod_apply_result *result);

/* The real handle a provisional handle of cb got in cb's last apply, O(1); the null handle
 * when e is another buffer's provisional handle, or cb's but cb was not applied since it was
 * recorded (or cleared), or cb is NULL. A real handle (or the null one) is returned as it is. */
DOD_API dod_entity dod_cmds_resolve(const dod_cmds *cb, dod_entity e);

#ifdef __cplusplus
}
#endif

#endif /* DOD_WORLD_CMDS_H */
