/* Command buffers: init, free, clear, reserve, recording, and the provisional handles. */
#include "atomic.h"
#include "world_cmds_internal.h"

/* Buffers made so far in the process: the low 16 bits tag each buffer's provisional handles. */
static dod__atomic_u32 buffers_made;

enum {
    CMDS_MIN_RECORD_BYTES = 1024, /* a buffer's first record stream */
    CMDS_MIN_SPAWNS = 64,         /* and its first room for spawns */
    CMDS_SPAWN_BYTES = sizeof(dod_entity) + sizeof(uint16_t) /* a spawn's handle, archetype */
};

dod_status dod_cmds_init(dod_cmds *cb, const dod_world *w, const dod_allocator *alloc)
{
    DOD__REFUSE_IF(!cb, DOD_E_INVALID);
    DOD__REFUSE_IF(!w, DOD_E_INVALID);
    memset(cb, 0, sizeof *cb);
    cb->world = w;
    cb->declaration = dod__world_declaration(w);
    cb->n_archetypes = w->n_archetypes;
    cb->n_components = w->head.n_components;
    cb->alloc = dod__allocator_or_heap(alloc);
    uint32_t tag = dod__atomic_u32_fetch_add_relaxed(&buffers_made, 1u) & DOD__WORLD_TAG_MASK;
    cb->tag_hi = tag << DOD__WORLD_GEN_BITS | DOD__CMDS_GEN;
    return DOD_OK;
}

void dod_cmds_destroy(dod_cmds *cb)
{
    dod_cmds_free(cb);
}

void dod_cmds_free(dod_cmds *cb)
{
    if (!cb)
        return;
    dod__free(&cb->alloc, cb->records, cb->bytes_cap);
    dod__free(&cb->alloc, cb->spawned, (size_t)cb->spawns_cap * CMDS_SPAWN_BYTES);
    cb->records = NULL;
    cb->spawned = NULL;
    cb->spawn_arch = NULL;
    cb->bytes_cap = 0;
    cb->spawns_cap = 0;
    dod_cmds_clear(cb);
}

void dod_cmds_clear(dod_cmds *cb)
{
    if (!cb)
        return;
    cb->n_bytes = 0;
    cb->n_commands = 0;
    cb->n_spawns = 0;
    cb->n_moves = 0;
    cb->applied = 0;
    cb->status = DOD_OK;
}

uint32_t dod_cmds_count(const dod_cmds *cb)
{
    return cb ? cb->n_commands : 0;
}

dod_status dod_cmds_status(const dod_cmds *cb)
{
    return cb ? cb->status : DOD_OK;
}

/* A record call on cb failed with st: remember the first failure (dod_cmds_status). */
static dod_status cmds_failed(dod_cmds *cb, dod_status st)
{
    if (cb->status == DOD_OK)
        cb->status = st;
    return st;
}

