#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# User docs describe current behaviour in the present tense (docs/developing.md): a dated measurement, a session's
# experiment or "before this change" belongs in docs/performance.md (or docs/validation/), where a user doc links
# to it. Lists each offending line as file:line and fails. Dates followed by a time of day (sample output, log
# timestamps such as [2026-04-22 21:34:20] or root@2026-11-24T09:09:17) are not measurements and pass.
set -euo pipefail
cd "$(dirname "$0")/.."
# Developer docs and the measurement records are exempt; everything else under docs/ is a user doc.
mapfile -t docs < <(git ls-files --cached --others --exclude-standard README.md 'docs/*.md' | grep -v -E '^docs/(performance|reliability|developing)\.md$|^docs/validation/')
date_re='(?<![0-9])20[0-9]{2}-[01][0-9]-[0-3][0-9](?![T ][0-9]{2}:[0-9]{2})(?![0-9])'
words='before this change|after this change|since this change|this session|(the|a|later|same|previous|next) session\b'
words+='|\bsession [0-9]+|\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth'
words+='|thirteenth|fourteenth|fifteenth|sixteenth|[0-9]+(st|nd|rd|th)) session\b|today.s (binary|VM|machine)'
fail=0
for f in "${docs[@]}"; do
  while IFS= read -r hit; do
    echo "check_user_docs: $f:${hit%%:*}: dated or session history in a user doc (move it to docs/performance.md): ${hit#*:}"
    fail=1
  done < <(grep -n -i -P "$date_re|$words" "$f" | cut -c1-200 || true)
done
exit $fail
