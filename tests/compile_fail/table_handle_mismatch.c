/* Compiled by ctest twice: with DOD_SAME_TABLE it must compile cleanly; without, passing one
 * typed table's handle to another typed table must be a compile error (typed handles). */
#include <dod/table_typed.h>

#define UNIT(X) X(float, x, 0)
#define ITEM(X) X(uint32_t, id, 0)
DOD_TABLE_TYPED(unit, UNIT)
DOD_TABLE_TYPED(item, ITEM)

int remove_first(dod_table *units, dod_table *items);
int remove_first(dod_table *units, dod_table *items)
{
    unit_handle u;
    item_handle i;
    if (unit_push(units, NULL, &u) != DOD_OK || item_push(items, NULL, &i) != DOD_OK)
        return 1;
#ifdef DOD_SAME_TABLE
    return unit_remove(units, u) != DOD_OK;
#else
    return unit_remove(units, i) != DOD_OK; /* an item's handle given to the unit table */
#endif
}
