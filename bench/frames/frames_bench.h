/* bench_frames: what its files share. The strategy tick is timed phase by phase in three
 * forms, alternating tick by tick in one process: on a table (examples/strategy_world.h, in
 * bench_frames.c), by hand on plain arrays (examples/plain_tick.h, in plain_tick.c) and on the
 * world (examples/world_tick.h, in world_tick.c). */
#ifndef FRAMES_BENCH_H
#define FRAMES_BENCH_H

#include <dod/dod.h>
#include <stdint.h>
#include "../../examples/strategy_map.h"

/* The phases of a tick: the main thread's (the update: the table's march or the world's
 * systems; the copy into the frame; the rebuild of its two indexes; the publish), then each
 * worker's job on the frame just published, in turn on the main thread. */
enum { PH_UPDATE, PH_COPY, PH_REBUILD, PH_PUBLISH, PH_AI, PH_PATH, PH_UI, N_PHASES };
enum { MAX_TICKS = 16, POOL_THREADS = 3, ROUTES = 4, MUSTERS = 256 };

/* A form of the tick as the steps tick_form_timed takes, each on the form's own bench (`self`):
 * 1 on success, 0 when a dod call failed. Every form is timed by the same code, so the phases
 * of one measure what they measure in the others. */
typedef struct tick_steps {
    int (*update)(void *self, uint64_t t);                 /* the main thread's update */
    int (*copy)(void *self, dod_frame *next);              /* the live state into the frame */
    int (*build)(void *self, dod_frame *next, uint64_t t); /* its two indexes; its tick */
    uint64_t (*open)(void *self, const dod_frame *held);   /* the jobs' frame; its tick */
    int (*report)(void *self, float *strength, float *morale);      /* the AI job */
    map_march (*order)(void *self, uint64_t seed);                  /* a path job's order */
    uint32_t (*muster)(void *self, uint32_t cell, float *hp);     /* the UI job, one cell */
} tick_steps;

/* A form's bench as the timer sees it: its steps, its frame ring, and what its jobs write. */
typedef struct tick_form {
    const tick_steps *steps;
    void *self;
    dod_frames *frames;
    uint32_t cells;            /* the map's: the UI job reads random ones */
    dod_graph_scratch scratch; /* the path job's */
    float *strength, *morale;  /* the AI job's, one per army */
} tick_form;

/* Returns 0 when an allocation failed; tick_form_free either way. */
int tick_form_init(tick_form *f, const tick_steps *steps, void *self, dod_frames *frames,
                   uint32_t cells, uint32_t armies);
/* Also a no-op on a zeroed tick_form (a bench that failed before its init). */
void tick_form_free(tick_form *f);
/* Tick t (1, 2, ...): the main thread's share (update; begin, copy, build, publish), then each
 * worker's job on the frame just published, in turn on this thread, each phase timed into ms[]
 * (publish in microseconds, the others in milliseconds). Returns 0 when a dod call failed. */
int tick_form_timed(tick_form *f, uint64_t t, double *ms);

/* The world's tick at a side x side map, 6 regiments a cell in `side` armies, its update and
 * rebuilds on POOL_THREADS threads. NULL when something failed. */
typedef struct world_tick_bench world_tick_bench;
world_tick_bench *world_tick_bench_create(uint32_t side);
/* Tick t (1, 2, ...), each phase timed into ms[] (publish in microseconds, the others in
 * milliseconds). Returns 0 when a dod call failed. */
int world_tick_timed(world_tick_bench *b, uint64_t t, double *ms);
/* Regiments routed now, and the bytes the live world holds. */
uint32_t world_tick_routed(const world_tick_bench *b);
size_t world_tick_bytes(const world_tick_bench *b);
void world_tick_bench_destroy(world_tick_bench *b);

/* The same game by hand on plain arrays, the same size, threads and phases as the world's. */
typedef struct plain_tick_bench plain_tick_bench;
plain_tick_bench *plain_tick_bench_create(uint32_t side);
int plain_tick_timed(plain_tick_bench *b, uint64_t t, double *ms);
/* Regiments routed now (the world's count, when both ran the same ticks). */
uint32_t plain_tick_routed(const plain_tick_bench *b);
void plain_tick_bench_destroy(plain_tick_bench *b);

#endif
