/* World files: round trips of random worlds (fixed, chunked, growing and capped blocks, retired
 * slots, free lists) through memory, files and pipes, into new worlds and worlds holding
 * entities, then the same random calls on the saved and the loaded world; the format's bytes;
 * the big-endian path; every truncation and single-bit flip of a small file; resealed files
 * that break each rule; files of other declarations; every allocation failure; a file saved on
 * another host. DOD_TEST_SCALE (default 1) multiplies the random histories. */
#ifndef _WIN32
#  define _POSIX_C_SOURCE 200809L
#endif
#include <dod/world.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "stream_check.h"
#include "crc32c.h"
#include "world_file.h"
#include "world_io_check.h"

/* ---- helpers ---- */

typedef struct image { unsigned char *bytes; size_t len; } image;

static image save_image(const dod_world *w)
{
    image im;
    im.len = dod_world_saved_size(w);
    im.bytes = (unsigned char *)malloc(im.len + 1);
    CHECK_OK(dod_world_save_mem(w, im.bytes, im.len));
    return im;
}

static image image_copy(const image *im)
{
    image c = { (unsigned char *)malloc(im->len + 1), im->len };
    memcpy(c.bytes, im->bytes, im->len);
    return c;
}

/* Recompute the header's CRC and the trailer's after a deliberate edit, so the checks behind
 * them are reached. */
static void reseal(unsigned char *b, size_t len)
{
    dod__put_le32(b + 60, dod__crc32c(0, b, 60));
    dod__put_le32(b + len - 4, dod__crc32c(0, b, len - 4));
}

/* A world with a random history of `steps` calls (seed `seed`). */
static dod_world *played_world(uint64_t seed, uint32_t steps, const dod_allocator *alloc)
{
    dod_world *w = io_world(alloc);
    dod_world *one[1] = { w };
    io_play p;
    memset(&p, 0, sizeof p);
    p.w = one;
    p.n_worlds = 1;
    p.rng.s = seed;
    io_play_steps(&p, steps);
    return w;
}

/* A loaded world against the saved one: the same contents and handles (less the tag, which is
 * the loading world's), and it saves to the same bytes. */
static void check_loaded(const dod_world *src, const dod_world *back, const image *im,
                         uint32_t tag_before)
{
    CHECK(io_same(src, back, 0, 0));
    CHECK(io_handles_resolve(src, back));
    CHECK_EQ(back->head.tag_hi, tag_before);
    image again = save_image(back);
    CHECK(again.len == im->len && memcmp(again.bytes, im->bytes, im->len) == 0);
    free(again.bytes);
}

/* ---- round trips ---- */

static void round_trip(dod_world *src, uint64_t seed)
{
    image im = save_image(src);
    CHECK_EQ(im.len % 64, 0);
    FILE *f = tmpfile();
    CHECK_OK(dod_world_save(src, f));
    CHECK_EQ((size_t)ftell(f), im.len);
    rewind(f);
    unsigned char *from_file = (unsigned char *)malloc(im.len);
    CHECK_EQ(fread(from_file, 1, im.len, f), im.len);
    CHECK(memcmp(from_file, im.bytes, im.len) == 0);
    free(from_file);

    /* into a new world from memory, from the file (straight into its blocks) and from a pipe */
    dod_world *a = io_world(NULL), *b = io_world(NULL), *c = io_world(NULL);
    uint32_t tag_a = a->head.tag_hi, tag_b = b->head.tag_hi, tag_c = c->head.tag_hi;
    CHECK_OK(dod_world_load_mem(a, im.bytes, im.len));
    check_loaded(src, a, &im, tag_a);
    rewind(f);
    CHECK_OK(dod_world_load(b, f));
    CHECK_EQ((size_t)ftell(f), im.len); /* left just after the world */
    check_loaded(src, b, &im, tag_b);
    if (im.len < 60000) {
        FILE *p = pipe_with(im.bytes, im.len);
        CHECK_OK(dod_world_load(c, p));
        CHECK_EQ(fgetc(p), EOF);
        fclose(p);
        check_loaded(src, c, &im, tag_c);
    }
    /* into worlds holding entities: from memory (checked in place, then copied) and from the
     * file (staged) */
    dod_world *d = played_world(seed ^ 0x5555, 300, NULL), *e = played_world(seed ^ 0xAAAA, 30, NULL);
    uint32_t tag_d = d->head.tag_hi, tag_e = e->head.tag_hi;
    CHECK_OK(dod_world_load_mem(d, im.bytes, im.len));
    check_loaded(src, d, &im, tag_d);
    rewind(f);
    CHECK_OK(dod_world_load(e, f));
    check_loaded(src, e, &im, tag_e);
    fclose(f);

    /* the loaded world goes on as the saved one: the same calls, the same handles */
    dod_world *s2 = io_world(NULL);
    CHECK_OK(dod_world_copy(s2, src));
    dod_world *both[3] = { s2, d, e };
    io_play p;
    memset(&p, 0, sizeof p);
    p.w = both;
    p.n_worlds = 3;
    p.rng.s = seed * 31;
    io_play_rescan(&p);
    io_play_steps(&p, 300);
    CHECK(io_same(s2, d, 0, 0) && io_same(s2, e, 0, 0));
    dod_world_destroy(s2);
    dod_world_destroy(a);
    dod_world_destroy(b);
    dod_world_destroy(c);
    dod_world_destroy(d);
    dod_world_destroy(e);
    free(im.bytes);
}

