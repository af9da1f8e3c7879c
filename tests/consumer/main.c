/* Builds, copies and checks a small index through the installed headers and library. */
#include <dod/dod.h>
#include <stdio.h>

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
    printf("consumer: %s\n", ok ? "ok" : dod_status_str(st));
    return ok ? 0 : 1;
}
