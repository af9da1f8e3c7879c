#!/usr/bin/env bash
# Shows that the loops bench_world times vectorise: compiles bench/world/kernels.c as the
# Release build does (-O3; OPT=-O2 to try another level) with gcc's -fopt-info-vec-optimized
# and clang's -Rpass='loop-vectorize|slp-vectorizer', and prints each report line with
# the function it falls in: step_move is the typed block loop's step, step_iterate and
# step_double the query loops' kernels. Exits 1 when one of them has no vectorised loop.
#   bench/world/vec_report.sh [compiler...]     (default: gcc and clang)
set -euo pipefail
cd "$(dirname "$0")/../.."
src=bench/world/kernels.c
kernels=(step_move step_iterate step_double)
compilers=("$@")
[ ${#compilers[@]} -eq 0 ] && compilers=(gcc clang)

# The function a line of $src falls in: the last definition opened at column 0 above it.
func_at() {
  awk -v l="$1" '/^[a-z].*\(/ { f = $0 } NR == l { sub(/\(.*/, "", f); sub(/.*[ *]/, "", f); print f; exit }' "$src"
}

status=0
for cc in "${compilers[@]}"; do
  if ! command -v "$cc" >/dev/null; then
    echo "$cc: not installed, skipped"
    continue
  fi
  if "$cc" --version | grep -q clang; then
    report=('-Rpass=loop-vectorize|slp-vectorizer') # one -Rpass: a second one replaces it
  else
    report=(-fopt-info-vec-optimized)
  fi
  echo "$("$cc" --version | head -1) ${OPT:--O3} ${report[*]}:"
  lines=$("$cc" -std=c11 "${OPT:--O3}" -DNDEBUG -Iinclude -Ibench/common "${report[@]}" \
            -c "$src" -o /dev/null 2>&1 | grep -E "^$src:[0-9]+" || true)
  found=""
  while IFS= read -r line; do
    [ -z "$line" ] && continue
    f=$(func_at "$(echo "$line" | cut -d: -f2)")
    found="$found $f"
    echo "  [$f] $line"
  done <<< "$lines"
  for k in "${kernels[@]}"; do
    if [[ " $found " != *" $k "* ]]; then
      echo "  MISSING: no vectorised loop in $k"
      status=1
    fi
  done
done
exit $status
