#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright (c) 2026 The Preflight authors
#
# Every path into the repository that `preflight --help` or a command's --help names (an example's fixture
# tree, a doc, a rules folder) exists, so an example copied from the help runs. A path is a word that starts
# with one of the repository's top folders and a '/'; placeholders (<category>) are left out.
# Usage: help_paths.sh REPO_ROOT. Environment: PF_BIN.
set -uo pipefail
root=$1
fail() {
  echo "FAIL: $*"
  exit 1
}
# CLI11 lists the commands under "Subcommands:", one "  name  summary" line each, up to a blank line.
commands=$("$PF_BIN" --help | awk 'tolower($0) ~ /^subcommands:/ {on = 1; next} on && NF == 0 {exit} on && /^  [a-z]/ {print $1}')
[[ -n $commands ]] || fail "no command listed by preflight --help"
tops=$(cd "$root" && find . -mindepth 1 -maxdepth 1 -type d ! -name '.*' -printf '%f\n' | paste -sd'|')
checked=0 missing=()
for cmd in "" $commands; do
  # shellcheck disable=SC2086  # $cmd is one word or none
  text=$("$PF_BIN" $cmd --help 2>&1) || fail "preflight $cmd --help exited $?"
  while read -r path; do
    [[ -z $path || $path == *'<'* || $path == *'*'* ]] && continue
    path=${path%%[.,;:)]}  # the end of a sentence
    checked=$((checked + 1))
    [[ -e $root/$path ]] || missing+=("preflight $cmd --help names $path")
  done < <(grep -oE "(^|[ (=])($tops)/[A-Za-z0-9_./<>*-]*" <<< "$text" | sed -E 's/^[ (=]//')
done
[[ ${#missing[@]} -eq 0 ]] || fail "$(printf '%s; ' "${missing[@]}")"
[[ $checked -gt 0 ]] || fail "no path found in any --help: the test reads nothing"
echo "PASS ($checked paths in the help of $(wc -w <<< "$commands") commands)"
