/* snapshots: a live world's frames, a save and a load that keeps links between entities.
 *
 * Squads of soldiers, each soldier naming its squad's leader in a component. The memory for the
 * soldiers is reserved at load time (game_soldier_reserve: no block allocated mid-game), and its
 * size known before (dod_world_rows_bytes). Frames are made from the live world
 * (dod_world_frames_create_from: every slot already holds what the live world holds), and
 * each frame is a copy of the rows only (DOD_WORLD_COPY_ROWS_ONLY): a reader walks it by rows,
 * and handles are looked up in the live world. Then a save, and a load into another world that
 * rewrites the leaders' handles to that world's tag (dod_world_load_with), so they resolve
 * there. Checks its own results; exits non-zero if wrong. */
#include <dod/dod.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct position { float x, y; } position;
typedef struct squad { dod_entity leader; } squad;

#define GAME_COMPONENTS(C) C(position) C(squad)
#define SOLDIER(X) X(position) X(squad)
#define GAME_ARCHETYPES(A) A(soldier, SOLDIER, 0) /* chunked: grows in blocks */
DOD_WORLD(game, GAME_COMPONENTS, GAME_ARCHETYPES)
#define PLACED(W, R, X) R(position)
DOD_QUERY(game, placed, PLACED)

enum { SQUADS = 500, PER_SQUAD = 8, SOLDIERS = SQUADS * PER_SQUAD };

static int fail(const char *what, dod_status st)
{
    fprintf(stderr, "snapshots: %s: %s\n", what, dod_status_str(st));
    return 1;
}

/* 1 when every soldier's leader is alive in w. */
static int leaders_resolve(const dod_world *w)
{
    int ok = 1;
    game_soldier_cols c;
    for (uint32_t b = 0; game_soldier_block(w, b, &c); ++b)
        for (uint32_t i = 0; i < c.n; ++i)
            ok &= dod_world_alive(w, c.squad[i].leader);
    return ok;
}

int main(void)
{
    dod_world_desc desc = game_desc();
    size_t bytes = 0;
    dod_status st = dod_world_rows_bytes(&desc, DOD_AID(game, soldier), SOLDIERS, &bytes);
    dod_world *live = NULL;
    if (st == DOD_OK)
        st = game_create(&live, NULL);
    if (st == DOD_OK) /* every block the soldiers need, now, not while the game runs */
        st = game_soldier_reserve(live, SOLDIERS); /* dod_world_reserve */
    for (uint32_t s = 0; s < SQUADS && st == DOD_OK; ++s) {
        dod_entity leader;
        game_soldier_row r = { { (float)s, 0.0f }, { { 0 } } };
        st = game_soldier_spawn(live, &r, &leader);
        r.squad.leader = leader; /* the leader leads itself; the others follow it */
        for (uint32_t k = 1; k < PER_SQUAD && st == DOD_OK; ++k)
            st = game_soldier_spawn(live, &r, NULL);
        squad *own = st == DOD_OK ? game_get_squad(live, leader) : NULL;
        if (own)
            *own = r.squad;
    }
    if (st)
        return fail("setup", st);
    printf("%u soldiers in %lu bytes of blocks, reserved before the first spawn\n",
           (unsigned)SOLDIERS, (unsigned long)bytes);

    /* Frames from the live world; each frame is the rows only. */
    dod_frames *frames = NULL;
    st = dod_world_frames_create_from(&frames, 3, &desc, live);
    dod_frame next = { 0 };
    if (st == DOD_OK)
        st = dod_frames_begin(frames, &next);
    dod_world_copy_desc rows_only = { NULL, DOD_WORLD_COPY_ROWS_ONLY };
    if (st == DOD_OK)
        st = dod_world_copy_with(dod_frame_world(&next), live, &rows_only);
    if (st == DOD_OK)
        st = dod_frames_publish(frames, &next);
    dod_frame held = { 0 };
    if (st == DOD_OK)
        st = dod_frames_acquire(frames, &held);
    if (st)
        return fail("frames", st);
    const dod_world *frame = dod_frame_world_read(&held);
    float sum_x = 0.0f;
    uint32_t walked = 0, resolved_in_frame = 0;
    dod_world_iter it;
    game_placed_cols c;
    for (game_placed_begin(&it, frame); game_placed_next(&it, &c);)
        for (uint32_t i = 0; i < c.n; ++i, ++walked) {
            sum_x += c.position[i].x;
            resolved_in_frame += dod_world_alive(frame, c.entities[i]) != 0; /* rows only: 0 */
        }
    dod_frames_release(frames, &held);
    printf("the frame: %u soldiers walked, x summed %.0f, %u handles resolved in it\n", walked,
           (double)sum_x, resolved_in_frame);
    int ok = walked == SOLDIERS && resolved_in_frame == 0;

    /* Save, then load into another world: the leaders' handles take that world's tag. */
    size_t n = dod_world_saved_size(live);
    void *file = malloc(n);
    dod_world *other = NULL;
    st = file ? dod_world_save_mem(live, file, n) : DOD_E_NOMEM;
    if (st == DOD_OK)
        st = game_create(&other, NULL);
    const dod_world_handle_field leader_field = { DOD_CID(game, squad),
                                                  (uint32_t)offsetof(squad, leader) };
    const dod_world_load_desc load = { &leader_field, 1, 0 };
    if (st == DOD_OK)
        st = dod_world_load_mem_with(other, file, n, &load);
    if (st)
        return fail("save and load", st);
    ok &= leaders_resolve(live) && leaders_resolve(other);
    printf("loaded into another world: the leaders %s\n",
           leaders_resolve(other) ? "resolve there" : "DO NOT RESOLVE");
    free(file);
    dod_world_destroy(other);
    dod_world_frames_destroy(frames);
    dod_world_destroy(live);
    return ok ? 0 : 1;
}
