# Cross build for i686 Linux with Debian's cross compilers (gcc-i686-linux-gnu, g++-i686-linux-gnu),
# x87 floats and a 32-bit size_t. The tests run natively: an x86-64 Linux kernel runs i386
# programs, and the cross libc comes from /usr/i686-linux-gnu through the rpath below.
# (qemu-i386 7.2, Debian 12's, spins forever inside pthread_create with this glibc, even for a
# ten-line program, so it cannot run the thread tests.)
#   cmake -S . -B build-i686 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/i686-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR i686)
set(CMAKE_C_COMPILER i686-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER i686-linux-gnu-g++)
set(CMAKE_FIND_ROOT_PATH /usr/i686-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# The cross libc's loader and libraries, so no i386 libc needs to be installed on the host.
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "-Wl,--dynamic-linker=/usr/i686-linux-gnu/lib/ld-linux.so.2 -Wl,-rpath,/usr/i686-linux-gnu/lib")
