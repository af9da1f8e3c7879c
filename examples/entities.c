/* entities: the seed's statically typed archetype ECS, in C.
 *
 * Three entity types declared once (A: position, movement, hitbox, buffs; B: position,
 * movement, hitbox; C: position, hitbox), each a structure of arrays; the seed's loop
 * (position += movement over every entity of a type) on columns the compiler vectorises;
 * then a regiment that becomes routed loses its movement (B minus movement is C: it moves
 * there, keeping its handle, its position and its hitbox), and a typed query steps
 * everything that moves, whatever its type. Checks its own results; exits non-zero if
 * wrong. */
#include <dod/dod.h>
#include <stdio.h>

typedef struct position { float x, y; } position;
typedef struct movement { float x, y; } movement;
typedef struct hitbox { float x, y, w, h; } hitbox;
typedef struct buffs { uint32_t id[4]; float left[4]; } buffs;

#define GAME_COMPONENTS(C) C(position) C(movement) C(hitbox) C(buffs)
#define ENTITY_C(X) X(position) X(hitbox)
#define ENTITY_B(X) X(position) X(movement) X(hitbox)
#define ENTITY_A(X) ENTITY_B(X) X(buffs)
/* A and B: fixed capacity (memory known up front); C: chunked blocks (it grows as regiments
 * rout). */
#define GAME_ARCHETYPES(A) A(entity_a, ENTITY_A, 4096) A(entity_b, ENTITY_B, 4096) \
                           A(entity_c, ENTITY_C, 0)
DOD_WORLD(game, GAME_COMPONENTS, GAME_ARCHETYPES)
/* Everything that moves: position written, movement read (a const column). */
#define MOVING(W, R, X) W(position) R(movement)
DOD_QUERY(game, moving, MOVING)

/* The seed's loop body: restrict columns, so the compiler vectorises it. */
static void step(uint32_t n, position *restrict p, const movement *restrict m)
{
    for (uint32_t i = 0; i < n; ++i) {
        p[i].x += m[i].x;
        p[i].y += m[i].y;
    }
}

static int fail(const char *what, dod_status st)
{
    fprintf(stderr, "entities: %s: %s\n", what, dod_status_str(st));
    return 1;
}

int main(void)
{
    enum { N_A = 4000, N_B = 2000, N_C = 1000 }; /* the seed's 4:2:1 mix */
    dod_world *w;
    dod_status st = game_create(&w, NULL);
    if (st)
        return fail("create", st);

    static dod_entity b[N_B];
    dod_entity e;
    for (uint32_t i = 0; i < N_A + N_B + N_C && st == DOD_OK; ++i) {
        float f = (float)i;
        if (i < N_A) {
            game_entity_a_row r = { { f, 0 }, { 1, 2 }, { f, 0, 1, 1 }, { { 7 }, { 3 } } };
            st = game_entity_a_spawn(w, &r, &e);
        } else if (i < N_A + N_B) {
            game_entity_b_row r = { { f, 0 }, { -1, 1 }, { f, 0, 2, 2 } };
            st = game_entity_b_spawn(w, &r, &b[i - N_A]);
        } else {
            game_entity_c_row r = { { f, 0 }, { f, 0, 4, 4 } };
            st = game_entity_c_spawn(w, &r, &e);
        }
    }
    if (st)
        return fail("spawn", st);

    /* Ten ticks of the seed's loop, one archetype at a time, block by block (A and B are
     * fixed: one block each). C has no movement: nothing to do. */
    for (int tick = 0; tick < 10; ++tick) {
        game_entity_a_cols a;
        for (uint32_t blk = 0; game_entity_a_block(w, blk, &a); ++blk)
            step(a.n, a.position, a.movement);
        game_entity_b_cols c;
        for (uint32_t blk = 0; game_entity_b_block(w, blk, &c); ++blk)
            step(c.n, c.position, c.movement);
    }

    /* Regiment 17 of type B is routed: it loses its movement, and B without movement is C
     * (the one declared archetype with exactly {position, hitbox}). */
    dod_entity routed = b[17];
    if ((st = game_remove_movement(w, routed)) != DOD_OK)
        return fail("remove movement", st);

    /* Another tick, now over everything that has both a position and a movement: a typed
     * query across archetypes (A and B, not C), one struct of columns per block. */
    dod_world_iter it;
    game_moving_cols m;
    uint32_t stepped = 0;
    for (game_moving_begin(&it, w); game_moving_next(&it, &m);) {
        step(m.n, m.position, m.movement);
        stepped += m.n;
    }

    /* Check: the routed regiment kept its handle, position and hitbox; it stopped moving. */
    int ok = stepped == N_A + N_B - 1;
    const position *p = game_get_position(w, routed);
    const hitbox *h = game_get_hitbox(w, routed);
    ok &= p && p->x == (float)(N_A + 17) - 10.0f && p->y == 10.0f;
    ok &= h && h->w == 2.0f && game_get_movement(w, routed) == NULL;
    ok &= dod_world_archetype_of(w, routed) == DOD_AID(game, entity_c);
    ok &= dod_world_count(w, DOD_AID(game, entity_c)) == N_C + 1;
    /* The other regiments of B moved 11 times, those of A too. */
    const position *q18 = game_get_position(w, b[18]);
    ok &= q18 && q18->x == (float)(N_A + 18) - 11.0f && q18->y == 11.0f;
    game_entity_a_cols a;
    ok &= game_entity_a_block(w, 0, &a) && a.position[5].x == 5.0f + 11.0f &&
          a.position[5].y == 22.0f && a.buffs[5].id[0] == 7;
    printf("entities: %u A, %u B, %u C; regiment 17 routed at (%.0f, %.0f): %s\n",
           dod_world_count(w, DOD_AID(game, entity_a)), dod_world_count(w, DOD_AID(game, entity_b)),
           dod_world_count(w, DOD_AID(game, entity_c)), p ? (double)p->x : 0.0,
           p ? (double)p->y : 0.0, ok ? "ok" : "WRONG");
    dod_world_destroy(w);
    return ok ? 0 : 1;
}
