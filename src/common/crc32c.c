/* CRC-32C: slicing-by-8 tables everywhere, and the choice of the fastest path this CPU has
 * (the x86-64 ones are in crc32c_x86.c). */
#include "crc32c.h"
#include "crc32c_table.h"

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

int dod__crc32c_hardware(void)
{
#if DOD__CRC32C_X86
    if (!__builtin_cpu_supports("sse4.2"))
        return DOD__CRC32C_PORTABLE;
#  if DOD__CRC32C_X86_FOLD
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("pclmul") &&
        __builtin_cpu_supports("vpclmulqdq"))
        return DOD__CRC32C_FOLD;
#  endif
    return DOD__CRC32C_SSE42;
#else
    return DOD__CRC32C_PORTABLE;
#endif
}

uint32_t dod__crc32c_at(int level, uint32_t crc, const void *data, size_t n)
{
#if DOD__CRC32C_X86_FOLD
    if (level == DOD__CRC32C_FOLD)
        return dod__crc32c_fold(crc, data, n);
#endif
#if DOD__CRC32C_X86
    if (level == DOD__CRC32C_SSE42)
        return dod__crc32c_sse42(crc, data, n);
#endif
    (void)level;
    return dod__crc32c_portable(crc, data, n);
}

uint32_t dod__crc32c(uint32_t crc, const void *data, size_t n)
{
    return dod__crc32c_at(dod__crc32c_hardware(), crc, data, n);
}
