/* dod/aosoa.h: array-of-structures-of-arrays tiles, generated from an X-macro.
 *
 * A tile holds W records with each field as a W-wide mini-array, so one tile load of a field
 * fills a vector register and the fields a loop does not name sit in other cache lines of
 * the same tile. Records are numbered across tiles: record i is lane i % W of tile i / W.
 *
 *     #define HOT(X) X(float, px, 0) X(float, py, 0) X(float, vx, 0) X(float, vy, 0)
 *     DOD_AOSOA(hot16, 16, HOT)
 * generates (W a literal power of two from 1 to 64; DOD_AOSOA_W is the usual 16):
 *     hot16          { float px[16]; float py[16]; ... }   one tile
 *     hot16_aos      { float px; float py; ... }           one record
 *     hot16_soa      { float *px; float *py; ... }         one pointer per field
 *     hot16_tiles(n)                          tiles needed for n records (ceil(n / W))
 *     hot16_from_aos(tiles, aos, n)  hot16_to_aos(aos, tiles, n)
 *     hot16_from_soa(tiles, soa, n)  hot16_to_soa(soa, tiles, n)
 *     hot16_aos_to_soa(soa, aos, n)  hot16_soa_to_aos(aos, soa, n)
 * from_* zero the unused lanes of the last tile, so tiles are deterministic bytes. Buffers
 * never overlap. The X-macro has the same shape as the table's typed layer (the group
 * argument is ignored here); a field is a plain name, array fields use a typedef.
 *
 * The loop helper runs a kernel over the full tiles with the constant lane count W (the
 * compiler unrolls and vectorises it) and once over the tail tile with the rest:
 *     static inline void step(hot16 *t, size_t lanes, const float *dt) { ... for lanes ... }
 *     DOD_AOSOA_EACH(tiles, n, 16, step, &dt);
 *
 * Everything is static inline and allocates nothing; thread safety is the caller's. The
 * header has no functions of its own, so it needs no extern "C" and compiles as C++. */
#ifndef DOD_AOSOA_H
#define DOD_AOSOA_H

#include <dod/base.h>
#include <stddef.h>
#include <string.h>

/* The default lane count: 16 floats, one 64-byte line per field per tile. */
#define DOD_AOSOA_W 16

/* The tile struct needs W inside the X callback, which only receives (type, name, group), so
 * there is one callback per supported W: a power of two from 1 to 64. */
#define DOD__AO_TILE_1(type, name, group) type name[1];
#define DOD__AO_TILE_2(type, name, group) type name[2];
#define DOD__AO_TILE_4(type, name, group) type name[4];
#define DOD__AO_TILE_8(type, name, group) type name[8];
#define DOD__AO_TILE_16(type, name, group) type name[16];
#define DOD__AO_TILE_32(type, name, group) type name[32];
#define DOD__AO_TILE_64(type, name, group) type name[64];
#define DOD__AO_ROW(type, name, group) type name;
#define DOD__AO_PTR(type, name, group) type *name;
/* Per-field statements of the conversions; W_ is a local constant of each function. */
#define DOD__AO_F2T(type, name, group) \
    memcpy(&tiles[i / W_].name[i % W_], &aos[i].name, sizeof(type));
#define DOD__AO_T2F(type, name, group) \
    memcpy(&aos[i].name, &tiles[i / W_].name[i % W_], sizeof(type));
#define DOD__AO_S2T(type, name, group) \
    memcpy(&tiles[i / W_].name[i % W_], &soa.name[i], sizeof(type));
#define DOD__AO_T2S(type, name, group) \
    memcpy(&soa.name[i], &tiles[i / W_].name[i % W_], sizeof(type));
#define DOD__AO_A2S(type, name, group) memcpy(&soa.name[i], &aos[i].name, sizeof(type));
#define DOD__AO_S2A(type, name, group) memcpy(&aos[i].name, &soa.name[i], sizeof(type));
#define DOD__AO_ZERO(type, name, group)                                                        \
    memset(&tiles[n / W_].name[n % W_], 0, (W_ - n % W_) * sizeof(type));

