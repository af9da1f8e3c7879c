/* dod_world_copy and dod_world_copy_with: a world made an exact copy of another of the same
 * declaration. What is copied is a list of pieces, in a fixed order: the entity index, then per
 * archetype and block holding rows, the ids and each column's live rows. A copy of what changed
 * leaves out the pieces whose change version says they are as the destination holds them. The
 * pieces' bytes are cut into equal shares, one a task, so the executor's threads copy at once. */
#include <dod/world_io.h>
#include "exec_dispatch.h"
#include "world_layout.h"

#define COPY_MIN_SHARE (1u << 20)  /* bytes a task copies at least: less is not worth a thread */
#define COPY_TASKS_PER_THREAD 2u
#define COPY_MAX_TASKS 64u

#define COPY_KNOWN_FLAGS (DOD_WORLD_COPY_CHANGED | DOD_WORLD_COPY_ROWS_ONLY)

/* What a copy does with the entity index. */
enum { SLOTS_NONE, SLOTS_CHANGED, SLOTS_WHOLE };

typedef struct copy_plan {
    dod_world *dst;
    const dod_world *src;
    uint64_t since;    /* copy what changed after this version of src; 0: everything */
    size_t total;      /* bytes of every piece */
    uint32_t n_tasks;
    int slots;         /* SLOTS_NONE: a rows-only copy; SLOTS_WHOLE: dst holds no index yet */
} copy_plan;

/* 1 when the entity index is copied. */
static int copies_slots(const copy_plan *p)
{
    if (p->slots != SLOTS_CHANGED)
        return p->slots == SLOTS_WHOLE;
    return p->since == 0 || p->src->slots_version > p->since;
}

/* 1 when column k of archetype a (UINT32_MAX: its ids) is copied. */
static int copies_column(const copy_plan *p, const dod__world_arch *a, uint32_t k)
{
    if (p->since == 0 || a->rows_version > p->since)
        return 1;
    return k != UINT32_MAX && a->col_version[k] > p->since;
}

/* Copy the part of a piece (dst, src, n bytes, lying at *at in the pieces' order) that falls in
 * [lo, hi); *at moves past the piece. */
static void copy_piece(unsigned char *dst, const unsigned char *src, size_t n, size_t *at,
                       size_t lo, size_t hi)
{
    size_t from = *at > lo ? *at : lo, to = *at + n < hi ? *at + n : hi;
    if (from < to)
        memcpy(dst + (from - *at), src + (from - *at), to - from);
    *at += n;
}

/* Walk every piece in order, copying the bytes of [lo, hi) (none when lo == hi); returns the
 * bytes walked, every piece's: the plan's total. */
static size_t walk_pieces(const copy_plan *p, size_t lo, size_t hi)
{
    size_t at = 0;
    if (copies_slots(p))
        copy_piece((unsigned char *)p->dst->head.slots, (const unsigned char *)p->src->head.slots,
                   (size_t)p->src->head.n_slots * sizeof(uint64_t), &at, lo, hi);
    for (uint32_t i = 0; i < p->src->n_archetypes; ++i) {
        const dod__world_arch *s = &p->src->arch[i];
        const dod__world_arch *d = &p->dst->arch[i];
        for (uint32_t b = 0; b < dod__world_used_blocks(s); ++b) {
            size_t n = dod__world_block_rows(s, b);
            if (copies_column(p, s, UINT32_MAX))
                copy_piece(d->place->blocks[b], s->place->blocks[b], n * sizeof(dod_entity), &at,
                           lo, hi);
            for (uint32_t k = 0; k < s->n_cols; ++k)
                if (copies_column(p, s, k))
                    copy_piece(dod__world_column(d, b, k), dod__world_column(s, b, k),
                               n * s->cols[k].size, &at, lo, hi);
        }
    }
    return at;
}

static void copy_task(void *arg, uint32_t t)
{
    const copy_plan *p = (const copy_plan *)arg;
    size_t lo = (size_t)((uint64_t)p->total * t / p->n_tasks);
    size_t hi = (size_t)((uint64_t)p->total * (t + 1) / p->n_tasks);
    if (lo < hi)
        walk_pieces(p, lo, hi);
}

/* 1 when dst holds a copy of src at some version, unchanged since: only what changed after it
 * needs copying. */
static int holds_a_copy(const dod_world *dst, const dod_world *src)
{
    return dst->copied_from == src && dst->copied_serial == src->serial &&
           dst->version == dst->version_after_copy && dst->copied_version <= src->version;
}

#if DOD_DEBUG
/* A debug build checks what a copy of what changed leaves out: a column written without a
 * change version (through a pointer from dod_world_get or an iterator, and no dod_world_touch)
 * is reported through the error hook, and the copy takes everything, so it is exact all the
 * same. */
