/* The NULL rule of docs/api.md, walked over every public function from one table of calls:
 * free, destroy, close, clear and getters take NULL quietly; every other call refuses a NULL
 * it cannot use with DOD_E_INVALID and changes nothing. A second check reads the public
 * headers and fails when a DOD_API function has no entry in the table, so a new function
 * cannot skip the rule. */
#include <dod/dod.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

/* Valid objects for the arguments that are not the NULL under test. */
static dod_csr csr, csr_copy;
static dod_table table;
static dod_arena arena;
static dod_graph_scratch scratch;
static dod_frames *frames;
static dod_frame frame;
static dod_threadpool *pool;
static dod_file_map map;
static dod_csr_view view;
static uint32_t keys[4] = { 0, 1, 1, 0 };
static unsigned char buf[4096];
static void *ptr;
static dod_table_handle handle;
static uint32_t row;
static dod_csr_desc build_desc;
static dod_graph_flood_desc flood_desc;
static dod_graph_path_desc path_desc;
static dod_reduce_out reduce_out;
static dod_csr_column gather_col;
static struct ArrowSchema schema;
static struct ArrowArray array;
static dod_executor null_executor;
static dod_world *world;
static dod_world_desc world_desc;
static size_t size_out;
static dod_entity entity;
static dod_query query;
static dod_world_iter iter;
static unsigned char *block;
static dod_cmds cmds;
static dod_schedule *schedule;
static dod_schedule_desc schedule_desc;
static uint32_t scale;
static dod_world_index_desc index_desc, index_desc_no_query;
static dod_world_gather_col world_col;
static dod_world_rows rows;

static int cmp_u32(const void *a, const void *b, void *ctx)
{
    (void)ctx;
    return memcmp(a, b, 4);
}

/* S(call, status): returns exactly `status`.  V(call): a void call that must not crash.
 * R(call, value): returns `value` (the empty answer of a getter). */