static void test_round_trips(void)
{
    dod_world *w = io_world(NULL);
    round_trip(w, 1); /* empty */
    dod_world_destroy(w);
    const uint32_t rounds = 10 * test_scale();
    for (uint32_t r = 0; r < rounds; ++r) {
        w = played_world(1000 + r, 40 + 300 * r, NULL);
        if (r == 2)
            io_retire_a_slot(w);
        round_trip(w, 1000 + r);
        dod_world_destroy(w);
    }
    /* one entity only, one archetype emptied by despawns (block 0 open and empty) */
    w = io_world(NULL);
    dod_entity e[50];
    CHECK_OK(dod_world_spawn_n(w, 0, 50, e));
    for (int i = 0; i < 49; ++i)
        CHECK_OK(dod_world_despawn(w, e[i]));
    round_trip(w, 7);
    CHECK_OK(dod_world_despawn(w, e[49]));
    round_trip(w, 8);
    dod_world_destroy(w);
}

/* Several worlds one after another in one stream: each load stops right after its world. */
static void test_stream_of_worlds(void)
{
    dod_world *x = played_world(11, 200, NULL), *y = played_world(12, 100, NULL);
    FILE *f = tmpfile();
    CHECK_OK(dod_world_save(x, f));
    long mid = ftell(f);
    CHECK_OK(dod_world_save(y, f));
    CHECK_OK(dod_world_save(x, f));
    rewind(f);
    dod_world *a = io_world(NULL), *b = io_world(NULL);
    CHECK_OK(dod_world_load(a, f));
    CHECK_EQ(ftell(f), mid);
    CHECK(io_same(x, a, 0, 0));
    CHECK_OK(dod_world_load(b, f));
    CHECK(io_same(y, b, 0, 0));
    CHECK_OK(dod_world_load(a, f)); /* a holds entities: staged */
    CHECK(io_same(x, a, 0, 0));
    CHECK_EQ(fgetc(f), EOF);
    fclose(f);
    dod_world_destroy(a);
    dod_world_destroy(b);
    dod_world_destroy(x);
    dod_world_destroy(y);
}

/* ---- the bytes ---- */

