/* dod/world_typed.h: the typed layer of the world, the C form of the seed's templates.
 * Used through dod/world.h, which includes it after the headers whose calls the generated
 * functions make (world_core.h, world_cmds.h, world_rows.h, world_index.h, world_io.h); on its
 * own it only defines macros and includes only dod/base.h.
 *
 * A game declares its component types at global scope and lists them once:
 *     typedef struct position { float x, y; } position;
 *     typedef struct velocity { float x, y; } velocity;
 *     typedef struct hitbox   { float x, y, w, h; } hitbox;
 *     #define GAME_COMPONENTS(C) C(position) C(velocity) C(hitbox)
 *     #define UNIT(X) X(position) X(velocity) X(hitbox)
 *     #define WRECK(X) X(position) X(hitbox)
 *     #define MARKER(X)                               (an archetype of ids only: allowed)
 *     #define GAME_ARCHETYPES(A) A(unit, UNIT, 4096) A(wreck, WRECK, 0) A(marker, MARKER, 0)
 *                                        (name, components, capacity: > 0 fixed, 0 chunked)
 *     DOD_WORLD(game, GAME_COMPONENTS, GAME_ARCHETYPES)          (no trailing semicolon)
 * and gets, all static inline with no overhead beyond the pointer arithmetic:
 *     DOD_CID(game, position), DOD_AID(game, unit)   ids, integer constant expressions
 *     DOD_NCOMPONENTS(game), DOD_NARCHETYPES(game)    their counts (3, 3), likewise
 *     dod_world_desc game_desc(void)        the desc, pointing at static arrays
 *     game_create(&w, alloc)                 dod_world_create(&w, game_desc() with alloc)
 *     game_config  { dod_archetype_desc unit, wreck, marker; }   the archetypes, by name
 *     game_config game_config_default(void)  the declared ones
 *     game_create_config(&w, &cfg or NULL, alloc, flags)   create with these archetypes
 *                                            (NULL: the declared ones) and desc.flags
 *                                            (DOD_WORLD_PREFAULT or 0). Capacities, block
 *                                            sizes and caps decided at run time:
 *         game_config cfg = game_config_default();
 *         cfg.wreck.capacity = n_wrecks;           (one line per archetype changed)
 *         cfg.unit.block_bytes = 1u << 20;
 *         dod_status st = game_create_config(&w, &cfg, NULL, 0);
 *     game_frames_create_config(&frames, n_slots, &cfg or NULL, alloc, flags)
 *                                            dod_world_frames_create (dod/world_io.h) of worlds
 *                                            of the same declaration: frames a world made by
 *                                            game_create_config can be copied into
 *     game_desc_config(&cfg, archs)          the desc of cfg's archetypes, written into archs
 *                                            (DOD_NARCHETYPES(game) entries, which the desc
 *                                            points at: keep them while the desc is used);
 *                                            cfg or archs NULL: game_desc()
 *     per archetype unit:
 *       game_unit_row   { position position; velocity velocity; hitbox hitbox; }
 *       game_unit_cols  { uint32_t n;                  rows in the block
 *                         const dod_entity *entities;  their handles
 *                         position *position; velocity *velocity; hitbox *hitbox; }
 *                                                      a column per component, n elements
 *       game_unit_spawn(w, &row or NULL, &e or NULL)   spawn with the row's values (NULL:
 *                                                      zeroed), each component written once
 *       game_unit_spawn_n(w, n, out or NULL)           n rows zeroed (dod_world_spawn_n)
 *       game_unit_spawn_fill(w, n, &row, out or NULL)  n rows, every one = *row
 *       game_unit_spawn_rows(w, n, rows, out or NULL)  n rows from an array of n rows
 *                       (the bulk spawns write each block's columns directly, all or nothing;
 *                        out: n handles in row order; NULL row / rows: zeroed)
 *       game_unit_block(w, b, &cols)       block b's columns, 0 once b is past the last
 *                                          block (O(1) per block)
 *       game_unit_count(w)                 dod_world_count
 *       game_move_to_unit(w, e)            dod_world_move to unit
 *       game_unit_reserve(w, rows)         dod_world_reserve: room for rows rows in all
 *     for an archetype without components (marker): game_marker_row is declared and never
 *     defined (an ISO C struct needs a member), so every spawn takes NULL for it;
 *     game_marker_cols is { n, entities }.
 *       game_unit_cmd_spawn(cb, &row or NULL, &e)   dod_cmds_spawn into a command buffer,
 *                                                  the row's values (NULL: zeroed)
 *     per component position:
 *       position *game_get_position(w, e)          dod_world_get, typed (NULL likewise)
 *       game_add_position(w, e, &value or NULL)    dod_world_add, then the value written
 *                                                  (NULL: zeroed, or left as it was when e
 *                                                  had it); DOD_E_UNDECLARED when no single
 *                                                  archetype has e's set plus position
 *       game_remove_position(w, e)                 dod_world_remove
 *       position *game_row_position(&rows, item)   dod_world_row_get: by row number (an
 *                                                  index's item, DOD_WORLD_INDEX_ROWS)
 *       position *game_get_at_position(w, item)    dod_world_get_at: by slot (an index's item)
 *       DOD_FIELD(&it, game, position)             dod_world_field, typed
 *       game_cmd_set_position(cb, e, &value)        dod_cmds_set, typed
 *       game_cmd_add_position(cb, e, &value or NULL), game_cmd_remove_position(cb, e)
 *                                                  dod_cmds_add / dod_cmds_remove, typed
 *     DOD_COMPONENT_SET(game, gear, LIST) names a set of components added or removed in one
 *     move (game_add_gear, game_remove_gear, game_cmd_add_gear, ...; see below), and
 *     DOD_CMDS_ACCUMULATE / DOD_CMDS_SET_ENTITY record a field's combine or link by name.
 * The seed's loop is then, with `step` taking restrict pointers so the compiler vectorises it:
 *     game_unit_cols c;
 *     for (uint32_t b = 0; game_unit_block(w, b, &c); ++b)
 *         step(c.n, c.position, c.velocity, dt);
 *
 * Typed queries, across archetypes. A query list names components with three callbacks,
 * W written, R read, X excluded (what an entity must not have), in any order:
 *     #define MOVERS(W, R, X) W(position) R(velocity) X(frozen)
 *     DOD_QUERY(game, movers, MOVERS)                  (after DOD_WORLD; no semicolon)
 * generates:
 *     game_movers_cols  { uint32_t n; uint32_t archetype; const dod_entity *entities;
 *                         position *position; const velocity *velocity; }
 *                       a mutable column per W, a const one per R (writing through it does
 *                       not compile), none for X; n rows from entities[0] on
 *     game_movers_query(&q, w)        dod_query_init: all = the W and R items, none = X
 *     game_movers_begin(&it, w)       the query and dod_world_iter_init in one call
 *                                     (O(archetypes): the archetypes are matched each time)
 *     game_movers_next(&it, &c)       dod_world_next, then cols_of: 1, or 0 when done
 *     game_movers_cols_of(&it, &c)    c from an iterator standing on a block or on part of
 *                                     one (a schedule's task); 0 when it stands on nothing
 *     game_movers_writes[], game_movers_reads[], game_movers_excludes[]
 *                                     the ids of each kind in list order, each array ending
 *                                     with UINT32_MAX (none is empty in ISO C), and
 *     game_movers_n_writes, game_movers_n_reads, game_movers_n_excludes   their counts
 *                                     (enum constants): what a system schedule needs to know
 *                                     what a system writes and reads
 * so a system's body reads like the seed's loop:
 *     dod_world_iter it;
 *     game_movers_cols c;
 *     for (game_movers_begin(&it, w); game_movers_next(&it, &c);)
 *         step(c.n, c.position, c.velocity, dt);
 * A list of X items only, or an empty one, is allowed: its cols carry n, archetype and
 * entities (every entity without the X components; every entity). A query's name must not
 * be an archetype's name (both make P_<name>_cols).
 *
 * Rules. Component types are named by a plain identifier that is also the member name (a
 * `position position;` member), declared at global scope: in C++ the generated structs refer
 * to them as `::position`, since a member of the same name would change the meaning of the
 * type's name inside the struct. A world has at least one component and one archetype. The
 * lists may be built from other lists (`#define ENTITY_B(X) ENTITY_C(X) X(velocity)`) as long
 * as each list macro expands to invocations of its callback (or to nothing).
 *
 * How the prefix reaches the generated names: the user's lists pass bare names, and a list's
 * callback cannot carry a third party's argument. So DOD_WORLD hands the archetype and
 * component lists a callback that emits its arguments followed by an unmatched `)`, and puts
 * `DOD__W_ARCH_A(P, ` in front: each item then closes one call that carries P, and that call
 * opens the next one (two macros alternate, since a macro cannot expand inside itself) until
 * it reads the end marker DOD__W_END. A query list's items do the same, carrying their kind
 * (DOD__WQ_IDS(P, LIST, kind) gives the ids of one kind: a second generator can reuse it).
 * Ids need no prefix inside a list: DOD_CID is the offset of a member in a struct of one char
 * per component (table_typed.h's trick), and the generated functions reach it through a
 * local typedef. Whether an archetype's list is empty is decided by the preprocessor: its
 * items expand to `~, 1,`, and the second of what follows is 1 or the 0 placed after them. */
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

