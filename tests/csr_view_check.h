/* Views against the index they were saved from, for the tests that open views. */
#ifndef DOD_TEST_CSR_VIEW_CHECK_H
#define DOD_TEST_CSR_VIEW_CHECK_H

#include <dod/csr.h>
#include <dod/csr_view.h>
#include <string.h>
#include "csr_format.h"

/* Views use the little-endian arrays in place, so a big-endian host refuses every one with
 * DOD_E_INVALID (docs/format.md): what opening a view gives here where a little-endian host
 * gives `want`. */
static inline dod_status view_want(dod_status want)
{
    return dod__csr_swapping() ? DOD_E_INVALID : want;
}

static inline int view_matches(const dod_csr_view *v, const dod_csr *c)
{
    if (v->n_rows != c->n_rows || v->n_items != c->n_items)
        return 0;
    for (uint32_t r = 0; r <= c->n_rows; ++r)
        if (v->offsets[r] != (c->offsets ? c->offsets[r] : 0))
            return 0;
    return c->n_items == 0 || memcmp(v->items, c->items, (size_t)c->n_items * 4) == 0;
}

#endif /* DOD_TEST_CSR_VIEW_CHECK_H */
