/* Arrow C Data Interface export: every field of both structures against the specification's
 * List<UInt32> layout, zero copy, the release protocol (children released by the parent unless
 * moved out, released structures marked with release == NULL), and failures. */
#include <dod/csr_arrow.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

static void check_schema(const struct ArrowSchema *s)
{
    CHECK(s->format && strcmp(s->format, "+l") == 0);
    CHECK(s->name && strcmp(s->name, "") == 0);
    CHECK(s->metadata == NULL);
    CHECK_EQ(s->flags, 0);
    CHECK_EQ(s->n_children, 1);
    CHECK(s->children != NULL && s->children[0] != NULL);
    CHECK(s->dictionary == NULL);
    CHECK(s->release != NULL);
    const struct ArrowSchema *c = s->children[0];
    CHECK(c->format && strcmp(c->format, "I") == 0);
    CHECK(c->name && strcmp(c->name, "item") == 0);
    CHECK(c->metadata == NULL);
    CHECK_EQ(c->flags, 0);
    CHECK_EQ(c->n_children, 0);
    CHECK(c->children == NULL);
    CHECK(c->dictionary == NULL);
    CHECK(c->release != NULL);
}

static void check_array(const struct ArrowArray *a, const dod_csr *idx)
{
    CHECK_EQ(a->length, (int64_t)idx->n_rows);
    CHECK_EQ(a->null_count, 0);
    CHECK_EQ(a->offset, 0);
    CHECK_EQ(a->n_buffers, 2);
    CHECK_EQ(a->n_children, 1);
    CHECK(a->buffers != NULL && a->buffers[0] == NULL); /* no validity bitmap */
    CHECK(a->buffers[1] != NULL);
    if (idx->offsets)
        CHECK(a->buffers[1] == (const void *)idx->offsets); /* zero copy */
    CHECK(a->dictionary == NULL);
    CHECK(a->release != NULL);
    CHECK(a->children != NULL && a->children[0] != NULL);
    const struct ArrowArray *c = a->children[0];
    CHECK_EQ(c->length, (int64_t)idx->n_items);
    CHECK_EQ(c->null_count, 0);
    CHECK_EQ(c->offset, 0);
    CHECK_EQ(c->n_buffers, 2);
    CHECK_EQ(c->n_children, 0);
    CHECK(c->children == NULL && c->dictionary == NULL);
    CHECK(c->buffers != NULL && c->buffers[0] == NULL && c->buffers[1] != NULL);
    if (idx->items)
        CHECK(c->buffers[1] == (const void *)idx->items);
    CHECK(c->release != NULL);

    /* Read the rows back the way an Arrow consumer does: int32 offsets into the uint32 child. */
    const int32_t *off = (const int32_t *)a->buffers[1];
    const uint32_t *val = (const uint32_t *)c->buffers[1];
    CHECK_EQ(off[0], 0);
    CHECK_EQ(off[a->length], (int32_t)c->length);
    int ok = 1;
    for (uint32_t r = 0; r < idx->n_rows; ++r) {
        ok &= (uint32_t)(off[r + 1] - off[r]) == dod_csr_row_len(idx, r);
        for (int32_t k = off[r]; k < off[r + 1]; ++k)
            ok &= val[k] == dod_csr_row_begin(idx, r)[k - off[r]];
    }
    CHECK(ok);
}

static void test_fields_and_release(void)
{
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator al = test_alloc_get(&ta);
    uint32_t keys[7] = { 2, 0, 2, 1, 2, 4, 0 };
    dod_csr idx;
    dod_csr_init(&idx, &al);
    CHECK_OK(dod_csr_build(&idx, 5, keys, 4, 7));
    long live = ta.live;

    struct ArrowSchema schema;
    struct ArrowArray array;
    CHECK_OK(dod_csr_export_arrow(&idx, &schema, &array));
    check_schema(&schema);
    check_array(&array, &idx);
    CHECK_EQ(ta.live, live + 3);

    /* Releasing the parents releases the children they still own. */
    schema.release(&schema);
    CHECK(schema.release == NULL);
    array.release(&array);
    CHECK(array.release == NULL);
    CHECK_EQ(ta.live, live);

    /* A consumer moves the child array out (copies it, marks the original released), releases
     * the parent first and the child later: the child still works until its own release. */
    CHECK_OK(dod_csr_export_arrow(&idx, &schema, &array));
    struct ArrowArray moved = *array.children[0];
    array.children[0]->release = NULL;
    struct ArrowSchema moved_schema = *schema.children[0];
    schema.children[0]->release = NULL;
    array.release(&array);
    schema.release(&schema);
    CHECK(moved.release != NULL && moved_schema.release != NULL);
    CHECK(moved.buffers[1] == (const void *)idx.items && moved.length == 7);
    CHECK(strcmp(moved_schema.format, "I") == 0);
    moved.release(&moved);
    moved_schema.release(&moved_schema);
    CHECK(moved.release == NULL && moved_schema.release == NULL);
    CHECK_EQ(ta.live, live);

    /* The child released before its parent: the parent skips it. */
    CHECK_OK(dod_csr_export_arrow(&idx, &schema, &array));
    array.children[0]->release(array.children[0]);
    CHECK(array.children[0]->release == NULL);
    schema.children[0]->release(schema.children[0]);
    array.release(&array);
    schema.release(&schema);
    CHECK_EQ(ta.live, live);

    dod_csr_free(&idx);
    test_alloc_finish(&ta);
}

