#!/usr/bin/env bash
# How this host runs the i686 Linux programs that i686-linux-gnu.cmake builds (linked to the
# cross sysroot's loader by absolute path). Prints one word:
#   native     the kernel runs them (an x86-64 kernel with IA32 emulation)
#   qemu-i386  it does not ("Exec format error"), but qemu-user's qemu-i386 does. Run them
#              WITHOUT -L <sysroot>: with it, qemu-i386 7.2 spins forever in pthread_create.
#   none       neither: build, but do not run them
# The probe starts and joins a thread, as the tests do. DOD_CI_I686_FORCE_QEMU=1 skips the
# native try, to check the qemu path on a host that runs i386 programs natively.
#   usage: i686-host.sh [i686 C compiler, default i686-linux-gnu-gcc]
set -u
cc=${1:-i686-linux-gnu-gcc}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/probe.c" <<'PROBE'
#include <pthread.h>
static void *echo(void *p) { return p; }
int main(void)
{
    pthread_t t;
    int x = 0;
    void *r = 0;
    return pthread_create(&t, 0, echo, &x) != 0 || pthread_join(t, &r) != 0 || r != &x;
}
PROBE
# linked as the toolchain file links every program
if ! "$cc" -pthread "$dir/probe.c" -o "$dir/probe" \
  -Wl,--dynamic-linker=/usr/i686-linux-gnu/lib/ld-linux.so.2 -Wl,-rpath,/usr/i686-linux-gnu/lib \
  >/dev/null 2>&1; then
  echo none
elif [ "${DOD_CI_I686_FORCE_QEMU:-0}" != 1 ] && timeout 30 "$dir/probe" >/dev/null 2>&1; then
  echo native
elif command -v qemu-i386 >/dev/null && timeout 60 qemu-i386 "$dir/probe" >/dev/null 2>&1; then
  echo qemu-i386
else
  echo none
fi
