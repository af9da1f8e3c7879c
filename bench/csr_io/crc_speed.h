/* CRC-32C's speed on this CPU (crc_speed.c), run by bench_csr_io. */
#ifndef DOD_BENCH_CRC_SPEED_H
#define DOD_BENCH_CRC_SPEED_H

#include <stdio.h>

/* Times every CRC-32C path this CPU has against the portable one and checks the folding
 * target; JSON lines to out (may be NULL). */
void crc_speed_bench(FILE *out, int quick);

#endif
