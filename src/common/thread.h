/* Threads, mutexes and condition variables: Win32 on Windows (MinGW and MSVC alike), POSIX
 * threads elsewhere. Only what the thread pool and the tests use (the tests start their own
 * threads with it too); not installed.
 *
 * Every call that can fail returns 0 on success and non-zero on failure. A dod__thread runs
 * fn(arg) and must stay where it is until joined (it holds fn and arg for the new thread). */
#ifndef DOD_THREAD_H
#define DOD_THREAD_H

typedef void (*dod__thread_fn)(void *arg);

#ifdef _WIN32
#  ifndef WIN32_LEAN_AND_MEAN
#    define WIN32_LEAN_AND_MEAN
#  endif
#  include <windows.h>

typedef struct dod__thread {
    HANDLE handle;
    dod__thread_fn fn;
    void *arg;
} dod__thread;
typedef SRWLOCK dod__mutex;
typedef CONDITION_VARIABLE dod__cond;

static inline DWORD WINAPI dod__thread_main(LPVOID self)
{
    const dod__thread *t = (const dod__thread *)self;
    t->fn(t->arg);
    return 0;
}

static inline int dod__thread_start(dod__thread *t, dod__thread_fn fn, void *arg)
{
    t->fn = fn;
    t->arg = arg;
    t->handle = CreateThread(NULL, 0, dod__thread_main, t, 0, NULL);
    return t->handle == NULL;
}

static inline void dod__thread_join(dod__thread *t)
{
    WaitForSingleObject(t->handle, INFINITE);
    CloseHandle(t->handle);
}

/* SRW locks and condition variables need no destruction and cannot fail to initialise. */
static inline int dod__mutex_init(dod__mutex *m)
{
    InitializeSRWLock(m);
    return 0;
}
static inline void dod__mutex_destroy(dod__mutex *m) { (void)m; }
static inline void dod__mutex_lock(dod__mutex *m) { AcquireSRWLockExclusive(m); }
static inline void dod__mutex_unlock(dod__mutex *m) { ReleaseSRWLockExclusive(m); }

static inline int dod__cond_init(dod__cond *c)
{
    InitializeConditionVariable(c);
    return 0;
}
static inline void dod__cond_destroy(dod__cond *c) { (void)c; }
static inline void dod__cond_wait(dod__cond *c, dod__mutex *m)
{
    SleepConditionVariableSRW(c, m, INFINITE, 0);
}
static inline void dod__cond_signal(dod__cond *c) { WakeConditionVariable(c); }
static inline void dod__cond_broadcast(dod__cond *c) { WakeAllConditionVariable(c); }

#else
#  include <pthread.h>

typedef struct dod__thread {
    pthread_t handle;
    dod__thread_fn fn;
    void *arg;
} dod__thread;
typedef pthread_mutex_t dod__mutex;
typedef pthread_cond_t dod__cond;

static inline void *dod__thread_main(void *self)
{
    const dod__thread *t = (const dod__thread *)self;
    t->fn(t->arg);
    return NULL;
}

static inline int dod__thread_start(dod__thread *t, dod__thread_fn fn, void *arg)
{
    t->fn = fn;
    t->arg = arg;
    return pthread_create(&t->handle, NULL, dod__thread_main, t);
}

static inline void dod__thread_join(dod__thread *t) { pthread_join(t->handle, NULL); }

static inline int dod__mutex_init(dod__mutex *m) { return pthread_mutex_init(m, NULL); }
static inline void dod__mutex_destroy(dod__mutex *m) { pthread_mutex_destroy(m); }
static inline void dod__mutex_lock(dod__mutex *m) { pthread_mutex_lock(m); }
static inline void dod__mutex_unlock(dod__mutex *m) { pthread_mutex_unlock(m); }

static inline int dod__cond_init(dod__cond *c) { return pthread_cond_init(c, NULL); }
static inline void dod__cond_destroy(dod__cond *c) { pthread_cond_destroy(c); }
static inline void dod__cond_wait(dod__cond *c, dod__mutex *m) { pthread_cond_wait(c, m); }
static inline void dod__cond_signal(dod__cond *c) { pthread_cond_signal(c); }
static inline void dod__cond_broadcast(dod__cond *c) { pthread_cond_broadcast(c); }
#endif

#endif /* DOD_THREAD_H */
