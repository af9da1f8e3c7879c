#!/bin/sh
# wine-run.sh BUILD_DIR PROGRAM [ARGS...]: run a Windows program under Wine for ctest, with a
# private prefix in BUILD_DIR/wine (made once, under a lock, since ctest runs tests in
# parallel), no debug chatter, and BUILD_DIR on the DLL search path (libdod.dll of a shared
# build). Debian's wine64 is not on PATH: /usr/lib/wine/wine64.
set -e
build=$1
shift
wine=$(command -v wine64 || echo /usr/lib/wine/wine64)
export WINEPREFIX="$build/wine" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
export WINEPATH="Z:$(printf '%s' "$build" | tr / '\\')"
if [ ! -f "$WINEPREFIX/.ready" ]; then
  mkdir -p "$build"
  (
    flock 9
    if [ ! -f "$WINEPREFIX/.ready" ]; then
      "$wine" wineboot --init >/dev/null 2>&1 || true
      touch "$WINEPREFIX/.ready"
    fi
  ) 9>"$build/wine.lock"
fi
exec "$wine" "$@"
