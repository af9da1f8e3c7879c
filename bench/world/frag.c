/* frag_iter (the ecs_benchmark suites'): 26 archetypes of 20 entities, each archetype Data and
 * a tag of its own, one query over Data doubling it, against the raw loop over 26 plain
 * arrays of 20. A pass runs FRAG_REPS sweeps from the same start values (set before the
 * timing, so the floats stay finite), and the two must end bit for bit equal. */
#include <string.h>
#include <dod/world.h>
#include "world_bench.h"

#define FRAG_TYPES 26
#define FRAG_ROWS 20
#define FRAG_N (FRAG_TYPES * FRAG_ROWS)
#define FRAG_REPS 100
#define DATA 0u /* component ids: Data, then tag a at 1 + a */

typedef struct tag { uint32_t v; } tag;

typedef struct frag_run {
    dod_world *w;
    dod_query q;
    dod_entity ids[FRAG_N]; /* archetype a's row r is ids[a * FRAG_ROWS + r] */
    data start[FRAG_N], raw[FRAG_N];
} frag_run;

static dod_world *frag_world(dod_entity *ids)
{
    dod_component_desc comps[1 + FRAG_TYPES];
    uint32_t members[FRAG_TYPES][2];
    dod_archetype_desc arch[FRAG_TYPES];
    memset(arch, 0, sizeof arch);
    comps[DATA] = (dod_component_desc){ "data", sizeof(data), _Alignof(data) };
    for (uint32_t a = 0; a < FRAG_TYPES; ++a) {
        comps[1 + a] = (dod_component_desc){ "tag", sizeof(tag), _Alignof(tag) };
        members[a][0] = DATA;
        members[a][1] = 1 + a;
        arch[a].name = "frag";
        arch[a].components = members[a];
        arch[a].n_components = 2;
    }
    dod_world_desc d = { comps, 1 + FRAG_TYPES, arch, FRAG_TYPES, NULL, 0 };
    dod_world *w = NULL;
    wb_check(dod_world_create(&w, &d), "frag create");
    for (uint32_t i = 0; i < FRAG_N; ++i)
        wb_check(dod_world_spawn(w, i / FRAG_ROWS, &ids[i]), "frag spawn");
    return w;
}

static void prepare(void *ctx, int variant)
{
    frag_run *r = (frag_run *)ctx;
    if (variant == 1) {
        memcpy(r->raw, r->start, sizeof r->raw);
        return;
    }
    for (uint32_t i = 0; i < FRAG_N; ++i)
        memcpy(dod_world_get(r->w, r->ids[i], DATA), &r->start[i], sizeof(data));
}

static void run(void *ctx, int variant)
{
    frag_run *r = (frag_run *)ctx;
    for (int rep = 0; rep < FRAG_REPS; ++rep) {
        if (variant == 1) {
            for (uint32_t a = 0; a < FRAG_TYPES; ++a)
                step_double(FRAG_ROWS, r->raw + a * FRAG_ROWS);
            continue;
        }
        dod_world_iter it;
        dod_world_iter_init(&it, r->w, &r->q);
        while (dod_world_next(&it))
            step_double(it.n, (data *)dod_world_field(&it, DATA));
    }
}

void frag_bench(int passes)
{
    frag_run *r = (frag_run *)wb_alloc(sizeof *r);
    r->w = frag_world(r->ids);
    const uint32_t all[1] = { DATA };
    wb_check(dod_query_init(&r->q, r->w, all, 1, NULL, 0), "frag query");
    for (uint32_t i = 0; i < FRAG_N; ++i)
        for (uint32_t k = 0; k < 12; ++k)
            r->start[i].v[k] = 1.0f + (float)(i * 12 + k) / 1024.0f;

    double t[2][WB_MAX_PASSES];
    printf("frag_iter: %d archetypes of %d, %d sweeps a pass\n", FRAG_TYPES, FRAG_ROWS,
           FRAG_REPS);
    wb_alternate(2, passes, prepare, run, r, t);
    double world = wb_emit("frag_iter", "world", FRAG_N, FRAG_N * FRAG_REPS, t[0], passes);
    double raw = wb_emit("frag_iter", "raw", FRAG_N, FRAG_N * FRAG_REPS, t[1], passes);
    printf("  ratio frag_iter world / raw %.2f\n", world / raw);
    int same = 1;
    for (uint32_t i = 0; i < FRAG_N; ++i)
        same &= memcmp(dod_world_get(r->w, r->ids[i], DATA), &r->raw[i], sizeof(data)) == 0;
    wb_require(same, "frag_iter: world data differ from raw");
    dod_world_destroy(r->w);
    wb_free(r, sizeof *r);
}
