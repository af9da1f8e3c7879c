/* The library's atomics: C11 <stdatomic.h> where the compiler has it (gcc, clang, MinGW), the
 * Interlocked intrinsics under MSVC, which needs no <stdatomic.h>. Only the operations and
 * orders the library uses, each named with its order; not installed.
 *
 * MSVC mapping (compiled by no CI job: see docs/portability.md). x86 and x64: every
 * Interlocked operation is a full barrier; aligned loads are acquires and aligned stores
 * releases in hardware, so a compiler barrier is all an acquire load or release store needs,
 * except the 64-bit ones on 32-bit x86, which go through cmpxchg8b. ARM64: the _acq / _rel /
 * _nf Interlocked forms, and a dmb ish after an acquire load and before a release store. */
#ifndef DOD_ATOMIC_H
#define DOD_ATOMIC_H

#include <stdint.h>

#if defined(_MSC_VER) && !defined(__clang__)
#  include <intrin.h>

typedef struct dod__atomic_u32 { volatile long v; } dod__atomic_u32;
typedef struct dod__atomic_u64 { __declspec(align(8)) volatile __int64 v; } dod__atomic_u64;

#  if defined(_M_ARM64)
#    define DOD__ACQ(name) name##_acq
#    define DOD__REL(name) name##_rel
#    define DOD__NF(name) name##_nf
#    define DOD__FENCE_ACQ() __dmb(_ARM64_BARRIER_ISH)
#    define DOD__FENCE_REL() __dmb(_ARM64_BARRIER_ISH)
#  elif defined(_M_X64) || defined(_M_IX86)
#    define DOD__ACQ(name) name
#    define DOD__REL(name) name
#    define DOD__NF(name) name
#    define DOD__FENCE_ACQ() _ReadWriteBarrier()
#    define DOD__FENCE_REL() _ReadWriteBarrier()
#  else
#    error "dod: no atomics for this MSVC target"
#  endif

static __forceinline uint32_t dod__atomic_u32_fetch_add_relaxed(dod__atomic_u32 *a, uint32_t n)
{
    return (uint32_t)DOD__NF(_InterlockedExchangeAdd)(&a->v, (long)n);
}

static __forceinline void dod__atomic_u64_init(dod__atomic_u64 *a, uint64_t v)
{
    a->v = (__int64)v;
}

#  if defined(_M_IX86)
/* 64-bit loads and stores are not single instructions here: compare-exchange and exchange. */
static __forceinline uint64_t dod__atomic_u64_load_relaxed(dod__atomic_u64 *a)
{
    return (uint64_t)_InterlockedCompareExchange64(&a->v, 0, 0);
}
static __forceinline void dod__atomic_u64_store_release(dod__atomic_u64 *a, uint64_t v)
{
    (void)_InterlockedExchange64(&a->v, (__int64)v);
}
#  else
static __forceinline uint64_t dod__atomic_u64_load_relaxed(dod__atomic_u64 *a)
{
    return (uint64_t)__iso_volatile_load64(&a->v);
}
static __forceinline void dod__atomic_u64_store_release(dod__atomic_u64 *a, uint64_t v)
{
    DOD__FENCE_REL();
    __iso_volatile_store64(&a->v, (__int64)v);
}
#  endif

static __forceinline uint64_t dod__atomic_u64_load_acquire(dod__atomic_u64 *a)
{
    uint64_t v = dod__atomic_u64_load_relaxed(a);
    DOD__FENCE_ACQ();
    return v;
}

static __forceinline uint64_t dod__atomic_u64_fetch_add_acquire(dod__atomic_u64 *a, uint64_t n)
{
    return (uint64_t)DOD__ACQ(_InterlockedExchangeAdd64)(&a->v, (__int64)n);
}

static __forceinline uint64_t dod__atomic_u64_fetch_add_relaxed(dod__atomic_u64 *a, uint64_t n)
{
    return (uint64_t)DOD__NF(_InterlockedExchangeAdd64)(&a->v, (__int64)n);
}

static __forceinline uint64_t dod__atomic_u64_fetch_sub_release(dod__atomic_u64 *a, uint64_t n)
{
    return (uint64_t)DOD__REL(_InterlockedExchangeAdd64)(&a->v, -(__int64)n);
}

static __forceinline uint64_t dod__atomic_u64_exchange_release(dod__atomic_u64 *a, uint64_t v)
{
    return (uint64_t)DOD__REL(_InterlockedExchange64)(&a->v, (__int64)v);
}

#else /* C11 */
#  include <stdatomic.h>

#  if ATOMIC_LLONG_LOCK_FREE != 2
#    error "dod needs lock-free 64-bit atomics"
#  endif

typedef struct dod__atomic_u32 { _Atomic uint32_t v; } dod__atomic_u32;
/* 8-byte aligned on 32-bit targets too, stated, so gcc's i686 note that this alignment
 * changed in GCC 11 has nothing to say. */
typedef struct dod__atomic_u64 { _Alignas(8) _Atomic uint64_t v; } dod__atomic_u64;

static inline uint32_t dod__atomic_u32_fetch_add_relaxed(dod__atomic_u32 *a, uint32_t n)
{
    return atomic_fetch_add_explicit(&a->v, n, memory_order_relaxed);
}

static inline void dod__atomic_u64_init(dod__atomic_u64 *a, uint64_t v)
{
    atomic_init(&a->v, v);
}

static inline uint64_t dod__atomic_u64_load_relaxed(dod__atomic_u64 *a)
{
    return atomic_load_explicit(&a->v, memory_order_relaxed);
}

static inline uint64_t dod__atomic_u64_load_acquire(dod__atomic_u64 *a)
{
    return atomic_load_explicit(&a->v, memory_order_acquire);
}

static inline void dod__atomic_u64_store_release(dod__atomic_u64 *a, uint64_t v)
{
    atomic_store_explicit(&a->v, v, memory_order_release);
}

static inline uint64_t dod__atomic_u64_fetch_add_acquire(dod__atomic_u64 *a, uint64_t n)
{
    return atomic_fetch_add_explicit(&a->v, n, memory_order_acquire);
}

static inline uint64_t dod__atomic_u64_fetch_add_relaxed(dod__atomic_u64 *a, uint64_t n)
{
    return atomic_fetch_add_explicit(&a->v, n, memory_order_relaxed);
}

static inline uint64_t dod__atomic_u64_fetch_sub_release(dod__atomic_u64 *a, uint64_t n)
{
    return atomic_fetch_sub_explicit(&a->v, n, memory_order_release);
}

static inline uint64_t dod__atomic_u64_exchange_release(dod__atomic_u64 *a, uint64_t v)
{
    return atomic_exchange_explicit(&a->v, v, memory_order_release);
}
#endif

#endif /* DOD_ATOMIC_H */
