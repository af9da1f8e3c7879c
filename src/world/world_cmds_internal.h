/* Command buffers' record format, shared by recording (world_cmds.c), planning
 * (world_cmds_plan.c) and applying (world_cmds_apply.c); not installed.
 *
 * A buffer's records are one byte stream, each record 8-byte aligned and read in place: an
 * 8-byte head (dod__cmd), for every command but a spawn the 8-byte handle it names, then its
 * payload rounded up to 8 bytes.
 *   spawn    id = archetype; payload: the archetype's components packed in declared order,
 *            or none for a zeroed spawn. Its provisional handle is its ordinal among the
 *            buffer's spawns, which a reader counts: the record does not hold it.
 *   despawn  the handle
 *   move     id = archetype, the handle
 *   set      id = component, the handle; payload: the component's bytes
 *   add      id = component, the handle; payload: the component's bytes, or none (zeroed)
 *   remove   id = component, the handle
 *   add_n, remove_n   the handle; payload: the set of components (DOD__SET_WORDS words)
 *   field    id = component, the handle; payload: a dod__cmd_field (an accumulate, or a
 *            handle written into the component: DOD__FIELD_ENTITY)
 * A handle is as recorded: a real one, or a provisional one of the same buffer. */
#ifndef DOD_WORLD_CMDS_INTERNAL_H
#define DOD_WORLD_CMDS_INTERNAL_H

#include <dod/world_cmds.h>
#include "world_layout.h"

/* A provisional handle's generation: even, so no world resolves it. */
#define DOD__CMDS_GEN 0xFFFEu

enum {
    DOD__CMD_SPAWN,
    DOD__CMD_DESPAWN,
    DOD__CMD_MOVE,
    DOD__CMD_SET,
    DOD__CMD_ADD,
    DOD__CMD_REMOVE,
    DOD__CMD_ADD_N,
    DOD__CMD_REMOVE_N,
    DOD__CMD_FIELD
};

/* 64-bit words of a set of components. */
#define DOD__SET_WORDS (DOD_WORLD_MAX_COMPONENTS / 64)

/* spawn_arch[k] with this bit: spawn k was despawned by a command recorded since (commands
 * naming it are recorded unchecked, and skipped at apply); the low 8 bits its archetype. */
#define DOD__CMDS_DESPAWNED 0x100u

/* A field command's payload: combine (op < DOD_ACC_COUNT) or write (DOD__FIELD_ENTITY, the
 * value a handle, provisional ones rewritten at apply) value's first width bytes at `offset`
 * of the component. */
#define DOD__FIELD_ENTITY ((uint32_t)DOD_ACC_COUNT)
typedef struct dod__cmd_field {
    uint32_t offset;
    uint32_t op;
    unsigned char value[8];
} dod__cmd_field;

typedef struct dod__cmd {
    uint8_t op;       /* DOD__CMD_* */
    uint8_t id;       /* archetype or component: both fewer than 256 */
    uint16_t unused;  /* zero */
    uint32_t payload; /* bytes of payload, before rounding */
} dod__cmd;

/* Bytes before the payload of a record of op: the head, and the handle but for a spawn. */
static inline size_t dod__cmd_head_bytes(uint32_t op)
{
    return sizeof(dod__cmd) + (op == DOD__CMD_SPAWN ? 0 : sizeof(dod_entity));
}

/* The handle c names (c not a spawn). */
static inline dod_entity dod__cmd_entity(const dod__cmd *c)
{
    return *(const dod_entity *)(const void *)(c + 1);
}

static inline const unsigned char *dod__cmd_payload(const dod__cmd *c)
{
    return (const unsigned char *)c + dod__cmd_head_bytes(c->op);
}

/* The record after c. */
static inline const dod__cmd *dod__cmd_next(const dod__cmd *c)
{
    size_t padded = ((size_t)c->payload + 7u) & ~(size_t)7u;
    return (const dod__cmd *)(const void *)(dod__cmd_payload(c) + padded);
}

/* cb's first record and the end of its records (cb->n_bytes > 0: records is not NULL). */
static inline const dod__cmd *dod__cmds_first(const dod_cmds *cb)
{
    return (const dod__cmd *)(const void *)cb->records;
}