#define NULL_CALLS(S, V, R)                                                                    \
    R(dod_status_str(DOD_STATUS_COUNT) != NULL, 1)                                             \
    V(dod_set_error_hook(NULL, NULL))                                                          \
    R(dod_heap_allocator().alloc != NULL, 1)                                                   \
    /* arena */                                                                                \
    V(dod_arena_init(NULL, 0, NULL))                                                           \
    V(dod_arena_free(NULL))                                                                    \
    S(dod_arena_push(NULL, 8, 8, &ptr), DOD_E_INVALID)                                         \
    S(dod_arena_push(&arena, 8, 8, NULL), DOD_E_INVALID)                                       \
    R(dod_arena_get_mark(NULL).block == NULL, 1)                                               \
    V(dod_arena_rewind(NULL, dod_arena_get_mark(NULL)))                                        \
    V(dod_arena_reset(NULL))                                                                   \
    R(dod_arena_used(NULL), 0)                                                                 \
    R(dod_arena_capacity(NULL), 0)                                                             \
    R(dod_arena_allocator(NULL).alloc(NULL, 8, 8) == NULL, 1)                                  \
    /* executor */                                                                             \
    S(dod_threadpool_create(NULL, 2, NULL), DOD_E_INVALID)                                     \
    R(dod_threadpool_executor(NULL).run == NULL, 1)                                            \
    V(dod_threadpool_destroy(NULL))                                                            \
    /* index */                                                                                \
    V(dod_csr_init(NULL, NULL))                                                                \
    S(dod_csr_build(NULL, 2, keys, 4, 4), DOD_E_INVALID)                                       \
    S(dod_csr_build(&csr, 2, NULL, 4, 4), DOD_E_INVALID)                                       \
    S(dod_csr_copy(NULL, &csr), DOD_E_INVALID)                                                 \
    S(dod_csr_copy(&csr_copy, NULL), DOD_E_INVALID)                                            \
    S(dod_csr_reserve(NULL, 4, 4), DOD_E_INVALID)                                              \
    S(dod_csr_shrink(NULL), DOD_E_INVALID)                                                     \
    V(dod_csr_clear(NULL))                                                                     \
    V(dod_csr_free(NULL))                                                                      \
    R(dod_csr_equal(NULL, &csr), 0)                                                            \
    R(dod_csr_equal(&csr, NULL), 0)                                                            \
    S(dod_csr_check(NULL, 0), DOD_E_INVALID)                                                   \
    R(dod_csr_bytes(NULL), 0)                                                                  \
    S(dod_csr_build_desc(NULL, &build_desc), DOD_E_INVALID)                                    \
    S(dod_csr_build_desc(&csr, NULL), DOD_E_INVALID)                                           \
    S(dod_csr_gather(NULL, &gather_col, 1, 4, NULL), DOD_E_INVALID)                            \
    S(dod_csr_gather(&csr, NULL, 1, 4, NULL), DOD_E_INVALID)                                   \
    S(dod_csr_gather(&csr, &gather_col, 1, 4, &null_executor), DOD_E_INVALID)                  \
    S(dod_csr_export_arrow(NULL, &schema, &array), DOD_E_INVALID)                              \
    S(dod_csr_export_arrow(&csr, NULL, &array), DOD_E_INVALID)                                 \
    S(dod_csr_export_arrow(&csr, &schema, NULL), DOD_E_INVALID)                                \
    R(dod_csr_saved_size(NULL), 0)                                                             \
    S(dod_csr_save(NULL, stdout), DOD_E_INVALID)                                               \
    S(dod_csr_save(&csr, NULL), DOD_E_INVALID)                                                 \
    S(dod_csr_save_mem(NULL, buf, sizeof buf), DOD_E_INVALID)                                  \
    S(dod_csr_save_mem(&csr, NULL, sizeof buf), DOD_E_INVALID)                                 \
    S(dod_csr_load(NULL, stdin), DOD_E_INVALID)                                                \
    S(dod_csr_load(&csr, NULL), DOD_E_INVALID)                                                 \
    S(dod_csr_load_mem(NULL, buf, sizeof buf), DOD_E_INVALID)                                  \
    S(dod_csr_load_mem(&csr, NULL, sizeof buf), DOD_E_INVALID)                                 \
    S(dod_csr_view_open(NULL, buf, sizeof buf, DOD_CSR_VIEW_VALIDATE_FULL), DOD_E_INVALID)     \
    S(dod_csr_view_open(&view, NULL, sizeof buf, DOD_CSR_VIEW_VALIDATE_FULL), DOD_E_INVALID)   \
    S(dod_file_map_open(NULL, "x"), DOD_E_INVALID)                                             \
    S(dod_file_map_open(&map, NULL), DOD_E_INVALID)                                            \
    V(dod_file_map_close(NULL))                                                                \
    /* frames */                                                                               \
    S(dod_frames_create(NULL, 2, (void *const *)&ptr, NULL), DOD_E_INVALID)                    \
    S(dod_frames_create(&frames, 2, NULL, NULL), DOD_E_INVALID)                                \
    S(dod_frames_create_csr(NULL, 2, 1, NULL), DOD_E_INVALID)                                  \
    V(dod_frames_destroy(NULL))                                                                \
    S(dod_frames_begin(NULL, &frame), DOD_E_INVALID)                                           \
    S(dod_frames_begin(frames, NULL), DOD_E_INVALID)                                           \
    S(dod_frames_publish(NULL, &frame), DOD_E_INVALID)                                         \
    S(dod_frames_publish(frames, NULL), DOD_E_INVALID)                                         \
    S(dod_frames_cancel(NULL, &frame), DOD_E_INVALID)                                          \
    S(dod_frames_cancel(frames, NULL), DOD_E_INVALID)                                          \
    S(dod_frames_acquire(NULL, &frame), DOD_E_INVALID)                                         \
    S(dod_frames_acquire(frames, NULL), DOD_E_INVALID)                                         \
    S(dod_frames_release(NULL, &frame), DOD_E_INVALID)                                         \
    S(dod_frames_release(frames, NULL), DOD_E_INVALID)                                         \
    R(dod_frames_slot_count(NULL), 0)                                                          \
    R(dod_frames_latest_seq(NULL), 0)                                                          \
    /* graph and reductions */                                                                 \
    V(dod_graph_scratch_init(NULL, NULL))                                                      \
    S(dod_graph_scratch_reserve(NULL, 4), DOD_E_INVALID)                                       \
    V(dod_graph_scratch_free(NULL))                                                            \
    S(dod_graph_flood(NULL, &flood_desc, &scratch), DOD_E_INVALID)                             \
    S(dod_graph_flood(&csr, NULL, &scratch), DOD_E_INVALID)                                    \
    S(dod_graph_flood(&csr, &flood_desc, NULL), DOD_E_INVALID)                                 \
    R(dod_graph_reached(NULL, 0), 0)                                                           \
    R(dod_graph_depth(NULL, 0), UINT32_MAX)                                                    \
    S(dod_graph_path(NULL, &path_desc, &scratch, NULL), DOD_E_INVALID)                         \
    S(dod_graph_path(&csr, NULL, &scratch, NULL), DOD_E_INVALID)                               \
    S(dod_graph_path(&csr, &path_desc, NULL, NULL), DOD_E_INVALID)                             \
    S(dod_reduce_rows(NULL, keys, 4, 4, &reduce_out, NULL), DOD_E_INVALID)                     \
    S(dod_reduce_rows(&csr, NULL, 4, 4, &reduce_out, NULL), DOD_E_INVALID)                     \
    S(dod_reduce_rows(&csr, keys, 4, 4, NULL, NULL), DOD_E_INVALID)                            \
    S(dod_reduce_rows(&csr, keys, 4, 4, &reduce_out, &null_executor), DOD_E_INVALID)           \
    /* table */                                                                                \
    S(dod_table_init(NULL, NULL, 0, NULL), DOD_E_INVALID)                                      \
    S(dod_table_push(NULL, &handle), DOD_E_INVALID)                                            \
    S(dod_table_push(&table, NULL), DOD_E_INVALID)                                             \
    S(dod_table_remove(NULL, handle), DOD_E_INVALID)                                           \
    S(dod_table_remove_ordered(NULL, handle), DOD_E_INVALID)                                   \
    S(dod_table_pop(NULL), DOD_E_INVALID)                                                      \
    S(dod_table_find(NULL, handle, &row), DOD_E_INVALID)                                       \
    S(dod_table_find(&table, handle, NULL), DOD_E_INVALID)                                     \
    R(dod_table_handle_at(NULL, 0).bits, 0)                                                    \
    R(dod_table_count(NULL), 0)                                                                \
    R(dod_table_column(NULL, 0) == NULL, 1)                                                    \
    S(dod_table_permute(NULL, keys), DOD_E_INVALID)                                            \
    S(dod_table_permute(&table, NULL), DOD_E_INVALID)                                          \
    S(dod_table_sort_u32(NULL, 0), DOD_E_INVALID)                                              \
    S(dod_table_sort_i32(NULL, 0), DOD_E_INVALID)                                              \
    S(dod_table_sort_f32(NULL, 0), DOD_E_INVALID)                                              \
    S(dod_table_sort_by(NULL, 0, cmp_u32, NULL), DOD_E_INVALID)                                \
    S(dod_table_sort_by(&table, 0, NULL, NULL), DOD_E_INVALID)                                 \
    S(dod_table_reserve(NULL, 4), DOD_E_INVALID)                                               \
    V(dod_table_clear(NULL))                                                                   \
    S(dod_table_copy(NULL, &table), DOD_E_INVALID)                                             \
    S(dod_table_copy(&table, NULL), DOD_E_INVALID)                                             \
    R(dod_table_bytes(NULL), 0)                                                                \
    V(dod_table_free(NULL))                                                                    \
    /* world */                                                                                \
    S(dod_world_create(NULL, &world_desc), DOD_E_INVALID)                                      \
    S(dod_world_create(&world, NULL), DOD_E_INVALID)                                           \
    V(dod_world_destroy(NULL))                                                                 \
    S(dod_world_spawn(NULL, 0, &entity), DOD_E_INVALID)                                        \
    S(dod_world_spawn_n(NULL, 0, 1, NULL), DOD_E_INVALID)                                      \
    S(dod__world_spawn_row(NULL, 0, &entity, &block, &row, &scale), DOD_E_INVALID)             \
    S(dod__world_spawn_rows(NULL, 0, 1, NULL, &row, &row), DOD_E_INVALID)                      \
    S(dod__world_spawn_rows(world, 0, 1, NULL, NULL, &row), DOD_E_INVALID)                     \
    S(dod__world_spawn_rows(world, 0, 1, NULL, &row, NULL), DOD_E_INVALID)                     \
    S(dod_world_despawn(NULL, entity), DOD_E_INVALID)                                          \
    S(dod_world_move(NULL, entity, 0), DOD_E_INVALID)                                          \
    S(dod_world_add(NULL, entity, 0), DOD_E_INVALID)                                           \
    S(dod_world_archetype_for(NULL, NULL, 0, &row), DOD_E_INVALID)                             \
    S(dod_world_archetype_for(world, NULL, 0, NULL), DOD_E_INVALID)                            \
    S(dod_world_add_n(NULL, entity, NULL, 0), DOD_E_INVALID)                                   \
    S(dod_world_remove_n(NULL, entity, NULL, 0), DOD_E_INVALID)                                \
    S(dod_world_remove(NULL, entity, 0), DOD_E_INVALID)                                        \
    R(dod_world_get(NULL, entity, 0) == NULL, 1)                                               \
    R(dod_world_alive(NULL, entity), 0)                                                        \
    R(dod_world_archetype_of(NULL, entity), UINT32_MAX)                                        \
    R(dod_world_count(NULL, 0), 0)                                                             \
    R(dod_world_block(NULL, 0, 0, NULL), 0)                                                    \
    R(dod_world_bytes(NULL), 0)                                                                \
    S(dod_query_init(NULL, world, NULL, 0, NULL, 0), DOD_E_INVALID)                            \
    S(dod_query_init(&query, NULL, NULL, 0, NULL, 0), DOD_E_INVALID)                           \
    S(dod_query_init(&query, world, NULL, 1, NULL, 0), DOD_E_INVALID)                          \
    S(dod_query_init(&query, world, NULL, 0, NULL, 1), DOD_E_INVALID)                          \
    V(dod_world_iter_init(NULL, world, &query))                                                \
    V(dod_world_iter_init(&iter, NULL, &query))                                                \
    R(dod_world_next(&iter), 0)                                                                \
    R(dod_world_next(NULL), 0)                                                                 \
    V(dod_world_iter_end(NULL))                                                                \
    R(dod_world_field(NULL, 0) == NULL, 1)                                                     \
    /* command buffers */                                                                      \
    S(dod_cmds_init(NULL, world, NULL), DOD_E_INVALID)                                         \
    S(dod_cmds_init(&cmds, NULL, NULL), DOD_E_INVALID)                                         \
    V(dod_cmds_free(NULL))                                                                     \
    V(dod_cmds_clear(NULL))                                                                    \
    S(dod_cmds_reserve(NULL, 1, 0), DOD_E_INVALID)                                             \
    R(dod_cmds_count(NULL), 0)                                                                 \
    S(dod_cmds_spawn(NULL, 0, NULL, &entity), DOD_E_INVALID)                                   \
    S(dod__cmds_spawn_row(NULL, 0, 4, &entity, &block), DOD_E_INVALID)                         \
    S(dod__cmds_spawn_row(&cmds, 0, 4, &entity, NULL), DOD_E_INVALID)                          \
    S(dod_cmds_despawn(NULL, entity), DOD_E_INVALID)                                           \
    S(dod_cmds_move(NULL, entity, 0), DOD_E_INVALID)                                           \
    S(dod_cmds_set(NULL, entity, 0, keys, 4), DOD_E_INVALID)                                   \
    S(dod_cmds_set(&cmds, entity, 0, NULL, 4), DOD_E_INVALID)                                  \
    S(dod_world_apply(NULL, &cmds, 1, NULL), DOD_E_INVALID)                                    \
    S(dod_world_apply(world, NULL, 1, NULL), DOD_E_INVALID)                                    \
    R(dod_cmds_resolve(NULL, entity).bits, 0)                                                  \
    V(dod_cmds_destroy(NULL))                                                                  \
    R(dod_cmds_status(NULL), DOD_OK)                                                           \
    S(dod_cmds_add(NULL, entity, 0, keys, 4), DOD_E_INVALID)                                   \
    S(dod_cmds_remove(NULL, entity, 0), DOD_E_INVALID)                                         \
    S(dod_cmds_add_n(NULL, entity, NULL, 0), DOD_E_INVALID)                                    \
    S(dod_cmds_add_n(&cmds, entity, NULL, 1), DOD_E_INVALID)                                   \
    S(dod_cmds_remove_n(NULL, entity, NULL, 0), DOD_E_INVALID)                                 \
    S(dod_cmds_accumulate(NULL, entity, 0, 0, DOD_ACC_U32_ADD, keys, 4), DOD_E_INVALID)        \
    S(dod_cmds_accumulate(&cmds, entity, 0, 0, DOD_ACC_U32_ADD, NULL, 4), DOD_E_INVALID)       \
    S(dod_cmds_set_entity(NULL, entity, 0, 0, entity), DOD_E_INVALID)                          \
    S(dod_world_apply_ptrs(NULL, NULL, 0, NULL), DOD_E_INVALID)                                \
    S(dod_world_apply_ptrs(world, NULL, 1, NULL), DOD_E_INVALID)                               \
    /* systems and the schedule */                                                             \
    S(dod_schedule_create(NULL, world, &schedule_desc), DOD_E_INVALID)                         \
    S(dod_schedule_create(&schedule, NULL, &schedule_desc), DOD_E_INVALID)                     \
    S(dod_schedule_create(&schedule, world, NULL), DOD_E_INVALID)                              \
    S(dod_schedule_run(NULL, world, NULL, NULL), DOD_E_INVALID)                                \
    S(dod_schedule_run(schedule, NULL, NULL, NULL), DOD_E_INVALID)                             \
    S(dod_schedule_run(schedule, world, &null_executor, NULL), DOD_E_INVALID)                  \
    S(dod_schedule_run_with(NULL, world, NULL, NULL, NULL), DOD_E_INVALID)                     \
    S(dod_schedule_run_with(schedule, NULL, NULL, NULL, NULL), DOD_E_INVALID)                  \
    S(dod_schedule_run_with(schedule, world, &null_executor, NULL, NULL), DOD_E_INVALID)       \
    V(dod_schedule_destroy(NULL))                                                              \
    R(dod_schedule_phase_count(NULL), 0)                                                       \
    R(dod_schedule_phase_of(NULL, 0), UINT32_MAX)                                              \
    R(dod_world_entity_at(NULL, 0).bits, 0)                                                    \
    R(dod_world_get_at(NULL, 0, 0) == NULL, 1)                                                 \
    R((dod_world_get_at)(NULL, 0, 0) == NULL, 1)                                               \
    S(dod_world_index_build(NULL, world, &index_desc), DOD_E_INVALID)                          \
    S(dod_world_index_build(&csr, NULL, &index_desc), DOD_E_INVALID)                           \
    S(dod_world_index_build(&csr, world, NULL), DOD_E_INVALID)                                 \
    S(dod_world_index_build(&csr, world, &index_desc_no_query), DOD_E_INVALID)                 \
    S(dod_world_gather(NULL, world, &world_col, 1, NULL), DOD_E_INVALID)                       \
    S(dod_world_gather(&csr, NULL, &world_col, 1, NULL), DOD_E_INVALID)                        \
    S(dod_world_gather(&csr, world, NULL, 1, NULL), DOD_E_INVALID)                             \
    S(dod_world_gather(&csr, world, &world_col, 1, &null_executor), DOD_E_INVALID)            \
    S(dod_world_gather_rows(NULL, world, &query, &world_col, 1, NULL), DOD_E_INVALID)          \
    S(dod_world_gather_rows(&csr, NULL, &query, &world_col, 1, NULL), DOD_E_INVALID)           \
    S(dod_world_gather_rows(&csr, world, NULL, &world_col, 1, NULL), DOD_E_INVALID)            \
    S(dod_world_gather_rows(&csr, world, &query, NULL, 1, NULL), DOD_E_INVALID)                \
    S(dod_world_gather_rows(&csr, world, &query, &world_col, 1, &null_executor), DOD_E_INVALID) \
    S(dod_world_reduce_rows(NULL, world, &query, 0, 0, &reduce_out, NULL), DOD_E_INVALID)      \
    S(dod_world_reduce_rows(&csr, NULL, &query, 0, 0, &reduce_out, NULL), DOD_E_INVALID)       \
    S(dod_world_reduce_rows(&csr, world, NULL, 0, 0, &reduce_out, NULL), DOD_E_INVALID)        \
    S(dod_world_reduce_rows(&csr, world, &query, 0, 0, NULL, NULL), DOD_E_INVALID)             \
    /* rows by row number */                                                                   \
    S(dod_world_rows_init(NULL, world, &query), DOD_E_INVALID)                                 \
    S(dod_world_rows_init(&rows, NULL, &query), DOD_E_INVALID)                                 \
    S(dod_world_rows_init(&rows, world, NULL), DOD_E_INVALID)                                  \
    R(dod_world_rows_count(NULL), 0)                                                           \
    R(dod__world_rows_seek(NULL, 0), 0)                                                        \
    R(dod__world_rows_flat_elem(NULL, 0, 0) == NULL, 1)                                        \
    R(dod_world_row_get(NULL, 0, 0) == NULL, 1)                                                \
    R((dod_world_row_get)(NULL, 0, 0) == NULL, 1)                                              \
    R(dod_world_row_entity(NULL, 0).bits, 0)                                                   \
    /* snapshots and files */                                                                  \
    S(dod_world_copy(NULL, world), DOD_E_INVALID)                                              \
    S(dod_world_copy(world, NULL), DOD_E_INVALID)                                              \
    S(dod_world_copy_with(NULL, world, NULL), DOD_E_INVALID)                                   \
    S(dod_world_copy_with(world, NULL, NULL), DOD_E_INVALID)                                   \
    S(dod_world_touch(NULL, 0, 0), DOD_E_INVALID)                                              \
    R(dod_world_equal(NULL, world), 0)                                                         \
    R(dod_world_equal(world, NULL), 0)                                                         \
    R(dod_world_hash(NULL), 0)                                                                 \
    S(dod_world_frames_create(NULL, 2, &world_desc), DOD_E_INVALID)                            \
    S(dod_world_frames_create(&frames, 2, NULL), DOD_E_INVALID)                                \
    V(dod_world_frames_destroy(NULL))                                                          \
    R(dod_frames_payload(NULL, 0) == NULL, 1)                                                  \
    R(dod_world_saved_size(NULL), 0)                                                           \
    S(dod_world_save(NULL, stdout), DOD_E_INVALID)                                             \
    S(dod_world_save(world, NULL), DOD_E_INVALID)                                              \
    S(dod_world_save_mem(NULL, buf, sizeof buf), DOD_E_INVALID)                                \
    S(dod_world_save_mem(world, NULL, sizeof buf), DOD_E_INVALID)                              \
    S(dod_world_load(NULL, stdin), DOD_E_INVALID)                                              \
    S(dod_world_load(world, NULL), DOD_E_INVALID)                                              \
    S(dod_world_load_mem(NULL, buf, sizeof buf), DOD_E_INVALID)                                \
    S(dod_world_load_mem(world, NULL, sizeof buf), DOD_E_INVALID)                                  \
    S(dod_world_load_with(NULL, stdin, NULL), DOD_E_INVALID)                                       \
    S(dod_world_load_with(world, NULL, NULL), DOD_E_INVALID)                                       \
    S(dod_world_load_mem_with(NULL, buf, sizeof buf, NULL), DOD_E_INVALID)                         \
    S(dod_world_load_mem_with(world, NULL, sizeof buf, NULL), DOD_E_INVALID)                       \
    S(dod_world_frames_create_from(NULL, 2, &world_desc, world), DOD_E_INVALID)                    \
    S(dod_world_frames_create_from(&frames, 2, NULL, world), DOD_E_INVALID)                        \
    S(dod_world_frames_create_from(&frames, 2, &world_desc, NULL), DOD_E_INVALID)                  \
    S(dod_world_reserve(NULL, 0, 1), DOD_E_INVALID)                                                \
    S(dod_world_rows_bytes(NULL, 0, 1, &size_out), DOD_E_INVALID)                                  \
    S(dod_world_rows_bytes(&world_desc, 0, 1, NULL), DOD_E_INVALID)

