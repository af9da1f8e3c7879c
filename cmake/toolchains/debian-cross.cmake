# Shared by the Linux cross toolchains: Debian's <triple>-gcc / -g++ and the cross sysroot in
# /usr/<triple> (from libc6-dev-<arch>-cross). Set DOD_CROSS_TRIPLE and CMAKE_SYSTEM_PROCESSOR
# before including this.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_C_COMPILER ${DOD_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${DOD_CROSS_TRIPLE}-g++)
set(CMAKE_FIND_ROOT_PATH /usr/${DOD_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
