/* The thread pool's one seam for tests: how it starts a worker. */
#ifndef DOD_EXEC_INTERNAL_H
#define DOD_EXEC_INTERNAL_H

#include "thread.h"

/* Starts a worker as dod__thread_start does (0 or non-zero). Only in the tests' build of the
 * library (DOD_TEST_SEAMS): tests point it elsewhere to make the k-th start fail. */
#ifdef DOD_TEST_SEAMS
extern int (*dod__exec_start_thread)(dod__thread *thread, dod__thread_fn fn, void *arg);
#endif

#endif