/* Component and archetype ids: offsets in structs of one char per name; their counts: sizes
 * of char arrays of one element per name (exact: an array has no padding). */
#define DOD_CID(P, name) ((uint32_t)offsetof(P##_cidx, name))
#define DOD_AID(P, name) ((uint32_t)offsetof(P##_aidx, name))
#define DOD_NCOMPONENTS(P) ((uint32_t)sizeof(((P##_counts *)0)->components))
#define DOD_NARCHETYPES(P) ((uint32_t)sizeof(((P##_counts *)0)->archetypes))
#define DOD_FIELD(it, P, name) ((DOD__W_T(name) *)dod_world_field((it), DOD_CID(P, name)))

/* Generated data a program does not use must not warn either (DOD__GENERATED's habit). */
#if defined(__GNUC__) || defined(__clang__)
#  define DOD__W_DATA static __attribute__((unused))
#else
#  define DOD__W_DATA static
#endif

/* Callbacks for component lists (X(name)) and archetype lists (A(name, F, cap)). */
#define DOD__W_CHAR(name) char name;
#define DOD__W_ACHAR(name, F, cap) char name;
/* Counting: a list of these, then 0, adds up to its items (a term is not an expression). */
#define DOD__W_ONE(name) 1 +         /* NOLINT(bugprone-macro-parentheses) */
#define DOD__W_AONE(name, F, cap) 1 + /* NOLINT(bugprone-macro-parentheses) */
#define DOD__W_SKIP(name)
/* A member's name cannot be parenthesised, hence the NOLINTs. */
#define DOD__W_MEMBER(name) DOD__W_T(name) name;   /* NOLINT(bugprone-macro-parentheses) */
#define DOD__W_PTR(name) DOD__W_T(name) *name;     /* NOLINT(bugprone-macro-parentheses) */
#define DOD__W_CPTR(name) const DOD__W_T(name) *name; /* NOLINT(bugprone-macro-parentheses) */
#define DOD__W_ADESC_MEMBER(name, F, cap) dod_archetype_desc name;
#define DOD__W_CID_LOCAL(name) (uint32_t)offsetof(dod__w_cidx, name),
#define DOD__W_CDESC(name) { #name, sizeof(DOD__W_T(name)), DOD__W_ALIGNOF(DOD__W_T(name)) },
#define DOD__W_ACOMPS(name, F, cap)                                                            \
    static const uint32_t dod__w_comps_##name[] = { F(DOD__W_CID_LOCAL) UINT32_MAX };
