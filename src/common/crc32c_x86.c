/* CRC-32C on x86-64: the SSE4.2 crc32 instruction, and carry-less multiply folding (VPCLMULQDQ
 * on 512-bit registers) for long buffers. Compiled everywhere; empty off x86-64 GCC/Clang. */
#include "crc32c.h"

#if DOD__CRC32C_X86
#  include <immintrin.h>
#  include <string.h>

static uint64_t crc32c_load64(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

/* Product of two polynomials modulo the CRC polynomial, in the reflected bit order (bit 31 is
 * x^0): a * b mod P. Used to move a CRC state past `STREAM` bytes of zeros in one step. */
static uint32_t crc32c_multmodp(uint32_t a, uint32_t b)
{
    uint32_t m = (uint32_t)1 << 31, p = 0;
    for (;;) {
        if (a & m) {
            p ^= b;
            if ((a & (m - 1)) == 0)
                break;
        }
        m >>= 1;
        b = b & 1 ? (b >> 1) ^ 0x82F63B78u : b >> 1;
    }
    return p;
}

/* Three interleaved streams of STREAM bytes hide the instruction's 3-cycle latency; the states
 * are merged by linearity: crc(A || B) = crc(A) * x^(8 * |B|) ^ crc0(B), where crc0 starts from
 * a zero state. X_STREAM is x^(8 * STREAM) mod P (reflected), checked by tests/test_crc32c.c
 * against the portable path on long buffers. x86 is little-endian, the byte order the reflected
 * CRC consumes, so 8-byte loads feed it directly. */
#  define STREAM ((size_t)4096)
#  define X_STREAM 0x35D73A62u

/* The raw register (no inversions) over n bytes. */
__attribute__((target("sse4.2"))) static uint64_t crc32c_raw_sse42(uint64_t c,
                                                                   const unsigned char *p,
                                                                   size_t n)
{
    for (; n > 0 && ((uintptr_t)p & 7) != 0; --n, ++p)
        c = _mm_crc32_u8((uint32_t)c, *p);
    for (; n >= 3 * STREAM; n -= 3 * STREAM, p += 3 * STREAM) {
        uint64_t c0 = c, c1 = 0, c2 = 0;
        for (size_t i = 0; i < STREAM; i += 8) {
            c0 = _mm_crc32_u64(c0, crc32c_load64(p + i));
            c1 = _mm_crc32_u64(c1, crc32c_load64(p + STREAM + i));
            c2 = _mm_crc32_u64(c2, crc32c_load64(p + 2 * STREAM + i));
        }
        c = crc32c_multmodp(X_STREAM, (uint32_t)c0) ^ (uint32_t)c1;
        c = crc32c_multmodp(X_STREAM, (uint32_t)c) ^ (uint32_t)c2;
    }
    for (; n >= 8; n -= 8, p += 8)
        c = _mm_crc32_u64(c, crc32c_load64(p));
    for (; n > 0; --n, ++p)
        c = _mm_crc32_u8((uint32_t)c, *p);
    return c;
}

uint32_t dod__crc32c_sse42(uint32_t crc, const void *data, size_t n)
{
    return ~(uint32_t)crc32c_raw_sse42(~crc, (const unsigned char *)data, n);
}

#endif

#if DOD__CRC32C_X86_FOLD
/* Folding. A 128-bit lane A of the message followed by D bits is worth A * x^D (mod P) placed
 * where those D bits end; with A = H * x^64 + L (H: the lane's first 8 bytes, the high
 * coefficients in the reflected order), A * x^D = H * (x^(D+64) mod P) + L * (x^D mod P), two
 * 64 x 32-bit carry-less products that fit in the lane D bits on. In the reflected order a
 * product comes out one bit low, so the constants are x^(D+63) and x^(D-1) mod P, each
 * reflected into the high half of a 64-bit word (fold_k below, from the same square-and-multiply
 * as X_STREAM). What is left after folding is one lane whose crc0 (from a zero register) is the
 * CRC so far: the crc32 instruction finishes it, and the tail. tests/test_crc32c.c checks every
 * length up to 1100 and long buffers against the portable path, which covers each constant. */
enum { K128, K256, K384, K512, K1024, K1536, K2048 };
static const uint32_t fold_k[][2] = {
    [K128] = { 0x3743F7BDu, 0x3171D430u },  [K256] = { 0x33CCBBBCu, 0xA2158B34u },
    [K384] = { 0xA46EF4AAu, 0x6051243Fu },  [K512] = { 0x1C19243Bu, 0x75BBA45Bu },
    [K1024] = { 0x6577B245u, 0x7417153Fu }, [K1536] = { 0x7CCBBBF2u, 0x31C94608u },
    [K2048] = { 0xE9A5D8BEu, 0x1426A815u },
};

/* Distance d's constants as one 128-bit lane: the one for the lane's first 8 bytes first. */
__attribute__((target("sse4.2"))) static __m128i fold_lane(int d)
{
    const uint64_t first = (uint64_t)fold_k[d][0] << 32, second = (uint64_t)fold_k[d][1] << 32;
    return _mm_set_epi64x((long long)second, (long long)first);
}

/* Distance d's constants in every lane of a 512-bit vector. */
__attribute__((target("avx512f"))) static __m512i fold_every_lane(int d)
{
    return _mm512_broadcast_i32x4(fold_lane(d));
}

/* Each lane its own distance's constants. */
__attribute__((target("avx512f"))) static __m512i fold_lanes(int d0, int d1, int d2, int d3)
{
    return _mm512_inserti32x4(
        _mm512_inserti32x4(_mm512_inserti32x4(_mm512_castsi128_si512(fold_lane(d0)),
                                              fold_lane(d1), 1),
                           fold_lane(d2), 2),
        fold_lane(d3), 3);
}

__attribute__((target("avx512f,vpclmulqdq"))) static __m512i fold512(__m512i x, __m512i k)
{
    return _mm512_xor_si512(_mm512_clmulepi64_epi128(x, k, 0x00),
                            _mm512_clmulepi64_epi128(x, k, 0x11));
}

__attribute__((target("pclmul"))) static __m128i fold128(__m128i x, __m128i k)
{
    return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11));
}

