/* Stands in for an optional test whose tool is missing (dod_skipped_test, tests/CMakeLists.txt):
 * prints "<name> skipped: <why>", exits 77 (ctest: skipped). */
#include <stdio.h>

int main(int argc, char **argv)
{
    puts(argc > 1 ? argv[1] : "skipped");
    return 77;
}