#define DOD__W_ADESC(name, F, cap)                                                             \
    { #name, dod__w_comps_##name,                                                              \
      (uint32_t)(sizeof dod__w_comps_##name / sizeof(uint32_t) - 1u), (uint32_t)(cap), 0u, 0u, \
      0u },
#define DOD__W_CONFIG_GET(name, F, cap) c.name = d.archetypes[i++];
#define DOD__W_CONFIG_PUT(name, F, cap) archs[i++] = cfg->name;
#define DOD__W_FILL(name) out->name = (DOD__W_T(name) *)cols[k++];
#define DOD__W_INIT(name)                                                                      \
    memcpy(dod__world_elem(block, fields[offsetof(dod__w_cidx, name)].offset, scale, row,         \
                           sizeof init->name),                                                 \
           &init->name, sizeof init->name);
/* Bulk spawns: `run` rows of column `name` from row r of block c written with one value, a
 * line's worth of copies of it at a time (64 bytes or more: a loop of plain stores of one
 * element ran 1.9 - 2.6x memset on the development VM, this one 1.3 - 1.8x); or row i_ of
 * every column from one row struct. */
#define DOD__W_FILL_RUN(name)                                                                  \
    {                                                                                          \
        DOD__W_T(name) *to_ = c.name + r;                                                      \
        DOD__W_T(name) line_[(64u + sizeof(DOD__W_T(name)) - 1u) / sizeof(DOD__W_T(name))];    \
        const uint32_t per_line_ = (uint32_t)(sizeof line_ / sizeof line_[0]);                 \
        uint32_t i_ = 0;                                                                       \
        for (uint32_t k_ = 0; k_ < per_line_; ++k_)                                            \
            memcpy(&line_[k_], &value->name, sizeof line_[0]);                                 \
        for (; i_ + per_line_ <= run; i_ += per_line_)                                         \
            memcpy(to_ + i_, line_, sizeof line_);                                             \
        for (; i_ < run; ++i_)                                                                 \
            memcpy(to_ + i_, line_, sizeof line_[0]);                                          \
    }
#define DOD__W_ROW_CELL(name) memcpy(c.name + r + i_, &from_->name, sizeof from_->name);

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
#define DOD__W_ARCH_A_0(P, name, F, cap)                                                       \
    DOD__W_ARCHETYPE(P, name, F) DOD__W_ARCHETYPE_CMDS(P, name, F) DOD__W_ARCH_B ( P,
#define DOD__W_ARCH_B_0(P, name, F, cap)                                                       \
    DOD__W_ARCHETYPE(P, name, F) DOD__W_ARCHETYPE_CMDS(P, name, F) DOD__W_ARCH_A ( P,
#define DOD__W_ARCH_A_1(P, name, F, cap)
#define DOD__W_ARCH_B_1(P, name, F, cap)

#define DOD__W_COMP_ITEM(name) name )
#define DOD__W_COMP_EACH(P, ...) DOD__W_COMP_A(P, __VA_ARGS__)
#define DOD__W_COMP_A(P, name) DOD__W_CAT(DOD__W_COMP_A_, DOD__W_IS_END(name))(P, name)
#define DOD__W_COMP_B(P, name) DOD__W_CAT(DOD__W_COMP_B_, DOD__W_IS_END(name))(P, name)
#define DOD__W_COMP_A_0(P, name)                                                               \
    DOD__W_COMPONENT(P, name) DOD__W_COMPONENT_CMDS(P, name) DOD__W_COMP_B ( P,
#define DOD__W_COMP_B_0(P, name)                                                               \
    DOD__W_COMPONENT(P, name) DOD__W_COMPONENT_CMDS(P, name) DOD__W_COMP_A ( P,
#define DOD__W_COMP_A_1(P, name)
#define DOD__W_COMP_B_1(P, name)

/* Whether a component list has an item: 1 or 0 (its items expand to `~, 1,`, so the second
 * argument of what follows is 1, or the 0 placed after them). Its own copies of the helpers,
 * since it expands inside the deferred expansion that uses DOD__W_CAT and DOD__W_SECOND. */
#define DOD__W_PROBE_ITEM(name) ~, 1,
#define DOD__W_SECOND2(a, b, ...) b
#define DOD__W_SECOND2_I(...) DOD__W_SECOND2(__VA_ARGS__)
#define DOD__W_HAS_ITEMS(F) DOD__W_SECOND2_I(F(DOD__W_PROBE_ITEM) 0, 0, ~)
#define DOD__W_PICK(a, b) DOD__W_PICK_I(a, b)
#define DOD__W_PICK_I(a, b) a##b

/* What one archetype of world P generates: the parts every archetype has, then those that
 * need a row (an archetype with components) or have none to take (an archetype without). */
#define DOD__W_ARCHETYPE(P, name, F)                                                           \
    typedef struct P##_##name##_cols {                                                         \
        uint32_t n;                                                                            \
        const dod_entity *entities;                                                            \
        F(DOD__W_PTR)                                                                          \
    } P##_##name##_cols;                                                                       \
    DOD__GENERATED uint32_t P##_##name##_count(const dod_world *w)                             \
    {                                                                                          \
        return dod_world_count(w, DOD_AID(P, name));                                           \
    }                                                                                          \
    DOD__GENERATED dod_status P##_##name##_spawn_n(dod_world *w, uint32_t n, dod_entity *out)  \
    {                                                                                          \
        return dod_world_spawn_n(w, DOD_AID(P, name), n, out);                                 \
    }                                                                                          \
    DOD__GENERATED dod_status P##_move_to_##name(dod_world *w, dod_entity e)                   \
    {                                                                                          \
        return dod_world_move(w, e, DOD_AID(P, name));                                         \
    }                                                                                          \
    DOD__GENERATED dod_status P##_##name##_reserve(dod_world *w, uint32_t rows)                \
    {                                                                                          \
        return dod_world_reserve(w, DOD_AID(P, name), rows);                                   \
    }                                                                                          \
    DOD__W_PICK(DOD__W_ARCH_ROWS_, DOD__W_HAS_ITEMS(F))(P, name, F)

#define DOD__W_ARCH_ROWS_1(P, name, F)                                                         \
    typedef struct P##_##name##_row { F(DOD__W_MEMBER) } P##_##name##_row;                     \
    DOD__GENERATED int P##_##name##_block(const dod_world *w, uint32_t b,                      \
                                          P##_##name##_cols *out)                              \
    {                                                                                          \
        void *cols[1 + F(DOD__W_ONE) 0];                                                       \
        uint32_t n = out ? dod_world_block(w, DOD_AID(P, name), b, cols) : 0u;                 \
        uint32_t k = 1;                                                                        \
        if (n == 0)                                                                            \
            return 0;                                                                          \
        out->n = n;                                                                            \
        out->entities = (const dod_entity *)cols[0];                                           \
        F(DOD__W_FILL)                                                                         \
        return 1;                                                                              \
    }                                                                                          \
    DOD__GENERATED dod_status P##_##name##_spawn(dod_world *w, const P##_##name##_row *init,   \
                                                 dod_entity *out)                              \
    {                                                                                          \
        typedef P##_cidx dod__w_cidx;                                                          \
        unsigned char *block;                                                                  \
        uint32_t row, scale;                                                                   \
        if (!init)                                                                             \
            return dod_world_spawn(w, DOD_AID(P, name), out);                                  \
        dod_status st = dod__world_spawn_row(w, DOD_AID(P, name), out, &block, &row, &scale);  \
        if (st == DOD_OK) {                                                                    \
            const dod__world_field *fields = dod__world_fields(w, DOD_AID(P, name));           \
            F(DOD__W_INIT)                                                                     \
        }                                                                                      \
        return st;                                                                             \
    }                                                                                          \
    DOD__GENERATED dod_status P##_##name##_spawn_fill(dod_world *w, uint32_t n,                \
                                                      const P##_##name##_row *value,           \
                                                      dod_entity *out)                         \
    {                                                                                          \
        uint32_t b = 0, r = 0;                                                                 \
        if (!value)                                                                            \
            return dod_world_spawn_n(w, DOD_AID(P, name), n, out);                             \
        dod_status st = dod__world_spawn_rows(w, DOD_AID(P, name), n, out, &b, &r);            \
        P##_##name##_cols c;                                                                   \
        for (uint32_t left = st == DOD_OK ? n : 0u; left > 0 && P##_##name##_block(w, b, &c);  \
             ++b, r = 0) {                                                                     \
            uint32_t run = c.n - r < left ? c.n - r : left;                                    \
            F(DOD__W_FILL_RUN)                                                                 \
            left -= run;                                                                       \
        }                                                                                      \
        return st;                                                                             \
    }                                                                                          \
    DOD__GENERATED dod_status P##_##name##_spawn_rows(dod_world *w, uint32_t n,                \
                                                      const P##_##name##_row *rows,            \
                                                      dod_entity *out)                         \
    {                                                                                          \
        uint32_t b = 0, r = 0;                                                                 \
        if (!rows)                                                                             \
            return dod_world_spawn_n(w, DOD_AID(P, name), n, out);                             \
        dod_status st = dod__world_spawn_rows(w, DOD_AID(P, name), n, out, &b, &r);            \
        P##_##name##_cols c;                                                                   \
        for (uint32_t done = 0; st == DOD_OK && done < n && P##_##name##_block(w, b, &c);      \
             ++b, r = 0) {                                                                     \
            uint32_t run = c.n - r < n - done ? c.n - r : n - done;                            \
            for (uint32_t i_ = 0; i_ < run; ++i_) { /* each row read once */                   \
                const P##_##name##_row *from_ = rows + done + i_;                              \
                F(DOD__W_ROW_CELL)                                                             \
            }                                                                                  \
            done += run;                                                                       \
        }                                                                                      \
        return st;                                                                             \
    }

/* An archetype without components: no row type can be complete in ISO C (a struct needs a
 * member), so P_name_row is declared and never defined, and the spawns take NULL. */
#define DOD__W_ARCH_ROWS_0(P, name, F)                                                         \
    typedef struct P##_##name##_row P##_##name##_row;                                          \
    DOD__GENERATED int P##_##name##_block(const dod_world *w, uint32_t b,                      \
                                          P##_##name##_cols *out)                              \
    {                                                                                          \
        void *cols[1];                                                                         \
        uint32_t n = out ? dod_world_block(w, DOD_AID(P, name), b, cols) : 0u;                 \
        if (n == 0)                                                                            \
            return 0;                                                                          \
        out->n = n;                                                                            \
        out->entities = (const dod_entity *)cols[0];                                           \
        return 1;                                                                              \
    }                                                                                          \
    DOD__GENERATED dod_status P##_##name##_spawn(dod_world *w, const P##_##name##_row *none,   \
                                                 dod_entity *out)                              \
    {                                                                                          \
        (void)none;                                                                            \
        return dod_world_spawn(w, DOD_AID(P, name), out);                                      \
    }                                                                                          \
    DOD__GENERATED dod_status P##_##name##_spawn_fill(dod_world *w, uint32_t n,                \
                                                      const P##_##name##_row *none,            \
                                                      dod_entity *out)                         \
    {                                                                                          \
        (void)none;                                                                            \
        return dod_world_spawn_n(w, DOD_AID(P, name), n, out);                                 \
    }                                                                                          \
    DOD__GENERATED dod_status P##_##name##_spawn_rows(dod_world *w, uint32_t n,                \
                                                      const P##_##name##_row *none,            \
                                                      dod_entity *out)                         \
    {                                                                                          \
        (void)none;                                                                            \
        return dod_world_spawn_n(w, DOD_AID(P, name), n, out);                                 \
    }

