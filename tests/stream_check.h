/* Streams holding given bytes, for the file tests (test_csr_io, test_world_io): a seekable
 * tmpfile and a pipe that cannot seek. A test that includes this defines _POSIX_C_SOURCE
 * before its first #include (pipe, fdopen). */
#ifndef DOD_TEST_STREAM_CHECK_H
#define DOD_TEST_STREAM_CHECK_H

#include <stdio.h>
#ifdef _WIN32
#  include <fcntl.h>
#  include <io.h>
#else
#  include <unistd.h>
#endif
#include "check.h"

/* A tmpfile holding len bytes, positioned at its start. */
static inline FILE *file_with(const void *p, size_t len)
{
    FILE *f = tmpfile();
    if (len)
        CHECK_EQ(fwrite(p, 1, len, f), len);
    rewind(f);
    return f;
}

/* A stream that cannot seek: a pipe already holding len (< 64 KiB) bytes, write end closed. */
static inline FILE *pipe_with(const void *p, size_t len)
{
    int fds[2];
#ifdef _WIN32
    if (_pipe(fds, 65536, _O_BINARY) != 0)
        return NULL;
    CHECK_EQ((size_t)_write(fds[1], p, (unsigned)len), len);
    _close(fds[1]);
    return _fdopen(fds[0], "rb");
#else
    if (pipe(fds) != 0)
        return NULL;
    CHECK_EQ((size_t)write(fds[1], p, len), len);
    close(fds[1]);
    return fdopen(fds[0], "rb");
#endif
}

#endif
