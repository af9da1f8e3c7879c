/* Adding and removing one component: the archetype each (archetype, component) pair leads to,
 * worked out once at create from the declared component sets, then a lookup and a move. Adding
 * and removing several at once, and the archetype of a set: a scan of the declared sets. */
#include "world_cmds_internal.h"
#include "world_layout.h"

enum { SET_WORDS = DOD_WORLD_MAX_COMPONENTS / 64 };

/* The one component in which two sets differ, or UINT32_MAX when they differ in none or in
 * more than one. */
static uint32_t only_difference(const uint64_t *a, const uint64_t *b)
{
    uint32_t found = UINT32_MAX;
    for (uint32_t k = 0; k < SET_WORDS; ++k) {
        uint64_t diff = a[k] ^ b[k];
        if (diff == 0)
            continue;
        if (found != UINT32_MAX || (diff & (diff - 1)) != 0)
            return UINT32_MAX;
        found = k * 64;
        while (!(diff & 1u)) {
            diff >>= 1;
            ++found;
        }
    }
    return found;
}

static int same_set(const uint64_t *a, const uint64_t *b)
{
    return memcmp(a, b, SET_WORDS * sizeof *a) == 0;
}

/* toggle[a][c] = the archetype whose set is a's with c added (a lacks c) or removed (a has
 * it), when exactly one archetype has that set; otherwise a itself. Every pair of archetypes
 * is compared once: O(archetypes^2) set comparisons at create (65536 for 256 archetypes). */
void dod__world_fill_transitions(dod_world *w)
{
    uint32_t n_arch = w->n_archetypes, n_comp = w->head.n_components;
    /* shared[b]: another archetype has b's set, so no add or remove leads to b */
    unsigned char shared[DOD_WORLD_MAX_ARCHETYPES] = { 0 };
    for (uint32_t a = 0; a < n_arch; ++a) {
        for (uint32_t c = 0; c < n_comp; ++c)
            w->toggle[(size_t)a * n_comp + c] = (uint8_t)a;
        for (uint32_t b = a + 1; b < n_arch; ++b)
            if (same_set(w->arch[a].comp_bits, w->arch[b].comp_bits))
                shared[a] = shared[b] = 1;
    }
    for (uint32_t a = 0; a < n_arch; ++a)
        for (uint32_t b = 0; b < n_arch; ++b) {
            if (shared[b])
                continue;
            uint32_t c = only_difference(w->arch[a].comp_bits, w->arch[b].comp_bits);
            if (c != UINT32_MAX)
                w->toggle[(size_t)a * n_comp + c] = (uint8_t)b;
        }
}

static int has(const dod__world_arch *a, uint32_t component)
{
    return dod__bit_test(a->comp_bits, component);
}

uint32_t dod__world_toggle_target(const dod_world *w, uint32_t from, uint32_t component, int add)
{
    if (has(&w->arch[from], component) == add)
        return from;
    uint32_t to = w->toggle[(size_t)from * w->head.n_components + component];
    return to == from ? UINT32_MAX : to;
}

/* The one archetype whose set is `set`, or UINT32_MAX (none, or several). O(archetypes). */
static uint32_t archetype_of_set(const dod_world *w, const uint64_t *set)
{
    uint32_t found = UINT32_MAX;
    for (uint32_t a = 0; a < w->n_archetypes; ++a)
        if (same_set(w->arch[a].comp_bits, set)) {
            if (found != UINT32_MAX)
                return UINT32_MAX;
            found = a;
        }
    return found;
}

uint32_t dod__world_set_target(const dod_world *w, uint32_t from, const uint64_t *set, int add)
{
    uint64_t want[SET_WORDS];
    const uint64_t *now = w->arch[from].comp_bits;
    for (uint32_t k = 0; k < SET_WORDS; ++k)
        want[k] = add ? now[k] | set[k] : now[k] & ~set[k];
    return same_set(want, now) ? from : archetype_of_set(w, want);
}

dod_status dod__world_set_of(const dod_world *w, const uint32_t *components, uint32_t n,
                             uint64_t *set, const char *call)
{
    (void)call; /* a release build names no call */
    DOD__REFUSE_IF_IN(call, !components && n > 0, DOD_E_INVALID);
    memset(set, 0, SET_WORDS * sizeof *set);
    for (uint32_t i = 0; i < n; ++i) {
        DOD__REFUSE_IF_IN(call, components[i] >= w->head.n_components, DOD_E_RANGE);
        dod__bit_set(set, components[i]);
    }
    return DOD_OK;
}

