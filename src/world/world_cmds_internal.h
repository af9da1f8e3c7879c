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
 * A handle is as recorded: a real one, or a provisional one of the same buffer. */
#ifndef DOD_WORLD_CMDS_INTERNAL_H
#define DOD_WORLD_CMDS_INTERNAL_H

#include <dod/world_cmds.h>
#include "world_layout.h"

/* A provisional handle's generation: even, so no world resolves it. */
#define DOD__CMDS_GEN 0xFFFEu

enum { DOD__CMD_SPAWN, DOD__CMD_DESPAWN, DOD__CMD_MOVE, DOD__CMD_SET };

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

/* Planning an apply (world_cmds_plan.c): rows[a], for every archetype a of w, the most rows a
 * will hold at any point while the buffers are applied (at least its rows now), and
 * *slot_spawns, a number of spawns for dod__world_prepare_slots that reserves every entity
 * slot the apply takes. A bound, counting every spawn and move as if none were skipped; when
 * that bound would cross a fixed capacity, a memory cap or the entity index's limit, the exact
 * figures instead, from a replay of the commands' effect on the entity index and the
 * archetypes' counts, in scratch from w's allocator (freed before returning).
 * Errors: DOD_E_FULL, DOD_E_OVERFLOW (the exact figures cross a capacity, a cap or the index's
 * limit), DOD_E_NOMEM (the scratch). Changes nothing. */
dod_status dod__cmds_plan(const dod_world *w, const dod_cmds *buffers, uint32_t n_buffers,
                          uint64_t *rows, uint32_t *slot_spawns);

#endif /* DOD_WORLD_CMDS_INTERNAL_H */