#define DOD__AO_ZERO_TAIL(T, FIELDS)                                                           \
    DOD__GENERATED void T##__zero_tail(T *tiles, size_t n)                                      \
    {                                                                                          \
        const size_t W_ = T##_W;                                                               \
        if (n % W_ == 0)                                                                       \
            return;                                                                            \
        FIELDS(DOD__AO_ZERO)                                                                   \
    }

/* Generate the tile type T of W lanes (a power of two, 1..64, or a macro naming one such as
 * DOD_AOSOA_W) for FIELDS and its helpers. */
#define DOD_AOSOA(T, W, FIELDS) DOD__AOSOA(T, W, FIELDS)
#define DOD__AOSOA(T, W, FIELDS)                                                               \
    typedef struct T { FIELDS(DOD__AO_TILE_##W) } T;                                           \
    typedef struct T##_aos { FIELDS(DOD__AO_ROW) } T##_aos;                                    \
    typedef struct T##_soa { FIELDS(DOD__AO_PTR) } T##_soa;                                    \
    enum { T##_W = W };                                                                        \
    DOD__GENERATED size_t T##_tiles(size_t n) { return n / T##_W + (n % T##_W != 0); }          \
    DOD__AO_ZERO_TAIL(T, FIELDS)                                                               \
    DOD__GENERATED void T##_from_aos(T *tiles, const T##_aos *aos, size_t n)                    \
    {                                                                                          \
        const size_t W_ = T##_W;                                                               \
        for (size_t i = 0; i < n; ++i) {                                                       \
            FIELDS(DOD__AO_F2T)                                                                \
        }                                                                                      \
        T##__zero_tail(tiles, n);                                                              \
    }                                                                                          \
    DOD__GENERATED void T##_to_aos(T##_aos *aos, const T *tiles, size_t n)                     \
    {                                                                                          \
        const size_t W_ = T##_W;                                                               \
        for (size_t i = 0; i < n; ++i) {                                                       \
            FIELDS(DOD__AO_T2F)                                                                \
        }                                                                                      \
    }                                                                                          \
    DOD__GENERATED void T##_from_soa(T *tiles, T##_soa soa, size_t n)                           \
    {                                                                                          \
        const size_t W_ = T##_W;                                                               \
        for (size_t i = 0; i < n; ++i) {                                                       \
            FIELDS(DOD__AO_S2T)                                                                \
        }                                                                                      \
        T##__zero_tail(tiles, n);                                                              \
    }                                                                                          \
    DOD__GENERATED void T##_to_soa(T##_soa soa, const T *tiles, size_t n)                      \
    {                                                                                          \
        const size_t W_ = T##_W;                                                               \
        for (size_t i = 0; i < n; ++i) {                                                       \
            FIELDS(DOD__AO_T2S)                                                                \
        }                                                                                      \
    }                                                                                          \
    DOD__GENERATED void T##_aos_to_soa(T##_soa soa, const T##_aos *aos, size_t n)               \
    {                                                                                          \
        for (size_t i = 0; i < n; ++i) {                                                       \
            FIELDS(DOD__AO_A2S)                                                                \
        }                                                                                      \
    }                                                                                          \
    DOD__GENERATED void T##_soa_to_aos(T##_aos *aos, T##_soa soa, size_t n)                     \
    {                                                                                          \
        for (size_t i = 0; i < n; ++i) {                                                       \
            FIELDS(DOD__AO_S2A)                                                                \
        }                                                                                      \
    }

/* Run KERNEL(tile pointer, lanes, CTX) over the tiles of N records: every full tile with
 * lanes == W (a constant, so an inline kernel's lane loop has a known trip count), then the
 * last, partial tile (if any) with lanes == N % W. */
#define DOD_AOSOA_EACH(TILES, N, W, KERNEL, CTX)                                               \
    do {                                                                                       \
        const size_t dod__n_ = (N), dod__full_ = dod__n_ / (W);                                \
        for (size_t dod__t_ = 0; dod__t_ < dod__full_; ++dod__t_)                              \
            KERNEL(&(TILES)[dod__t_], (size_t)(W), CTX);                                       \
        if (dod__n_ % (W) != 0)                                                                \
            KERNEL(&(TILES)[dod__full_], dod__n_ % (W), CTX);                                  \
    } while (0)

#endif /* DOD_AOSOA_H */