/* What one component of world P generates. */
#define DOD__W_COMPONENT(P, name)                                                              \
    DOD__GENERATED DOD__W_T(name) *P##_get_##name(const dod_world *w, dod_entity e)            \
    {                                                                                          \
        return (DOD__W_T(name) *)dod__world_get_sized(w, e, DOD_CID(P, name),                  \
                                                      sizeof(DOD__W_T(name)));                 \
    }                                                                                          \
    DOD__GENERATED dod_status P##_add_##name(dod_world *w, dod_entity e,                       \
                                             const DOD__W_T(name) *value)                      \
    {                                                                                          \
        DOD__W_T(name) copy; /* value may lie in a row the move relocates */                   \
        if (value)                                                                             \
            memcpy(&copy, value, sizeof copy);                                                 \
        dod_status st = dod_world_add(w, e, DOD_CID(P, name));                                 \
        if (st == DOD_OK && value)                                                             \
            memcpy(P##_get_##name(w, e), &copy, sizeof copy);                                  \
        return st;                                                                             \
    }                                                                                          \
    DOD__GENERATED dod_status P##_remove_##name(dod_world *w, dod_entity e)                    \
    {                                                                                          \
        return dod_world_remove(w, e, DOD_CID(P, name));                                       \
    }                                                                                          \
    DOD__W_COMPONENT_AT(P, name)

/* Per component, by a relation index's item (dod/world_index.h):
 *     position *game_row_position(&rows, item)    dod_world_row_get, typed: a row number
 *                                                 (DOD_WORLD_INDEX_ROWS) read through a
 *                                                 dod_world_rows (NULL likewise)
 *     position *game_get_at_position(w, item)     dod_world_get_at, typed: an entity slot */
#define DOD__W_COMPONENT_AT(P, name)                                                           \
    DOD__GENERATED DOD__W_T(name) *P##_row_##name(dod_world_rows *r, uint32_t row)             \
    {                                                                                          \
        return r ? (DOD__W_T(name) *)dod__world_row_elem(r, row, DOD_CID(P, name),             \
                                                         sizeof(DOD__W_T(name)))               \
                 : NULL;                                                                       \
    }                                                                                          \
    DOD__GENERATED DOD__W_T(name) *P##_get_at_##name(const dod_world *w, uint32_t item)        \
    {                                                                                          \
        return (DOD__W_T(name) *)dod__world_get_at_sized(w, item, DOD_CID(P, name),            \
                                                         sizeof(DOD__W_T(name)));              \
    }

/* What one archetype and one component of world P generate for command buffers
 * (dod/world_cmds.h): P_<archetype>_cmd_spawn(cb, &row or NULL, &e) records a spawn with the
 * row's values (NULL: zeroed), each member copied once at a constant size into the record
 * (the private dod__cmds_spawn_row gives where); P_cmd_set_<component>(cb, e, &value) a set;
 * P_cmd_add_<component>(cb, e, &value or NULL) an add (dod_cmds_add: NULL zeroed, or kept
 * when e has it) and P_cmd_remove_<component>(cb, e) a remove. For a field of a component:
 *     DOD_CMDS_ACCUMULATE(cb, e, P, component, field, op, &value)   dod_cmds_accumulate at
 *         offsetof(component, field), the field's size checked against op's width at record
 *         time: DOD_CMDS_ACCUMULATE(&cb, soldier, game, health, hp, DOD_ACC_F32_ADD, &minus5)
 *     DOD_CMDS_SET_ENTITY(cb, e, P, component, field, target)       dod_cmds_set_entity at
 *         offsetof(component, field): a spawned squad member's link to its spawned leader */
#define DOD_CMDS_ACCUMULATE(cb, e, P, component, field, op, value)                             \
    dod_cmds_accumulate((cb), (e), DOD_CID(P, component), offsetof(DOD__W_T(component), field), \
                        (op), (value), sizeof(((DOD__W_T(component) *)0)->field))
#define DOD_CMDS_SET_ENTITY(cb, e, P, component, field, target)                                \
    dod_cmds_set_entity((cb), (e), DOD_CID(P, component),                                      \
                        offsetof(DOD__W_T(component), field), (target))
/* A term of the row's size, `0u F(DOD__W_CMD_SIZE)`: a leading + cannot be parenthesised. */
#define DOD__W_CMD_SIZE(name) +sizeof(DOD__W_T(name)) /* NOLINT(bugprone-macro-parentheses) */
#define DOD__W_CMD_PACK(name)                                                                  \
    memcpy(to, &init->name, sizeof init->name);                                                \
    to += sizeof init->name;
#define DOD__W_ARCHETYPE_CMDS(P, name, F)                                                      \
    DOD__GENERATED dod_status P##_##name##_cmd_spawn(dod_cmds *cb,                             \
                                                     const P##_##name##_row *init,             \
                                                     dod_entity *out)                          \
    {                                                                                          \
        unsigned char *to;                                                                     \
        if (!init)                                                                             \
            return dod_cmds_spawn(cb, DOD_AID(P, name), NULL, out);                            \
        dod_status st = dod__cmds_spawn_row(cb, DOD_AID(P, name), 0u F(DOD__W_CMD_SIZE), out,  \
                                            &to);                                              \
        if (st == DOD_OK) {                                                                    \
            F(DOD__W_CMD_PACK)                                                                 \
        }                                                                                      \
        return st;                                                                             \
    }
