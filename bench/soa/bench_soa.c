/* The seed's SoA benchmark (soa-hot-cold.txt), faithfully in C: an 88-byte Entity, N = 4M,
 * one pos += vel * dt pass per layout, 15 passes, min and median, for aos, hotcold, soa (a dod
 * table with a hot and a cold group) and aosoa (W = 8 and 16); the results compared bit for
 * bit after the passes, then a swap-remove checked as in the seed. Then the table's stable
 * radix sort against qsort of the same records as AoS, and handle throughput.
 * DOD_BENCH_QUICK=1: N = 256k, 3 passes. A timing target missed prints MISS and exits 0; a
 * wrong result exits 1. */
#include <dod/table_typed.h>
#include <dod/aosoa.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"

/* ---- the seed's three layouts ----
 * _Alignas(8) on id: the seed's layouts assume 8-byte aligned uint64_t (4 bytes of padding
 * before id), as on every 64-bit ABI; i386 aligns uint64_t to 4 in structs, which would
 * make Entity 84 and Cold 60 bytes there. On 64-bit targets it changes nothing. */
typedef struct Entity {
    float pos[3], vel[3];
    float mass, health;
    uint32_t flags;
    _Alignas(8) uint64_t id;
    uint64_t owner, spawned;
    char name[24];
} Entity;
typedef struct Hot { float pos[3], vel[3]; } Hot;
typedef struct Cold {
    float mass, health;
    uint32_t flags;
    _Alignas(8) uint64_t id;
    uint64_t owner, spawned;
    char name[24];
} Cold;
/* The seed's sizes are those of a 64-bit ABI; i386 aligns a uint64_t member to 4, so there
 * Entity is 84 bytes and Cold 60 (the benchmark prints the sizes it ran with). */
_Static_assert(sizeof(Hot) == 24, "seed sizes");
_Static_assert(sizeof(void *) == 4 || (sizeof(Entity) == 88 && sizeof(Cold) == 64), "seed sizes");

/* The dod table: the hot group streams 24 bytes a row, the cold group is never touched. */
typedef char name24[24];
#define ENTITY(X)                                                                              \
    X(float, px, 0) X(float, py, 0) X(float, pz, 0) X(float, vx, 0) X(float, vy, 0)           \
    X(float, vz, 0) X(float, mass, 1) X(float, health, 1) X(uint32_t, flags, 1)                \
    X(uint64_t, id, 1) X(uint64_t, owner, 1) X(uint64_t, spawned, 1) X(name24, name, 1)
DOD_TABLE_TYPED(ent, ENTITY)

/* AoSoA tiles of the hot fields; the cold fields stay in a Cold array with the same index. */
#define HOT_FIELDS(X)                                                                          \
    X(float, px, 0) X(float, py, 0) X(float, pz, 0) X(float, vx, 0) X(float, vy, 0) X(float, vz, 0)
DOD_AOSOA(hot8, 8, HOT_FIELDS)
DOD_AOSOA(hot16, 16, HOT_FIELDS)

/* ---- the step loops: small functions taking restrict pointers ---- */
static void step_aos(Entity *restrict v, size_t n, float dt)
{
    for (size_t i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k)
            v[i].pos[k] += v[i].vel[k] * dt;
}

static void step_hot(Hot *restrict v, size_t n, float dt)
{
    for (size_t i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k)
            v[i].pos[k] += v[i].vel[k] * dt;
}

static void step_axis(float *restrict p, const float *restrict v, size_t n, float dt)
{
    for (size_t i = 0; i < n; ++i)
        p[i] += v[i] * dt;
}

static void step_soa(ent_cols c, size_t n, float dt)
{
    step_axis(c.px, c.vx, n, dt);
    step_axis(c.py, c.vy, n, dt);
    step_axis(c.pz, c.vz, n, dt);
}

