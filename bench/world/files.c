/* World files (dod/world_io.h) at n entities of the seed's three types (the world of
 * seed_update.c), to a file in bench_tmp_dir() (/dev/shm where it can), each alternately with
 * its baseline, min and median of the passes; fopen and fclose are in every timing:
 *   save    dod_world_save against the seed's promise for its arrays: fwrite of the same pieces
 *           (the entity index, each block's ids and component columns) straight from the
 *           world's memory, no header, no checks
 *   load    dod_world_load with every check into a new world, against fread of the same
 *           pieces into a world that holds them (a copy of the saved one). Both worlds are
 *           created just before the timing, their memory from a recycling allocator
 *           (bench_recycler: what the previous pass freed), so both sides write into memory
 *           mapped and written before. On this VM a first write to a page costs ~3 us from the
 *           program and ~6 us from the kernel's read() (a 68 MB read() into fresh memory takes
 *           ~95 ms, into the same memory again ~11 ms), which would otherwise be most of
 *           either timing
 *   reload  dod_world_load into a world holding the previous load's entities (the file read
 *           whole into a staging buffer, checked in place, copied): no target
 * Targets at 1M: save <= 1.3x the fwrite, load <= 2x the fread. A loaded world that differs
 * from the saved one fails the program. */
#include <stdlib.h>
#include <string.h>
#include <dod/world.h>
#include "world_bench.h"
#include "world_layout.h"

enum { V_SAVE, V_FWRITE, N_SAVE_VARIANTS };
enum { V_LOAD, V_FREAD, V_RELOAD, N_LOAD_VARIANTS };
static const char *const save_names[N_SAVE_VARIANTS] = { "world_save", "fwrite" };
static const char *const load_names[N_LOAD_VARIANTS] = { "world_load", "fread", "reload" };

typedef struct files_run {
    const dod_world *live;
    dod_world_desc desc;  /* with DOD_WORLD_PREFAULT, from the recycler */
    bench_recycler recycler;
    dod_allocator alloc;
    dod_world *loaded;    /* load's target, new before each load */
    dod_world *reloaded;  /* reload's, holding the previous load */
    dod_world *raw;       /* fread's, holding the blocks */
    char path[V_FWRITE + 1][512];
    int failed;
} files_run;

static FILE *open_or_die(const char *path, const char *mode)
{
    FILE *f = fopen(path, mode);
    if (!f)
        bench_die(path);
    return f;
}

/* The world's live pieces in file order, each through io(ptr, bytes, f): the entity index,
 * then each archetype's ids and columns, block by block. 0 when an io came up short. */
static int raw_pieces(const dod_world *w, FILE *f, size_t (*io)(void *, size_t, size_t, FILE *))
{
    int ok = io(w->head.slots, 1, (size_t)w->head.n_slots * 8, f) ==
             (size_t)w->head.n_slots * 8;
    for (uint32_t i = 0; i < w->n_archetypes && ok; ++i) {
        const dod__world_arch *a = &w->arch[i];
        for (int col = -1; col < (int)a->n_cols && ok; ++col)
            for (uint32_t b = 0; b < dod__world_used_blocks(a) && ok; ++b) {
                size_t n = dod__world_block_rows(a, b);
                size_t bytes = col < 0 ? n * sizeof(dod_entity) : n * a->cols[col].size;
                void *at = col < 0 ? a->place->blocks[b] : dod__world_column(a, b, (uint32_t)col);
                ok = io(at, 1, bytes, f) == bytes;
            }
    }
    return ok;
}

static size_t write_piece(void *p, size_t size, size_t n, FILE *f)
{
    return fwrite(p, size, n, f);
}

static void run_save(void *ctx, int v)
{
    files_run *r = (files_run *)ctx;
    FILE *f = open_or_die(r->path[v], "wb");
    int ok = v == V_SAVE ? dod_world_save(r->live, f) == DOD_OK
                         : raw_pieces(r->live, f, write_piece);
    r->failed |= (fclose(f) != 0) | !ok;
}

/* load and fread each write into a world created just before (fread's a copy of the saved
 * one, so its blocks hold the rows the pieces go to), from memory the recycler kept: both sides
 * write into memory mapped and written before. */
static void load_prepare(void *ctx, int v)
{
    files_run *r = (files_run *)ctx;
    if (v == V_RELOAD)
        return;
    dod_world **w = v == V_LOAD ? &r->loaded : &r->raw;
    dod_world_destroy(*w);
    *w = NULL;
    wb_check(dod_world_create(w, &r->desc), "load target");
    if (v == V_FREAD)
        wb_check(dod_world_copy(*w, r->live), "fread target");
}

