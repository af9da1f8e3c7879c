// The public headers compile as C++ and link against the C library.
#include <dod/dod.h>
#include <cstdio>
#include <vector>
#include "check.h"

int main()
{
    std::vector<uint32_t> keys = { 2, 0, 1, 2 };
    dod_csr idx;
    dod_csr_init(&idx, nullptr);
    CHECK_OK(dod_csr_build(&idx, 3, keys.data(), sizeof(uint32_t), (uint32_t)keys.size()));
    CHECK_EQ(dod_csr_row_len(&idx, 2), 2u);
    CHECK_EQ(*dod_csr_row_begin(&idx, 0), 1u);
    dod_csr_free(&idx);
    dod_arena arena;
    dod_arena_init(&arena, 0, nullptr);
    void *p = nullptr;
    CHECK_OK(dod_arena_push(&arena, 16, 16, &p));
    dod_arena_free(&arena);
    return check_summary("test_cpp");
}