/* A small world whose file is read field by field against docs/format.md. */
static void test_format_bytes(void)
{
    dod_world *w = io_world(NULL);
    dod_entity e[3];
    CHECK_OK(dod_world_spawn_n(w, 1, 3, e)); /* "p": fixed, 200 rows */
    float xy[2] = { 1.5f, -2.0f };
    memcpy(dod_world_get(w, e[1], IO_POS), xy, sizeof xy);
    CHECK_OK(dod_world_despawn(w, e[0])); /* slot 0 free, e[2] now in row 0 */
    image im = save_image(w);
    const unsigned char *b = im.bytes;
    const unsigned char magic[8] = { 0x89, 'D', 'O', 'D', 'W', 'L', 'D', '\n' };
    CHECK(memcmp(b, magic, 8) == 0);
    CHECK_EQ(dod__get_le32(b + 8), 1);  /* version */
    CHECK_EQ(dod__get_le32(b + 12), 0); /* flags */
    CHECK_EQ(dod__get_le32(b + 16), 64);
    CHECK_EQ(dod__get_le32(b + 20), IO_N_COMPS);
    CHECK_EQ(dod__get_le32(b + 24), IO_N_ARCHS);
    CHECK_EQ(dod__get_le32(b + 28), 3); /* n_slots */
    CHECK_EQ(dod__get_le32(b + 32), 0); /* free_head */
    CHECK_EQ(dod__get_le32(b + 36), 1); /* n_free */
    CHECK_EQ(dod__get_le64(b + 40), dod__world_declaration(w));
    CHECK_EQ(dod__get_le64(b + 48), im.len);
    uint32_t dir = dod__get_le32(b + 56);
    CHECK_EQ(dir % 64, 0);
    CHECK_EQ(dod__get_le32(b + 60), dod__crc32c(0, b, 60));
    /* the directory: component 0 ("pos", 8, 4), then the archetypes, then the row counts */
    const unsigned char *d = b + 64;
    CHECK_EQ(dod__get_le64(d), dod__world_name_hash("pos"));
    CHECK_EQ(dod__get_le64(d + 8), 8);
    CHECK_EQ(dod__get_le32(d + 16), 4);
    const unsigned char *arch = d + 24 * IO_N_COMPS;
    CHECK_EQ(dod__get_le32(arch), 2);       /* "pv": 2 components */
    CHECK_EQ(dod__get_le32(arch + 4), 0);   /* chunked */
    CHECK_EQ(dod__get_le32(arch + 8), 512); /* block_bytes */
    CHECK_EQ(dod__get_le32(arch + 12), 512);
    CHECK_EQ(dod__get_le64(arch + 16), UINT64_MAX); /* no cap */
    CHECK_EQ(dod__get_le32(arch + 48), IO_POS);
    CHECK_EQ(dod__get_le32(arch + 52), IO_VEL);
    const unsigned char *p_rec = arch + 56;
    CHECK_EQ(dod__get_le32(p_rec), 1);
    CHECK_EQ(dod__get_le32(p_rec + 4), 200);  /* capacity */
    CHECK_EQ(dod__get_le32(p_rec + 8), 0);    /* a fixed archetype declares no blocks */
    CHECK_EQ(dod__get_le32(p_rec + 24), 200); /* block 0's rows */
    CHECK_EQ(dod__get_le32(p_rec + 32), 32);  /* the location's shift */
    size_t records = 24 * IO_N_COMPS;
    for (uint32_t i = 0; i < IO_N_ARCHS; ++i)
        records += 48 + (4 * IO_ARCHS[i].n_components + 7) / 8 * 8;
    CHECK_EQ(dod__get_le32(d + records), 0);      /* pv: no rows */
    CHECK_EQ(dod__get_le32(d + records + 4), 2);  /* p: 2 rows */
    CHECK(dod__file_all_zero(d + records + 4 * IO_N_ARCHS, dir - records - 4 * IO_N_ARCHS));
    /* the entity index: slot 0 free (generation 2, end of the list), slots 1 and 2 live in
     * "p" (archetype 1) at rows 1 and 0 */
    const unsigned char *slots = d + dir;
    CHECK_EQ(dod__get_le64(slots), 2 | (uint64_t)UINT32_MAX << 24);
    CHECK_EQ(dod__get_le64(slots + 8), 1 | 1u << 16 | (uint64_t)1 << 24);
    CHECK_EQ(dod__get_le64(slots + 16), 1 | 1u << 16 | (uint64_t)0 << 24);
    CHECK(dod__file_all_zero(slots + 24, 40));
    /* "p"'s rows: ids without the tag, then its positions */
    const unsigned char *ids = slots + 64;
    CHECK_EQ(dod__get_le64(ids), (uint64_t)1 << 32 | 2);
    CHECK_EQ(dod__get_le64(ids + 8), (uint64_t)1 << 32 | 1);
    CHECK(dod__file_all_zero(ids + 16, 48));
    const unsigned char *pos = ids + 64;
    CHECK_EQ(dod__get_le32(pos + 8), 0x3FC00000u);  /* 1.5f, little-endian on every host */
    CHECK_EQ(dod__get_le32(pos + 12), 0xC0000000u); /* -2.0f */
    const unsigned char *t = pos + 64;
    CHECK_EQ((size_t)(t + 64 - b), im.len);
    const unsigned char end_magic[8] = { 0x89, 'D', 'O', 'D', 'E', 'N', 'D', '\n' };
    CHECK(memcmp(t, end_magic, 8) == 0);
    CHECK_EQ(dod__get_le64(t + 8), 2); /* live entities */
    CHECK_EQ(dod__get_le32(t + 60), dod__crc32c(0, b, im.len - 4));
    free(im.bytes);
    dod_world_destroy(w);
}

/* Where things are in a file saved from w. */
typedef struct places { size_t dir, counts, slots, rows[IO_N_ARCHS], trailer; } places;

static places places_of(const dod_world *w, const image *im)
{
    places p;
    dod__world_file_layout l;
    uint32_t n_rows[IO_N_ARCHS];
    for (uint32_t i = 0; i < IO_N_ARCHS; ++i)
        n_rows[i] = dod_world_count(w, i);
    CHECK_OK(dod__world_file_layout_of(w, n_rows, w->head.n_slots, w->free_head, w->n_free, &l));
    CHECK_EQ(l.file_bytes, im->len);
    p.dir = 64;
    p.slots = (size_t)l.slots_pos;
    p.counts = 64 + 24 * IO_N_COMPS;
    for (uint32_t i = 0; i < IO_N_ARCHS; ++i)
        p.counts += 48 + (4 * IO_ARCHS[i].n_components + 7) / 8 * 8;
    for (uint32_t i = 0; i < IO_N_ARCHS; ++i)
        p.rows[i] = (size_t)l.rows_pos[i];
    p.trailer = (size_t)l.trailer_pos;
    return p;
}

/* The big-endian path on any host: forced, every bulk word is swapped between memory and
 * disk, so a round trip still gives the world back, and the file differs from the plain one
 * exactly by the words of the rule swapped: slots and ids as 8 bytes, each component as words
 * of its alignment (a float's 4 bytes, "half"'s 2, "byte" as it is). */