static void run_load(void *ctx, int v)
{
    files_run *r = (files_run *)ctx;
    FILE *f = open_or_die(r->path[v == V_FREAD ? V_FWRITE : V_SAVE], "rb");
    int ok;
    if (v == V_FREAD)
        ok = raw_pieces(r->raw, f, fread);
    else
        ok = dod_world_load(v == V_LOAD ? r->loaded : r->reloaded, f) == DOD_OK;
    fclose(f);
    r->failed |= !ok;
}

void files_bench(size_t n, int passes)
{
    seed_population s;
    seed_population_init(&s, n);
    const wb_layout defaults = { 0, 0 };
    dod_archetype_desc arch[SEED_TYPES];
    files_run r;
    memset(&r, 0, sizeof r);
    r.desc = seed_world_desc(&s, 0, defaults, arch);
    arch[SEED_C].capacity = (uint32_t)s.count[SEED_C]; /* every capacity known up front */
    r.desc.flags = DOD_WORLD_PREFAULT;
    r.alloc = bench_recycler_allocator(&r.recycler);
    r.desc.alloc = &r.alloc;
    dod_world *live = seed_world_of(&s, &r.desc);
    r.live = live;
    wb_check(dod_world_create(&r.raw, &r.desc), "fread target");
    wb_check(dod_world_copy(r.raw, live), "fread target");
    wb_check(dod_world_create(&r.reloaded, &r.desc), "reload target");
    wb_check(dod_world_copy(r.reloaded, live), "reload target");
    const char *dir = bench_tmp_dir();
    snprintf(r.path[V_SAVE], sizeof r.path[V_SAVE], "%s/dod_bench_world.dodw", dir);
    snprintf(r.path[V_FWRITE], sizeof r.path[V_FWRITE], "%s/dod_bench_world_raw.bin", dir);
    size_t file = dod_world_saved_size(live), raw = world_live_bytes(live);
    printf("files: the seed's mix at n %zu in %s: the file %.2f MB, the raw pieces %.2f MB\n", n,
           dir, (double)file / 1e6, (double)raw / 1e6);

    double t[N_SAVE_VARIANTS][WB_MAX_PASSES];
    wb_alternate(N_SAVE_VARIANTS, passes, NULL, run_save, &r, t);
    double mn[N_LOAD_VARIANTS], md[N_LOAD_VARIANTS];
    for (int v = 0; v < N_SAVE_VARIANTS; ++v) {
        mn[v] = wb_emit("save", save_names[v], n, (double)n, t[v], passes);
        md[v] = bench_median(t[v], passes);
    }
    wb_require(!r.failed, "save failed");
    printf("  save / fwrite: min %.3f, median %.3f\n", mn[V_SAVE] / mn[V_FWRITE],
           md[V_SAVE] / md[V_FWRITE]);
    if (n >= WB_1M)
        bench_target("x", mn[V_SAVE] / mn[V_FWRITE], BENCH_AT_MOST, 1.3,
                     "save world / fwrite (min), n %zu", n);

    double u[N_LOAD_VARIANTS][WB_MAX_PASSES];
    wb_alternate(N_LOAD_VARIANTS, passes, load_prepare, run_load, &r, u);
    for (int v = 0; v < N_LOAD_VARIANTS; ++v) {
        mn[v] = wb_emit("load", load_names[v], n, (double)n, u[v], passes);
        md[v] = bench_median(u[v], passes);
    }
    wb_require(!r.failed && world_same_rows(r.loaded, live, 0) &&
                   world_same_rows(r.reloaded, live, 0) && world_same_rows(r.raw, live, 1),
               "a loaded world differs from the saved one");
    printf("  load / fread: min %.3f, median %.3f; reload / fread: min %.3f, median %.3f\n",
           mn[V_LOAD] / mn[V_FREAD], md[V_LOAD] / md[V_FREAD], mn[V_RELOAD] / mn[V_FREAD],
           md[V_RELOAD] / md[V_FREAD]);
    if (n >= WB_1M)
        bench_target("x", mn[V_LOAD] / mn[V_FREAD], BENCH_AT_MOST, 2.0,
                     "load world (every check) / fread (min), n %zu", n);

    remove(r.path[V_SAVE]);
    remove(r.path[V_FWRITE]);
    dod_world_destroy(r.loaded);
    dod_world_destroy(r.reloaded);
    dod_world_destroy(r.raw);
    dod_world_destroy(live);
    bench_recycler_free(&r.recycler);
    seed_population_free(&s);
}
