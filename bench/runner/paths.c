/* Paths in the results folder, and how the runner shows a path to a person. */
#define _POSIX_C_SOURCE 200809L
#include "runner.h"
#include <string.h>
#include <unistd.h>

void results_path(char *out, size_t size, const char *results_dir, const char *name)
{
    snprintf(out, size, "%s/%s", results_dir, name);
}

const char *shown_path(const char *path)
{
    static char cwd[1024];
    size_t n;
    if (!getcwd(cwd, sizeof cwd) || (n = strlen(cwd)) == 0 || strncmp(path, cwd, n) != 0 ||
        path[n] != '/')
        return path;
    return path + n + 1;
}
