/* regiments: the jagged index a strategy game builds every tick.
 *
 * Build location -> regiments, run the seed's query over it, hand a copy to a worker thread,
 * and rebuild next tick into the memory the index already holds. */
#include <dod/dod.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

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

    int ok = dod_csr_check(&by_location, REGIMENTS) == DOD_OK &&
             dod_csr_check(&snapshot, REGIMENTS) == DOD_OK;
    dod_csr_free(&snapshot);
    dod_csr_free(&by_location);
    free(regiments);
    return ok ? 0 : 1;
}
