/* dod/world.h: the world, a statically typed archetype ECS (docs/world.md); include this.
 *
 * The world's headers, each usable alone, in the order they build on each other:
 *   dod/world_core.h     declaration, entities (spawn, despawn, move, add, remove), lookups,
 *                        queries and iteration
 *   dod/world_cmds.h     command buffers: structural changes recorded on any thread, applied
 *                        at a sync point in a deterministic order, all or nothing
 *   dod/world_systems.h  systems on a deterministic parallel schedule
 *   dod/world_rows.h     a query's rows read by row number: the fast read of an index's items
 *   dod/world_index.h    relation indexes (dod_csr) built from a component's key field
 *   dod/world_io.h       snapshots (dod_world_copy, frames of worlds) and checked world files
 *   dod/world_typed.h    the typed layer: DOD_WORLD, DOD_QUERY (macros that generate typed
 *                        functions calling the headers above)
 * DOD_SYSTEM, the typed system, is in dod/world_systems.h. */
#ifndef DOD_WORLD_H
#define DOD_WORLD_H

#include <dod/world_core.h>
#include <dod/world_cmds.h>
#include <dod/world_systems.h>
#include <dod/world_rows.h>
#include <dod/world_index.h>
#include <dod/world_io.h>
#include <dod/world_typed.h>

#endif /* DOD_WORLD_H */