#define DOD__W_COMPONENT_CMDS(P, name)                                                         \
    DOD__GENERATED dod_status P##_cmd_set_##name(dod_cmds *cb, dod_entity e,                   \
                                                 const DOD__W_T(name) *value)                  \
    {                                                                                          \
        return dod_cmds_set(cb, e, DOD_CID(P, name), value, sizeof(DOD__W_T(name)));           \
    }                                                                                          \
    DOD__GENERATED dod_status P##_cmd_add_##name(dod_cmds *cb, dod_entity e,                   \
                                                 const DOD__W_T(name) *value)                  \
    {                                                                                          \
        return dod_cmds_add(cb, e, DOD_CID(P, name), value, sizeof(DOD__W_T(name)));           \
    }                                                                                          \
    DOD__GENERATED dod_status P##_cmd_remove_##name(dod_cmds *cb, dod_entity e)                \
    {                                                                                          \
        return dod_cmds_remove(cb, e, DOD_CID(P, name));                                       \
    }

/* Generate the typed layer of a world: for the prefix P, every type and static inline function
 * the opening comment lists for its example DOD_WORLD(game, GAME_COMPONENTS, GAME_ARCHETYPES)
 * (game_desc, game_create, game_config, per archetype game_unit_row, _cols, _spawn, _block,
 * ..., per component game_get_position, game_add_position, ..., and the ids DOD_CID / DOD_AID).
 *   P           an identifier, the prefix of every generated name
 *   COMPONENTS  a list macro of one callback, C(type) per component, in id order: each a type
 *               named by a plain identifier, declared at global scope, that is also the
 *               member name in rows and columns
 *   ARCHETYPES  a list macro of one callback, A(name, LIST, capacity) per archetype, in id
 *               order: LIST a component list macro X(type) ... (empty: an archetype of ids
 *               only), capacity > 0 fixed, 0 chunked with the default blocks (change them at
 *               run time through P_config and P_create_config)
 * Use it at file scope after including dod/world.h, without a trailing semicolon, once per
 * prefix in a translation unit (it defines types; the functions are static inline, so a header
 * holding it may be included by several files). A world needs a component and an archetype
 * at least (an empty list makes a struct without members: ISO C refuses it, -Wpedantic warns).
 * Mistakes are compile errors: a name repeated in a list, an archetype listing a component
 * COMPONENTS does not, a component type not declared at global scope.
 * The desc P_desc returns points at static const arrays (valid for the program's life): each
 * component's size and alignment are its type's, its name the type's name, so renaming a type
 * changes the world's declaration (command buffers, dod_world_copy and world files then refuse
 * to cross the two); each archetype is named by its name.
 * Errors: P_create and P_create_config give dod_world_create's; every other generated
 * function validates and fails exactly as the call it wraps (NULL from a getter for a NULL
 * world or a stale handle, DOD_E_FULL from a spawn past a fixed capacity, ...).
 * Thread safety: each generated function as the call it wraps (getters, _block, _count:
 * readers; spawns, moves, add, remove: exclusive access); P_desc and P_config_default only
 * read static data. */