static void test_empty_and_limits(void)
{
    dod_csr idx;
    dod_csr_init(&idx, NULL);
    struct ArrowSchema schema;
    struct ArrowArray array;
    CHECK_OK(dod_csr_export_arrow(&idx, &schema, &array)); /* never built */
    check_schema(&schema);
    check_array(&array, &idx);
    CHECK_EQ(((const int32_t *)array.buffers[1])[0], 0);
    array.release(&array);
    schema.release(&schema);

    CHECK_OK(dod_csr_build(&idx, 3, NULL, 4, 0)); /* rows without items */
    CHECK_OK(dod_csr_export_arrow(&idx, &schema, &array));
    check_array(&array, &idx);
    array.release(&array);
    schema.release(&schema);

    /* More items than int32 offsets can address: refused before anything is read or written.
     * The index is forged (its arrays are never touched), so no 8 GiB is needed. */
    dod_csr big = idx;
    big.n_items = (uint32_t)INT32_MAX + 1u;
    memset(&schema, 0x77, sizeof schema);
    memset(&array, 0x77, sizeof array);
    struct ArrowSchema s0 = schema;
    struct ArrowArray a0 = array;
    CHECK_STATUS(dod_csr_export_arrow(&big, &schema, &array), DOD_E_OVERFLOW);
    CHECK(memcmp(&schema, &s0, sizeof s0) == 0 && memcmp(&array, &a0, sizeof a0) == 0);
    big.n_items = (uint32_t)INT32_MAX; /* the largest that fits passes the check */
    CHECK_OK(dod_csr_export_arrow(&big, &schema, &array));
    CHECK_EQ(array.children[0]->length, INT32_MAX);
    array.release(&array);
    schema.release(&schema);

    CHECK_STATUS(dod_csr_export_arrow(NULL, &schema, &array), DOD_E_INVALID);
    CHECK_STATUS(dod_csr_export_arrow(&idx, NULL, &array), DOD_E_INVALID);
    CHECK_STATUS(dod_csr_export_arrow(&idx, &schema, NULL), DOD_E_INVALID);
    dod_csr_free(&idx);
}

static void test_allocation_failures(void)
{
    uint32_t keys[4] = { 1, 0, 1, 1 };
    for (long n = 0;; ++n) {
        test_alloc ta;
        test_alloc_init(&ta);
        dod_allocator al = test_alloc_get(&ta);
        dod_csr idx;
        dod_csr_init(&idx, &al);
        CHECK_OK(dod_csr_build(&idx, 2, keys, 4, 4));
        long live = ta.live;
        struct ArrowSchema schema, s0;
        struct ArrowArray array, a0;
        memset(&schema, 0x33, sizeof schema);
        memset(&array, 0x33, sizeof array);
        s0 = schema;
        a0 = array;
        test_alloc_fail_after(&ta, n);
        dod_status st = dod_csr_export_arrow(&idx, &schema, &array);
        int hit = ta.failed > 0;
        test_alloc_fail_after(&ta, -1);
        if (hit) {
            CHECK_STATUS(st, DOD_E_NOMEM);
            CHECK_EQ(ta.live, live);
            CHECK(memcmp(&schema, &s0, sizeof s0) == 0 && memcmp(&array, &a0, sizeof a0) == 0);
        } else {
            CHECK_OK(st);
            CHECK_EQ(n, 3); /* three blocks, each failed in turn */
            array.release(&array);
            schema.release(&schema);
        }
        dod_csr_free(&idx);
        test_alloc_finish(&ta);
        if (!hit)
            break;
    }
}

int main(void)
{
    test_fields_and_release();
    test_empty_and_limits();
    test_allocation_failures();
    return check_summary("test_csr_arrow");
}
