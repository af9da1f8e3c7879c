// The seed's OOP baseline, as the seed describes it: an IEntity base with a virtual update(),
// EntityA {Position, Movement, Hitbox, Buffs[4]}, EntityB {Position, Movement, Hitbox} and
// EntityC {Position, Hitbox} as separate classes, a std::vector<IEntity *> of objects made with
// new in a shuffled type order, and update() called through the base pointer. The seed's second
// variant keeps the vector and the virtual call but lays the objects out one after another in
// a linked list of pages (its custom allocator, placement new).
// Nothing here helps the compiler more than the seed's code would: no final, no type switch,
// no sorting by type, and the classes have external linkage.
#include "oop.h"
#include <array>
#include <mutex>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <vector>

namespace seed {

struct Vec2 {
    float x, y;
};
inline Vec2 operator+(Vec2 a, Vec2 b) { return { a.x + b.x, a.y + b.y }; }
struct Box {
    float x, y, w, h;
};
struct Buff {
    std::uint32_t id;
    float left;
};

class IEntity {
public:
    virtual ~IEntity() = default;
    virtual void update() = 0;
    virtual IEntity *clone() const = 0; // a deep copy for a snapshot (the seed's threads)
};

class EntityA : public IEntity {
public:
    Vec2 position{}, movement{};
    Box hitbox{};
    std::array<Buff, 4> buffs{};
    void update() override { position = position + movement; }
    IEntity *clone() const override { return new EntityA(*this); }
};

class EntityB : public IEntity {
public:
    Vec2 position{}, movement{};
    Box hitbox{};
    void update() override { position = position + movement; }
    IEntity *clone() const override { return new EntityB(*this); }
};

class EntityC : public IEntity {
public:
    Vec2 position{};
    Box hitbox{};
    void update() override {} // no movement to add
    IEntity *clone() const override { return new EntityC(*this); }
};

// The custom allocator: pages of 2 MiB in a linked list, objects bumped one after another.
class PageArena {
public:
    PageArena() = default;
    PageArena(const PageArena &) = delete;
    PageArena &operator=(const PageArena &) = delete;
    ~PageArena()
    {
        while (head_) {
            Page *next = head_->next;
            std::free(head_);
            head_ = next;
        }
    }
    void *allocate(std::size_t size, std::size_t align)
    {
        std::size_t at = (used_ + align - 1) & ~(align - 1);
        if (!head_ || at + size > page_bytes) {
            Page *p = static_cast<Page *>(std::malloc(page_bytes));
            if (!p)
                throw std::bad_alloc();
            p->next = head_;
            head_ = p;
            at = sizeof(Page);
        }
        used_ = at + size;
        return reinterpret_cast<unsigned char *>(head_) + at;
    }

private:
    struct alignas(16) Page {
        Page *next;
    };
    static constexpr std::size_t page_bytes = std::size_t(2) << 20;
    Page *head_ = nullptr;
    std::size_t used_ = 0;
};

} // namespace seed

struct oop_world {
    std::vector<seed::IEntity *> entities;
    std::vector<std::uint8_t> types;
    seed::PageArena *arena = nullptr; // the contiguous variant's pages
};

namespace {

template <class T> seed::IEntity *make(seed::PageArena *arena)
{
    if (!arena)
        return new T();
    return new (arena->allocate(sizeof(T), alignof(T))) T();
}

template <class T> void start(T *e, const float *pos, const float *mov)
{
    e->position = { pos[0], pos[1] };
    if constexpr (!std::is_same_v<T, seed::EntityC>)
        e->movement = { mov[0], mov[1] };
}

void release(oop_world *w)
{
    for (seed::IEntity *e : w->entities) {
        if (w->arena)
            e->~IEntity();
        else
            delete e;
    }
    delete w->arena;
    delete w;
}

} // namespace

extern "C" oop_world *oop_create(const std::uint8_t *order, std::size_t n,
                                 const float *const pos[3], const float *const mov[3],
                                 int contiguous)
{
    oop_world *w = nullptr;
    try {
        w = new oop_world();
        if (contiguous)
            w->arena = new seed::PageArena();
        w->entities.reserve(n);
        w->types.assign(order, order + n);
        std::size_t k[3] = { 0, 0, 0 };
        for (std::size_t i = 0; i < n; ++i) {
            int t = order[i];
            const float *p = pos[t] + 2 * k[t], *m = mov[t] ? mov[t] + 2 * k[t] : nullptr;
            k[t]++;
            seed::IEntity *e;
            if (t == 0) {
                e = make<seed::EntityA>(w->arena);
                start(static_cast<seed::EntityA *>(e), p, m);
            } else if (t == 1) {
                e = make<seed::EntityB>(w->arena);
                start(static_cast<seed::EntityB *>(e), p, m);
            } else {
                e = make<seed::EntityC>(w->arena);
                start(static_cast<seed::EntityC *>(e), p, m);
            }
            w->entities.push_back(e);
        }
    } catch (const std::bad_alloc &) {
        if (w)
            release(w);
        return nullptr;
    }
    return w;
}

// The seed's loop: one virtual call per object, through the vector of pointers.
extern "C" void oop_update(oop_world *w)
{
    for (seed::IEntity *e : w->entities)
        e->update();
}

extern "C" void oop_positions(const oop_world *w, int type, float *xy)
{
    std::size_t k = 0;
    for (std::size_t i = 0; i < w->entities.size(); ++i) {
        if (w->types[i] != type)
            continue;
        seed::Vec2 p;
        if (type == 0)
            p = static_cast<const seed::EntityA *>(w->entities[i])->position;
        else if (type == 1)
            p = static_cast<const seed::EntityB *>(w->entities[i])->position;
        else
            p = static_cast<const seed::EntityC *>(w->entities[i])->position;
        xy[2 * k] = p.x;
        xy[2 * k + 1] = p.y;
        k++;
    }
}

extern "C" std::size_t oop_object_bytes(int type)
{
    return type == 0 ? sizeof(seed::EntityA) : type == 1 ? sizeof(seed::EntityB)
                                                         : sizeof(seed::EntityC);
}

extern "C" void oop_destroy(oop_world *w)
{
    if (w)
        release(w);
}

// The seed's snapshot for another thread: under the world's mutex, every object cloned (new,
// through the virtual clone()) into a new vector, as a game hands its OOP world to a worker.
struct oop_lock {
    std::mutex mutex;
};

extern "C" oop_lock *oop_lock_create(void)
{
    return new (std::nothrow) oop_lock();
}

extern "C" void oop_lock_destroy(oop_lock *lock)
{
    delete lock;
}

extern "C" oop_world *oop_snapshot(const oop_world *w, oop_lock *lock)
{
    std::lock_guard<std::mutex> hold(lock->mutex);
    oop_world *copy = nullptr;
    try {
        copy = new oop_world();
        copy->types = w->types;
        copy->entities.reserve(w->entities.size());
        for (const seed::IEntity *e : w->entities)
            copy->entities.push_back(e->clone());
    } catch (const std::bad_alloc &) {
        if (copy)
            release(copy);
        return nullptr;
    }
    return copy;
}