/* One string per entry (one string for all of them outgrew what ISO C requires compilers to
 * support). */
#define AS_TEXT_S(call, status) #call,
#define AS_TEXT_V(call) #call,
#define AS_TEXT_R(call, value) #call,
static const char *const table_text[] = { NULL_CALLS(AS_TEXT_S, AS_TEXT_V, AS_TEXT_R) };

static int has_entry(const char *name)
{
    for (size_t i = 0; i < sizeof table_text / sizeof table_text[0]; ++i)
        if (strstr(table_text[i], name))
            return 1;
    return 0;
}

#define RUN_S(call, status) CHECK_STATUS(call, status);
#define RUN_V(call) call;
#define RUN_R(call, value) CHECK((call) == (value));

static void setup(void)
{
    dod_csr_init(&csr, NULL);
    CHECK_OK(dod_csr_build(&csr, 2, keys, 4, 4));
    dod_csr_init(&csr_copy, NULL);
    CHECK_OK(dod_csr_copy(&csr_copy, &csr));
    dod_table_column_desc col = { 4, 4, 0 };
    CHECK_OK(dod_table_init(&table, &col, 1, NULL));
    CHECK_OK(dod_table_push(&table, &handle));
    dod_arena_init(&arena, 0, NULL);
    dod_graph_scratch_init(&scratch, NULL);
    CHECK_OK(dod_frames_create_csr(&frames, 2, 1, NULL));
    build_desc.n_rows = 2;
    build_desc.n_items = 4;
    build_desc.keys = keys;
    gather_col.dst = buf;
    gather_col.src = keys;
    gather_col.src_stride = 4;
    gather_col.size = 4;
    CHECK_OK(dod_csr_save_mem(&csr, buf, sizeof buf)); /* a valid image for the views */
    static const dod_component_desc comp = { "c", 4, 4 };
    static const uint32_t comp_id = 0;
    static const dod_archetype_desc arch = { "a", &comp_id, 1, 0, 0, 0, 0 };
    world_desc.components = &comp;
    world_desc.n_components = 1;
    world_desc.archetypes = &arch;
    world_desc.n_archetypes = 1;
    CHECK_OK(dod_world_create(&world, &world_desc));
    CHECK_OK(dod_world_spawn(world, 0, &entity));
    CHECK_OK(dod_cmds_init(&cmds, world, NULL));
    CHECK_OK(dod_schedule_create(&schedule, world, &schedule_desc));
    CHECK_OK(dod_query_init(&query, world, &comp_id, 1, NULL, 0));
    index_desc.query = &query;
    index_desc.n_rows = 1;
    world_col.dst = buf;
    world_col.size = 4;
}

