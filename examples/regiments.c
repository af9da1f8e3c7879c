/* regiments: the jagged index a strategy game builds every tick.
 *
 * Build location -> regiments, run the seed's query over it, hand a copy to a worker thread,
 * and rebuild next tick into the memory the index already holds. Then the same regiments as
 * world entities: the index built from their location field, and the fields the query reads
 * gathered into row order. */
#include <dod/dod.h>
#include <pthread.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct Regiment {
    uint32_t location;
    float health, mood, speed;
} Regiment;

/* The seed's query: the travel budget of one location's able regiments. */
static float travel_budget(const dod_csr *by_location, const Regiment *regiments, uint32_t loc)
{
    float budget = 0.0f;
    const uint32_t *it = dod_csr_row_begin(by_location, loc);
    const uint32_t *end = dod_csr_row_end(by_location, loc);
    for (; it != end; ++it) {
        const Regiment *r = &regiments[*it];
        if (r->mood < 0.25f || r->health <= 0.0f)
            continue;
        budget += r->speed;
    }
    return budget;
}

/* The regiments as entities of a world (one chunked archetype, one component): location ->
 * regiments built from the component's location field (items are entity slots), the health,
 * mood and speed gathered into row order, and the query over them. Returns how many locations
 * have the budget the plain index gives. */
static uint32_t world_budgets(const Regiment *regiments, uint32_t n, const dod_csr *plain)
{
    const uint32_t locations = plain->n_rows;
    const dod_component_desc regiment = { "regiment", sizeof(Regiment), 4 };
    const uint32_t id = 0;
    const dod_archetype_desc troops = { .name = "troops", .components = &id, .n_components = 1 };
    const dod_world_desc desc = { .components = &regiment, .n_components = 1,
                                  .archetypes = &troops, .n_archetypes = 1 };
    typedef struct { float health, mood, speed; } fields;
    fields *g = (fields *)malloc((size_t)n * sizeof *g);
    dod_world *w = NULL;
    dod_query q;
    dod_csr by_location;
    dod_csr_init(&by_location, NULL);
    uint32_t same = 0;
    if (g && dod_world_create(&w, &desc) == DOD_OK && dod_world_spawn_n(w, 0, n, NULL) == DOD_OK &&
        dod_query_init(&q, w, &id, 1, NULL, 0) == DOD_OK) {
        void *cols[2];
        for (uint32_t b = 0, at = 0, rows; (rows = dod_world_block(w, 0, b, cols)) > 0; ++b, at += rows)
            memcpy(cols[1], regiments + at, rows * sizeof(Regiment));
        dod_world_index_desc ix = { &q, id, offsetof(Regiment, location), locations, NULL, NULL,
                                    DOD_CSR_BUILD_AUTO, 0 };
        dod_world_gather_col col = { g, id, offsetof(Regiment, health), sizeof(fields) };
        if (dod_world_index_build(&by_location, w, &ix) == DOD_OK &&
            dod_world_gather(&by_location, w, &col, 1, NULL) == DOD_OK) {
            for (uint32_t loc = 0; loc < locations; ++loc) {
                float budget = 0.0f; /* a row's fields are one sequential run */
                for (uint32_t j = by_location.offsets[loc]; j < by_location.offsets[loc + 1]; ++j)
                    budget += g[j].mood < 0.25f || g[j].health <= 0.0f ? 0.0f : g[j].speed;
                same += budget == travel_budget(plain, regiments, loc);
            }
        }
    }
    dod_csr_free(&by_location);
    dod_world_destroy(w);
    free(g);
    return same;
}

typedef struct worker_job {
    const dod_csr *snapshot; /* the worker's own copy: the main thread may rebuild meanwhile */
    const Regiment *regiments;
    uint32_t busiest;
} worker_job;

static void *ui_worker(void *arg)
{
    worker_job *job = (worker_job *)arg;
    uint32_t best = 0;
    for (uint32_t loc = 0; loc < job->snapshot->n_rows; ++loc)
        if (dod_csr_row_len(job->snapshot, loc) > dod_csr_row_len(job->snapshot, best))
            best = loc;
    job->busiest = best;
    return NULL;
}

int main(void)
{
    enum { LOCATIONS = 10000, REGIMENTS = 60000 };
    Regiment *regiments = (Regiment *)malloc(REGIMENTS * sizeof *regiments);
    if (!regiments)
        return 1;
    uint32_t seed = 1;
    for (uint32_t i = 0; i < REGIMENTS; ++i) {
        seed = seed * 1664525u + 1013904223u;
        regiments[i].location = (seed >> 8) % LOCATIONS;
        regiments[i].health = (float)(seed % 100);
        regiments[i].mood = (float)((seed >> 4) % 100) / 100.0f;
        regiments[i].speed = 1.0f + (float)(seed % 7);
    }

    /* Build: one key per regiment, read straight out of the AoS records. */
    dod_csr by_location;
    dod_csr_init(&by_location, NULL);
    dod_status st = dod_csr_build(&by_location, LOCATIONS, &regiments[0].location,
                                  sizeof(Regiment), REGIMENTS);
    if (st != DOD_OK) {
        fprintf(stderr, "build: %s\n", dod_status_str(st));
        return 1;
    }
    float total = 0.0f;
    for (uint32_t loc = 0; loc < by_location.n_rows; ++loc)
        total += travel_budget(&by_location, regiments, loc);
    printf("travel budget over %u locations: %.1f\n", (unsigned)by_location.n_rows, total);

    /* Snapshot for a worker: two memcpy, then the worker reads its copy without locks. */
    dod_csr snapshot;
    dod_csr_init(&snapshot, NULL);
    if ((st = dod_csr_copy(&snapshot, &by_location)) != DOD_OK) {
        fprintf(stderr, "copy: %s\n", dod_status_str(st));
        return 1;
    }
    worker_job job = { &snapshot, regiments, 0 };
    pthread_t worker;
    if (pthread_create(&worker, NULL, ui_worker, &job) != 0)
        return 1;

    /* Next tick, while the worker runs: some regiments march, and the index is rebuilt into
     * the memory it already holds (no allocation). */
    for (uint32_t i = 0; i < REGIMENTS; i += 3)
        regiments[i].location = (regiments[i].location + 1) % LOCATIONS;
    st = dod_csr_build(&by_location, LOCATIONS, &regiments[0].location, sizeof(Regiment), REGIMENTS);
    pthread_join(worker, NULL);
    if (st != DOD_OK) {
        fprintf(stderr, "rebuild: %s\n", dod_status_str(st));
        return 1;
    }
    printf("worker: busiest location in the last tick was %u with %u regiments\n",
           (unsigned)job.busiest, (unsigned)dod_csr_row_len(&snapshot, job.busiest));
    printf("after the march location 0 holds %u regiments\n",
           (unsigned)dod_csr_row_len(&by_location, 0));

    uint32_t same = world_budgets(regiments, REGIMENTS, &by_location);
    printf("the query over the same regiments as world entities: %u of %u locations agree\n",
           (unsigned)same, (unsigned)LOCATIONS);

    int ok = dod_csr_check(&by_location, REGIMENTS) == DOD_OK &&
             dod_csr_check(&snapshot, REGIMENTS) == DOD_OK && same == LOCATIONS;
    dod_csr_free(&snapshot);
    dod_csr_free(&by_location);
    free(regiments);
    return ok ? 0 : 1;
}