#define DOD_WORLD(P, COMPONENTS, ARCHETYPES)                                                   \
    typedef struct P##_cidx { COMPONENTS(DOD__W_CHAR) } P##_cidx;                              \
    typedef struct P##_aidx { ARCHETYPES(DOD__W_ACHAR) } P##_aidx;                             \
    typedef struct P##_counts {                                                                \
        char components[COMPONENTS(DOD__W_ONE) 0];                                             \
        char archetypes[ARCHETYPES(DOD__W_AONE) 0];                                            \
    } P##_counts;                                                                              \
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
    typedef struct P##_config { ARCHETYPES(DOD__W_ADESC_MEMBER) } P##_config;                  \
    DOD__GENERATED P##_config P##_config_default(void)                                         \
    {                                                                                          \
        dod_world_desc d = P##_desc();                                                         \
        P##_config c;                                                                          \
        uint32_t i = 0;                                                                        \
        ARCHETYPES(DOD__W_CONFIG_GET)                                                          \
        return c;                                                                              \
    }                                                                                          \
    DOD__GENERATED dod_world_desc P##_desc_config(const P##_config *cfg,                       \
                                                  dod_archetype_desc *archs)                   \
    {                                                                                          \
        dod_world_desc d = P##_desc();                                                         \
        if (cfg && archs) {                                                                    \
            uint32_t i = 0;                                                                    \
            ARCHETYPES(DOD__W_CONFIG_PUT)                                                      \
            d.archetypes = archs;                                                              \
        }                                                                                      \
        return d;                                                                              \
    }                                                                                          \
    DOD__GENERATED dod_status P##_create_config(dod_world **w, const P##_config *cfg,          \
                                                const dod_allocator *alloc, uint32_t flags)    \
    {                                                                                          \
        dod_archetype_desc archs[DOD_NARCHETYPES(P)];                                          \
        dod_world_desc d = P##_desc_config(cfg, archs);                                        \
        d.alloc = alloc;                                                                       \
        d.flags = flags;                                                                       \
        return dod_world_create(w, &d);                                                        \
    }                                                                                          \
    DOD__GENERATED dod_status P##_frames_create_config(dod_frames **frames, uint32_t n_slots,  \
                                                       const P##_config *cfg,                  \
                                                       const dod_allocator *alloc,             \
                                                       uint32_t flags)                         \
    {                                                                                          \
        dod_archetype_desc archs[DOD_NARCHETYPES(P)];                                          \
        dod_world_desc d = P##_desc_config(cfg, archs);                                        \
        d.alloc = alloc;                                                                       \
        d.flags = flags;                                                                       \
        return dod_world_frames_create(frames, n_slots, &d);                                   \
    }                                                                                          \
    DOD__W_ARCH_EACH(P, ARCHETYPES(DOD__W_ARCH_ITEM) DOD__W_END, ~, ~)                         \
    DOD__W_COMP_EACH(P, COMPONENTS(DOD__W_COMP_ITEM) DOD__W_END)

