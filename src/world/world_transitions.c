/* Adding and removing one component: the archetype each (archetype, component) pair leads to,
 * worked out once at create from the declared component sets, then a lookup and a move. */
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

/* Add (want 1) or remove (want 0) `component`; refusals name `call`, the public function. */
static dod_status change(dod_world *w, dod_entity e, uint32_t component, int want,
                         const char *call)
{
    (void)call; /* a release build names no call */
    DOD__REFUSE_IF_IN(call, !w, DOD_E_INVALID);
    DOD__WORLD_REFUSE_BUSY(w, call);
    DOD__REFUSE_IF_IN(call, component >= w->head.n_components, DOD_E_RANGE);
    const uint64_t *s = dod__world_resolve(w, e);
    if (!s)
        return DOD__FAIL_IN(call, DOD_E_NOT_FOUND, "e is not alive in w");
    uint32_t from = dod__world_slot_arch(*s);
    if (has(&w->arch[from], component) == want)
        return DOD_OK;
    uint32_t to = w->toggle[(size_t)from * w->head.n_components + component];
    if (to == from)
        return DOD__FAIL_IN(call, DOD_E_UNDECLARED,
                            want ? "no single declared archetype has e's set plus component"
                                 : "no single declared archetype has e's set minus component");
    return dod_world_move(w, e, to);
}

dod_status dod_world_add(dod_world *w, dod_entity e, uint32_t component)
{
    return change(w, e, component, 1, "dod_world_add");
}

dod_status dod_world_remove(dod_world *w, dod_entity e, uint32_t component)
{
    return change(w, e, component, 0, "dod_world_remove");
}
