/* dod/file_map.h: a whole file mapped read-only into memory, for zero-copy views of saved
 * indexes (dod/csr_view.h) and any other read-only data a game loads.
 *
 * The map is page-aligned, so a view opened over it works in place, and the operating system
 * pages it in on demand. A dod_file_map is a plain struct the caller owns; it holds an OS
 * mapping, so it is opened and closed rather than initialised and freed.
 *
 * Thread safety: open and close need exclusive access to the map; the mapped bytes may be read
 * by any number of threads while the map is open. */
#ifndef DOD_FILE_MAP_H
#define DOD_FILE_MAP_H

#include <dod/base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A read-only mapping of a whole file: a caller-owned struct, dod_file_map_open /
 * dod_file_map_close. data and size are the caller's to read. */
typedef struct dod_file_map {
    const void *data; /* the file's bytes; NULL for an empty file or a closed map */
    size_t size;      /* bytes mapped */
} dod_file_map;

/* Map the file at path read-only (the file handle is closed again at once; the mapping keeps
 * the file's contents reachable). On success *map holds the mapping; close it with
 * dod_file_map_close. An empty file maps to { NULL, 0 }.
 * Errors (*map untouched): DOD_E_INVALID (map or path NULL), DOD_E_IO (the file cannot be
 * opened or measured), DOD_E_OVERFLOW (the file is larger than size_t), DOD_E_SYSTEM (the
 * operating system refused the mapping, or this platform has no file mapping: read the file
 * into a buffer instead). */
DOD_API dod_status dod_file_map_open(dod_file_map *map, const char *path);

/* Unmap and reset to { NULL, 0 }. NULL and a closed (or zeroed) map are no-ops. Invalidates
 * every pointer into the mapped bytes, views included. */
DOD_API void dod_file_map_close(dod_file_map *map);

#ifdef __cplusplus
}
#endif

#endif /* DOD_FILE_MAP_H */
