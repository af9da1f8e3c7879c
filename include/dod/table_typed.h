/* dod/table_typed.h: typed columns and typed handles over a dod_table, generated from an
 * X-macro. Includes dod/table.h.
 *
 * Write the record once:
 *     typedef char name24[24];
 *     #define REGIMENT(X) X(float, health, 0) X(float, mood, 0) X(uint32_t, location, 0) \
 *                         X(name24, name, 1)
 *     DOD_TABLE_TYPED(regiment, REGIMENT)
 * and get, all static inline with no overhead beyond the pointer arithmetic:
 *     regiment_row   { float health; ...; name24 name; }         one record (AoS)
 *     regiment_cols  { float *health; ...; name24 *name; }       typed column pointers
 *     DOD_COL(regiment, mood)              the column number of a field (a constant: 1)
 *     DOD_NCOLS(regiment)                  the number of columns (4)
 *     regiment_init(t, alloc)              dod_table_init with the generated descs
 *     regiment_columns(t)                  a regiment_cols of t's current columns
 *     DOD_AT(regiment, t, health, row)     float * to row's health (row < len, unchecked)
 *     regiment_get(t, row, &rec) / regiment_set(t, row, &rec)   copy a whole row
 *     regiment_handle  { dod_table_handle h; }                      a typed handle
 *     regiment_push(t, &rec, &handle)      push, then set the new row (rec NULL: zeroed)
 *     regiment_find(t, handle, &row)       dod_table_find for a regiment_handle
 *     regiment_remove(t, handle)           dod_table_remove for a regiment_handle
 * A typed handle is its own struct type, so passing one typed table's handle to another
 * typed table's functions is a compile error (the untyped API checks a handle's table tag at
 * run time and refuses another table's handle with DOD_E_NOT_FOUND). The typed functions
 * validate and fail exactly as the untyped ones they wrap.
 * X(type, name, group): `name` must be a plain identifier. A field like `char name[24]` is
 * spelled with a typedef as above: the declarator `name[24]` cannot be split by the
 * preprocessor into a pointer member. The generated code never needs the prefix inside X
 * (the user's macro passes X three arguments), so column numbers come from the offsets of a
 * struct of one char per field. Hot loops: take regiment_cols members as restrict parameters
 * of a small function, and the compiler vectorises them. */
#ifndef DOD_TABLE_TYPED_H
#define DOD_TABLE_TYPED_H

#include <dod/table.h>
#include <stddef.h>
#include <string.h>

#ifdef __cplusplus
#  define DOD_ALIGNOF(type) alignof(type)
#else
#  define DOD_ALIGNOF(type) _Alignof(type)
#endif

#define DOD__TT_IDX(type, name, group) char name;
#define DOD__TT_ROW(type, name, group) type name;
#define DOD__TT_PTR(type, name, group) type *name;
#define DOD__TT_DESC(type, name, group) { sizeof(type), DOD_ALIGNOF(type), (group) },
#define DOD__TT_FILL(type, name, group) c.name = (type *)dod__table_col(t, k++);
#define DOD__TT_GET(type, name, group)                                                         \
    memcpy(&out->name, (const type *)dod__table_col(t, k++) + row, sizeof(type));
#define DOD__TT_SET(type, name, group)                                                         \
    memcpy((type *)dod__table_col(t, k++) + row, &in->name, sizeof(type));

#define DOD_COL(P, name) ((uint32_t)offsetof(P##_colidx, name))
#define DOD_NCOLS(P) ((uint32_t)sizeof(P##_colidx))
#define DOD_AT(P, t, name, row) (P##_columns(t).name + (row))

#define DOD_TABLE_TYPED(P, FIELDS)                                                             \
    typedef struct P##_colidx { FIELDS(DOD__TT_IDX) } P##_colidx;                              \
    typedef struct P##_row { FIELDS(DOD__TT_ROW) } P##_row;                                    \
    typedef struct P##_cols { FIELDS(DOD__TT_PTR) } P##_cols;                                  \
    DOD__GENERATED dod_status P##_init(dod_table *t, const dod_allocator *alloc)                \
    {                                                                                          \
        static const dod_table_column_desc descs[] = { FIELDS(DOD__TT_DESC) };                       \
        return dod_table_init(t, descs, DOD_NCOLS(P), alloc);                                  \
    }                                                                                          \
    DOD__GENERATED P##_cols P##_columns(const dod_table *t)                                     \
    {                                                                                          \
        P##_cols c;                                                                            \
        uint32_t k = 0;                                                                        \
        FIELDS(DOD__TT_FILL)                                                                   \
        return c;                                                                              \
    }                                                                                          \
    DOD__GENERATED void P##_get(const dod_table *t, uint32_t row, P##_row *out)                 \
    {                                                                                          \
        uint32_t k = 0;                                                                        \
        FIELDS(DOD__TT_GET)                                                                    \
    }                                                                                          \
    DOD__GENERATED void P##_set(dod_table *t, uint32_t row, const P##_row *in)                  \
    {                                                                                          \
        uint32_t k = 0;                                                                        \
        FIELDS(DOD__TT_SET)                                                                    \
    }                                                                                          \
    typedef struct P##_handle { dod_table_handle h; } P##_handle;                              \
    DOD__GENERATED dod_status P##_push(dod_table *t, const P##_row *in, P##_handle *out)       \
    {                                                                                          \
        if (!out)                                                                              \
            return DOD_E_INVALID;                                                              \
        dod_status st = dod_table_push(t, &out->h);                                            \
        if (st == DOD_OK && in)                                                                \
            P##_set(t, t->n_rows - 1, in);                                                     \
        return st;                                                                             \
    }                                                                                          \
    DOD__GENERATED dod_status P##_find(const dod_table *t, P##_handle h, uint32_t *row)        \
    {                                                                                          \
        return dod_table_find(t, h.h, row);                                                    \
    }                                                                                          \
    DOD__GENERATED dod_status P##_remove(dod_table *t, P##_handle h)                           \
    {                                                                                          \
        return dod_table_remove(t, h.h);                                                       \
    }

#endif /* DOD_TABLE_TYPED_H */
