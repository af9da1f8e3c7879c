/* The schedule: its systems validated and copied, grouped into phases at create; destroy and
 * introspection. Running it is src/world/world_run.c. */
#include "world_schedule.h"

#define KNOWN_FLAGS                                                                            \
    (DOD_SYSTEM_COMMANDS | DOD_SYSTEM_SEQUENTIAL | DOD_SYSTEM_NEW_PHASE | DOD_SYSTEM_PARALLEL)
#define BOTH_SPLITS (DOD_SYSTEM_SEQUENTIAL | DOD_SYSTEM_PARALLEL)
#define KNOWN_SCHEDULE_FLAGS DOD_SCHEDULE_PASS_PER_SYSTEM

static int sched_overlap(const uint64_t *a, const uint64_t *b)
{
    for (uint32_t k = 0; k < DOD__SCHED_WORDS; ++k)
        if (a[k] & b[k])
            return 1;
    return 0;
}

/* Component ids of a list as a bitset; DOD_E_RANGE for an id past the world's components. */
static dod_status sched_bits_of(const dod_world *w, const uint32_t *ids, uint32_t n, uint64_t *bits)
{
    for (uint32_t i = 0; i < n; ++i) {
        DOD__REFUSE_IF(ids[i] >= w->head.n_components, DOD_E_RANGE);
        dod__bit_set(bits, ids[i]);
    }
    return DOD_OK;
}

/* A step's desc: its function, its ctx, nothing else. */
static dod_status take_step_desc(const dod_system_desc *d, dod__sched_system *out)
{
    DOD__REFUSE_IF(d->fn || d->typed_fn || d->flags, DOD_E_INVALID);
    DOD__REFUSE_IF(d->all || d->n_all || d->none || d->n_none, DOD_E_INVALID);
    DOD__REFUSE_IF(d->writes || d->n_writes || d->reads || d->n_reads, DOD_E_INVALID);
    memset(out, 0, sizeof *out);
    out->step = d->step;
    out->ctx = d->ctx;
    return DOD_OK;
}

/* Check one system's desc and fill *out (all but its phase and rank). */
static dod_status take_system_desc(const dod_world *w, const dod_system_desc *d, dod__sched_system *out)
{
    if (d->step)
        return take_step_desc(d, out);
    DOD__REFUSE_IF(!d->fn, DOD_E_INVALID);
    DOD__REFUSE_IF(!d->all && d->n_all > 0, DOD_E_INVALID);
    DOD__REFUSE_IF(!d->none && d->n_none > 0, DOD_E_INVALID);
    DOD__REFUSE_IF(!d->writes && d->n_writes > 0, DOD_E_INVALID);
    DOD__REFUSE_IF(!d->reads && d->n_reads > 0, DOD_E_INVALID);
    DOD__REFUSE_IF(d->flags & ~KNOWN_FLAGS, DOD_E_INVALID);
    DOD__REFUSE_IF((d->flags & BOTH_SPLITS) == BOTH_SPLITS, DOD_E_INVALID);
    uint64_t all[DOD__SCHED_WORDS] = { 0 }, none[DOD__SCHED_WORDS] = { 0 };
    uint64_t writes[DOD__SCHED_WORDS] = { 0 }, lookups[DOD__SCHED_WORDS] = { 0 };
    dod_status st = sched_bits_of(w, d->all, d->n_all, all);
    if (st == DOD_OK)
        st = sched_bits_of(w, d->none, d->n_none, none);
    if (st == DOD_OK)
        st = sched_bits_of(w, d->writes, d->n_writes, writes);
    if (st == DOD_OK)
        st = sched_bits_of(w, d->reads, d->n_reads, lookups);
    if (st != DOD_OK)
        return st;
    for (uint32_t i = 0; i < d->n_writes; ++i)
        DOD__REFUSE_IF(!dod__bit_test(all, d->writes[i]), DOD_E_INVALID); /* a write not in all */
    DOD__REFUSE_IF(sched_overlap(all, none), DOD_E_INVALID);
    /* Another task of the same system may be writing the row a lookup reads. */
    DOD__REFUSE_IF(sched_overlap(lookups, writes), DOD_E_INVALID);
    memset(out, 0, sizeof *out);
    st = dod_query_init(&out->query, w, d->all, d->n_all, d->none, d->n_none);
    DOD_ASSERT(st == DOD_OK); /* every id was checked above */
    out->fn = d->fn;
    out->ctx = d->ctx;
    out->typed_fn = d->typed_fn;
    out->flags = d->flags;
    for (uint32_t k = 0; k < DOD__SCHED_WORDS; ++k) {
        out->writes[k] = writes[k];
        out->reads[k] = (all[k] & ~writes[k]) | lookups[k];
    }
    return DOD_OK;
}

