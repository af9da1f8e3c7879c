/* Writes the fuzzers' seed corpora (fuzz/run.sh builds and runs it):
 *   gen_corpus CSR_DIR WORLD_DIR
 * a few saved indexes (empty, rows without items, small and medium random ones) into CSR_DIR,
 * and a few saved worlds of fuzz/fuzz_world.h's declaration (empty, small, one with a free
 * list and moves, one filling every archetype) into WORLD_DIR. */
#include <dod/csr_io.h>
#include <stdio.h>
#include <stdlib.h>
#include "fuzz_world.h"

static FILE *open_in(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return fopen(path, "wb");
}

static int save(const char *dir, const char *name, const dod_csr *c)
{
    FILE *f = open_in(dir, name);
    if (!f)
        return 0;
    int ok = dod_csr_save(c, f) == DOD_OK;
    return fclose(f) == 0 && ok;
}

static int save_world(const char *dir, const char *name, const dod_world *w)
{
    FILE *f = open_in(dir, name);
    if (!f)
        return 0;
    int ok = dod_world_save(w, f) == DOD_OK;
    return fclose(f) == 0 && ok;
}

static int indexes(const char *dir)
{
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
    int ok = save(dir, "empty.dod", &c);
    ok = ok && dod_csr_build(&c, 5, NULL, 4, 0) == DOD_OK && save(dir, "rows_only.dod", &c);
    ok = ok && dod_csr_build(&c, 3, small, 4, 10) == DOD_OK && save(dir, "small.dod", &c);
    ok = ok && dod_csr_build(&c, 40, keys, 4, 300) == DOD_OK && save(dir, "medium.dod", &c);
    dod_csr_free(&c);
    return ok;
}

/* Spawn n entities of archetype a with their components' bytes set from a counter. */
static int spawn_some(dod_world *w, uint32_t a, uint32_t n, dod_entity *out)
{
    for (uint32_t i = 0; i < n; ++i) {
        if (dod_world_spawn(w, a, &out[i]) != DOD_OK)
            return 0;
        for (uint32_t c = 0; c < 4; ++c) {
            unsigned char *p = (unsigned char *)dod_world_get(w, out[i], c);
            for (size_t k = 0; p && k < fuzz_comps[c].size; ++k)
                p[k] = (unsigned char)(i * 31 + c * 7 + k);
        }
    }
    return 1;
}

static int worlds(const char *dir)
{
    dod_world *w = fuzz_world();
    dod_entity e[64];
    int ok = w && save_world(dir, "empty.dodw", w);
    ok = ok && spawn_some(w, 0, 3, e) && spawn_some(w, 1, 2, e + 3) &&
         save_world(dir, "small.dodw", w);
    ok = ok && dod_world_despawn(w, e[1]) == DOD_OK && dod_world_move(w, e[3], 2) == DOD_OK &&
         spawn_some(w, 3, 4, e + 5) && dod_world_despawn(w, e[6]) == DOD_OK &&
         save_world(dir, "free_list.dodw", w);
    ok = ok && spawn_some(w, 0, 13, e) && spawn_some(w, 1, 40, e + 13) &&
         spawn_some(w, 2, 8, e + 53) && save_world(dir, "full.dodw", w);
    dod_world_destroy(w);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s CSR_DIR WORLD_DIR\n", argv[0]);
        return 2;
    }
    return indexes(argv[1]) && worlds(argv[2]) ? 0 : 1;
}