static inline void tile8(hot8 *restrict t, size_t lanes, const float *dt)
{
    const float d = *dt;
    for (size_t l = 0; l < lanes; ++l) {
        t->px[l] += t->vx[l] * d;
        t->py[l] += t->vy[l] * d;
        t->pz[l] += t->vz[l] * d;
    }
}

static inline void tile16(hot16 *restrict t, size_t lanes, const float *dt)
{
    const float d = *dt;
    for (size_t l = 0; l < lanes; ++l) {
        t->px[l] += t->vx[l] * d;
        t->py[l] += t->vy[l] * d;
        t->pz[l] += t->vz[l] * d;
    }
}

static void step_aosoa8(hot8 *tiles, size_t n, float dt)
{
    DOD_AOSOA_EACH(tiles, n, 8, tile8, &dt);
}

static void step_aosoa16(hot16 *tiles, size_t n, float dt)
{
    DOD_AOSOA_EACH(tiles, n, 16, tile16, &dt);
}

/* ---- plumbing ---- */
static uint32_t lcg = 1;
static float rnd(void)
{
    lcg = lcg * 1664525u + 1013904223u;
    return (float)(lcg >> 8) / 16777216.0f;
}

static volatile float black_box_dt = 0.01f;

static void *must(void *p)
{
    if (!p)
        bench_die("bench_soa: out of memory");
    return p;
}

static FILE *results;
static void emit(const char *variant, const char *op, size_t n, const double *t, int passes,
                 size_t bytes_per_record)
{
    double mn = bench_min(t, passes), med = bench_median(t, passes);
    printf("%-8s %-7s min %8.2f ms  median %8.2f ms  %zu B/record\n", variant, op, mn, med,
           bytes_per_record);
    if (results)
        fprintf(results,
                "{\"bench\":\"soa\",\"variant\":\"%s\",\"op\":\"%s\",\"n\":%zu,\"ms_min\":%.3f,"
                "\"ms_median\":%.3f,\"bytes_per_record\":%zu}\n",
                variant, op, n, mn, med, bytes_per_record);
}

static int failed;
static void require(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "bench_soa: wrong result: %s\n", what);
        failed = 1;
    }
}

#define MAX_PASSES 15

/* Bytes of one row over every column (no padding between fields in a table). */
static size_t column_bytes(const dod_table *t)
{
    size_t sum = 0;
    for (uint32_t c = 0; c < t->n_cols; ++c)
        sum += t->desc[c].size;
    return sum;
}

