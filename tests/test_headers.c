/* dod/dod.h includes every public header, and nothing else of the project. (That each header
 * compiles alone, as C11 and as C++ with the project's warnings, is checked by building this
 * test: tests/CMakeLists.txt compiles one translation unit per header per language into it.) */
#include <stdio.h>
#include <string.h>
#include "check.h"

static void test_umbrella_includes_every_header(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/include/dod/dod.h", DOD_SOURCE_DIR);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (!f)
        return;
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    int headers = 0;
    for (const char *h = DOD_PUBLIC_HEADERS; *h;) {
        const char *semi = strchr(h, ',');
        size_t len = semi ? (size_t)(semi - h) : strlen(h);
        char line[256];
        snprintf(line, sizeof line, "#include <dod/%.*s>", (int)len, h);
        int umbrella = len == 5 && memcmp(h, "dod.h", 5) == 0;
        if (!umbrella) {
            ++headers;
            if (!strstr(text, line))
                fprintf(stderr, "  dod.h lacks %s\n", line);
            CHECK(strstr(text, line) != NULL);
        }
        h += len + (semi ? 1 : 0);
    }
    CHECK(headers >= 15);
    /* and it includes nothing that is not a public header */
    int includes = 0;
    for (const char *p = strstr(text, "#include"); p; p = strstr(p + 1, "#include"))
        ++includes;
    CHECK_EQ(includes, headers);
}

int main(void)
{
    test_umbrella_includes_every_header();
    return check_summary("headers");
}
