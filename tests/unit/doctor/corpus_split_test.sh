#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/doctor_corpus_split.py on a copy of the corpus: the corpus is split as its threads hash; a new case whose
# thread is already in the corpus, or cited by a rule, is skipped; the others go to the part their thread hashes to
# (a pull request as its /issues/N form); a malformed case is exit code 2 with nothing written.
# Usage: corpus_split_test.sh SOURCE_DIR PYTHON3
set -eu
src=$1
py=$2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/bench" "$t/tests/fixtures" "$t/tests/unit/doctor/data" "$t/doctor"
cp "$src/bench/doctor_corpus_split.py" "$t/bench/"
cp -r "$src/tests/fixtures/doctor-corpus" "$t/tests/fixtures/"
cp "$src/tests/unit/doctor/data/error_cases_dev.jsonl" "$t/tests/unit/doctor/data/"
cp -r "$src/doctor/rules" "$t/doctor/"
split="$py $t/bench/doctor_corpus_split.py"
$split --check >/dev/null
dev=$(wc -l <"$t/tests/fixtures/doctor-corpus/development.jsonl")
val=$(wc -l <"$t/tests/fixtures/doctor-corpus/validation.jsonl")
case_line() { # id thread
  printf '{"id": "%s", "log_excerpt": "x", "category": "shm", "root_cause": "r", "fix": "f", "thread": "%s", "status": "reporter_confirmed"}\n' "$1" "$2"
}
{
  case_line z-known https://github.com/NVIDIA/nccl/issues/1020
  case_line z-cited https://github.com/NVIDIA/nccl/issues/342#issuecomment-1
  case_line z-pr https://github.com/example/none/pull/77
} >"$t/new.jsonl"
out=$($split --append "$t/new.jsonl")
echo "$out" | grep -q '^skip z-known: its thread is already in development.jsonl'
echo "$out" | grep -q '^skip z-cited: its thread is already among the old development cases'
# sha256("https://github.com/example/none/issues/77") starts with an odd byte: validation.
echo "$out" | grep -q '^z-pr -> validation$'
test "$(wc -l <"$t/tests/fixtures/doctor-corpus/development.jsonl")" -eq "$dev"
test "$(wc -l <"$t/tests/fixtures/doctor-corpus/validation.jsonl")" -eq $((val + 1))
tail -n 1 "$t/tests/fixtures/doctor-corpus/validation.jsonl" | grep -q '"id": "z-pr"'
$split --check >/dev/null
# A case without its fields: exit code 2, the file and field named, nothing appended.
echo '{"id": "z-bad", "category": "shm"}' >"$t/bad.jsonl"
set +e
err=$($split --append "$t/bad.jsonl" 2>&1)
rc=$?
set -e
test "$rc" -eq 2
echo "$err" | grep -q 'bad.jsonl:1: field(s) log_excerpt, root_cause, fix, thread, status missing'
test "$(wc -l <"$t/tests/fixtures/doctor-corpus/validation.jsonl")" -eq $((val + 1))
echo "corpus_split_test: ok"
