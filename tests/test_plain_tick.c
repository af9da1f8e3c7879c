/* test_plain_tick: examples/plain_tick.h, the strategy tick by hand on plain arrays, against
 * examples/world_tick.h, the same game on the world, run side by side tick by tick on the
 * calling thread and on pools of 1, 2 and 3 threads, at two map sizes. After every tick:
 *   rows     per archetype the same rows in the same order: each row's handle (the world's
 *            less its tag) and every component's bytes
 *   frame    after both publish a frame: the plain frame's arrays against the world frame's
 *            rows; both indexes, byte for byte (both list row numbers: the world's of its
 *            `placed` query, marching rows then routed ones, as the plain frame's); and the
 *            three jobs bit for bit: the AI's strength and morale of every army, the path
 *            job's orders and routes, the UI's muster of every cell
 * and over each run: regiments routed, fell and were replaced (a recruit took a freed slot).
 * Then the slot map alone against the world's entity index: random spawns, routs and
 * despawns, then one slot despawned and spawned again until its generation retires it. */
#include "../examples/plain_tick.h"
#include "../examples/world_tick.h"
#include "check.h"

enum { TICKS = 26, ROUTES = 1 };

typedef struct size {
    uint32_t width, height, regiments, armies;
} size;

/* A world archetype's rows, from row `first` of x on, against x: handles and components (a
 * routed x has no speed). Returns the rows compared, or UINT32_MAX on a difference. */
static uint32_t same_block(const dod_entity *ids, const location *loc, const army *a,
                           const health *hp, const mood *m, const speed *s, uint32_t n,
                           const plain_rows *x, uint32_t first)
{
    if (first + n > x->n)
        return UINT32_MAX;
    for (uint32_t i = 0; i < n; ++i)
        if ((ids[i].bits & 0xFFFFFFFFFFFFull) != x->id[first + i])
            return UINT32_MAX;
    int same = memcmp(loc, x->location + first, n * sizeof *loc) == 0 &&
               memcmp(a, x->army + first, n * sizeof *a) == 0 &&
               memcmp(hp, x->health + first, n * sizeof *hp) == 0 &&
               memcmp(m, x->mood + first, n * sizeof *m) == 0 &&
               (!s || memcmp(s, x->speed + first, n * sizeof *s) == 0);
    return same ? n : UINT32_MAX;
}

/* Every row of w against marching and routed. */
static int same_rows(const dod_world *w, const plain_rows *marching, const plain_rows *routed)
{
    uint32_t rows = 0, n;
    war_marching_cols m;
    for (uint32_t b = 0; rows != UINT32_MAX && war_marching_block(w, b, &m); ++b) {
        n = same_block(m.entities, m.location, m.army, m.health, m.mood, m.speed, m.n, marching,
                       rows);
        rows = n == UINT32_MAX ? n : rows + n;
    }
    if (rows != marching->n)
        return 0;
    rows = 0;
    war_routed_cols r;
    for (uint32_t b = 0; rows != UINT32_MAX && war_routed_block(w, b, &r); ++b) {
        n = same_block(r.entities, r.location, r.army, r.health, r.mood, NULL, r.n, routed, rows);
        rows = n == UINT32_MAX ? n : rows + n;
    }
    return rows == routed->n;
}

/* A plain frame's marching and routed parts, as rows. */
static void frame_rows(const plain_frame *f, plain_rows *marching, plain_rows *routed)
{
    uint32_t k = f->n_marching;
    *marching = (plain_rows){ f->id, f->location, f->army, f->health, f->mood, f->speed, k };
    *routed = (plain_rows){ f->id + k, f->location + k, f->army + k, f->health + k, f->mood + k,
                            NULL, f->n - k };
}

static int same_index(const dod_csr *w, const dod_csr *p)
{
    return w->n_rows == p->n_rows && w->n_items == p->n_items &&
           memcmp(w->offsets, p->offsets, (w->n_rows + 1) * sizeof(uint32_t)) == 0 &&
           memcmp(w->items, p->items, w->n_items * sizeof(uint32_t)) == 0;
}

typedef struct jobs {
    army_fields fields;
    float *strength[2], *morale[2]; /* [0] the world's, [1] the plain's */
    dod_graph_scratch scratch[2];
} jobs;

