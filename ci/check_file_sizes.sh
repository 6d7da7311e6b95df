#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# File-size discipline (docs/developing.md): no source file past the hard cap of 800 lines; files past the
# soft cap of 400 are listed as a nudge to split.
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0
while read -r f; do
  n=$(wc -l < "$f")
  if ((n > 800)); then echo "check_file_sizes: $f has $n lines (hard cap 800)"; fail=1;
  elif ((n > 400)); then echo "check_file_sizes: note: $f has $n lines (soft cap 400)"; fi
done < <(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.h' 2>/dev/null)
exit $fail
