#!/usr/bin/env bash
# Install dod (static and shared) into build/consumer/prefix-*, then build and run the consumer
# through find_package and pkg-config, once through add_subdirectory of the source tree, and
# from the two-file drop-in alone (dist/dod.h, dist/dod.c) with gcc, clang, MinGW-w64 (run under
# Wine) and i686 (run natively, or under qemu-i386 where the kernel cannot: i686-host.sh), each
# with the project's warnings as errors.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/build/consumer
here=$root/tests/consumer
rm -rf "$out"
for shared in OFF ON; do
  prefix=$out/prefix-$shared
  cmake -S "$root" -B "$out/dod-$shared" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=$shared \
    -DDOD_BUILD_TESTS=OFF -DDOD_BUILD_BENCH=OFF -DDOD_BUILD_EXAMPLES=OFF \
    -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
  cmake --build "$out/dod-$shared" -j 2 >/dev/null
  cmake --install "$out/dod-$shared" >/dev/null
  libdir=$(ls -d "$prefix"/lib*)

  echo "-- find_package, BUILD_SHARED_LIBS=$shared"
  cmake -S "$here" -B "$out/find-$shared" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  cmake --build "$out/find-$shared" >/dev/null
  LD_LIBRARY_PATH=$libdir "$out/find-$shared/consumer"

  if command -v pkg-config >/dev/null; then
    echo "-- pkg-config, BUILD_SHARED_LIBS=$shared"
    static=$([ "$shared" = OFF ] && echo --static || true)
    flags=$(PKG_CONFIG_PATH=$libdir/pkgconfig pkg-config --cflags --libs $static dod)
    # shellcheck disable=SC2086
    cc -std=c11 "$here/main.c" $flags -o "$out/pc-$shared"
    LD_LIBRARY_PATH=$libdir "$out/pc-$shared"
  else
    echo "-- pkg-config skipped: pkg-config not found (Debian: apt-get install pkg-config)"
  fi
done
echo "-- add_subdirectory"
cmake -S "$here" -B "$out/subdir" -DDOD_CONSUMER_SUBDIR=ON -DDOD_SOURCE_DIR="$root" >/dev/null
cmake --build "$out/subdir" -j 2 >/dev/null
"$out/subdir/consumer"

warnings=(-std=c11 -O2 -Wall -Wextra -Wpedantic -Werror -Wshadow -Wconversion -Wsign-conversion
  -Wcast-qual -Wundef -Wvla -Wstrict-prototypes -Wmissing-prototypes)
# drop_in NAME COMPILER RUNNER [link flags]: build the consumer from main.c, dist/dod.h and
# dist/dod.c alone and run it (RUNNER: a command put in front of the program, "" for none, or
# "-" to build it without running it; DROP_IN_NOTE, when set, is said with the name).
drop_in() {
  local name=$1 cc=$2 runner=$3 exe=$out/drop-in-$1
  shift 3
  if ! command -v "$cc" >/dev/null; then
    echo "-- drop-in, $name: skipped, $cc not found"
    return 0
  fi
  echo "-- drop-in, $name${DROP_IN_NOTE:+ ($DROP_IN_NOTE)}"
  "$cc" "${warnings[@]}" -DDOD_CONSUMER_DROP_IN -I"$root/dist" "$here/main.c" "$root/dist/dod.c" \
    "$@" -o "$exe"
  if [ "$runner" = - ]; then
    return 0
  fi
  # shellcheck disable=SC2086
  $runner "$exe"
}
# The i686 consumer runs as the i686 tests do in .ci/run: natively, else under plain qemu-i386,
# else it is only built.
i686_run=-
i686_note="built only: this host runs i386 programs neither natively nor under qemu-i386"
if command -v i686-linux-gnu-gcc >/dev/null; then
  case $("$root/cmake/toolchains/i686-host.sh") in
    native)
      i686_run=""
      i686_note="runs natively" ;;
    qemu-i386)
      i686_run=qemu-i386
      i686_note="runs under qemu-i386: this kernel does not run i386 programs" ;;
  esac
fi
drop_in gcc gcc "" -pthread
drop_in clang clang "" -pthread
DROP_IN_NOTE=$i686_note drop_in i686 i686-linux-gnu-gcc "$i686_run" -pthread \
  -Wl,--dynamic-linker=/usr/i686-linux-gnu/lib/ld-linux.so.2 -Wl,-rpath,/usr/i686-linux-gnu/lib
drop_in mingw.exe x86_64-w64-mingw32-gcc "$root/cmake/toolchains/wine-run.sh $out" -static
echo "-- drop-in, dod.h as C++"
c++ -std=c++17 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -x c++ "$root/dist/dod.h"