/* Refuse a record call on cb (not NULL) when cond holds: the failure reported and remembered. */
#define CMDS_REFUSE_IF(cb, cond, status)                                                       \
    do {                                                                                       \
        if (cond)                                                                              \
            return cmds_failed((cb), DOD__FAIL((status), #cond));                              \
    } while (0)

/* The doubled capacity for `need` (> cap), at least `least`, at most `most`. */
static uint64_t cmds_grown(uint64_t cap, uint64_t need, uint64_t least, uint64_t most)
{
    uint64_t next = cap < least ? least : 2 * cap;
    if (next < need)
        next = need;
    return next < most ? next : most;
}

/* Room for more_bytes more record bytes and more_spawns more spawns: both arrays allocated
 * before either is installed, so a failure leaves cb as it was. */
static dod_status cmds_grow(dod_cmds *cb, size_t more_bytes, uint64_t more_spawns)
{
    unsigned char *records = NULL, *spawned = NULL;
    size_t bytes_cap = cb->bytes_cap;
    uint64_t spawns_cap = cb->spawns_cap;
    if (more_bytes > cb->bytes_cap - cb->n_bytes) {
        size_t need;
        DOD__REFUSE_IF(!dod__add(cb->n_bytes, more_bytes, &need), DOD_E_OVERFLOW);
        bytes_cap = (size_t)cmds_grown(cb->bytes_cap, need, CMDS_MIN_RECORD_BYTES, SIZE_MAX);
        records = (unsigned char *)dod__alloc(&cb->alloc, bytes_cap);
        DOD__REFUSE_IF(!records, DOD_E_NOMEM);
    }
    if (more_spawns > cb->spawns_cap - cb->n_spawns) {
        uint64_t need = cb->n_spawns + more_spawns;
        size_t bytes = 0;
        spawns_cap = cmds_grown(cb->spawns_cap, need, CMDS_MIN_SPAWNS, UINT32_MAX);
        if (need > UINT32_MAX || !dod__mul((size_t)spawns_cap, CMDS_SPAWN_BYTES, &bytes)) {
            dod__free(&cb->alloc, records, bytes_cap);
            return DOD__FAIL(DOD_E_OVERFLOW, "more than 2^32 - 1 spawns");
        }
        spawned = (unsigned char *)dod__alloc(&cb->alloc, bytes);
        if (!spawned) {
            dod__free(&cb->alloc, records, bytes_cap);
            return DOD__FAIL(DOD_E_NOMEM, "allocating the spawns' handles");
        }
    }
    if (records) {
        if (cb->n_bytes)
            memcpy(records, cb->records, cb->n_bytes);
        dod__free(&cb->alloc, cb->records, cb->bytes_cap);
        cb->records = records;
        cb->bytes_cap = bytes_cap;
    }
    if (spawned) {
        dod_entity *handles = (dod_entity *)(void *)spawned;
        size_t handle_bytes = (size_t)spawns_cap * sizeof(dod_entity);
        uint16_t *arch = (uint16_t *)(void *)(spawned + handle_bytes);
        if (cb->n_spawns) {
            memcpy(handles, cb->spawned, cb->n_spawns * sizeof *handles);
            memcpy(arch, cb->spawn_arch, cb->n_spawns * sizeof *arch);
        }
        dod__free(&cb->alloc, cb->spawned, (size_t)cb->spawns_cap * CMDS_SPAWN_BYTES);
        cb->spawned = handles;
        cb->spawn_arch = arch;
        cb->spawns_cap = (uint32_t)spawns_cap;
    }
    return DOD_OK;
}

dod_status dod_cmds_reserve(dod_cmds *cb, uint32_t n_commands, size_t payload_bytes)
{
    DOD__REFUSE_IF(!cb, DOD_E_INVALID);
    DOD__REFUSE_IF((uint64_t)cb->n_commands + n_commands > UINT32_MAX, DOD_E_OVERFLOW);
    size_t bytes;
    DOD__REFUSE_IF(!dod__mul(n_commands, dod__cmd_head_bytes(DOD__CMD_SET) + 7u, &bytes) ||
                       !dod__add(bytes, payload_bytes, &bytes),
                   DOD_E_OVERFLOW);
    return cmds_grow(cb, bytes, n_commands);
}

/* Append a record of `payload` bytes (its padding zeroed) and count it; returns where its
 * payload goes. The common case, room already there, is three comparisons. NULL when the
 * buffer cannot grow (*st says why). */
static inline unsigned char *cmds_append(dod_cmds *cb, uint32_t op, uint32_t id, dod_entity e,
                                         size_t payload, uint32_t spawns, dod_status *st)
{
    size_t head = dod__cmd_head_bytes(op);
    size_t bytes = head + ((payload + 7u) & ~(size_t)7u);
    if (cb->n_commands == UINT32_MAX) {
        *st = DOD__FAIL(DOD_E_OVERFLOW, "2^32 - 1 commands");
        return NULL;
    }
    if (bytes > cb->bytes_cap - cb->n_bytes || spawns > cb->spawns_cap - cb->n_spawns) {
        *st = cmds_grow(cb, bytes, spawns);
        if (*st != DOD_OK)
            return NULL;
    }
    unsigned char *at = cb->records + cb->n_bytes;
    dod__cmd *c = (dod__cmd *)(void *)at;
    c->op = (uint8_t)op;
    c->id = (uint8_t)id;
    c->unused = 0;
    c->payload = (uint32_t)payload;
    if (op != DOD__CMD_SPAWN)
        *(dod_entity *)(void *)(c + 1) = e;
    if (payload & 7u) /* the padding: the stream's bytes are all defined */
        memset(at + head + (payload & ~(size_t)7u), 0, 8);
    cb->n_bytes += bytes;
    cb->n_commands++;
    cb->applied = 0;
    return at + head;
}

/* Check a handle a command names: the null handle is DOD_E_NOT_FOUND, a provisional handle
 * that is not one of cb's spawns DOD_E_INVALID (it can never resolve). *ordinal: the spawn of
 * a provisional handle of cb, UINT32_MAX for a real handle. */
static inline dod_status cmds_check_entity(const dod_cmds *cb, dod_entity e, uint32_t *ordinal)
{
    *ordinal = UINT32_MAX;
    DOD__REFUSE_IF(e.bits == 0, DOD_E_NOT_FOUND);
    if (dod__cmds_provisional(e)) {
        DOD__REFUSE_IF((uint32_t)(e.bits >> 32) != cb->tag_hi, DOD_E_INVALID);
        DOD__REFUSE_IF((uint32_t)e.bits >= cb->n_spawns, DOD_E_INVALID);
        *ordinal = (uint32_t)e.bits;
    }
    return DOD_OK;
}

/* The archetype e is known to have when the commands recorded so far are applied: a live
 * provisional handle's (its spawn's, after the moves, adds and removes recorded since), else
 * UINT32_MAX (a real handle, or a spawn the buffer despawned: checked when applied). */
static uint32_t cmds_known_arch(const dod_cmds *cb, uint32_t ordinal)
{
    if (ordinal == UINT32_MAX || (cb->spawn_arch[ordinal] & DOD__CMDS_DESPAWNED))
        return UINT32_MAX;
    return cb->spawn_arch[ordinal];
}

/* A spawn's payload: each component's value (or zeroes), packed in declared order. */
static void cmds_pack_row(unsigned char *to, const dod__world_arch *a, const void *const *values)
{
    for (const dod__world_col *col = a->cols, *end = col + a->n_cols; col != end; ++col) {
        const void *v = *values++;
        if (v)
            dod__copy_elem(to, (const unsigned char *)v, col->size);
        else
            dod__zero_elem(to, col->size);
        to += col->size;
    }
}

/* Record a spawn of row_bytes of payload into *payload; its provisional handle in *out. */
static inline dod_status cmds_spawn(dod_cmds *cb, uint32_t archetype, size_t row_bytes,
                                    dod_entity *out, unsigned char **payload)
{
    CMDS_REFUSE_IF(cb, row_bytes > UINT32_MAX - 7u, DOD_E_OVERFLOW);
    dod_entity e; /* spawns <= commands: the ordinal fits when the command does */
    e.bits = (uint64_t)cb->tag_hi << 32 | cb->n_spawns;
    dod_status st = DOD_OK;
    *payload = cmds_append(cb, DOD__CMD_SPAWN, archetype, e, row_bytes, 1, &st);
    if (!*payload)
        return cmds_failed(cb, st);
    cb->spawn_arch[cb->n_spawns++] = (uint16_t)archetype;
    if (out)
        *out = e;
    return DOD_OK;
}

dod_status dod_cmds_spawn(dod_cmds *cb, uint32_t archetype, const void *const *values,
                          dod_entity *out)
{
    DOD__REFUSE_IF(!cb, DOD_E_INVALID);
    CMDS_REFUSE_IF(cb, archetype >= cb->n_archetypes, DOD_E_RANGE);
    unsigned char *to;
    dod_status st =
        cmds_spawn(cb, archetype, values ? cb->world->row_bytes[archetype] : 0, out, &to);
    if (st == DOD_OK && values)
        cmds_pack_row(to, &cb->world->arch[archetype], values);
    return st;
}

dod_status dod__cmds_spawn_row(dod_cmds *cb, uint32_t archetype, size_t row_bytes,
                               dod_entity *out, unsigned char **payload)
{
    DOD__REFUSE_IF(!cb, DOD_E_INVALID);
    CMDS_REFUSE_IF(cb, !payload, DOD_E_INVALID);
    CMDS_REFUSE_IF(cb, archetype >= cb->n_archetypes, DOD_E_RANGE);
    CMDS_REFUSE_IF(cb, row_bytes != cb->world->row_bytes[archetype], DOD_E_INVALID);
    return cmds_spawn(cb, archetype, row_bytes, out, payload);
}

dod_status dod_cmds_despawn(dod_cmds *cb, dod_entity e)
{
    DOD__REFUSE_IF(!cb, DOD_E_INVALID);
    uint32_t ordinal;
    dod_status st = cmds_check_entity(cb, e, &ordinal);
    if (st != DOD_OK || !cmds_append(cb, DOD__CMD_DESPAWN, 0, e, 0, 0, &st))
        return cmds_failed(cb, st);
    if (ordinal != UINT32_MAX) /* commands naming it from now on are skipped at apply */
        cb->spawn_arch[ordinal] |= DOD__CMDS_DESPAWNED;
    return DOD_OK;
}

/* Record a command of op that may move e (a move, add, remove, add_n, remove_n; set: add_n's
 * and remove_n's payload, value: add's, NULL for none) and follow it on a live provisional
 * handle, whose target is known now: DOD_E_UNDECLARED when no single archetype has its set. */
static dod_status cmds_change(dod_cmds *cb, uint32_t op, uint32_t id, dod_entity e,
                              const void *payload, size_t size)
{
    uint32_t ordinal;
    dod_status st = cmds_check_entity(cb, e, &ordinal);
    if (st != DOD_OK)
        return cmds_failed(cb, st);
    uint32_t from = cmds_known_arch(cb, ordinal), to = UINT32_MAX;
    if (from != UINT32_MAX) {
        const uint64_t *set = op >= DOD__CMD_ADD_N ? (const uint64_t *)payload : NULL;
        to = dod__change_target(cb->world, op, id, set, from);
        CMDS_REFUSE_IF(cb, to == UINT32_MAX, DOD_E_UNDECLARED);
    }
    unsigned char *at = cmds_append(cb, op, id, e, payload ? size : 0, 0, &st);
    if (!at)
        return cmds_failed(cb, st);
    if (payload)
        dod__copy_elem(at, (const unsigned char *)payload, size);
    cb->n_moves++;
    if (to != UINT32_MAX) /* later commands on it are checked against where it went */
        cb->spawn_arch[ordinal] = (uint16_t)to;
    return DOD_OK;
}

dod_status dod_cmds_move(dod_cmds *cb, dod_entity e, uint32_t archetype)
{
    DOD__REFUSE_IF(!cb, DOD_E_INVALID);
    CMDS_REFUSE_IF(cb, archetype >= cb->n_archetypes, DOD_E_RANGE);
    return cmds_change(cb, DOD__CMD_MOVE, archetype, e, NULL, 0);
}

dod_status dod_cmds_add(dod_cmds *cb, dod_entity e, uint32_t component, const void *value,
                        size_t size)
{
    DOD__REFUSE_IF(!cb, DOD_E_INVALID);
    CMDS_REFUSE_IF(cb, component >= cb->n_components, DOD_E_RANGE);
    CMDS_REFUSE_IF(cb, size != cb->world->comp_size[component], DOD_E_INVALID);
    CMDS_REFUSE_IF(cb, size > UINT32_MAX - 7u, DOD_E_OVERFLOW);
    return cmds_change(cb, DOD__CMD_ADD, component, e, value, size);
}

dod_status dod_cmds_remove(dod_cmds *cb, dod_entity e, uint32_t component)
{
    DOD__REFUSE_IF(!cb, DOD_E_INVALID);
    CMDS_REFUSE_IF(cb, component >= cb->n_components, DOD_E_RANGE);
    return cmds_change(cb, DOD__CMD_REMOVE, component, e, NULL, 0);
}

/* dod_cmds_add_n (add 1) or dod_cmds_remove_n: the set is the record's payload. */
static dod_status cmds_change_n(dod_cmds *cb, dod_entity e, const uint32_t *components,
                                uint32_t n, int add, const char *call)
{
    uint64_t set[DOD__SET_WORDS];
    dod_status st = dod__world_set_of(cb->world, components, n, set, call);
    if (st != DOD_OK)
        return cmds_failed(cb, st);
    return cmds_change(cb, add ? DOD__CMD_ADD_N : DOD__CMD_REMOVE_N, 0, e, set, sizeof set);
}

dod_status dod_cmds_add_n(dod_cmds *cb, dod_entity e, const uint32_t *components, uint32_t n)
{
    DOD__REFUSE_IF(!cb, DOD_E_INVALID);
    return cmds_change_n(cb, e, components, n, 1, "dod_cmds_add_n");
}

dod_status dod_cmds_remove_n(dod_cmds *cb, dod_entity e, const uint32_t *components,
                             uint32_t n)
{
    DOD__REFUSE_IF(!cb, DOD_E_INVALID);
    return cmds_change_n(cb, e, components, n, 0, "dod_cmds_remove_n");
}

/* Check e for a command writing its component (set, field): a live provisional handle's
 * archetype must have it. */
static dod_status cmds_check_writer(const dod_cmds *cb, dod_entity e, uint32_t component)
{
    uint32_t ordinal;
    dod_status st = cmds_check_entity(cb, e, &ordinal);
    uint32_t arch = st == DOD_OK ? cmds_known_arch(cb, ordinal) : UINT32_MAX;
    if (arch != UINT32_MAX) {
        const dod__world_field *f = dod__world_fields(cb->world, arch);
        DOD__REFUSE_IF(f[component].offset == 0, DOD_E_INVALID); /* its archetype lacks it */
    }
    return st;
}

/* Record a command of op that writes into e's component (a set: the component's bytes; a field
 * command: its dod__cmd_field), `size` bytes of payload copied now. */
static dod_status cmds_write(dod_cmds *cb, uint32_t op, dod_entity e, uint32_t component,
                             const void *payload, size_t size)
{
    dod_status st = cmds_check_writer(cb, e, component);
    unsigned char *to = st == DOD_OK ? cmds_append(cb, op, component, e, size, 0, &st) : NULL;
    if (!to)
        return cmds_failed(cb, st);
    dod__copy_elem(to, (const unsigned char *)payload, size);
    return DOD_OK;
}

dod_status dod_cmds_set(dod_cmds *cb, dod_entity e, uint32_t component, const void *value,
                        size_t size)
{
    DOD__REFUSE_IF(!cb, DOD_E_INVALID);
    CMDS_REFUSE_IF(cb, !value, DOD_E_INVALID);
    CMDS_REFUSE_IF(cb, component >= cb->n_components, DOD_E_RANGE);
    CMDS_REFUSE_IF(cb, size != cb->world->comp_size[component], DOD_E_INVALID);
    CMDS_REFUSE_IF(cb, size > UINT32_MAX - 7u, DOD_E_OVERFLOW);
    return cmds_write(cb, DOD__CMD_SET, e, component, value, size);
}

/* The bytes an accumulate of op reads and writes. */
static size_t acc_width(uint32_t op)
{
    static const unsigned char width[DOD_ACC_COUNT] = { 4, 4, 8, 8, 4, 8, 4, 4, 4, 4, 4 };
    return width[op];
}

dod_status dod_cmds_accumulate(dod_cmds *cb, dod_entity e, uint32_t component, size_t offset,
                               dod_acc op, const void *value, size_t size)
{
    DOD__REFUSE_IF(!cb, DOD_E_INVALID);
    CMDS_REFUSE_IF(cb, !value, DOD_E_INVALID);
    CMDS_REFUSE_IF(cb, component >= cb->n_components, DOD_E_RANGE);
    CMDS_REFUSE_IF(cb, (uint32_t)op >= DOD_ACC_COUNT, DOD_E_INVALID);
    CMDS_REFUSE_IF(cb, size != acc_width((uint32_t)op), DOD_E_INVALID);
    size_t bytes = cb->world->comp_size[component];
    CMDS_REFUSE_IF(cb, size > bytes || offset > bytes - size, DOD_E_RANGE);
    dod__cmd_field f;
    memset(&f, 0, sizeof f);
    f.offset = (uint32_t)offset;
    f.op = (uint32_t)op;
    memcpy(f.value, value, size);
    return cmds_write(cb, DOD__CMD_FIELD, e, component, &f, sizeof f);
}

dod_status dod_cmds_set_entity(dod_cmds *cb, dod_entity e, uint32_t component, size_t offset,
                               dod_entity target)
{
    DOD__REFUSE_IF(!cb, DOD_E_INVALID);
    CMDS_REFUSE_IF(cb, component >= cb->n_components, DOD_E_RANGE);
    size_t size = cb->world->comp_size[component];
    CMDS_REFUSE_IF(cb, size < sizeof target || offset > size - sizeof target, DOD_E_RANGE);
    uint32_t ordinal;
    dod_status st = target.bits ? cmds_check_entity(cb, target, &ordinal) : DOD_OK;
    if (st != DOD_OK)
        return cmds_failed(cb, st);
    dod__cmd_field f;
    f.offset = (uint32_t)offset;
    f.op = DOD__FIELD_ENTITY;
    memcpy(f.value, &target, sizeof target);
    return cmds_write(cb, DOD__CMD_FIELD, e, component, &f, sizeof f);
}

dod_entity dod_cmds_resolve(const dod_cmds *cb, dod_entity e)
{
    dod_entity none = { 0 };
    if (!cb)
        return none;
    if (!dod__cmds_provisional(e))
        return e;
    if ((uint32_t)(e.bits >> 32) != cb->tag_hi || (uint32_t)e.bits >= cb->n_spawns ||
        !cb->applied)
        return none;
    return cb->spawned[(uint32_t)e.bits];
}
