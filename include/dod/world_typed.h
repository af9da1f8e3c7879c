/* dod/world_typed.h: the typed layer of the world, the C form of the seed's templates.
 * Used through dod/world.h, which includes it; on its own it only defines macros (it does not
 * include dod/world.h, so the two headers never include each other).
 *
 * A game declares its component types at global scope and lists them once:
 *     typedef struct position { float x, y; } position;
 *     typedef struct velocity { float x, y; } velocity;
 *     typedef struct hitbox   { float x, y, w, h; } hitbox;
 *     #define GAME_COMPONENTS(C) C(position) C(velocity) C(hitbox)
 *     #define ENTITY_A(X) X(position) X(velocity) X(hitbox)
 *     #define ENTITY_C(X) X(position) X(hitbox)
 *     #define GAME_ARCHETYPES(A) A(entity_a, ENTITY_A, 4096) A(entity_c, ENTITY_C, 0)
 *                                        (name, components, capacity: > 0 fixed, 0 chunked)
 *     DOD_WORLD(game, GAME_COMPONENTS, GAME_ARCHETYPES)          (no trailing semicolon)
 * and gets, all static inline with no overhead beyond the pointer arithmetic:
 *     DOD_CID(game, position), DOD_AID(game, entity_a)   ids, integer constant expressions
 *     dod_world_desc game_desc(void)        the desc (change block sizes or caps, then create)
 *     game_create(&w, alloc)                 dod_world_create(&w, game_desc() with alloc)
 *     per archetype entity_a:
 *       game_entity_a_row   { position position; velocity velocity; hitbox hitbox; }
 *       game_entity_a_cols  { uint32_t n; const dod_entity *entities;
 *                             position *position; velocity *velocity; hitbox *hitbox; }
 *       game_entity_a_spawn(w, &row or NULL, &e)   spawn with the row's values (NULL: zeroed),
 *                                                   each component written once
 *       game_entity_a_block(w, b, &cols)           block b's columns, 0 once b is past the
 *                                                   last block (O(1) per block)
 *     per component position:
 *       position *game_get_position(w, e)          dod_world_get, typed (NULL likewise)
 *       position *game_get_at_position(w, item)    dod_world_get_at: by slot (an index's item)
 *       DOD_FIELD(&it, game, position)             dod_world_field, typed
 * The seed's loop is then, with `step` taking restrict pointers so the compiler vectorises it:
 *     game_entity_a_cols c;
 *     for (uint32_t b = 0; game_entity_a_block(w, b, &c); ++b)
 *         step(c.n, c.position, c.velocity, dt);
 *
 * Rules. Component types are named by a plain identifier that is also the member name (a
 * `position position;` member), declared at global scope: in C++ the generated structs refer
 * to them as `::position`, since a member of the same name would change the meaning of the
 * type's name inside the struct. Every typed archetype has at least one component. The lists
 * may be built from other lists (`#define ENTITY_B(X) ENTITY_C(X) X(velocity)`) as long as
 * each list macro expands to invocations of its callback.
 *
 * How the prefix reaches the generated names: the user's lists pass bare names, and a list's
 * callback cannot carry a third party's argument. So DOD_WORLD hands the archetype and
 * component lists a callback that emits its arguments followed by an unmatched `)`, and puts
 * `DOD__W_ARCH_A(P, ` in front: each item then closes one call that carries P, and that call
 * opens the next one (two macros alternate, since a macro cannot expand inside itself) until
 * it reads the end marker DOD__W_END. Ids need no prefix inside a list: DOD_CID is the
 * offset of a member in a struct of one char per component (table_typed.h's trick), and the
 * generated functions reach it through a local typedef. */
#ifndef DOD_WORLD_TYPED_H
#define DOD_WORLD_TYPED_H

#include <dod/base.h>
#include <stddef.h>
#include <string.h>

#ifdef __cplusplus
#  define DOD__W_T(type) ::type
#  define DOD__W_ALIGNOF(type) alignof(type)
#else
#  define DOD__W_T(type) type
#  define DOD__W_ALIGNOF(type) _Alignof(type)
#endif

/* Component and archetype ids: offsets in structs of one char per name. */
#define DOD_CID(P, name) ((uint32_t)offsetof(P##_cidx, name))
#define DOD_AID(P, name) ((uint32_t)offsetof(P##_aidx, name))
#define DOD_FIELD(it, P, name) ((DOD__W_T(name) *)dod_world_field((it), DOD_CID(P, name)))

