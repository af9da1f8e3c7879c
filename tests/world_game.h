/* The typed world (the seed's three entity types), shared by the C and the C++ tests
 * of the typed layer. The lists are built from one another, as a game would. */
#ifndef DOD_TEST_WORLD_GAME_H
#define DOD_TEST_WORLD_GAME_H

#include <dod/world.h>

typedef struct position { float x, y; } position;
typedef struct velocity { float x, y; } velocity;
typedef struct hitbox { float x, y, w, h; } hitbox;
typedef struct buffs { uint32_t id[4]; float left[4]; } buffs;
typedef struct frozen { uint32_t since; } frozen;

#define GAME_COMPONENTS(C) C(position) C(velocity) C(hitbox) C(buffs) C(frozen)
#define ENTITY_C(X) X(position) X(hitbox)
#define ENTITY_B(X) X(position) X(velocity) X(hitbox)
#define ENTITY_A(X) ENTITY_B(X) X(buffs)
#define ICE(X) X(position) X(velocity) X(frozen)
#define MARKER(X) /* an entity that is only an id */
#define GAME_FIXED(A) A(entity_a, ENTITY_A, 4096) A(entity_b, ENTITY_B, 4096)
#define GAME_ARCHETYPES(A) GAME_FIXED(A) A(entity_c, ENTITY_C, 0) A(ice, ICE, 0) A(marker, MARKER, 0)
DOD_WORLD(game, GAME_COMPONENTS, GAME_ARCHETYPES)

/* Typed queries: what moves (a and b: ice is frozen), what is not frozen (no column), and
 * everything (an empty list). */
#define MOVERS(W, R, X) W(position) R(velocity) X(frozen)
DOD_QUERY(game, movers, MOVERS)
#define LOOSE(W, R, X) X(frozen)
DOD_QUERY(game, loose, LOOSE)
#define EVERYTHING(W, R, X)
DOD_QUERY(game, everything, EVERYTHING)

/* A second world in the same translation unit, one component, one archetype. */
#define TINY_COMPONENTS(C) C(velocity)
#define TINY_ARCHETYPES(A) A(mover, TINY_COMPONENTS, 3)
DOD_WORLD(tiny, TINY_COMPONENTS, TINY_ARCHETYPES)

#endif
