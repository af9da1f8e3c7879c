/* dod/dod.h includes every public header, and nothing else of the project. (That each header
 * compiles alone, as C11 and as C++ with the project's warnings, is checked by building this
 * test: tests/CMakeLists.txt compiles one translation unit per header per language into it.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

static void test_umbrella_includes_every_header(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/include/dod/dod.h", DOD_SOURCE_DIR);
    char *text = test_read_text(path);
    if (!text)
        return;
    int headers = 0;
    const char *list = DOD_PUBLIC_HEADERS;
    char header[128];
    while (test_list_next(&list, header, sizeof header)) {
        if (strcmp(header, "dod.h") == 0)
            continue;
        char line[256];
        snprintf(line, sizeof line, "#include <dod/%s>", header);
        ++headers;
        if (!strstr(text, line))
            fprintf(stderr, "  dod.h lacks %s\n", line);
        CHECK(strstr(text, line) != NULL);
    }
    CHECK(headers >= 15);
    /* and it includes nothing that is not a public header */
    int includes = 0;
    for (const char *p = strstr(text, "#include"); p; p = strstr(p + 1, "#include"))
        ++includes;
    CHECK_EQ(includes, headers);
    free(text);
}

int main(void)
{
    test_umbrella_includes_every_header();
    return check_summary("headers");
}
