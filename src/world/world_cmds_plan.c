/* Planning an apply of command buffers (dod__cmds_plan): the most rows each archetype will hold
 * while the commands run, and the entity slots they take. First a bound that counts every
 * spawn and move as if none were skipped, and every add or remove (whose target depends on
 * where its entity is when it is reached) as a row into each archetype it may lead to, which
 * costs one walk over the buffers that spawn or move; then, only when the bound would cross a
 * fixed capacity, a memory cap or the entity index's limit, the exact figures from a replay of
 * the commands on a shadow of the entity index: a fixed archetype at capacity must accept
 * "despawn 10, spawn 10" in one apply. */
#include "world_cmds_internal.h"

/* 1 when archetype a can hold `rows` rows (its capacity or memory cap allows their blocks). */
static int plan_rows_fit(const dod__world_arch *a, uint64_t rows)
{
    return rows <= UINT32_MAX && dod__world_blocks_for_rows(a, rows) <= a->max_blocks;
}

/* Adds and removes of the bound. */
typedef struct plan_changes {
    uint64_t add[DOD_WORLD_MAX_COMPONENTS];    /* adds of each component */
    uint64_t remove[DOD_WORLD_MAX_COMPONENTS]; /* removes */
    uint64_t sets;                             /* add_n and remove_n */
} plan_changes;

static void plan_count_change(plan_changes *ch, const dod__cmd *c)
{
    if (c->op == DOD__CMD_ADD)
        ch->add[c->id]++;
    else if (c->op == DOD__CMD_REMOVE)
        ch->remove[c->id]++;
    else
        ch->sets++;
}

/* rows[t] += the adds and removes that may take a row to t: those of component c to every
 * archetype an add (remove) of c leads to from some archetype, add_n and remove_n to all. */
static void plan_bound_changes(const dod_world *w, const plan_changes *ch, uint64_t *rows)
{
    uint32_t n_comp = w->head.n_components;
    for (uint32_t c = 0; c < n_comp; ++c) {
        if (ch->add[c] == 0 && ch->remove[c] == 0)
            continue;
        unsigned char seen[DOD_WORLD_MAX_ARCHETYPES] = { 0 }; /* each target counted once */
        for (uint32_t a = 0; a < w->n_archetypes; ++a) {
            uint32_t t = w->toggle[(size_t)a * n_comp + c];
            if (t == a || seen[t])
                continue;
            seen[t] = 1; /* an add leads to an archetype having c, a remove to one lacking it */
            rows[t] += dod__bit_test(w->arch[t].comp_bits, c) ? ch->add[c] : ch->remove[c];
        }
    }
    for (uint32_t a = 0; a < w->n_archetypes; ++a)
        rows[a] += ch->sets;
}

/* The bound: rows[a] = a's rows now plus every spawn and move into a and every add and remove
 * that may lead to a; *spawns = every spawn. 1 when it fits every archetype and the index. */
static int plan_bound_fits(const dod_world *w, const dod__cmds_list *buffers, uint64_t *rows,
                           uint64_t *spawns)
{
    plan_changes ch;
    int changed = 0;
    *spawns = 0;
    for (uint32_t i = 0; i < w->n_archetypes; ++i)
        rows[i] = w->arch[i].n_rows;
    for (uint32_t b = 0; b < buffers->n; ++b) {
        const dod_cmds *cb = dod__cmds_at(buffers, b);
        *spawns += cb->n_spawns;
        if (cb->n_spawns == 0 && cb->n_moves == 0)
            continue; /* despawns, sets and field commands add no row */
        if (cb->n_moves == 0) { /* each spawn's archetype, two bytes a spawn: no walk */
            for (uint32_t k = 0; k < cb->n_spawns; ++k)
                rows[cb->spawn_arch[k] & 0xFFu]++;
            continue;
        }
        for (const dod__cmd *c = dod__cmds_first(cb), *end = dod__cmds_end(cb); c != end;
             c = dod__cmd_next(c))
            if (c->op == DOD__CMD_SPAWN || c->op == DOD__CMD_MOVE) {
                rows[c->id]++;
            } else if (dod__cmd_moves(c->op)) {
                if (!changed) /* the counts are cleared once, when the first one comes */
                    memset(&ch, 0, sizeof ch);
                changed = 1;
                plan_count_change(&ch, c);
            }
    }
    if (changed)
        plan_bound_changes(w, &ch, rows);
    for (uint32_t i = 0; i < w->n_archetypes; ++i)
        if (!plan_rows_fit(&w->arch[i], rows[i]))
            return 0;
    uint64_t fresh = *spawns > w->n_free ? *spawns - w->n_free : 0;
    return w->head.n_slots + fresh <= DOD__WORLD_MAX_SLOTS;
}

