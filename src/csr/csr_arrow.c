/* Arrow C Data Interface export of an index: List<UInt32>, zero copy. */
#include <dod/csr_arrow.h>
#include "internal.h"

/* What a release callback frees: each exported structure owns its block, so a consumer may move
 * a child out and release parent and child in any order. */
typedef struct schema_parent {
    dod_allocator alloc;
    struct ArrowSchema child;
    struct ArrowSchema *children[1];
} schema_parent;

typedef struct array_parent {
    dod_allocator alloc;
    struct ArrowArray child;
    struct ArrowArray *children[1];
    const void *buffers[2];
} array_parent;

typedef struct array_child {
    dod_allocator alloc;
    const void *buffers[2];
} array_child;

static const uint32_t empty_offsets[1] = { 0 };

static void release_child_schema(struct ArrowSchema *s)
{
    s->release = NULL; /* owns nothing: format and name are string literals */
}

static void release_parent_schema(struct ArrowSchema *s)
{
    schema_parent *p = (schema_parent *)s->private_data;
    if (p->child.release)
        p->child.release(&p->child);
    dod_allocator a = p->alloc;
    dod__free(&a, p, sizeof *p);
    s->private_data = NULL;
    s->release = NULL;
}

static void release_child_array(struct ArrowArray *arr)
{
    array_child *c = (array_child *)arr->private_data;
    dod_allocator a = c->alloc;
    dod__free(&a, c, sizeof *c);
    arr->private_data = NULL;
    arr->release = NULL;
}

static void release_parent_array(struct ArrowArray *arr)
{
    array_parent *p = (array_parent *)arr->private_data;
    if (p->child.release)
        p->child.release(&p->child);
    dod_allocator a = p->alloc;
    dod__free(&a, p, sizeof *p);
    arr->private_data = NULL;
    arr->release = NULL;
}

static struct ArrowSchema make_schema(const char *format, const char *name)
{
    struct ArrowSchema s;
    s.format = format;
    s.name = name;
    s.metadata = NULL;
    s.flags = 0; /* not nullable: the index has no null rows or items */
    s.n_children = 0;
    s.children = NULL;
    s.dictionary = NULL;
    s.release = NULL;
    s.private_data = NULL;
    return s;
}

static struct ArrowArray make_array(int64_t length, const void **buffers)
{
    struct ArrowArray a;
    a.length = length;
    a.null_count = 0;
    a.offset = 0;
    a.n_buffers = 2;
    a.n_children = 0;
    a.buffers = buffers;
    a.children = NULL;
    a.dictionary = NULL;
    a.release = NULL;
    a.private_data = NULL;
    return a;
}

dod_status dod_csr_export_arrow(const dod_csr *csr, struct ArrowSchema *schema,
                                struct ArrowArray *array)
{
    DOD__REFUSE_IF(!csr, DOD_E_INVALID);
    DOD__REFUSE_IF(!schema, DOD_E_INVALID);
    DOD__REFUSE_IF(!array, DOD_E_INVALID);
    DOD__REFUSE_IF(csr->n_items > (uint32_t)INT32_MAX, DOD_E_OVERFLOW);
    const dod_allocator *a = &csr->alloc;
    schema_parent *sp = (schema_parent *)dod__alloc(a, sizeof *sp);
    array_parent *ap = (array_parent *)dod__alloc(a, sizeof *ap);
    array_child *ac = (array_child *)dod__alloc(a, sizeof *ac);
    if (!sp || !ap || !ac) {
        dod__free(a, sp, sizeof *sp);
        dod__free(a, ap, sizeof *ap);
        dod__free(a, ac, sizeof *ac);
        return DOD__FAIL(DOD_E_NOMEM, "allocating the export's private data");
    }

    sp->alloc = *a;
    sp->child = make_schema("I", "item");
    sp->child.release = release_child_schema;
    sp->children[0] = &sp->child;
    *schema = make_schema("+l", "");
    schema->n_children = 1;
    schema->children = sp->children;
    schema->release = release_parent_schema;
    schema->private_data = sp;

    ac->alloc = *a;
    ac->buffers[0] = NULL; /* validity: none, null_count is 0 */
    ac->buffers[1] = csr->items ? (const void *)csr->items : (const void *)empty_offsets;
    ap->alloc = *a;
    ap->child = make_array(csr->n_items, ac->buffers);
    ap->child.release = release_child_array;
    ap->child.private_data = ac;
    ap->children[0] = &ap->child;
    ap->buffers[0] = NULL;
    ap->buffers[1] = csr->offsets ? (const void *)csr->offsets : (const void *)empty_offsets;
    *array = make_array(csr->n_rows, ap->buffers);
    array->n_children = 1;
    array->children = ap->children;
    array->release = release_parent_array;
    array->private_data = ap;
    return DOD_OK;
}