static void check_left_out(copy_plan *p)
{
    for (uint32_t i = 0; i < p->src->n_archetypes; ++i) {
        const dod__world_arch *s = &p->src->arch[i];
        const dod__world_arch *d = &p->dst->arch[i];
        for (uint32_t k = 0; k < s->n_cols; ++k) {
            if (copies_column(p, s, k))
                continue;
            int differs = 0;
            for (uint32_t b = 0; b < dod__world_used_blocks(s); ++b)
                differs |= memcmp(dod__world_column(d, b, k), dod__world_column(s, b, k),
                                  dod__world_block_rows(s, b) * s->cols[k].size) != 0;
            if (differs) {
                (void)DOD__FAIL_IN("dod_world_copy_with", DOD_E_STATE,
                                   "a column changed without a change version: written through "
                                   "a pointer, declare it with dod_world_touch");
                p->since = 0; /* copy everything */
                return;
            }
        }
    }
}
#endif

dod_status dod_world_copy_with(dod_world *dst, const dod_world *src,
                               const dod_world_copy_desc *desc)
{
    DOD__REFUSE_IF(!dst, DOD_E_INVALID);
    DOD__REFUSE_IF(!src, DOD_E_INVALID);
    DOD__WORLD_REFUSE_BUSY(dst, "dod_world_copy (into dst)");
    uint32_t flags = desc ? desc->flags : 0;
    const dod_executor *exec = desc ? desc->exec : NULL;
    DOD__REFUSE_IF(flags & ~COPY_KNOWN_FLAGS, DOD_E_INVALID);
    DOD__REFUSE_IF(!dod__exec_usable(exec), DOD_E_INVALID);
    if (dst == src)
        return DOD_OK;
    char why[160];
    if (dod__world_declaration_differs(dst, src, "dst", "src", why, sizeof why))
        return DOD__REPORT_IN("dod_world_copy", DOD_E_INVALID, why);
    uint32_t blocks[DOD_WORLD_MAX_ARCHETYPES];
    for (uint32_t i = 0; i < src->n_archetypes; ++i)
        blocks[i] = src->arch[i].n_open;
    /* A copy of a rows-only world has no index to take either. */
    int rows_only = (flags & DOD_WORLD_COPY_ROWS_ONLY) || src->rows_only;
    dod__world_room room;
    dod_status st = dod__world_prepare_room(dst, rows_only ? 0 : src->head.n_slots, blocks,
                                            &room);
    if (st != DOD_OK)
        return st;
    /* A larger entity index is fresh memory, and a rows-only dst holds none: the slots are
     * then copied whole. */
    copy_plan p = { dst, src, 0, 0, 1, SLOTS_CHANGED };
    if (rows_only)
        p.slots = SLOTS_NONE;
    else if (room.slots || dst->rows_only)
        p.slots = SLOTS_WHOLE;
    if ((flags & DOD_WORLD_COPY_CHANGED) && holds_a_copy(dst, src))
        p.since = dst->copied_version;
    dod__world_install_room(dst, &room);
#if DOD_DEBUG
    if (p.since)
        check_left_out(&p);
#endif
    p.total = walk_pieces(&p, 0, 0);
    uint32_t most = (uint32_t)(p.total / COPY_MIN_SHARE);
    uint32_t tasks = dod__exec_tasks(exec, COPY_TASKS_PER_THREAD, COPY_MAX_TASKS);
    p.n_tasks = tasks < most ? tasks : most;
    p.n_tasks = p.n_tasks ? p.n_tasks : 1;
    dod__exec_run(p.n_tasks > 1 ? exec : NULL, p.n_tasks, copy_task, &p);
    dst->head.n_slots = rows_only ? 0 : src->head.n_slots;
    dst->free_head = rows_only ? DOD__WORLD_NO_SLOT : src->free_head;
    dst->n_free = rows_only ? 0 : src->n_free;
    dst->rows_only = rows_only;
    dst->head.tag_hi = src->head.tag_hi;
    for (uint32_t i = 0; i < src->n_archetypes; ++i) {
        const dod__world_arch *s = &src->arch[i];
        dod__world_set_rows(&dst->arch[i], s->n_rows, s->n_open, s->tail);
    }
    /* dst's contents are new to anything copied from dst; what dst copied is remembered. */
    dod__world_all_changed(dst);
    dst->copied_from = src;
    dst->copied_serial = src->serial;
    dst->copied_version = src->version;
    dst->version_after_copy = dst->version;
    return DOD_OK;
}

dod_status dod_world_copy(dod_world *dst, const dod_world *src)
{
    return dod_world_copy_with(dst, src, NULL);
}

dod_status dod_world_touch(dod_world *w, uint32_t archetype, uint32_t component)
{
    DOD__REFUSE_IF(!w, DOD_E_INVALID);
    DOD__REFUSE_IF(archetype >= w->n_archetypes, DOD_E_RANGE);
    DOD__REFUSE_IF(component >= w->head.n_components, DOD_E_RANGE);
    dod__world_arch *a = &w->arch[archetype];
    uint32_t col = dod__world_col_of(a, component);
    DOD__REFUSE_IF(col == UINT32_MAX, DOD_E_NOT_FOUND);
    dod__world_column_changed(w, a, col);
    return DOD_OK;
}
