/* The typed world (the seed's three entity types), shared by the C and the C++ tests
 * of the typed layer. The lists are built from one another, as a game would. */
#ifndef DOD_TEST_WORLD_GAME_H
#define DOD_TEST_WORLD_GAME_H

#include <dod/world.h>

typedef struct position { float x, y; } position;
typedef struct velocity { float x, y; } velocity;
typedef struct hitbox { float x, y, w, h; } hitbox;
typedef struct buffs { uint32_t id[4]; float left[4]; } buffs;

#define GAME_COMPONENTS(C) C(position) C(velocity) C(hitbox) C(buffs)
#define ENTITY_C(X) X(position) X(hitbox)
#define ENTITY_B(X) X(position) X(velocity) X(hitbox)
#define ENTITY_A(X) ENTITY_B(X) X(buffs)
#define GAME_FIXED(A) A(entity_a, ENTITY_A, 4096) A(entity_b, ENTITY_B, 4096)
#define GAME_ARCHETYPES(A) GAME_FIXED(A) A(entity_c, ENTITY_C, 0)
DOD_WORLD(game, GAME_COMPONENTS, GAME_ARCHETYPES)

/* A second world in the same translation unit, one component, one archetype. */
#define TINY_COMPONENTS(C) C(velocity)
#define TINY_ARCHETYPES(A) A(mover, TINY_COMPONENTS, 3)
DOD_WORLD(tiny, TINY_COMPONENTS, TINY_ARCHETYPES)

#endif