dod_status dod_world_archetype_for(const dod_world *w, const uint32_t *components, uint32_t n,
                                   uint32_t *archetype)
{
    DOD__REFUSE_IF(!w || !archetype, DOD_E_INVALID);
    uint64_t set[SET_WORDS];
    dod_status st = dod__world_set_of(w, components, n, set, "dod_world_archetype_for");
    if (st != DOD_OK)
        return st;
    uint32_t a = archetype_of_set(w, set);
    if (a == UINT32_MAX)
        return DOD__FAIL(DOD_E_UNDECLARED, "no single declared archetype has exactly the set");
    *archetype = a;
    return DOD_OK;
}

/* What DOD_E_UNDECLARED says, [several components][add]. */
static const char *const UNDECLARED[2][2] = {
    { "no single declared archetype has e's set minus component",
      "no single declared archetype has e's set plus component" },
    { "no single declared archetype has e's set minus the components",
      "no single declared archetype has e's set plus the components" },
};

/* Move e to `to`, where a change from its archetype `from` leads (UINT32_MAX: undeclared;
 * `from`: nothing to do); refusals name `call`. */
static dod_status change_to(dod_world *w, dod_entity e, uint32_t from, uint32_t to,
                            const char *call, const char *undeclared)
{
    (void)call;
    (void)undeclared;
    if (to == UINT32_MAX)
        return DOD__FAIL_IN(call, DOD_E_UNDECLARED, undeclared);
    return to == from ? DOD_OK : dod_world_move(w, e, to);
}

/* Add (add 1) or remove (add 0) `component`; refusals name `call`, the public function. */
static dod_status change(dod_world *w, dod_entity e, uint32_t component, int add,
                         const char *call)
{
    DOD__REFUSE_IF_IN(call, !w, DOD_E_INVALID);
    DOD__WORLD_REFUSE_BUSY(w, call);
    DOD__REFUSE_IF_IN(call, component >= w->head.n_components, DOD_E_RANGE);
    const uint64_t *s = dod__world_resolve(w, e);
    if (!s)
        return DOD__FAIL_IN(call, DOD_E_NOT_FOUND, "e is not alive in w");
    uint32_t from = dod__world_slot_arch(*s);
    uint32_t to = dod__world_toggle_target(w, from, component, add);
    return change_to(w, e, from, to, call, UNDECLARED[0][add]);
}

dod_status dod_world_add(dod_world *w, dod_entity e, uint32_t component)
{
    return change(w, e, component, 1, "dod_world_add");
}

dod_status dod_world_remove(dod_world *w, dod_entity e, uint32_t component)
{
    return change(w, e, component, 0, "dod_world_remove");
}

/* Add (add 1) or remove (add 0) components[0 .. n - 1] in one move. */
static dod_status change_n(dod_world *w, dod_entity e, const uint32_t *components, uint32_t n,
                           int add, const char *call)
{
    DOD__REFUSE_IF_IN(call, !w, DOD_E_INVALID);
    DOD__WORLD_REFUSE_BUSY(w, call);
    uint64_t set[SET_WORDS];
    dod_status st = dod__world_set_of(w, components, n, set, call);
    if (st != DOD_OK)
        return st;
    const uint64_t *s = dod__world_resolve(w, e);
    if (!s)
        return DOD__FAIL_IN(call, DOD_E_NOT_FOUND, "e is not alive in w");
    uint32_t from = dod__world_slot_arch(*s);
    uint32_t to = dod__world_set_target(w, from, set, add);
    return change_to(w, e, from, to, call, UNDECLARED[1][add]);
}

dod_status dod_world_add_n(dod_world *w, dod_entity e, const uint32_t *components, uint32_t n)
{
    return change_n(w, e, components, n, 1, "dod_world_add_n");
}

dod_status dod_world_remove_n(dod_world *w, dod_entity e, const uint32_t *components, uint32_t n)
{
    return change_n(w, e, components, n, 0, "dod_world_remove_n");
}
