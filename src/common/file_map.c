/* dod_file_map: a read-only mapping of a whole file (POSIX mmap, Win32 MapViewOfFile; elsewhere
 * DOD_E_SYSTEM). */
#if defined(_WIN32)
#  define DOD_FILE_MAP_WIN32 1
#  ifndef WIN32_LEAN_AND_MEAN
#    define WIN32_LEAN_AND_MEAN
#  endif
#  include <windows.h>
#elif defined(__unix__) || defined(__APPLE__)
#  define _POSIX_C_SOURCE 200809L
#  define DOD_FILE_MAP_POSIX 1
#  include <fcntl.h>
#  include <sys/mman.h>
#  include <sys/stat.h>
#  include <unistd.h>
#endif
#include <dod/file_map.h>
#include <stdint.h>
#include "internal.h"

#if defined(DOD_FILE_MAP_WIN32)
/* The path is the narrow string fopen takes (the process's ANSI code page). The file handle
 * and the mapping object are closed at once: the view keeps the file's contents reachable. */
static dod_status map_file(const char *path, const void **data, size_t *size)
{
    HANDLE file = CreateFileA(path, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING,
                              FILE_ATTRIBUTE_NORMAL, NULL);
    if (file == INVALID_HANDLE_VALUE)
        return DOD__FAIL(DOD_E_IO, "CreateFileA(path) failed");
    LARGE_INTEGER len;
    dod_status st = DOD_OK;
    void *p = NULL;
    if (!GetFileSizeEx(file, &len) || len.QuadPart < 0)
        st = DOD__FAIL(DOD_E_IO, "GetFileSizeEx failed");
    else if ((uint64_t)len.QuadPart > SIZE_MAX)
        st = DOD__FAIL(DOD_E_OVERFLOW, "file size > SIZE_MAX");
    else if (len.QuadPart > 0) { /* an empty file cannot be mapped: it maps to nothing */
        HANDLE mapping = CreateFileMappingA(file, NULL, PAGE_READONLY, 0, 0, NULL);
        if (mapping) {
            p = MapViewOfFile(mapping, FILE_MAP_READ, 0, 0, 0);
            CloseHandle(mapping);
        }
        if (!p)
            st = DOD__FAIL(DOD_E_SYSTEM, "CreateFileMapping or MapViewOfFile failed");
    }
    CloseHandle(file);
    if (st == DOD_OK) {
        *data = p;
        *size = (size_t)len.QuadPart;
    }
    return st;
}

static void unmap(const void *data, size_t size)
{
    (void)size;
    UnmapViewOfFile(data);
}
#elif defined(DOD_FILE_MAP_POSIX)
static dod_status map_file(const char *path, const void **data, size_t *size)
{
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
    if (st == DOD_OK) {
        *data = p;
        *size = (size_t)sb.st_size;
    }
    return st;
}

static void unmap(const void *data, size_t size)
{
    munmap((void *)(uintptr_t)data, size);
}
#else
static dod_status map_file(const char *path, const void **data, size_t *size)
{
    (void)path;
    (void)data;
    (void)size;
    return DOD__FAIL(DOD_E_SYSTEM, "no file mapping on this platform");
}

static void unmap(const void *data, size_t size)
{
    (void)data;
    (void)size;
}
#endif

dod_status dod_file_map_open(dod_file_map *map, const char *path)
{
    DOD__REFUSE_IF(!map, DOD_E_INVALID);
    DOD__REFUSE_IF(!path, DOD_E_INVALID);
    const void *data = NULL;
    size_t size = 0;
    dod_status st = map_file(path, &data, &size);
    if (st != DOD_OK)
        return st;
    map->data = data;
    map->size = size;
    return DOD_OK;
}

void dod_file_map_close(dod_file_map *map)
{
    if (!map)
        return;
    if (map->data)
        unmap(map->data, map->size);
    map->data = NULL;
    map->size = 0;
}
