/* Writes the interop cases for test_scipy_format.py into the directory given: for each case k,
 * case<k>.keys (u32 n_rows, u32 n_items, then n_items u32 keys, little-endian) and case<k>.dod
 * (the index dod_csr_build makes from those keys, saved by dod_csr_save). Keys are read back
 * from the .keys bytes, so both sides use the same input. */
#include <dod/csr_io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static void put_le32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static int write_case(const char *dir, int k, uint32_t n_rows, uint32_t n_items, int longtail)
{
    char path[4096];
    uint64_t seed = (uint64_t)k * 977 + 1;
    unsigned char *bytes = (unsigned char *)malloc(8 + (size_t)n_items * 4);
    uint32_t *keys = (uint32_t *)malloc((size_t)(n_items ? n_items : 1) * 4);
    put_le32(bytes, n_rows);
    put_le32(bytes + 4, n_items);
    for (uint32_t i = 0; i < n_items; ++i) {
        double u = (double)next(&seed) / 4294967296.0;
        uint32_t key = longtail ? (uint32_t)(n_rows * u * u) : next(&seed) % n_rows;
        put_le32(bytes + 8 + (size_t)i * 4, key);
        keys[i] = key;
    }
    snprintf(path, sizeof path, "%s/case%d.keys", dir, k);
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(bytes, 1, 8 + (size_t)n_items * 4, f) == 8 + (size_t)n_items * 4;
    if (f)
        ok = fclose(f) == 0 && ok;
    dod_csr idx;
    dod_csr_init(&idx, NULL);
    ok = ok && dod_csr_build(&idx, n_rows, keys, 4, n_items) == DOD_OK;
    snprintf(path, sizeof path, "%s/case%d.dod", dir, k);
    f = fopen(path, "wb");
    ok = ok && f && dod_csr_save(&idx, f) == DOD_OK;
    if (f)
        ok = fclose(f) == 0 && ok;
    dod_csr_free(&idx);
    free(bytes);
    free(keys);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    const uint32_t cases[][3] = { { 0, 0, 0 }, { 9, 0, 0 }, { 1, 5, 0 }, { 17, 100, 0 },
                                  { 1000, 6000, 1 }, { 5000, 31000, 0 } };
    int n = (int)(sizeof cases / sizeof cases[0]);
    for (int k = 0; k < n; ++k)
        if (!write_case(argv[1], k, cases[k][0], cases[k][1], (int)cases[k][2])) {
            fprintf(stderr, "write_index: case %d failed\n", k);
            return 1;
        }
    printf("%d\n", n);
    return 0;
}
