# Cross build for i686 Linux, x87 floats and a 32-bit size_t (gcc-i686-linux-gnu,
# g++-i686-linux-gnu, libc6-dev-i386-cross). The tests run natively: an x86-64 Linux kernel
# runs i386 programs, and they are linked to the cross libc's loader and libraries, so no i386
# libc needs to be installed. (qemu-i386 7.2, Debian 12's, spins forever inside pthread_create
# with this glibc, even for a ten-line program, so it cannot run the thread tests.)
#   cmake -S . -B build-i686 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/i686-linux-gnu.cmake
set(DOD_CROSS_TRIPLE i686-linux-gnu)
set(CMAKE_SYSTEM_PROCESSOR i686)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "-Wl,--dynamic-linker=/usr/i686-linux-gnu/lib/ld-linux.so.2 -Wl,-rpath,/usr/i686-linux-gnu/lib")
