/* CRC-32C: slicing-by-8 tables everywhere, the SSE4.2 instruction where the CPU has it. */
#include "crc32c.h"
#include "crc32c_table.h"
#include <string.h>

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#  define DOD_CRC32C_X86 1
#  include <nmmintrin.h>
#else
#  define DOD_CRC32C_X86 0
#endif

static uint32_t load_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint32_t dod__crc32c_portable(uint32_t crc, const void *data, size_t n)
{
    const uint32_t(*t)[256] = dod__crc32c_table;
    const unsigned char *p = (const unsigned char *)data;
    uint32_t c = ~crc;
    for (; n >= 8; n -= 8, p += 8) {
        uint32_t lo = load_le32(p) ^ c, hi = load_le32(p + 4);
        c = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^ t[4][lo >> 24] ^
            t[3][hi & 0xFF] ^ t[2][(hi >> 8) & 0xFF] ^ t[1][(hi >> 16) & 0xFF] ^ t[0][hi >> 24];
    }
    for (; n > 0; --n, ++p)
        c = t[0][(c ^ *p) & 0xFF] ^ (c >> 8);
    return ~c;
}

#if DOD_CRC32C_X86
/* Product of two polynomials modulo the CRC polynomial, in the reflected bit order (bit 31 is
 * x^0): a * b mod P. Used to move a CRC state past `STREAM` bytes of zeros in one step. */
static uint32_t multmodp(uint32_t a, uint32_t b)
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
#define STREAM ((size_t)4096)
#define X_STREAM 0x35D73A62u

static uint64_t load_u64(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

__attribute__((target("sse4.2"))) static uint32_t crc32c_sse42(uint32_t crc, const void *data,
                                                               size_t n)
{
    const unsigned char *p = (const unsigned char *)data;
    uint64_t c = ~crc;
    for (; n > 0 && ((uintptr_t)p & 7) != 0; --n, ++p)
        c = _mm_crc32_u8((uint32_t)c, *p);
    for (; n >= 3 * STREAM; n -= 3 * STREAM, p += 3 * STREAM) {
        uint64_t c0 = c, c1 = 0, c2 = 0;
        for (size_t i = 0; i < STREAM; i += 8) {
            c0 = _mm_crc32_u64(c0, load_u64(p + i));
            c1 = _mm_crc32_u64(c1, load_u64(p + STREAM + i));
            c2 = _mm_crc32_u64(c2, load_u64(p + 2 * STREAM + i));
        }
        c = multmodp(X_STREAM, (uint32_t)c0) ^ (uint32_t)c1;
        c = multmodp(X_STREAM, (uint32_t)c) ^ (uint32_t)c2;
    }
    for (; n >= 8; n -= 8, p += 8)
        c = _mm_crc32_u64(c, load_u64(p));
    for (; n > 0; --n, ++p)
        c = _mm_crc32_u8((uint32_t)c, *p);
    return ~(uint32_t)c;
}
#endif

int dod__crc32c_hardware(void)
{
#if DOD_CRC32C_X86
    return __builtin_cpu_supports("sse4.2") ? 1 : 0;
#else
    return 0;
#endif
}

uint32_t dod__crc32c(uint32_t crc, const void *data, size_t n)
{
#if DOD_CRC32C_X86
    if (__builtin_cpu_supports("sse4.2"))
        return crc32c_sse42(crc, data, n);
#endif
    return dod__crc32c_portable(crc, data, n);
}