/* Typed queries. A query list names components with three callbacks: W written, R read, X
 * excluded (Q(W, R, X)). Its items reach the ids through the same deferred expansion, carrying
 * P and the item's kind (1 W, 2 R, 3 X) to a selector that keeps the kind asked for. */
#define DOD__WQ_W(name) 1, name )
#define DOD__WQ_R(name) 2, name )
#define DOD__WQ_X(name) 3, name )
#define DOD__WQ_EACH(P, SEL, ...) DOD__WQ_A(P, SEL, __VA_ARGS__)
#define DOD__WQ_A(P, SEL, kind, name)                                                          \
    DOD__W_CAT(DOD__WQ_A_, DOD__W_IS_END(kind))(P, SEL, kind, name)
#define DOD__WQ_B(P, SEL, kind, name)                                                          \
    DOD__W_CAT(DOD__WQ_B_, DOD__W_IS_END(kind))(P, SEL, kind, name)
#define DOD__WQ_A_0(P, SEL, kind, name) DOD__WQ_SEL_##SEL##_##kind(P, name) DOD__WQ_B ( P, SEL,
#define DOD__WQ_B_0(P, SEL, kind, name) DOD__WQ_SEL_##SEL##_##kind(P, name) DOD__WQ_A ( P, SEL,
#define DOD__WQ_A_1(P, SEL, kind, name)
#define DOD__WQ_B_1(P, SEL, kind, name)
#define DOD__WQ_SEL_1_1(P, name) DOD_CID(P, name),
#define DOD__WQ_SEL_1_2(P, name)
#define DOD__WQ_SEL_1_3(P, name)
#define DOD__WQ_SEL_2_1(P, name)
#define DOD__WQ_SEL_2_2(P, name) DOD_CID(P, name),
#define DOD__WQ_SEL_2_3(P, name)
#define DOD__WQ_SEL_3_1(P, name)
#define DOD__WQ_SEL_3_2(P, name)
#define DOD__WQ_SEL_3_3(P, name) DOD_CID(P, name),
#define DOD__WQ_SEL_4_1(P, name) DOD_CID(P, name),
#define DOD__WQ_SEL_4_2(P, name) DOD_CID(P, name),
#define DOD__WQ_SEL_4_3(P, name)
/* The ids of one kind of a query list, each followed by a comma: DOD__WQ_IDS(P, Q, 1) the
 * written components, 2 the read ones, 3 the excluded ones, 4 the written and the read ones.
 * For a second generator (a system schedule) that builds on the same lists. */
#define DOD__WQ_IDS(P, Q, kind)                                                                \
    DOD__WQ_EACH(P, kind, Q(DOD__WQ_W, DOD__WQ_R, DOD__WQ_X) DOD__W_END, ~)
#define DOD__WQ_COLUMN(name)                                                                   \
    c->name = (DOD__W_T(name) *)dod_world_field(it, (uint32_t)offsetof(dod__w_cidx, name));
#define DOD__WQ_CCOLUMN(name)                                                                  \
    c->name = (const DOD__W_T(name) *)dod_world_field(it, (uint32_t)offsetof(dod__w_cidx, name));

/* Generate a typed query Q of world P (after DOD_WORLD(P, ...)) from LIST, a list macro of
 * three callbacks, LIST(W, R, X): W(type) a component the query's rows have and the caller
 * writes, R(type) one they have and the caller only reads, X(type) one they must not have, in
 * any order, each component at most once. For the opening comment's example
 *     #define MOVERS(W, R, X) W(position) R(velocity) X(frozen)
 *     DOD_QUERY(game, movers, MOVERS)
 * it generates (static inline functions, static const data):
 *     game_movers_cols   { uint32_t n; uint32_t archetype; const dod_entity *entities;
 *                          position *position; const velocity *velocity; }
 *     dod_status game_movers_query(dod_query *q, const dod_world *w)
 *                        dod_query_init with all = the W and R components, none = the X ones
 *     dod_status game_movers_begin(dod_world_iter *it, const dod_world *w)
 *                        the query and dod_world_iter_init in one call
 *     int game_movers_next(dod_world_iter *it, game_movers_cols *c)
 *                        dod_world_next, then the block's columns into *c: 1, or 0 when done
 *     int game_movers_cols_of(const dod_world_iter *it, game_movers_cols *c)
 *                        *c from an iterator standing on rows (a schedule's task); else 0
 *     game_movers_writes[], game_movers_reads[], game_movers_excludes[]   the ids of each
 *                        kind in list order, each ending with UINT32_MAX
 *     game_movers_n_writes, game_movers_n_reads, game_movers_n_excludes   their counts (enum)
 * Q must not be one of P's archetype names (both make P_<name>_cols). Use it at file scope,
 * without a trailing semicolon, once per P and Q in a translation unit. A component not in P's
 * list is a compile error, and so is one listed twice as W or R (the cols struct would have
 * two members of its name); writing through a read column does not compile.
 * Errors: P_Q_query gives dod_query_init's (DOD_E_INVALID for q or w NULL); P_Q_begin
 * DOD_E_INVALID for it NULL, else the query's status, and after an error *it visits nothing.
 * Thread safety: the query and the iteration are reads (any number of threads while no thread
 * changes the world); a spawn, despawn or move invalidates the iterator; what the caller
 * writes through the W columns is its own write to the world (a schedule orders systems'
 * writes by their phases: dod/world_systems.h). */
