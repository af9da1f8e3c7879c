/* Save and load of the jagged index to a file (in /dev/shm where it can: choose_paths), three
 * ways, alternating per repetition:
 *   dod     dod_csr_save; `load` = the trusted path (one fread of the file into a held buffer and
 *           a view opened at DOD_CSR_VIEW_VALIDATE_HEADER, O(1)); `load_full` = dod_csr_load, which checks
 *           everything (CRC-32C, every offset and item), into a cleared index holding capacity
 *           (a map load: the items are read in place); `reload_full` the same into an index
 *           that still holds the previous contents (staged in its scratch, then copied).
 *   naive   what a game writes for a vector of vectors: each row's size then its elements;
 *           read back into one heap array per row ({ptr, len} per row).
 *   fwrite  the seed's promise: raw fwrite/fread of the two arrays (plus the two counts) into
 *           held buffers, no checks at all.
 * Appends to bench/results/csr.jsonl; targets (ratios of minima): dod save and load <= 1.2x the
 * raw fwrite/fread and load_full <= 2x the raw fread (a miss is reported, exit status 0). Then
 * the CRC-32C paths' speeds (crc_speed.c). */
#include <dod/csr_io.h>
#include <dod/csr_view.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "crc_speed.h"
#include "regiments.h"

typedef struct row { uint32_t *ptr; uint32_t len; } row;

enum { V_DOD, V_NAIVE, V_FWRITE, N_VARIANTS };
enum { OP_SAVE, OP_LOAD, OP_LOAD_FULL, OP_RELOAD_FULL, N_OPS };
static const char *variant_name[N_VARIANTS] = { "dod", "naive", "fwrite" };
static const char *op_name[N_OPS] = { "save", "load", "load_full", "reload_full" };
static const char *file_of[N_VARIANTS] = { "dod_bench_csr_io_dod.bin",
                                           "dod_bench_csr_io_naive.bin",
                                           "dod_bench_csr_io_fwrite.bin" };
static char path_of[N_VARIANTS][512];

/* The full-validation loads exist for dod only. */
static int measured(int v, int op)
{
    return op < OP_LOAD_FULL || v == V_DOD;
}

/* The files go to bench_tmp_dir(): /dev/shm where it can. */
static void choose_paths(void)
{
    const char *dir = bench_tmp_dir();
    for (int v = 0; v < N_VARIANTS; ++v)
        snprintf(path_of[v], sizeof path_of[v], "%s/%s", dir, file_of[v]);
    printf("bench_csr_io: files in %s\n", dir);
}

typedef struct world {
    dod_csr idx;        /* the index being saved */
    dod_csr loaded;     /* dod_csr_load's target, holding capacity after the first load */
    bench_counter loaded_count;
    unsigned char *image; /* the trusted path's held buffer */
    size_t image_cap;
    row *rows;          /* the naive vectors to save */
    row *naive_loaded;  /* the naive load's result */
    uint32_t naive_rows;
    uint32_t *raw_offsets, *raw_items; /* fwrite's held buffers */
    long naive_allocs;
} world;

static FILE *open_or_die(const char *path, const char *mode)
{
    FILE *f = fopen(path, mode);
    if (!f) {
        fprintf(stderr, "bench_csr_io: cannot open %s\n", path);
        exit(1);
    }
    return f;
}

static void free_naive(world *w)
{
    if (!w->naive_loaded)
        return;
    for (uint32_t r = 0; r < w->naive_rows; ++r)
        free(w->naive_loaded[r].ptr);
    free(w->naive_loaded);
    w->naive_loaded = NULL;
}

static int save(world *w, int v)
{
    FILE *f = open_or_die(path_of[v], "wb");
    int ok = 1;
    const dod_csr *c = &w->idx;
    if (v == V_DOD) {
        ok = dod_csr_save(c, f) == DOD_OK;
    } else if (v == V_NAIVE) {
        ok = fwrite(&c->n_rows, 4, 1, f) == 1;
        for (uint32_t r = 0; r < c->n_rows && ok; ++r) {
            ok = fwrite(&w->rows[r].len, 4, 1, f) == 1;
            if (ok && w->rows[r].len)
                ok = fwrite(w->rows[r].ptr, 4, w->rows[r].len, f) == w->rows[r].len;
        }
    } else {
        ok = fwrite(&c->n_rows, 4, 1, f) == 1 && fwrite(&c->n_items, 4, 1, f) == 1 &&
             fwrite(c->offsets, 4, (size_t)c->n_rows + 1, f) == (size_t)c->n_rows + 1 &&
             fwrite(c->items, 4, c->n_items, f) == c->n_items;
    }
    return fclose(f) == 0 && ok;
}