static void teardown(void)
{
    dod_cmds_free(&cmds);
    dod_schedule_destroy(schedule);
    dod_world_destroy(world);
    dod_frames_destroy(frames);
    dod_graph_scratch_free(&scratch);
    dod_arena_free(&arena);
    dod_table_free(&table);
    dod_csr_free(&csr_copy);
    dod_csr_free(&csr);
}

static void test_null_walk(void)
{
    setup();
    uint32_t rows_before = dod_table_count(&table);
    NULL_CALLS(RUN_S, RUN_V, RUN_R)
    /* the refusals changed nothing they were handed */
    CHECK(dod_csr_equal(&csr, &csr_copy));
    CHECK_EQ(dod_table_count(&table), rows_before);
    CHECK_EQ(dod_arena_used(&arena), 0);
    CHECK_EQ(dod_frames_latest_seq(frames), 0);
    CHECK_EQ(dod_world_count(world, 0), 1);
    CHECK(dod_world_alive(world, entity));
    CHECK_EQ(dod_cmds_count(&cmds), 0);
    (void)pool;
    teardown();
}

/* Every DOD_API function in include/dod/ has an entry in NULL_CALLS. */
static void test_table_covers_every_function(void)
{
    int missing = 0, seen = 0;
    /* DOD_PUBLIC_HEADERS: the names of the public headers, comma-separated (a CMake glob) */
    const char *list = DOD_PUBLIC_HEADERS;
    char header[128];
    while (test_list_next(&list, header, sizeof header)) {
        char path[1024];
        snprintf(path, sizeof path, "%s/include/dod/%s", DOD_SOURCE_DIR, header);
        char *text = test_read_text(path);
        if (!text)
            continue;
        for (const char *p = strstr(text, "\nDOD_API "); p; p = strstr(p + 1, "\nDOD_API ")) {
            const char *paren = strchr(p, '(');
            const char *end = paren;
            while (end > p && (end[-1] == ' '))
                --end;
            const char *start = end;
            while (start > p && (start[-1] == '_' || (start[-1] >= 'a' && start[-1] <= 'z') ||
                                 (start[-1] >= '0' && start[-1] <= '9')))
                --start;
            char name[128];
            size_t len = (size_t)(end - start);
            if (len == 0 || len >= sizeof name)
                continue;
            memcpy(name, start, len);
            strcpy(name + len, "(");
            ++seen;
            if (!has_entry(name)) {
                fprintf(stderr, "  %s has no entry in NULL_CALLS\n", name);
                ++missing;
            }
        }
        free(text);
    }
    CHECK(seen > 60);
    CHECK_EQ(missing, 0);
}

int main(void)
{
    test_null_walk();
    test_table_covers_every_function();
    return check_summary("api_null");
}
