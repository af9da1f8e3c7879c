/* dod_file_map: a read-only mapping of a whole file (POSIX mmap; elsewhere DOD_E_SYSTEM). */
#if defined(__unix__) || defined(__APPLE__)
#  define _POSIX_C_SOURCE 200809L
#  define DOD_HAVE_MMAP 1
#  include <fcntl.h>
#  include <sys/mman.h>
#  include <sys/stat.h>
#  include <unistd.h>
#else
#  define DOD_HAVE_MMAP 0
#endif
#include <dod/file_map.h>
#include <stdint.h>
#include "internal.h"

dod_status dod_file_map_open(dod_file_map *map, const char *path)
{
    DOD__REFUSE_IF(!map, DOD_E_INVALID);
    DOD__REFUSE_IF(!path, DOD_E_INVALID);
#if DOD_HAVE_MMAP
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return DOD__FAIL(DOD_E_IO, "open(path) failed");
    struct stat sb;
    dod_status st = DOD_OK;
    void *p = NULL;
    if (fstat(fd, &sb) != 0 || sb.st_size < 0)
        st = DOD__FAIL(DOD_E_IO, "fstat failed");
    else if ((uintmax_t)sb.st_size > SIZE_MAX)
        st = DOD__FAIL(DOD_E_OVERFLOW, "file size > SIZE_MAX");
    else if (sb.st_size > 0) {
        p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED)
            st = DOD__FAIL(DOD_E_SYSTEM, "mmap failed");
    }
    close(fd);
    if (st != DOD_OK)
        return st;
    map->data = p;
    map->size = (size_t)sb.st_size;
    return DOD_OK;
#else
    return DOD__FAIL(DOD_E_SYSTEM, "no file mapping on this platform");
#endif
}

void dod_file_map_close(dod_file_map *map)
{
    if (!map)
        return;
#if DOD_HAVE_MMAP
    if (map->data)
        munmap((void *)(uintptr_t)map->data, map->size);
#endif
    map->data = NULL;
    map->size = 0;
}