__attribute__((target("avx512f"))) static __m512i load512(const unsigned char *p)
{
    return _mm512_loadu_si512((const void *)p);
}

__attribute__((target("sse4.2,pclmul,avx512f,vpclmulqdq"))) uint32_t
dod__crc32c_fold(uint32_t crc, const void *data, size_t n)
{
    const unsigned char *p = (const unsigned char *)data;
    if (n < DOD__CRC32C_FOLD_MIN)
        return dod__crc32c_sse42(crc, data, n);
    /* Four 64-byte accumulators, each folded 256 bytes (2048 bits) on per step. */
    __m512i x0 = load512(p), x1 = load512(p + 64), x2 = load512(p + 128), x3 = load512(p + 192);
    x0 = _mm512_xor_si512(x0, _mm512_castsi128_si512(_mm_cvtsi32_si128((int)~crc)));
    p += 256;
    n -= 256;
    const __m512i k2048 = fold_every_lane(K2048);
    for (; n >= 256; n -= 256, p += 256) {
        x0 = _mm512_xor_si512(fold512(x0, k2048), load512(p));
        x1 = _mm512_xor_si512(fold512(x1, k2048), load512(p + 64));
        x2 = _mm512_xor_si512(fold512(x2, k2048), load512(p + 128));
        x3 = _mm512_xor_si512(fold512(x3, k2048), load512(p + 192));
    }
    /* Into one accumulator (x0 moves 1536 bits on, x1 1024, x2 512, onto x3), then 64 bytes
     * at a time. */
    const __m512i k512 = fold_every_lane(K512);
    __m512i x = _mm512_xor_si512(_mm512_xor_si512(fold512(x0, fold_every_lane(K1536)),
                                                  fold512(x1, fold_every_lane(K1024))),
                                 _mm512_xor_si512(fold512(x2, k512), x3));
    for (; n >= 64; n -= 64, p += 64)
        x = _mm512_xor_si512(fold512(x, k512), load512(p));
    /* Its four lanes into the last (lane i moves (3 - i) * 128 bits on; y's lane 3 is not
     * used), then 16 bytes at a time. */
    __m512i y = fold512(x, fold_lanes(K384, K256, K128, K128));
    __m128i r = _mm_xor_si128(
        _mm_xor_si128(_mm512_castsi512_si128(y), _mm512_extracti32x4_epi32(y, 1)),
        _mm_xor_si128(_mm512_extracti32x4_epi32(y, 2), _mm512_extracti32x4_epi32(x, 3)));
    const __m128i k128 = fold_lane(K128);
    for (; n >= 16; n -= 16, p += 16)
        r = _mm_xor_si128(fold128(r, k128), _mm_loadu_si128((const __m128i *)(const void *)p));
    uint64_t c = _mm_crc32_u64(0, (uint64_t)_mm_cvtsi128_si64(r));
    c = _mm_crc32_u64(c, (uint64_t)_mm_extract_epi64(r, 1));
    return ~(uint32_t)crc32c_raw_sse42(c, p, n);
}
#endif