static int systems_conflict(const dod__sched_system *a, const dod__sched_system *b)
{
    return sched_overlap(a->writes, b->writes) || sched_overlap(a->writes, b->reads) ||
           sched_overlap(b->writes, a->reads);
}

/* Greedy, in system order: a system joins the current phase when it conflicts with none of
 * its systems, is not flagged DOD_SYSTEM_NEW_PHASE and the phase is not a step's (a step is
 * a phase alone). Each recording system gets its rank among its phase's. */
static void form_sched_phases(dod_schedule *s)
{
    uint32_t first = 0, recording = 0; /* the current phase's first system; its recorders */
    int closed = 0;
    s->n_phases = 0;
    for (uint32_t i = 0; i < s->n_systems; ++i) {
        dod__sched_system *sys = &s->systems[i];
        int join = s->n_phases > 0 && !closed && !sys->step &&
                   !(sys->flags & DOD_SYSTEM_NEW_PHASE);
        for (uint32_t j = first; join && j < i; ++j)
            join = !systems_conflict(sys, &s->systems[j]);
        if (!join) {
            s->phase_first[s->n_phases++] = i;
            first = i;
            recording = 0;
        }
        sys->phase = s->n_phases - 1;
        if (sys->flags & DOD_SYSTEM_COMMANDS)
            sys->rank = recording++;
        closed = sys->step != NULL;
    }
    s->phase_first[s->n_phases] = s->n_systems;
}

dod_status dod_schedule_create(dod_schedule **s, const dod_world *w, const dod_schedule_desc *desc)
{
    DOD__REFUSE_IF(!s || !w || !desc, DOD_E_INVALID);
    DOD__REFUSE_IF(!desc->systems && desc->n_systems > 0, DOD_E_INVALID);
    DOD__REFUSE_IF(desc->task_rows % 16 != 0, DOD_E_INVALID);
    DOD__REFUSE_IF(desc->flags & ~KNOWN_SCHEDULE_FLAGS, DOD_E_INVALID);
    /* One allocation: the schedule, its systems, the phase starts (n_systems + 1). */
    size_t head = 0, systems = 0, phases = 0, bytes = 0;
    DOD__REFUSE_IF(!dod__align_up(sizeof(dod_schedule), &head), DOD_E_OVERFLOW);
    DOD__REFUSE_IF(!dod__mul(desc->n_systems, sizeof(dod__sched_system), &systems) ||
                       !dod__align_up(systems, &systems) ||
                       !dod__mul((size_t)desc->n_systems + 1, sizeof(uint32_t), &phases) ||
                       !dod__add(head, systems, &bytes) || !dod__add(bytes, phases, &bytes),
                   DOD_E_OVERFLOW);
    dod_allocator a = dod__allocator_or_heap(desc->alloc);
    unsigned char *mem = (unsigned char *)dod__alloc(&a, bytes);
    DOD__REFUSE_IF(!mem, DOD_E_NOMEM);
    dod_schedule *out = (dod_schedule *)(void *)mem;
    memset(out, 0, sizeof *out);
    out->alloc = a;
    out->bytes = bytes;
    out->world = w;
    out->tag_hi = w->head.tag_hi;
    out->n_systems = desc->n_systems;
    out->task_rows = desc->task_rows ? desc->task_rows : DOD_SCHEDULE_TASK_ROWS;
    out->fused = (desc->flags & DOD_SCHEDULE_PASS_PER_SYSTEM) == 0;
    out->systems = (dod__sched_system *)(void *)(mem + head);
    out->phase_first = (uint32_t *)(void *)(mem + head + systems);
    for (uint32_t i = 0; i < desc->n_systems; ++i) {
        dod_status st = take_system_desc(w, &desc->systems[i], &out->systems[i]);
        if (st != DOD_OK) {
            dod__free(&a, mem, bytes);
            return st;
        }
    }
    form_sched_phases(out);
    *s = out;
    return DOD_OK;
}

void dod_schedule_destroy(dod_schedule *s)
{
    if (!s)
        return;
    dod__sched_free_lists(s);
    dod_allocator a = s->alloc;
    dod__free(&a, s, s->bytes);
}

uint32_t dod_schedule_phase_count(const dod_schedule *s)
{
    return s ? s->n_phases : 0;
}

uint32_t dod_schedule_phase_of(const dod_schedule *s, uint32_t system)
{
    return s && system < s->n_systems ? s->systems[system].phase : UINT32_MAX;
}