static void test_swap_path(void)
{
    dod_world *w = io_world(NULL);
    dod_entity e;
    CHECK_OK(dod_world_spawn(w, 7, &e)); /* "half": 6 bytes, align 2 */
    const unsigned char h[6] = { 1, 2, 3, 4, 5, 6 };
    memcpy(dod_world_get(w, e, IO_HALF), h, 6);
    CHECK_OK(dod_world_spawn(w, 4, &e)); /* "lbv": line (64, align 64), byte, vel */
    unsigned char line[64];
    for (int i = 0; i < 64; ++i)
        line[i] = (unsigned char)i;
    memcpy(dod_world_get(w, e, IO_LINE), line, 64);
    *(unsigned char *)dod_world_get(w, e, IO_BYTE) = 0xAB;
    const unsigned char v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    memcpy(dod_world_get(w, e, IO_VEL), v, 8);
    /* plain: host order, what a little-endian host writes (a big-endian one is forced to);
     * swapped: every word swapped (a little-endian host is forced to, a big-endian one is). */
    const int big_endian_host = dod__file_swapping();
    dod__file_force_swap = big_endian_host;
    image plain = save_image(w);
    dod__file_force_swap = !big_endian_host;
    image swapped = save_image(w);
    dod_world *back = io_world(NULL);
    CHECK_OK(dod_world_load_mem(back, swapped.bytes, swapped.len));
    dod__file_force_swap = 0;
    CHECK(io_same(w, back, 0, 0));
    CHECK(io_handles_resolve(w, back));
    CHECK_EQ(plain.len, swapped.len);
    places at = places_of(w, &plain);
    /* header and directory: fields, never swapped */
    CHECK(memcmp(plain.bytes, swapped.bytes, at.slots) == 0);
    unsigned char x[64];
    dod__file_swap(x, plain.bytes + at.slots, 2, 8);
    CHECK(memcmp(x, swapped.bytes + at.slots, 16) == 0);
    dod__file_swap(x, plain.bytes + at.rows[7], 1, 8); /* an id */
    CHECK(memcmp(x, swapped.bytes + at.rows[7], 8) == 0);
    const unsigned char h_swapped[6] = { 2, 1, 4, 3, 6, 5 };
    CHECK(memcmp(swapped.bytes + at.rows[7] + 64, h_swapped, 6) == 0);
    const size_t line_at = at.rows[4] + 64, byte_at = line_at + 64, vel_at = byte_at + 64;
    dod__file_swap(x, line, 8, 8);
    CHECK(memcmp(swapped.bytes + line_at, x, 64) == 0);
    CHECK_EQ(swapped.bytes[byte_at], 0xAB);
    const unsigned char v_swapped[8] = { 4, 3, 2, 1, 8, 7, 6, 5 };
    CHECK(memcmp(swapped.bytes + vel_at, v_swapped, 8) == 0);
    free(plain.bytes);
    free(swapped.bytes);
    dod_world_destroy(w);
    dod_world_destroy(back);
}

/* ---- damaged files ---- */

/* Worlds to load into that must come out unchanged: a new one (the direct path) and one
 * holding entities (checked in place, or staged). */
typedef struct targets { dod_world *w[2]; uint64_t snap[2]; } targets;

static void targets_make(targets *t, const dod_allocator *alloc)
{
    t->w[0] = io_world(alloc);
    t->w[1] = played_world(4242, 60, alloc);
    for (int i = 0; i < 2; ++i)
        t->snap[i] = world_snap(t->w[i]);
}

static void targets_check(targets *t, const unsigned char *bytes, size_t len, dod_status want,
                          int with_file)
{
    for (int i = 0; i < 2; ++i) {
        CHECK_STATUS(dod_world_load_mem(t->w[i], bytes, len), want);
        if (with_file) {
            FILE *f = file_with(bytes, len);
            CHECK_STATUS(dod_world_load(t->w[i], f), want);
            fclose(f);
        }
        CHECK(world_snap(t->w[i]) == t->snap[i]);
    }
}

/* The control: the unedited file loads into both. */
static void targets_load_ok(targets *t, const image *im)
{
    for (int i = 0; i < 2; ++i)
        CHECK_OK(dod_world_load_mem(t->w[i], im->bytes, im->len));
}

static void targets_free(targets *t)
{
    dod_world_destroy(t->w[0]);
    dod_world_destroy(t->w[1]);
}

/* A small file: every truncation (memory and file) and every single-bit flip (memory; every
 * 7th through a file) is refused as corrupt, and the worlds stay as they were. */