static int load(world *w, int v, int op)
{
    FILE *f = open_or_die(path_of[v], "rb");
    int ok = 1;
    if (v == V_DOD && op >= OP_LOAD_FULL) {
        if (op == OP_LOAD_FULL)
            dod_csr_clear(&w->loaded); /* nothing to keep: the items go straight in */
        ok = dod_csr_load(&w->loaded, f) == DOD_OK;
    } else if (v == V_DOD) { /* one fread into a buffer big enough, then an O(1) view */
        size_t size = fread(w->image, 1, w->image_cap, f);
        dod_csr_view view;
        ok = dod_csr_view_open(&view, w->image, size, DOD_CSR_VIEW_VALIDATE_HEADER) == DOD_OK;
        bench_sink += ok ? view.offsets[view.n_rows] : 0;
    } else if (v == V_NAIVE) {
        uint32_t n = 0;
        ok = fread(&n, 4, 1, f) == 1;
        w->naive_rows = n;
        w->naive_loaded = (row *)calloc(n ? n : 1, sizeof(row));
        w->naive_allocs = 1;
        for (uint32_t r = 0; r < n && ok; ++r) {
            row *x = &w->naive_loaded[r];
            ok = fread(&x->len, 4, 1, f) == 1;
            if (ok && x->len) {
                x->ptr = (uint32_t *)malloc((size_t)x->len * 4);
                w->naive_allocs++;
                ok = x->ptr && fread(x->ptr, 4, x->len, f) == x->len;
            }
        }
    } else {
        uint32_t counts[2];
        ok = fread(counts, 4, 2, f) == 2 && counts[0] <= w->idx.n_rows &&
             counts[1] <= w->idx.n_items &&
             fread(w->raw_offsets, 4, (size_t)counts[0] + 1, f) == (size_t)counts[0] + 1 &&
             fread(w->raw_items, 4, counts[1], f) == counts[1];
    }
    fclose(f);
    return ok;
}

/* The loads produced the index that was saved. */
static int verify(world *w)
{
    const dod_csr *c = &w->idx;
    int ok = dod_csr_equal(&w->loaded, c) && w->naive_rows == c->n_rows &&
             memcmp(w->raw_offsets, c->offsets, ((size_t)c->n_rows + 1) * 4) == 0 &&
             memcmp(w->raw_items, c->items, (size_t)c->n_items * 4) == 0;
    for (uint32_t r = 0; r < c->n_rows && ok; ++r)
        ok = w->naive_loaded[r].len == dod_csr_row_len(c, r) &&
             (w->naive_loaded[r].len == 0 ||
              memcmp(w->naive_loaded[r].ptr, dod_csr_row_begin(c, r), (size_t)w->naive_loaded[r].len * 4) == 0);
    return ok;
}

