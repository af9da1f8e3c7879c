#!/usr/bin/env bash
# Install dod (static and shared) into build/consumer/prefix-*, then build and run the consumer
# through find_package and pkg-config, and once through add_subdirectory of the source tree.
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
