#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Reads a `ctest --output-on-failure` log and prints "yes" when it has failed tests and every failed test's output
# holds LeakSanitizer's "has encountered a fatal error" (its tracer crashing, not a leak report), else "no".
# Used by ci/sanitize.sh to run such tests once more.
#   ci/lsan_tracer_only.sh LOG
set -euo pipefail
awk '
  # A result line: "N/M Test #K: name ....***Failed ..." (or Timeout / Exception), its output follows.
  /^ *[0-9]+\/[0-9]+ Test +#[0-9]+:/ {
    if (open && !seen) bad = 1
    open = ($0 ~ /\*\*\*(Failed|Timeout|Exception)/)
    failed += open
    seen = 0
    next
  }
  /^ +Start +[0-9]+:/ { if (open && !seen) bad = 1; open = 0; next }
  open && /LeakSanitizer has encountered a fatal error/ { seen = 1 }
  END {
    if (open && !seen) bad = 1
    print (failed > 0 && !bad) ? "yes" : "no"
  }' "$1"