/* Callbacks for component lists (X(name)) and archetype lists (A(name, F, cap)). */
#define DOD__W_CHAR(name) char name;
#define DOD__W_ACHAR(name, F, cap) char name;
/* A member's name cannot be parenthesised, hence the NOLINTs. */
#define DOD__W_MEMBER(name) DOD__W_T(name) name;   /* NOLINT(bugprone-macro-parentheses) */
#define DOD__W_PTR(name) DOD__W_T(name) *name;     /* NOLINT(bugprone-macro-parentheses) */
#define DOD__W_CID_LOCAL(name) (uint32_t)offsetof(dod__w_cidx, name),
#define DOD__W_CDESC(name) { #name, sizeof(DOD__W_T(name)), DOD__W_ALIGNOF(DOD__W_T(name)) },
#define DOD__W_ACOMPS(name, F, cap)                                                            \
    static const uint32_t dod__w_comps_##name[] = { F(DOD__W_CID_LOCAL) UINT32_MAX };
#define DOD__W_ADESC(name, F, cap)                                                             \
    { #name, dod__w_comps_##name,                                                              \
      (uint32_t)(sizeof dod__w_comps_##name / sizeof(uint32_t) - 1u), (uint32_t)(cap), 0u, 0u },
#define DOD__W_FILL(name) out->name = (DOD__W_T(name) *)cols[k++];
#define DOD__W_INIT(name)                                                                      \
    memcpy(block + fields[offsetof(dod__w_cidx, name)].offset + (size_t)row * sizeof init->name, \
           &init->name, sizeof init->name);

/* The deferred expansion (see the opening comment): items close a pending call carrying P. */
#define DOD__W_CAT(a, b) DOD__W_CAT_I(a, b)
#define DOD__W_CAT_I(a, b) a##b
#define DOD__W_SECOND(a, b, ...) b
#define DOD__W_SECOND_I(...) DOD__W_SECOND(__VA_ARGS__)
#define DOD__W_PROBE_DOD__W_END ~, 1
#define DOD__W_IS_END(name) DOD__W_SECOND_I(DOD__W_PROBE_##name, 0, ~)

#define DOD__W_ARCH_ITEM(name, F, cap) name, F, cap )
#define DOD__W_ARCH_EACH(P, ...) DOD__W_ARCH_A(P, __VA_ARGS__)
#define DOD__W_ARCH_A(P, name, F, cap)                                                         \
    DOD__W_CAT(DOD__W_ARCH_A_, DOD__W_IS_END(name))(P, name, F, cap)
#define DOD__W_ARCH_B(P, name, F, cap)                                                         \
    DOD__W_CAT(DOD__W_ARCH_B_, DOD__W_IS_END(name))(P, name, F, cap)
#define DOD__W_ARCH_A_0(P, name, F, cap) DOD__W_ARCHETYPE(P, name, F) DOD__W_ARCH_B ( P,
#define DOD__W_ARCH_B_0(P, name, F, cap) DOD__W_ARCHETYPE(P, name, F) DOD__W_ARCH_A ( P,
#define DOD__W_ARCH_A_1(P, name, F, cap)
#define DOD__W_ARCH_B_1(P, name, F, cap)

#define DOD__W_COMP_ITEM(name) name )
#define DOD__W_COMP_EACH(P, ...) DOD__W_COMP_A(P, __VA_ARGS__)
#define DOD__W_COMP_A(P, name) DOD__W_CAT(DOD__W_COMP_A_, DOD__W_IS_END(name))(P, name)
#define DOD__W_COMP_B(P, name) DOD__W_CAT(DOD__W_COMP_B_, DOD__W_IS_END(name))(P, name)
#define DOD__W_COMP_A_0(P, name) DOD__W_COMPONENT(P, name) DOD__W_COMP_B ( P,
#define DOD__W_COMP_B_0(P, name) DOD__W_COMPONENT(P, name) DOD__W_COMP_A ( P,
#define DOD__W_COMP_A_1(P, name)
#define DOD__W_COMP_B_1(P, name)

/* What one archetype of world P generates. */
#define DOD__W_ARCHETYPE(P, name, F)                                                           \
    typedef struct P##_##name##_row { F(DOD__W_MEMBER) } P##_##name##_row;                     \
    typedef struct P##_##name##_cols {                                                         \
        uint32_t n;                                                                            \
        const dod_entity *entities;                                                            \
        F(DOD__W_PTR)                                                                          \
    } P##_##name##_cols;                                                                       \
    typedef struct P##_##name##_colidx { F(DOD__W_CHAR) } P##_##name##_colidx;                 \
    DOD__GENERATED dod_status P##_##name##_spawn(dod_world *w, const P##_##name##_row *init,   \
                                                 dod_entity *out)                              \
    {                                                                                          \
        typedef P##_cidx dod__w_cidx;                                                          \
        unsigned char *block;                                                                  \
        uint32_t row;                                                                          \
        if (!init)                                                                             \
            return dod_world_spawn(w, DOD_AID(P, name), out);                                  \
        dod_status st = dod__world_spawn_row(w, DOD_AID(P, name), out, &block, &row);          \
        if (st == DOD_OK) {                                                                    \
            const dod__world_field *fields = dod__world_fields(w, DOD_AID(P, name));           \
            F(DOD__W_INIT)                                                                     \
        }                                                                                      \
        return st;                                                                             \
    }                                                                                          \
    DOD__GENERATED int P##_##name##_block(const dod_world *w, uint32_t b,                      \
                                          P##_##name##_cols *out)                              \
    {                                                                                          \
        void *cols[1 + sizeof(P##_##name##_colidx)];                                           \
        uint32_t n = out ? dod_world_block(w, DOD_AID(P, name), b, cols) : 0u;                 \
        uint32_t k = 1;                                                                        \
        if (n == 0)                                                                            \
            return 0;                                                                          \
        out->n = n;                                                                            \
        out->entities = (const dod_entity *)cols[0];                                           \
        F(DOD__W_FILL)                                                                         \
        return 1;                                                                              \
    }

/* What one component of world P generates. */
#define DOD__W_COMPONENT(P, name)                                                              \
    DOD__GENERATED DOD__W_T(name) *P##_get_##name(const dod_world *w, dod_entity e)            \
    {                                                                                          \
        return (DOD__W_T(name) *)dod__world_get_sized(w, e, DOD_CID(P, name),                  \
                                                      sizeof(DOD__W_T(name)));                 \
    }                                                                                          \
    DOD__W_COMPONENT_AT(P, name)

/* Per component, by a relation index's item (an entity slot, dod/world_index.h):
 *     position *game_get_at_position(w, item)    dod_world_get_at, typed (NULL likewise) */
#define DOD__W_COMPONENT_AT(P, name)                                                           \
    DOD__GENERATED DOD__W_T(name) *P##_get_at_##name(const dod_world *w, uint32_t item)        \
    {                                                                                          \
        return (DOD__W_T(name) *)dod__world_get_at_sized(w, item, DOD_CID(P, name),            \
                                                         sizeof(DOD__W_T(name)));              \
    }

#define DOD_WORLD(P, COMPONENTS, ARCHETYPES)                                                   \
    typedef struct P##_cidx { COMPONENTS(DOD__W_CHAR) } P##_cidx;                              \
    typedef struct P##_aidx { ARCHETYPES(DOD__W_ACHAR) } P##_aidx;                             \
    DOD__GENERATED dod_world_desc P##_desc(void)                                               \
    {                                                                                          \
        typedef P##_cidx dod__w_cidx;                                                          \
        ARCHETYPES(DOD__W_ACOMPS)                                                              \
        static const dod_component_desc comps[] = { COMPONENTS(DOD__W_CDESC) };                \
        static const dod_archetype_desc archs[] = { ARCHETYPES(DOD__W_ADESC) };                \
        dod_world_desc d;                                                                      \
        memset(&d, 0, sizeof d);                                                               \
        d.components = comps;                                                                  \
        d.n_components = (uint32_t)(sizeof comps / sizeof comps[0]);                           \
        d.archetypes = archs;                                                                  \
        d.n_archetypes = (uint32_t)(sizeof archs / sizeof archs[0]);                           \
        return d;                                                                              \
    }                                                                                          \
    DOD__GENERATED dod_status P##_create(dod_world **w, const dod_allocator *alloc)            \
    {                                                                                          \
        dod_world_desc d = P##_desc();                                                         \
        d.alloc = alloc;                                                                       \
        return dod_world_create(w, &d);                                                        \
    }                                                                                          \
    DOD__W_ARCH_EACH(P, ARCHETYPES(DOD__W_ARCH_ITEM) DOD__W_END, ~, ~)                         \
    DOD__W_COMP_EACH(P, COMPONENTS(DOD__W_COMP_ITEM) DOD__W_END)

#endif /* DOD_WORLD_TYPED_H */
