#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `check --history` from concurrent checks into one file, then `preflight history` on it. Real checks on the
# captured tree tests/fixtures/ib-ndr-8hca: one with a profile the tree meets (passes), one with a profile that
# wants 64 GPUs (fails: missing), so the node genuinely fails and passes by turns. Three rounds of three checks
# started at once (one of each round with two ranks, so its all-reduce gives the node a bandwidth figure):
#   the file       9 runs, `sqlite3 FILE 'PRAGMA integrity_check'` says ok, each run's exit code as the check's
#   history        lists every run, names the node among those that failed 2 of their last 5 checks (as many as
#                  sqlite3 counts), and charts its all-reduce busbw in HTML; --strict makes that exit 1
#   bad input      a text file, a missing file, an unwritable folder, --flapping 3/2: exit 2 with the reason, the
#                  text file untouched
# Usage: history_case.sh SOURCE_DIR   (env: PF_BIN)
set -u
src=$1
tree=$src/tests/fixtures/ib-ndr-8hca
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
db=$work/runs/history.db  # its directory is made by the first check

# The tree has 8 GPUs and 8 InfiniBand HCAs (and one GPU at x8, one port at 2X: warnings the profiles leave alone).
printf '[gpu]\ncount = 8\n\n[ib]\ncount = 8\n' > "$work/good.toml"
printf '[gpu]\ncount = 64\n' > "$work/bad.toml"

expected_fail=0
for round in 0 1 2; do
  pids=() want=()
  for i in 0 1 2; do
    profile=good ranks=()
    (((i + round) % 2 == 0)) && profile=bad
    ((i == 1)) && ranks=(--local-ranks 2)
    timeout 180 "$PF_BIN" check --no-pairs --sysfs-root "$tree" --profile "$work/$profile.toml" "${ranks[@]}" \
      --history "$db" > "$work/check.$round.$i.txt" 2>&1 &
    pids+=($!)
    want+=("$([[ $profile == bad ]] && echo 1 || echo 0)")
    [[ $profile == bad ]] && ((expected_fail++))
  done
  for i in 0 1 2; do
    wait "${pids[$i]}"
    rc=$?
    [[ $rc -eq ${want[$i]} ]] || { cat "$work/check.$round.$i.txt"; fail "check $round.$i exited $rc, not ${want[$i]}"; }
  done
done
grep -l "not added to the history" "$work"/check.*.txt && fail "a check did not write its run"

[[ $(sqlite3 "$db" 'PRAGMA integrity_check') == ok ]] || fail "integrity_check: $(sqlite3 "$db" 'PRAGMA integrity_check')"
[[ $(sqlite3 "$db" 'SELECT count(*) FROM runs') -eq 9 ]] || fail "$(sqlite3 "$db" 'SELECT count(*) FROM runs') runs, not 9"
[[ $(sqlite3 "$db" 'SELECT count(*) FROM runs WHERE exit_code = 1') -eq $expected_fail ]] ||
  fail "failed runs in the file differ from the $expected_fail checks that failed"
[[ $(sqlite3 "$db" 'SELECT count(*) FROM nodes WHERE allreduce_busbw_gbps > 0') -eq 3 ]] ||
  fail "expected the 3 two-rank checks to record an all-reduce figure"
host=$(sqlite3 "$db" 'SELECT DISTINCT host FROM nodes')
last5=$(sqlite3 "$db" "SELECT count(*) FROM (SELECT verdict FROM nodes ORDER BY run DESC LIMIT 5) WHERE verdict = 'fail'")

timeout 60 "$PF_BIN" history "$db" --last 0 > "$work/history.txt"
rc=$?
cat "$work/history.txt"
[[ $rc -eq 0 ]] || fail "history exited $rc"
for run in 1 2 3 4 5 6 7 8 9; do
  grep -qE "^ +$run  [0-9TZ:-]+ +1  (pass|warn|fail) " "$work/history.txt" || fail "run $run is not listed"
done
grep -qE "^  $host +$last5 +5  [PWFTE]{5}$" "$work/history.txt" || fail "$host is not named as failing $last5 of 5"
grep -q "^warn    history.flapping .*: $host$" "$work/history.txt" || fail "no flapping warning naming $host"

timeout 60 "$PF_BIN" history "$db" --strict > /dev/null
[[ $? -eq 1 ]] || fail "history --strict did not exit 1 with a flapping node"
timeout 60 "$PF_BIN" history "$db" --node "$host" --format html --output "$work/h.html" --json "$work/h.json" \
  > /dev/null || fail "history --node --format html"
grep -q 'id="history.allreduce"' "$work/h.html" || fail "the HTML has no all-reduce chart"
"$PF_PYTHON" "$PF_VALIDATE" "$PF_SCHEMA" "$work/h.json" || fail "schema validation of the history document"
python3 - "$work/h.json" "$host" <<'PY' || fail "the history document"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["context"]["command"] == "history", doc["context"]["command"]
by_key = {r["key"]: r for r in doc["results"]}
assert all(r["kind"] == "check" and r["key"].startswith("history.") for r in doc["results"])
assert [r["host"] for r in by_key["history.flapping"]["rows"]] == [sys.argv[2]]
assert len(by_key["history.bandwidth"]["rows"]) == 9
assert len([r for r in by_key["history.bandwidth"]["rows"] if r["allreduce_busbw_gbps"]]) == 3
PY

echo "not a database" > "$work/notes.txt"
out=$(timeout 30 "$PF_BIN" history "$work/notes.txt" 2>&1)
[[ $? -eq 2 && $out == *"is not a Preflight history file"* ]] || fail "history on a text file: $out"
out=$(timeout 60 "$PF_BIN" check --no-pairs --history "$work/notes.txt" 2>&1)
[[ $? -eq 2 && $out == *"is not a Preflight history file"* ]] || fail "check --history on a text file: $out"
[[ $(cat "$work/notes.txt") == "not a database" ]] || fail "the text file was changed"
out=$(timeout 30 "$PF_BIN" history "$work/missing.db" 2>&1)
[[ $? -eq 2 && $out == *"does not exist"* ]] || fail "history on a missing file: $out"
out=$(timeout 60 "$PF_BIN" check --no-pairs --history /proc/pf-history.db 2>&1)
[[ $? -eq 2 && $out == *"cannot write '/proc/pf-history.db'"* ]] || fail "check --history in an unwritable folder: $out"
out=$(timeout 30 "$PF_BIN" history "$db" --flapping 3/2 2>&1)
[[ $? -eq 2 && $out == *"expected K/N with 1 <= K <= N"* ]] || fail "--flapping 3/2: $out"
echo "PASS: 9 concurrent checks recorded, $host failed $last5 of its last 5"