/* The replay's shadow of the entity index: the slots the commands touch, in an open-addressing
 * table by slot index, each as generation | archetype << 16 (a world slot's low 24 bits). */
typedef struct plan_replay {
    const dod_world *w;
    uint32_t *keys;      /* slot index + 1; 0: an empty entry */
    uint32_t *states;
    size_t mask;
    uint32_t *freed;     /* slots the replay freed, the most recent last */
    uint32_t n_freed;
    uint32_t world_free; /* the world's free list from its first slot the replay has not taken */
    uint64_t n_slots;    /* slots handed out */
    uint64_t *handles;   /* the handle each spawn of the apply gets, buffer after buffer */
    uint64_t *rows;      /* each archetype's rows now */
} plan_replay;

static size_t replay_entry(const plan_replay *r, uint32_t index)
{
    size_t h = (size_t)(index * 0x9E3779B1u) & r->mask;
    while (r->keys[h] != 0 && r->keys[h] != index + 1)
        h = (h + 1) & r->mask;
    return h;
}

static uint32_t replay_state(const plan_replay *r, uint32_t index)
{
    size_t h = replay_entry(r, index);
    if (r->keys[h])
        return r->states[h];
    if (index < r->w->head.n_slots)
        return (uint32_t)(r->w->head.slots[index] & 0xFFFFFFu);
    return 0;
}

static void replay_set_state(plan_replay *r, uint32_t index, uint32_t state)
{
    size_t h = replay_entry(r, index);
    r->keys[h] = index + 1;
    r->states[h] = state;
}

/* The slot of a live handle, or UINT32_MAX; its state in *state. */
static uint32_t replay_live_slot(const plan_replay *r, uint64_t bits, uint32_t *state)
{
    uint32_t index = (uint32_t)bits;
    if (index >= r->n_slots)
        return UINT32_MAX;
    *state = replay_state(r, index);
    uint32_t gen = *state & DOD__WORLD_GEN_MASK;
    return (gen & 1u) && (uint32_t)(bits >> 32) == (r->w->head.tag_hi | gen) ? index
                                                                              : UINT32_MAX;
}

/* A spawn into `arch`: the slot dod_world_spawn would take (the last freed, then the world's
 * free list, then a new one); its handle, or 0 past the index's limit. */
static uint64_t replay_take_slot(plan_replay *r, uint32_t arch)
{
    uint32_t index, gen;
    if (r->n_freed) {
        index = r->freed[--r->n_freed];
        gen = (replay_state(r, index) & DOD__WORLD_GEN_MASK) + 1;
    } else if (r->world_free != DOD__WORLD_NO_SLOT) {
        index = r->world_free;
        uint64_t s = r->w->head.slots[index];
        gen = dod__world_slot_gen(s) + 1;
        r->world_free = (uint32_t)dod__world_slot_loc(s);
    } else {
        if (r->n_slots >= DOD__WORLD_MAX_SLOTS)
            return 0;
        index = (uint32_t)r->n_slots++;
        gen = 1;
    }
    replay_set_state(r, index, gen | arch << DOD__WORLD_GEN_BITS);
    return (uint64_t)(r->w->head.tag_hi | gen) << 32 | index;
}

/* A despawn of the entity in slot `index`: its generation moves on and the slot is freed, or
 * retired when the generation would wrap (as dod_world_despawn). */
static void replay_release_slot(plan_replay *r, uint32_t index, uint32_t state)
{
    uint32_t gen = state & DOD__WORLD_GEN_MASK;
    if (gen == DOD__WORLD_GEN_MASK) {
        replay_set_state(r, index, 0);
        return;
    }
    replay_set_state(r, index, gen + 1);
    r->freed[r->n_freed++] = index;
}

/* Replay every command's effect on the slots and the row counts; peak[a] = the most rows a
 * held. DOD_E_OVERFLOW when the spawns pass the index's limit. */
