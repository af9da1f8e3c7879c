/* The partitioned build: a two-level counting sort whose random writes all stay in cache.
 *
 *   1. partition  each task streams its items into coarse partitions (key >> shift): a chain
 *                 of 8 KiB chunks per task and partition, filled through a 128-byte
 *                 write-combining buffer per partition and written with non-temporal stores.
 *                 Chains need no sizes up front, so there is no counting pass: the keys are
 *                 read once, and checked in that pass.
 *   2. place      the partitions' sizes, summed over the tasks, give each partition its start.
 *   3. finish     each partition, small enough to stay in L2, is counting-sorted into its rows:
 *                 the offsets and the items are written only here. The items go to a stage
 *                 buffer first (in L2: the random writes hit the cache) and are then streamed
 *                 to their place with non-temporal stores (the item array is never read).
 *
 * An element is 4 bytes: the item's low `item_bits` (32 - shift) bits above the key's low
 * `shift` bits (its row inside the partition). The item's high bits are those of its window
 * (2^item_bits consecutive items); each task records where every window's elements end in
 * every chain, so the finish knows them. A value build streams each value into a second pool,
 * at the position of its element, or, when every value fits above the row bits (value_bound),
 * keeps the value in the element instead (the narrow build, make_layout).
 *
 * A chain holds its task's items in item order, and the finish reads the chains in task order,
 * so the result is stable and the same bytes for any number of threads and execution order. */
#include "csr_job.h"

#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#  include <emmintrin.h>
#  define HAVE_STREAM 1
#else
#  define HAVE_STREAM 0
#endif

