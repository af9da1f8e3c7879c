/* CRC-32C (Castagnoli), the checksum of saved files; not installed.
 *
 * crc = dod__crc32c(0, p, n) checksums n bytes; chaining dod__crc32c(crc, q, m) continues it, so
 * a stream can be checksummed in pieces. "123456789" gives 0xE3069283. */
#ifndef DOD_CRC32C_H
#define DOD_CRC32C_H

#include <stddef.h>
#include <stdint.h>

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#  define DOD__CRC32C_X86 1
#else
#  define DOD__CRC32C_X86 0
#endif
/* Folding keeps 512-bit vectors in locals: MinGW's GCC does not align the stack for them
 * (Windows guarantees 16 bytes; GCC bug 54412), so it folds only elsewhere. */
#if DOD__CRC32C_X86 && !(defined(_WIN32) && !defined(__clang__))
#  define DOD__CRC32C_X86_FOLD 1
#else
#  define DOD__CRC32C_X86_FOLD 0
#endif

/* What the CPU offers, slowest first: each level has every path below it. */
enum {
    DOD__CRC32C_PORTABLE = 0, /* slicing-by-8 tables */
    DOD__CRC32C_SSE42 = 1,    /* the crc32 instruction, three streams */
    DOD__CRC32C_FOLD = 2      /* carry-less multiply folding (AVX-512 VPCLMULQDQ), long runs */
};

/* Buffers shorter than this take the crc32 instruction even where folding is available. */
#define DOD__CRC32C_FOLD_MIN 256

/* The fastest implementation this CPU has. Thread-safe. */
uint32_t dod__crc32c(uint32_t crc, const void *data, size_t n);

/* The highest level this CPU has (the tests compare every path up to it). */
int dod__crc32c_hardware(void);

/* The implementation of one level, which must be <= dod__crc32c_hardware(). */
uint32_t dod__crc32c_at(int level, uint32_t crc, const void *data, size_t n);

/* Table-driven slicing-by-8, any CPU, any alignment. */
uint32_t dod__crc32c_portable(uint32_t crc, const void *data, size_t n);

#if DOD__CRC32C_X86
/* crc32c_x86.c: the instruction path, and folding (which falls back to it below FOLD_MIN). */
uint32_t dod__crc32c_sse42(uint32_t crc, const void *data, size_t n);
#endif
#if DOD__CRC32C_X86_FOLD
uint32_t dod__crc32c_fold(uint32_t crc, const void *data, size_t n);
#endif

#endif /* DOD_CRC32C_H */