static dod_status replay_run(plan_replay *r, const dod__cmds_list *buffers, uint64_t *peak)
{
    uint64_t base = 0; /* the buffer's first spawn in r->handles */
    for (uint32_t b = 0; b < buffers->n; ++b) {
        const dod_cmds *cb = dod__cmds_at(buffers, b);
        if (cb->n_bytes == 0)
            continue;
        uint64_t *first = r->handles + base, *spawned = first; /* this buffer's spawns */
        for (const dod__cmd *c = dod__cmds_first(cb), *end = dod__cmds_end(cb); c != end;
             c = dod__cmd_next(c)) {
            if (c->op == DOD__CMD_SPAWN) {
                *spawned = replay_take_slot(r, c->id);
                DOD__REFUSE_IF(*spawned++ == 0, DOD_E_OVERFLOW);
                if (++r->rows[c->id] > peak[c->id])
                    peak[c->id] = r->rows[c->id];
                continue;
            }
            if (c->op != DOD__CMD_DESPAWN && !dod__cmd_moves(c->op))
                continue; /* sets and field commands */
            dod_entity e = dod__cmd_entity(c);
            uint64_t bits = e.bits;
            if (dod__cmds_provisional(e))
                bits = first[(uint32_t)bits];
            uint32_t state = 0, index = replay_live_slot(r, bits, &state);
            uint32_t from = state >> DOD__WORLD_GEN_BITS;
            if (index == UINT32_MAX)
                continue; /* skipped */
            if (c->op == DOD__CMD_DESPAWN) {
                r->rows[from]--;
                replay_release_slot(r, index, state);
                continue;
            }
            uint32_t to = dod__cmd_target(r->w, c, from);
            if (to == UINT32_MAX || to == from)
                continue; /* missing, or a change that stays */
            r->rows[from]--;
            uint32_t gen = state & DOD__WORLD_GEN_MASK;
            replay_set_state(r, index, gen | to << DOD__WORLD_GEN_BITS);
            if (++r->rows[to] > peak[to])
                peak[to] = r->rows[to];
        }
        base += cb->n_spawns;
    }
    return DOD_OK;
}

/* The exact figures: rows[a] = a's peak, *new_slots = the slots the spawns add to the index. */
static dod_status plan_exact(const dod_world *w, const dod__cmds_list *buffers,
                             uint64_t n_spawns, uint64_t *rows, uint64_t *new_slots)
{
    uint64_t n_commands = 0;
    for (uint32_t b = 0; b < buffers->n; ++b)
        n_commands += dod__cmds_at(buffers, b)->n_commands;
    /* Each command puts at most one slot in the table: at least twice that many entries. */
    size_t entries = 16;
    while (entries < 2 * n_commands && entries <= SIZE_MAX / 4)
        entries *= 2;
    size_t bytes, part;
    DOD__REFUSE_IF(entries < 2 * n_commands, DOD_E_OVERFLOW);
    DOD__REFUSE_IF(!dod__mul((size_t)n_spawns, sizeof(uint64_t), &bytes) ||
                       !dod__mul(w->n_archetypes, sizeof(uint64_t), &part) ||
                       !dod__add(bytes, part, &bytes) ||
                       !dod__mul(entries, 2 * sizeof(uint32_t), &part) ||
                       !dod__add(bytes, part, &bytes) ||
                       !dod__mul((size_t)n_commands, sizeof(uint32_t), &part) ||
                       !dod__add(bytes, part, &bytes),
                   DOD_E_OVERFLOW);
    unsigned char *scratch = (unsigned char *)dod__alloc(&w->alloc, bytes);
    DOD__REFUSE_IF(!scratch, DOD_E_NOMEM);
    plan_replay r;
    r.w = w;
    r.handles = (uint64_t *)(void *)scratch;
    r.rows = r.handles + n_spawns;
    r.keys = (uint32_t *)(void *)(r.rows + w->n_archetypes);
    r.states = r.keys + entries;
    r.freed = r.states + entries;
    r.mask = entries - 1;
    r.n_freed = 0;
    r.world_free = w->free_head;
    r.n_slots = w->head.n_slots;
    memset(r.keys, 0, entries * sizeof *r.keys);
    for (uint32_t i = 0; i < w->n_archetypes; ++i)
        rows[i] = r.rows[i] = w->arch[i].n_rows;
    dod_status st = replay_run(&r, buffers, rows);
    *new_slots = r.n_slots - w->head.n_slots;
    dod__free(&w->alloc, scratch, bytes);
    if (st != DOD_OK)
        return st;
    for (uint32_t i = 0; i < w->n_archetypes; ++i)
        DOD__REFUSE_IF(!plan_rows_fit(&w->arch[i], rows[i]), DOD_E_FULL);
    return DOD_OK;
}

dod_status dod__cmds_plan(const dod_world *w, const dod__cmds_list *buffers, uint64_t *rows,
                          uint32_t *slot_spawns)
{
    uint64_t n_spawns;
    if (plan_bound_fits(w, buffers, rows, &n_spawns)) {
        *slot_spawns = (uint32_t)n_spawns; /* fits: at most the free slots plus the limit */
        return DOD_OK;
    }
    uint64_t new_slots;
    dod_status st = plan_exact(w, buffers, n_spawns, rows, &new_slots);
    if (st == DOD_OK) /* as many spawns as take every free slot and then the new ones */
        *slot_spawns = (uint32_t)(new_slots + w->n_free);
    return st;
}
