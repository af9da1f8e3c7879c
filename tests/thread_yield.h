/* Give the processor to another ready thread, if any: tests that wait on other threads. Kept
 * out of src/common/thread.h, where the library (and the one-file dist/dod.c) has no use for it. */
#ifndef DOD_TEST_THREAD_YIELD_H
#define DOD_TEST_THREAD_YIELD_H

#ifdef _WIN32
#  ifndef WIN32_LEAN_AND_MEAN
#    define WIN32_LEAN_AND_MEAN
#  endif
#  include <windows.h>
static inline void test_thread_yield(void) { SwitchToThread(); }
#else
#  include <sched.h>
static inline void test_thread_yield(void) { sched_yield(); }
#endif

#endif /* DOD_TEST_THREAD_YIELD_H */
