#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Formatting check: every tracked C++ and CUDA source (*.cpp *.hpp *.cu *.cuh) must be what clang-format makes of
# it with the repository's .clang-format (Google style, 120 columns). Lists the files that differ and prints the
# one command that reformats them. CLANG_FORMAT picks the binary (default: clang-format, Debian 12's is 14).
set -euo pipefail
cd "$(dirname "$0")/.."
clang_format=${CLANG_FORMAT:-clang-format}
if ! command -v "$clang_format" >/dev/null 2>&1; then
  echo "check_format: $clang_format not found; install it (apt-get install clang-format, or bash ci/install-deps.sh --test)"
  exit 1
fi
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh')
# One clang-format run over all files: with --dry-run --Werror it reports every violation as
# "FILE:LINE:COL: error: code should be clang-formatted [-Wclang-format-violations]" and formats nothing.
status=0
out=$("$clang_format" --style=file --dry-run --Werror "${files[@]}" 2>&1) || status=$?
mapfile -t bad < <(sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' <<<"$out" | sort -u)
if ((${#bad[@]} == 0 && status != 0)); then
  echo "check_format: $clang_format failed:"
  tail -20 <<<"$out"
  exit 1
fi
if ((${#bad[@]} == 0)); then
  echo "check_format: ${#files[@]} files match .clang-format ($("$clang_format" --version | head -1))"
  exit 0
fi
echo "check_format: ${#bad[@]} of ${#files[@]} files differ from .clang-format:"
printf '  %s\n' "${bad[@]}"
echo "check_format: fix them all with:"
echo "  git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh' | xargs $clang_format -i --style=file"
exit 1
