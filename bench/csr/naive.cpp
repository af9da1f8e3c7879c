// The code that came in for review in the seed: std::vector<std::vector<unsigned>> filled by
// push_back, copied by the vector's copy, freed by its destructor. The global operator
// new/delete below count every C++ allocation in the program (only this file allocates with
// new) and the heap bytes the blocks occupy.
//
// naive-fragmented: the same build while "another subsystem" allocates a block of its own
// right after each block a list gets (each push_back that reallocates), so the lists'
// blocks end up spread between foreign ones; after the build the subsystem frees every other
// block, leaving holes the heap hands out later (to the snapshot's lists, for example).
// Its build time includes the subsystem's mallocs, as the frame's would.
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>
#include "meter.h"

namespace {

csr_count cpp_count;

void *counted_new(std::size_t n)
{
    void *p = std::malloc(n ? n : 1);
    if (!p)
        throw std::bad_alloc();
    cpp_count.allocs++;
    cpp_count.heap_bytes += heap_block_bytes(p);
    return p;
}

void counted_delete(void *p) noexcept
{
    if (!p)
        return;
    cpp_count.frees++;
    cpp_count.heap_bytes -= heap_block_bytes(p);
    std::free(p);
}

} // namespace

void *operator new(std::size_t n) { return counted_new(n); }
void *operator new[](std::size_t n) { return counted_new(n); }
void operator delete(void *p) noexcept { counted_delete(p); }
void operator delete[](void *p) noexcept { counted_delete(p); }
void operator delete(void *p, std::size_t) noexcept { counted_delete(p); }
void operator delete[](void *p, std::size_t) noexcept { counted_delete(p); }

namespace {

typedef std::vector<std::vector<unsigned int>> by_location_t;

struct naive {
    by_location_t by_location;
    // The other subsystem (naive-fragmented only): its blocks, allocated with malloc so the
    // counters above see only the index.
    void **foreign = nullptr;
    std::size_t n_foreign = 0;
};

// Foreign block sizes, cycled: the same heap size classes as the lists' small blocks.
const std::size_t foreign_sizes[3] = { 16, 32, 48 };

void init(void *inst, const csr_input *) { new (inst) naive(); }

void init_fragmented(void *inst, const csr_input *in)
{
    naive *n = new (inst) naive();
    // A list reallocates at most once per push_back: n_items bounds the foreign blocks.
    n->foreign = static_cast<void **>(std::malloc(in->n_items * sizeof(void *)));
    if (!n->foreign)
        bench_die("out of memory");
}

void fini(void *inst)
{
    naive *n = static_cast<naive *>(inst);
    std::free(n->foreign);
    n->~naive();
}

void build(void *inst, const csr_input *in)
{
    naive *n = static_cast<naive *>(inst);
    const Regiment *regiments = in->regs;
    n->by_location = by_location_t(in->n_rows);
    for (unsigned int r = 0; r < in->n_items; ++r)
        n->by_location[regiments[r].location].push_back(r);
}

void build_fragmented(void *inst, const csr_input *in)
{
    naive *n = static_cast<naive *>(inst);
    const Regiment *regiments = in->regs;
    n->by_location = by_location_t(in->n_rows);
    std::size_t k = 0;
    for (unsigned int r = 0; r < in->n_items; ++r) {
        std::vector<unsigned int> &list = n->by_location[regiments[r].location];
        const std::size_t cap = list.capacity();
        list.push_back(r);
        if (list.capacity() != cap) {
            void *p = std::malloc(foreign_sizes[k % 3]);
            if (!p)
                bench_die("out of memory");
            n->foreign[k++] = p;
        }
    }
    n->n_foreign = k;
}

// The subsystem frees half its blocks once the lists are built.
void free_half_foreign(void *inst)
{
    naive *n = static_cast<naive *>(inst);
    for (std::size_t i = 1; i < n->n_foreign; i += 2) {
        std::free(n->foreign[i]);
        n->foreign[i] = nullptr;
    }
}

void free_foreign(void *inst)
{
    naive *n = static_cast<naive *>(inst);
    for (std::size_t i = 0; i < n->n_foreign; ++i)
        std::free(n->foreign[i]);
    n->n_foreign = 0;
}

// Next frame into the lists held: clear keeps each list's capacity; a list that grows past
// it reallocates, as push_back does.
void rebuild(void *inst, const csr_input *in, const Regiment *regiments)
{
    naive *n = static_cast<naive *>(inst);
    for (std::vector<unsigned int> &list : n->by_location)
        list.clear();
    for (unsigned int r = 0; r < in->n_items; ++r)
        n->by_location[regiments[r].location].push_back(r);
}

float row_budget(const std::vector<unsigned int> &list, const Regiment *regiments)
{
    float travel_budget = 0.0f;
    for (unsigned int id : list) {
        const Regiment &regiment = regiments[id];
        if (regiment.mood < 0.25f || regiment.health <= 0.0f)
            continue;
        travel_budget += regiment.speed;
    }
    return travel_budget;
}

double query(const void *inst, const csr_input *in, const uint32_t *order)
{
    const by_location_t &by_location = static_cast<const naive *>(inst)->by_location;
    const uint32_t n_rows = static_cast<uint32_t>(by_location.size());
    double total = 0.0;
    for (uint32_t i = 0; i < n_rows; ++i)
        total += row_budget(by_location[order ? order[i] : i], in->regs);
    return total;
}

void snapshot(void *dst, const void *src, const csr_input *)
{
    static_cast<naive *>(dst)->by_location = static_cast<const naive *>(src)->by_location;
}

void teardown(void *inst, const csr_input *)
{
    by_location_t gone;
    gone.swap(static_cast<naive *>(inst)->by_location);
}

std::size_t requested(const void *inst)
{
    const by_location_t &by_location = static_cast<const naive *>(inst)->by_location;
    std::size_t bytes = by_location.capacity() * sizeof(std::vector<unsigned int>);
    for (const std::vector<unsigned int> &list : by_location)
        bytes += list.capacity() * sizeof(unsigned int);
    return bytes;
}

void count(csr_count *out, const csr_input *) { *out = cpp_count; }

csr_variant make(bool fragmented)
{
    csr_variant v;
    std::memset(&v, 0, sizeof v);
    v.name = fragmented ? "naive-fragmented" : "naive";
    v.inst_size = sizeof(naive);
    v.reported = (1u << OP_BUILD) | (1u << OP_QUERY) | (1u << OP_QUERY_RANDOM) |
                 (1u << OP_SNAPSHOT) | (1u << OP_TEARDOWN);
    v.init = fragmented ? init_fragmented : init;
    v.fini = fini;
    v.build = fragmented ? build_fragmented : build;
    v.after_build = fragmented ? free_half_foreign : nullptr;
    if (!fragmented) {
        v.reported |= 1u << OP_REBUILD;
        v.rebuild = rebuild;
    }
    v.query = query;
    v.snapshot = snapshot;
    v.snapshot_free = teardown;
    v.teardown = teardown;
    v.after_teardown = fragmented ? free_foreign : nullptr;
    v.requested = requested;
    v.count = count;
    return v;
}

const csr_variant naive_variant = make(false);
const csr_variant fragmented_variant = make(true);

} // namespace

extern "C" const csr_variant *csr_naive(int fragmented)
{
    return fragmented ? &fragmented_variant : &naive_variant;
}
