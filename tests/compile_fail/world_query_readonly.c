/* Compiled by ctest twice: with DOD_WRITE_WRITTEN it must compile cleanly; without, writing
 * through a typed query's read-only column (an R item) must be a compile error. */
#include <dod/world.h>

typedef struct position { float x, y; } position;
typedef struct velocity { float x, y; } velocity;
#define COMPONENTS(C) C(position) C(velocity)
#define UNIT(X) X(position) X(velocity)
#define ARCHETYPES(A) A(unit, UNIT, 0)
DOD_WORLD(game, COMPONENTS, ARCHETYPES)
#define MOVERS(W, R, X) W(position) R(velocity)
DOD_QUERY(game, movers, MOVERS)

void damp(dod_world *w);
void damp(dod_world *w)
{
    dod_world_iter it;
    game_movers_cols c;
    for (game_movers_begin(&it, w); game_movers_next(&it, &c);)
        for (uint32_t i = 0; i < c.n; ++i) {
#ifdef DOD_WRITE_WRITTEN
            c.position[i].x *= 0.5f;
#else
            c.velocity[i].x *= 0.5f; /* velocity is read (R): its column is const */
#endif
        }
}
