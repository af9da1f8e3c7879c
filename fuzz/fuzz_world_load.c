/* libFuzzer target: arbitrary bytes (as given, and with their CRCs recomputed) into
 * dod_world_load_mem and dod_world_load (a seekable stream), each into a new world of
 * fuzz/fuzz_world.h's declaration and into one holding entities. Whatever the bytes, nothing
 * may read out of bounds or leak, the loaders must agree (a stream may hold more after one
 * world), a refused load must leave its world as it was, and an accepted world must be whole
 * (every live slot's entity in the row its handle names, every row's handle live, the counts
 * adding up), save back to exactly the bytes it was loaded from, and take spawns. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "crc32c.h"
#include "file_format.h"
#include "fuzz_world.h"
#include "world_layout.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int cond)
{
    if (!cond)
        abort();
}

/* Every row of every block: its handle is alive and names this row; as many as the counts. */
static void walk_world(const dod_world *w)
{
    uint64_t rows = 0;
    for (uint32_t a = 0; a < 4; ++a) {
        uint64_t in_arch = 0;
        void *cols[1 + 4];
        for (uint32_t b = 0;; ++b) {
            uint32_t n = dod_world_block(w, a, b, cols);
            if (n == 0)
                break;
            const dod_entity *ids = (const dod_entity *)cols[0];
            for (uint32_t r = 0; r < n; ++r) {
                require(dod_world_alive(w, ids[r]) && dod_world_archetype_of(w, ids[r]) == a);
                for (uint32_t k = 0; k < fuzz_archs[a].n_components; ++k) {
                    uint32_t c = fuzz_archs[a].components[k];
                    require(dod_world_get(w, ids[r], c) ==
                            (void *)((unsigned char *)cols[1 + k] + r * fuzz_comps[c].size));
                }
                require(dod_world_entity_at(w, (uint32_t)ids[r].bits).bits == ids[r].bits);
            }
            in_arch += n;
        }
        require(in_arch == dod_world_count(w, a));
        rows += in_arch;
    }
    /* every live slot is one of those rows */
    uint64_t live = 0;
    for (uint32_t s = 0; s < w->head.n_slots; ++s)
        live += dod_world_entity_at(w, s).bits != 0;
    require(live == rows);
}

/* The bytes a world saves to, malloc'd; *size their count. */
static unsigned char *saved(const dod_world *w, size_t *size)
{
    *size = dod_world_saved_size(w);
    unsigned char *b = (unsigned char *)malloc(*size);
    require(b != NULL && dod_world_save_mem(w, b, *size) == DOD_OK);
    return b;
}

/* A refused load left w as it was: it saves to the same bytes, and is whole. */
static void unchanged(const dod_world *w, const unsigned char *before, size_t before_size)
{
    size_t n;
    unsigned char *now = saved(w, &n);
    require(n == before_size && memcmp(now, before, n) == 0);
    free(now);
    walk_world(w);
}

/* The bytes an accepted world saves back to: exactly the input. */
static void same_bytes(const dod_world *w, const uint8_t *data, size_t size)
{
    require(dod_world_saved_size(w) == size);
    unsigned char *again = (unsigned char *)malloc(size);
    require(again != NULL);
    require(dod_world_save_mem(w, again, size) == DOD_OK);
    require(memcmp(again, data, size) == 0);
    free(again);
}

static dod_world *world_with_entities(void)
{
    dod_world *w = fuzz_world();
    require(w != NULL);
    for (uint32_t a = 0; a < 4; ++a)
        require(dod_world_spawn(w, a, NULL) == DOD_OK);
    return w;
}

static void one_input(const uint8_t *data, size_t size)
{
    dod_world *a = fuzz_world(), *b = world_with_entities();
    require(a != NULL);
    size_t a_size, b_size;
    unsigned char *a_before = saved(a, &a_size), *b_before = saved(b, &b_size);
    dod_status st_mem = dod_world_load_mem(a, data, size);
    dod_status st_b = dod_world_load_mem(b, data, size);
    require(st_mem == st_b);
    if (st_mem == DOD_OK) {
        walk_world(a);
        walk_world(b);
        same_bytes(a, data, size);
        same_bytes(b, data, size);
        for (uint32_t arch = 0; arch < 4; ++arch) { /* a loaded world goes on */
            dod_entity e1, e2;
            dod_status s1 = dod_world_spawn(a, arch, &e1), s2 = dod_world_spawn(b, arch, &e2);
            require(s1 == s2 && (s1 != DOD_OK || (uint32_t)e1.bits == (uint32_t)e2.bits));
        }
    } else {
        unchanged(a, a_before, a_size);
        unchanged(b, b_before, b_size);
    }
    free(a_before);
    free(b_before);
    FILE *f = size ? fmemopen((void *)data, size, "rb") : NULL;
    if (f) {
        dod_world *c = fuzz_world();
        require(c != NULL);
        dod_status st_file = dod_world_load(c, f);
        if (st_mem == DOD_OK) /* one whole world: the stream reads it and ends right after */
            require(st_file == DOD_OK && ftell(f) == (long)size);
        if (st_file == DOD_OK) {
            /* a stream may go on after the world: then the prefix it read is one world */
            long used = ftell(f);
            require(used > 0 && (size_t)used <= size);
            same_bytes(c, data, (size_t)used);
            walk_world(c);
        }
        dod_world_destroy(c);
        fclose(f);
    }
    dod_world_destroy(a);
    dod_world_destroy(b);
}

/* Each input runs as is and once more with both CRCs recomputed (header bytes 0..59, and the
 * last 4 bytes over everything before them), so mutations reach the checks behind the CRCs. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    one_input(data, size);
    if (size < 128)
        return 0;
    unsigned char *sealed = (unsigned char *)malloc(size);
    if (!sealed)
        return 0;
    memcpy(sealed, data, size);
    dod__put_le32(sealed + 60, dod__crc32c(0, sealed, 60));
    dod__put_le32(sealed + size - 4, dod__crc32c(0, sealed, size - 4));
    one_input(sealed, size);
    free(sealed);
    return 0;
}
