/* CRC-32C: published check values, the generated tables, and the hardware path against the
 * portable one on every length and alignment. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "crc32c.h"
#include "crc32c_table.h"

static void test_known_values(void)
{
    CHECK_EQ(dod__crc32c(0, "123456789", 9), 0xE3069283u);
    CHECK_EQ(dod__crc32c_portable(0, "123456789", 9), 0xE3069283u);
    CHECK_EQ(dod__crc32c(0, "", 0), 0u);
    unsigned char zeros[32] = { 0 }, ones[32];
    memset(ones, 0xFF, sizeof ones);
    /* RFC 3720 (iSCSI), appendix B.4 */
    CHECK_EQ(dod__crc32c(0, zeros, 32), 0x8A9136AAu);
    CHECK_EQ(dod__crc32c(0, ones, 32), 0x62A8AB43u);
    CHECK_EQ(dod__crc32c_portable(0, zeros, 32), 0x8A9136AAu);
    CHECK_EQ(dod__crc32c_portable(0, ones, 32), 0x62A8AB43u);
}

static void test_tables(void)
{
    int ok = 1;
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t c = i;
        for (int b = 0; b < 8; ++b)
            c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        ok &= dod__crc32c_table[0][i] == c;
        for (int k = 1; k < 8; ++k) {
            uint32_t prev = dod__crc32c_table[k - 1][i];
            ok &= dod__crc32c_table[k][i] == ((prev >> 8) ^ dod__crc32c_table[0][prev & 0xFF]);
        }
    }
    CHECK(ok);
}

/* Every path this CPU has against the portable one: every length up to 1100 (the folding path
 * starts at DOD__CRC32C_FOLD_MIN and has steps of 128, 32 and 16 bytes) at 9 alignments, chained
 * in two pieces, from a non-zero CRC; then long buffers, where the instruction path interleaves
 * three streams and folding runs its 128-byte loop. */
static int level_agrees(int level, const unsigned char *buf, size_t n, uint32_t from)
{
    uint32_t a = dod__crc32c_at(level, from, buf, n);
    size_t cut = n / 3;
    return a == dod__crc32c_portable(from, buf, n) &&
           dod__crc32c_at(level, dod__crc32c_at(level, from, buf, cut), buf + cut, n - cut) == a;
}

static void test_paths_agree(void)
{
    unsigned char buf[1100];
    test_rng rng = { 1 };
    for (size_t i = 0; i < sizeof buf; ++i)
        buf[i] = (unsigned char)test_rng_next(&rng);
    enum { BIG = 100000 };
    unsigned char *big = (unsigned char *)malloc(BIG);
    CHECK(big != NULL);
    if (!big)
        return;
    for (size_t i = 0; i < BIG; ++i)
        big[i] = (unsigned char)test_rng_next(&rng);
    const int top = dod__crc32c_hardware();
    for (int level = DOD__CRC32C_PORTABLE; level <= top; ++level) {
        int ok = 1;
        for (size_t start = 0; start < 9; ++start)
            for (size_t n = 0; n + start <= sizeof buf; ++n)
                ok &= level_agrees(level, buf + start, n, (uint32_t)n * 0x9E3779B9u);
        for (size_t start = 0; start < 3; ++start)
            for (size_t n = 12000; n + start <= BIG; n += 7919)
                ok &= level_agrees(level, big + start, n, 0);
        CHECK(ok);
        CHECK_EQ(dod__crc32c_at(level, 0, "123456789", 9), 0xE3069283u);
    }
    CHECK(dod__crc32c(0, big, BIG) == dod__crc32c_portable(0, big, BIG));
    free(big);
    static const char *const names[] = { "portable", "crc32 instruction", "folding" };
    printf("crc32c fastest path here: %s\n", names[top]);
}

int main(void)
{
    test_known_values();
    test_tables();
    test_paths_agree();
    return check_summary("test_crc32c");
}