/* ---- the seed's step benchmark ---- */
static void bench_step(size_t n, int passes, double *soa_min_out, double *aos_min,
                       double *hot_min, double *best_aosoa_min)
{
    Entity *aos = (Entity *)must(malloc(n * sizeof *aos));
    for (size_t i = 0; i < n; ++i) {
        Entity e;
        memset(&e, 0, sizeof e);
        for (int k = 0; k < 3; ++k)
            e.pos[k] = rnd();
        for (int k = 0; k < 3; ++k)
            e.vel[k] = rnd();
        e.mass = 1.0f;
        e.health = 100.0f;
        e.id = i;
        aos[i] = e;
    }
    Hot *hot = (Hot *)must(malloc(n * sizeof *hot));
    Cold *cold = (Cold *)must(malloc(n * sizeof *cold));
    for (size_t i = 0; i < n; ++i) {
        memcpy(hot[i].pos, aos[i].pos, 12);
        memcpy(hot[i].vel, aos[i].vel, 12);
        cold[i].mass = aos[i].mass;
        cold[i].health = aos[i].health;
        cold[i].flags = aos[i].flags;
        cold[i].id = aos[i].id;
        cold[i].owner = aos[i].owner;
        cold[i].spawned = aos[i].spawned;
        memcpy(cold[i].name, aos[i].name, 24);
    }
    dod_table table;
    ent_init(&table, NULL);
    if (dod_table_reserve(&table, (uint32_t)n) != DOD_OK)
        must(NULL);
    ent_handle h;
    for (size_t i = 0; i < n; ++i) {
        ent_row r;
        r.px = aos[i].pos[0], r.py = aos[i].pos[1], r.pz = aos[i].pos[2];
        r.vx = aos[i].vel[0], r.vy = aos[i].vel[1], r.vz = aos[i].vel[2];
        r.mass = aos[i].mass, r.health = aos[i].health, r.flags = aos[i].flags;
        r.id = aos[i].id, r.owner = aos[i].owner, r.spawned = aos[i].spawned;
        memcpy(r.name, aos[i].name, 24);
        if (ent_push(&table, &r, &h) != DOD_OK)
            must(NULL);
    }
    ent_cols cols = ent_columns(&table);
    hot16_soa hot_soa = { cols.px, cols.py, cols.pz, cols.vx, cols.vy, cols.vz };
    hot8_soa hot_soa8 = { cols.px, cols.py, cols.pz, cols.vx, cols.vy, cols.vz };
    hot8 *t8 = (hot8 *)must(dod_heap_allocator().alloc(NULL, hot8_tiles(n) * sizeof(hot8), 64));
    hot16 *t16 =
        (hot16 *)must(dod_heap_allocator().alloc(NULL, hot16_tiles(n) * sizeof(hot16), 64));
    hot8_from_soa(t8, hot_soa8, n);
    hot16_from_soa(t16, hot_soa, n);

    /* Every pass runs every layout once, starting one later each pass, so no layout always
     * follows the same neighbour (whose dirty lines it would write back). */
    enum { L_AOS, L_HOT, L_SOA, L_A8, L_A16, N_LAYOUTS };
    double t[N_LAYOUTS][MAX_PASSES];
    for (int p = 0; p < passes; ++p) {
        for (int k = 0; k < N_LAYOUTS; ++k) {
            int l = (k + p) % N_LAYOUTS;
            double t0 = bench_now_ms();
            switch (l) {
            case L_AOS: step_aos(aos, n, black_box_dt); break;
            case L_HOT: step_hot(hot, n, black_box_dt); break;
            case L_SOA: step_soa(ent_columns(&table), dod_table_count(&table), black_box_dt); break;
            case L_A8: step_aosoa8(t8, n, black_box_dt); break;
            default: step_aosoa16(t16, n, black_box_dt); break;
            }
            t[l][p] = bench_now_ms() - t0;
        }
    }
    double *t_aos = t[L_AOS], *t_hot = t[L_HOT], *t_soa = t[L_SOA], *t_a8 = t[L_A8],
           *t_a16 = t[L_A16];
    printf("size_of Entity %zu B, Hot %zu B, Cold %zu B; table row %zu B in %u groups\n",
           sizeof(Entity), sizeof(Hot), sizeof(Cold), column_bytes(&table), table.n_groups);
    emit("aos", "step", n, t_aos, passes, sizeof(Entity));
    emit("hotcold", "step", n, t_hot, passes, sizeof(Hot));
    emit("soa", "step", n, t_soa, passes, 6 * sizeof(float));
    emit("aosoa8", "step", n, t_a8, passes, 6 * sizeof(float));
    emit("aosoa16", "step", n, t_a16, passes, 6 * sizeof(float));

    /* Every layout ran the same passes from the same start: bit for bit equal. */
    int same = 1;
    for (size_t i = 0; i < n && same; ++i) {
        float s[3] = { cols.px[i], cols.py[i], cols.pz[i] };
        float a8[3] = { t8[i / 8].px[i % 8], t8[i / 8].py[i % 8], t8[i / 8].pz[i % 8] };
        float a16[3] = { t16[i / 16].px[i % 16], t16[i / 16].py[i % 16], t16[i / 16].pz[i % 16] };
        same = memcmp(aos[i].pos, hot[i].pos, 12) == 0 && memcmp(aos[i].pos, s, 12) == 0 &&
               memcmp(aos[i].pos, a8, 12) == 0 && memcmp(aos[i].pos, a16, 12) == 0;
    }
    require(same, "layouts differ after the passes");

    /* The seed's swap-remove: the last entity moves to row 3 and its handle follows. */
    size_t last = n - 1;
    dod_table_handle moved = dod_table_handle_at(&table, (uint32_t)last);
    require(dod_table_remove(&table, dod_table_handle_at(&table, 3)) == DOD_OK, "remove row 3");
    cols = ent_columns(&table);
    uint32_t row = 0;
    require(dod_table_count(&table) == n - 1, "len after remove");
    require(cols.px[3] == aos[last].pos[0] && cols.id[3] == aos[last].id, "moved row");
    require(dod_table_find(&table, moved, &row) == DOD_OK && row == 3, "moved handle");
    if (!failed)
        printf("ok, moved id %llu to slot 3\n", (unsigned long long)aos[last].id);

    *aos_min = bench_min(t_aos, passes);
    *hot_min = bench_min(t_hot, passes);
    *soa_min_out = bench_min(t_soa, passes);
    double m8 = bench_min(t_a8, passes), m16 = bench_min(t_a16, passes);
    *best_aosoa_min = m8 < m16 ? m8 : m16;
    dod_heap_allocator().free(NULL, t8, hot8_tiles(n) * sizeof(hot8));
    dod_heap_allocator().free(NULL, t16, hot16_tiles(n) * sizeof(hot16));
    dod_table_free(&table);
    free(aos);
    free(hot);
    free(cold);
}

