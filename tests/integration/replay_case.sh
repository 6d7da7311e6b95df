#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `preflight report FILE` prints exactly what the command printed live: runs COMMAND ARGS... with --json, keeps
# its stdout, renders the document with `preflight report` (and the same view flags) and compares byte for byte.
# Usage: replay_case.sh "VIEW FLAGS" COMMAND ARGS...   (env: PF_BIN)
set -u
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
view=$1
shift
# shellcheck disable=SC2086  # the view flags are words
timeout 240 "$PF_BIN" "$@" $view --json "$work/doc.json" > "$work/live.txt" 2> "$work/err.txt"
live_rc=$?
[[ -s "$work/doc.json" ]] || { cat "$work/err.txt"; fail "no document written (exit $live_rc)"; }
# shellcheck disable=SC2086
timeout 60 "$PF_BIN" report "$work/doc.json" $view > "$work/replay.txt" 2> "$work/err2.txt"
replay_rc=$?
[[ $live_rc -eq $replay_rc ]] || fail "exit code $live_rc live but $replay_rc from report"
[[ -s "$work/live.txt" ]] || fail "the command printed nothing"
if ! cmp -s "$work/live.txt" "$work/replay.txt"; then
  diff "$work/live.txt" "$work/replay.txt" | head -20
  fail "report does not reproduce what $1 printed"
fi
echo "PASS: report reproduces $1 ($(wc -l < "$work/live.txt") lines, exit $live_rc)"