static inline const dod__cmd *dod__cmds_end(const dod_cmds *cb)
{
    return (const dod__cmd *)(const void *)(cb->records + cb->n_bytes);
}

/* 1 when e has a provisional handle's generation (whichever buffer's). */
static inline int dod__cmds_provisional(dod_entity e)
{
    return (uint32_t)(e.bits >> 32 & DOD__WORLD_GEN_MASK) == DOD__CMDS_GEN;
}

/* 1 when records of op may move their entity to another archetype (what planning counts). */
static inline int dod__cmd_moves(uint32_t op)
{
    return op == DOD__CMD_MOVE || (op >= DOD__CMD_ADD && op <= DOD__CMD_REMOVE_N);
}

/* Transitions (world_transitions.c). dod__world_set_of: *set = the components[0 .. n - 1]
 * (duplicates allowed); refusals name `call`. dod__world_toggle_target: the archetype an
 * entity of archetype `from` goes to when `component` is added (add 1) or removed (add 0);
 * dod__world_set_target likewise for a set. Both: `from` when nothing changes, UINT32_MAX when
 * no single declared archetype has the resulting set. */
dod_status dod__world_set_of(const dod_world *w, const uint32_t *components, uint32_t n,
                             uint64_t *set, const char *call);
uint32_t dod__world_toggle_target(const dod_world *w, uint32_t from, uint32_t component,
                                  int add);
uint32_t dod__world_set_target(const dod_world *w, uint32_t from, const uint64_t *set, int add);

/* Where a command of op (a move, add, remove, add_n or remove_n; id its archetype or
 * component, set add_n's or remove_n's) takes an entity of archetype `from`, as above. */
static inline uint32_t dod__change_target(const dod_world *w, uint32_t op, uint32_t id,
                                          const uint64_t *set, uint32_t from)
{
    switch (op) {
    case DOD__CMD_MOVE: return id;
    case DOD__CMD_ADD: return dod__world_toggle_target(w, from, id, 1);
    case DOD__CMD_REMOVE: return dod__world_toggle_target(w, from, id, 0);
    case DOD__CMD_ADD_N: return dod__world_set_target(w, from, set, 1);
    default: return dod__world_set_target(w, from, set, 0);
    }
}

/* Where record c (a command that may move its entity) takes an entity of archetype `from`. */
static inline uint32_t dod__cmd_target(const dod_world *w, const dod__cmd *c, uint32_t from)
{
    const uint64_t *set = (const uint64_t *)(const void *)dod__cmd_payload(c);
    return dod__change_target(w, c->op, c->id, set, from);
}

/* The buffers of one apply: an array of buffers (dod_world_apply) or of pointers to buffers
 * (dod_world_apply_ptrs, ptrs not NULL). */
typedef struct dod__cmds_list {
    dod_cmds *array;
    dod_cmds *const *ptrs;
    uint32_t n;
} dod__cmds_list;

static inline dod_cmds *dod__cmds_at(const dod__cmds_list *l, uint32_t i)
{
    return l->ptrs ? l->ptrs[i] : &l->array[i];
}

/* Planning an apply (world_cmds_plan.c): rows[a], for every archetype a of w, the most rows a
 * will hold at any point while the buffers are applied (at least its rows now), and
 * *slot_spawns, a number of spawns for dod__world_prepare_slots that reserves every entity
 * slot the apply takes. A bound, counting every spawn and move as if none were skipped (and
 * every add or remove as a row into each archetype it may lead to); when that bound would
 * cross a fixed capacity, a memory cap or the entity index's limit, the exact figures instead,
 * from a replay of the commands' effect on the entity index and the archetypes' counts, in
 * scratch from w's allocator (freed before returning).
 * Errors: DOD_E_FULL, DOD_E_OVERFLOW (the exact figures cross a capacity, a cap or the index's
 * limit), DOD_E_NOMEM (the scratch). Changes nothing. */
dod_status dod__cmds_plan(const dod_world *w, const dod__cmds_list *buffers, uint64_t *rows,
                          uint32_t *slot_spawns);

#endif /* DOD_WORLD_CMDS_INTERNAL_H */
