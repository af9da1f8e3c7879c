/* Stands in for an interop test whose consumer is missing: says why, exits 77 (ctest: skipped). */
#include <stdio.h>

int main(int argc, char **argv)
{
    puts(argc > 1 ? argv[1] : "skipped");
    return 77;
}