static void test_truncations_and_flips(void)
{
    dod_world *src = played_world(77, 12, NULL);
    dod_entity x;
    CHECK_OK(dod_world_spawn(src, 5, &x));
    CHECK_OK(dod_world_despawn(src, x));
    image im = save_image(src);
    CHECK(im.len < 4096);
    targets t;
    targets_make(&t, NULL);
    for (size_t len = 0; len < im.len; ++len)
        targets_check(&t, im.bytes, len, DOD_E_CORRUPT, 1);
    image flipped = image_copy(&im);
    for (size_t bit = 0; bit < 8 * im.len; ++bit) {
        flipped.bytes[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        targets_check(&t, flipped.bytes, flipped.len, DOD_E_CORRUPT, bit % 7 == 0);
        flipped.bytes[bit / 8] ^= (unsigned char)(1u << (bit % 8));
    }
    targets_load_ok(&t, &im);
    targets_free(&t);
    free(flipped.bytes);
    free(im.bytes);
    dod_world_destroy(src);
}

/* Resealed edits, each breaking one rule behind the CRCs; every load refused with its status,
 * the worlds unchanged, and no more allocated than the file's own size implies. */
static void test_each_rule(void)
{
    /* the source: "p" (archetype 1, fixed) holds slots 1 and 2 after slot 0 was freed; "pv"
     * holds slot 3 */
    dod_world *src = io_world(NULL);
    dod_entity e[4];
    CHECK_OK(dod_world_spawn_n(src, 1, 3, e));
    CHECK_OK(dod_world_spawn(src, 0, &e[3]));
    CHECK_OK(dod_world_despawn(src, e[0]));
    image im = save_image(src);
    places at = places_of(src, &im);
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator al = test_alloc_get(&ta);
    targets t;
    targets_make(&t, &al);
    size_t held = ta.live_bytes;
    ta.peak_bytes = held; /* from here on: what the loads take */
    enum { N_EDITS = 26 };
    for (int edit = 0; edit < N_EDITS; ++edit) {
        image x = image_copy(&im);
        unsigned char *b = x.bytes;
        dod_status want = DOD_E_CORRUPT;
        switch (edit) {
        case 0: dod__put_le32(b + 8, 2); break;                        /* version */
        case 1: dod__put_le32(b + 12, 1); break;                       /* flags */
        case 2: dod__put_le32(b + 16, 128); break;                     /* header bytes */
        case 3: dod__put_le32(b + 28, 9); break;                       /* n_slots: 9 */
        case 4: dod__put_le32(b + 36, 0); break;                       /* n_free 0, head set */
        case 5: dod__put_le32(b + 32, 3); break;                       /* head: a live slot */
        case 6: dod__put_le32(b + 32, 7); break;                       /* head out of range */
        case 7: dod__put_le64(b + 48, x.len + 64); break;              /* longer than it is */
        case 8: dod__put_le64(b + 48, 100); break;                     /* shorter than its parts */
        case 9: dod__put_le32(b + 56, 64); break;                      /* directory bytes */
        case 10: b[at.dir + 8] ^= 1; break;                            /* a component's size */
        case 11: dod__put_le32(b + at.counts + 4, 3); break;           /* more rows than slots */
        case 12: dod__put_le64(b + at.slots, 3); break;                /* free slot made live */
        case 13: dod__put_le64(b + at.slots, 2 | 1u << 16 | (uint64_t)UINT32_MAX << 24); break;
        case 14: dod__put_le64(b + at.slots, 2 | (uint64_t)9 << 24); break; /* link past n_slots */
        case 15: dod__put_le64(b + at.slots, (uint64_t)UINT32_MAX << 24); break; /* gen 0 */
        case 16: dod__put_le64(b + at.slots, 2 | (uint64_t)0 << 24); break; /* a cycle */
        case 17: dod__put_le64(b + at.slots + 8, 1 | 1u << 16 | (uint64_t)5 << 24); break;
        case 18: b[at.rows[1] + 7] = 1; break;                         /* tag bits in an id */
        case 19: dod__put_le64(b + at.rows[1], (uint64_t)1 << 32 | 1); break; /* duplicate */
        case 20: dod__put_le64(b + at.rows[1], (uint64_t)2 << 32 | 2); break; /* even gen */
        case 21: dod__put_le64(b + at.rows[1], (uint64_t)1 << 32 | 3); break; /* other arch */
        case 22: b[at.slots + 4 * 8] = 1; break;                       /* padding */
        case 23: dod__put_le64(b + at.trailer + 8, 2); break;          /* live entities */
        case 24: dod__put_le64(b + 40, dod__get_le64(b + 40) ^ 1); want = DOD_E_INVALID; break;
        default: dod__put_le32(b + 20, IO_N_COMPS - 1); want = DOD_E_INVALID; break;
        }
        reseal(b, x.len);
        long calls = ta.calls;
        targets_check(&t, b, x.len, want, 1);
        if (edit == 7) /* a claim past the input is refused before any allocation */
            CHECK_EQ(ta.calls, calls);
        for (int i = 0; i < 2; ++i) { /* and through streams that cannot be measured */
            FILE *p = pipe_with(b, x.len);
            CHECK_STATUS(dod_world_load(t.w[i], p), want);
            fclose(p);
            CHECK(world_snap(t.w[i]) == t.snap[i]);
        }
        free(x.bytes);
    }
    /* at most: a staging buffer (pipes grow it up to about 3x what arrived), or the blocks the
     * file's rows need (a block 0 an archetype at most, twice the rows' bytes past that) */
    size_t bound = held + 3 * im.len + 4096;
    for (uint32_t i = 0; i < IO_N_ARCHS; ++i)
        bound += t.w[0]->arch[i].bytes0;
    CHECK(ta.peak_bytes <= bound);
    targets_load_ok(&t, &im);
    targets_free(&t);
    test_alloc_finish(&ta);
    free(im.bytes);
    dod_world_destroy(src);
}

/* A fixed archetype whose saved rows exceed its capacity: saved from a world declaring more,
 * then given the loading world's declaration (fingerprint, record) and resealed: the sizes
 * agree, the CRCs pass, the rows do not fit. Likewise a capped chunked archetype. */
static void test_over_capacity(void)
{
    dod_archetype_desc archs[IO_N_ARCHS];
    memcpy(archs, IO_ARCHS, sizeof archs);
    archs[1].capacity = 400; /* "p" */
    archs[2].memory_cap = 64 * 2048; /* "phb" */
    dod_world_desc d = world_desc_of(IO_COMPS, IO_N_COMPS, archs, IO_N_ARCHS, NULL);
    dod_world *big = NULL;
    CHECK_OK(dod_world_create(&big, &d));
    dod_world *small = io_world(NULL);
    for (uint32_t arch = 1; arch <= 2; ++arch) {
        uint32_t n = dod__world_file_max_rows(&small->arch[arch]) + 1;
        CHECK_OK(dod_world_spawn_n(big, arch, n, NULL));
        image im = save_image(big);
        places at = places_of(big, &im);
        unsigned char rec[DOD__WORLD_FILE_RECORD_MAX];
        size_t rec_at = at.dir + 24 * IO_N_COMPS;
        for (uint32_t i = 0; i < arch; ++i)
            rec_at += 48 + (4 * IO_ARCHS[i].n_components + 7) / 8 * 8;
        size_t n_rec = dod__world_file_archetype_record(small, arch, rec);
        memcpy(im.bytes + rec_at, rec, n_rec);
        dod__put_le64(im.bytes + 40, dod__world_declaration(small));
        reseal(im.bytes, im.len);
        targets t;
        targets_make(&t, NULL);
        targets_check(&t, im.bytes, im.len, DOD_E_CORRUPT, 1);
        targets_free(&t);
        free(im.bytes);
        dod_world_destroy(big);
        CHECK_OK(dod_world_create(&big, &d));
    }
    dod_world_destroy(big);
    dod_world_destroy(small);
}

/* Files of other declarations: refused with DOD_E_INVALID, the worlds unchanged. */
static void test_other_declarations(void)
{
    targets t;
    targets_make(&t, NULL);
    dod_component_desc comps[IO_N_COMPS];
    dod_archetype_desc archs[IO_N_ARCHS];
    for (int change = 0; change < 6; ++change) {
        memcpy(comps, IO_COMPS, sizeof comps);
        memcpy(archs, IO_ARCHS, sizeof archs);
        dod_world_desc d = world_desc_of(comps, IO_N_COMPS, archs, IO_N_ARCHS, NULL);
        switch (change) {
        case 0: comps[IO_HP].name = "health"; break;
        case 1: archs[1].capacity = 201; break;
        case 2: archs[0].block_bytes = 1024; break;
        case 3: archs[6].memory_cap = 2000; break;
        case 4: d.n_archetypes--; break;
        default: comps[IO_WIDE].align = 4; break;
        }
        dod_world *other = NULL;
        CHECK_OK(dod_world_create(&other, &d));
        CHECK_OK(dod_world_spawn(other, 0, NULL));
        image im = save_image(other);
        targets_check(&t, im.bytes, im.len, DOD_E_INVALID, 1);
        free(im.bytes);
        dod_world_destroy(other);
    }
    targets_free(&t);
}

/* ---- allocation failures ---- */

static image walk_image;

static dod_world *make_new(const dod_allocator *alloc, void *ctx)
{
    (void)ctx;
    return io_world(alloc);
}

static dod_world *make_played(const dod_allocator *alloc, void *ctx)
{
    (void)ctx;
    return played_world(31337, 40, alloc);
}

static dod_status load_mem_op(dod_world *w, void *ctx)
{
    (void)ctx;
    return dod_world_load_mem(w, walk_image.bytes, walk_image.len);
}

static dod_status load_file_op(dod_world *w, void *ctx)
{
    FILE *f = ctx ? pipe_with(walk_image.bytes, walk_image.len)
                  : file_with(walk_image.bytes, walk_image.len);
    dod_status st = dod_world_load(w, f);
    fclose(f);
    return st;
}

static void test_allocation_failures(void)
{
    dod_world *src = played_world(555, 100, NULL);
    walk_image = save_image(src);
    CHECK(walk_image.len < 60000);
    int is_pipe = 1;
    const world_walk walks[6] = {
        { make_new, load_mem_op, NULL },     { make_played, load_mem_op, NULL },
        { make_new, load_file_op, NULL },    { make_played, load_file_op, NULL },
        { make_new, load_file_op, &is_pipe }, { make_played, load_file_op, &is_pipe },
    };
    for (int i = 0; i < 6; ++i)
        CHECK(world_alloc_walk(&walks[i]) > 0);
    /* into a world that holds enough: no allocation */
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator al = test_alloc_get(&ta);
    dod_world *w = io_world(&al);
    CHECK_OK(dod_world_load_mem(w, walk_image.bytes, walk_image.len));
    long calls = ta.calls;
    CHECK_OK(dod_world_load_mem(w, walk_image.bytes, walk_image.len));
    CHECK_EQ(ta.calls, calls);
    CHECK(io_same(src, w, 0, 0));
    dod_world_destroy(w);
    test_alloc_finish(&ta);
    free(walk_image.bytes);
    dod_world_destroy(src);
}

/* A world whose ids outgrow the stack's 16 KiB stage many times over, so a stream's save takes
 * its stage from the world's allocator: on either byte order the stream's bytes are memory's,
 * also when that allocation fails (the stack's stage then), and the stage is given back. */
static void test_save_stage(void)
{
    test_alloc ta;
    test_alloc_init(&ta);
    dod_allocator al = test_alloc_get(&ta);
    dod_world *w = io_world(&al);
    enum { N_ALL = 50000, N_PV = 30000 };
    dod_entity *e = (dod_entity *)malloc(N_ALL * sizeof *e);
    CHECK(e != NULL);
    if (!e)
        return;
    CHECK_OK(dod_world_spawn_n(w, 5, N_ALL, e)); /* "all": default blocks */
    CHECK_OK(dod_world_spawn_n(w, 0, N_PV, NULL)); /* "pv": 512-byte blocks */
    for (uint32_t i = 0; i < N_ALL; i += 7)
        *(uint64_t *)dod_world_get(w, e[i], IO_WIDE) = 0x0102030405060708u * i;
    for (uint32_t i = 0; i < N_ALL; i += 3)
        CHECK_OK(dod_world_despawn(w, e[i]));
    const int big_endian_host = dod__file_swapping();
    for (int swapped = 0; swapped < 2; ++swapped) {
        dod__file_force_swap = swapped ^ big_endian_host;
        image im = save_image(w);
        for (int fail = 0; fail < 2; ++fail) {
            long calls = ta.calls, live = ta.live;
            test_alloc_fail_after(&ta, fail ? 0 : -1);
            FILE *f = tmpfile();
            CHECK(f != NULL);
            if (!f)
                break;
            CHECK_OK(dod_world_save(w, f));
            test_alloc_fail_after(&ta, -1);
            CHECK_EQ(ta.calls, calls + 1);
            CHECK_EQ(ta.live, live);
            unsigned char *bytes = (unsigned char *)malloc(im.len);
            rewind(f);
            CHECK(bytes && fread(bytes, 1, im.len, f) == im.len && fgetc(f) == EOF);
            CHECK(bytes && memcmp(bytes, im.bytes, im.len) == 0);
            free(bytes);
            fclose(f);
        }
        dod_world *back = io_world(NULL);
        CHECK_OK(dod_world_load_mem(back, im.bytes, im.len));
        CHECK(io_same(w, back, 0, 0));
        dod_world_destroy(back);
        free(im.bytes);
    }
    dod__file_force_swap = 0;
    free(e);
    dod_world_destroy(w);
    test_alloc_finish(&ta);
}

/* ---- refusals of the arguments ---- */

static void test_argument_errors(void)
{
    dod_world *w = played_world(9, 20, NULL);
    image im = save_image(w);
    uint64_t before = world_snap(w);
    CHECK_STATUS(dod_world_save_mem(w, im.bytes, im.len - 1), DOD_E_RANGE);
    CHECK_STATUS(dod_world_save_mem(NULL, im.bytes, im.len), DOD_E_INVALID);
    CHECK_STATUS(dod_world_save(w, NULL), DOD_E_INVALID);
    CHECK_STATUS(dod_world_load_mem(w, NULL, im.len), DOD_E_INVALID);
    CHECK_STATUS(dod_world_load(NULL, stdin), DOD_E_INVALID);
    CHECK_EQ(dod_world_saved_size(NULL), 0);
    /* a stream that refuses writes: DOD_E_IO */
    FILE *f = fopen("world_io_read_only.tmp", "wb");
    CHECK(f != NULL);
    if (f)
        fclose(f);
    f = fopen("world_io_read_only.tmp", "rb");
    if (f) {
        CHECK_STATUS(dod_world_save(w, f), DOD_E_IO);
        fclose(f);
    }
    remove("world_io_read_only.tmp");
    CHECK(world_snap(w) == before);
    free(im.bytes);
    dod_world_destroy(w);
}

/* ---- files across hosts ---- */

/* A world whose components hold only scalars as wide as their alignment (the word rule),
 * built by the same calls on every host. */
static dod_world *portable_world(void)
{
    dod_world *w = io_world(NULL);
    for (uint32_t k = 0; k < 40; ++k) {
        uint32_t arch = k % IO_N_ARCHS;
        dod_entity e;
        if (dod_world_spawn(w, arch, &e) != DOD_OK)
            continue;
        float *pos = (float *)dod_world_get(w, e, IO_POS);
        if (pos)
            pos[0] = (float)k * 0.5f, pos[1] = -(float)k;
        float *vel = (float *)dod_world_get(w, e, IO_VEL);
        if (vel)
            vel[0] = 1.0f / (float)(k + 1), vel[1] = 3.25f;
        uint32_t *hp = (uint32_t *)dod_world_get(w, e, IO_HP);
        if (hp)
            *hp = 0xA0B0C0D0u + k;
        double *big = (double *)dod_world_get(w, e, IO_BIG); /* align 16: 8-byte words */
        for (uint32_t i = 0; big && i < 6; ++i)
            big[i] = (double)k * 1e10 + (double)i;
        uint64_t *line = (uint64_t *)dod_world_get(w, e, IO_LINE);
        for (uint32_t i = 0; line && i < 8; ++i)
            line[i] = 0x0102030405060708ull * (k + 1u) + (uint64_t)i;
        uint8_t *byte = (uint8_t *)dod_world_get(w, e, IO_BYTE);
        if (byte)
            *byte = (uint8_t)(k * 7);
        int64_t *wide = (int64_t *)dod_world_get(w, e, IO_WIDE);
        for (uint32_t i = 0; wide && i < 3; ++i)
            wide[i] = -(int64_t)k * 1000003 + (int64_t)i;
        uint16_t *half = (uint16_t *)dod_world_get(w, e, IO_HALF);
        for (uint32_t i = 0; half && i < 3; ++i)
            half[i] = (uint16_t)(0x1234 + 0x101 * k + i);
        if (k % 5 == 4)
            CHECK_OK(dod_world_despawn(w, e));
    }
    return w;
}

static image read_file(const char *path)
{
    image im = { NULL, 0 };
    FILE *f = fopen(path, "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0) {
        if (f)
            fclose(f);
        return im;
    }
    long len = ftell(f);
    if (len > 0 && fseek(f, 0, SEEK_SET) == 0) {
        im.bytes = (unsigned char *)malloc((size_t)len);
        im.len = fread(im.bytes, 1, (size_t)len, f);
    }
    fclose(f);
    return im;
}

static void check_portable_file(const dod_world *want, const char *path)
{
    image im = read_file(path);
    CHECK(im.len > 0);
    dod_world *back = io_world(NULL);
    CHECK_OK(dod_world_load_mem(back, im.bytes, im.len));
    CHECK(io_same(want, back, 0, 0));
    CHECK(io_handles_resolve(want, back));
    dod_world_destroy(back);
    back = io_world(NULL);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (f) {
        CHECK_OK(dod_world_load(back, f));
        CHECK(io_same(want, back, 0, 0));
        fclose(f);
    }
    dod_world_destroy(back);
    free(im.bytes);
}

/* The file in tests/data was saved on x86-64 Linux: it loads here, equal to the world built
 * here, and this host saves that world to the same bytes. The host's own save is left in
 * world_io_saved_here.dodw for CI to load on another host (s390x's on x86-64), through
 * DOD_TEST_FOREIGN_WORLD=path. */
static void test_files_across_hosts(void)
{
    dod_world *w = portable_world();
    image here = save_image(w);
    FILE *f = fopen("world_io_saved_here.dodw", "wb");
    CHECK(f != NULL);
    if (f) {
        CHECK_EQ(fwrite(here.bytes, 1, here.len, f), here.len);
        CHECK_EQ(fclose(f), 0);
    }
    check_portable_file(w, DOD_TEST_DATA_DIR "/world_v1.dodw");
    image committed = read_file(DOD_TEST_DATA_DIR "/world_v1.dodw");
    CHECK(here.len == committed.len && memcmp(here.bytes, committed.bytes, here.len) == 0);
    const char *foreign = getenv("DOD_TEST_FOREIGN_WORLD");
    if (foreign) {
        check_portable_file(w, foreign);
        printf("loaded %s\n", foreign);
    }
    free(committed.bytes);
    free(here.bytes);
    dod_world_destroy(w);
}

int main(void)
{
    test_round_trips();
    test_stream_of_worlds();
    test_format_bytes();
    test_swap_path();
    test_truncations_and_flips();
    test_each_rule();
    test_over_capacity();
    test_other_declarations();
    test_allocation_failures();
    test_save_stage();
    test_argument_errors();
    test_files_across_hosts();
    return check_summary("test_world_io");
}
