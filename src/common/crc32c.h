/* CRC-32C (Castagnoli), the checksum of saved indexes; not installed.
 *
 * crc = dod__crc32c(0, p, n) checksums n bytes; chaining dod__crc32c(crc, q, m) continues it, so
 * a stream can be checksummed in pieces. "123456789" gives 0xE3069283. */
#ifndef DOD_CRC32C_H
#define DOD_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* The fastest implementation this CPU has: the SSE4.2 crc32 instruction on x86-64 when the CPU
 * reports it, else dod__crc32c_portable. Thread-safe. */
uint32_t dod__crc32c(uint32_t crc, const void *data, size_t n);

/* Table-driven slicing-by-8, any CPU, any alignment. */
uint32_t dod__crc32c_portable(uint32_t crc, const void *data, size_t n);

/* 1 when dod__crc32c uses a hardware instruction (the tests compare both paths). */
int dod__crc32c_hardware(void);

#endif /* DOD_CRC32C_H */
