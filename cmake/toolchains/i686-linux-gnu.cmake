# Cross build for i686 Linux, x87 floats and a 32-bit size_t (gcc-i686-linux-gnu,
# g++-i686-linux-gnu, libc6-dev-i386-cross). Programs are linked to the cross libc's loader and
# libraries by absolute path, so no i386 libc needs to be installed. The tests run natively
# where the x86-64 kernel runs i386 programs (IA32 emulation); where it does not ("Exec format
# error"), add -DCMAKE_CROSSCOMPILING_EMULATOR=qemu-i386: plain qemu-i386, WITHOUT
# -L /usr/i686-linux-gnu (qemu-i386 7.2, Debian 12's, given -L spins forever inside
# pthread_create with this glibc). i686-host.sh tells which the host needs; .ci/run asks it.
#   cmake -S . -B build-i686 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/i686-linux-gnu.cmake
set(DOD_CROSS_TRIPLE i686-linux-gnu)
set(CMAKE_SYSTEM_PROCESSOR i686)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "-Wl,--dynamic-linker=/usr/i686-linux-gnu/lib/ld-linux.so.2 -Wl,-rpath,/usr/i686-linux-gnu/lib")