/* ---- sort: the table's radix sort vs qsort of the same records as AoS ---- */
typedef struct Rec6 { uint32_t key; float a, b, c; uint32_t d, e; } Rec6;
#define REC6(X) X(uint32_t, key, 0) X(float, a, 0) X(float, b, 0) X(float, c, 0) \
                X(uint32_t, d, 0) X(uint32_t, e, 0)
DOD_TABLE_TYPED(rec6, REC6)

static int cmp_rec6(const void *x, const void *y)
{
    uint32_t a = ((const Rec6 *)x)->key, b = ((const Rec6 *)y)->key;
    return (a > b) - (a < b);
}

static double bench_sort_table(size_t n, int passes)
{
    Rec6 *master = (Rec6 *)must(malloc(n * sizeof *master));
    Rec6 *work = (Rec6 *)must(malloc(n * sizeof *work));
    dod_table src, t;
    rec6_init(&src, NULL);
    rec6_init(&t, NULL);
    rec6_handle h;
    for (size_t i = 0; i < n; ++i) {
        lcg = lcg * 1664525u + 1013904223u;
        Rec6 r = { lcg, rnd(), rnd(), rnd(), (uint32_t)(i * 7), (uint32_t)i };
        master[i] = r;
        rec6_row row = { r.key, r.a, r.b, r.c, r.d, r.e };
        if (rec6_push(&src, &row, &h) != DOD_OK)
            must(NULL);
    }
    double t_dod[MAX_PASSES], t_q[MAX_PASSES];
    for (int p = 0; p < passes; ++p) {
        if (dod_table_copy(&t, &src) != DOD_OK)
            must(NULL);
        double t0 = bench_now_ms();
        if (dod_table_sort_u32(&t, DOD_COL(rec6, key)) != DOD_OK)
            must(NULL);
        double t1 = bench_now_ms();
        memcpy(work, master, n * sizeof *work);
        double t2 = bench_now_ms();
        qsort(work, n, sizeof *work, cmp_rec6);
        double t3 = bench_now_ms();
        t_dod[p] = t1 - t0, t_q[p] = t3 - t2;
    }
    emit("dod", "sort", n, t_dod, passes, sizeof(Rec6));
    emit("qsort", "sort", n, t_q, passes, sizeof(Rec6));
    rec6_cols c = rec6_columns(&t);
    int ok = 1;
    for (size_t i = 0; i < n && ok; ++i)
        ok = c.key[i] == work[i].key && c.key[i] == master[c.e[i]].key &&
             c.a[i] == master[c.e[i]].a && (i == 0 || c.key[i - 1] < c.key[i] ||
                                            (c.key[i - 1] == c.key[i] && c.e[i - 1] < c.e[i]));
    require(ok, "sorted table");
    uint32_t row;
    require(rec6_find(&t, h, &row) == DOD_OK && c.e[row] == n - 1, "handle after sort");
    dod_table_free(&src);
    dod_table_free(&t);
    free(master);
    free(work);
    return bench_min(t_dod, passes) / bench_min(t_q, passes);
}

