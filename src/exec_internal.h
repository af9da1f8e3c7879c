/* The thread pool's one seam for tests: how it starts a worker. */
#ifndef DOD_EXEC_INTERNAL_H
#define DOD_EXEC_INTERNAL_H

#include <pthread.h>

/* Starts a worker running fn(arg); returns 0 or an error number, as pthread_create does.
 * The default calls pthread_create; tests point it elsewhere to make the k-th start fail. */
extern int (*dod__exec_start_thread)(pthread_t *thread, void *(*fn)(void *), void *arg);

#endif