static long file_bytes(const char *path)
{
    FILE *f = open_or_die(path, "rb");
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

static int run_size(FILE *out, uint32_t n_rows, int runs)
{
    const uint32_t n_items = 6 * n_rows;
    const regiment_dist dist = DIST_LONGTAIL;
    Regiment *regs = (Regiment *)malloc((size_t)n_items * sizeof *regs);
    regiments_generate(regs, n_items, n_rows, dist);
    world w;
    memset(&w, 0, sizeof w);
    dod_allocator counted = bench_counter_allocator(&w.loaded_count);
    dod_csr_init(&w.idx, NULL);
    dod_csr_init(&w.loaded, &counted);
    if (dod_csr_build(&w.idx, n_rows, &regs->location, sizeof *regs, n_items) != DOD_OK)
        return 0;
    free(regs);
    w.image_cap = dod_csr_saved_size(&w.idx);
    w.image = (unsigned char *)dod_heap_allocator().alloc(NULL, w.image_cap, 64); /* views need 4 */
    w.rows = (row *)calloc(n_rows, sizeof(row));
    for (uint32_t r = 0; r < n_rows; ++r) { /* a vector per location, as the game holds it */
        w.rows[r].len = dod_csr_row_len(&w.idx, r);
        if (w.rows[r].len) {
            w.rows[r].ptr = (uint32_t *)malloc((size_t)w.rows[r].len * 4);
            memcpy(w.rows[r].ptr, dod_csr_row_begin(&w.idx, r), (size_t)w.rows[r].len * 4);
        }
    }
    w.raw_offsets = (uint32_t *)malloc(((size_t)n_rows + 1) * 4);
    w.raw_items = (uint32_t *)malloc((size_t)n_items * 4);

    double t[N_VARIANTS][N_OPS][15];
    long allocs[N_VARIANTS][N_OPS] = { { 0 } };
    int ok = 1;
    for (int rep = 0; rep < runs && ok; ++rep) {
        for (int k = 0; k < N_VARIANTS && ok; ++k) {
            int v = (rep + k) % N_VARIANTS; /* alternate which variant goes first */
            double t0 = bench_now_ms();
            ok = save(&w, v);
            t[v][OP_SAVE][rep] = bench_now_ms() - t0;
            for (int op = OP_LOAD; op < N_OPS && ok; ++op) {
                if (!measured(v, op))
                    continue;
                long before = w.loaded_count.allocs;
                t0 = bench_now_ms();
                ok = load(&w, v, op);
                t[v][op][rep] = bench_now_ms() - t0;
                allocs[v][op] = v == V_NAIVE ? w.naive_allocs : w.loaded_count.allocs - before;
                if (v == V_NAIVE && rep + 1 < runs)
                    free_naive(&w);
            }
        }
    }
    if (!ok || !verify(&w)) {
        fprintf(stderr, "bench_csr_io: a save or load failed or gave other contents\n");
        return 0;
    }
    double mins[N_VARIANTS][N_OPS], meds[N_VARIANTS][N_OPS];
    for (int v = 0; v < N_VARIANTS; ++v) {
        for (int op = 0; op < N_OPS; ++op) {
            if (!measured(v, op))
                continue;
            mins[v][op] = bench_min(t[v][op], runs);
            meds[v][op] = bench_median(t[v][op], runs);
            long bytes = file_bytes(path_of[v]);
            printf("%-7s %-9s n_rows=%-8u ms_min=%8.3f ms_median=%8.3f bytes=%ld allocs=%ld\n",
                   variant_name[v], op_name[op], n_rows, mins[v][op], meds[v][op], bytes,
                   op == OP_SAVE ? 0 : allocs[v][op]);
            if (out)
                fprintf(out,
                        "{\"bench\":\"csr\",\"variant\":\"%s\",\"op\":\"%s\",\"dist\":\"%s\","
                        "\"n_rows\":%u,\"n_items\":%u,\"threads\":1,\"ms_min\":%.4f,"
                        "\"ms_median\":%.4f,\"bytes\":%ld,\"allocs\":%ld}\n",
                        variant_name[v], op_name[op], regiment_dist_name(dist), n_rows, n_items,
                        mins[v][op], meds[v][op], bytes, op == OP_SAVE ? 0 : allocs[v][op]);
        }
    }
    const struct { int op, base_op; double limit; } goals[] = {
        { OP_SAVE, OP_SAVE, 1.2 }, { OP_LOAD, OP_LOAD, 1.2 }, { OP_LOAD_FULL, OP_LOAD, 2.0 } };
    const int n_goals = (int)(sizeof goals / sizeof goals[0]);
    printf("medians, dod / fwrite:");
    for (int g = 0; g < n_goals; ++g)
        printf(" %s %.2fx", op_name[goals[g].op],
               meds[V_DOD][goals[g].op] / meds[V_FWRITE][goals[g].base_op]);
    printf("\n");
    for (int g = 0; g < n_goals; ++g)
        bench_target("x", mins[V_DOD][goals[g].op] / mins[V_FWRITE][goals[g].base_op],
                     BENCH_AT_MOST, goals[g].limit, "dod %s / fwrite %s (min), %u rows",
                     op_name[goals[g].op], op_name[goals[g].base_op], n_rows);
    free_naive(&w);
    for (uint32_t r = 0; r < n_rows; ++r)
        free(w.rows[r].ptr);
    free(w.rows);
    free(w.raw_offsets);
    free(w.raw_items);
    dod_heap_allocator().free(NULL, w.image, w.image_cap);
    dod_csr_free(&w.idx);
    dod_csr_free(&w.loaded);
    for (int v = 0; v < N_VARIANTS; ++v)
        remove(path_of[v]);
    return 1;
}

int main(void)
{
    FILE *out = bench_begin("csr_io", "csr");
    choose_paths();
    const int quick = bench_quick();
    const int runs = quick ? 3 : 15;
    int ok = run_size(out, 65536, runs);
    if (ok && !quick)
        ok = run_size(out, 1000000, runs);
    if (ok)
        crc_speed_bench(out, quick);
    return bench_end(ok ? 0 : 1);
}