/* ---- handles: push, find, remove per second on the entity table ---- */
static void bench_handles(size_t n, int passes)
{
    dod_table t;
    ent_init(&t, NULL);
    dod_table_handle *hs = (dod_table_handle *)must(malloc(n * sizeof *hs));
    uint32_t *order = (uint32_t *)must(malloc(n * sizeof *order));
    for (size_t i = 0; i < n; ++i)
        order[i] = (uint32_t)i;
    for (size_t i = n; i > 1; --i) {
        lcg = lcg * 1664525u + 1013904223u;
        size_t j = (size_t)(((uint64_t)lcg * i) >> 32);
        uint32_t x = order[i - 1];
        order[i - 1] = order[j];
        order[j] = x;
    }
    double t_push[MAX_PASSES], t_find[MAX_PASSES], t_rm[MAX_PASSES];
    uint64_t sum = 0;
    for (int p = 0; p < passes; ++p) {
        double t0 = bench_now_ms();
        for (size_t i = 0; i < n; ++i)
            if (dod_table_push(&t, &hs[i]) != DOD_OK)
                must(NULL);
        double t1 = bench_now_ms();
        for (size_t i = 0; i < n; ++i) {
            uint32_t row = 0;
            dod_table_find(&t, hs[order[i]], &row);
            sum += row;
        }
        double t2 = bench_now_ms();
        for (size_t i = 0; i < n; ++i)
            dod_table_remove(&t, hs[order[i]]);
        double t3 = bench_now_ms();
        require(dod_table_count(&t) == 0, "every handle removed");
        t_push[p] = t1 - t0, t_find[p] = t2 - t1, t_rm[p] = t3 - t2;
    }
    bench_sink = sum;
    size_t row_bytes = column_bytes(&t) + sizeof(uint32_t) + sizeof(dod_table_slot);
    emit("handle", "push", n, t_push, passes, row_bytes);
    emit("handle", "find", n, t_find, passes, row_bytes);
    emit("handle", "remove", n, t_rm, passes, row_bytes);
    printf("handles: push %.1f M/s, find %.1f M/s, remove %.1f M/s (best pass)\n",
           (double)n / bench_min(t_push, passes) / 1e3, (double)n / bench_min(t_find, passes) / 1e3,
           (double)n / bench_min(t_rm, passes) / 1e3);
    dod_table_free(&t);
    free(hs);
    free(order);
}

int main(void)
{
    int quick = bench_quick();
    size_t n = quick ? 256u * 1024u : 4000000u;
    int passes = quick ? 3 : 15, sort_passes = quick ? 3 : 5;
    results = bench_begin("soa", "soa");
    printf("bench_soa: N = %zu, %d passes%s\n", n, passes, quick ? " (quick)" : "");
    double soa_min, aos_min, hot_min, aosoa_min;
    bench_step(n, passes, &soa_min, &aos_min, &hot_min, &aosoa_min);
    double sort_ratio = bench_sort_table(n, sort_passes);
    bench_handles(n, sort_passes);
    bench_target("x", soa_min / aos_min, BENCH_AT_MOST, 0.35, "step soa / aos, N %zu", n);
    bench_target("x", hot_min / aos_min, BENCH_AT_MOST, 0.6, "step hotcold / aos, N %zu", n);
    bench_target("x", aosoa_min / soa_min, BENCH_AT_MOST, 1.1, "step best aosoa / soa, N %zu", n);
    bench_target("x", sort_ratio, BENCH_AT_MOST, 0.5, "sort dod table / qsort, N %zu", n);
    return bench_end(failed);
}
