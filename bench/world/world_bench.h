/* bench_world: the world (dod/world.h) against the seed's OOP baseline and a raw SoA floor,
 * then the common ECS benchmark scenarios. What the suite's C files share. */
#ifndef WORLD_BENCH_H
#define WORLD_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <dod/world_core.h>
#include "bench.h"

/* ---- components, at global scope as the typed layer asks ---- */
typedef struct position { float x, y; } position;
typedef struct movement { float x, y; } movement; /* the seed's name for a velocity */
typedef struct hitbox { float x, y, w, h; } hitbox;
typedef struct buffs { uint32_t id[4]; float left[4]; } buffs; /* the seed's std::array<Buff, 4> */
typedef struct velocity { float x, y; } velocity;
typedef struct data { float v[12]; } data; /* ecs_benchmark's 48-byte component */

/* ---- kernels.c: the loops every contender calls, so a comparison measures only the loop
 * around them (blocks, a query, a plain array) ---- */
void step_move(uint32_t n, position *restrict p, const movement *restrict m); /* p += m */
void step_iterate(uint32_t n, position *restrict p, const velocity *restrict v, float dt);
void step_double(uint32_t n, data *restrict d); /* every float of d doubled */

/* ---- raw.c: the seed's population, N entities in the mix 4:2:1 (A:B:C) ---- */
enum { SEED_A, SEED_B, SEED_C, SEED_TYPES };
typedef struct seed_population {
    size_t n, count[SEED_TYPES];
    uint8_t *order;                /* the n types in the shuffled creation order */
    position *pos[SEED_TYPES];     /* plain arrays per type: the k-th entity of the type */
    movement *mov[SEED_TYPES];     /* NULL for C, which has no movement */
} seed_population;
void seed_population_init(seed_population *s, size_t n);
void seed_population_free(seed_population *s);
void raw_update(seed_population *s); /* the raw floor: one step_move per type, in place */

#define WB_64K ((size_t)1 << 16)
#define WB_256K ((size_t)1 << 18)
#define WB_1M ((size_t)1 << 20)

/* ---- harness.c: alternation, statistics, printing, JSON lines; targets go through
 * bench_target (bench.h) ---- */
#define WB_MAX_PASSES 15
typedef void (*wb_run_fn)(void *ctx, int variant);
/* Runs variants 0..n_variants-1 once per pass, starting one later each pass so no variant
 * always follows the same neighbour; t[v][p] is variant v's time in pass p, in ms. prepare
 * (NULL: none) runs untimed before each run. */
void wb_alternate(int n_variants, int passes, wb_run_fn prepare, wb_run_fn run, void *ctx,
                  double t[][WB_MAX_PASSES]);
/* Prints and records ns per entity (ms / per), min and median over the passes; returns the
 * min. n is the size of the case, per the number of entities a pass handled. */
double wb_emit(const char *op, const char *variant, size_t n, double per, const double *ms,
               int passes);
void wb_emit_bytes(const char *variant, size_t n, double bytes_per_entity);
void wb_require(int ok, const char *what); /* a wrong result: the program exits 1 */
/* A prepare for wb_alternate: reads 64 MiB, more than the caches hold, so the run after it
 * finds its data in memory. */
void wb_evict_caches(void *ctx, int variant);
/* bench_begin: the suite `suite` ("world", "world_blocks"), bench/results/<suite>.jsonl,
 * which every figure of wb_emit goes to; returns that file (NULL: not open). */
FILE *wb_open(const char *suite);
int wb_close(void); /* bench_end; returns 1 when a result check failed */
void *wb_alloc(size_t bytes);                 /* 64-byte aligned; exits when out of memory */
void wb_free(void *p, size_t bytes);
void wb_check(dod_status st, const char *what); /* exits when a world call fails */

/* ---- the block-size sweep (blocks.c runs it; docs/world-measurements.md, "Block size") ---- */
/* The blocks of a chunked archetype: its desc's block_bytes and first_block_bytes (0: the
 * defaults). */
typedef struct wb_layout {
    uint32_t block_bytes, first_block_bytes;
} wb_layout;
#define WB_MAX_LAYOUTS 20
/* What the sweep measures for one layout at one n: iterate over {P,V} and the seed's update
 * over chunked archetypes against the raw loop (ratios of minima; warm: the layout and raw
 * alternate as in the suite, so their data may stay in the caches; cold: the caches are
 * flushed before every run), spawn, move_pair and get1 (ns per entity, min), bytes per {P,V}
 * entity, and the block bytes a 20-entity {P,V} archetype holds. */
typedef struct wb_sweep {
    double iterate, iterate_cold, update, update_cold, spawn, move_pair, get1, bytes, bytes20;
} wb_sweep;

/* ---- seed_update.c: the seed's world, A and B fixed (capacity: the population's count), C
 * chunked; chunked: every archetype chunked with blocks `layout` ---- */
/* Its desc (arch: room for the three archetype descs it points at). */
dod_world_desc seed_world_desc(const seed_population *s, int chunked, wb_layout layout,
                               dod_archetype_desc arch[SEED_TYPES]);
/* The population spawned in its creation order, the k-th entity of a type from its values. */
dod_world *seed_world(const seed_population *s, int chunked, wb_layout layout);
/* The same from a desc of the seed's declaration (seed_world_desc's, changed). */
dod_world *seed_world_of(const seed_population *s, const dod_world_desc *d);

/* ---- the suites ---- */
void seed_update_bench(size_t n, int passes);       /* seed_update.c */
void scenarios_bench(size_t n, int passes, int targets); /* scenarios.c */
void frag_bench(int passes);                         /* frag.c */
void cold_bench(size_t n, int passes);               /* cold.c */
void cmds_frame_bench(size_t n);                     /* cmds_frame.c */
void commands_bench(size_t n, int passes, int targets);  /* commands.c */
/* commands.c: 2% of n entities moved, despawned, spawned, applied against direct calls */
void commands_scale_bench(uint32_t n, int passes, int targets);
/* The sweep's parts (n_layouts <= WB_MAX_LAYOUTS): each layout alternately with the raw loop,
 * warm and cold, for iterate and update; the layouts alternately for the ops. Each fills its
 * fields of out[0 .. n_layouts - 1]. */
void seed_update_sweep(size_t n, int passes, const wb_layout *layouts, int n_layouts,
                       wb_sweep *out);                                   /* seed_update.c */
void scenarios_sweep(uint32_t n, int passes, const wb_layout *layouts, int n_layouts,
                     wb_sweep *out);                                     /* scenarios.c */
void index_bench(int passes);                        /* index.c: relation indexes */
/* index.c: an index of row numbers read as a frame's world is read, n regiments; the targets
 * checked when `targets` */
void index_rows_bench(uint32_t n, int passes, int targets);
void snapshots_bench(size_t n, int passes);          /* snapshots.c: copy, publish */
void files_bench(size_t n, int passes);              /* files.c: save, load */
/* snapshots.c: the bytes a world's live rows and entity index hold (what a copy moves); 1 when
 * a and b hold the same entity index and rows (with_tag: the whole ids, else less the tag). */
size_t world_live_bytes(const dod_world *w);
int world_same_rows(const dod_world *a, const dod_world *b, int with_tag);

#endif
