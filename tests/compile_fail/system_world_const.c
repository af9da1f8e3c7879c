/* Compiled by ctest twice: with DOD_RECORD it must compile cleanly (a structural change goes
 * through the task's command buffer); without, changing the world from inside a system must be
 * a compile error: the task's world is const. */
#include <dod/world_systems.h>

void despawn_all(const dod_system_task *t);
void despawn_all(const dod_system_task *t)
{
    for (uint32_t i = 0; i < t->rows.n; ++i) {
#ifdef DOD_RECORD
        (void)dod_cmds_despawn(t->cmds, t->rows.entities[i]);
#else
        (void)dod_world_despawn(t->world, t->rows.entities[i]); /* t->world is const */
#endif
    }
}
