#!/usr/bin/env bash
# Checks that every tracked C++ and CUDA source is formatted as .clang-format says, with the
# clang-format of Debian 12 (version 14: other versions lay out some constructs differently).
# Lists the files that are not and exits 1; exits 77 (CTest's skip) without clang-format 14.
# Fix: clang-format -i FILE...
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null; then
  echo "SKIP: clang-format is not installed (scripts/setup.sh installs it)"
  exit 77
fi
version=$(clang-format --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
if [ "$version" != 14 ]; then
  echo "SKIP: clang-format $version; the sources are formatted with version 14 (Debian 12)"
  exit 77
fi
bad=()
while IFS= read -r f; do
  if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then bad+=("$f"); fi
done < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.cu' '*.cuh')
if [ ${#bad[@]} -gt 0 ]; then
  echo "not clang-formatted (fix: clang-format -i FILE...):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "format: every source is clang-formatted"