#define DOD_QUERY(P, Q, LIST)                                                                  \
    DOD__W_DATA const uint32_t P##_##Q##_writes[] = { DOD__WQ_IDS(P, LIST, 1) UINT32_MAX };    \
    DOD__W_DATA const uint32_t P##_##Q##_reads[] = { DOD__WQ_IDS(P, LIST, 2) UINT32_MAX };     \
    DOD__W_DATA const uint32_t P##_##Q##_excludes[] = { DOD__WQ_IDS(P, LIST, 3) UINT32_MAX };  \
    enum {                                                                                     \
        P##_##Q##_n_writes = LIST(DOD__W_ONE, DOD__W_SKIP, DOD__W_SKIP) 0,                     \
        P##_##Q##_n_reads = LIST(DOD__W_SKIP, DOD__W_ONE, DOD__W_SKIP) 0,                      \
        P##_##Q##_n_excludes = LIST(DOD__W_SKIP, DOD__W_SKIP, DOD__W_ONE) 0                    \
    };                                                                                         \
    typedef struct P##_##Q##_cols {                                                            \
        uint32_t n;                                                                            \
        uint32_t archetype;                                                                    \
        const dod_entity *entities;                                                            \
        LIST(DOD__W_PTR, DOD__W_CPTR, DOD__W_SKIP)                                             \
    } P##_##Q##_cols;                                                                          \
    DOD__GENERATED dod_status P##_##Q##_query(dod_query *q, const dod_world *w)                \
    {                                                                                          \
        static const uint32_t all[] = { DOD__WQ_IDS(P, LIST, 4) UINT32_MAX };                  \
        return dod_query_init(q, w, all, P##_##Q##_n_writes + P##_##Q##_n_reads,               \
                              P##_##Q##_excludes, P##_##Q##_n_excludes);                       \
    }                                                                                          \
    DOD__GENERATED int P##_##Q##_cols_of(const dod_world_iter *it, P##_##Q##_cols *c)          \
    {                                                                                          \
        typedef P##_cidx dod__w_cidx;                                                          \
        (void)sizeof(dod__w_cidx); /* a list of X items only reads no column */                \
        if (!it || !c || it->n == 0)                                                           \
            return 0;                                                                          \
        c->n = it->n;                                                                          \
        c->archetype = it->archetype;                                                          \
        c->entities = it->entities;                                                            \
        LIST(DOD__WQ_COLUMN, DOD__WQ_CCOLUMN, DOD__W_SKIP)                                     \
        return 1;                                                                              \
    }                                                                                          \
    DOD__GENERATED int P##_##Q##_next(dod_world_iter *it, P##_##Q##_cols *c)                   \
    {                                                                                          \
        return dod_world_next(it) && P##_##Q##_cols_of(it, c);                                 \
    }                                                                                          \
    DOD__GENERATED dod_status P##_##Q##_begin(dod_world_iter *it, const dod_world *w)          \
    {                                                                                          \
        dod_query q;                                                                           \
        if (!it)                                                                               \
            return DOD_E_INVALID;                                                              \
        dod_status st = P##_##Q##_query(&q, w);                                                \
        dod_world_iter_init(it, st == DOD_OK ? w : NULL, &q);                                  \
        return st;                                                                             \
    }

/* Generate a named set S of world P's components from LIST, a list macro of one callback
 * (LIST(X): X(type) per component, as an archetype's list), for adding or removing several
 * components in one move, through no intermediate set (ecs_benchmark's hero setup):
 *     #define HERO_GEAR(X) X(health) X(sprite) X(weapon)
 *     DOD_COMPONENT_SET(game, hero_gear, HERO_GEAR)
 * generates (static inline functions, static const data):
 *     game_hero_gear_ids[]                   the ids in list order, ending with UINT32_MAX
 *     game_hero_gear_n                       their count (enum)
 *     game_add_hero_gear(w, e)               dod_world_add_n: the added components zeroed
 *     game_remove_hero_gear(w, e)            dod_world_remove_n
 *     game_cmd_add_hero_gear(cb, e)          dod_cmds_add_n into a command buffer
 *     game_cmd_remove_hero_gear(cb, e)       dod_cmds_remove_n
 *     game_hero_gear_archetype(w, &a)        dod_world_archetype_for: the archetype declared
 *                                            with exactly these components
 * Use it at file scope, after DOD_WORLD(P, ...), without a trailing semicolon. A component not
 * in P's list is a compile error. Errors, invalidation and thread safety: those of the calls
 * named (DOD_E_UNDECLARED when no single declared archetype has the resulting set). */
#define DOD_COMPONENT_SET(P, S, LIST)                                                          \
    DOD__W_DATA const uint32_t P##_##S##_ids[] = {                                             \
        DOD__WQ_EACH(P, 1, LIST(DOD__WQ_W) DOD__W_END, ~) UINT32_MAX                           \
    };                                                                                         \
    enum { P##_##S##_n = LIST(DOD__W_ONE) 0 };                                                 \
    DOD__GENERATED dod_status P##_add_##S(dod_world *w, dod_entity e)                          \
    {                                                                                          \
        return dod_world_add_n(w, e, P##_##S##_ids, P##_##S##_n);                              \
    }                                                                                          \
    DOD__GENERATED dod_status P##_remove_##S(dod_world *w, dod_entity e)                       \
    {                                                                                          \
        return dod_world_remove_n(w, e, P##_##S##_ids, P##_##S##_n);                           \
    }                                                                                          \
    DOD__GENERATED dod_status P##_cmd_add_##S(dod_cmds *cb, dod_entity e)                      \
    {                                                                                          \
        return dod_cmds_add_n(cb, e, P##_##S##_ids, P##_##S##_n);                              \
    }                                                                                          \
    DOD__GENERATED dod_status P##_cmd_remove_##S(dod_cmds *cb, dod_entity e)                   \
    {                                                                                          \
        return dod_cmds_remove_n(cb, e, P##_##S##_ids, P##_##S##_n);                           \
    }                                                                                          \
    DOD__GENERATED dod_status P##_##S##_archetype(const dod_world *w, uint32_t *archetype)     \
    {                                                                                          \
        return dod_world_archetype_for(w, P##_##S##_ids, P##_##S##_n, archetype);              \
    }

#endif /* DOD_WORLD_TYPED_H */
