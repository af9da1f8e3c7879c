/* Writes the fuzzer's seed corpus: a few saved indexes (empty, rows without items, small and
 * medium random ones) into the directory given. fuzz/run.sh builds and runs it. */
#include <dod/csr_io.h>
#include <stdio.h>
#include <stdlib.h>

static int save(const char *dir, const char *name, const dod_csr *c)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    int ok = dod_csr_save(c, f) == DOD_OK;
    return fclose(f) == 0 && ok;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    uint32_t keys[300], small[10];
    uint32_t s = 12345;
    for (int i = 0; i < 300; ++i) {
        s = s * 1103515245u + 12345u;
        keys[i] = (s >> 16) % 40;
    }
    for (int i = 0; i < 10; ++i)
        small[i] = keys[i] % 3;
    dod_csr c;
    dod_csr_init(&c, NULL);
    int ok = save(argv[1], "empty.dod", &c);
    ok = ok && dod_csr_build(&c, 5, NULL, 4, 0) == DOD_OK && save(argv[1], "rows_only.dod", &c);
    ok = ok && dod_csr_build(&c, 3, small, 4, 10) == DOD_OK && save(argv[1], "small.dod", &c);
    ok = ok && dod_csr_build(&c, 40, keys, 4, 300) == DOD_OK && save(argv[1], "medium.dod", &c);
    dod_csr_free(&c);
    return ok ? 0 : 1;
}
