/* Builds, copies and checks a small index, and runs tasks on a thread pool, through the
 * installed headers and library, or through the two-file drop-in (DOD_CONSUMER_DROP_IN: dod.h
 * and dod.c compiled with this file). */
#ifdef DOD_CONSUMER_DROP_IN
#  include "dod.h"
#else
#  include <dod/dod.h>
#endif
#include <stdio.h>

static void mark(void *arg, uint32_t index)
{
    ((int *)arg)[index] = 1;
}

/* Four tasks on a pool of two threads each run once (the library's threads link and start). */
static int pool_runs(void)
{
    dod_threadpool *pool = NULL;
    if (dod_threadpool_create(&pool, 2, NULL) != DOD_OK)
        return 0;
    int done[4] = { 0, 0, 0, 0 };
    dod_executor e = dod_threadpool_executor(pool);
    e.run(e.ctx, 4, mark, done);
    dod_threadpool_destroy(pool);
    return done[0] && done[1] && done[2] && done[3];
}

int main(void)
{
    const uint32_t keys[6] = { 2, 0, 2, 1, 0, 2 };
    dod_csr idx, copy;
    dod_csr_init(&idx, NULL);
    dod_csr_init(&copy, NULL);
    dod_status st = dod_csr_build(&idx, 3, keys, sizeof keys[0], 6);
    if (st == DOD_OK)
        st = dod_csr_copy(&copy, &idx);
    int ok = st == DOD_OK && dod_csr_equal(&copy, &idx) && dod_csr_row_len(&idx, 2) == 3 &&
             dod_csr_row_begin(&idx, 2)[0] == 0 && dod_csr_row_begin(&idx, 2)[2] == 5;
    dod_csr_free(&copy);
    dod_csr_free(&idx);
    ok = ok && pool_runs();
    printf("consumer: %s\n", ok ? "ok" : st != DOD_OK ? dod_status_str(st) : "failed");
    return ok ? 0 : 1;
}
