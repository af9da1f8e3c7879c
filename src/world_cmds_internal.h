/* Command buffers' record format, shared by recording (world_cmds.c), planning
 * (world_cmds_plan.c) and applying (world_cmds_apply.c); not installed.
 *
 * A buffer's records are one byte stream: each record is a dod__cmd head (16 bytes) and its
 * payload rounded up to 8 bytes, so every head is 8-byte aligned and read in place.
 *   spawn    id = archetype, entity = the provisional handle; payload: the archetype's
 *            components packed in declared order, or none for a zeroed spawn
 *   despawn  entity
 *   move     id = archetype, entity
 *   set      id = component, entity; payload: the component's bytes */
#ifndef DOD_WORLD_CMDS_INTERNAL_H
#define DOD_WORLD_CMDS_INTERNAL_H

#include <dod/world_cmds.h>
#include "world_layout.h"

/* A provisional handle's generation: even, so no world resolves it. */
#define DOD__CMDS_GEN 0xFFFEu

enum { DOD__CMD_SPAWN, DOD__CMD_DESPAWN, DOD__CMD_MOVE, DOD__CMD_SET };

typedef struct dod__cmd {
    uint8_t op;        /* DOD__CMD_* */
    uint8_t id;        /* archetype or component: both fewer than 256 */
    uint16_t unused;   /* zero */
    uint32_t payload;  /* bytes following the head, before rounding */
    dod_entity entity; /* as recorded: a real handle or a provisional one of this buffer */
} dod__cmd;

/* The payload of c. */
static inline const unsigned char *dod__cmd_payload(const dod__cmd *c)
{
    return (const unsigned char *)(c + 1);
}

/* The record after c. */
static inline const dod__cmd *dod__cmd_next(const dod__cmd *c)
{
    size_t padded = ((size_t)c->payload + 7u) & ~(size_t)7u;
    return (const dod__cmd *)(const void *)(dod__cmd_payload(c) + padded);
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
