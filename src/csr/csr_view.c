/* Zero-copy views over saved images, at three levels of validation. */
#include <dod/csr_view.h>
#include "csr_format.h"
#include "internal.h"

/* NONE and HEADER: the sizes (and for HEADER every header field and the trailer's fixed bytes);
 * offsets and items are not read. */
static dod_status open_cheap(const unsigned char *b, size_t size, dod_csr_view_validate level,
                             dod__csr_layout *l, uint64_t *bound)
{
    DOD__REFUSE_IF(size < DOD__CSR_HEADER_BYTES + DOD__FILE_TRAILER_BYTES, DOD_E_CORRUPT);
    if (level == DOD_CSR_VIEW_VALIDATE_HEADER) {
        dod_status st = dod__csr_header_decode(b, l);
        if (st != DOD_OK)
            return st;
    } else {
        const uint32_t n_rows = dod__get_le32(b + 28);
        DOD__REFUSE_IF(n_rows == UINT32_MAX, DOD_E_CORRUPT);
        *l = dod__csr_layout_of(n_rows, dod__get_le32(b + 32));
    }
    DOD__REFUSE_IF(l->file_bytes != size, DOD_E_CORRUPT); /* so it fits size_t */
    const unsigned char *t = b + l->trailer_pos;
    *bound = dod__get_le64(t + 8);
    if (level == DOD_CSR_VIEW_VALIDATE_HEADER) {
        DOD__REFUSE_IF(!dod__file_trailer_magic_ok(t), DOD_E_CORRUPT);
        DOD__REFUSE_IF(*bound > ((uint64_t)1 << 32), DOD_E_CORRUPT);
    }
    return DOD_OK;
}

dod_status dod_csr_view_open(dod_csr_view *view, const void *buf, size_t size, dod_csr_view_validate level)
{
    DOD__REFUSE_IF(!view, DOD_E_INVALID);
    DOD__REFUSE_IF(!buf, DOD_E_INVALID);
    DOD__REFUSE_IF(((uintptr_t)buf & 3) != 0, DOD_E_INVALID);
    DOD__REFUSE_IF(dod__file_swapping(), DOD_E_INVALID);
    const unsigned char *b = (const unsigned char *)buf;
    dod__csr_layout l;
    uint64_t bound = 0;
    dod_status st;
    switch (level) {
    case DOD_CSR_VIEW_VALIDATE_NONE:
    case DOD_CSR_VIEW_VALIDATE_HEADER: st = open_cheap(b, size, level, &l, &bound); break;
    case DOD_CSR_VIEW_VALIDATE_FULL: {
        uint64_t max_bound;
        st = dod__csr_validate_image(b, size, &l, &bound, &max_bound);
        break;
    }
    default: return DOD__FAIL(DOD_E_INVALID, "unknown validation level");
    }
    if (st != DOD_OK)
        return st;
    view->n_rows = l.n_rows;
    view->n_items = l.n_items;
    view->offsets = (const uint32_t *)(const void *)(b + DOD__CSR_HEADER_BYTES);
    view->items = (const uint32_t *)(const void *)(b + l.items_pos);
    view->item_bound = bound;
    return DOD_OK;
}