/* Tuning, measured on the benchmark machine (docs/build.md). */
#define TARGET_PART_ITEMS 16384u /* a partition's elements and items should fit in L2 */
#define MAX_PART_BITS 10u        /* at most 1024 partitions: one task's buffers take 128 KiB */
#define MAX_NARROW_PART_BITS 12u /* a narrow value build: at most 4096 (512 KiB of buffers) */
#define LINE 16u                 /* elements per 64-byte cache line */
#define BUFFER 32u               /* elements a partition gathers before streaming: two lines */
#define CHUNK 2048u              /* elements per chunk (8 KiB) */
#define STAGE_ITEMS (2u * TARGET_PART_ITEMS) /* larger partitions place their items directly */
#define FINISH_TASKS_PER_THREAD 4u /* partitions are uneven (long tails): smaller tasks balance */
#define AHEAD_SPAN 64u             /* over many runs: items partitioned between fetches ahead */
#define AHEAD_SPANS 4u             /* how many spans ahead their keys and values are fetched */
#define AHEAD_RUN_ITEMS 65536u     /* runs this long on average stream on their own: no fetching
                                      ahead (a fixed archetype's one block, 4 MiB blocks) */

typedef struct layout {
    uint32_t shift, item_bits, n_parts, n_tasks, n_finish_tasks;
    int narrow;            /* value build whose values fit beside the row: no value pool */
    uint32_t task_windows; /* windows one task's items touch, at most */
    uint32_t task_chunks;  /* chunks each task owns */
    uint32_t stage_items;  /* each finish task's stage */
    /* byte offsets into the scratch */
    size_t elems, values, next, counts, fill, chunks, ends, part_start, buffers, value_buffers;
    size_t stages, total;
} layout;

static uint32_t log2_floor(uint64_t v)
{
    uint32_t r = 0;
    while (v >>= 1)
        r++;
    return r;
}

/* Rows per partition 2^shift: about TARGET_PART_ITEMS items each, at most 2^MAX_PART_BITS
 * partitions, and at least two rows (so an item keeps at least one bit and at most 31). */
static uint32_t choose_shift(uint32_t n_rows, uint32_t n_items)
{
    uint64_t rows_for_target = n_items ? (uint64_t)TARGET_PART_ITEMS * n_rows / n_items : n_rows;
    uint32_t shift = log2_floor(rows_for_target ? rows_for_target : 1);
    uint32_t row_bits = n_rows > 1 ? log2_floor((uint64_t)n_rows - 1) + 1 : 0;
    if (row_bits > MAX_PART_BITS && shift < row_bits - MAX_PART_BITS)
        shift = row_bits - MAX_PART_BITS;
    return shift < 1 ? 1 : shift > 31 ? 31 : shift;
}

/* Reserve `count` elements of `size` bytes at *at, cache-line aligned; 0 on overflow. */
static int reserve(size_t *at, size_t count, size_t size, size_t *offset)
{
    size_t bytes;
    if (!dod__align_up(*at, at) || !dod__mul(count, size, &bytes))
        return 0;
    *offset = *at;
    return dod__add(*at, bytes, at);
}

static uint32_t parts_of(uint32_t n_rows, uint32_t shift)
{
    return n_rows ? (uint32_t)((((uint64_t)n_rows - 1) >> shift) + 1) : 1;
}

/* The layout of the build with rows per partition 2^shift; narrow: values in the elements. */
static int layout_for(const dod__csr_job *job, uint32_t shift, int narrow, layout *l)
{
    memset(l, 0, sizeof *l);
    l->shift = shift;
    l->narrow = narrow;
    l->item_bits = narrow ? 32 : 32 - shift; /* narrow: one window, the item bits are unused */
    l->n_parts = parts_of(job->n_rows, shift);
    l->n_tasks = job->n_blocks;
    DOD_ASSERT(l->n_tasks > 0);
    uint32_t longest = (uint32_t)(((uint64_t)job->n_items + l->n_tasks - 1) / l->n_tasks);
    l->task_windows = narrow ? 2 : (longest >> l->item_bits) + 2;
    /* Partition p fills floor(count_p / CHUNK) + 1 chunks, so a task needs at most this many. */
    l->task_chunks = longest / CHUNK + l->n_parts;
    uint32_t finish = dod__exec_tasks(job->exec, FINISH_TASKS_PER_THREAD,
                                      DOD__CSR_MAX_BLOCKS * FINISH_TASKS_PER_THREAD);
    l->n_finish_tasks = finish < l->n_parts ? finish : l->n_parts;
    DOD_ASSERT(l->n_finish_tasks > 0);
    /* No more stage than items: many finish tasks share few items. */
    uint32_t share = job->n_items / l->n_finish_tasks + LINE;
    l->stage_items = (share < STAGE_ITEMS ? share : STAGE_ITEMS) / LINE * LINE;

    size_t P = l->n_parts, T = l->n_tasks, chunks, cells, windows, stages, at = 0;
    int value_pool = job->has_values && !narrow;
    int fits = dod__mul(T, l->task_chunks, &chunks) && dod__mul(T, P, &cells) &&
           dod__mul(cells, l->task_windows, &windows) &&
           dod__mul(l->n_finish_tasks, l->stage_items, &stages) &&
           reserve(&at, chunks, CHUNK * sizeof(uint32_t), &l->elems) &&
           reserve(&at, value_pool ? chunks : 0, CHUNK * sizeof(uint32_t), &l->values) &&
           reserve(&at, chunks, sizeof(uint32_t), &l->next) &&
           reserve(&at, cells, sizeof(uint32_t), &l->counts) &&
           reserve(&at, cells, sizeof(uint32_t), &l->fill) &&
           reserve(&at, cells, sizeof(uint32_t), &l->chunks) &&
           reserve(&at, windows, sizeof(uint32_t), &l->ends) &&
           reserve(&at, P + 1, sizeof(uint32_t), &l->part_start) &&
           reserve(&at, cells, BUFFER * sizeof(uint32_t), &l->buffers) &&
           reserve(&at, value_pool ? cells : 0, BUFFER * sizeof(uint32_t), &l->value_buffers) &&
           reserve(&at, stages, sizeof(uint32_t), &l->stages);
    l->total = at;
    return fits;
}

/* A value build whose values are all below value_bound can keep each value in its element,
 * above the row bits, instead of streaming it into a value pool (4 more bytes an item written
 * and read back): the narrow build. When the values need more than 32 - shift bits, the rows
 * per partition shrink until they fit, which costs more partitions (each a partly filled chunk
 * per task and a buffer); the narrow build is taken when that costs no more scratch than the
 * value pool, and it never has more than 2^MAX_NARROW_PART_BITS partitions (docs/build.md). */
static int make_layout(const dod__csr_job *job, layout *l)
{
    uint32_t shift = choose_shift(job->n_rows, job->n_items);
    int fits = layout_for(job, shift, 0, l);
    if (!fits || !job->has_values || job->value_bound == 0)
        return fits;
    uint32_t value_bits = job->value_bound > 1 ? log2_floor((uint64_t)job->value_bound - 1) + 1 : 1;
    if (shift + value_bits > 32)
        shift = 32 - value_bits;
    layout narrow;
    if (shift >= 1 && parts_of(job->n_rows, shift) <= (1u << MAX_NARROW_PART_BITS) &&
        layout_for(job, shift, 1, &narrow) && narrow.total <= l->total)
        *l = narrow;
    return 1;
}

int dod__csr_partitioned_scratch(const dod__csr_job *job, size_t *bytes)
{
    layout l;
    if (!make_layout(job, &l))
        return 0;
    *bytes = l.total;
    return 1;
}

typedef struct partition_ctx {
    const dod__csr_job *job;
    layout l;
    uint32_t *elems;       /* [chunk][CHUNK] */
    uint32_t *values;      /* [chunk][CHUNK], value builds only */
    uint32_t *next;        /* [chunk]: the chunk that follows in its chain */
    uint32_t *counts;      /* [task][partition]: elements in the chain */
    uint32_t *fill;        /* [task][partition]: where the chain's buffer fills */
    uint32_t *chunks;      /* [task][partition]: the chunk the chain is filling */
    uint32_t *ends;        /* [task][window][partition]: the chain's length after the window */
    uint32_t *part_start;  /* [partition + 1] */
    uint32_t *buffers;     /* [task][partition][BUFFER] */
    uint32_t *value_buffers; /* [task][partition][BUFFER], value builds only */
    uint32_t *stages;      /* [finish task][stage_items] */
    unsigned char bad[DOD__CSR_MAX_BLOCKS];
    uint32_t max_value[DOD__CSR_MAX_BLOCKS];
} partition_ctx;

/* Chain (t, p) starts in chunk t * task_chunks + p; later chunks come from the task's rest. */
static uint32_t first_chunk(const partition_ctx *c, uint32_t t, uint32_t p)
{
    return t * c->l.task_chunks + p;
}

/* The end of the window holding item `at`, or hi if that comes first. */
static uint32_t window_end(uint32_t at, uint32_t hi, uint32_t item_bits)
{
    if (item_bits >= 32)
        return hi;
    uint64_t end = ((uint64_t)(at >> item_bits) + 1) << item_bits;
    return end < hi ? (uint32_t)end : hi;
}

/* ---- 1. partition ---- */

/* Write one full 64-byte line; dst is 64-byte aligned. Non-temporal: it bypasses the cache,
 * which a destination written once and read much later would only thrash. */
static void stream_line(uint32_t *dst, const uint32_t *src)
{
#if HAVE_STREAM
    __m128i *d = (__m128i *)(void *)dst;
    const __m128i *s = (const __m128i *)(const void *)src;
    _mm_stream_si128(d + 0, _mm_loadu_si128(s + 0));
    _mm_stream_si128(d + 1, _mm_loadu_si128(s + 1));
    _mm_stream_si128(d + 2, _mm_loadu_si128(s + 2));
    _mm_stream_si128(d + 3, _mm_loadu_si128(s + 3));
#else
    memcpy(dst, src, LINE * sizeof *dst);
#endif
}

static void stream_fence(void)
{
#if HAVE_STREAM
    _mm_sfence(); /* make the streamed lines visible before the pool reports the task done */
#endif
}

/* Copy n items to dst: the whole lines with stream_line, the partial first and last lines
 * (which a neighbouring partition, maybe on another thread, shares) with ordinary stores. */
static void stream_items(uint32_t *dst, const uint32_t *src, uint32_t n)
{
    uint32_t head = (uint32_t)((DOD_ALIGN - (uintptr_t)dst % DOD_ALIGN) % DOD_ALIGN) / 4;
    head = head < n ? head : n;
    memcpy(dst, src, head * sizeof *dst);
    uint32_t j = head;
    for (; n - j >= LINE; j += LINE)
        stream_line(dst + j, src + j);
    memcpy(dst + j, src + j, (n - j) * sizeof *dst);
}

/* One task's partitioning state. */
typedef struct task_state {
    uint32_t *counts; /* [partition]: elements the chain's chunks hold */
    uint32_t *fill;   /* [partition]: the next slot of its buffer, an index into buffers */
    uint32_t *chunks, *buffers, *value_buffers;
    uint32_t free_chunk; /* the next chunk of the task's own */
} task_state;

/* Partition p's buffer is full: stream it (and its values) into the chain's chunk, and start
 * the next chunk when this one is full. */
static DOD__CSR_NOINLINE void flush_buffer(const partition_ctx *c, task_state *s, uint32_t p)
{
    size_t at = (size_t)s->chunks[p] * CHUNK + s->counts[p] % CHUNK;
    for (uint32_t j = 0; j < BUFFER; j += LINE) {
        stream_line(c->elems + at + j, s->buffers + (size_t)p * BUFFER + j);
        if (c->values)
            stream_line(c->values + at + j, s->value_buffers + (size_t)p * BUFFER + j);
    }
    s->counts[p] += BUFFER;
    s->fill[p] = p * BUFFER;
    if (s->counts[p] % CHUNK == 0) {
        c->next[s->chunks[p]] = s->free_chunk;
        s->chunks[p] = s->free_chunk++;
    }
}

/* What an element holds above the key's row bits: the item's low bits (no values), the same
 * with the value streamed beside it into the value pool, or the value itself (a narrow value
 * build: every value fits the element's high bits, so there is no value pool). */
enum { ELEM_ITEM, ELEM_ITEM_VALUE, ELEM_VALUE };

/* The items of one piece, all in one window. Returns 0 at a key >= n_rows. mode is a constant
 * in each of the callers below, so each compiles to its own loop; everything the loop reads is
 * a local, so its stores into the buffers cannot make the compiler reload it. */
static inline int partition_loop(const partition_ctx *c, task_state *s, const dod__csr_piece *piece,
                                 int mode, uint32_t *max_value)
{
    const size_t key_stride = c->job->key_stride, value_stride = c->job->value_stride;
    const unsigned char *restrict key = piece->keys;
    const unsigned char *const key_end = key + (size_t)(piece->end - piece->at) * key_stride;
    const unsigned char *restrict value = piece->values;
    const uint32_t n_rows = c->job->n_rows, shift = c->l.shift, row_mask = (1u << shift) - 1;
    uint32_t *restrict fill = s->fill, *restrict buffers = s->buffers;
    uint32_t *restrict value_buffers = s->value_buffers;
    DOD_ASSERT(mode == ELEM_ITEM || value);
    DOD_ASSERT(mode != ELEM_ITEM_VALUE || value_buffers); /* the value pool's buffers */
    /* The element's high bits: i << shift keeps the item's low item_bits bits, and grows by
     * 1 << shift from one item to the next. */
    uint32_t tag = piece->at << shift, max = *max_value;
    for (; key != key_end; key += key_stride, tag += 1u << shift) {
        uint32_t k = dod__load_u32(key);
        if (k >= n_rows)
            return 0;
        uint32_t p = k >> shift, at = fill[p]++, high = tag;
        if (mode != ELEM_ITEM) {
            uint32_t v = dod__load_u32(value);
            value += value_stride;
            max = v > max ? v : max;
            if (mode == ELEM_VALUE)
                high = v << shift;
            else
                value_buffers[at] = v;
        }
        buffers[at] = high | (k & row_mask);
        if (at % BUFFER == BUFFER - 1)
            flush_buffer(c, s, p);
    }
    *max_value = max;
    return 1;
}

static DOD__CSR_NOINLINE int partition_items(const partition_ctx *c, task_state *s,
                                             const dod__csr_piece *piece)
{
    uint32_t unused = 0;
    return partition_loop(c, s, piece, ELEM_ITEM, &unused);
}

static DOD__CSR_NOINLINE int partition_values(const partition_ctx *c, task_state *s,
                                              const dod__csr_piece *piece, uint32_t *max_value)
{
    return partition_loop(c, s, piece, ELEM_ITEM_VALUE, max_value);
}

static DOD__CSR_NOINLINE int partition_narrow(const partition_ctx *c, task_state *s,
                                              const dod__csr_piece *piece, uint32_t *max_value)
{
    return partition_loop(c, s, piece, ELEM_VALUE, max_value);
}

/* The chain's length: what its chunks hold and what waits in its buffer. */
static uint32_t chain_length(const task_state *s, uint32_t p)
{
    return s->counts[p] + s->fill[p] % BUFFER;
}

/* What waits in every buffer, with ordinary stores; counts become the chain lengths. */
static void flush_tails(const partition_ctx *c, task_state *s)
{
    for (uint32_t p = 0; p < c->l.n_parts; ++p) {
        uint32_t n = s->fill[p] % BUFFER;
        size_t at = (size_t)s->chunks[p] * CHUNK + s->counts[p] % CHUNK;
        memcpy(c->elems + at, s->buffers + (size_t)p * BUFFER, n * sizeof(uint32_t));
        if (c->values) {
            DOD_ASSERT(s->value_buffers);
            memcpy(c->values + at, s->value_buffers + (size_t)p * BUFFER, n * sizeof(uint32_t));
        }
        s->counts[p] += n;
    }
}

static void partition_task(void *arg, uint32_t t)
{
    partition_ctx *c = (partition_ctx *)arg;
    const uint32_t P = c->l.n_parts;
    task_state s;
    s.counts = c->counts + (size_t)t * P;
    s.fill = c->fill + (size_t)t * P;
    s.chunks = c->chunks + (size_t)t * P;
    s.buffers = c->buffers + (size_t)t * P * BUFFER;
    s.value_buffers = c->value_buffers ? c->value_buffers + (size_t)t * P * BUFFER : NULL;
    s.free_chunk = first_chunk(c, t, P);
    for (uint32_t p = 0; p < P; ++p) {
        s.counts[p] = 0;
        s.fill[p] = p * BUFFER;
        s.chunks[p] = first_chunk(c, t, p);
    }

    uint32_t lo, hi, w = 0, max = 0;
    dod__exec_share(c->job->n_items, c->l.n_tasks, t, &lo, &hi);
    c->bad[t] = 0;
    uint32_t run = dod__csr_run_of(c->job, lo), ahead = run;
    /* Many short runs (the world's small blocks): fetch ahead (csr_job.h). */
    const int many_runs = c->job->n_runs > 1 &&
                          c->job->n_items / c->job->n_runs < AHEAD_RUN_ITEMS;
    for (uint32_t at = lo; at < hi; ++w) {
        uint32_t end = window_end(at, hi, c->l.item_bits);
        while (at < end) {
            uint32_t stop = end;
            if (many_runs) {
                stop = end - at > AHEAD_SPAN ? at + AHEAD_SPAN : end;
                uint32_t from = at + AHEAD_SPANS * AHEAD_SPAN;
                if (from < hi)
                    dod__csr_prefetch_items(c->job, &ahead, from,
                                            hi - from > AHEAD_SPAN ? from + AHEAD_SPAN : hi);
            }
            dod__csr_piece piece = dod__csr_piece_at(c->job, &run, at, stop);
            int ok = c->values     ? partition_values(c, &s, &piece, &max)
                     : c->l.narrow ? partition_narrow(c, &s, &piece, &max)
                                   : partition_items(c, &s, &piece);
            if (!ok) {
                c->bad[t] = 1;
                return;
            }
            at = piece.end;
        }
        DOD_ASSERT(w < c->l.task_windows);
        uint32_t *ends = c->ends + ((size_t)t * c->l.task_windows + w) * P;
        for (uint32_t p = 0; p < P; ++p)
            ends[p] = chain_length(&s, p);
    }
    DOD_ASSERT(s.free_chunk <= first_chunk(c, t + 1, 0));
    flush_tails(c, &s);
    stream_fence();
    c->max_value[t] = max;
}

/* ---- 2. place ---- */

static void place_partitions(partition_ctx *c)
{
    uint32_t running = 0, P = c->l.n_parts;
    for (uint32_t p = 0; p < P; ++p) {
        c->part_start[p] = running;
        for (uint32_t t = 0; t < c->l.n_tasks; ++t)
            running += c->counts[(size_t)t * P + p];
    }
    c->part_start[P] = running;
}

/* ---- 3. finish ---- */

/* A walk along one chain: the chunk it is in and how many elements it has passed. */
typedef struct walk {
    uint32_t chunk, at;
} walk;

/* The next run of at most `left` (> 0) elements that lie together in one chunk: returns its
 * length and puts its index into the pools in *from. */
static uint32_t walk_run(const partition_ctx *c, walk *w, uint32_t left, size_t *from)
{
    if (w->at > 0 && w->at % CHUNK == 0)
        w->chunk = c->next[w->chunk];
    uint32_t room = CHUNK - w->at % CHUNK, n = left < room ? left : room;
    *from = (size_t)w->chunk * CHUNK + w->at % CHUNK;
    w->at += n;
    return n;
}

static DOD__CSR_NOINLINE void count_rows(uint32_t *restrict rows, const uint32_t *restrict e,
                                         uint32_t n, uint32_t row_mask)
{
    for (uint32_t j = 0; j < n; ++j)
        rows[e[j] & row_mask]++;
}

/* Place a run's items at their rows' cursors: the value streamed beside each element, or the
 * item number put back together from its window's base and its low bits. */
static DOD__CSR_NOINLINE void place_run(uint32_t *restrict cursors, uint32_t *restrict items,
                                        const uint32_t *restrict e,
                                        const uint32_t *restrict values, uint32_t n,
                                        uint32_t shift, uint32_t base)
{
    const uint32_t row_mask = (1u << shift) - 1;
    if (values) {
        for (uint32_t j = 0; j < n; ++j)
            items[cursors[e[j] & row_mask]++] = values[j];
    } else {
        for (uint32_t j = 0; j < n; ++j)
            items[cursors[e[j] & row_mask]++] = base | e[j] >> shift;
    }
}

/* Place the chain of task t in partition p, window by window, into out[cursors]. */
static void place_chain(const partition_ctx *c, uint32_t t, uint32_t p, uint32_t *cursors,
                        uint32_t *out)
{
    const dod__csr_job *job = c->job;
    const uint32_t P = c->l.n_parts, item_bits = c->l.item_bits;
    const uint32_t *ends = c->ends + (size_t)t * c->l.task_windows * P + p;
    walk w = { first_chunk(c, t, p), 0 };
    uint32_t lo, hi;
    dod__exec_share(job->n_items, c->l.n_tasks, t, &lo, &hi);
    for (uint32_t at = lo; at < hi; ends += P) {
        uint32_t base = item_bits >= 32 ? 0 : (at >> item_bits) << item_bits;
        while (w.at < *ends) {
            size_t from;
            uint32_t n = walk_run(c, &w, *ends - w.at, &from);
            place_run(cursors, out, c->elems + from, c->values ? c->values + from : NULL, n,
                      c->l.shift, base);
        }
        at = window_end(at, hi, item_bits);
    }
}

/* Count partition p's items per row into rows[]. */
static void count_partition(const partition_ctx *c, uint32_t p, uint32_t *rows)
{
    const uint32_t P = c->l.n_parts, row_mask = (1u << c->l.shift) - 1;
    for (uint32_t t = 0; t < c->l.n_tasks; ++t) {
        walk w = { first_chunk(c, t, p), 0 };
        for (uint32_t left = c->counts[(size_t)t * P + p]; left > 0;) {
            size_t from;
            uint32_t n = walk_run(c, &w, left, &from);
            count_rows(rows, c->elems + from, n, row_mask);
            left -= n;
        }
    }
}

/* Counting sort of partition p into its rows [row_lo, row_hi): it owns offsets[row_lo + 1 ..
 * row_hi] (the hack-3 shift by one), so neighbouring partitions never write the same entry.
 * A partition that fits the stage is placed there, starting at 0, then rebased and streamed. */
static void finish_partition(const partition_ctx *c, uint32_t p, uint32_t *stage)
{
    const dod__csr_job *job = c->job;
    uint32_t row_lo = p << c->l.shift, n_rows = p + 1 == c->l.n_parts
                                                     ? job->n_rows - row_lo
                                                     : 1u << c->l.shift;
    uint32_t start = c->part_start[p], n = c->part_start[p + 1] - start;
    int staged = n <= c->l.stage_items;
    uint32_t *restrict rows = job->offsets + 1 + row_lo;
    memset(rows, 0, (size_t)n_rows * sizeof *rows);
    count_partition(c, p, rows);
    uint32_t sum = staged ? 0 : start;
    for (uint32_t r = 0; r < n_rows; ++r) {
        uint32_t k = rows[r];
        rows[r] = sum;
        sum += k;
    }
    for (uint32_t t = 0; t < c->l.n_tasks; ++t)
        place_chain(c, t, p, rows, staged ? stage : job->items);
    if (staged) {
        for (uint32_t r = 0; r < n_rows; ++r)
            rows[r] += start;
        stream_items(job->items + start, stage, n);
    }
}

static void finish_task(void *arg, uint32_t t)
{
    partition_ctx *c = (partition_ctx *)arg;
    uint32_t lo, hi, P = c->l.n_parts, T = c->l.n_finish_tasks;
    /* Task t takes the partitions that start inside its share of the items (the last task also
     * takes the empty partitions at the end), so the tasks cover every partition once. */
    dod__exec_share(c->job->n_items, T, t, &lo, &hi);
    uint32_t p0 = t == 0 ? 0 : dod__csr_first_at(c->part_start, P, lo);
    uint32_t p1 = t + 1 == T ? P : dod__csr_first_at(c->part_start, P, hi);
    for (uint32_t p = p0; p < p1; ++p)
        finish_partition(c, p, c->stages + (size_t)t * c->l.stage_items);
    stream_fence();
}

dod_status dod__csr_build_partitioned(const dod__csr_job *job, uint32_t *max_value)
{
    partition_ctx c;
    int ok = make_layout(job, &c.l);
    DOD_ASSERT(ok && job->n_blocks <= DOD__CSR_MAX_BLOCKS);
    (void)ok;
    unsigned char *s = (unsigned char *)job->scratch;
    c.job = job;
    c.elems = (uint32_t *)(void *)(s + c.l.elems);
    c.values = job->has_values && !c.l.narrow ? (uint32_t *)(void *)(s + c.l.values) : NULL;
    c.next = (uint32_t *)(void *)(s + c.l.next);
    c.counts = (uint32_t *)(void *)(s + c.l.counts);
    c.fill = (uint32_t *)(void *)(s + c.l.fill);
    c.chunks = (uint32_t *)(void *)(s + c.l.chunks);
    c.ends = (uint32_t *)(void *)(s + c.l.ends);
    c.part_start = (uint32_t *)(void *)(s + c.l.part_start);
    c.buffers = (uint32_t *)(void *)(s + c.l.buffers);
    c.value_buffers = c.values ? (uint32_t *)(void *)(s + c.l.value_buffers) : NULL;
    c.stages = (uint32_t *)(void *)(s + c.l.stages);

    dod__exec_run(job->exec, c.l.n_tasks, partition_task, &c);
    uint32_t m = 0;
    for (uint32_t t = 0; t < c.l.n_tasks; ++t) {
        DOD__REFUSE_IF(c.bad[t], DOD_E_RANGE);
        m = c.max_value[t] > m ? c.max_value[t] : m;
    }
    *max_value = m;
    place_partitions(&c);
    dod__exec_run(job->exec, c.l.n_finish_tasks, finish_task, &c);
    job->offsets[0] = 0;
    return DOD_OK;
}