static int same_bits(float a, float b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* The three jobs on both frames; the number of differences. */
static long job_faults(jobs *j, const campaign *g, campaign_frame *wf, const plain_game *p,
                       const plain_frame *pf)
{
    long bad = 0;
    CHECK_OK(campaign_army_report(wf, &j->fields, j->strength[0], j->morale[0]));
    CHECK_OK(plain_army_report(pf, j->strength[1], j->morale[1]));
    bad += memcmp(j->strength[0], j->strength[1], g->armies * sizeof(float)) != 0;
    bad += memcmp(j->morale[0], j->morale[1], g->armies * sizeof(float)) != 0;
    for (uint32_t k = 0; k < ROUTES; ++k) {
        map_march order[2] = { campaign_order_march(g, wf, wf->tick * ROUTES + k),
                               plain_order_march(p, pf, pf->tick * ROUTES + k) };
        dod_graph_route route[2];
        CHECK_OK(map_route(&order[0], &j->scratch[0], &route[0]));
        CHECK_OK(map_route(&order[1], &j->scratch[1], &route[1]));
        uint32_t n = j->scratch[0].n_order;
        bad += order[0].from != order[1].from || order[0].to != order[1].to;
        bad += !same_bits(route[0].cost, route[1].cost) || n != j->scratch[1].n_order ||
               memcmp(j->scratch[0].order, j->scratch[1].order, n * sizeof(uint32_t)) != 0;
    }
    for (uint32_t cell = 0; cell < map_cells(&g->map); ++cell) {
        float hp[2];
        bad += campaign_muster_at(wf, cell, &hp[0]) != plain_muster_at(pf, cell, &hp[1]) ||
               !same_bits(hp[0], hp[1]);
    }
    return bad;
}

/* Both games publish tick t's frame; the frames compared. */
static int same_frames(jobs *j, campaign *g, campaign_ring *wr, plain_game *p, plain_ring *pr,
                       uint64_t t)
{
    CHECK_OK(campaign_publish(g, wr, t));
    CHECK_OK(plain_publish(p, pr, t));
    dod_frame held[2] = { { 0 }, { 0 } };
    CHECK_OK(dod_frames_acquire(wr->frames, &held[0]));
    CHECK_OK(dod_frames_acquire(pr->frames, &held[1]));
    if (!held[0].data || !held[1].data)
        return 0;
    campaign_frame wf = campaign_frame_of(g, wr, &held[0]);
    const plain_frame *pf = (const plain_frame *)held[1].data;
    plain_rows marching, routed;
    frame_rows(pf, &marching, &routed);
    int same = wf.tick == t && pf->tick == t && same_rows(wf.world, &marching, &routed) &&
               same_index(wf.by_location, &pf->by_location) &&
               same_index(wf.by_army, &pf->by_army) && job_faults(j, g, &wf, p, pf) == 0;
    CHECK_OK(dod_frames_release(wr->frames, &held[0]));
    CHECK_OK(dod_frames_release(pr->frames, &held[1]));
    return same;
}

/* The game of size z in both forms for TICKS ticks on `threads` pool threads (0: the calling
 * thread), compared after every tick. */
static void run(const size *z, uint32_t threads)
{
    static campaign g;
    static campaign_ring wr;
    static plain_game p;
    static plain_ring pr;
    jobs j = { 0 };
    for (int k = 0; k < 2; ++k) {
        j.strength[k] = (float *)malloc(z->armies * sizeof(float));
        j.morale[k] = (float *)malloc(z->armies * sizeof(float));
        dod_graph_scratch_init(&j.scratch[k], NULL);
    }
    CHECK_OK(campaign_create(&g, z->width, z->height, z->regiments, z->armies, threads));
    CHECK_OK(campaign_ring_create(&wr, &g, 2));
    CHECK_OK(plain_create(&p, z->width, z->height, z->regiments, z->armies, threads));
    CHECK_OK(plain_ring_create(&pr, &p, 2));
    int ok = !check_failed && j.strength[0] && j.strength[1] && j.morale[0] && j.morale[1];
    CHECK(ok);
    ok = ok && same_rows(g.live, &p.marching, &p.routed);
    CHECK(ok); /* mustered alike */
    uint32_t routs = 0, falls = 0;
    for (uint64_t t = 1; ok && t <= TICKS; ++t) {
        CHECK_OK(campaign_run(&g, t));
        CHECK_OK(plain_run(&p, t));
        routs += p.n_routing;
        falls += p.n_fallen;
        int rows = same_rows(g.live, &p.marching, &p.routed);
        int frames = rows && same_frames(&j, &g, &wr, &p, &pr, t);
        if (!rows || !frames)
            fprintf(stderr, "  %u x %u, %u pool threads, tick %u: %s differ\n", z->width,
                    z->height, threads, (unsigned)t, rows ? "the frames" : "the rows");
        CHECK(rows);
        CHECK(frames);
        ok = rows && frames;
        CHECK_EQ(p.marching.n + p.routed.n, z->regiments);
    }
    /* Each thing happened: routs, falls, and recruits in freed slots (generation past 1). */
    uint32_t reused = 0;
    for (uint32_t i = 0; i < p.marching.n; ++i)
        reused += (p.marching.id[i] >> 32) > 1;
    CHECK(routs > 0);
    CHECK(falls > 0);
    CHECK(reused > 0);
    if (threads == 0)
        printf("test_plain_tick: %u x %u, %u regiments, %d ticks: %u routs, %u fell and were "
               "replaced, %u now routed\n", z->width, z->height, z->regiments, TICKS, routs,
               falls, p.routed.n);
    plain_ring_destroy(&pr);
    plain_destroy(&p);
    campaign_ring_destroy(&wr);
    campaign_destroy(&g);
    for (int k = 0; k < 2; ++k) {
        free(j.strength[k]);
        free(j.morale[k]);
        dod_graph_scratch_free(&j.scratch[k]);
    }
    army_fields_free(&j.fields);
}

/* The live regiment at place k of g's rows (marching, then routed): its slot in the plain
 * game, and its handle in the world. */
static dod_entity world_at(const campaign *w, const plain_game *g, uint32_t k, uint32_t *slot)
{
    war_marching_cols m;
    war_routed_cols r;
    int marching = k < g->marching.n;
    *slot = (uint32_t)(marching ? g->marching.id[k] : g->routed.id[k - g->marching.n]);
    if (marching)
        return war_marching_block(w->live, 0, &m) ? m.entities[k] : (dod_entity){ 0 };
    return war_routed_block(w->live, 0, &r) ? r.entities[k - g->marching.n] : (dod_entity){ 0 };
}

/* The slot map against the world's entity index on a game of 4 regiments, both changed by
 * the same direct calls: RANDOM random spawns (while fewer than 4 live), routs and despawns,
 * then the last recruit despawned and another spawned, over and over: LIFO, the same slot
 * comes back each time until its generation would pass 0xFFFF and it is retired (twice). */
static void slot_map(void)
{
    enum { RANDOM = 4000, CYCLES = 2 * 32768 + 100 };
    static campaign w;
    static plain_game g;
    CHECK_OK(campaign_create(&w, 4, 4, 4, 2, 0));
    CHECK_OK(plain_create(&g, 4, 4, 4, 2, 0));
    test_rng rng = { 7 };
    int ok = !check_failed;
    for (uint32_t k = 0; ok && k < RANDOM + 2 * CYCLES; ++k) {
        uint32_t live = g.marching.n + g.routed.n, slot = 0;
        uint32_t op = k < RANDOM ? test_rng_below(&rng, 3) : k % 2 ? 0 : 2;
        if (op == 0 && live < g.regiments) { /* spawn */
            uint32_t a = k % g.armies;
            uint64_t r = strategy_dice(k);
            war_marching_row row = campaign_recruit(&w, a, r);
            CHECK_OK(war_marching_spawn(w.live, &row, NULL));
            CHECK_OK(plain_reserve_slots(&g, 1));
            plain_recruit(&g, a, r);
        } else if (op == 1 && g.marching.n > 0) { /* rout */
            dod_entity e = world_at(&w, &g, test_rng_below(&rng, g.marching.n), &slot);
            CHECK_OK(dod_world_move(w.live, e, DOD_AID(war, routed)));
            plain_rout(&g, slot);
        } else if (op == 2 && (k < RANDOM ? live : g.marching.n) > 0) {
            /* despawn: at random, then the last recruit */
            uint32_t at = k < RANDOM ? test_rng_below(&rng, live) : g.marching.n - 1;
            CHECK_OK(dod_world_despawn(w.live, world_at(&w, &g, at, &slot)));
            plain_despawn(&g, slot);
        }
        ok = !check_failed && same_rows(w.live, &g.marching, &g.routed);
    }
    CHECK(ok);
    uint32_t retired = 0;
    for (uint32_t i = 0; i < g.n_slots; ++i)
        retired += g.slots[i].gen == 0;
    CHECK_EQ(retired, 2);
    plain_destroy(&g);
    campaign_destroy(&w);
}

int main(void)
{
    const size sizes[] = { { 32, 32, 6 * 32 * 32, 32 }, { 48, 48, 6 * 48 * 48, 48 } };
    for (uint32_t s = 0; s < 2; ++s)
        for (uint32_t threads = 0; threads <= 3; ++threads) /* 0: no pool, the calling thread */
            run(&sizes[s], threads);
    slot_map();
    return check_summary("test_plain_tick");
}
