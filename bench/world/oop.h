/* The seed's OOP baseline (oop.cpp), seen from C. */
#ifndef WORLD_BENCH_OOP_H
#define WORLD_BENCH_OOP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct oop_world oop_world;

/* n objects made in the type order `order` (0 = EntityA, 1 = EntityB, 2 = EntityC), each with
 * new (contiguous 0) or placed one after another in the seed's page allocator (contiguous 1).
 * The k-th object of type t starts at position pos[t][2k], pos[t][2k + 1] and, for A and B,
 * movement mov[t][2k], mov[t][2k + 1]. NULL when out of memory. */
oop_world *oop_create(const uint8_t *order, size_t n, const float *const pos[3],
                      const float *const mov[3], int contiguous);
void oop_update(oop_world *w);                        /* every object's virtual update() */
void oop_positions(const oop_world *w, int type, float *xy); /* type's objects, in creation order */
size_t oop_object_bytes(int type);                    /* sizeof(EntityA), ... */
void oop_destroy(oop_world *w);

/* The seed's snapshot for a worker thread: a deep copy of w (every object cloned with new
 * through a virtual clone(), a new vector of pointers) taken under the world's std::mutex.
 * Destroy it with oop_destroy. NULL when out of memory. */
typedef struct oop_lock oop_lock;
oop_lock *oop_lock_create(void);
void oop_lock_destroy(oop_lock *lock);
oop_world *oop_snapshot(const oop_world *w, oop_lock *lock);

#ifdef __cplusplus
}
#endif

#endif
