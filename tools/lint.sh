#!/usr/bin/env bash
# The linters CI runs over the library's sources: cppcheck (warning, performance and
# portability checks) and clang-tidy (the checks chosen in .clang-tidy). Exits non-zero on any
# finding.   tools/lint.sh [BUILD_DIR]   (default build/lint; configured here if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/lint}"
missing=()
command -v cppcheck >/dev/null || missing+=(cppcheck)
command -v clang-tidy >/dev/null || missing+=(clang-tidy)
if [ ${#missing[@]} -gt 0 ]; then
  echo "lint: skipped, not installed: ${missing[*]}"
  exit 0
fi

echo "cppcheck $(cppcheck --version | cut -d' ' -f2)"
cppcheck --std=c11 --enable=warning,performance,portability --inline-suppr --error-exitcode=1 \
  -q -Iinclude $(printf -- '-I%s ' src/*/) src

cmake -S . -B "$out" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
echo "clang-tidy $(clang-tidy --version | grep -o 'version [0-9.]*')"
# The findings are judged from the log below, not from the pipeline's status (a clean run
# prints nothing, and a grep that selects no line fails).
{ printf '%s\n' src/*/*.c | xargs -P 2 -n 4 clang-tidy -p "$out" --quiet 2>&1 || true; } |
  { grep -v '^[0-9]* warnings\? generated\.$' || true; } | tee "$out/clang-tidy.log"
if grep -q -e 'error:' -e 'warning:' "$out/clang-tidy.log"; then
  echo "lint: clang-tidy findings above"
  exit 1
fi
echo "lint: clean"
